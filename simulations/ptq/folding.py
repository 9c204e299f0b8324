"""Folding a per-channel output transform into de-quantization: the deployed integer layer.

A quantized linear layer computes, in deployment, the integer product $A = W_{\\rm int}X_{\\rm int}$
(exact, in int64 here) and then one scale and one bias per output channel:
$\\hat Y = (s_w s_x)\\odot A + b$.  AdaQTransform's map $\\xi\\odot\\hat Y + \\eta$ (per output channel)
folds into these: scales $\\xi\\odot s_w s_x$ and bias $\\xi\\odot b + \\eta$, with the integer kernel
$W_{\\rm int}$ unchanged, so the deployed layer has the same integer product and the same number of
per-channel parameters as without the transform.  (ICLR 2025, "From Decoupling to Adaptive
Transformation", OpenReview JElN0LJMKB: "the AdaQTransform parameters can be merged without
incurring additional inference costs".)
"""

from __future__ import annotations

import numpy as np


def fake_quant_output(W_int: np.ndarray, w_steps: np.ndarray, X_hat: np.ndarray, bias: np.ndarray,
                      xi: np.ndarray | None = None, eta: np.ndarray | None = None) -> np.ndarray:
    """The simulated (float64) output $\\xi\\odot((s_w\\odot W_{\\rm int})\\hat X + b) + \\eta$ of the
    reconstruction phase.  Shapes: W_int (C_out, d), w_steps (C_out,), X_hat (d, N), bias, xi, eta (C_out,)."""
    out = (np.asarray(w_steps, float)[:, None] * np.asarray(W_int, float)) @ np.asarray(X_hat, float)
    out = out + np.asarray(bias, float)[:, None]
    if xi is not None:
        out = np.asarray(xi, float)[:, None] * out
    if eta is not None:
        out = out + np.asarray(eta, float)[:, None]
    return out


def fold(w_steps: np.ndarray, bias: np.ndarray, xi: np.ndarray, eta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(folded weight steps $\\xi\\odot s_w$, folded bias $\\xi\\odot b + \\eta$): the transform merged."""
    xi = np.asarray(xi, float)
    return xi * np.asarray(w_steps, float), xi * np.asarray(bias, float) + np.asarray(eta, float)


def integer_layer(W_int: np.ndarray, X_int: np.ndarray, w_steps: np.ndarray, act_step: float,
                  bias: np.ndarray) -> np.ndarray:
    """The deployed layer: exact integer product in int64, then one scale and one bias per channel.

    Raises:
        TypeError: when W_int or X_int are not integer arrays (the kernel must be an integer kernel).
    """
    W_int, X_int = np.asarray(W_int), np.asarray(X_int)
    if not (np.issubdtype(W_int.dtype, np.integer) and np.issubdtype(X_int.dtype, np.integer)):
        raise TypeError("the deployed kernel multiplies integers: pass integer arrays W_int and X_int")
    acc = W_int.astype(np.int64) @ X_int.astype(np.int64)
    return (np.asarray(w_steps, float) * act_step)[:, None] * acc + np.asarray(bias, float)[:, None]


def rounding_error_bound(W_int: np.ndarray, X_int: np.ndarray, w_steps: np.ndarray, act_step: float,
                         bias: np.ndarray, xi: np.ndarray, eta: np.ndarray) -> np.ndarray:
    """An elementwise bound on |fake-quant output - folded integer output| from float64 rounding.

    Both sides evaluate the same exact value $\\xi_c(s_c s_x\\sum_j W_{cj}X_{jn} + b_c) + \\eta_c$ in a
    different order; each of the d products and sums, and the few scalings, commit a relative
    error of at most $u = 2^{-53}$, so the difference is at most $(d + 8)\\,u$ times the sum of
    the absolute values of the terms (Higham, Accuracy and Stability, Sec. 3.1).
    """
    u = np.finfo(float).eps / 2
    d = np.asarray(W_int).shape[1]
    absprod = np.abs(np.asarray(W_int, float)) @ np.abs(np.asarray(X_int, float))
    scale = np.abs(np.asarray(xi, float) * np.asarray(w_steps, float) * act_step)[:, None]
    terms = scale * absprod + np.abs(np.asarray(xi, float) * np.asarray(bias, float))[:, None] \
        + np.abs(np.asarray(eta, float))[:, None]
    return 2 * (d + 8) * u * terms
