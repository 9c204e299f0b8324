"""A small model quantized post-training with rate-distortion bit allocation (a small-scale Radio).

The model is a two-layer tanh network f(x) = w2 . tanh(W1 x + b1) + b2 fitted by full-batch
gradient descent to a synthetic regression task whose input features have scales spread over a
decade, so that the weight groups (the columns of W1, one per input feature, as per-channel
groups in LLM quantization) differ in sensitivity.  Following Radio (Young, ICML 2025,
arXiv 2505.03031; the distortion model of the author's poster), group n gets the sensitivity

    G_n^2 = mean over calibration inputs and the group's weights of (d f / d W1[j, n])^2,
    S_n^2 = variance of the group's weights,

and the modelled output distortion of B_n bits is P_n G_n^2 S_n^2 2^{-2 B_n}.  Each group is
quantized by the Laplace compander of :mod:`simulations.quantization.scalar` fitted to its own mean
and standard deviation (0 bits: every weight replaced by the group mean); W1 is the only
quantized tensor.  The distortion measured is the mean squared change of the output on held-out
inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scalar import companded_quantizer, quantize


@dataclass
class TinyRegressor:
    """f(x) = w2 . tanh(W1 x + b1) + b2 with W1 of shape (hidden, d_in)."""

    W1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float

    def __call__(self, X: np.ndarray, W1: np.ndarray | None = None) -> np.ndarray:
        W = self.W1 if W1 is None else W1
        return np.tanh(X @ W.T + self.b1) @ self.w2 + self.b2

    def weight_gradients(self, X: np.ndarray) -> np.ndarray:
        """d f(x) / d W1 for every input row: shape (n, hidden, d_in)."""
        a = np.tanh(X @ self.W1.T + self.b1)
        return ((1 - a**2) * self.w2)[:, :, None] * X[:, None, :]


def regression_task(rng: np.random.Generator, n: int, d_in: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """Inputs with feature scales log-uniform in [0.1, 3] and a smooth nonlinear target; shapes (n, d_in), (n,)."""
    if n < 1 or d_in < 1:
        raise ValueError("need n >= 1 and d_in >= 1")
    scales = np.exp(rng.uniform(np.log(0.1), np.log(3.0), size=d_in))
    X = rng.standard_normal((n, d_in)) * scales
    u = rng.standard_normal(d_in) / np.sqrt(d_in)
    v = rng.standard_normal(d_in) / np.sqrt(d_in)
    y = np.sin(X @ u) + 0.5 * np.tanh(X @ v) ** 2
    return X, y


def fit_regressor(X: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int = 32, steps: int = 400,
                  lr: float = 0.05) -> TinyRegressor:
    """Full-batch gradient descent with momentum 0.9 on the mean squared error from a Gaussian initialisation."""
    n, d_in = X.shape
    W1 = rng.standard_normal((hidden, d_in)) / np.sqrt(d_in)
    b1 = np.zeros(hidden)
    w2 = rng.standard_normal(hidden) / np.sqrt(hidden)
    b2 = 0.0
    vel = [np.zeros_like(W1), np.zeros_like(b1), np.zeros_like(w2), 0.0]
    for _ in range(steps):
        a = np.tanh(X @ W1.T + b1)
        r = a @ w2 + b2 - y
        g_out = 2 * r / n
        gw2 = a.T @ g_out
        gb2 = float(g_out.sum())
        ga = np.outer(g_out, w2) * (1 - a**2)
        gW1 = ga.T @ X
        gb1 = ga.sum(axis=0)
        grads = [gW1, gb1, gw2, gb2]
        vel = [0.9 * v - lr * g for v, g in zip(vel, grads, strict=True)]
        W1, b1, w2, b2 = W1 + vel[0], b1 + vel[1], w2 + vel[2], b2 + vel[3]
    return TinyRegressor(W1, b1, w2, float(b2))


def group_statistics(model: TinyRegressor, X_cal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column n of W1: (P_n, G_n^2, S_n^2) as defined in the module docstring."""
    grads = model.weight_gradients(X_cal)                     # (n, hidden, d_in)
    G2 = np.mean(grads**2, axis=(0, 1))
    S2 = np.var(model.W1, axis=0)
    P = np.full(model.W1.shape[1], float(model.W1.shape[0]))
    return P, G2, S2


def quantize_columns(W: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """Quantize each column of W with its own Laplace compander at bits[n] bits (0 bits: the column mean)."""
    out = np.empty_like(W)
    for n in range(W.shape[1]):
        col = W[:, n]
        mu, sd = float(col.mean()), float(col.std())
        if bits[n] == 0 or sd == 0:
            out[:, n] = mu
            continue
        bounds, levels = companded_quantizer(int(bits[n]), mu, sd)
        out[:, n] = quantize(col, bounds, levels)
    return out


def output_distortion(model: TinyRegressor, X: np.ndarray, bits: np.ndarray) -> float:
    """Mean squared change of the output on X when W1 is quantized column-wise with these bit depths."""
    Wq = quantize_columns(model.W1, np.asarray(bits, dtype=int))
    return float(np.mean((model(X, Wq) - model(X)) ** 2))
