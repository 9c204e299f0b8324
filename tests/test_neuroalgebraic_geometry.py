"""Unit tests of simulations.algebra.neurovariety against values obtained another way.

References: sympy expansion and differentiation of the network polynomial; sympy matrix ranks;
binomial counts; the Alexander-Hirschowitz values quoted in the literature (quadrics
3 x 2 -> 5, ternary quartics of rank 5 -> 14, the 4 sporadic cases); central finite differences;
dimensions counted by hand from the structure of the network (bottlenecks, the first layer
composed with a filling tail).
"""

import math

import numpy as np
import pytest
import sympy as sp

from simulations.algebra.neurovariety import (
    activation_threshold_bound,
    alexander_hirschowitz_dimension,
    ambient_dimension,
    architectures,
    bottleneck_dimension,
    certified_rank,
    coefficient_jacobian,
    coefficient_map,
    composition_upper_bound,
    expected_neurovariety_dimension,
    first_bottleneck,
    is_alexander_hirschowitz_defective,
    is_equi_width,
    known_dimension,
    monomial_exponents,
    network_forward,
    neurovariety_dimension,
    numerical_rank,
    output_degree,
    random_inputs,
    random_weights,
    rank_mod_p,
    rank_rational,
    sample_jacobian,
    switch_off_neuron,
    vandermonde,
)

P = 1_000_003


@pytest.fixture
def rng():
    return np.random.default_rng(2025)


def _sympy_network(widths, degree):
    """Symbolic weights, inputs and output polynomials of the network."""
    x = sp.symbols(f"x0:{widths[0]}")
    Ws = [sp.Matrix(b, a, lambda i, j, k=k: sp.Symbol(f"w{k}_{i}_{j}"))
          for k, (a, b) in enumerate(zip(widths[:-1], widths[1:], strict=False))]
    a = sp.Matrix(x)
    for k, W in enumerate(Ws):
        a = W * a
        if k < len(Ws) - 1:
            a = a.applyfunc(lambda z: z**degree)
    params = [s for W in Ws for s in W]
    return x, Ws, params, [sp.expand(e) for e in a]


def _subs(Ws, weights):
    return {Ws[k][i, j]: sp.Integer(int(weights[k][i, j]))
            for k in range(len(Ws)) for i in range(Ws[k].rows) for j in range(Ws[k].cols)}


# ----------------------------------------------------------------------------- counts
@pytest.mark.parametrize("n, d", [(1, 3), (2, 2), (3, 4), (4, 3), (5, 0)])
def test_monomial_count_is_binomial(n, d):
    exps = monomial_exponents(n, d)
    assert len(exps) == math.comb(n + d - 1, d) == len(set(exps))
    assert all(sum(e) == d and len(e) == n for e in exps)


def test_expected_dimension_by_hand():
    # (2,2,2), r=2: 8 weights - 2 scalings = 6; ambient 2 * C(3,2) = 6.
    assert expected_neurovariety_dimension((2, 2, 2), 2) == 6
    # (3,2,1), r=2: 6 - 2 + ... = 1 + 2*2 + 1*1 = 6; ambient C(4,2) = 6.
    assert expected_neurovariety_dimension((3, 2, 1), 2) == 6
    # (4,4,4,4), r=2: D = 4, ambient 4 * C(7,4) = 140; 4 + 3*4*3 = 40.
    assert output_degree((4, 4, 4, 4), 2) == 4
    assert ambient_dimension((4, 4, 4, 4), 2) == 140
    assert expected_neurovariety_dimension((4, 4, 4, 4), 2) == 40
    # linear networks: rank <= 2 matrices 3 x 4: 2 * (3 + 4 - 2) = 10
    assert expected_neurovariety_dimension((4, 2, 3), 1) == 10


def test_alexander_hirschowitz_values():
    assert alexander_hirschowitz_dimension(3, 2, 2) == 5        # plane conics of rank <= 2
    assert alexander_hirschowitz_dimension(3, 4, 5) == 14       # Clebsch: ternary quartics
    assert alexander_hirschowitz_dimension(4, 4, 9) == 34
    assert alexander_hirschowitz_dimension(5, 4, 14) == 69
    assert alexander_hirschowitz_dimension(5, 3, 7) == 34
    assert alexander_hirschowitz_dimension(3, 4, 4) == 12       # generic
    assert alexander_hirschowitz_dimension(4, 2, 7) == 10       # quadrics fill
    assert is_alexander_hirschowitz_defective(6, 2, 3)
    assert not is_alexander_hirschowitz_defective(3, 4, 6)
    assert bottleneck_dimension((3, 1, 3, 2), 2) == 4
    with pytest.raises(ValueError):
        bottleneck_dimension((3, 2, 1), 2)
    with pytest.raises(ValueError):
        alexander_hirschowitz_dimension(3, 1, 2)


