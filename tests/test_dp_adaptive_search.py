"""Unit tests of simulations.privacy.composition (composition, private vote aggregation, copy counts)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulations.privacy import (
    advanced_composition,
    copies_needed,
    correct_answer_probability,
    exact_privacy_loss,
    per_query_epsilon,
    vote_aggregation_probabilities,
    vote_neighbours,
)


def test_advanced_composition_hand_value_and_inverse():
    e0, T, d = 0.01, 100, 1e-5
    assert advanced_composition(e0, T, d) == pytest.approx(math.sqrt(200 * math.log(1e5)) * 0.01 + math.expm1(0.01))
    eps0 = per_query_epsilon(1.0, 500, 1e-6)
    assert advanced_composition(eps0, 500, 1e-6) == pytest.approx(1.0, rel=1e-10)
    assert per_query_epsilon(1.0, 500, 1e-6, "basic") == pytest.approx(1 / 500)
    with pytest.raises(ValueError):
        per_query_epsilon(1.0, 5, 1e-6, "weird")


def test_two_candidate_aggregation_loss_by_hand():
    # votes (3, 0) -> (2, 1): P(first) = e^{3e/2} / (e^{3e/2} + 1) vs e^{e} / (e^{e} + e^{e/2})
    e = 0.8
    p = vote_aggregation_probabilities([3, 0], e)
    q = vote_aggregation_probabilities([2, 1], e)
    np.testing.assert_allclose(p, [math.exp(1.2) / (math.exp(1.2) + 1), 1 / (math.exp(1.2) + 1)])
    np.testing.assert_allclose(q, [math.exp(0.8) / (math.exp(0.8) + math.exp(0.4)), math.exp(0.4) / (math.exp(0.8) + math.exp(0.4))])
    assert exact_privacy_loss(p, q) <= e


def test_vote_neighbours_count_and_privacy():
    v = np.array([3, 0, 2])
    nb = vote_neighbours(v)
    assert len(nb) == 2 * 2          # two candidates with votes, two destinations each
    assert all(w.sum() == 5 and np.abs(w - v).sum() == 2 for w in nb)
    rng = np.random.default_rng(0)
    for _ in range(20):
        votes = rng.multinomial(25, rng.dirichlet(np.ones(5)))
        p = vote_aggregation_probabilities(votes, 0.3)
        assert max(exact_privacy_loss(p, vote_aggregation_probabilities(w, 0.3)) for w in vote_neighbours(votes)) <= 0.3 + 1e-12


def test_correct_answer_probability_one_copy_and_monte_carlo():
    e, a, c = 1.0, 0.8, 4
    z = math.exp(e / 2) + 1 + (c - 2)
    assert correct_answer_probability(1, e, a, c) == pytest.approx(a * math.exp(e / 2) / z + (1 - a) / z)
    rng = np.random.default_rng(1)
    m, hits, n = 12, 0, 40_000
    k = rng.binomial(m, a, size=n)
    for kk in range(m + 1):
        sel = k == kk
        if sel.any():
            p = vote_aggregation_probabilities([kk, m - kk] + [0] * (c - 2), e)
            hits += rng.binomial(int(sel.sum()), p[0])
    assert hits / n == pytest.approx(correct_answer_probability(m, e, a, c), abs=4 * math.sqrt(0.25 / n))


def test_copies_needed_is_minimal_and_grows():
    m = copies_needed(50, 1.0, 1e-6, 0.9, 10, 0.05)
    eps0 = per_query_epsilon(1.0, 50, 1e-6)
    assert 50 * (1 - correct_answer_probability(m, eps0, 0.9, 10)) <= 0.05
    assert 50 * (1 - correct_answer_probability(m - 1, eps0, 0.9, 10)) > 0.05
    assert copies_needed(200, 1.0, 1e-6, 0.9, 10, 0.05) > m


# ----------------------------------------------------------------------------- adaptive c-ANN copies
from simulations.privacy import ann_copies_needed, ann_failure_probability  # noqa: E402


def test_ann_failure_one_copy_by_hand():
    # one copy: with prob p it votes for one of the s valid answers (votes (1, 0, ..., 0)), else no vote at all
    e, p, s, n = 0.8, 0.7, 3, 50
    z1 = math.exp(e / 2) + (n - 1)
    expected = p * (n - s) / z1 + (1 - p) * (n - s) / n
    assert ann_failure_probability(1, e, p, s, n) == pytest.approx(expected, rel=1e-12)


def test_ann_failure_matches_monte_carlo_of_the_mechanism():
    rng = np.random.default_rng(11)
    k, e, p, s, n, trials = 40, 0.3, 0.6, 4, 30, 60_000
    fails = 0
    v = rng.binomial(k, p, size=trials)
    for vv in np.unique(v):
        m = int(np.sum(v == vv))
        votes = np.zeros(n)
        votes[:s] = vv // s
        votes[: vv % s] += 1                     # the even split of the valid votes
        w = np.exp(e * votes / 2)
        fails += rng.binomial(m, w[s:].sum() / w.sum())
    exact = ann_failure_probability(k, e, p, s, n)
    assert fails / trials == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / trials))


def test_even_split_is_the_worst_split():
    # given V valid votes, any uneven split gives a larger valid mass (convexity), so a smaller failure
    e, s, n, V = 0.5, 3, 20, 7
    even = ann_failure_probability(V, e, 1.0, s, n)           # p = 1: exactly V = k valid votes
    for split in ([7, 0, 0], [5, 1, 1], [4, 3, 0]):
        w = np.exp(e * np.array(split) / 2).sum()
        assert (n - s) / (w + n - s) <= even + 1e-15


def test_ann_copies_needed_is_minimal():
    T, s, n = 200, 3, 1000
    k = ann_copies_needed(T, 1.0, 1e-6, 0.9, s, n, 0.05)
    eps0 = per_query_epsilon(1.0, T, 1e-6)
    assert T * ann_failure_probability(k, eps0, 0.9, s, n) <= 0.05
    assert T * ann_failure_probability(k - 1, eps0, 0.9, s, n) > 0.05


# ----------------------------------------------------------------------------- the JL structure and the adaptive attack
from simulations.privacy import (  # noqa: E402
    copy_error_probability,
    invalid_radius_limit,
    private_epsilon0,
    run_attack,
)


def _literal_answers_x1(proj, q):
    """Copies answering x1 = e_1 to query q: nearest data point after projection, by explicit distances."""
    e1 = np.zeros(q.size)
    e1[0] = 1.0
    d0 = np.linalg.norm(proj @ q, axis=1)           # proj: (k, m, d) -> (k, m)
    d1 = np.linalg.norm(proj @ (q - e1), axis=1)
    return int(np.count_nonzero(d1 < d0))


def test_copy_error_probability_against_explicit_projections():
    rng = np.random.default_rng(5)
    m, d, r, n = 4, 12, 0.5, 40_000
    proj = rng.standard_normal((n, m, d)) / math.sqrt(m)
    u = rng.standard_normal(d)
    u[0] = 0.0
    q = r * u / np.linalg.norm(u)
    e1 = np.eye(d)[0]
    errs = np.count_nonzero(np.linalg.norm(proj @ (q - e1), axis=1) < np.linalg.norm(proj @ q, axis=1))
    p = copy_error_probability(m, r)
    assert errs / n == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / n))
    # m -> infinity: the projection preserves distances, no copy errs; m = 1, r -> infinity: a fair coin
    assert copy_error_probability(400, 0.5) < 1e-30
    assert copy_error_probability(1, 1e6) == pytest.approx(0.5, abs=1e-3)


def test_invalid_radius_by_hand():
    # c = 2: 1 + r^2 = 4 r^2 at r = 1/sqrt(3)
    assert invalid_radius_limit(2.0) == pytest.approx(1 / math.sqrt(3))
    r = 0.5
    assert math.sqrt(1 + r**2) / r > 2.0            # the test query's far point is not a 2-approximate neighbour
    with pytest.raises(ValueError):
        invalid_radius_limit(1.0)


@pytest.mark.parametrize("adaptive", [True, False])
def test_attack_votes_match_explicit_projections(adaptive):
    # the coordinate-wise run on given matrices reproduces the copies' answers computed from explicit queries
    rng = np.random.default_rng(8)
    k, m, budget, r = 7, 3, 60, 0.5
    d = budget // 2 + 1
    proj = rng.standard_normal((k, m, d)) / math.sqrt(m)
    run = run_attack(np.random.default_rng(1), k, m, budget, radius=r, projections=proj, trace=True,
                     adaptive=adaptive)
    votes = run.x1_votes
    signs = []
    for i in range(len(votes) // 2):
        probe = np.zeros(d)
        probe[0], probe[i + 1] = 0.5, 1.0
        assert votes[2 * i] == _literal_answers_x1(proj, probe)
        signs.append(1.0 if 2 * votes[2 * i] > k else -1.0)
        if adaptive:
            test = np.zeros(d)
            test[1:i + 2] = r * np.array(signs) / math.sqrt(i + 1)
            assert votes[2 * i + 1] == _literal_answers_x1(proj, test)
    assert run.queries == len(votes)


def test_plain_majority_stops_at_first_wrong_majority():
    run = run_attack(np.random.default_rng(3), 21, 4, 4000, trace=True)
    tests = run.x1_votes[1::2]
    wrong = np.nonzero(2 * tests > 21)[0]
    assert run.wrong_at == 2 * (wrong[0] + 1) == run.queries and wrong.size == 1


def test_private_aggregation_frequency_matches_exponential_mechanism():
    # a single copy and a long budget: every test answer is drawn with P(x1) = e^{e v1/2} / (e^{e v0/2} + e^{e v1/2})
    e0, n_runs = 1.3, 4000
    firsts = [run_attack(np.random.default_rng(s), 1, 4, 2, aggregation="private", epsilon0=e0, trace=True)
              for s in range(n_runs)]
    # two queries: a probe and a test; the test is wrong iff the mechanism answered x1 to it
    v = np.array([f.x1_votes[1] for f in firsts])
    wrong = np.array([f.wrong_at is not None for f in firsts])
    for votes in (0, 1):
        sel = v == votes
        p = math.exp(e0 * votes / 2) / (math.exp(e0 * votes / 2) + math.exp(e0 * (1 - votes) / 2))
        assert wrong[sel].mean() == pytest.approx(p, abs=4 * math.sqrt(p * (1 - p) / sel.sum()))


def test_private_epsilon0_meets_the_union_bound():
    k, T, a, beta = 101, 1000, 0.75, 0.05
    e0 = private_epsilon0(k, T, a, beta)
    # independent value: direct binomial sum of the two-candidate exponential mechanism
    from scipy import stats
    j = np.arange(k + 1)
    pc = np.sum(stats.binom.pmf(j, k, a) / (1 + np.exp(-e0 * (2 * j - k) / 2)))
    assert T * (1 - pc) == pytest.approx(beta, rel=1e-6)
    with pytest.raises(ValueError):
        private_epsilon0(3, 10**9, 0.6, 1e-9)
    with pytest.raises(ValueError):
        run_attack(np.random.default_rng(0), 4, 4, 10)          # even number of copies
