"""Uniform quantizers of post-training quantization (PTQ): integer grids, steps, rounding.

A $k$-bit signed weight grid is $\\{-2^{k-1}, \\dots, 2^{k-1}-1\\}$ (W2: $\\{-2, -1, 0, 1\\}$); an
unsigned activation grid is $\\{0, \\dots, 2^k - 1\\}$ (inputs after a ReLU).  A weight row $w$ with step
$s$ is quantized as $s\\,\\mathrm{clip}(\\lfloor w/s\\rfloor + h, q_{\\min}, q_{\\max})$ with $h \\in \\{0, 1\\}$
per weight (AdaRound's up/down choice, Nagel et al., ICML 2020; $h = [w/s - \\lfloor w/s\\rfloor \\ge 1/2]$
is rounding to nearest).  AdaRound's relaxation of $h$ is the rectified sigmoid
$h(V) = \\mathrm{clip}(\\sigma(V)(\\zeta - \\gamma) + \\gamma, 0, 1)$ with $\\zeta = 1.1$, $\\gamma = -0.1$.
"""

from __future__ import annotations

import numpy as np

ZETA, GAMMA = 1.1, -0.1


def signed_grid(bits: int) -> tuple[int, int]:
    """(q_min, q_max) of a signed k-bit integer grid.

    Raises:
        ValueError: for fewer than 2 or more than 16 bits.
    """
    if not 2 <= int(bits) <= 16:
        raise ValueError(f"bit widths from 2 to 16 are supported, not {bits!r}")
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def unsigned_grid(bits: int) -> tuple[int, int]:
    """(0, 2^k - 1): an unsigned k-bit grid (activations after a ReLU)."""
    if not 1 <= int(bits) <= 16:
        raise ValueError(f"bit widths from 1 to 16 are supported, not {bits!r}")
    return 0, 2**bits - 1


def quantize_activations(X: np.ndarray, step: float, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """Unsigned fake quantization of non-negative activations: (integers, step * integers).

    Args:
        X: array of activations (any shape); step: the quantization step > 0; bits: grid width.
    Returns:
        (X_int as int64, X_hat = step * X_int as float64).
    """
    if not step > 0:
        raise ValueError(f"the activation step must be positive, not {step!r}")
    lo, hi = unsigned_grid(bits)
    X_int = np.clip(np.rint(np.asarray(X, float) / step), lo, hi).astype(np.int64)
    return X_int, step * X_int.astype(float)


def mse_activation_step(X: np.ndarray, bits: int, candidates: int = 200) -> float:
    """The step minimising the mean squared quantization error of X over a grid of candidate
    steps (max|X| / q_max times 0.05 ... 1): the usual min-MSE calibration of PTQ."""
    X = np.asarray(X, float)
    hi = unsigned_grid(bits)[1]
    top = float(np.max(np.abs(X)))
    if top == 0:
        return 1.0
    best, best_err = top / hi, np.inf
    for frac in np.linspace(0.05, 1.0, candidates):
        s = frac * top / hi
        err = float(np.mean((quantize_activations(X, s, bits)[1] - X) ** 2))
        if err < best_err:
            best, best_err = s, err
    return best


def mse_weight_steps(W: np.ndarray, bits: int, candidates: int = 200) -> np.ndarray:
    """Per-output-channel steps minimising each row's squared rounding-to-nearest error, over
    candidates max|w| / q_max times 0.02 ... 1 (q_max = 2^(k-1) - 1, so that the largest positive
    weight can be reached: the usual initial steps of PTQ)."""
    W = np.atleast_2d(np.asarray(W, float))
    lo, hi = signed_grid(bits)
    top = np.maximum(np.max(np.abs(W), axis=1), 1e-12)
    best = top / hi
    best_err = np.full(W.shape[0], np.inf)
    for frac in np.linspace(0.02, 1.0, candidates):
        s = frac * top / hi
        err = np.sum((s[:, None] * np.clip(np.rint(W / s[:, None]), lo, hi) - W) ** 2, axis=1)
        better = err < best_err
        best[better], best_err[better] = s[better], err[better]
    return best


def weight_integers(W: np.ndarray, steps: np.ndarray, bits: int, h: np.ndarray | None = None) -> np.ndarray:
    """Integer weights clip(floor(W/s) + h, q_min, q_max) per output channel (rows); h = None
    rounds to nearest.  W: (C_out, C_in), steps: (C_out,), h: (C_out, C_in) in {0, 1} or [0, 1]."""
    W = np.atleast_2d(np.asarray(W, float))
    steps = np.asarray(steps, float).reshape(-1, 1)
    if np.any(steps <= 0):
        raise ValueError("weight steps must be positive")
    lo, hi = signed_grid(bits)
    scaled = W / steps
    if h is None:
        return np.clip(np.rint(scaled), lo, hi).astype(np.int64)
    return np.clip(np.floor(scaled) + h, lo, hi)


def rectified_sigmoid(V: np.ndarray) -> np.ndarray:
    """AdaRound's h(V) = clip(sigmoid(V) (zeta - gamma) + gamma, 0, 1)."""
    return np.clip(1.0 / (1.0 + np.exp(-V)) * (ZETA - GAMMA) + GAMMA, 0.0, 1.0)


def rectified_sigmoid_grad(V: np.ndarray) -> np.ndarray:
    """dh/dV (0 where the clip is active)."""
    sig = 1.0 / (1.0 + np.exp(-V))
    raw = sig * (ZETA - GAMMA) + GAMMA
    return np.where((raw > 0) & (raw < 1), sig * (1 - sig) * (ZETA - GAMMA), 0.0)
