"""Unit tests of simulations.nets.bregman against values obtained another way.

References: closed forms logit(x) = log(x/(1-x)) and artanh; Parseval (the spectral norm of a
Fourier multiplier); numpy.fft against an explicit circulant matrix; scipy's minimize_scalar on
the raw objective psi(x) - z x.

simulations.nets.bregman_fno: the viscous Burgers equation itself (a centred time difference of the
Cole-Hopf solution against -u u_x + nu u_xx by spectral derivatives); numpy.fft for the truncated
spectral convolution; the explicit formula sigma(sigma^{-1}(x) + Kx + Wx + b) for the Bregman block;
central finite differences of the loss for the hand-written backpropagation; closed forms of
softplus and its inverse.
"""

import numpy as np
import pytest
from scipy.linalg import circulant
from scipy.optimize import minimize_scalar

from simulations.nets.bregman import (
    activation,
    argmin_error_bound,
    bregman_divergence,
    bregman_layer,
    bregman_prox_numeric,
    bregman_stack_drift_bound,
    classical_layer,
    euclidean_prox_numeric,
    fourier_operator,
    logit,
    potential,
    potential_curvature,
    random_fourier_multiplier,
    sigmoid,
)
from simulations.nets.bregman_fno import (
    ARCHITECTURES,
    _spectral,
    burgers_cole_hopf,
    burgers_dataset,
    fno_forward,
    init_fno1d,
    loss_and_gradient,
    relative_l2,
    softplus,
    softplus_derivative,
    softplus_inverse,
    train_adam,
    train_and_test,
)


@pytest.fixture
def rng():
    return np.random.default_rng(3)


def test_closed_forms():
    x = np.array([0.1, 0.5, 0.9])
    np.testing.assert_allclose(logit(x), np.log(x / (1 - x)), rtol=1e-14)
    np.testing.assert_allclose(sigmoid(np.array([0.0, 2.0])), [0.5, 1 / (1 + np.exp(-2.0))], rtol=1e-15)
    assert potential("sigmoid", 0.0) == 0.0 and potential("tanh", 1.0) == pytest.approx(np.log(2))
    assert potential_curvature("tanh", 0.5) == pytest.approx(1 / 0.75)
    assert bregman_divergence("sigmoid", 0.3, 0.3) == pytest.approx(0.0, abs=1e-16)
    assert bregman_divergence("tanh", 0.2, -0.4) > 0


@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
def test_activation_is_argmin_of_potential(name):
    sig, _ = activation(name)
    lo, hi = (0.0, 1.0) if name == "sigmoid" else (-1.0, 1.0)
    for z in (-3.0, -0.4, 0.0, 1.7):
        res = minimize_scalar(lambda x, z=z: float(potential(name, x) - z * x), bounds=(lo, hi),
                              method="bounded", options={"xatol": 1e-12})
        assert res.x == pytest.approx(float(sig(z)), abs=1e-7)


def test_fourier_operator_is_circulant_with_stated_norm(rng):
    n = 16
    R = random_fourier_multiplier(n, 5, 0.7, rng)
    C = np.column_stack([fourier_operator(e, R) for e in np.eye(n)])
    assert np.allclose(C, circulant(C[:, 0]))
    assert np.linalg.norm(C, 2) == pytest.approx(0.7, rel=1e-12)
    x = rng.standard_normal(n)
    np.testing.assert_allclose(fourier_operator(x, R), C @ x, atol=1e-13)


def test_layers(rng):
    n = 12
    x = np.tanh(rng.standard_normal(n))
    R = random_fourier_multiplier(n, 3, 0.5, rng)
    b = 0.1 * rng.standard_normal(n)
    np.testing.assert_allclose(bregman_layer("tanh", x, R, b), np.tanh(np.arctanh(x) + fourier_operator(x, R) + b))
    np.testing.assert_allclose(classical_layer("tanh", x, R, b), np.tanh(fourier_operator(x, R) + b))
    np.testing.assert_allclose(bregman_layer("tanh", x, 0 * R), x, atol=1e-15)


def test_numeric_proximal_steps(rng):
    x = sigmoid(rng.standard_normal(5))
    v = rng.standard_normal(5)
    u = bregman_prox_numeric("sigmoid", v, x)
    np.testing.assert_allclose(u, sigmoid(logit(x) + v), atol=1e-6)
    e = euclidean_prox_numeric(v, x, 0.0, 1.0)
    np.testing.assert_allclose(e, np.clip(x + v, 0, 1), atol=1e-6)
    bound = argmin_error_bound("sigmoid", u, np.ones(5), 1e-12)
    assert np.all(bound > 0) and np.all(bound < 1e-6)


def test_drift_bound_and_errors(rng):
    assert bregman_stack_drift_bound(4, 0.01, 16, 1.0) == pytest.approx(0.16)
    with pytest.raises(ValueError):
        activation("gelu")
    with pytest.raises(ValueError):
        random_fourier_multiplier(8, 9, 1.0, rng)


def _spectral_derivative(U, order):
    n = U.shape[-1]
    k = 2j * np.pi * np.fft.rfftfreq(n, d=1.0 / n)
    return np.fft.irfft(k**order * np.fft.rfft(U, axis=-1), n=n, axis=-1)


def test_cole_hopf_solves_burgers(rng):
    nu, t, dt = 0.05, 0.2, 1e-4
    x = np.arange(256) / 256
    U0 = np.sin(2 * np.pi * x)[None, :] + 0.5 * np.cos(4 * np.pi * x + 1.0)[None, :]
    up, um, u = (burgers_cole_hopf(U0, nu, s) for s in (t + dt, t - dt, t))
    du_dt = (up - um) / (2 * dt)
    rhs = -u * _spectral_derivative(u, 1) + nu * _spectral_derivative(u, 2)
    # centred difference error ~ dt^2 |u_ttt| / 6 (|u_ttt| of order 10^3 here)
    assert np.max(np.abs(du_dt - rhs)) < 1e-4 * np.max(np.abs(rhs))
    np.testing.assert_allclose(burgers_cole_hopf(U0, nu, 0.0), U0, atol=1e-10)


