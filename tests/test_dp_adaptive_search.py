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
