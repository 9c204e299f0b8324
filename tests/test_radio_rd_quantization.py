"""Unit tests of simulations.quantization against independent values (quadrature, Monte Carlo, brute force,
scipy's optimiser, closed forms)."""

from __future__ import annotations

import itertools

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, optimize, stats

import theorems.icml2025.radio_rd_quantization  # noqa: F401  (registers the paper)
from simulations.quantization import (
    PANTER_DITE_GAUSSIAN,
    PANTER_DITE_LAPLACE,
    bennett_constant_laplace,
    companded_mse,
    companded_quantizer,
    greedy_integer_allocation,
    laplace_compressor,
    laplace_expander,
    laplace_quantizer_mse,
    model_distortion,
    quantize,
    reverse_water_filling,
    uniform_quantizer,
    weighted_am_gm,
)
from simulations.quantization.scalar import compander_cell_sum, compander_correction_constant
from simulations.quantization.small_model import (
    fit_regressor,
    group_statistics,
    output_distortion,
    quantize_columns,
    regression_task,
)
from workbench.conformance import check_paper


def test_paper_conforms_statically():
    problems = {what: found for what, found in check_paper("radio_rd_quantization", run=False).items() if found}
    assert problems == {}


def test_panter_dite_constants_by_quadrature():
    # (1/12) (int p^{1/3})^3 for unit-variance Laplace and Gaussian laws
    lap = integrate.quad(lambda x: (np.exp(-np.sqrt(2) * abs(x)) / np.sqrt(2)) ** (1 / 3), -np.inf, np.inf)[0]
    gau = integrate.quad(lambda x: stats.norm.pdf(x) ** (1 / 3), -np.inf, np.inf)[0]
    assert lap**3 / 12 == pytest.approx(PANTER_DITE_LAPLACE, rel=1e-9)
    assert gau**3 / 12 == pytest.approx(PANTER_DITE_GAUSSIAN, rel=1e-9)


def test_compressor_is_the_normalised_integral_of_the_cube_root_density():
    S = 0.8
    x = np.linspace(-3, 3, 13)
    lam = np.sqrt(2) / S
    cube = lambda t: np.exp(-lam * abs(t) / 3)  # noqa: E731
    total = integrate.quad(cube, 0, np.inf)[0]
    expected = np.array([np.sign(v) * integrate.quad(cube, 0, abs(v))[0] / total for v in x])
    assert np.allclose(laplace_compressor(x, 0.0, S), expected, atol=1e-10)
    assert np.allclose(laplace_expander(laplace_compressor(x, 0.3, S), 0.3, S), x, atol=1e-12)
    with pytest.raises(ValueError):
        laplace_expander(np.array([1.0]), 0.0, 1.0)


def test_quantizer_mse_against_cell_by_cell_mpmath():
    mp.mp.dps = 30
    try:
        for bounds, levels in (companded_quantizer(3, 0.2, 0.7), uniform_quantizer(3, 0.2, 0.7, 3.0)):
            lam = mp.sqrt(2) / mp.mpf("0.7")
            total = mp.mpf(0)
            for k in range(levels.size):
                f = lambda t, r=levels[k], lam=lam: (t - r) ** 2 * lam / 2 * mp.exp(-lam * abs(t - mp.mpf("0.2")))  # noqa: E731
                lo, hi = bounds[k], bounds[k + 1]
                pts = [p for p in (lo, 0.2, hi) if lo <= p <= hi]
                total += mp.quad(f, [mp.mpf(p) if np.isfinite(p) else (mp.inf if p > 0 else -mp.inf) for p in pts])
            assert laplace_quantizer_mse(bounds, levels, 0.2, 0.7) == pytest.approx(float(total), rel=1e-10)
    finally:
        mp.mp.dps = 15


def test_quantizer_mse_against_monte_carlo():
    rng = np.random.default_rng(0)
    x = rng.laplace(0.0, 0.5 / np.sqrt(2), size=400_000)
    bounds, levels = companded_quantizer(4, 0.0, 0.5)
    err = (x - quantize(x, bounds, levels)) ** 2
    assert err.mean() == pytest.approx(laplace_quantizer_mse(bounds, levels, 0.0, 0.5),
                                       abs=5 * err.std() / np.sqrt(x.size))


def test_exact_cell_identity_and_its_correction_bound():
    K = compander_correction_constant()
    for bits in (2, 5, 9, 13):
        n = 2**bits
        direct = companded_mse(bits, std=1.7) * 4**bits / 1.7**2
        assert compander_cell_sum(n) == pytest.approx(direct, rel=1e-11)
        assert abs(direct - PANTER_DITE_LAPLACE) <= K / n
    # the bound is tight to within a few percent (every I_j - 1/12 is negative)
    assert abs(companded_mse(14) * 4**14 - PANTER_DITE_LAPLACE) * 2**14 > 0.97 * K


