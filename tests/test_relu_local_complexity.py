"""Unit tests of simulations.nets.relu against values obtained another way.

References: c_2 = 2/pi and c_3 = 1/2 (Crofton constants); brute-force sign changes of all
preactivations on a fine grid; central finite differences; the fundamental theorem of calculus
along a segment; the closed-form derivative of a one-neuron softplus network.
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
    smooth_total_variation,
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
