"""Tests of simulations.auctions.procurement against hand cases and a MILP (scipy.optimize.milp)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import LinearConstraint, milp

from simulations.auctions.procurement import (
    best_benchmark,
    distorted_greedy,
    seller_utility,
    threshold_payment,
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
