"""Unit tests of simulations.training.lora against independent values (finite differences, cvxpy's
solution of the nuclear-norm problem, closed forms, scipy optimisation)."""

from __future__ import annotations

import math

import cvxpy as cp
import numpy as np
import pytest
from scipy import optimize

from simulations.training import (
    DoubleWellLoss,
    QuadraticLoss,
    balanced_factors,
    certify,
    distance_bound,
    feasibility,
    gradient_descent,
    lora_hessian,
    lora_value_grad,
    nuclear_prox_solve,
    optimality_residual,
    random_quadratic,
    random_rotation,
    rank_one_rayleigh_max,
    ratio_bound_terms,
    reachable_along,
    regularised_value,
    smallest_feasible_q,
    spurious_instance,
    t_min,
)


def _fd(f, z, eps=1e-6):
    return np.array([(f(z + eps * e) - f(z - eps * e)) / (2 * eps) for e in np.eye(z.size)])


@pytest.mark.parametrize("which", ["quadratic", "double well"])
def test_lora_gradient_and_hessian_match_finite_differences(which):
    rng = np.random.default_rng(0)
    if which == "quadratic":
        loss = random_quadratic(rng, (3, 4), 5.0)
    else:
        P, Q = random_rotation(rng, 3), random_rotation(rng, 4)
        loss = DoubleWellLoss(P[:, 0], Q[:, 0])
    lam, r = 0.3, 2
    z = rng.normal(size=(3 + 4) * r)
    val, g = lora_value_grad(z, loss, lam, r)
    assert np.allclose(g, _fd(lambda w: lora_value_grad(w, loss, lam, r)[0], z), atol=1e-6)
    H = lora_hessian(z, loss, lam, r)
    Hfd = np.stack([(lora_value_grad(z + 1e-6 * e, loss, lam, r)[1] - lora_value_grad(z - 1e-6 * e, loss, lam, r)[1])
                    / 2e-6 for e in np.eye(z.size)], axis=1)
    assert np.allclose(H, Hfd, atol=1e-5) and np.allclose(H, H.T)


def test_nuclear_prox_solution_matches_cvxpy():
    rng = np.random.default_rng(1)
    loss = random_quadratic(rng, (3, 3), 8.0, scale=2.0)
    lam = 0.4
    X = nuclear_prox_solve(loss, lam)
    Y = cp.Variable((3, 3))
    L = np.linalg.cholesky(loss.H + 1e-14 * np.eye(9))
    objective = 0.5 * cp.sum_squares(L.T @ cp.vec(Y - loss.M, order="C")) + lam * cp.normNuc(Y)
    prob = cp.Problem(cp.Minimize(objective))
    prob.solve(solver=cp.CLARABEL)
    assert prob.status == "optimal"
    assert np.allclose(X, Y.value, atol=1e-5)
    assert regularised_value(X, loss, lam) == pytest.approx(prob.value, rel=1e-7)
    assert optimality_residual(X, loss, lam) < 1e-9
    assert optimality_residual(X + 0.01 * rng.normal(size=(3, 3)), loss, lam) > 1e-3


def test_balanced_factors_attain_the_nuclear_norm():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 2)) @ rng.normal(size=(2, 4))
    A, B = balanced_factors(X, 3)
    assert np.allclose(A @ B.T, X)
    assert 0.5 * (np.sum(A**2) + np.sum(B**2)) == pytest.approx(np.linalg.norm(X, "nuc"), rel=1e-12)


def test_t_min_is_the_smallest_feasible_q_without_margin():
    for a in (0.1, 0.02, 0.004):
        q = smallest_feasible_q(a, 0.7, 1.0, 1.0, margin=0.0)
        assert q == pytest.approx(t_min(a), rel=1e-6)
        assert t_min(a) > 2 * a  # the theorem's ratio bound holds on the family...
        assert t_min(a) / (2 * a) < 1 + 2 * a  # ...and binds up to 1 + O(a)
    with pytest.raises(ValueError):
        t_min(0.2)


