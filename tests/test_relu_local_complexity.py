"""Unit tests of simulations.nets.relu against values obtained another way.

References: c_2 = 2/pi and c_3 = 1/2 (Crofton constants); brute-force sign changes of all
preactivations on a fine grid; central finite differences; the fundamental theorem of calculus
along a segment; the closed-form derivative of a one-neuron softplus network; the first Adam step
(-step_size * g / |g| entrywise); phi(b / ||Q^T w||) by hand for a network seen on a subspace.
"""

import math

import numpy as np
import pytest

from simulations.nets.relu import (
    ReLUNet,
    coarea_local_complexity,
    crofton_constant,
    directional_slopes,
    first_layer_gaussian_lc,
    forward,
    gradient_jump_bound,
    init_relu_net,
    mean_and_standard_error,
    output_gradient,
    preactivation_gradients,
    random_segments,
    regression_task,
    restrict_to_subspace,
    smooth_total_variation,
    squared_loss_gradients,
    train_adam,
    walk_segment,
)


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def test_crofton_constants():
    assert crofton_constant(2) == pytest.approx(2 / math.pi, rel=1e-14)
    assert crofton_constant(3) == pytest.approx(0.5, rel=1e-14)
    # Monte Carlo E|u_1| for u uniform on S^7
    u = np.random.default_rng(0).standard_normal((200000, 8))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    assert crofton_constant(8) == pytest.approx(np.abs(u[:, 0]).mean(), rel=0.01)


def test_walk_matches_grid_sign_changes(rng):
    net = init_relu_net((3, 6, 5, 1), rng)
    for _ in range(5):
        x0, u = rng.standard_normal(3), rng.standard_normal(3)
        u /= np.linalg.norm(u)
        walk = walk_segment(net, x0, u, 3.0)
        t = np.linspace(0, 3.0, 200001)
        _, pre = forward(net, x0 + t[:, None] * u)
        changes = sum(int(np.sum(np.diff(np.sign(z), axis=0) != 0)) for z in pre)
        assert walk.count == changes
        assert np.all(np.diff(walk.times) > 0)


def test_gradients_by_finite_differences(rng):
    net = init_relu_net((4, 7, 6, 1), rng)
    X = rng.standard_normal((5, 4))
    h = 1e-6
    pre, grads = preactivation_gradients(net, X)
    G = output_gradient(net, X)
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        fp, pp = forward(net, X + e)
        fm, pm = forward(net, X - e)
        np.testing.assert_allclose(G[:, j], (fp - fm)[:, 0] / (2 * h), rtol=1e-5, atol=1e-7)
        for layer in range(2):
            np.testing.assert_allclose(grads[layer][:, :, j], (pp[layer] - pm[layer]) / (2 * h),
                                       rtol=1e-5, atol=1e-7)


def test_slopes_integrate_to_the_increment(rng):
    net = init_relu_net((5, 8, 8, 1), rng)
    x0, u = rng.standard_normal(5), rng.standard_normal(5)
    u /= np.linalg.norm(u)
    walk = walk_segment(net, x0, u, 2.0)
    slopes = directional_slopes(net, x0, u, walk.times, 2.0)
    edges = np.concatenate([[0], walk.times, [2.0]])
    f0, _ = forward(net, x0)
    f1, _ = forward(net, x0 + 2.0 * u)
    assert np.sum(slopes * np.diff(edges)) == pytest.approx(float(f1[0, 0] - f0[0, 0]), rel=1e-9, abs=1e-12)
    jumps = np.abs(np.diff(slopes))
    assert np.all(jumps <= gradient_jump_bound(net) + 1e-12)


def test_coarea_estimate_matches_exact_first_layer(rng):
    net = init_relu_net((5, 10, 1), rng)
    X = rng.standard_normal((200000, 5))
    m, se = mean_and_standard_error(coarea_local_complexity(net, X, 0.05))
    assert abs(m - first_layer_gaussian_lc(net)) < 4 * se + 0.01


