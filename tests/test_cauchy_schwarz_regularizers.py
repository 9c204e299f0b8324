"""Unit tests of simulations.algebra.cauchy_schwarz against values obtained another way.

References: hand-computed values; the Cauchy-Schwarz gap computed from (u, v) with numpy; sympy
differentiation of the closed forms; central finite differences; binomial sums by hand and the
symmetry of the l-infinity recovery probability; a Monte Carlo of the l-infinity linear program.
"""

import math

import numpy as np
import pytest
import sympy as sp

from simulations.algebra.cauchy_schwarz import (
    binary_gradient,
    binary_recovery_trial,
    binary_regularizer,
    cs_recovery,
    cs_value,
    eigenvector_gradient,
    eigenvector_regularizer,
    fixed_scale_gradient,
    fixed_scale_penalty,
    lagrange_sum_of_squares,
    linf_recovery,
    linf_success_probability,
    one_sided_gradient,
    one_sided_regularizer,
    orthogonal_gradient,
    orthogonal_regularizer,
    recovered,
    symbolic_pair,
    symbolic_regularizer,
    ternary_gradient,
    ternary_regularizer,
)


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def test_hand_values():
    # x = (1, 2): binary 2*(1 + 16) - 25 = 9; one-sided 5*17 - 9^2 = 4; ternary 5*65 - 17^2 = 36
    assert binary_regularizer([1, 2]) == 9
    assert one_sided_regularizer([1, 2]) == 4
    assert ternary_regularizer([1, 2]) == 36
    assert binary_regularizer([-3, 3, 3]) == 0
    assert one_sided_regularizer([0, 2.5, 2.5, 0]) == 0
    assert ternary_regularizer([0, -1.5, 1.5]) == 0
    C = np.diag([1.0, 2.0])
    assert eigenvector_regularizer([0.0, 3.0], C) == 0
    assert eigenvector_regularizer([1.0, 1.0], C) == 2 * 5 - 9
    Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 3)))
    assert orthogonal_regularizer(2.0 * Q) == pytest.approx(0, abs=1e-12)
    assert fixed_scale_penalty([0.0, 1.0, -1.0]) == 1.0
    assert np.all(fixed_scale_gradient([0.0, 1.0, -1.0]) == 0)


def test_values_match_cs_gap_of_pairs(rng):
    x = rng.standard_normal(6)
    C = rng.standard_normal((6, 6))
    assert binary_regularizer(x) == pytest.approx(cs_value(x**2, np.ones(6)), rel=1e-12)
    assert one_sided_regularizer(x) == pytest.approx(cs_value(x, x**2), rel=1e-12)
    assert ternary_regularizer(x) == pytest.approx(cs_value(x, x**3), rel=1e-12)
    assert eigenvector_regularizer(x, C) == pytest.approx(cs_value(x, C @ x), rel=1e-12)
    X = rng.standard_normal((5, 3))
    assert orthogonal_regularizer(X) == pytest.approx(cs_value(X.T @ X, np.eye(3)), rel=1e-12)


@pytest.mark.parametrize("f, g, deg", [
    (binary_regularizer, binary_gradient, 4), (one_sided_regularizer, one_sided_gradient, 6),
    (ternary_regularizer, ternary_gradient, 8), (fixed_scale_penalty, fixed_scale_gradient, None)])
def test_gradients_by_finite_differences(f, g, deg, rng):
    x = rng.standard_normal(5)
    h = 1e-6
    fd = np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(5)])
    np.testing.assert_allclose(g(x), fd, rtol=1e-6, atol=1e-7)
    if deg:  # Euler's relation, numerically
        assert x @ g(x) == pytest.approx(deg * f(x), rel=1e-10)


def test_matrix_gradients_by_finite_differences(rng):
    x, C = rng.standard_normal(4), rng.standard_normal((4, 4))
    h = 1e-6
    fd = np.array([(eigenvector_regularizer(x + h * e, C) - eigenvector_regularizer(x - h * e, C)) / (2 * h)
                   for e in np.eye(4)])
    np.testing.assert_allclose(eigenvector_gradient(x, C), fd, rtol=1e-6, atol=1e-7)
    X = rng.standard_normal((4, 2))
    fd = np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        E = np.zeros_like(X)
        E[idx] = h
        fd[idx] = (orthogonal_regularizer(X + E) - orthogonal_regularizer(X - E)) / (2 * h)
    np.testing.assert_allclose(orthogonal_gradient(X), fd, rtol=1e-6, atol=1e-7)


