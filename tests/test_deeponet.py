"""Unit tests of simulations.nets.deeponet against values obtained another way.

References: central finite differences of the output, of the loss and of the exact gradient
(dense Hessian); sympy's symbolic gradient and Hessian of a tiny DeepONet written out by hand;
numpy.linalg.norm of the dense Hessian blocks and numpy.linalg.eigvalsh of the full dense
Hessian for the closed-form block norms and the Lanczos norm; the Gram matrix of a
finite-difference Jacobian for the tangent kernel; Monte Carlo at large width for the
infinite-width limit of the cross block.
"""

import math

import numpy as np
import pytest
import sympy as sp

from simulations.nets.deeponet import (
    branch,
    cross_block_limit,
    deeponet_forward,
    hessian_block_norms,
    hessian_block_norms_batch,
    hidden_scale,
    init_deeponet,
    loss,
    loss_gradient,
    output_gradient,
    output_hessian_norm,
    output_hvp,
    tangent_kernel,
    trunk,
)


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def _dense_hessian(net, u, y):
    return np.array([output_hvp(net, u, y, e) for e in np.eye(net.flat().size)])


def test_output_gradient_and_hvp_by_finite_differences(rng):
    net = init_deeponet(6, 5, 3, rng, query_dim=2)
    u, y = rng.standard_normal(5), rng.uniform(0, 1, 2)
    w, h = net.flat(), 1e-6

    def out(wf):
        return deeponet_forward(net.with_flat(wf), u[None, :], y[None, :])[0, 0]

    eye = np.eye(w.size)
    fd = np.array([(out(w + h * e) - out(w - h * e)) / (2 * h) for e in eye])
    np.testing.assert_allclose(output_gradient(net, u, y), fd, atol=1e-9)
    fd_hess = np.array([(output_gradient(net.with_flat(w + h * e), u, y)
                         - output_gradient(net.with_flat(w - h * e), u, y)) / (2 * h) for e in eye])
    H = _dense_hessian(net, u, y)
    np.testing.assert_allclose(H, fd_hess, atol=1e-8)
    np.testing.assert_allclose(H, H.T, atol=1e-14)


def test_loss_gradient_by_finite_differences(rng):
    net = init_deeponet(5, 4, 3, rng, parametrization="standard")
    U, ys, Y = rng.standard_normal((3, 4)), rng.uniform(0, 1, (4, 1)), rng.standard_normal((3, 4))
    w, h = net.flat(), 1e-6
    g = loss_gradient(net, U, ys, Y)
    for i in rng.choice(w.size, 15, replace=False):
        e = np.zeros(w.size)
        e[i] = h
        fd = (loss(net.with_flat(w + e), U, ys, Y) - loss(net.with_flat(w - e), U, ys, Y)) / (2 * h)
        assert g[i] == pytest.approx(fd, rel=1e-6, abs=1e-10)


