"""Unit tests of simulations.kernel_machines against independent values (numerical conjugates,
closed-form kernel ridge regression, a direct Nystrom solve, the kernel's expectation)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from simulations.kernel_machines import (
    LOSS_NAMES,
    Loss,
    dbcd_tr,
    dual_objective,
    dual_problem,
    duality_gap,
    fourier_features,
    gaussian_kernel,
    kernel_factor,
    make_loss,
    primal_objective,
    primal_problem,
    solve,
    synthetic_data,
)
from simulations.kernel_machines.memory import dbcd_peak, falkon_krr, nystrom_krr_direct, peak_bytes


# ----------------------------------------------------------------------------- conjugates
def _numerical_dual_term(loss: Loss, a: float, y: float, c: float) -> float:
    """c * sup_z (s z - xi_y(z)) at s = -a/c, by a bounded scalar search (finite inside the box)."""
    s = -a / c
    res = optimize.minimize_scalar(lambda z: -(s * z - loss.primal(np.array([z]), np.array([y]))[0]),
                                   bounds=(-60.0, 60.0), method="bounded", options={"xatol": 1e-12})
    return c * -res.fun


@pytest.mark.parametrize("name", LOSS_NAMES)
@pytest.mark.parametrize("c", [0.5, 3.0])
def test_dual_term_is_the_scaled_conjugate(name, c):
    loss = make_loss(name)
    rng = np.random.default_rng(7)
    for _ in range(12):
        y = float(rng.choice([-1.0, 1.0])) if loss.classification else float(rng.normal())
        lo, hi = loss.box(np.array([y]), c)
        lo_, hi_ = max(lo[0], -3 * c), min(hi[0], 3 * c)
        a = float(rng.uniform(lo_ + 0.02 * (hi_ - lo_), hi_ - 0.02 * (hi_ - lo_)))
        assert loss.dual_term(np.array([a]), np.array([y]), c)[0] == pytest.approx(
            _numerical_dual_term(loss, a, y, c), rel=1e-6, abs=1e-7)


@pytest.mark.parametrize("name", ["squared_hinge", "logistic", "huber", "eps_insensitive"])
def test_dual_term_infinite_outside_the_box(name):
    loss, c, y = make_loss(name), 2.0, np.array([1.0])
    lo, hi = loss.box(y, c)
    outside = hi[0] + 1.0 if np.isfinite(hi[0]) else lo[0] - 1.0
    assert np.isinf(loss.dual_term(np.array([outside]), y, c)[0])
    # and the numerical supremum there grows without bound (z -> +-infinity)
    assert _numerical_dual_term(loss, outside, 1.0, c) > 10.0


@pytest.mark.parametrize("name", ["squared", "squared_hinge", "logistic", "huber"])
def test_dual_derivatives_by_finite_differences(name):
    loss, c = make_loss(name), 2.0
    y = np.array([1.0, -1.0, 1.0]) if loss.classification else np.array([0.3, -1.2, 0.7])
    a = np.array([0.7, -0.4, 1.1]) if loss.classification else np.array([0.2, -0.5, 0.6])
    h = 1e-5
    fd1 = (loss.dual_term(a + h, y, c) - loss.dual_term(a - h, y, c)) / (2 * h)
    fd2 = (loss.dual_grad(a + h, y, c) - loss.dual_grad(a - h, y, c)) / (2 * h)
    np.testing.assert_allclose(loss.dual_grad(a, y, c), fd1, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(loss.dual_hess(a, y, c), fd2, rtol=1e-6, atol=1e-8)


def test_unknown_loss_and_bad_penalty_are_refused():
    with pytest.raises(ValueError, match="unknown loss"):
        Loss("hinge2")
    with pytest.raises(ValueError, match="positive parameter"):
        Loss("huber", 0.0)
    with pytest.raises(ValueError, match="positive finite"):
        make_loss("squared").dual_term(np.zeros(2), np.zeros(2), -1.0)


# ----------------------------------------------------------------------------- kernels
def test_fourier_features_estimate_the_gaussian_kernel():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 3))
    ff = fourier_features(rng, 3, 200_000, 0.8)
    K = gaussian_kernel(x, x, 0.8)
    # each entry is a mean of M terms of variance <= 2 / M ... (|phi_m phi_m'| <= 2/M): 6 sigma = 6 sqrt(2/M)
    np.testing.assert_allclose(ff(x) @ ff(x).T, K, atol=6 * np.sqrt(2 / 200_000))


def test_gaussian_kernel_hand_value_and_factor():
    x = np.array([[0.0, 0.0], [1.0, 2.0]])
    K = gaussian_kernel(x, x, 2.0)
    assert K[0, 1] == pytest.approx(np.exp(-5 / 8), rel=1e-15)
    R = kernel_factor(K)
    np.testing.assert_allclose(R @ R.T, K, atol=1e-14)
    with pytest.raises(ValueError, match="lengthscale"):
        gaussian_kernel(x, x, 0.0)


# ----------------------------------------------------------------------------- duality
def _krr_instance(seed=3, n=60, M=25, c=2.0):
    rng = np.random.default_rng(seed)
    x, y = synthetic_data(rng, n, 3, "regression")
    return fourier_features(rng, 3, M, 1.0)(x), y, c


def test_krr_dual_has_the_closed_form_solution():
    Phi, y, c = _krr_instance()
    # min 1/2 a^T K a + a^2/(2c) - a^T y  =>  (K + I/c) a = y
    a = np.linalg.solve(Phi @ Phi.T + np.eye(len(y)) / c, y)
    theta = np.linalg.solve(np.eye(Phi.shape[1]) + c * Phi.T @ Phi, c * Phi.T @ y)   # primal normal equations
    loss = make_loss("squared")
    np.testing.assert_allclose(Phi.T @ a, theta, rtol=1e-10)
    assert primal_objective(theta, Phi, y, loss, c) == pytest.approx(-dual_objective(a, Phi, y, loss, c), rel=1e-12)
    assert duality_gap(a, Phi, y, loss, c) == pytest.approx(0.0, abs=1e-10)


@pytest.mark.parametrize("name", ["squared", "logistic"])
def test_cvxpy_problems_match_their_numpy_objectives(name):
    Phi, y, c = _krr_instance()
    if name == "logistic":
        y = np.sign(y + 1e-9)
    loss = make_loss(name)
    P, theta = primal_problem(Phi, y, loss, c)
    D, alpha = dual_problem(Phi, y, loss, c)
    solve(P)
    solve(D)
    assert P.value == pytest.approx(primal_objective(theta.value, Phi, y, loss, c), rel=1e-9)
    assert D.value == pytest.approx(dual_objective(alpha.value, Phi, y, loss, c), rel=1e-6)
    assert P.value == pytest.approx(-D.value, rel=1e-6)


def test_weak_duality_at_random_dual_points():
    Phi, y, c = _krr_instance()
    y = np.sign(y + 1e-9)
    loss = make_loss("logistic")
    rng = np.random.default_rng(1)
    for _ in range(20):
        a = y * c * rng.uniform(0.05, 0.95, size=len(y))
        assert duality_gap(a, Phi, y, loss, c) >= 0.0


# ----------------------------------------------------------------------------- DBCD-TR
def test_dbcd_tr_reaches_the_krr_closed_form_monotonically():
    Phi, y, c = _krr_instance(n=80)
    run = dbcd_tr(Phi, y, make_loss("squared"), c, block_size=16, epochs=200, rng=np.random.default_rng(0),
                  radius=c, gap_tol=1e-13)
    a = np.linalg.solve(Phi @ Phi.T + np.eye(len(y)) / c, y)
    np.testing.assert_allclose(run.alpha, a, atol=1e-5)
    assert np.all(np.diff(run.dual_values) <= 1e-12 * abs(run.dual_values[-1]))


def test_dbcd_tr_lightweight_mode_matches_the_matrix_mode():
    rng = np.random.default_rng(5)
    x, y = synthetic_data(rng, 60, 3, "classification")
    fmap = fourier_features(rng, 3, 20, 1.0)
    loss = make_loss("squared_hinge")
    a = dbcd_tr(fmap(x), y, loss, 3.0, block_size=20, epochs=5, rng=np.random.default_rng(2), radius=3.0)
    b = dbcd_tr((fmap, x), y, loss, 3.0, block_size=20, epochs=5, rng=np.random.default_rng(2), radius=3.0)
    np.testing.assert_allclose(a.alpha, b.alpha, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a.dual_values, b.dual_values, rtol=1e-10)


def test_dbcd_tr_refuses_a_nonsmooth_dual_and_bad_blocks():
    Phi, y, c = _krr_instance()
    with pytest.raises(ValueError, match="twice differentiable"):
        dbcd_tr(Phi, y, make_loss("eps_insensitive"), c, block_size=5, epochs=1, rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="block size"):
        dbcd_tr(Phi, y, make_loss("squared"), c, block_size=0, epochs=1, rng=np.random.default_rng(0))


# ----------------------------------------------------------------------------- memory
def test_falkon_solves_the_nystrom_normal_equations():
    rng = np.random.default_rng(4)
    x, y = synthetic_data(rng, 400, 3, "regression")
    centres = x[:60]
    beta = falkon_krr(x, y, centres, 1e-3, 1.0, iterations=200)
    np.testing.assert_allclose(beta, nystrom_krr_direct(x, y, centres, 1e-3, 1.0), rtol=1e-5, atol=1e-6)


def test_peak_bytes_counts_a_known_allocation():
    # a float64 array of 10^6 entries is 8e6 bytes (plus numpy's small header)
    peak = peak_bytes(lambda: np.ones(1_000_000))
    assert 8_000_000 <= peak <= 8_000_000 + 10_000


def test_dbcd_peak_is_independent_of_the_data_size_beyond_the_n_vectors():
    rng = np.random.default_rng(0)
    x, y = synthetic_data(rng, 400, 3, "regression")
    small, large = dbcd_peak(x[:200], y[:200], 256, 32, 1.0, 1.0, 0), dbcd_peak(x, y, 256, 32, 1.0, 1.0, 0)
    # 200 more points add a few n-vectors (8 bytes each), not an n x M matrix (200 * 256 * 8 = 409600 bytes)
    assert large - small < 200 * 8 * 40