# ----------------------------------------------------------------------------- the map
@pytest.mark.parametrize("widths, degree", [((2, 2, 1), 3), ((3, 2, 2), 2), ((2, 2, 2, 1), 2)])
def test_coefficient_map_matches_sympy_expansion(widths, degree, rng):
    x, Ws, _, outs = _sympy_network(widths, degree)
    W = random_weights(widths, rng, integer_range=5)
    coeffs = coefficient_map(W, degree)
    exps = monomial_exponents(widths[0], output_degree(widths, degree))
    subs = _subs(Ws, W)
    for k, out in enumerate(outs):
        poly = sp.Poly(out.subs(subs), *x)
        for j, e in enumerate(exps):
            assert int(coeffs[k, j]) == int(poly.coeff_monomial(e))


def test_forward_equals_coefficients_times_monomials(rng):
    widths, degree = (3, 4, 2, 2), 2
    W = random_weights(widths, rng)
    X = random_inputs(3, 7, rng)
    V = vandermonde(X, output_degree(widths, degree))
    C = coefficient_map(W, degree)
    np.testing.assert_allclose(network_forward(W, X, degree), V @ C.T, rtol=1e-12, atol=1e-12)


def test_sample_jacobian_matches_sympy_and_mod_p(rng):
    widths, degree = (2, 2, 2), 3
    x, Ws, params, outs = _sympy_network(widths, degree)
    W = random_weights(widths, rng, integer_range=4)
    X = random_inputs(2, 3, rng, integer_range=4)
    G = sample_jacobian(W, X, degree)
    subs = _subs(Ws, W)
    for k, out in enumerate(outs):
        for s in range(X.shape[0]):
            point = {**subs, **{x[i]: int(X[s, i]) for i in range(2)}}
            row = [int(sp.diff(out, p).subs(point)) for p in params]
            assert [int(v) for v in G[k * X.shape[0] + s]] == row
    Wp = [np.array(w.astype(np.int64)) % P for w in W]
    Gp = sample_jacobian(Wp, np.array(X.astype(np.int64)) % P, degree, modulus=P)
    assert np.array_equal(Gp, np.array([[int(v) % P for v in row] for row in G], dtype=np.int64))


def test_sample_jacobian_matches_finite_differences(rng):
    widths, degree = (3, 3, 2, 2), 2
    W = random_weights(widths, rng)
    X = random_inputs(3, 4, rng)
    G = sample_jacobian(W, X, degree)
    h, col = 1e-6, 0
    for k, Wk in enumerate(W):
        for idx in np.ndindex(Wk.shape):
            Wp = [w.copy() for w in W]
            Wm = [w.copy() for w in W]
            Wp[k][idx] += h
            Wm[k][idx] -= h
            fd = (network_forward(Wp, X, degree) - network_forward(Wm, X, degree)) / (2 * h)
            np.testing.assert_allclose(G[:, col], fd.T.ravel(), rtol=1e-6, atol=1e-8)
            col += 1


def test_coefficient_jacobian_matches_sympy(rng):
    widths, degree = (2, 2, 1), 3
    x, Ws, params, outs = _sympy_network(widths, degree)
    W = random_weights(widths, rng)
    J = coefficient_jacobian(W, degree, rng)
    exps = monomial_exponents(2, 3)
    subs = {Ws[k][i, j]: W[k][i, j] for k in range(2) for i in range(Ws[k].rows) for j in range(Ws[k].cols)}
    poly = sp.Poly(outs[0], *x)
    ref = np.array([[float(sp.diff(poly.coeff_monomial(e), p).subs(subs)) for p in params] for e in exps])
    np.testing.assert_allclose(J, ref, rtol=1e-8, atol=1e-10)


