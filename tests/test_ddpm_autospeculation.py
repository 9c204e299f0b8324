"""Unit tests of simulations.diffusion against independent values (closed forms, Monte Carlo, Bayes' rule)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import theorems.icml2025.ddpm_autospeculation  # noqa: F401  (registers the paper)
from simulations.diffusion import (
    TwoPointBatch,
    TwoPointProduct,
    autospeculative_sampler,
    cdf_on,
    ddpm_to_sl,
    density_of_scaled_sum,
    gaussian_cdf,
    grid_for,
    reflection_coupling,
    scaled_sum_cdf,
    sequential_cdf,
    sequential_density,
    sequential_sampler,
    sl_to_ddpm,
    speedups,
)
from workbench.conformance import check_paper


def test_paper_conforms_statically():
    problems = {what: found for what, found in check_paper("ddpm_autospeculation", run=False).items() if found}
    assert problems == {}


def test_two_point_posterior_mean_is_bayes_rule():
    # p(x | y_t) ~ p(x) exp(x y - t x^2 / 2); the mean written out for x in {-1, +1}
    target = TwoPointProduct(np.array([0.2, 0.5, 0.9]))
    rng = np.random.default_rng(0)
    for _ in range(5):
        y, t = rng.normal(size=3) * 3, rng.uniform(0.1, 5)
        w_plus = target.p * np.exp(y - t / 2)
        w_minus = (1 - target.p) * np.exp(-y - t / 2)
        assert np.allclose(target.mean(y, t), (w_plus - w_minus) / (w_plus + w_minus), rtol=1e-12)
    batch = TwoPointBatch(np.array([[0.2, 0.7], [0.6, 0.4]]))
    y = np.array([[0.3, -1.0], [2.0, 0.1]])
    assert np.allclose(batch.mean(y, 0.0, np.array([1, 0])), np.tanh(y + batch.bias[[1, 0]]))


def test_ddpm_state_in_sl_coordinates_has_sl_moments():
    # x_k = sqrt(abar) x0 + sqrt(1 - abar) eps  =>  y = t x0 + N(0, t): Monte Carlo against the closed form
    rng = np.random.default_rng(1)
    abar, x0 = 0.3, 0.7
    x = np.sqrt(abar) * x0 + np.sqrt(1 - abar) * rng.standard_normal(200_000)
    t, y = ddpm_to_sl(x, abar)
    assert t == pytest.approx(0.3 / 0.7)
    assert y.mean() == pytest.approx(t * x0, abs=5 * np.sqrt(t / 200_000))
    assert y.var() == pytest.approx(t, rel=0.02)
    abar2, x2 = sl_to_ddpm(y, t)
    assert abar2 == pytest.approx(abar) and np.allclose(x2, x)


def test_ddpm_chain_increments_in_sl_coordinates_are_uncorrelated_monte_carlo():
    # simulate a 3-step DDPM chain with a linear schedule (independently of the sympy derivation)
    rng = np.random.default_rng(2)
    beta = np.array([0.2, 0.3, 0.4])
    n, x0 = 400_000, 0.5
    x, ys, ts, abar = np.full(n, x0), [], [], 1.0
    for b in beta:
        x = np.sqrt(1 - b) * x + np.sqrt(b) * rng.standard_normal(n)
        abar *= 1 - b
        t, y = ddpm_to_sl(x, abar)
        ys.append(y)
        ts.append(t)
    cov = np.cov(np.vstack(ys))
    expected = np.minimum.outer(np.array(ts), np.array(ts))
    assert np.allclose(cov, expected, atol=0.02 * expected.max())


def test_reflection_coupling_gives_the_target_law_and_the_maximal_overlap():
    rng = np.random.default_rng(3)
    h, n = 0.5, 400_000
    a, b = np.array([0.0, 0.0]), np.array([0.6, -0.3])
    x = a + np.sqrt(h) * rng.standard_normal((n, 2))
    out, acc = reflection_coupling(x, np.tile(a, (n, 1)), np.tile(b, (n, 1)), rng.random(n), h)
    assert np.allclose(out.mean(axis=0), b, atol=5 * np.sqrt(h / n))
    assert np.allclose(np.cov(out.T), h * np.eye(2), atol=0.01)
    # maximal coupling: P(accept) = 1 - TV(N(a, hI), N(b, hI)) = 2 Phi(-|a - b| / (2 sqrt h))
    overlap = 2 * stats.norm.cdf(-np.linalg.norm(a - b) / (2 * np.sqrt(h)))
    assert acc.mean() == pytest.approx(overlap, abs=5 * np.sqrt(overlap * (1 - overlap) / n))
    # the component along b - a is normal: KS against N(b_1 . e, h)
    e = (b - a) / np.linalg.norm(b - a)
    assert stats.kstest(out @ e, "norm", args=(b @ e, np.sqrt(h))).pvalue > 1e-3


def test_reflection_coupling_rejects_bad_options():
    with pytest.raises(ValueError):
        reflection_coupling(np.zeros((1, 1)), np.zeros((1, 1)), np.ones((1, 1)), np.zeros(1), 1.0, verifier="x")
    with pytest.raises(ValueError):
        reflection_coupling(np.zeros((1, 1)), np.zeros((1, 1)), np.ones((1, 1)), np.ones(1) * 0.99, 1.0,
                            verifier="resample")


def test_sequential_law_of_brownian_motion_is_gaussian():
    # zero drift: y_K ~ N(0, T) exactly; the sum of three such coordinates over sqrt 3 too
    grid = grid_for(3.0, spacing=0.1)
    zero = lambda y, t: np.zeros_like(y)  # noqa: E731
    pts = np.linspace(-4, 4, 9)
    assert np.allclose(sequential_cdf(zero, 12, 3.0, grid, pts), gaussian_cdf(pts, 0.0, 3.0), atol=1e-12)
    assert np.allclose(scaled_sum_cdf([zero] * 3, 12, 3.0, grid, pts), gaussian_cdf(pts, 0.0, 3.0), atol=1e-12)
    dens = sequential_density(zero, 12, 3.0, grid)
    assert np.allclose(dens, stats.norm.pdf(grid, scale=np.sqrt(3.0)), atol=1e-12)


def test_sequential_law_with_a_constant_drift_is_gaussian():
    # m = c: y_K ~ N(T c, T); the grid does not matter beyond its reach
    grid = grid_for(2.0, spacing=0.1)
    drift = lambda y, t: np.full_like(y, 0.4)  # noqa: E731
    pts = np.linspace(-2, 3, 6)
    assert np.allclose(sequential_cdf(drift, 7, 2.0, grid, pts), gaussian_cdf(pts, 0.8, 2.0), atol=1e-12)


def test_sequential_density_against_monte_carlo():
    target = TwoPointProduct(np.array([0.7]))
    K, T = 10, 3.0
    grid = grid_for(T, spacing=0.1)
    mean1d = lambda y, t: np.tanh(y + target.bias[0])  # noqa: E731
    y = sequential_sampler(target.mean, K, T, 100_000, 1, np.random.default_rng(4))[:, 0]
    pts = np.quantile(y, np.linspace(0.05, 0.95, 10))
    emp = np.mean(y[:, None] <= pts, axis=0)
    assert np.max(np.abs(emp - sequential_cdf(mean1d, K, T, grid, pts))) < 5 * 0.5 / np.sqrt(100_000)
    # the trapezoidal CDF of the density agrees to its O(dx^2) error
    dens = sequential_density(mean1d, K, T, grid)
    assert np.allclose(cdf_on(grid, dens, pts), sequential_cdf(mean1d, K, T, grid, pts), atol=1e-3)


def test_scaled_sum_cdf_against_monte_carlo():
    target = TwoPointProduct(np.array([0.3, 0.8, 0.5]))
    K, T = 8, 3.0
    grid = grid_for(T, spacing=0.1)
    means = [lambda v, t, b=b: np.tanh(v + b) for b in target.bias]
    y = sequential_sampler(target.mean, K, T, 100_000, 3, np.random.default_rng(9))
    s = y.sum(axis=1) / np.sqrt(3)
    pts = np.quantile(s, np.linspace(0.1, 0.9, 5))
    emp = np.mean(s[:, None] <= pts, axis=0)
    assert np.max(np.abs(emp - scaled_sum_cdf(means, K, T, grid, pts))) < 5 * 0.5 / np.sqrt(100_000)


def test_density_of_scaled_sum_of_gaussians():
    g = np.linspace(-10, 10, 2001)
    f = stats.norm.pdf(g, loc=0.5, scale=1.0)
    sg, sd = density_of_scaled_sum(g, [f, f, f], 1 / np.sqrt(3))
    # sum of three N(0.5, 1) scaled by 1/sqrt 3 is N(1.5/sqrt 3, 1)
    pts = np.linspace(-2, 3, 6)
    assert np.allclose(cdf_on(sg, sd, pts), stats.norm.cdf(pts, loc=1.5 / np.sqrt(3)), atol=1e-6)


def test_asd_with_a_constant_mean_accepts_everything_in_one_round():
    # the draft equals the target at every step: one round, and the output is N(T c, T)
    c = np.array([0.3, -0.2])
    y, rounds = autospeculative_sampler(lambda v, t, rows: np.broadcast_to(c, v.shape), 40, 2.0, 50_000, 2,
                                        np.random.default_rng(5))
    assert np.all(rounds == 1)
    assert np.allclose(y.mean(axis=0), 2.0 * c, atol=5 * np.sqrt(2.0 / 50_000))
    assert np.allclose(y.var(axis=0), 2.0, rtol=0.03)


def test_asd_windows_and_speedups():
    target = TwoPointProduct(np.full(8, 0.5))
    _, rounds = autospeculative_sampler(target.mean, 64, 6.0, 20, 8, np.random.default_rng(6), window=4)
    assert np.all(rounds >= 64 / 4)
    _, rounds = autospeculative_sampler(target.mean, 64, 6.0, 20, 8, np.random.default_rng(6))
    assert np.all((rounds >= 1) & (rounds <= 32))      # every round advances at least two steps but the last
    assert np.allclose(speedups(np.array([4, 8]), 64), [16, 8])
    with pytest.raises(ValueError):
        speedups(np.array([0]), 64)
    with pytest.raises(ValueError):
        autospeculative_sampler(target.mean, 0, 1.0, 1, 8, np.random.default_rng(0))


def test_asd_chunk_size_does_not_change_the_law():
    # chunked speculation is a device of the implementation: compare round-count laws for two chunk sizes
    target = TwoPointProduct(np.full(16, 0.4))
    _, r1 = autospeculative_sampler(target.mean, 128, 8.0, 3000, 16, np.random.default_rng(7), chunk=4)
    _, r2 = autospeculative_sampler(target.mean, 128, 8.0, 3000, 16, np.random.default_rng(8), chunk=64)
    assert stats.ks_2samp(r1, r2).pvalue > 1e-3