def test_tiny_deeponet_against_sympy(rng):
    # m = 2, K = 2, s = 2, d = 1, NTK scaling written out by hand:
    # G = (1/sqrt 2) sum_k (1/sqrt 2) sum_c Ab_kc tanh((Wb_c . u)/sqrt 2)
    #                     (1/sqrt 2) sum_c At_kc tanh((Wt_c0 y + Wt_c1)/sqrt 2)
    Wb = sp.Matrix(2, 2, sp.symbols("wb0:4"))
    Ab = sp.Matrix(2, 2, sp.symbols("ab0:4"))
    Wt = sp.Matrix(2, 2, sp.symbols("wt0:4"))
    At = sp.Matrix(2, 2, sp.symbols("at0:4"))
    u = [sp.Rational(3, 4), sp.Rational(-1, 2)]
    y = sp.Rational(2, 5)
    r2 = sp.sqrt(2)
    f = [sum(Ab[k, c] * sp.tanh((Wb[c, 0] * u[0] + Wb[c, 1] * u[1]) / r2) for c in range(2)) / r2
         for k in range(2)]
    g = [sum(At[k, c] * sp.tanh((Wt[c, 0] * y + Wt[c, 1]) / r2) for c in range(2)) / r2
         for k in range(2)]
    G = (f[0] * g[0] + f[1] * g[1]) / r2
    syms = list(Wb) + list(Ab) + list(Wt) + list(At)  # sympy Matrix order is row-major
    net = init_deeponet(2, 2, 2, rng)
    vals = dict(zip(syms, net.flat(), strict=True))
    grad = np.array([float(sp.diff(G, a).subs(vals)) for a in syms])
    hess = np.array([[float(sp.diff(G, a, b).subs(vals)) for b in syms] for a in syms])
    uu, yy = np.array([0.75, -0.5]), np.array([0.4])
    assert float(G.subs(vals)) == pytest.approx(deeponet_forward(net, uu[None], yy[None])[0, 0], rel=1e-12)
    np.testing.assert_allclose(output_gradient(net, uu, yy), grad, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(_dense_hessian(net, uu, yy), hess, rtol=1e-10, atol=1e-12)


def test_block_norms_and_lanczos_against_the_dense_hessian(rng):
    for parametrization in ("ntk", "standard"):
        net = init_deeponet(7, 6, 4, rng, parametrization=parametrization)
        u, y = rng.standard_normal(6), rng.uniform(0, 1, 1)
        H, nb = _dense_hessian(net, u, y), net.branch_size
        blocks = hessian_block_norms(net, u, y)
        assert blocks["branch"] == pytest.approx(np.linalg.norm(H[:nb, :nb], 2), rel=1e-10)
        assert blocks["trunk"] == pytest.approx(np.linalg.norm(H[nb:, nb:], 2), rel=1e-10)
        assert blocks["cross"] == pytest.approx(np.linalg.norm(H[:nb, nb:], 2), rel=1e-10)
        full = np.max(np.abs(np.linalg.eigvalsh(H)))
        assert output_hessian_norm(net, u, y, rng) == pytest.approx(full, rel=1e-8)
        assert max(blocks.values()) <= full * (1 + 1e-12)
        assert full <= max(blocks["branch"], blocks["trunk"]) + blocks["cross"] + 1e-12
    # the batch form agrees with the single-point form
    U, ys = rng.standard_normal((3, 6)), rng.uniform(0, 1, (3, 1))
    batch = hessian_block_norms_batch(net, U, ys)
    for i in range(3):
        single = hessian_block_norms(net, U[i], ys[i])
        for k in single:
            assert batch[k][i] == pytest.approx(single[k], rel=1e-12)


def test_tangent_kernel_is_the_jacobian_gram_matrix(rng):
    net = init_deeponet(4, 3, 2, rng)
    U, ys = rng.standard_normal((2, 3)), rng.uniform(0, 1, (3, 1))
    w, h = net.flat(), 1e-6
    J = np.array([((deeponet_forward(net.with_flat(w + h * e), U, ys)
                    - deeponet_forward(net.with_flat(w - h * e), U, ys)) / (2 * h)).ravel()
                  for e in np.eye(w.size)]).T
    K = tangent_kernel(net, U, ys)
    np.testing.assert_allclose(K, J @ J.T, rtol=1e-7, atol=1e-9 * np.abs(K).max())


def test_forward_shapes_and_scalings(rng):
    net = init_deeponet(9, 4, 5, rng)
    U, ys = rng.standard_normal((3, 4)), rng.uniform(0, 1, (7, 1))
    assert branch(net, U).shape == (3, 5) and trunk(net, ys).shape == (7, 5)
    np.testing.assert_allclose(deeponet_forward(net, U, ys), branch(net, U) @ trunk(net, ys).T / math.sqrt(5))
    assert hidden_scale(16, "ntk") == 0.25 and hidden_scale(16, "standard") == 1.0


def test_cross_block_limit_at_large_width():
    # ||C|| -> sqrt(kappa_f kappa_g / K) (Gauss-Hermite); at m = 2^15 the finite-width excess is
    # below the Marchenko-Pastur edge factor (1 + sqrt(K/m))^2 - 1 < 0.025 for K = 4.
    rng = np.random.default_rng(2)
    u, y = rng.standard_normal(16), np.array([0.7])
    vals = [hessian_block_norms(init_deeponet(2**15, 16, 4, np.random.default_rng(i)), u, y)["cross"]
            for i in range(4)]
    limit = cross_block_limit(u, y, 4)
    assert np.mean(vals) == pytest.approx(limit, rel=0.03)
    # and it does not depend on the width: the limit is far above the O(m^{-1/2}) within blocks
    blocks = hessian_block_norms(init_deeponet(2**15, 16, 4, np.random.default_rng(9)), u, y)
    assert max(blocks["branch"], blocks["trunk"]) < 0.1 * limit


def test_bad_input_raises(rng):
    with pytest.raises(ValueError):
        init_deeponet(4, 3, 2, rng, parametrization="mean_field")
    with pytest.raises(ValueError):
        init_deeponet(0, 3, 2, rng)
    net = init_deeponet(4, 3, 2, rng)
    with pytest.raises(ValueError):
        deeponet_forward(net, np.zeros((1, 5)), np.zeros((1, 1)))
    with pytest.raises(ValueError):
        output_gradient(net, np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError):
        net.with_flat(np.zeros(3))
    with pytest.raises(ValueError):
        cross_block_limit(np.zeros(3), [0.5], 0)
