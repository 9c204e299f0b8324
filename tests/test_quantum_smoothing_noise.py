"""Unit tests of simulations.quantum.smoothing_noise against values computed another way:
adaptive quadrature (scipy.integrate.quad), closed forms of Gaussian moments, Monte Carlo of the
full d-dimensional estimators, the existing estimators of simulations.quantum.smoothing, and
brute-force enumeration."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import integrate, stats

from simulations.quantum.smoothing import (
    qae_median_estimates,
    qae_median_sample,
    smoothed_moments,
    smoothing_parameters,
)
from simulations.quantum.smoothing_noise import (
    escape_successes,
    first_order_mean,
    restoring_bias_smoothed,
    sgd_noise_parameters,
    sgd_noise_threshold,
    vee_noise,
    vee_noise_smoothed_gradient,
    vee_width,
    zeroth_order_mean,
)
from simulations.quantum.sosp import RampSaddle


def _gauss_expectation(func, breakpoints=()):
    """E_u func(u), u ~ N(0, 1), by adaptive quadrature split at the breakpoints."""
    pts = sorted({-12.0, 12.0, *[b for b in breakpoints if -12 < b < 12]})
    return sum(integrate.quad(lambda u: func(u) * stats.norm.pdf(u), a, b, epsabs=1e-13, epsrel=1e-12)[0]
               for a, b in itertools.pairwise(pts))


@pytest.mark.parametrize("z", [-0.03, -0.004, 0.0, 0.002, 0.01, 0.05])
def test_restoring_bias_smoothed_against_quadrature(z):
    sigma, nu = 0.01, 0.3
    ref = _gauss_expectation(lambda u: nu * np.sign(z + sigma * u), [-z / sigma])
    assert restoring_bias_smoothed(z, nu, sigma) == pytest.approx(ref, abs=1e-11)


@pytest.mark.parametrize("z", [-0.05, -0.012, 0.0, 0.003, 0.011, 0.04])
@pytest.mark.parametrize("a", [0.005, 0.01, 0.03])
def test_vee_smoothed_gradient_against_stein_quadrature(z, a):
    """Closed form (smoothed derivative) against Stein's form E[e(z + sigma u) u] / sigma."""
    sigma, nu = 0.01, 2e-4
    ref = _gauss_expectation(lambda u: float(vee_noise(z + sigma * u, nu, a)) * u / sigma,
                             [(-a - z) / sigma, -z / sigma, (a - z) / sigma])
    assert vee_noise_smoothed_gradient(z, nu, a, sigma) == pytest.approx(ref, abs=1e-12 * nu / sigma + 1e-15)


def test_vee_noise_is_bounded_and_restoring():
    z = np.linspace(-1, 1, 2001)
    e = vee_noise(z, 0.1, 0.2)
    assert np.all(np.abs(e) <= 0.1 + 1e-15) and e.min() == pytest.approx(-0.1) and e.max() == pytest.approx(0.1)
    g = vee_noise_smoothed_gradient(z, 0.1, 0.2, 0.05)
    assert np.all(g * z >= 0)  # pushes toward 0 under gradient descent
    inside = (z != 0) & (np.abs(z) <= 0.2)
    assert np.all(g[inside] * z[inside] > 0)


@pytest.mark.parametrize("nu", [1e-6, 1e-4, 1e-2])
def test_vee_width_between_its_two_limits(nu):
    eta, c, sigma = 0.5, 1.0, 1e-4
    a = vee_width(nu, sigma, eta, c)
    assert a >= sigma
    if a > sigma:
        assert 2 * eta * nu < a * a < 2 * nu / c


def test_family_values_and_gradients_against_closed_form_and_differences():
    eps, w, c = 0.03, 1.0, 1.0
    problem = RampSaddle(5, eps)
    X = np.random.default_rng(0).normal(size=(7, 5))
    # f = 2 eps w (sqrt(1 + (x1/w)^2) - 1) + sum of the middle x_j^2 / 2 + c (x_d^4/4 - x_d^2/2)
    f = (2 * eps * w * (np.sqrt(1 + (X[:, 0] / w) ** 2) - 1) + 0.5 * np.sum(X[:, 1:-1] ** 2, axis=1)
         + c * (X[:, -1] ** 4 / 4 - X[:, -1] ** 2 / 2))
    assert np.allclose(problem.coordinate_values(X).sum(axis=1), f, rtol=1e-13, atol=1e-14)
    assert np.allclose([problem.value(x) for x in X], f, rtol=1e-13, atol=1e-14)
    h = 1e-6
    central = np.stack([(problem.coordinate_values(X + h * e).sum(axis=1)
                         - problem.coordinate_values(X - h * e).sum(axis=1)) / (2 * h) for e in np.eye(5)], axis=1)
    assert np.allclose(problem.gradient(X), central, rtol=1e-7, atol=1e-8)


