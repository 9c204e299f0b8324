"""Unit tests of simulations.transport against independent values (Gaussian closed forms, a direct
minimisation over Gaussian couplings, finite differences, the Gibbs form of the fixed point)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize, stats

from simulations.transport import (
    Objective,
    brownian_cost,
    constant_velocity,
    dynamics_cost,
    entropic_ot_gaussian_1d,
    entropic_ot_newton,
    fokker_planck_rate,
    gaussian_coupling_cost,
    make_grid,
    mfl_run,
    sinkhorn,
    stable_step,
)
from simulations.transport.latent import crossing_probability, crossing_snapshots


def _discretised_gaussian(x, m, s):
    w = stats.norm.pdf(x, m, s)
    return w / w.sum()


# ----------------------------------------------------------------------------- entropic OT
def test_sinkhorn_matches_the_gaussian_closed_form_in_one_dimension():
    # fine grid: the discretisation error of the Gaussians' moments is far below the tolerance
    x = np.linspace(-9, 10, 1200)
    a, b = _discretised_gaussian(x, 0.0, 1.0), _discretised_gaussian(x, 1.0, 1.5)
    C = (x[:, None] - x[None, :]) ** 2
    res = sinkhorn(a, b, C, 1.0, tol=1e-12)
    assert res.value == pytest.approx(entropic_ot_gaussian_1d(0.0, 1.0, 1.0, 1.5, 1.0), rel=1e-6)
    assert res.value == pytest.approx(2.34087715, rel=1e-7)   # the research notes' hand value


def test_gaussian_closed_form_equals_the_minimum_over_gaussian_couplings():
    def objective(c, s1, s2, eps):   # cost (y - x)^2 = (y - x) 2 (y - x) / 2
        return gaussian_coupling_cost(np.array([[c]]), np.array([[s1**2]]), np.array([[s2**2]]), eps,
                                      cost_matrix=np.array([[2.0]]))

    for s1, s2, eps in [(1.0, 1.5, 1.0), (0.3, 2.0, 0.1), (2.0, 2.0, 5.0)]:
        best = optimize.minimize_scalar(objective, args=(s1, s2, eps), bounds=(-s1 * s2 + 1e-9, s1 * s2 - 1e-9),
                                        method="bounded", options={"xatol": 1e-12})
        assert best.fun == pytest.approx(entropic_ot_gaussian_1d(0.0, s1, 0.0, s2, eps), rel=1e-8)


def test_newton_and_sinkhorn_agree_and_potentials_are_first_variations():
    rng = np.random.default_rng(0)
    grid = make_grid(2.0, 6, 2.0, 4)
    F, Q = constant_velocity(1.0, 1.0)
    C = dynamics_cost(grid, F, Q)
    a = rng.uniform(0.5, 1.5, C.shape[0])
    b = rng.uniform(0.5, 1.5, C.shape[0])
    a, b = a / a.sum(), b / b.sum()
    s, n = sinkhorn(a, b, C, 1.0, tol=1e-14), entropic_ot_newton(a, b, C, 1.0, tol=1e-14)
    assert s.value == pytest.approx(n.value, rel=1e-12)
    # the value's derivative along a zero-mass perturbation of a is <f, perturbation> (Feydy et al. 2019)
    w = rng.normal(size=a.size)
    w -= w.mean()
    w *= 1e-6 / np.abs(w).max() * a.min()
    up = entropic_ot_newton(a + w, b, C, 1.0, tol=1e-14).value
    dn = entropic_ot_newton(a - w, b, C, 1.0, tol=1e-14).value
    assert (up - dn) / 2 == pytest.approx(n.f @ w, rel=1e-5)


def test_sinkhorn_refuses_bad_marginals():
    with pytest.raises(ValueError, match="probability"):
        sinkhorn(np.array([0.5, 0.6]), np.array([0.5, 0.5]), np.zeros((2, 2)), 1.0)
    with pytest.raises(ValueError, match="positive"):
        sinkhorn(np.array([0.5, 0.5]), np.array([0.5, 0.5]), np.zeros((2, 2)), 0.0)


# ----------------------------------------------------------------------------- model
def test_constant_velocity_transition_by_simulation():
    # Euler-Maruyama of dp = v dt, dv = sigma dW over [0, 1] in 1000 steps: Cov(x_1 | x_0) -> Q
    F, Q = constant_velocity(1.0, 0.7)
    rng = np.random.default_rng(3)
    n, steps = 20_000, 1000
    p, v = np.zeros(n), np.zeros(n)
    h = 1.0 / steps
    for _ in range(steps):
        p += v * h
        v += 0.7 * np.sqrt(h) * rng.standard_normal(n)
    np.testing.assert_allclose(np.cov(np.vstack([p, v])), Q, rtol=0.05, atol=0.003)
    np.testing.assert_array_equal(F, [[1.0, 1.0], [0.0, 1.0]])


def test_dynamics_cost_is_the_negative_log_transition_density():
    grid = make_grid(2.0, 4, 2.0, 3)
    F, Q = constant_velocity(0.5, 1.2)
    C = dynamics_cost(grid, F, Q)
    X = grid.points
    i, j = 2, 7
    logpdf = stats.multivariate_normal(F @ X[i], Q).logpdf(X[j])
    const = -np.log(2 * np.pi) - 0.5 * np.log(np.linalg.det(Q))
    assert C[i, j] == pytest.approx(const - logpdf, rel=1e-12)
    assert brownian_cost(make_grid(1.0, 3), 2.0, 0.5)[0, 2] == pytest.approx((4 / 3) ** 2 / (2 * 0.25 * 2.0))


# ----------------------------------------------------------------------------- mean-field flow
def _small_problem(tau=0.5):
    data = crossing_snapshots(np.random.default_rng(1), 40, 1.0)
    grid = make_grid(3.0, 6, 3.0, 4)
    F, Q = constant_velocity(1.0, 1.0)
    C = dynamics_cost(grid, F, Q)
    return Objective(grid, [C, C], data, bandwidth=0.4, lam=tau, tau=tau)


def test_fokker_planck_keeps_mass_and_gibbs_states():
    grid = make_grid(2.0, 5, 2.0, 4)
    rng = np.random.default_rng(2)
    V = rng.normal(size=20)
    gibbs = np.exp(-V / 0.3)
    gibbs /= gibbs.sum()
    assert np.abs(fokker_planck_rate(gibbs, V, grid, 0.3)).max() < 1e-14      # stationary exactly
    m = rng.uniform(0.5, 1.5, 20)
    m /= m.sum()
    assert fokker_planck_rate(m, V, grid, 0.3).sum() == pytest.approx(0.0, abs=1e-15)


def test_potentials_are_first_variations_of_the_objective():
    obj = _small_problem()
    K = obj.grid.points.shape[0]
    rng = np.random.default_rng(4)
    mus = rng.uniform(0.5, 1.5, (3, K))
    mus /= mus.sum(axis=1, keepdims=True)
    V = obj.potentials(mus)
    w = rng.normal(size=(3, K))
    w -= w.mean(axis=1, keepdims=True)
    w *= 1e-6 * mus.min()
    tau_part = obj.tau * np.sum(w * (np.log(mus / obj.grid.volume) + 1))      # the entropy's own variation
    deriv = (obj.value(mus + w) - obj.value(mus - w)) / 2
    assert deriv == pytest.approx(np.sum(V * w) + tau_part, rel=1e-5)


def test_flow_decreases_the_objective_towards_the_gibbs_fixed_point():
    obj = _small_problem()
    K = obj.grid.points.shape[0]
    start = np.full((3, K), 1.0 / K)
    dt = stable_step(obj.potentials(start), obj.grid, obj.tau, safety=0.4)
    end, values = mfl_run(obj, start, dt, 3000, record_every=50)
    assert np.all(np.diff(values) <= 1e-12)
    # the fixed point has the Gibbs form mu_i = exp(-V_i[mu] / tau) / Z
    def residual(mus):
        gibbs = np.exp(-obj.potentials(mus) / obj.tau)
        return np.abs(gibbs / gibbs.sum(axis=1, keepdims=True) - mus).sum()

    assert residual(end) < 1e-6 * residual(start)


def test_crossing_snapshots_and_probability():
    snaps = crossing_snapshots(np.random.default_rng(0), 1000, 1.0, noise=0.0, spread=0.0)
    np.testing.assert_allclose(np.sort(snaps[1]), 0.0, atol=1e-12)              # the groups meet at time 1
    assert np.sum(snaps[2] < 0) == 500
    obj = _small_problem()
    K = obj.grid.points.shape[0]
    uniform = np.full((3, K), 1.0 / K)
    assert 0.0 <= crossing_probability(obj, uniform) <= 1.0
    with pytest.raises(ValueError, match="probability"):
        crossing_snapshots(np.random.default_rng(0), 10, 1.5)