def test_constructed_point_is_a_spurious_sosp_by_finite_differences():
    rng = np.random.default_rng(3)
    a, lam, p = 0.02, 0.5, 1.3
    q = smallest_feasible_q(a, lam, p, p) * 1.05
    inst = spurious_instance(a, lam, p, q, p, rotation=(random_rotation(rng, 3), random_rotation(rng, 3)))
    z = np.concatenate([inst.A.ravel(), inst.B.ravel()])
    grad_fd = _fd(lambda w: lora_value_grad(w, inst.loss, lam, 2)[0], z)
    assert np.abs(grad_fd).max() < 1e-7
    w = np.linalg.eigvalsh(lora_hessian(z, inst.loss, lam, 2))
    assert w[0] > -1e-10 and w[1] > 1e-6  # one zero (rotation symmetry), the rest positive
    ev = np.linalg.eigvalsh(inst.loss.H)
    assert ev[0] == pytest.approx(a) and ev[-1] == pytest.approx(1.0)
    X_cvx = nuclear_prox_solve(inst.loss, lam)
    assert np.allclose(X_cvx, inst.X_star, atol=1e-9)
    cpt = certify(inst.A, inst.B, inst.loss, lam)
    assert cpt.value > regularised_value(inst.X_star, inst.loss, lam) + 1e-3
    s2, s1 = ratio_bound_terms(cpt.X, 2, 1)
    assert s2 / s1 == pytest.approx(q / p)
    assert feasibility(a, lam, p, q, p) <= 1 < feasibility(a, lam, p, 0.9 * q / 1.05, p)


def test_rank_one_rayleigh_max_against_scipy():
    rng = np.random.default_rng(4)
    loss = random_quadratic(rng, (3, 3), 20.0)
    T = loss.H.reshape(3, 3, 3, 3)

    def neg(x):
        u, v = x[:3] / np.linalg.norm(x[:3]), x[3:] / np.linalg.norm(x[3:])
        return -np.einsum("acbd,a,c,b,d->", T, u, v, u, v)

    best = max(-optimize.minimize(neg, rng.normal(size=6), method="BFGS").fun for _ in range(40))
    assert rank_one_rayleigh_max(loss.H, (3, 3), rng, starts=6) == pytest.approx(best, rel=1e-8)


def test_reachable_direction_makes_the_determinant_vanish():
    rng = np.random.default_rng(5)
    X_star = 2.0 * np.outer(random_rotation(rng, 3)[:, 0], random_rotation(rng, 3)[:, 0])
    d = rng.normal(size=(3, 3))
    t = reachable_along(X_star, d, 2)
    assert t is not None
    assert min(abs(np.linalg.det(X_star + t * d)), abs(np.linalg.det(X_star - t * d))) < 1e-10 * (1 + t**3)


def test_distance_and_ratio_terms_on_a_diagonal_example():
    X = np.diag([3.0, 1.0, 0.0])
    X_star = np.diag([0.0, 0.0, 2.0])
    lhs, rhs = distance_bound(X, X_star, 2, 1, alpha=0.1, beta=1.0)
    assert lhs == pytest.approx(9 + 1 + 4)
    assert rhs == pytest.approx(1.0 / (1 - 2 * 0.1 * 3 / 1))
    assert ratio_bound_terms(X, 2, 1) == (1.0, 3.0)


def test_gradient_descent_decreases_the_objective():
    rng = np.random.default_rng(6)
    loss = QuadraticLoss(np.eye(9) * 2.0, rng.normal(size=(3, 3)))
    A0, B0 = rng.normal(size=(3, 2)), np.zeros((3, 2))
    f0 = lora_value_grad(np.r_[A0.ravel(), B0.ravel()], loss, 0.1, 2)[0]
    A, B, _ = gradient_descent(loss, 0.1, A0, B0, 500)
    assert lora_value_grad(np.r_[A.ravel(), B.ravel()], loss, 0.1, 2)[0] < f0
    # identity Hessian: the LoRA optimum is the soft-thresholded best rank-2 approximation of M
    U, s, Vt = np.linalg.svd(loss.M)
    target = (U[:, :2] * np.maximum(s[:2] - 0.05, 0)) @ Vt[:2]
    assert np.allclose(A @ B.T, target, atol=1e-5)
    assert math.isfinite(float(np.sum(A)))