# ----------------------------------------------------------------------------- ranks
def test_exact_ranks_match_sympy(rng):
    for shape, rank in [((6, 5), 3), ((4, 7), 4), ((5, 5), 1), ((3, 3), 0)]:
        A = rng.integers(-9, 10, size=(shape[0], rank)) @ rng.integers(-9, 10, size=(rank, shape[1]))
        ref = sp.Matrix(A.tolist()).rank()
        assert rank_rational(A.astype(object)) == ref
        assert rank_mod_p(A, P) == ref
    # a matrix that is singular mod 7 but not over Q
    assert rank_rational(np.array([[7, 0], [0, 1]], dtype=object)) == 2
    assert rank_mod_p(np.array([[7, 0], [0, 1]]), 7) == 1


def test_numerical_rank_gap(rng):
    U, _ = np.linalg.qr(rng.standard_normal((20, 20)))
    V, _ = np.linalg.qr(rng.standard_normal((12, 12)))
    s = np.array([5, 3, 2, 1, 0.5, 1e-11, 1e-12, 0, 0, 0, 0, 0], dtype=float)
    A = U[:, :12] @ np.diag(s) @ V.T
    nr = numerical_rank(A)
    assert nr.rank == 5 and nr.gap_decades > 9
    full = numerical_rank(rng.standard_normal((8, 5)))
    assert full.rank == 5


def test_dimension_of_quadric_cell_against_sympy_rank(rng):
    # (3,2,1), r = 2: x -> a1 (w1.x)^2 + a2 (w2.x)^2, quadrics of rank <= 2: dimension 5.
    x, Ws, params, outs = _sympy_network((3, 2, 1), 2)
    poly = sp.Poly(outs[0], *x)
    coeffs = [poly.coeff_monomial(e) for e in monomial_exponents(3, 2)]
    J = sp.Matrix(coeffs).jacobian(params)
    point = {p: sp.Integer(int(v)) for p, v in zip(params, rng.integers(2, 30, size=len(params)), strict=True)}
    assert J.subs(point).rank() == 5
    for method in ("numeric", "modular", "rational"):
        assert neurovariety_dimension((3, 2, 1), 2, method, rng=rng).dimension == 5


def test_switch_off_neuron(rng):
    W = random_weights((3, 4, 2, 1), rng)
    off = switch_off_neuron(W, 2, 1)
    assert np.all(off[2][:, 1] == 0) and np.array_equal(off[1], W[1])
    assert not np.all(W[2][:, 1] == 0)
    with pytest.raises(ValueError):
        switch_off_neuron(W, 3, 0)
    with pytest.raises(ValueError):
        switch_off_neuron(W, 1, 4)


def test_bad_input_raises(rng):
    with pytest.raises(ValueError):
        neurovariety_dimension((3, 2, 1), 2, "svd", rng=rng)
    with pytest.raises(ValueError):
        expected_neurovariety_dimension((3,), 2)
    with pytest.raises(ValueError):
        expected_neurovariety_dimension((3, 0, 1), 2)
    with pytest.raises(ValueError):
        sample_jacobian(random_weights((3, 2, 1), rng), np.zeros((4, 2)), 2)
    with pytest.raises(ValueError):
        rank_mod_p(np.eye(2, dtype=np.int64), 2**40)


# ----------------------------------------------------------------------------- theory helpers
def _sympy_dimension(widths, degree, rng):
    """Rank over Q of the coefficient Jacobian at a random integer point, computed with sympy
    alone: one column per weight, from the network expanded with that weight left symbolic."""
    x = sp.symbols(f"x0:{widths[0]}")
    t = sp.Symbol("t")
    shapes = [(b, a) for a, b in zip(widths[:-1], widths[1:], strict=False)]
    point = [sp.Matrix(rng.integers(2, 40, size=shape).tolist()) for shape in shapes]
    D = output_degree(widths, degree)
    monomials = monomial_exponents(widths[0], D)
    columns = []
    for k, (rows, cols) in enumerate(shapes):
        for i in range(rows):
            for j in range(cols):
                Ws = [W.copy() for W in point]
                value = Ws[k][i, j]
                Ws[k][i, j] = t
                a = sp.Matrix(x)
                for m, W in enumerate(Ws):
                    a = W * a
                    if m < len(Ws) - 1:
                        a = a.applyfunc(lambda z: sp.expand(z**degree))
                col = []
                for out in a:
                    poly = sp.Poly(sp.expand(out), *x)
                    col += [sp.diff(poly.coeff_monomial(e), t).subs(t, value) for e in monomials]
                columns.append(col)
    return sp.Matrix(columns).T.rank()


