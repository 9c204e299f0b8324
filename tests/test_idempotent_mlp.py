"""Unit tests of simulations.nets.idempotent_mlp against values obtained another way.

References: central finite differences of the canonical loss and of the frozen-target
regression loss; a constant network (exactly idempotent); the recurrence on a linear network
written with numpy matrices.
"""

import numpy as np
import pytest

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


@pytest.fixture
def rng():
    return np.random.default_rng(7)


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