def test_cole_hopf_rejects_bad_input():
    with pytest.raises(ValueError):
        burgers_cole_hopf(np.ones((1, 8)), 0.1, 1.0)  # non-zero mean
    with pytest.raises(ValueError):
        burgers_cole_hopf(np.zeros((1, 8)), 0.0, 1.0)


def test_dataset_shapes_and_mean(rng):
    A, Y = burgers_dataset(rng, 5, 32, viscosity=0.02, time=0.3, fine=256)
    assert A.shape == Y.shape == (5, 32)
    np.testing.assert_allclose(A.mean(axis=1), 0, atol=1e-12)
    with pytest.raises(ValueError):
        burgers_dataset(rng, 2, 30, viscosity=0.02, time=0.3, fine=256)


def test_softplus_closed_forms():
    z = np.array([-30.0, -1.0, 0.0, 2.0, 40.0])
    np.testing.assert_allclose(softplus(z), np.log1p(np.exp(z)), rtol=1e-14)
    np.testing.assert_allclose(softplus(z, 3.0), np.log1p(np.exp(3 * z)) / 3, rtol=1e-14)
    np.testing.assert_allclose(softplus_derivative(z, 2.0), 1 / (1 + np.exp(-2 * z)), rtol=1e-14)
    x = np.array([1e-3, 0.5, 3.0])
    np.testing.assert_allclose(softplus(softplus_inverse(x, 5.0), 5.0), x, rtol=1e-12)
    with pytest.raises(ValueError):
        softplus_inverse(np.array([0.0]))


def test_spectral_convolution_against_numpy_fft(rng):
    B, n, w, k = 3, 16, 4, 5
    x = rng.standard_normal((B, n, w))
    R = rng.standard_normal((k, w, w)) + 1j * rng.standard_normal((k, w, w))
    X = np.fft.rfft(x, axis=1)[:, :k, :]  # (B, k, w_in)
    Y = np.zeros((B, n // 2 + 1, w), dtype=complex)
    Y[:, :k, :] = np.einsum("bmi,mio->bmo", X, R)
    np.testing.assert_allclose(_spectral(x, R)[0], np.fft.irfft(Y, n=n, axis=1), atol=1e-12)


def test_bregman_block_is_sigma_of_inverse_plus_affine(rng):
    n, w, k = 16, 3, 4
    net = init_fno1d(w, k, 2, rng, "bregman", zero_blocks=False, beta=2.0)
    A = rng.standard_normal((2, n))
    p = net.params
    z0 = A[:, :, None] * p[0] + p[1]
    x = softplus(z0, 2.0)
    for layer in range(2):
        R, W, b = net.block(layer)
        s = softplus_inverse(x, 2.0) + _spectral(x, R)[0] + x @ W.T + b
        x = softplus(s, 2.0) if layer == 0 else s
    np.testing.assert_allclose(fno_forward(net, A), x @ p[-2] + p[-1][0], rtol=1e-9, atol=1e-9)


def test_zero_initialised_bregman_network_is_linear_in_the_input(rng):
    net = init_fno1d(5, 3, 6, rng, "bregman")
    A = rng.standard_normal((4, 8))
    p = net.params
    expected = A * (p[0] @ p[-2]) + p[1] @ p[-2] + p[-1][0]
    np.testing.assert_allclose(fno_forward(net, A), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("architecture", ARCHITECTURES)
def test_gradient_by_finite_differences(rng, architecture):
    A, Y = burgers_dataset(rng, 4, 16, viscosity=0.05, time=0.2, fine=64)
    net = init_fno1d(4, 3, 3, rng, architecture, zero_blocks=False, beta=3.0)
    _, grads = loss_and_gradient(net, A, Y)
    h = 1e-6
    for i, q in enumerate(net.params):
        v = q.view(np.float64) if np.iscomplexobj(q) else q
        gv = grads[i].view(np.float64) if np.iscomplexobj(grads[i]) else grads[i]
        for j in range(0, v.size, max(1, v.size // 5)):
            old = v.flat[j]
            v.flat[j] = old + h
            lp, _ = loss_and_gradient(net, A, Y)
            v.flat[j] = old - h
            lm, _ = loss_and_gradient(net, A, Y)
            v.flat[j] = old
            assert gv.flat[j] == pytest.approx((lp - lm) / (2 * h), rel=1e-5, abs=1e-8)


def test_training_lowers_the_loss_and_bad_input_raises(rng):
    A, Y = burgers_dataset(rng, 16, 16, viscosity=0.05, time=0.2, fine=64)
    net = init_fno1d(4, 4, 2, rng, "standard")
    before = float(np.mean(relative_l2(fno_forward(net, A), Y)))
    trained, losses = train_adam(net, A, Y, rng, steps=60, batch=8, lr=1e-2)
    assert losses.shape == (60,)
    assert np.mean(relative_l2(fno_forward(trained, A), Y)) < before
    err = train_and_test(rng, (A, Y, A, Y), "bregman", 2, width=4, modes=4, steps=5, batch=8, lr=1e-2)
    assert np.isfinite(err)
    with pytest.raises(ValueError):
        init_fno1d(4, 4, 2, rng, "residual")
    with pytest.raises(ValueError):
        train_adam(net, A, Y, rng, steps=1, batch=0, lr=1e-2)