def test_first_layer_lc_by_hand():
    net = ReLUNet([np.array([[3.0, 4.0], [1.0, 0.0]]), np.ones((1, 2))],
                  [np.array([5.0, 0.0]), np.zeros(1)])
    phi = lambda s: math.exp(-s * s / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    assert first_layer_gaussian_lc(net) == pytest.approx(phi(1.0) + phi(0.0), rel=1e-14)


def test_smooth_total_variation_one_neuron():
    beta = 10.0
    net = ReLUNet([np.array([[2.0]]), np.array([[1.5]])], [np.array([-1.0]), np.zeros(1)],
                  activation="softplus", sharpness=beta)
    sig = lambda z: 1 / (1 + math.exp(-beta * z))  # noqa: E731
    # f(t) = 1.5 softplus(2t - 1): f' = 3 sigmoid(beta(2t - 1)) is monotone on [0, 1]
    ref = 3 * (sig(1.0) - sig(-1.0))
    assert smooth_total_variation(net, np.zeros(1), np.ones(1), 1.0) == pytest.approx(ref, rel=1e-4)


def test_segments_and_errors(rng):
    S, U = random_segments(rng, 10, 4, 0.5)
    assert S.shape == U.shape == (10, 4)
    np.testing.assert_allclose(np.linalg.norm(U, axis=1), 1.0)
    net = init_relu_net((4, 3, 1), rng)
    with pytest.raises(ValueError):
        walk_segment(net, S[0], U[0], 0.0)
    with pytest.raises(ValueError):
        walk_segment(ReLUNet(net.weights, net.biases, activation="softplus"), S[0], U[0], 1.0)
    with pytest.raises(ValueError):
        forward(net, np.zeros((2, 3)))
    with pytest.raises(ValueError):
        init_relu_net((4, 1), rng)
    with pytest.raises(ValueError):
        coarea_local_complexity(net, S, 0.0)


def test_loss_gradients_by_finite_differences(rng):
    net = init_relu_net((3, 5, 4, 1), rng)
    X, y = rng.standard_normal((7, 3)), rng.standard_normal(7)
    loss, gW, gb = squared_loss_gradients(net, X, y)
    f, _ = forward(net, X)
    assert loss == pytest.approx(0.5 * np.mean((f[:, 0] - y) ** 2), rel=1e-14)
    h = 1e-6
    for params, grads in ((net.weights, gW), (net.biases, gb)):
        for P, G in zip(params, grads, strict=True):
            for idx in [tuple(rng.integers(s) for s in P.shape) for _ in range(4)]:
                old = P[idx]
                P[idx] = old + h
                lp = squared_loss_gradients(net, X, y)[0]
                P[idx] = old - h
                lm = squared_loss_gradients(net, X, y)[0]
                P[idx] = old
                assert G[idx] == pytest.approx((lp - lm) / (2 * h), rel=1e-5, abs=1e-8)


def test_first_adam_step_is_a_sign_step(rng):
    net = init_relu_net((3, 4, 1), rng)
    X, y = rng.standard_normal((6, 3)), rng.standard_normal(6)
    _, gW, gb = squared_loss_gradients(net, X, y)
    lr, wd = 0.01, 0.1
    new, losses = train_adam(net, X, y, 1, lr, wd)
    # after one step the bias-corrected moments are g and g^2: the update is -lr g / (|g| + eps)
    for W, W1, g in zip(net.weights, new.weights, gW, strict=True):
        g = g + wd * W
        np.testing.assert_allclose(W1, W - lr * g / (np.abs(g) + 1e-8), rtol=1e-12, atol=1e-15)
    for b, b1, g in zip(net.biases, new.biases, gb, strict=True):
        np.testing.assert_allclose(b1, b - lr * g / (np.abs(g) + 1e-8), rtol=1e-12, atol=1e-15)
    assert losses.shape == (1,)
    _, longer = train_adam(net, X, y, 300, 0.01)
    assert longer[-1] < 0.1 * longer[0]


def test_restriction_to_a_subspace(rng):
    net = init_relu_net((5, 6, 3, 1), rng)
    Q = np.linalg.qr(rng.standard_normal((5, 2)))[0]
    sub = restrict_to_subspace(net, Q)
    Y = rng.standard_normal((8, 2))
    np.testing.assert_allclose(forward(sub, Y)[0], forward(net, Y @ Q.T)[0], rtol=1e-12)
    phi = lambda s: np.exp(-s * s / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    W, b = net.weights[0], net.biases[0]
    by_hand = sum(phi(b[i] / np.linalg.norm(Q.T @ W[i])) for i in range(6))
    assert first_layer_gaussian_lc(sub) == pytest.approx(by_hand, rel=1e-12)
    assert first_layer_gaussian_lc(sub) < first_layer_gaussian_lc(net)
    with pytest.raises(ValueError):
        restrict_to_subspace(net, 2 * Q)
    with pytest.raises(ValueError):
        restrict_to_subspace(net, np.eye(4)[:, :2])


def test_regression_task_kinds():
    X1, y1 = regression_task(np.random.default_rng(3), 50, 4, "single_index")
    X2, y2 = regression_task(np.random.default_rng(3), 50, 4, "random_labels")
    np.testing.assert_array_equal(X1, X2)
    rng = np.random.default_rng(3)
    X = rng.standard_normal((50, 4))
    u = rng.standard_normal(4)
    np.testing.assert_allclose(y1, np.sin(2 * X @ (u / np.linalg.norm(u))), rtol=1e-14)
    assert abs(np.corrcoef(y2, X @ u)[0, 1]) < 0.5
    X3, y3 = regression_task(np.random.default_rng(3), 50, 4, "shuffled_labels")
    np.testing.assert_array_equal(X1, X3)
    np.testing.assert_array_equal(np.sort(y3), np.sort(y1))     # the same label values
    assert not np.array_equal(y3, y1)
    with pytest.raises(ValueError):
        regression_task(rng, 5, 2, "xor")
