"""Unit tests of simulations.ptq against independent values (hand-computed grids, brute-force
least squares, integer arithmetic, finite differences)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simulations.ptq import (
    channel_errors,
    fake_quant_output,
    fold,
    integer_layer,
    layer_optimum,
    mse_activation_step,
    mse_weight_steps,
    quantize_activations,
    reconstruct,
    rectified_sigmoid,
    rectified_sigmoid_grad,
    rounding_candidates,
    rounding_error_bound,
    signed_grid,
    unsigned_grid,
    weight_integers,
)


def test_grids_by_hand():
    assert signed_grid(2) == (-2, 1)
    assert signed_grid(4) == (-8, 7)
    assert unsigned_grid(2) == (0, 3)
    with pytest.raises(ValueError, match="bit widths"):
        signed_grid(1)


def test_quantizers_by_hand():
    X_int, X_hat = quantize_activations(np.array([0.0, 0.24, 0.26, 10.0]), 0.5, 2)
    assert X_int.tolist() == [0, 0, 1, 3]
    np.testing.assert_array_equal(X_hat, [0.0, 0.0, 0.5, 1.5])
    W = np.array([[0.3, -0.9, 2.0]])
    assert weight_integers(W, np.array([0.5]), 2).tolist() == [[1, -2, 1]]        # rint(0.6)=1, rint(-1.8)=-2, clip 4 -> 1
    np.testing.assert_array_equal(weight_integers(W, np.array([0.5]), 2, h=np.array([[0.0, 1.0, 0.0]])),
                                  [[0.0, -1.0, 1.0]])                               # floor + h, clipped


def test_mse_steps_beat_their_neighbours():
    rng = np.random.default_rng(0)
    W = rng.normal(size=(3, 50))
    s = mse_weight_steps(W, 3)
    lo, hi = signed_grid(3)
    def err(row, t):
        return np.sum((t * np.clip(np.rint(row / t), lo, hi) - row) ** 2)

    for c in range(3):
        assert err(W[c], s[c]) <= err(W[c], s[c] * 1.05) + 1e-12 and err(W[c], s[c]) <= err(W[c], s[c] * 0.95) + 1e-12
    X = np.abs(rng.normal(size=500))
    sx = mse_activation_step(X, 2)
    e = lambda t: np.mean((quantize_activations(X, t, 2)[1] - X) ** 2)  # noqa: E731
    assert e(sx) <= min(e(sx * 1.05), e(sx * 0.95)) + 1e-12


def test_rectified_sigmoid_and_its_derivative():
    V = np.linspace(-6, 6, 41)
    h = rectified_sigmoid(V)
    assert h.min() == 0.0 and h.max() == 1.0
    fd = (rectified_sigmoid(V + 1e-6) - rectified_sigmoid(V - 1e-6)) / 2e-6
    inside = (h > 1e-4) & (h < 1 - 1e-4)
    np.testing.assert_allclose(rectified_sigmoid_grad(V)[inside], fd[inside], rtol=1e-6)


# ----------------------------------------------------------------------------- exact optima
def _brute_force_channel(w, s, X_hat, y, bias, bits, space):
    """Per rounding choice: the error minimised by generic least squares (numpy lstsq)."""
    lo, hi = signed_grid(bits)
    out = []
    for h in itertools.product((0.0, 1.0), repeat=len(w)):
        q = s * (np.clip(np.floor(w / s) + np.array(h), lo, hi) @ X_hat) + bias
        if space == "rounding":
            out.append(np.sum((y - q) ** 2))
            continue
        A = np.vstack([q, np.ones_like(q)]).T if space == "adaqtransform" else q[:, None]
        coef = np.linalg.lstsq(A, y, rcond=None)[0]
        out.append(np.sum((A @ coef - y) ** 2))
    return np.array(out)


@pytest.mark.parametrize("space", ["rounding", "scale", "adaqtransform"])
def test_channel_errors_match_brute_force_least_squares(space):
    rng = np.random.default_rng(1)
    w = rng.normal(size=5) / 2
    X_hat = np.abs(rng.normal(size=(5, 30)))
    y = w @ X_hat + 0.1
    got = channel_errors(w, 0.4, X_hat, y, 0.1, 2, space)
    np.testing.assert_allclose(got, _brute_force_channel(w, 0.4, X_hat, y, 0.1, 2, space), rtol=1e-9, atol=1e-12)


def test_spaces_are_nested_on_random_layers():
    rng = np.random.default_rng(2)
    for _ in range(5):
        W = rng.normal(size=(3, 6)) / 3
        X_hat = np.abs(rng.normal(size=(6, 40)))
        b = rng.normal(0, 0.1, 3)
        Y = W @ X_hat + b[:, None] + 0.01 * rng.normal(size=(3, 40))
        s = mse_weight_steps(W, 2)
        r, sc, full = (layer_optimum(W, s, X_hat, Y, b, 2, sp) for sp in ("rounding", "scale", "adaqtransform"))
        assert full <= sc * (1 + 1e-12) and sc <= r * (1 + 1e-12)


def test_rounding_candidates_enumerate_every_choice():
    H = rounding_candidates(3)
    assert H.shape == (8, 3) and len({tuple(h) for h in H}) == 8
    with pytest.raises(ValueError, match="exhaustive"):
        rounding_candidates(20)


# ----------------------------------------------------------------------------- folding
def test_folding_is_exact_in_integer_arithmetic():
    rng = np.random.default_rng(3)
    W_int = rng.integers(-2, 2, size=(4, 7))
    X_int = rng.integers(0, 4, size=(7, 11))
    steps, s_x = rng.uniform(0.1, 0.5, 4), 0.37
    b, xi, eta = rng.normal(size=4), rng.uniform(0.5, 1.5, 4), rng.normal(size=4)
    simulated = fake_quant_output(W_int, steps, s_x * X_int, b, xi, eta)
    f_steps, f_bias = fold(steps, b, xi, eta)
    deployed = integer_layer(W_int, X_int, f_steps, s_x, f_bias)
    # independent reference: integer product by Python ints, then the affine map
    acc = np.array([[sum(int(W_int[c, j]) * int(X_int[j, n]) for j in range(7)) for n in range(11)] for c in range(4)])
    exact = xi[:, None] * (steps[:, None] * s_x * acc + b[:, None]) + eta[:, None]
    bound = rounding_error_bound(W_int, X_int, steps, s_x, b, xi, eta)
    assert np.all(np.abs(deployed - simulated) <= bound)
    assert np.all(np.abs(deployed - exact) <= bound)


def test_integer_layer_refuses_float_kernels():
    with pytest.raises(TypeError, match="integer"):
        integer_layer(np.ones((2, 2)), np.ones((2, 2), dtype=int), np.ones(2), 1.0, np.zeros(2))


# ----------------------------------------------------------------------------- reconstruction
def test_reconstruction_without_transform_improves_on_rounding_to_nearest():
    rng = np.random.default_rng(4)
    W = rng.normal(0, 0.25, (4, 8))
    b = rng.normal(0, 0.1, 4)
    X = np.maximum(rng.normal(size=(8, 64)), 0)
    sx = mse_activation_step(X, 4)
    _, X_hat = quantize_activations(X, sx, 4)
    Y = W @ X + b[:, None]
    s = mse_weight_steps(W, 2)
    rec = reconstruct(W, b, s, X_hat, Y, 2, transform=False, iterations=800, lr=0.025)
    rtn = np.mean((fake_quant_output(weight_integers(W, s, 2), s, X_hat, b) - Y) ** 2)
    assert rec.error <= rtn
    assert np.all(rec.xi == 1.0) and np.all(rec.eta == 0.0)
    # the hardened weights lie on the 2-bit grid, one rounding step from the floor
    assert set(np.unique(rec.W_int)) <= {-2, -1, 0, 1}
    assert np.all(np.abs(rec.W_int - np.clip(np.floor(W / s[:, None]), -2, 1)) <= 1)


def test_reconstruction_shape_errors():
    with pytest.raises(ValueError, match="shapes"):
        reconstruct(np.ones((2, 3)), np.zeros(2), np.ones(2), np.ones((4, 5)), np.ones((2, 5)), 2, transform=True)