def test_row_sosp_test_matches_scalar_test():
    rng = np.random.default_rng(1)
    for d in (2, 3, 6):
        problem = RampSaddle(d, 0.04)
        X = 0.02 * rng.normal(size=(400, d))
        X[::2, -1] += rng.choice([-1.0, 1.0], size=200) * (1 + 0.03 * rng.normal(size=200))
        got = problem.is_sosp_rows(X)
        ref = np.array([problem.is_sosp(x) for x in X])
        assert np.array_equal(got, ref) and ref.any() and not ref.all()


def test_two_point_mean_against_closed_forms():
    """Quadratic coordinates: E[(f(x+su)-f(x))u]/s = x; quartic saddle: d/dz E f_d(z + s u) =
    c (z^3 + 3 z s^2 - z) (Gaussian moments E u^2 = 1, E u^4 = 3)."""
    problem = RampSaddle(4, 0.02)
    sigma = 0.07
    X = np.array([[0.0, 0.3, -0.2, 0.1], [0.5, -1.0, 0.4, -0.8]])
    m = zeroth_order_mean(problem, X, sigma, 0.0, 0.5)
    assert np.allclose(m[:, 1:-1], X[:, 1:-1], atol=1e-13)
    z = X[:, -1]
    assert np.allclose(m[:, -1], problem.c * (z**3 + 3 * z * sigma**2 - z), atol=1e-13)
    # the ramp: d/dx E ramp(x + s u) = E ramp'(x + s u), by adaptive quadrature
    for x0, mean0 in zip(X[:, 0], m[:, 0], strict=True):
        ref = _gauss_expectation(lambda u, x0=x0: 2 * problem.eps * (x0 + sigma * u) / math.sqrt(1 + (x0 + sigma * u) ** 2))
        assert mean0 == pytest.approx(ref, abs=1e-12)


def test_two_point_mean_against_monte_carlo_of_the_full_estimator():
    """The separable reduction against the d-dimensional estimator (f~(x + s u) - f~(x)) u / s with
    the noise, by Monte Carlo on the full function (problem.value + vee noise)."""
    problem = RampSaddle(3, 0.05)
    sigma, nu, eta = 0.05, 4e-4, 0.5
    x = np.array([0.2, -0.1, 0.03])
    a = vee_width(nu, sigma, eta, problem.c)
    rng = np.random.default_rng(2)
    U = rng.standard_normal((400_000, 3))
    Y = x + sigma * U
    f = problem.coordinate_values(Y).sum(axis=1) + vee_noise(Y[:, -1], nu, a)
    f0 = problem.value(x) + float(vee_noise(x[-1], nu, a))
    G = (f - f0)[:, None] * U / sigma
    se = G.std(axis=0) / math.sqrt(len(G))
    m = zeroth_order_mean(problem, x[None], sigma, nu, eta)[0]
    assert np.all(np.abs(G.mean(axis=0) - m) < 4.5 * se)


def test_first_order_mean_against_smoothing_module_and_monte_carlo():
    problem = RampSaddle(4, 0.03)
    sigma, B, nu = 0.02, 2.0, 0.05
    x = np.array([0.01, 0.2, -0.1, 0.015])
    ref, _ = smoothed_moments(problem, x, sigma, B)  # independent code path for the gradient part
    m = first_order_mean(problem, x[None], sigma, B, 0.0)[0]
    assert np.allclose(m, ref, atol=1e-14)
    m_nu = first_order_mean(problem, x[None], sigma, B, nu)[0]
    rng = np.random.default_rng(3)
    U = rng.standard_normal((400_000, 4))
    Y = x + sigma * U
    G = np.clip(problem.gradient(Y), -B, B)
    G[:, -1] += nu * np.sign(Y[:, -1])
    se = G.std(axis=0) / math.sqrt(len(G))
    assert np.all(np.abs(G.mean(axis=0) - m_nu) < 4.5 * se)


