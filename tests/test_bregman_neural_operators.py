"""Unit tests of simulations.nets.bregman against values obtained another way.

References: closed forms logit(x) = log(x/(1-x)) and artanh; Parseval (the spectral norm of a
Fourier multiplier); numpy.fft against an explicit circulant matrix; scipy's minimize_scalar on
the raw objective psi(x) - z x.
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
