"""Unit tests of simulations.training.highway against independent values (finite differences,
hand-expanded products, the fixed-point iteration's exactness after L steps)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.training import (
    KINDS,
    backprop,
    cumsumprod_scan,
    fixed_point_iteration,
    forward,
    highway_bp,
    init_model,
    layer_forward,
    parameter_gradients,
    path_sum,
    path_sums_by_blocks,
    relative_error,
    residual_accumulation,
    rounding_allowance,
    total_loss,
)


def _fd_grad(f, x, eps=1e-6):
    return np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in np.eye(x.size)])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("losses", ["last", "all"])
def test_backprop_matches_finite_differences(kind, losses):
    rng = np.random.default_rng(3)
    model = init_model(rng, kind, 7, 5, shared=(kind == "gated"), losses=losses)
    x0 = rng.normal(size=5)
    g = backprop(forward(model, x0))
    fd = _fd_grad(lambda x: total_loss(model, x), x0)
    assert np.allclose(g[0], fd, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("kind", KINDS)
def test_layer_jacobian_split_matches_finite_differences(kind):
    rng = np.random.default_rng(4)
    model = init_model(rng, kind, 3, 4)
    x = rng.normal(size=4)
    _, J, K = layer_forward(model, 2, x)
    fd = np.stack([(layer_forward(model, 2, x + 1e-6 * e)[0] - layer_forward(model, 2, x - 1e-6 * e)[0]) / 2e-6
                   for e in np.eye(4)], axis=1)
    assert np.allclose(J + K, fd, atol=1e-7)
    if kind == "preact":
        assert np.array_equal(K, np.eye(4))


def test_gamma_split_keeps_the_layer_jacobian():
    rng = np.random.default_rng(5)
    plain = init_model(rng, "gated", 3, 4)
    split = type(plain)(plain.kind, plain.weights, plain.inputs, plain.targets, plain.loss_weights, gamma=0.3)
    x = rng.normal(size=4)
    o1, J1, K1 = layer_forward(plain, 1, x)
    o2, J2, K2 = layer_forward(split, 1, x)
    assert np.allclose(o1, o2) and np.allclose(J1 + K1, J2 + K2) and np.allclose(K2, 0.7 * K1)


def test_two_layer_path_sum_is_the_expanded_product():
    rng = np.random.default_rng(6)
    model = init_model(rng, "relu", 2, 3)
    tr = forward(model, rng.normal(size=3))
    J1, J2, K1, K2, e2 = tr.J[0], tr.J[1], tr.K[0], tr.K[1], tr.e[2]
    by_hand = [e2 @ K2 @ K1, e2 @ J2 @ K1 + e2 @ K2 @ J1, e2 @ J2 @ J1]
    assert np.allclose(path_sums_by_blocks(tr, 0), by_hand)
    assert np.allclose(path_sum(tr, 0, max_blocks=1), by_hand[0] + by_hand[1])
    assert np.allclose(path_sum(tr, 0, min_blocks=2), by_hand[2])
    assert np.allclose(path_sum(tr, 0, absolute=True),
                       np.abs(e2) @ (np.abs(J2) + np.abs(K2)) @ (np.abs(J1) + np.abs(K1)))


def test_one_layer_highway_iterates_by_hand():
    rng = np.random.default_rng(7)
    model = init_model(rng, "preact", 1, 3, losses="all")
    tr = forward(model, rng.normal(size=3))
    w = highway_bp(tr, 2)
    e1 = tr.e[1]
    assert np.allclose(w[0, 0], e1 @ tr.K[0]) and np.allclose(w[0, 1], e1)
    assert np.allclose(w[1, 0], e1 @ tr.K[0] + e1 @ tr.J[0]) and np.allclose(w[2], w[1])


def test_scan_matches_the_explicit_double_sum():
    rng = np.random.default_rng(8)
    n, d = 11, 3
    v = rng.normal(size=(n, d))
    K = rng.normal(size=(n - 1, d, d)) / 2
    explicit = np.zeros((n, d))
    for i in range(n):
        for j in range(i, n):
            row = v[j].copy()
            for layer in range(j, i, -1):
                row = row @ K[layer - 1]
            explicit[i] += row
    assert np.allclose(residual_accumulation(v, K), explicit)
    u, rounds = cumsumprod_scan(v, K)
    assert rounds == 4 and np.allclose(u, explicit)
    assert not np.allclose(cumsumprod_scan(v, K, rounds=3)[0], explicit)


def test_fixed_point_iteration_is_exact_after_L_steps_and_highway_after_L():
    rng = np.random.default_rng(9)
    model = init_model(rng, "gated", 12, 4, shared=True, losses="all")
    tr = forward(model, rng.normal(size=4))
    exact = backprop(tr)
    assert relative_error(fixed_point_iteration(tr, 12)[12], exact) < 1e-12
    assert relative_error(highway_bp(tr, 12)[12], exact) < 1e-12
    # after 11 iterations layer 0 misses exactly the path through all 12 blocks (one loss at j = 12)
    missing = tr.e[12] @ np.linalg.multi_dot(tr.J[::-1])
    assert np.linalg.norm(missing) > 0
    assert np.allclose(exact[0] - highway_bp(tr, 11)[11, 0], missing, rtol=1e-4, atol=1e-15)


def test_parameter_gradients_match_finite_differences():
    rng = np.random.default_rng(10)
    model = init_model(rng, "relu", 4, 3)
    x0 = rng.normal(size=3)
    tr = forward(model, x0)
    grads = parameter_gradients(model, tr, backprop(tr))
    W = model.weights[1]["W1"]
    fd = np.zeros_like(W)
    for a in range(W.shape[0]):
        for b in range(W.shape[1]):
            old = W[a, b]
            W[a, b] = old + 1e-6
            up = total_loss(model, x0)
            W[a, b] = old - 1e-6
            down = total_loss(model, x0)
            W[a, b] = old
            fd[a, b] = (up - down) / 2e-6
    assert np.allclose(grads[1]["W1"], fd, atol=1e-7)


def test_rounding_allowance_and_bad_input():
    rng = np.random.default_rng(11)
    model = init_model(rng, "preact", 3, 2)
    tr = forward(model, rng.normal(size=2))
    allow = rounding_allowance(tr, 10)
    assert np.all(allow >= 0) and np.all(allow < 1e-12 * (1 + np.abs(backprop(tr)).max()) * 100)
    with pytest.raises(ValueError):
        init_model(rng, "conv", 3, 2)
    with pytest.raises(ValueError):
        forward(model, np.zeros(3))
    with pytest.raises(ValueError):
        path_sum(tr, 5)
    with pytest.raises(ValueError):
        highway_bp(tr, -1)
