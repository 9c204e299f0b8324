"""Unit tests of simulations.inverse_opt against independent values (vertex enumeration, weighted medians,
direct evaluation of the losses)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

import theorems.icml2025.io_feasible_regions  # noqa: F401  (registers the paper)
from simulations.inverse_opt.feasible_regions import (
    Polytope,
    baseline_decisions,
    decisions,
    l1_regression_on_vertices,
    polytope_vertices,
    projected_affine_baseline,
    random_polytope,
    rotating_costs,
    smoothed_decisions,
    solve_inner,
    train_predictability_milp,
    train_suboptimality,
    triangle,
)
from workbench.conformance import check_paper


def test_paper_conforms_statically():
    problems = {what: found for what, found in check_paper("io_feasible_regions", run=False).items() if found}
    assert problems == {}


def test_triangle_vertices_and_random_polytope_contain_the_unit_ball():
    V = polytope_vertices(triangle())
    assert sorted(map(tuple, np.round(V, 12))) == [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)]
    Z = random_polytope(3, 8, np.random.default_rng(0))
    # the unit ball lies inside: every facet's distance from the origin is at least 1
    assert np.all(Z.h / np.linalg.norm(Z.H, axis=1) >= 1 - 1e-12)
    V = polytope_vertices(Z)
    assert np.all(Z.H @ V.T <= Z.h[:, None] + 1e-9)


def test_highs_optimum_equals_the_best_vertex():
    rng = np.random.default_rng(1)
    Z = random_polytope(3, 8, rng)
    V = polytope_vertices(Z)
    for _ in range(20):
        c = rng.standard_normal(3)
        z, val, lam = solve_inner(Z, c)
        assert val == pytest.approx(float(np.min(V @ c)), abs=1e-9)
        # dual feasibility and strong duality: c + H^T lam = 0, lam >= 0, -h^T lam = value
        assert np.allclose(c + Z.H.T @ lam, 0, atol=1e-9) and np.all(lam >= -1e-12)
        assert -Z.h @ lam == pytest.approx(val, abs=1e-9)


def test_decisions_by_lp_and_by_vertices_agree():
    rng = np.random.default_rng(2)
    Z = random_polytope(3, 6, rng)
    A = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    theta = rng.standard_normal((3, 3))
    phi = np.column_stack([np.ones(10), rng.uniform(-1, 1, (10, 2))])
    C = rng.standard_normal((10, 3))
    assert np.allclose(decisions(Z, A, theta, phi, C), decisions(Z, A, theta, phi, C, vertices=polytope_vertices(Z)),
                       atol=1e-8)


def _suboptimality_loss(Z, A, theta, phi, C, X, kappa):
    """The loss evaluated directly: one forward LP and one distance LP per sample (no training LP involved)."""
    total = 0.0
    for i in range(len(X)):
        _, v, _ = solve_inner(Z, A.T @ C[i])
        b = theta @ phi[i]
        # g(x) = min_{z in Z} ||x - A z - b||_1 as an LP in (z, t)
        k, m = Z.dim, A.shape[0]
        cost = np.concatenate([np.zeros(k), np.ones(m)])
        A_ub = np.block([[-A, -np.eye(m)], [A, -np.eye(m)], [Z.H, np.zeros((Z.H.shape[0], m))]])
        b_ub = np.concatenate([-(X[i] - b), X[i] - b, Z.h])
        g = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=[(None, None)] * k + [(0, None)] * m, method="highs").fun
        total += C[i] @ X[i] - C[i] @ b - v + kappa * g
    return total


def test_suboptimality_training_recovers_and_is_the_global_minimum():
    rng = np.random.default_rng(3)
    Z = random_polytope(3, 8, rng)
    A = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    theta = rng.standard_normal((3, 3))
    phi = np.column_stack([np.ones(15), rng.uniform(-1, 1, (15, 2))])
    C = rng.standard_normal((15, 3))
    C /= np.linalg.norm(C, axis=1, keepdims=True)
    X = decisions(Z, A, theta, phi, C) + 0.01 * rng.standard_normal((15, 3))
    prob, theta_hat = train_suboptimality(Z, A, phi, C, X)
    kappa = 2 * np.abs(C).max()
    # the training LP's value is the directly evaluated loss at its solution, and no random Theta does better
    assert prob.value == pytest.approx(_suboptimality_loss(Z, A, theta_hat, phi, C, X, kappa), abs=1e-6)
    for _ in range(5):
        other = theta_hat + 0.05 * rng.standard_normal((3, 3))
        assert _suboptimality_loss(Z, A, other, phi, C, X, kappa) >= prob.value - 1e-6
    # noiseless data: the loss is 0 at the true Theta and the LP returns it
    X0 = decisions(Z, A, theta, phi, C)
    assert _suboptimality_loss(Z, A, theta, phi, C, X0, kappa) == pytest.approx(0.0, abs=1e-7)
    _, theta0 = train_suboptimality(Z, A, phi, C, X0, vertices=polytope_vertices(Z))
    assert np.allclose(theta0, theta, atol=1e-6)


def test_l1_regression_with_one_feature_is_a_weighted_median():
    # one output, one feature: min_theta sum |r_i - theta f_i| is the weighted median of r_i/f_i (weights |f_i|)
    rng = np.random.default_rng(4)
    Z = Polytope(np.array([[1.0], [-1.0]]), np.array([1.0, 1.0]))     # [-1, 1]
    A = np.array([[1.0]])
    f = rng.uniform(0.5, 2.0, 9)
    C = rng.choice([-1.0, 1.0], size=(9, 1))
    zstar = np.where(C[:, 0] > 0, -1.0, 1.0)
    X = (zstar + 0.7 * f + 0.2 * rng.standard_normal(9))[:, None]
    value, theta = l1_regression_on_vertices(Z, A, f[:, None], C, X)
    ratio, w = (X[:, 0] - zstar) / f, f
    order = np.argsort(ratio)
    cum = np.cumsum(w[order])
    median = ratio[order][np.searchsorted(cum, cum[-1] / 2)]
    assert theta[0, 0] == pytest.approx(median, abs=1e-9)
    assert value == pytest.approx(np.sum(np.abs(X[:, 0] - zstar - median * f)), abs=1e-9)


def test_predictability_milp_matches_regression_and_relaxations_are_lower():
    rng = np.random.default_rng(5)
    Z = random_polytope(3, 6, rng)
    A = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    theta = rng.standard_normal((3, 3))
    phi = np.column_stack([np.ones(8), rng.uniform(-1, 1, (8, 2))])
    C = rng.standard_normal((8, 3))
    X = decisions(Z, A, theta, phi, C) + 0.05 * rng.standard_normal((8, 3))
    prob, _ = train_predictability_milp(Z, A, phi, C, X)
    ref, _ = l1_regression_on_vertices(Z, A, phi, C, X)
    assert prob.value == pytest.approx(ref, rel=1e-7)
    relaxed, _ = train_predictability_milp(Z, A, phi, C, X, relax=True)
    assert relaxed.value <= ref + 1e-7


def test_jump_of_the_decision_map_and_the_continuous_lower_bound():
    A = np.array([[1.0, 0.4], [-0.2, 0.8]])
    theta = np.array([[0.5, 1.0], [-0.3, 0.8]])
    s = np.array([0.5 - 1e-6, 0.5 + 1e-6])
    phi = np.column_stack([np.ones(2), s])
    X = decisions(triangle(), A, theta, phi, rotating_costs(s, A))
    assert np.allclose(X, decisions(triangle(), A, theta, phi, rotating_costs(s, A),
                                    vertices=polytope_vertices(triangle())), atol=1e-12)
    jump = np.linalg.norm(A[:, 0] - A[:, 1])
    assert np.linalg.norm(X[1] - X[0]) == pytest.approx(jump, abs=1e-5)
    # a map f errs by at least (|x(s+) - x(s-)| - |f(s+) - f(s-)|)/2 on one side (triangle inequality), which
    # tends to jump/2 for a continuous f as the points close in (the smoothed class is continuous)
    sm = smoothed_decisions(triangle(), A, theta, phi, rotating_costs(s, A), eps=1e-3)
    own = np.linalg.norm(sm[1] - sm[0])
    assert own < 0.01 * jump
    assert max(np.linalg.norm(sm - X, axis=1)) >= (np.linalg.norm(X[1] - X[0]) - own) / 2 - 1e-12


def test_objective_only_baseline_is_a_projected_least_squares_fit():
    rng = np.random.default_rng(6)
    phi = np.column_stack([np.ones(30), rng.uniform(0, 1, 30)])
    W = np.array([[1.0, -2.0], [0.5, 3.0]])
    X = phi @ W.T
    lo, hi = np.array([-0.5, 0.0]), np.array([1.5, 2.0])
    W_hat = projected_affine_baseline(phi, X, X.min(0) - 1, X.max(0) + 1)
    assert np.allclose(W_hat, W, atol=1e-10)
    assert np.allclose(baseline_decisions(W, phi, lo, hi), np.clip(X, lo, hi))


def test_smoothed_decisions_converge_to_the_lp_away_from_the_jump():
    A = np.eye(2)
    s = np.array([0.1, 0.9])
    phi = np.column_stack([np.ones(2), s])
    exact = decisions(triangle(), A, np.zeros((2, 2)), phi, rotating_costs(s, A))
    for eps, tol in ((1e-2, 5e-2), (1e-4, 5e-4)):
        approx = smoothed_decisions(triangle(), A, np.zeros((2, 2)), phi, rotating_costs(s, A), eps=eps)
        assert np.max(np.abs(approx - exact)) < tol
    with pytest.raises(ValueError):
        smoothed_decisions(triangle(), A, np.zeros((2, 2)), phi, rotating_costs(s, A), eps=0.0)
