"""Unit tests of simulations.streaming (l_p regression costs, Lewis weights, column sampling)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from scipy import optimize

from simulations.streaming import (
    barbell_with_bridges,
    coherent_instance,
    holder_conjugate,
    incidence_matrix,
    lewis_weights,
    lp_regression_cost,
    sample_columns,
    sampling_probabilities,
    st_demand,
)


def test_holder_conjugates():
    assert holder_conjugate(2) == 2 and holder_conjugate(math.inf) == 1 and holder_conjugate(1) == math.inf
    assert holder_conjugate(4) == pytest.approx(4 / 3)


def test_costs_on_a_hand_instance():
    # min ||x|| s.t. x1 + x2 = 2: p=1 -> 2, p=2 -> sqrt(2), p=inf -> 1
    A, b = np.array([[1.0, 1.0]]), np.array([2.0])
    assert lp_regression_cost(A, b, 1) == pytest.approx(2.0)
    assert lp_regression_cost(A, b, 2) == pytest.approx(math.sqrt(2))
    assert lp_regression_cost(A, b, math.inf) == pytest.approx(1.0)
    assert lp_regression_cost(A, b, 4) == pytest.approx(2 * 2 ** -0.75, rel=1e-6)   # x = (1, 1)
    assert lp_regression_cost(np.array([[1.0, 0.0]]), np.array([0.0]), math.inf) == 0.0


def test_infeasible_system_costs_inf():
    A, b = np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0])
    for p in (1, 2, math.inf):
        assert lp_regression_cost(A, b, p) == math.inf


def test_general_p_matches_holder_dual():
    rng = np.random.default_rng(0)
    A, b = rng.standard_normal((3, 12)), rng.standard_normal(3)
    p, q = 3.0, 1.5
    dual = -optimize.minimize(lambda y: -(b @ y) / np.linalg.norm(A.T @ y, q), rng.standard_normal(3),
                              method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20000}).fun
    assert lp_regression_cost(A, b, p) == pytest.approx(dual, rel=1e-5)


def test_leverage_scores_and_lewis_weights():
    rng = np.random.default_rng(1)
    A = rng.standard_normal((4, 30))
    lev = lewis_weights(A, 2.0)
    Q, _ = np.linalg.qr(A.T)
    np.testing.assert_allclose(lev, np.sum(Q**2, axis=1), rtol=1e-10)
    for q in (1.0, 1.5, 3.0):
        w = lewis_weights(A, q)
        assert w.sum() == pytest.approx(4.0, rel=1e-6)
        # fixed point: w_j = (a_j^T (A W^{1-2/q} A^T)^-1 a_j)^{q/2}
        G = np.linalg.inv((A * w ** (1 - 2 / q)) @ A.T)
        np.testing.assert_allclose(w, np.einsum("ij,ik,kj->j", A, G, A) ** (q / 2), rtol=1e-6)
    with pytest.raises(ValueError):
        lewis_weights(A, 4.0)


def test_lewis_weights_of_incidence_are_effective_resistances():
    G = nx.cycle_graph(6)
    B = incidence_matrix(G)
    np.testing.assert_allclose(lewis_weights(B, 2.0), np.full(6, 5 / 6), rtol=1e-10)   # R_eff(edge) = 1*5/6


def test_sampling_keeps_probability_one_columns_unscaled():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((2, 50))
    As, kept = sample_columns(rng, A, np.ones(50), 2.0)
    np.testing.assert_array_equal(kept, np.arange(50))
    np.testing.assert_allclose(As, A)
    pi = sampling_probabilities(np.full(50, 0.01), 10.0)
    np.testing.assert_allclose(pi, 0.1)
    As, kept = sample_columns(rng, A, pi, 1.0)
    np.testing.assert_allclose(As, A[:, kept] * 10.0)


def test_flow_special_cases_closed_forms():
    # K_n: R_eff = 2/n; cycle C_n at distance k: k(n-k)/n
    G = nx.complete_graph(7)
    assert lp_regression_cost(incidence_matrix(G), st_demand(G, 0, 1), 2) ** 2 == pytest.approx(2 / 7)
    C = nx.cycle_graph(9)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), 2) ** 2 == pytest.approx(3 * 6 / 9)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), math.inf) == pytest.approx(0.5)
    assert lp_regression_cost(incidence_matrix(C), st_demand(C, 0, 3), 1) == pytest.approx(3.0)
    Bb = barbell_with_bridges(5, 2)
    assert Bb.number_of_edges() == 2 * 10 + 2
    assert lp_regression_cost(incidence_matrix(Bb), st_demand(Bb, 2, 7), math.inf) == pytest.approx(0.5)


def test_coherent_instance_shape_and_balance():
    A, b = coherent_instance(np.random.default_rng(3), 5, 1005, q=1.0)
    assert A.shape == (5, 1005) and b.shape == (5,)
    np.testing.assert_allclose(A[:, -5:], np.sqrt(1000) * np.eye(5))


# ----------------------------------------------------------------------------- one pass, p in (1, 2)
def test_online_sampler_with_huge_oversampling_keeps_every_column_unscaled():
    from simulations.streaming import online_leverage_sampling
    rng = np.random.default_rng(0)
    A = rng.standard_normal((4, 50))
    As, kept = online_leverage_sampling(rng, A, 1e12, 1e-3, block=7)
    np.testing.assert_array_equal(kept, np.arange(50))
    np.testing.assert_allclose(As, A, rtol=1e-12)


def test_online_scores_match_direct_inverse_column_by_column():
    # With block=1 the first kept column's score against ridge I is s/(1+s), s = ||a||^2/ridge; a column
    # orthogonal to everything kept scores the same way.
    from simulations.streaming import online_leverage_sampling
    A = np.diag([3.0, 0.5, 2.0])
    ridge = 0.25
    # pi_j = min(1, c s/(1+s)) with s = a_j^2 / ridge; c = 0.5 keeps probabilities below 1
    As, kept = online_leverage_sampling(np.random.default_rng(1), A, 0.5, ridge, block=1, uniform_probability=None)
    for j, col in zip(kept, As.T, strict=True):
        s = A[j, j] ** 2 / ridge
        pi = 0.5 * s / (1 + s)
        assert col[j] == pytest.approx(A[j, j] / math.sqrt(pi), rel=1e-12)


def test_dual_cost_matches_cvxpy_and_the_p2_closed_form():
    from simulations.streaming import lp_regression_cost_dual
    rng = np.random.default_rng(2)
    A, b = rng.standard_normal((5, 40)), rng.standard_normal(5)
    for p in (1.3, 1.5, 3.0):
        assert lp_regression_cost_dual(A, b, p) == pytest.approx(lp_regression_cost(A, b, p), rel=1e-6)
    assert lp_regression_cost_dual(A, b, 2.0) == pytest.approx(math.sqrt(b @ np.linalg.solve(A @ A.T, b)), rel=1e-9)


def test_dual_cost_is_infinite_when_infeasible():
    from simulations.streaming import lp_regression_cost_dual
    A = np.zeros((3, 5))
    A[:2] = np.random.default_rng(3).standard_normal((2, 5))
    assert math.isinf(lp_regression_cost_dual(A, np.ones(3), 1.5))


def test_isolated_rows_instance_structure():
    from simulations.streaming import isolated_rows_instance
    A, b = isolated_rows_instance(np.random.default_rng(4), 6, 100, 2, 3)
    assert A.shape == (6, 100) and b.shape == (6,)
    for i, row in enumerate((4, 5)):
        support = np.nonzero(A[row])[0]
        np.testing.assert_array_equal(support, 94 + 3 * i + np.arange(3))
        assert not np.any(A[:, support][np.arange(6) != row])


def test_p2_cost_through_the_gram_matrix_matches_the_wide_least_squares_solution():
    rng = np.random.default_rng(5)
    A, b = rng.standard_normal((6, 500)), rng.standard_normal(6)
    x, *_ = np.linalg.lstsq(A, b, rcond=None)                      # minimum-norm solution (SVD)
    assert lp_regression_cost(A, b, 2.0) == pytest.approx(np.linalg.norm(x), rel=1e-10)
    # rank-deficient A (a path graph's incidence) with b in its range: resistance distance 3 between ends
    B = incidence_matrix(nx.path_graph(4))
    assert lp_regression_cost(B, st_demand(nx.path_graph(4), 0, 3), 2.0) == pytest.approx(math.sqrt(3.0), rel=1e-10)


def test_wrong_rescaling_biases_the_q_norm():
    # keeping every column with probability pi = 1/8 and rescaling by pi^(-1/2) instead of pi^(-1/q), q = 3:
    # E ||A'^T y||_q^q = pi^(1 - q/2) ||A^T y||_q^q = 8^(1/2) ||A^T y||_q^q
    rng = np.random.default_rng(6)
    A, y = rng.standard_normal((3, 40_000)), rng.standard_normal(3)
    pi = np.full(A.shape[1], 1 / 8)
    right, _ = sample_columns(rng, A, pi, 3.0)
    wrong, _ = sample_columns(rng, A, pi, 3.0, rescale_power=0.5)
    full = np.sum(np.abs(A.T @ y) ** 3)
    assert np.sum(np.abs(right.T @ y) ** 3) / full == pytest.approx(1.0, rel=0.05)
    assert np.sum(np.abs(wrong.T @ y) ** 3) / full == pytest.approx(math.sqrt(8.0), rel=0.05)