def test_bennett_constant_of_a_misdesigned_compressor():
    # (1/3) int p / c'^2 by quadrature, compressor designed for std r S
    for r in (0.9, 1.0, 1.2, 2.0):
        lam, lam_c = np.sqrt(2), np.sqrt(2) / r
        # p / c'^2 = (lam/2) e^{-lam t} (3/lam_c)^2 e^{2 lam_c t/3}, written as one exponential
        val = integrate.quad(lambda t, lam=lam, lam_c=lam_c: lam / 2 * (3 / lam_c) ** 2
                             * np.exp(-(lam - 2 * lam_c / 3) * t),
                             0, np.inf)[0] * 2 / 3
        assert bennett_constant_laplace(r) == pytest.approx(val, rel=1e-8)
    assert companded_mse(16, design_std=1.2) * 4**16 == pytest.approx(bennett_constant_laplace(1.2), rel=1e-4)
    assert bennett_constant_laplace(0.6) == float("inf")


def test_reverse_water_filling_against_scipy_and_kkt():
    rng = np.random.default_rng(1)
    P = rng.integers(10, 100, 6).astype(float)
    w = np.exp(rng.normal(0, 2, 6))
    for rate in (0.3, 1.0, 3.0):
        bits, theta = reverse_water_filling(P, w, rate)
        assert P @ bits == pytest.approx(rate * P.sum(), rel=1e-12)
        res = optimize.minimize(lambda b: model_distortion(P, w, b), np.full(6, rate), method="SLSQP",
                                bounds=[(0, None)] * 6, constraints=[{"type": "eq", "fun": lambda b, rate=rate: P @ b - rate * P.sum()}],
                                options={"ftol": 1e-14, "maxiter": 1000})
        assert model_distortion(P, w, bits) <= res.fun * (1 + 1e-7)
        # KKT: equal slopes -2 ln2 w 2^{-2B} = -2 ln2 theta on active groups, w <= theta on clipped ones
        active = bits > 0
        assert np.allclose(w[active] * 2.0 ** (-2 * bits[active]), theta, rtol=1e-9)
        assert np.all(w[~active] <= theta * (1 + 1e-9))


def test_gain_over_uniform_is_am_over_gm_without_clipping():
    rng = np.random.default_rng(2)
    P = rng.integers(10, 100, 8).astype(float)
    w = np.exp(rng.normal(0, 1, 8))
    bits, _ = reverse_water_filling(P, w, 10.0)
    assert np.all(bits > 0)
    q = P / P.sum()
    am, gm = float(q @ w), float(np.prod(w**q))
    assert weighted_am_gm(P, w) == pytest.approx((am, gm), rel=1e-12)
    # closed forms: optimal distortion sum(P) GM 4^-R, uniform sum(P) AM 4^-R
    assert model_distortion(P, w, bits) == pytest.approx(P.sum() * gm * 4.0**-10, rel=1e-10)
    assert model_distortion(P, w, np.full(8, 10.0)) == pytest.approx(P.sum() * am * 4.0**-10, rel=1e-12)


def test_greedy_integer_allocation_is_optimal_by_brute_force():
    rng = np.random.default_rng(3)
    P = np.full(4, 8.0)
    for _ in range(5):
        w = np.exp(rng.normal(0, 2, 4))
        bits = greedy_integer_allocation(P, w, 2)
        best = min(model_distortion(P, w, np.array(b)) for b in itertools.product(range(9), repeat=4) if sum(b) == 8)
        assert bits.sum() == 8 and model_distortion(P, w, bits) == pytest.approx(best, rel=1e-12)
    with pytest.raises(ValueError):
        greedy_integer_allocation(np.array([1.0, 2.0]), np.ones(2), 1)


def test_small_model_gradients_and_distortion():
    rng = np.random.default_rng(4)
    X, y = regression_task(rng, 64, d_in=5)
    model = fit_regressor(X, y, rng, hidden=6, steps=50)
    g = model.weight_gradients(X[:3])
    eps = 1e-6
    for (j, n) in ((0, 0), (3, 4), (5, 2)):
        W = model.W1.copy()
        W[j, n] += eps
        fd = (model(X[:3], W) - model(X[:3], model.W1 - (W - model.W1))) / (2 * eps)
        assert np.allclose(g[:, j, n], fd, rtol=1e-6, atol=1e-9)
    P, G2, S2 = group_statistics(model, X)
    assert P.shape == G2.shape == S2.shape == (5,) and np.all(P == 6)
    # G_n^2 from finite differences of the output over every weight of column n
    fd2 = np.zeros(5)
    for j in range(6):
        for n in range(5):
            W = model.W1.copy()
            W[j, n] += eps
            Wm = model.W1.copy()
            Wm[j, n] -= eps
            fd2[n] += np.mean(((model(X, W) - model(X, Wm)) / (2 * eps)) ** 2) / 6
    assert np.allclose(G2, fd2, rtol=1e-6)
    assert np.allclose(S2, model.W1.var(axis=0))
    assert output_distortion(model, X, np.full(5, 14)) < 1e-6 * output_distortion(model, X, np.zeros(5, dtype=int))
    assert np.allclose(quantize_columns(model.W1, np.zeros(5, dtype=int)), model.W1.mean(axis=0))
