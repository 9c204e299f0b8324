"""Unit tests of simulations.optim (Shampoo, Adafactor, Adam, SOAP) against independent values."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import fractional_matrix_power, sqrtm
from scipy.stats import ortho_group

from simulations.optim import (
    adafactor_factors,
    adafactor_in_basis_update,
    adafactor_second_moment,
    adam_in_basis_update,
    adam_init,
    adam_rounding_bound,
    adam_step,
    eigenbasis,
    least_squares_scale,
    matrix_power_psd,
    random_orthogonal,
    refresh_eigenbasis_power_qr,
    regression_batches,
    regression_gradient,
    rotate,
    rotate_batches,
    sample_gradients,
    shampoo_statistics,
    shampoo_update,
    soap_init,
    soap_step,
    train_adam,
    train_soap,
    unrotate,
)


def _spd(rng, k, cond=50.0):
    q = ortho_group.rvs(k, random_state=rng)
    return (q * np.geomspace(1.0, 1.0 / cond, k)) @ q.T


# ----------------------------------------------------------------------------- linear algebra
@pytest.mark.parametrize("power", [-0.5, -0.25, 0.5, 1.0, -1.0])
def test_matrix_power_matches_scipy_fractional_power(power):
    rng = np.random.default_rng(0)
    a = _spd(rng, 5)
    expected = np.real(fractional_matrix_power(a, power))
    np.testing.assert_allclose(matrix_power_psd(a, power), expected, rtol=1e-9, atol=1e-11)


def test_inverse_square_root_inverts_scipy_sqrtm():
    rng = np.random.default_rng(1)
    a = _spd(rng, 4)
    np.testing.assert_allclose(matrix_power_psd(a, -0.5) @ np.real(sqrtm(a)), np.eye(4), atol=1e-10)


def test_matrix_power_of_diagonal_is_elementwise():
    a = np.diag([4.0, 9.0, 16.0])
    np.testing.assert_allclose(matrix_power_psd(a, -0.5), np.diag([1 / 2, 1 / 3, 1 / 4]), atol=1e-15)
    np.testing.assert_allclose(matrix_power_psd(np.zeros((2, 2)), -0.5, eps=4.0), np.eye(2) / 2)


def test_matrix_power_rejects_bad_input():
    with pytest.raises(ValueError, match="symmetric"):
        matrix_power_psd(np.array([[1.0, 2.0], [0.0, 1.0]]), -0.5)
    with pytest.raises(ValueError, match="positive semi-definite"):
        matrix_power_psd(np.diag([1.0, -1.0]), 0.5)
    with pytest.raises(ValueError, match="singular"):
        matrix_power_psd(np.diag([1.0, 0.0]), -0.5)
    with pytest.raises(ValueError, match="eps"):
        matrix_power_psd(np.eye(2), -0.5, eps=-1.0)


def test_eigenbasis_is_decreasing_and_reconstructs():
    a = np.array([[2.0, 1.0], [1.0, 2.0]])  # eigenvalues 3 and 1
    lam, q = eigenbasis(a)
    np.testing.assert_allclose(lam, [3.0, 1.0])
    np.testing.assert_allclose(np.abs(q[:, 0]), [2**-0.5, 2**-0.5])
    np.testing.assert_allclose((q * lam) @ q.T, a, atol=1e-15)


def test_random_orthogonal_is_orthogonal_and_rotations_invert():
    rng = np.random.default_rng(2)
    q = random_orthogonal(rng, 5)
    np.testing.assert_allclose(q.T @ q, np.eye(5), atol=1e-14)
    ql, qr, g = random_orthogonal(rng, 3), random_orthogonal(rng, 2), rng.standard_normal((3, 2))
    np.testing.assert_allclose(unrotate(rotate(g, ql, qr), ql, qr), g, atol=1e-14)
    np.testing.assert_allclose(rotate(g, ql, qr), ql.T @ g @ qr)
    with pytest.raises(ValueError):
        random_orthogonal(rng, 0)


def test_least_squares_scale():
    b = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert least_squares_scale(2.5 * b, b) == pytest.approx(2.5)
    with pytest.raises(ValueError):
        least_squares_scale(b, np.zeros_like(b))


# ----------------------------------------------------------------------------- Shampoo
def test_shampoo_statistics_against_loops():
    rng = np.random.default_rng(3)
    gs = rng.standard_normal((7, 3, 2))
    left, right = shampoo_statistics(gs)
    np.testing.assert_allclose(left, sum(g @ g.T for g in gs))
    np.testing.assert_allclose(right, sum(g.T @ g for g in gs))
    assert np.trace(left) == pytest.approx(np.sum(gs**2))  # tr L = tr R = sum ||G||_F^2
    assert np.trace(right) == pytest.approx(np.sum(gs**2))
    la, ra = shampoo_statistics(gs, average=True)
    np.testing.assert_allclose(la, left / 7)
    le, _ = shampoo_statistics(gs[:2], beta=0.5)  # 0.5 * (0.5 G1 G1^T) + 0.5 G2 G2^T
    np.testing.assert_allclose(le, 0.25 * gs[0] @ gs[0].T + 0.5 * gs[1] @ gs[1].T)
    with pytest.raises(ValueError):
        shampoo_statistics(gs, beta=1.0)
    with pytest.raises(ValueError):
        shampoo_statistics(np.ones(3))


def test_shampoo_update_against_scipy():
    rng = np.random.default_rng(4)
    left, right, g = _spd(rng, 4), _spd(rng, 3), rng.standard_normal((4, 3))
    for p in (0.5, 0.25):
        plain = (np.real(fractional_matrix_power(left, -p)) @ g
                 @ np.real(fractional_matrix_power(right, -p)))
        np.testing.assert_allclose(shampoo_update(g, left, right, power=p, trace_normalise=False),
                                   plain, rtol=1e-9, atol=1e-11)
        np.testing.assert_allclose(shampoo_update(g, left, right, power=p),
                                   np.trace(left) ** p * plain, rtol=1e-9, atol=1e-11)
    with pytest.raises(ValueError):
        shampoo_update(g, right, left)
    with pytest.raises(ValueError):
        shampoo_update(g, left, right, power=0.0)


def test_kronecker_form_of_idealised_shampoo():
    # vec(L^{-1/2} G R^{-1/2}) = (L kron R)^{-1/2} vec(G) for row-major vec (numpy ravel).
    rng = np.random.default_rng(5)
    left, right, g = _spd(rng, 3), _spd(rng, 2), rng.standard_normal((3, 2))
    big = np.real(fractional_matrix_power(np.kron(left, right) / np.trace(left), -0.5))
    np.testing.assert_allclose(shampoo_update(g, left, right, power=0.5).ravel(), big @ g.ravel(),
                               rtol=1e-9, atol=1e-11)


# ----------------------------------------------------------------------------- Adafactor
def test_adafactor_factors_are_row_and_column_sums():
    s = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    r, c = adafactor_factors(s)
    np.testing.assert_array_equal(r, [6.0, 15.0])
    np.testing.assert_array_equal(c, [5.0, 7.0, 9.0])
    v = adafactor_second_moment(s)
    np.testing.assert_allclose(v, np.outer([6.0, 15.0], [5.0, 7.0, 9.0]) / 21.0)
    np.testing.assert_allclose(v.sum(axis=1), r)  # the estimate keeps row and column sums
    np.testing.assert_allclose(v.sum(axis=0), c)
    rank_one = np.outer([1.0, 2.0], [3.0, 4.0, 5.0])  # exact for rank-one second moments
    np.testing.assert_allclose(adafactor_second_moment(rank_one), rank_one)
    with pytest.raises(ValueError):
        adafactor_factors(-s)
    with pytest.raises(ValueError):
        adafactor_second_moment(np.zeros((2, 2)))


def test_adafactor_in_identity_basis_by_hand():
    gs = np.array([[[1.0, 2.0], [0.0, 1.0]], [[1.0, 0.0], [2.0, 1.0]]])
    # E[G^2] = [[1, 2], [2, 1]]; row sums 3, 3; col sums 3, 3; V = 9/6 = 1.5 everywhere.
    g = np.array([[3.0, -1.5], [0.0, 1.5]])
    out = adafactor_in_basis_update(g, gs, np.eye(2), np.eye(2))
    np.testing.assert_allclose(out, g / np.sqrt(1.5))
    full = adam_in_basis_update(g, gs, np.eye(2), np.eye(2))
    np.testing.assert_allclose(full, g / np.sqrt(np.array([[1.0, 2.0], [2.0, 1.0]])))
    with pytest.raises(ValueError, match="orthogonal"):
        adafactor_in_basis_update(g, gs, 2 * np.eye(2), np.eye(2))


def test_sample_gradients_shape_and_covariance():
    rng = np.random.default_rng(6)
    gs = sample_gradients(rng, 4000, 3, 2, condition=10.0)
    assert gs.shape == (4000, 3, 2)
    left, _ = shampoo_statistics(gs, average=True)
    lam = np.linalg.eigvalsh(left)
    assert lam.max() / lam.min() == pytest.approx(10.0, rel=0.15)  # E[GG^T] has condition 10
    with pytest.raises(ValueError):
        sample_gradients(rng, 1, 2, 2, condition=0.5)


# ----------------------------------------------------------------------------- Adam
def test_first_adam_step_is_sign_descent():
    g = np.array([[0.3, -2.0], [1e-3, -7.0]])
    w = np.ones((2, 2))
    w1, state = adam_step(w, g, adam_init(g.shape), lr=0.1, betas=(0.9, 0.999), eps=0.0)
    np.testing.assert_allclose(w1, w - 0.1 * np.sign(g), atol=1e-15)
    assert state.step == 1
    np.testing.assert_allclose(state.exp_avg, 0.1 * g)
    np.testing.assert_allclose(state.exp_avg_sq, 0.001 * g * g)


def test_two_adam_steps_by_hand_with_weight_decay():
    g1, g2 = np.array([[1.0]]), np.array([[3.0]])
    b1, b2, lr, wd = 0.5, 0.75, 0.1, 0.2
    w, s = adam_step(np.array([[2.0]]), g1, adam_init((1, 1)), lr=lr, betas=(b1, b2), eps=0.0,
                     weight_decay=wd)
    assert w[0, 0] == pytest.approx(2.0 * (1 - lr * wd) - lr)
    w2, _ = adam_step(w, g2, s, lr=lr, betas=(b1, b2), eps=0.0, weight_decay=wd)
    m = (b1 * (1 - b1) * 1.0 + (1 - b1) * 3.0) / (1 - b1**2)  # = 7/3
    v = (b2 * (1 - b2) * 1.0 + (1 - b2) * 9.0) / (1 - b2**2)  # = 39/7
    assert w2[0, 0] == pytest.approx(w[0, 0] * (1 - lr * wd) - lr * m / np.sqrt(v))
    with pytest.raises(ValueError):
        adam_step(w, g2, s, lr=-1.0)
    with pytest.raises(ValueError):
        adam_step(w, g2, s, lr=0.1, betas=(1.0, 0.5))


def test_adam_rounding_bound_by_hand():
    g = np.array([[[3.0, 4.0]]])  # ||G||_F = 5, Vhat = G^2 at t = 1, min sqrt = 3
    u = np.finfo(float).eps / 2
    bound = adam_rounding_bound(g, lr=0.1, betas=(0.9, 0.99), eps=0.0)
    assert bound == pytest.approx(2 * 0.1 * 3 * u * 5 / 3)


# ----------------------------------------------------------------------------- SOAP
def test_soap_first_step_is_rotated_sign_descent():
    rng = np.random.default_rng(7)
    g0, g1, w = rng.standard_normal((3, 4, 3))
    state = soap_init(g0)
    ql = np.linalg.eigh(g0 @ g0.T)[1][:, ::-1]
    np.testing.assert_allclose(np.abs(state.q_left.T @ ql), np.eye(4), atol=1e-8)  # same basis
    w1, s1 = soap_step(w, g1, state, lr=0.01, eps=0.0, precondition_frequency=None)
    expected = w - 0.01 * state.q_left @ np.sign(state.q_left.T @ g1 @ state.q_right) @ state.q_right.T
    np.testing.assert_allclose(w1, expected, atol=1e-14)
    np.testing.assert_allclose(s1.left, 0.95 * g0 @ g0.T + 0.05 * g1 @ g1.T)
    np.testing.assert_array_equal(s1.q_left, state.q_left)  # frozen


def test_soap_refresh_by_eigh_gives_eigenbasis():
    rng = np.random.default_rng(8)
    g0, g1, w = rng.standard_normal((3, 3, 2))
    _, s1 = soap_step(w, g1, soap_init(g0), lr=0.01, precondition_frequency=1, refresh="eigh")
    d = s1.q_left.T @ s1.left @ s1.q_left
    np.testing.assert_allclose(d - np.diag(np.diag(d)), 0.0, atol=1e-12)
    assert np.all(np.diff(np.diag(d)) <= 1e-12)


def test_power_qr_refresh_converges_and_permutes():
    rng = np.random.default_rng(9)
    stat = _spd(rng, 4, cond=1e3)
    q, v = np.eye(4), np.arange(8.0).reshape(4, 2)
    for _ in range(200):  # subspace iteration converges to the decreasing eigenbasis
        q, _ = refresh_eigenbasis_power_qr(stat, q, v, axis=0)
    lam = np.linalg.eigvalsh(stat)[::-1]
    np.testing.assert_allclose(np.diag(q.T @ stat @ q), lam, rtol=1e-8)
    # The permutation follows the Rayleigh quotients of the current basis.
    p = np.eye(3)[:, [2, 0, 1]]
    diag = np.diag([1.0, 2.0, 3.0])
    _, v2 = refresh_eigenbasis_power_qr(diag, p, np.array([[10.0, 20.0, 30.0]]), axis=1)
    np.testing.assert_array_equal(v2, [[10.0, 30.0, 20.0]])  # quotients 3, 1, 2 -> order 0, 2, 1


def test_frozen_soap_equals_adam_on_rotated_regression_small():
    rng = np.random.default_rng(10)
    xs, ys, _ = regression_batches(rng, 6, 3, 2, 4)
    w0 = rng.standard_normal((3, 2))
    path, state = train_soap(w0, xs, ys, lr=0.05, precondition_frequency=None, eps=1e-8)
    xr, yr = rotate_batches(xs[1:], ys[1:], state.q_left, state.q_right)
    ref = unrotate(train_adam(rotate(w0, state.q_left, state.q_right), xr, yr, lr=0.05, betas=(0.95, 0.95),
                              eps=1e-8), state.q_left, state.q_right)
    np.testing.assert_allclose(path, ref, atol=1e-12)


def test_regression_gradient_against_finite_differences():
    rng = np.random.default_rng(11)
    w, x, y = rng.standard_normal((2, 3)), rng.standard_normal((3, 5)), rng.standard_normal((2, 5))

    def loss(v):
        return np.sum((v @ x - y) ** 2) / (2 * 5)

    fd = np.zeros_like(w)
    h = 1e-6
    for idx in np.ndindex(w.shape):
        e = np.zeros_like(w)
        e[idx] = h
        fd[idx] = (loss(w + e) - loss(w - e)) / (2 * h)
    np.testing.assert_allclose(regression_gradient(w, x, y), fd, rtol=1e-7, atol=1e-9)
    with pytest.raises(ValueError):
        regression_gradient(w, y, x)


def test_soap_rejects_bad_options():
    g = np.ones((2, 2))
    state = soap_init(g)
    with pytest.raises(ValueError):
        soap_step(g, g, state, lr=0.1, refresh="svd")
    with pytest.raises(ValueError):
        soap_step(g, g, state, lr=0.1, second_moment_basis="both")
    with pytest.raises(ValueError):
        soap_step(g, g, state, lr=0.1, precondition_frequency=0)
    with pytest.raises(ValueError):
        train_soap(g, np.zeros((0, 2, 1)), np.zeros((0, 2, 1)), lr=0.1)


def test_soap_with_published_conventions_is_the_published_rule_with_refresh_on():
    # soap_step with the published conventions (statistics started at zero, eps outside the bias
    # correction, decay after the step) against the independent reading of soap.py, with the
    # eigenbasis refreshed every third step; a square full-rank gradient makes every basis unique
    from simulations.optim.matrix_regression import train_published_soap

    rng = np.random.default_rng(11)
    xs, ys, _ = regression_batches(rng, 31, 5, 5, 8, condition=100.0)
    w0 = rng.standard_normal((5, 5))
    kw = dict(lr=0.02, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.01, precondition_frequency=3)
    published, _ = train_published_soap(w0, xs, ys, shampoo_beta=0.95, **kw)
    ours, _ = train_soap(w0, xs, ys, statistic_weight=0.05, shampoo_beta=0.95, eps_mode="folded",
                         decay="after", **kw)
    assert np.abs(published - ours).max() <= 1e-12 * np.abs(published).max()
    # the paper-convention SOAP (statistics started at G G^T) differs once the basis is refreshed
    paper, _ = train_soap(w0, xs, ys, shampoo_beta=0.95, **kw)
    assert np.abs(published - paper).max() > 1e-3


def test_adam_folded_eps_and_decay_after_by_hand():
    w, g = np.array([[1.0]]), np.array([[2.0]])
    b1, b2, lr, eps, wd = 0.9, 0.99, 0.1, 0.5, 0.2
    w1, _ = adam_step(w, g, adam_init((1, 1)), lr=lr, betas=(b1, b2), eps=eps, weight_decay=wd,
                      eps_mode="folded", decay="after")
    m, v = (1 - b1) * 2.0, (1 - b2) * 4.0
    step = lr * np.sqrt(1 - b2) / (1 - b1) * m / (np.sqrt(v) + eps)
    assert w1[0, 0] == pytest.approx((1.0 - step) * (1 - lr * wd))
    with pytest.raises(ValueError):
        adam_step(w, g, adam_init((1, 1)), lr=lr, eps_mode="other")
