"""Unit tests of simulations.algebra.idempotent against values computed another way.

References: hand evaluation of f(x) = 3x^2 - 2x^3; the Kronecker form of the Frechet derivative
(vec(A E B) = (B^T kron A) vec(E)) built with numpy.kron; central finite differences (exact up to
the known cubic term for a cubic map); divided differences f[l_i, l_j] at diagonal matrices.

simulations.nets.idempotent_mlp: central finite differences of the canonical loss and of the
frozen-target regression loss; a constant network (exactly idempotent); the recurrence on a
near-linear network.
"""

import numpy as np
import pytest
import sympy as sp

from simulations.algebra import (
    MCWEENY_COEFFS,
    frechet_eigenvalue_error_bound,
    idempotency_error,
    idempotent_from_basis,
    iterate_map,
    linear_map_matrix,
    matrix_polynomial,
    mcweeny_frechet,
    mcweeny_frechet_matrix,
    mcweeny_scalar,
    mcweeny_scalar_derivative,
    mcweeny_step,
    polynomial_frechet,
    polynomial_frechet_matrix,
    quadratic_ratios,
    random_eigenbasis,
    random_idempotent,
    random_orthogonal_projector,
    relaxed_mcweeny_step,
    similar_diagonal,
    spectral_projector,
    symbolic_idempotent,
    symmetric_perturbation,
    unvec,
    vec,
)
from simulations.nets.idempotent_mlp import (
    MLP,
    apply,
    canonical_gradient,
    idempotent_error,
    init_mlp,
    substitute_gradient,
    train,
    train_gd,
)

U = np.finfo(float).eps / 2


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


# ----------------------------------------------------------------------------- scalar map
@pytest.mark.parametrize("x, fx, dfx", [
    (0.0, 0.0, 0.0), (1.0, 1.0, 0.0), (0.5, 0.5, 1.5),
    (2.0, -4.0, -12.0),          # 3*4 - 2*8 ; 12 - 24
    (-1.0, 5.0, -12.0),          # 3 + 2 ; -6 - 6
    (0.1, 0.028, 0.54),          # 0.03 - 0.002 ; 0.6 - 0.06
    (1.1, 0.968, -0.66),         # 3.63 - 2.662 ; 6.6 - 7.26
])
def test_scalar_map_by_hand(x, fx, dfx):
    assert mcweeny_scalar(x) == pytest.approx(fx, abs=1e-15)
    assert mcweeny_scalar_derivative(x) == pytest.approx(dfx, abs=1e-15)


def test_scalar_expansion_near_one():
    e = sp.Symbol("e")
    assert sp.expand(mcweeny_scalar(1 + e) - (1 - 3 * e**2 - 2 * e**3)) == 0


# ----------------------------------------------------------------------------- matrix maps
def test_step_on_diagonal_is_scalar_map():
    d = np.array([0.1, 0.9, 0.5, 2.0, -1.0])
    np.testing.assert_allclose(mcweeny_step(np.diag(d)), np.diag([0.028, 0.972, 0.5, -4.0, 5.0]),
                               atol=1e-14)


