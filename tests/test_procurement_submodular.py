"""Tests of simulations.auctions.procurement against hand cases and a MILP (scipy.optimize.milp)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import LinearConstraint, milp

from simulations.auctions.procurement import (
    auctioneer_surplus,
    best_benchmark,
    bicriteria_alpha,
    descending_auction,
    distorted_greedy,
    greedy_tight_instance,
    least_efficient_first,
    online_posted_prices,
    seller_utility,
    threshold_payment,
    two_seller_instance,
    weighted_coverage,
)


def test_weighted_coverage_hand_case_and_submodularity():
    f = weighted_coverage([[0, 1], [1, 2], [3]], [1.0, 2.0, 4.0, 8.0])
    assert f(frozenset()) == 0.0
    assert f(frozenset({0})) == 3.0 and f(frozenset({0, 1})) == 7.0 and f(frozenset({0, 1, 2})) == 15.0
    rng = np.random.default_rng(0)
    covers = [np.flatnonzero(rng.random(12) < 0.3) for _ in range(6)]
    g = weighted_coverage(covers, rng.uniform(size=12))
    for a in range(6):
        for B in itertools.combinations([x for x in range(6) if x != a], 3):
            A = frozenset(B[:1])
            B = frozenset(B)
            assert g(A | {a}) - g(A) >= g(B | {a}) - g(B) - 1e-12


def _milp_benchmark(covers, w, c, k, alpha):
    n, m = len(covers), len(w)
    # variables: x_0..x_{n-1} (sellers), y_0..y_{m-1} (items covered)
    obj = -np.r_[-np.asarray(c), alpha * np.asarray(w)]
    rows, lb, ub = [], [], []
    for j in range(m):  # y_j <= sum_{i covers j} x_i
        row = np.zeros(n + m)
        row[n + j] = 1.0
        for i in range(n):
            if j in covers[i]:
                row[i] = -1.0
        rows.append(row)
        lb.append(-np.inf)
        ub.append(0.0)
    rows.append(np.r_[np.ones(n), np.zeros(m)])
    lb.append(0.0)
    ub.append(k)
    res = milp(obj, constraints=LinearConstraint(np.array(rows), lb, ub), integrality=np.ones(n + m),
               bounds=(0, 1))
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("seed", range(4))
def test_benchmark_matches_a_milp(seed):
    rng = np.random.default_rng(seed)
    covers = [set(np.flatnonzero(rng.random(15) < 0.25).tolist()) for _ in range(7)]
    w, c = rng.uniform(size=15), rng.uniform(0, 1.5, size=7)
    f = weighted_coverage([sorted(x) for x in covers], w)
    assert best_benchmark(f, c, 3, 1 - 1 / np.e) == pytest.approx(_milp_benchmark(covers, w, c, 3, 1 - 1 / np.e), abs=1e-7)


def test_distorted_greedy_with_k_one_and_its_threshold():
    # k = 1: pick argmax f(e) - c_e when positive; singletons are worth 3, 5, 2
    f = weighted_coverage([[0], [1], [2]], [3.0, 5.0, 2.0])
    c = np.array([1.0, 2.5, 0.5])
    assert distorted_greedy(f, c, 1) == frozenset({1})   # scores 2, 2.5, 1.5
    # seller 1 keeps winning while 5 - b > 2 (seller 0's score): threshold 3
    assert threshold_payment(lambda b: distorted_greedy(f, b, 1), c, 1, high=10.0) == pytest.approx(3.0, abs=1e-8)
    alloc = lambda b: distorted_greedy(f, b, 1)  # noqa: E731
    assert seller_utility(alloc, c, 1, 2.5, 10.0) == pytest.approx(0.5, abs=1e-8)
    assert seller_utility(alloc, c, 1, 2.5, 10.0, payment_rule="pay_as_bid") == 0.0


def test_distorted_greedy_two_steps_by_hand():
    # k = 2: step 0 scales gains by 1/2, step 1 by 1.
    f = weighted_coverage([[0, 1], [1], [2]], [1.0, 1.0, 1.0])
    c = np.array([0.6, 0.1, 0.45])
    # step 0 scores: 0.5*2-0.6 = 0.4, 0.5-0.1 = 0.4, 0.5-0.45 = 0.05 -> seller 0 (lower index)
    # step 1 from {0}: gains 0, 0, 1 -> scores -0.1, -0.1 (well, 0 - 0.1), 0.55 -> seller 2
    assert distorted_greedy(f, c, 2) == frozenset({0, 2})


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        weighted_coverage([[0]], [-1.0])
    with pytest.raises(ValueError):
        distorted_greedy(weighted_coverage([[0]], [1.0]), [0.1], 0)


def test_auctioneer_surplus_hand_cases():
    # one seller worth 1, k = 1: selected while 1 - b > 0, so it is paid 1 and the surplus is 0
    f = weighted_coverage([[0]], [1.0])
    alloc = lambda b: distorted_greedy(f, b, 1)  # noqa: E731
    assert auctioneer_surplus(f, alloc, np.array([0.3]), 2.0) == pytest.approx(0.0, abs=1e-9)
    # two identical sellers: the cheaper (0.2) wins until it bids the rival's 0.5 (ties go to the
    # lower index), so the surplus is 1 - 0.5
    g = weighted_coverage([[0], [0]], [1.0])
    alloc2 = lambda b: distorted_greedy(g, b, 1)  # noqa: E731
    assert auctioneer_surplus(g, alloc2, np.array([0.2, 0.5]), 2.0) == pytest.approx(0.5, abs=1e-9)


def test_bicriteria_alpha_closed_form_and_the_potential_argument():
    assert bicriteria_alpha(1.0) == pytest.approx(1 - np.exp(-1.0), rel=1e-15)
    assert bicriteria_alpha(0.0) == 0.0
    with pytest.raises(ValueError):
        bicriteria_alpha(-0.1)
    # the potential argument's points (m / k, 1 - (1 - 1/k)^m) lie above the curve, and so do the
    # chords between them
    for k in (1, 2, 3, 5, 10, 40):
        beta = np.linspace(0, 1, 2001)
        pts_b = np.arange(k + 1) / k
        pts_a = 1 - (1 - 1 / k) ** np.arange(k + 1)
        assert np.all(np.interp(beta, pts_b, pts_a) >= 1 - np.exp(-beta) - 1e-15)


def test_marginal_gains_match_differences_of_values():
    rng = np.random.default_rng(3)
    covers = [np.flatnonzero(rng.random(20) < 0.3) for _ in range(7)]
    f = weighted_coverage(covers, rng.uniform(size=20))
    for S in (frozenset(), frozenset({1}), frozenset({0, 4, 6})):
        direct = [0.0 if e in S else f(S | {e}) - f(S) for e in range(7)]
        assert np.allclose(f.marginal_gains(S), direct, atol=1e-12)
    assert f.scaled(2.5)(frozenset({0, 1})) == pytest.approx(2.5 * f(frozenset({0, 1})), rel=1e-12)


def _tight_welfare(k, C, margin):
    """Welfare of distorted greedy on the tight instance, from the construction by hand: it
    takes one decoy at each step t with (1 - 1/k)^(k-1-t) (1 + margin) / k > C / k."""
    m = sum((1 - 1 / k) ** (k - 1 - t) * (1 + margin) / k > C / k for t in range(k))
    return (1 + margin) * (1 - (1 - 1 / k) ** m) - m * C / k


@pytest.mark.parametrize("k, beta", [(5, 0.5), (20, 0.25), (60, 1.0), (60, 0.1)])
def test_tight_instance_welfare_and_its_limit(k, beta):
    C = math.exp(-beta)
    f, c, good = greedy_tight_instance(k, C)
    S = distorted_greedy(f, c, k)
    W = f(S) - float(c[list(S)].sum())
    assert W == pytest.approx(_tight_welfare(k, C, 1e-9), abs=1e-12)
    assert f(good) == pytest.approx(1.0, abs=1e-12) and float(c[list(good)].sum()) == pytest.approx(C, rel=1e-12)
    assert not S & good                  # only decoys are taken
    # the welfare stays above the curve's value for O and approaches it like 1/k
    curve = (1 - math.exp(-beta)) - beta * math.exp(-beta)
    assert curve <= W <= curve + 3.0 / k


def test_tight_instance_without_costs_is_the_classical_greedy_instance():
    f, c, good = greedy_tight_instance(50, 0.0)
    S = distorted_greedy(f, c, 50)
    assert f(S) == pytest.approx(1 - (1 - 1 / 50) ** 50, abs=1e-8) and f(good) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        greedy_tight_instance(1, 0.5)
    with pytest.raises(ValueError):
        greedy_tight_instance(10, 1.0)


def test_two_seller_instance_meets_the_half_guarantee_with_equality():
    f, c = two_seller_instance(0.5, 0.0)
    S, paid = online_posted_prices(f, c, [0, 1])
    assert S == frozenset({0}) and paid == {0: 0.5}
    welfare = f(S) - float(c[list(S)].sum())
    assert welfare == pytest.approx(0.5) and best_benchmark(f, c, 2, 0.5) == pytest.approx(0.5)
    # buying at 0.55 of the marginal value loses the guarantee at cost 0.55
    f, c = two_seller_instance(0.55, 0.0)
    S, _ = online_posted_prices(f, c, [0, 1], 0.55)
    welfare = f(S) - float(c[list(S)].sum())
    assert welfare == pytest.approx(0.45) and best_benchmark(f, c, 2, 0.5) == pytest.approx(0.5)


def test_descending_auction_hand_case():
    # two sellers of the same service (value 1), costs 0.99 and 0: the half-marginal rule lets the
    # expensive one quit (price 1/2 < 0.99) and buys the free one at 1/2, whatever the schedule
    f = weighted_coverage([[0], [0]], [1.0])
    c = np.array([0.99, 0.0])
    rng = np.random.default_rng(0)
    for schedule in ("random", "adversarial"):
        for _ in range(5):
            S, paid = descending_auction(f, c, rng, 0.5, schedule=schedule)
            assert S == frozenset({1}) and paid == {1: 0.5}
    # the full-marginal rule under the adversary buys the expensive seller first (welfare 0.01)
    S, paid = descending_auction(f, c, rng, 1.0, schedule="adversarial")
    assert S == frozenset({0}) and paid == {0: 1.0}
    with pytest.raises(ValueError):
        descending_auction(f, c, rng, 0.5, schedule="sorted")


def test_online_posted_prices_hand_case():
    # same two sellers as above: arriving first, the expensive one is offered 1/2 < 0.99 and
    # refused; the free one is then bought at 1/2.  With full-value prices the adversarial order
    # (least efficient first) buys the expensive one at 1 and the free one adds nothing.
    f = weighted_coverage([[0], [0]], [1.0])
    c = np.array([0.99, 0.0])
    assert online_posted_prices(f, c, [0, 1]) == (frozenset({1}), {1: 0.5})
    assert online_posted_prices(f, c, [1, 0]) == (frozenset({1}), {1: 0.5})
    order = least_efficient_first(f, c, 1.0)
    assert order == [0, 1]
    assert online_posted_prices(f, c, order, 1.0) == (frozenset({0}), {0: 1.0})
    with pytest.raises(ValueError):
        online_posted_prices(f, c, [0, 0])