def test_deep_bottleneck_against_sympy(rng):
    # (3,3,1,2), r = 2: outputs v q(x)^2 with q a ternary quadric (6 dims) and v in R^2 sharing a
    # scale: 6 + 2 - 1 = 7 (the first-layer formula d_0 + d_h - 1 would give 4).
    assert first_bottleneck((3, 3, 1, 2)) == 2 and first_bottleneck((3, 3, 2)) is None
    assert bottleneck_dimension((3, 3, 1, 2), 2) == 7 == _sympy_dimension((3, 3, 1, 2), 2, rng)
    # (2,3,1,2), r = 3: binary cubics fill at 4 dims, plus 1.
    assert bottleneck_dimension((2, 3, 1, 2), 3) == 5 == _sympy_dimension((2, 3, 1, 2), 3, rng)
    # a given prefix dimension is used as is
    assert bottleneck_dimension((2, 2, 2, 1, 3), 2, prefix_dimension=5) == 7


def test_composition_bound_and_certified_rank_against_sympy(rng):
    # (3,3,3,1), r = 2: y = W1 x, output Q(y1^2, y2^2, y3^2) with Q any ternary quadric (6) and
    # W1 in GL_3 up to the diagonal torus (9 - 3): 12 < 15 = expected = ambient.
    bound = composition_upper_bound((3, 3, 3, 1), 2, alexander_hirschowitz_dimension(3, 2, 3))
    assert bound == 12 and expected_neurovariety_dimension((3, 3, 3, 1), 2) == 15
    assert _sympy_dimension((3, 3, 3, 1), 2, rng) == 12
    assert certified_rank((3, 3, 3, 1), 2, rng) == 12
    # (2,3,2,2), r = 2: outputs in span{q1^2, q2^2} for two binary quadrics: 4 + 4 = 8 < 10.
    assert _sympy_dimension((2, 3, 2, 2), 2, rng) == 8 == certified_rank((2, 3, 2, 2), 2, rng)


def test_certified_rank_at_high_degree(rng):
    # Shallow single output at r = 14: Alexander-Hirschowitz gives min(2 * 2, 15) = 4 for two binary
    # forms; equi-width (2,2,2) at r = 14: 2 + 1*2 + 1*2 = 6.
    assert certified_rank((2, 2, 1), 14, rng) == alexander_hirschowitz_dimension(2, 14, 2) == 4
    assert certified_rank((2, 2, 2), 14, rng) == 6
    # a point with a dead neuron (zero row of W_1) loses that neuron's directions
    W = random_weights((3, 3, 1), rng, modulus=P)
    W[0][0] = 0
    assert certified_rank((3, 3, 1), 3, rng, weights=W) < certified_rank((3, 3, 1), 3, rng)


def test_threshold_equiwidth_and_known_dimension():
    assert activation_threshold_bound((2, 2, 1)) == 13 and activation_threshold_bound((3, 2, 3, 1)) == 37
    assert is_equi_width((4, 4, 4)) and not is_equi_width((3, 3, 3, 1))
    assert known_dimension((3, 4), 2) == 12
    assert known_dimension((3, 2, 1), 2) == 5                      # Alexander-Hirschowitz
    assert known_dimension((3, 3, 3, 3), 2) == expected_neurovariety_dimension((3, 3, 3, 3), 2)
    assert known_dimension((3, 3, 3, 1), 38) == 15                 # above 6*9 - 18 + 1 = 37
    assert known_dimension((3, 1, 2), 2) == 3 + 2 - 1
    with pytest.raises(ValueError):
        known_dimension((3, 3, 3, 1), 2)


def test_architecture_box_by_hand():
    # widths {1, 2}, depth 2, input >= 2, no hidden width 1: (2, 2, 1) and (2, 2, 2).
    assert architectures((1, 2), (2,)) == [(2, 2, 1), (2, 2, 2)]
    boxed = architectures((1, 2, 3), (1, 2))
    # depth 1: 2 inputs x 3 outputs; depth 2: 2 inputs x 2 hidden x 3 outputs
    assert len(boxed) == 6 + 12
    assert len(architectures((1, 2), (2,), bottlenecks=True)) == 4
    with pytest.raises(ValueError):
        architectures((2,), (0,))
