"""Unit tests of simulations.optim.dro: conjugate, dual, exact derivatives by finite differences."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from simulations.optim.dro import (
    chi2_conjugate,
    dsgdc_run,
    dual_derivatives,
    dual_minimum,
    dual_objective,
    primal_value,
    robust_regression_data,
)


def test_conjugate_by_numerical_sup():
    # psi*(s) = sup_{t >= 0} s t - (t - 1)^2
    for s in (-5.0, -2.0, -0.5, 0.0, 1.3, 4.0):
        res = optimize.minimize_scalar(lambda t, s=s: -(s * t - (t - 1) ** 2), bounds=(0, 50), method="bounded",
                                       options={"xatol": 1e-12})
        assert chi2_conjugate(s) == pytest.approx(-res.fun, abs=1e-9)


def test_dual_minimum_two_losses_by_hand():
    # losses (0, 1), lam = 1: for eta in the region where both are active, dL/deta = 1 - (2 + (1 - 2 eta)/2)/2
    val, eta = dual_minimum(np.array([0.0, 1.0]), 1.0)
    assert eta == pytest.approx(0.5)
    assert val == pytest.approx(dual_objective(np.array([0.0, 1.0]), 0.5, 1.0))
    # primal by hand: q = (1/2 - d, 1/2 + d), objective (1/2 + d) - (1/2)((1 - 2d - 1)^2 + (1 + 2d - 1)^2) = 1/2 + d - 4 d^2
    assert val == pytest.approx(0.5 + 0.125 - 4 * 0.125**2)
    pv, status = primal_value(np.array([0.0, 1.0]), 1.0)
    assert status == "optimal" and pv == pytest.approx(val, rel=1e-7)


def test_derivatives_by_finite_differences():
    rng = np.random.default_rng(0)
    data = robust_regression_data(rng, 30, 3, 0.5)
    x, eta = rng.standard_normal(3), 0.3

    def L(v):
        return dual_objective(data.losses(v[:3]), v[3], data.lam)

    v = np.append(x, eta)
    g = optimize.approx_fprime(v, L, 1e-7)
    dd = dual_derivatives(data, x, eta)
    assert np.allclose(g[:3], dd.grad_x, atol=1e-5) and g[3] == pytest.approx(dd.d_eta, abs=1e-5)

    def grad_vec(v):
        d = dual_derivatives(data, v[:3], v[3])
        return np.append(d.grad_x, d.d_eta)

    Hfd = np.array([optimize.approx_fprime(v, lambda w, i=i: grad_vec(w)[i], 1e-6) for i in range(4)])
    assert np.allclose(Hfd[:3, :3], dd.hess_xx, atol=1e-4)
    assert np.allclose(Hfd[3, :3], dd.d_x_eta, atol=1e-4)
    assert Hfd[3, 3] == pytest.approx(dd.d_eta_eta, abs=1e-4)


def test_constants_bound_the_loss():
    r = np.linspace(-50, 50, 200001)
    assert np.max(np.abs(r / (1 + r * r / 2))) == pytest.approx(1 / np.sqrt(2), rel=1e-6)
    assert np.max(np.abs((1 - r * r / 2) / (1 + r * r / 2) ** 2)) == pytest.approx(1.0)


def test_dsgdc_runs_and_stops():
    rng = np.random.default_rng(1)
    data = robust_regression_data(rng, 50, 3, 0.5)
    norms, t = dsgdc_run(data, rng, np.zeros(3), 0.0, 0.1, 0.1, 1.0, 4, 5000, target=0.05)
    assert norms[-1] <= 0.05 and t < 5000
    with pytest.raises(ValueError):
        dsgdc_run(data, rng, np.zeros(3), 0.0, -0.1, 0.1, 1.0, 4, 10)


def test_vr_variant_with_period_one_is_dsgdc():
    # refreshing the estimator at every step (period 1) with the same batch size and the same
    # random stream must reproduce D-SGD-C exactly
    from simulations.optim.dro import dsgdc_vr_run

    data = robust_regression_data(np.random.default_rng(2), 40, 3, 0.5)
    a, ta = dsgdc_vr_run(data, np.random.default_rng(7), np.zeros(3), 0.0, 0.2, 0.2, 0.5, 8, 8, 1, 200)
    b, tb = dsgdc_run(data, np.random.default_rng(7), np.zeros(3), 0.0, 0.2, 0.2, 0.5, 8, 200)
    assert ta == tb == 200 and np.array_equal(a, b)
    c, _ = dsgdc_vr_run(data, np.random.default_rng(7), np.zeros(3), 0.0, 0.2, 0.2, 0.5, 8, 8, 5, 200)
    assert not np.array_equal(a, c)


def test_per_sample_moments_against_single_sample_derivatives():
    from simulations.optim.dro import per_sample_gradient_moments

    rng = np.random.default_rng(6)
    data = robust_regression_data(rng, 25, 3, 0.4)
    x, eta = rng.standard_normal(3), -0.7
    per = [dual_derivatives(data, x, eta, np.array([i])) for i in range(25)]
    gx = np.array([p.grad_x for p in per])
    geta = np.array([p.d_eta for p in per])
    vx, veta, vloss, d_eta = per_sample_gradient_moments(data, x, eta)
    assert vx == pytest.approx(np.mean(np.sum((gx - gx.mean(axis=0)) ** 2, axis=1)), rel=1e-12)
    assert veta == pytest.approx(np.var(geta), rel=1e-12)
    assert vloss == pytest.approx(np.var(data.losses(x)), rel=1e-12)
    assert d_eta == pytest.approx(dual_derivatives(data, x, eta).d_eta, rel=1e-12)


def test_sample_blocks_match_the_data_derivatives():
    # the per-sample form, fed the robust loss's values at x, reproduces dual_derivatives (itself
    # checked by finite differences above)
    from simulations.optim.dro import atom_instance, sample_dual_blocks, sample_noise_moments

    rng = np.random.default_rng(3)
    data = robust_regression_data(rng, 20, 3, 0.3)
    x, eta = rng.standard_normal(3), 0.1
    r = data.A @ x - data.y
    losses, grads, hessians = atom_instance(r, data.A)
    got = sample_dual_blocks(losses, grads, hessians, eta, data.lam)
    ref = dual_derivatives(data, x, eta)
    assert got.d_eta == pytest.approx(ref.d_eta, abs=1e-14)
    assert np.allclose(got.grad_x, ref.grad_x, atol=1e-14)
    assert got.d_eta_eta == pytest.approx(ref.d_eta_eta)
    assert np.allclose(got.d_x_eta, ref.d_x_eta, atol=1e-14)
    assert np.allclose(got.hess_xx, ref.hess_xx, atol=1e-13)
    from simulations.optim.dro import per_sample_gradient_moments

    assert np.allclose(sample_noise_moments(losses, grads, eta, data.lam),
                       per_sample_gradient_moments(data, x, eta), rtol=1e-12, atol=1e-15)


def test_opposite_pairs_by_hand():
    from simulations.optim.dro import opposite_pairs_instance, sample_noise_moments

    losses, grads = opposite_pairs_instance(np.array([0.0, 1.0]), np.array([2.0, 0.0]))
    # residual +-sqrt(2): rho = log 2, rho' = +-1/sqrt(2); G = ||a||/sqrt(2) = sqrt(2)
    assert np.allclose(losses, np.log(2) + np.array([0, 0, 1, 1]))
    assert np.allclose(grads, np.array([[1, 0], [-1, 0], [1, 0], [-1, 0]]) * np.sqrt(2))
    lam, eta = 0.5, -10.0
    w = (losses - eta) / lam + 2
    vx, veta, vloss, d_eta = sample_noise_moments(losses, grads, eta, lam)
    # E g_x = 0, so the variance is E ||w grad/2||^2 = mean(w^2) * 2 / 4
    assert vx == pytest.approx(np.mean(w**2) * 2 / 4)
    assert vloss == pytest.approx(0.25)
    assert veta == pytest.approx(np.var(w) / 4)
    assert d_eta == pytest.approx(1 - np.mean(w) / 2)


def test_sample_blocks_reject_bad_input():
    from simulations.optim.dro import sample_dual_blocks

    with pytest.raises(ValueError):
        sample_dual_blocks(np.zeros(2), np.zeros((3, 2)), np.zeros((2, 2, 2)), 0.0, 1.0)
    with pytest.raises(ValueError):
        sample_dual_blocks(np.zeros(2), np.zeros((2, 2)), np.zeros((2, 2, 2)), 0.0, 1.0, probs=np.ones(2))
    with pytest.raises(ValueError):
        sample_dual_blocks(np.zeros(2), np.zeros((2, 2)), np.zeros((2, 2, 2)), 0.0, -1.0)