def test_beta_median_sampler_has_the_law_of_the_median_of_runs():
    """One Beta quantile per entry against the median of R explicit runs (smoothing.py)."""
    B, M, runs = 2.0, 1500, 5  # M above 1024: the sinc^2-limit quantile path of both samplers
    mean = np.full(6000, 0.0123)
    a = (mean + B) / (2 * B)
    ours = qae_median_sample(mean, B, M, runs, np.random.default_rng(4))
    theirs = 2 * B * qae_median_estimates(a, M, runs, np.random.default_rng(5)) - B
    values = np.union1d(ours, theirs)
    table = np.array([[np.sum(ours == v) for v in values], [np.sum(theirs == v) for v in values]])
    keep = table.sum(axis=0) >= 10
    pooled = np.column_stack([table[:, keep], table[:, ~keep].sum(axis=1)])
    pooled = pooled[:, pooled.sum(axis=0) > 0]
    assert stats.chi2_contingency(pooled)[1] > 1e-3


def test_parameters_default_to_the_smoothing_module_and_decay_multiplies():
    problem = RampSaddle(8, 0.01)
    base = smoothing_parameters(problem)
    p = sgd_noise_parameters(problem)
    assert all(p[k] == base[k] for k in base)
    q = sgd_noise_parameters(problem, eps_decay=1.0, d_decay=0.5)
    lam = (0.01 / 0.05) * math.sqrt(2 / 8)
    for k in ("sigma", "r"):
        assert q[k] == pytest.approx(lam * base[k], rel=1e-14)
    assert q["eta"] == base["eta"] and q["B"] == base["B"] and q["accuracy"] == base["accuracy"]


@pytest.mark.parametrize("order", ["first", "zeroth"])
def test_bisection_raises_with_the_noise_switched_off(order):
    """With the adversary off SGD escapes at every level: no threshold can be measured."""
    with pytest.raises(ValueError, match="upper level"):
        sgd_noise_threshold(np.random.default_rng(6), order, 0.01, 2, trials=8, steps=3, budget=100,
                            noise_on=False)


@pytest.mark.parametrize("order", ["first", "zeroth"])
def test_escape_from_the_saddle_without_and_with_a_strong_trap(order):
    problem = RampSaddle(2, 0.01)
    sigma = smoothing_parameters(problem)["sigma"]
    strong = 10 * sigma if order == "first" else 10 * sigma**2
    assert escape_successes(np.random.default_rng(7), order, 0.01, 2, 0.0, 16, 100) == (16, 16)
    assert escape_successes(np.random.default_rng(8), order, 0.01, 2, strong, 16, 100) == (0, 16)


def test_first_order_levels_outside_the_model_raise():
    with pytest.raises(ValueError, match="B/4"):
        sgd_noise_threshold(np.random.default_rng(9), "first", 0.05, 2, trials=4, steps=2, budget=10,
                            bracket=(0.05, 200.0))


@pytest.mark.parametrize("order", ["first", "zeroth"])
def test_border_saddle_escape_without_and_with_a_strong_trap(order):
    """On the border member (curvature 8 sqrt(rho eps)) the noiseless runs escape and a trap far
    beyond the holding scale c sigma (first order) or c sigma^2 (zeroth order) holds them all."""
    from simulations.quantum.smoothing_noise import saddle_problem

    problem = saddle_problem(0.004, 4, 8.0)
    assert problem.c == pytest.approx(8 * math.sqrt(6 * 0.004)) and problem.rho == pytest.approx(6.0)
    sigma = sgd_noise_parameters(problem)["sigma"]
    strong = 20 * problem.c * (sigma if order == "first" else sigma**2)
    ok = escape_successes(np.random.default_rng(7), order, 0.004, 4, 0.0, 16, 100, saddle_ratio=8.0)
    held = escape_successes(np.random.default_rng(8), order, 0.004, 4, strong, 16, 100, saddle_ratio=8.0)
    assert ok == (16, 16) and held == (0, 16)