def test_symbolic_forms_match_numpy(rng):
    x = sp.symbols("x1:5")
    vals = rng.standard_normal(4)
    sub = dict(zip(x, vals, strict=True))
    for name, f in [("binary", binary_regularizer), ("one_sided", one_sided_regularizer),
                    ("ternary", ternary_regularizer)]:
        assert float(symbolic_regularizer(name, list(x)).subs(sub)) == pytest.approx(f(vals), rel=1e-10)
        u, v = symbolic_pair(name, list(x))
        assert float(lagrange_sum_of_squares(u, v).subs(sub)) == pytest.approx(f(vals), rel=1e-10)


def test_nonnegative_on_random_points(rng):
    for _ in range(200):
        x = rng.standard_normal(7) * rng.uniform(0.1, 10)
        scale = np.sum(x**2)
        assert binary_regularizer(x) >= -1e-12 * scale**2
        assert one_sided_regularizer(x) >= -1e-12 * scale**3
        assert ternary_regularizer(x) >= -1e-12 * scale**4


def test_bad_input_raises():
    with pytest.raises(ValueError):
        binary_regularizer(np.zeros((2, 2)))
    with pytest.raises(ValueError):
        eigenvector_regularizer(np.ones(3), np.eye(2))
    with pytest.raises(ValueError):
        cs_value(np.ones(2), np.ones(3))
    with pytest.raises(ValueError):
        symbolic_pair("quaternary", [sp.Symbol("x")])
    with pytest.raises(ValueError):
        lagrange_sum_of_squares([1, 2], [1])


# ----------------------------------------------------------------------------- recovery
def test_linf_success_probability_by_hand():
    assert linf_success_probability(3, 3) == 1.0
    assert linf_success_probability(2, 3) == 0.75          # (C(2,0) + C(2,1)) / 4
    assert linf_success_probability(1, 5) == 1 / 16
    assert linf_success_probability(16, 32) == 0.5         # sum of the lower half of C(31, k) / 2^31
    for N in (7, 12, 33):
        for M in range(1, N):                              # P(M) + P(N - M) = 1 (complementary sums)
            assert math.isclose(linf_success_probability(M, N) + linf_success_probability(N - M, N), 1.0)
    with pytest.raises(ValueError):
        linf_success_probability(0, 4)


def test_linf_linear_program_matches_closed_form():
    # 400 instances of N = 10, M = 5: the closed form gives 2^-9 (1 + 9 + 36 + 84 + 126) = 0.5;
    # the count must fall within 4 binomial standard errors (sd = 0.025).
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(400):
        A = rng.standard_normal((5, 10))
        x = np.where(rng.random(10) < 0.5, -1.0, 1.0)
        sol = linf_recovery(A, A @ x)
        np.testing.assert_allclose(A @ sol, A @ x, atol=1e-7)
        hits += recovered(sol, x)
    assert abs(hits / 400 - linf_success_probability(5, 10)) < 4 * 0.025


def test_cs_recovery_from_many_measurements(rng):
    # With M = N - 2 the affine set meets {+-1}^N only at x* for almost every A (two free
    # directions), and l_bin is small only near scaled sign vectors: every start recovers x*.
    N = 16
    A = rng.standard_normal((N - 2, N))
    x = np.where(rng.random(N) < 0.5, -1.0, 1.0)
    sol, used = cs_recovery(A, A @ x, rng, starts=3, reference=x)
    assert recovered(sol, x) and used == 1
    np.testing.assert_allclose(A @ sol, A @ x, atol=1e-8)
    assert binary_regularizer(sol) < 1e-6


def test_recovery_bad_input(rng):
    with pytest.raises(ValueError):
        cs_recovery(np.ones((4, 3)), np.ones(4), rng)
    with pytest.raises(ValueError):
        cs_recovery(np.ones((2, 3)), np.ones(2), rng, regularizer="eigenvector")
    with pytest.raises(ValueError):
        recovered([1.0, 2.0], [0.0, 0.0])
    with pytest.raises(ValueError):
        binary_recovery_trial(rng, 8, 8)