def test_step_matches_matrix_power(rng):
    K = rng.standard_normal((5, 5))
    ref = 3 * np.linalg.matrix_power(K, 2) - 2 * np.linalg.matrix_power(K, 3)
    np.testing.assert_allclose(mcweeny_step(K), ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(matrix_polynomial(K, MCWEENY_COEFFS), ref, rtol=1e-12, atol=1e-12)


def test_matrix_polynomial_constant_term_and_sympy():
    K = np.array([[1.0, 2.0], [0.0, 3.0]])
    # p(x) = 1 - x + x^2 on an upper-triangular matrix, by hand: K^2 = [[1, 8], [0, 9]]
    np.testing.assert_allclose(matrix_polynomial(K, (1, -1, 1)), [[1.0, 6.0], [0.0, 7.0]])
    a = sp.Symbol("a")
    out = matrix_polynomial(sp.Matrix([[a, 0], [0, 1]]), (0, 0, 3, -2))
    assert sp.simplify(out[0, 0] - (3 * a**2 - 2 * a**3)) == 0 and out[1, 1] == 1


def test_vec_is_column_stacking():
    X = np.array([[1, 2], [3, 4]])
    np.testing.assert_array_equal(vec(X), [1, 3, 2, 4])
    np.testing.assert_array_equal(unvec(vec(X), 2), X)
    with pytest.raises(ValueError):
        unvec(np.arange(5), 2)


def _kron_derivative(K):
    n = K.shape[0]
    eye, K2 = np.eye(n), K @ K
    return 3 * (np.kron(eye, K) + np.kron(K.T, eye)) - 2 * (
        np.kron(eye, K2) + np.kron(K.T, K) + np.kron(K2.T, eye))


def test_derivative_matrix_matches_kronecker_formula(rng):
    for n in (1, 2, 5):
        K = rng.standard_normal((n, n))
        np.testing.assert_allclose(mcweeny_frechet_matrix(K), _kron_derivative(K), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(polynomial_frechet_matrix(K, MCWEENY_COEFFS), _kron_derivative(K),
                                   rtol=1e-12, atol=1e-12)


def test_squaring_derivative_matches_kronecker(rng):
    K = rng.standard_normal((4, 4))
    ref = np.kron(np.eye(4), K) + np.kron(K.T, np.eye(4))
    np.testing.assert_allclose(polynomial_frechet_matrix(K, (0, 0, 1)), ref, atol=1e-13)


def test_derivative_vs_finite_differences(rng):
    K, E = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    h = 1e-4
    fd = (mcweeny_step(K + h * E) - mcweeny_step(K - h * E)) / (2 * h)
    D = mcweeny_frechet(K, E)
    # F is cubic: the central difference equals DF_K(E) - 2 h^2 E^3 exactly (up to rounding ~ u/h).
    np.testing.assert_allclose(fd, D, atol=1e-6)
    np.testing.assert_allclose(fd + 2 * h**2 * np.linalg.matrix_power(E, 3), D, atol=1e-9)
    np.testing.assert_allclose(vec(D), mcweeny_frechet_matrix(K) @ vec(E), atol=1e-12)


def test_polynomial_derivative_vs_finite_differences(rng):
    K, E = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    coeffs = (0.5, -1.0, 2.0, 0.0, 1.0)  # degree 4, not the McWeeny map
    h = 1e-5
    fd = (matrix_polynomial(K + h * E, coeffs) - matrix_polynomial(K - h * E, coeffs)) / (2 * h)
    np.testing.assert_allclose(polynomial_frechet(K, E, coeffs), fd, rtol=1e-6, atol=1e-6)


def test_derivative_at_diagonal_gives_divided_differences():
    # At K = diag(1, 1/2, 0) the derivative is diagonal with entries f[l_i, l_j]:
    # f'(1) = f'(0) = 0, f'(1/2) = 3/2, and every divided difference between distinct points is 1.
    L = mcweeny_frechet_matrix(np.diag([1.0, 0.5, 0.0]))
    np.testing.assert_allclose(L, np.diag(np.diag(L)), atol=1e-15)
    expected = np.array([[0.0, 1, 1], [1, 1.5, 1], [1, 1, 0]])  # entry (i, j) <-> direction e_i e_j^T
    np.testing.assert_allclose(unvec(np.diag(L), 3), expected, atol=1e-15)


def test_linear_map_matrix_of_transpose():
    M = linear_map_matrix(lambda E: E.T, 2)
    # the commutation matrix: vec(E^T) swaps entries 1 and 2 of vec(E)
    np.testing.assert_array_equal(M, [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])


def test_relaxed_step():
    K = np.diag([0.9])
    assert relaxed_mcweeny_step(K, 0.5)[0, 0] == pytest.approx(0.936)  # 0.9 + (0.972 - 0.9)/2
    np.testing.assert_allclose(relaxed_mcweeny_step(K, 1.0), mcweeny_step(K))
    with pytest.raises(ValueError):
        relaxed_mcweeny_step(K, 0.0)


# ----------------------------------------------------------------------------- instances
def test_random_idempotent_is_idempotent(rng):
    for n, r in [(1, 0), (1, 1), (5, 2), (8, 7)]:
        P = random_idempotent(n, r, rng)
        np.testing.assert_allclose(P @ P, P, atol=1e-9)
        assert np.trace(P) == pytest.approx(r, abs=1e-9)
        assert np.linalg.matrix_rank(P, tol=1e-8) == r
        assert idempotency_error(P) < 1e-9
    P = random_idempotent(5, 2, rng)
    assert not np.allclose(P, P.T)  # oblique


def test_idempotent_from_basis_by_hand():
    S = np.array([[1.0, 1.0], [0.0, 1.0]])
    # S diag(1, 0) S^{-1} with S^{-1} = [[1, -1], [0, 1]]: projects onto e_1 along (1, 1)
    np.testing.assert_allclose(idempotent_from_basis(S, 1), [[1.0, -1.0], [0.0, 0.0]])
    with pytest.raises(ValueError):
        idempotent_from_basis(S, 3)
    with pytest.raises(ValueError):
        similar_diagonal(np.zeros((2, 2)), [1, 0])


def test_orthogonal_projector(rng):
    P, Ub = random_orthogonal_projector(6, 2, rng)
    np.testing.assert_allclose(P, P.T, atol=1e-15)
    np.testing.assert_allclose(P @ P, P, atol=1e-14)
    np.testing.assert_allclose(Ub.T @ Ub, np.eye(2), atol=1e-14)
    assert np.trace(P) == pytest.approx(2)


def test_random_eigenbasis_condition(rng):
    S = random_eigenbasis(7, rng, 25.0)
    assert np.linalg.cond(S) == pytest.approx(25.0, rel=1e-10)
    with pytest.raises(ValueError):
        random_eigenbasis(3, rng, 0.5)


def test_symmetric_perturbation(rng):
    E = symmetric_perturbation(7, 0.3, rng)
    np.testing.assert_allclose(E, E.T)
    assert np.linalg.norm(E, 2) == pytest.approx(0.3, rel=1e-12)
    with pytest.raises(ValueError):
        symmetric_perturbation(3, -1.0, rng)


def test_spectral_projector_by_hand():
    c, s = np.cos(0.3), np.sin(0.3)
    R = np.array([[c, -s], [s, c]])
    K = R @ np.diag([0.9, 0.1]) @ R.T
    np.testing.assert_allclose(spectral_projector(K), np.outer(R[:, 0], R[:, 0]), atol=1e-14)
    np.testing.assert_allclose(spectral_projector(np.diag([1.2, -0.2, 0.6, 0.4])),
                               np.diag([1.0, 0.0, 1.0, 0.0]))
    with pytest.raises(ValueError):
        spectral_projector(np.array([[0.0, 1.0], [0.0, 0.0]]))


def test_symbolic_idempotents():
    for n, r in [(2, 1), (3, 1), (3, 2)]:
        P = symbolic_idempotent(n, r)
        assert all(sp.cancel(e) == 0 for e in (P * P - P))
        assert sp.simplify(P.trace()) == r
    assert symbolic_idempotent(3, 0) == sp.zeros(3, 3) and symbolic_idempotent(2, 2) == sp.eye(2)
    # general path A (B A)^{-1} B: check P^2 = P at random rational points instead of symbolically
    P = symbolic_idempotent(4, 2)
    syms = sorted(P.free_symbols, key=str)
    f = sp.lambdify(syms, P, "numpy")
    vals = np.random.default_rng(3).standard_normal(len(syms))
    Pn = np.asarray(f(*vals), dtype=float)
    np.testing.assert_allclose(Pn @ Pn, Pn, atol=1e-9)
    assert np.trace(Pn) == pytest.approx(2)


def test_error_bound_by_hand():
    # n = 2, K = diag(1, 0), S = I: L = diag(0, 1, 1, 0) (divided differences), ||L||_F = sqrt 2,
    # bound = kappa^2 u (n^2 ||L||_F + n kappa (6 + 10 ||K||)) = u (4 sqrt 2 + 32)
    K = np.diag([1.0, 0.0])
    L = mcweeny_frechet_matrix(K)
    np.testing.assert_allclose(L, np.diag([0.0, 1.0, 1.0, 0.0]), atol=1e-15)
    assert frechet_eigenvalue_error_bound(K, np.eye(2), L) == pytest.approx(U * (4 * np.sqrt(2) + 32))


# ----------------------------------------------------------------------------- iteration
def test_iteration_follows_scalar_map():
    K0 = np.diag([0.9, 0.05])
    res = iterate_map(K0, max_steps=3, error=lambda K: float(np.max(np.abs(K - np.diag([1.0, 0.0])))))
    a, b = 0.9, 0.05
    expected = [max(1 - a, b)]
    for _ in range(3):
        a, b = 3 * a**2 - 2 * a**3, 3 * b**2 - 2 * b**3
        expected.append(max(1 - a, b))
    np.testing.assert_allclose(res.errors, expected, rtol=1e-12)
    assert res.steps == 3 and not res.diverged and not res.converged


def test_iteration_converges_and_stops():
    res = iterate_map(np.diag([1.1, -0.1]), tol=1e-14, max_steps=50)
    assert res.converged and res.steps < 10
    np.testing.assert_allclose(res.final, np.diag([1.0, 0.0]), atol=1e-14)


def test_iteration_diverges_outside_basin():
    res = iterate_map(np.diag([2.0]), max_steps=50, blowup=1e8)
    # 2 -> -4 -> 176 -> -10810624 (still below 1e8) -> about 2.5e21 (beyond 1e8: stop there)
    assert res.diverged and not res.converged
    assert res.final[0, 0] == pytest.approx(mcweeny_scalar(mcweeny_scalar(mcweeny_scalar(mcweeny_scalar(2.0)))))
    assert np.all(np.isfinite(res.errors))


def test_quadratic_ratios():
    np.testing.assert_allclose(quadratic_ratios([0.1, 0.03, 0.0027]), [3.0, 3.0])
    with pytest.raises(ValueError):
        quadratic_ratios([0.1, 0.0, 0.0])


def test_bad_inputs():
    with pytest.raises(ValueError):
        mcweeny_step(np.ones((2, 3)))
    with pytest.raises(ValueError):
        mcweeny_frechet(np.eye(2), np.eye(3))
    with pytest.raises(ValueError):
        matrix_polynomial(np.eye(2), ())
    with pytest.raises(ValueError):
        iterate_map(np.eye(2), max_steps=-1)
    with pytest.raises(ValueError):
        mcweeny_step(np.array([[np.nan]]))


def _finite_difference(net, f, h=1e-6):
    out = []
    for p in net.params:
        g = np.zeros_like(p)
        for j in range(p.size):
            old = p.flat[j]
            p.flat[j] = old + h
            a = f()
            p.flat[j] = old - h
            b = f()
            p.flat[j] = old
            g.flat[j] = (a - b) / (2 * h)
        out.append(g)
    return out


def test_canonical_gradient_by_finite_differences(rng):
    net = init_mlp(3, 5, rng)
    X = rng.standard_normal((7, 3))
    fd = _finite_difference(net, lambda: float(np.mean(np.sum((apply(net, apply(net, X)) - apply(net, X)) ** 2, axis=1))))
    for a, b in zip(canonical_gradient(net, X), fd, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


def test_substitute_gradient_by_finite_differences(rng):
    net = init_mlp(3, 5, rng)
    X = rng.standard_normal((7, 3))
    Y = apply(net, X)
    Z = apply(net, Y)
    T = 3 * Z - 2 * apply(net, Z)  # frozen target
    fd = _finite_difference(net, lambda: float(0.5 * np.mean(np.sum((apply(net, X) - T) ** 2, axis=1))))
    for a, b in zip(substitute_gradient(net, X), fd, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-9)


def test_constant_network_is_idempotent_and_a_fixed_point(rng):
    net = init_mlp(3, 4, rng)
    net.params[2][:] = 0.0  # f(x) = b2
    X = rng.standard_normal((5, 3))
    assert idempotent_error(net, X) == 0.0
    for g in canonical_gradient(net, X) + substitute_gradient(net, X):
        np.testing.assert_allclose(g, 0.0, atol=1e-15)


def test_substitute_step_is_the_recurrence_for_a_near_linear_network(rng):
    d, eps = 3, 1e-4
    K = 0.4 * rng.standard_normal((d, d))
    # f(x) = (K / eps) tanh(eps x) = K x + O(eps^2): a linear network in the limit
    net = MLP([eps * np.eye(d), np.zeros(d), K / eps, np.zeros(d)])
    X = np.linalg.qr(rng.standard_normal((d, d)))[0] * np.sqrt(d)  # rows with X^T X / d = I
    g = substitute_gradient(net, X)
    # the gradient in W2 (= K / eps) is the gradient in K divided by eps
    np.testing.assert_allclose(g[2] / eps, K - (3 * K @ K - 2 * K @ K @ K), atol=1e-6)


def test_training_reduces_idempotent_error_and_bad_input(rng):
    net = init_mlp(4, 8, rng)
    X = rng.standard_normal((32, 4))
    before = idempotent_error(net, X)
    assert idempotent_error(train(net, X, "canonical", steps=50, lr=1e-2), X) < before
    assert idempotent_error(train_gd(net, X, "substitute", steps=50, lr=0.3), X) < before
    with pytest.raises(ValueError):
        train(net, X, "adam", steps=1, lr=1e-2)
    with pytest.raises(ValueError):
        train_gd(net, X, "canonical", steps=1, lr=0.0)
    with pytest.raises(ValueError):
        init_mlp(0, 3, rng)
