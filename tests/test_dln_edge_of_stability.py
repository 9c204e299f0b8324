"""Unit tests of simulations.deep_linear against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulations.deep_linear import (
    attractor_period,
    balanced_hessian_spectrum,
    balanced_map,
    balanced_minimum,
    balancing_contraction,
    cycle_multiplier,
    dmf_gradients,
    dmf_loss,
    end_to_end,
    feigenbaum_ratios,
    gauss_newton_hessian,
    gradient_descent,
    mode_sharpness,
    paper_initialization,
    period_doubling_onsets,
    random_target,
    svs_gradient_descent,
    svs_values,
    two_period_orbit,
)
from simulations.deep_linear.cascade import FEIGENBAUM_DELTA


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    layers = rng.standard_normal((3, 3, 3))
    M = rng.standard_normal((3, 3))
    g = dmf_gradients(layers, M)
    h = 1e-6
    for idx in [(0, 1, 2), (1, 0, 0), (2, 2, 1)]:
        e = np.zeros_like(layers)
        e[idx] = h
        fd = (dmf_loss(layers + e, M) - dmf_loss(layers - e, M)) / (2 * h)
        assert fd == pytest.approx(g[idx], rel=1e-6, abs=1e-8)


def test_end_to_end_is_the_product_in_order():
    rng = np.random.default_rng(1)
    layers = rng.standard_normal((3, 2, 2))
    assert np.allclose(end_to_end(layers), layers[2] @ layers[1] @ layers[0])


def test_stationary_set_recursion_equals_matrix_gradient_descent():
    rng = np.random.default_rng(2)
    s = np.array([10.0, 9.5, 9.0, 0.0])
    for depth in (1, 2, 3, 4):
        M, U, V = random_target(rng, s)
        th = 2.0 / mode_sharpness(s[0], depth)
        # below the cross-mode threshold the matrix run stays in the set (depth 1 diverges beyond 2)
        etas = np.array([0.5, 0.97, 1.02 if depth > 1 else 0.8]) * th
        a = svs_gradient_descent(s, depth, etas, 400, 0.1)
        out = gradient_descent(M, depth, etas, 400, 0.1, U, V)
        assert np.max(np.abs(a - out["values"])) < 1e-10
        assert out["off_diagonal"] < 1e-10


def test_initialisation_and_stationary_values():
    layers = paper_initialization(3, 3, 0.2)
    assert np.allclose(layers[2], 0) and np.allclose(layers[0], 0.2 * np.eye(3))
    U = V = np.eye(3)
    vals, off = svs_values(layers, U, V)
    assert np.allclose(vals[:2], 0.2) and off == 0.0


def _finite_difference_hessian(layers, M, h=1e-4):
    flat = layers.reshape(-1)
    n = flat.size
    H = np.zeros((n, n))
    f = lambda v: float(dmf_loss(v.reshape(layers.shape), M))  # noqa: E731
    for i in range(n):
        for j in range(i, n):
            ei, ej = np.zeros(n), np.zeros(n)
            ei[i], ej[j] = h, h
            H[i, j] = H[j, i] = (f(flat + ei + ej) - f(flat + ei - ej) - f(flat - ei + ej) + f(flat - ei - ej)) / (4 * h * h)
    return H


def test_gauss_newton_is_the_hessian_at_a_minimum():
    rng = np.random.default_rng(3)
    s = np.array([2.0, 1.0])
    M, U, V = random_target(rng, s)
    layers = balanced_minimum(U, s, V, 2)
    # our layout is vec column-major per layer; the finite-difference one is row-major: compare spectra
    ev_gn = np.sort(np.linalg.eigvalsh(gauss_newton_hessian(layers, M)))
    ev_fd = np.sort(np.linalg.eigvalsh(_finite_difference_hessian(layers, M)))
    assert np.allclose(ev_gn, ev_fd, atol=1e-5)


def test_hessian_spectrum_closed_forms():
    # depth 1: the loss is a quadratic with identity Hessian; depth 2: eigenvalues s_i + s_j
    s = np.array([3.0, 2.0, 0.5])
    assert np.allclose(balanced_hessian_spectrum(s, 1), np.ones(9))
    pairs = np.sort((s[:, None] + s[None, :]).ravel())[::-1]
    assert np.allclose(balanced_hessian_spectrum(s, 2)[:9], pairs)
    assert balanced_hessian_spectrum(s, 3)[0] == pytest.approx(3 * 3.0 ** (4 / 3))


def test_two_cycle_is_a_cycle_of_the_map():
    for depth, s in ((2, 5.0), (3, 10.0), (4, 3.0)):
        eta = 1.1 * 2 / (depth * s ** (2 - 2 / depth))
        r1, r2 = two_period_orbit(s, depth, eta)
        assert r1 < s ** (1 / depth) < r2
        assert float(balanced_map(r1, eta, s, depth)) == pytest.approx(r2, rel=1e-12)
        assert float(balanced_map(r2, eta, s, depth)) == pytest.approx(r1, rel=1e-10)
    with pytest.raises(ValueError):
        two_period_orbit(10.0, 3, 0.99 * 2 / (3 * 10 ** (4 / 3)))


def test_balancing_contraction_matches_one_step():
    rng = np.random.default_rng(4)
    w = rng.uniform(0.5, 2.0, size=3)
    s, eta = 4.0, 0.05
    prod = np.prod(w)
    new = w - eta * (prod - s) * prod / w
    factor = balancing_contraction(w, eta, s, 2, 0)
    assert new[2] ** 2 - new[0] ** 2 == pytest.approx((w[2] ** 2 - w[0] ** 2) * factor, rel=1e-12)


def test_cascade_onsets_feigenbaum_and_periods():
    onsets = period_doubling_onsets(10.0, 3, 6)
    assert onsets[0] == pytest.approx(2 / (3 * 10 ** (4 / 3)))
    assert np.all(np.diff(onsets) > 0)
    assert feigenbaum_ratios(onsets)[-1] == pytest.approx(FEIGENBAUM_DELTA, rel=2e-3)  # Feigenbaum (1978)
    for n in range(3):
        mid = 0.5 * (onsets[n] + onsets[n + 1])
        assert attractor_period(mid, 10.0, 3) == 2 ** (n + 1)
    x, lam = cycle_multiplier(2.0, 0.5 * (onsets[0] + onsets[1]), 10.0, 3, 2)
    assert -1 < lam < 1
    with pytest.raises(ValueError):
        period_doubling_onsets(10.0, 1, 3)


def test_depth_two_second_onset_closed_form():
    # For x -> x + eta x (s - x^2) the two-cycle loses stability at (sqrt 5 - 1) times the first onset
    onsets = period_doubling_onsets(7.0, 2, 2)
    assert onsets[1] / onsets[0] == pytest.approx(math.sqrt(5) - 1, rel=1e-10)
