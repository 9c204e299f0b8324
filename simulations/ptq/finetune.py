"""Layer-wise PTQ reconstruction by gradient descent: AdaRound, with or without AdaQTransform.

AdaRound (Nagel et al., ICML 2020) learns each weight's rounding direction through the relaxed
$h(V)$ (:func:`.quantizers.rectified_sigmoid`), minimising the output reconstruction error
$\\frac{1}{C N}\\|Y - \\hat Y\\|_F^2$ plus $\\lambda\\,\\frac{1}{Cd}\\sum(1 - |2h - 1|^\\beta)$, with $\\beta$ annealed
from 20 to 2 after a warm-up without the regulariser; the steps stay fixed (min-MSE initial
steps), and the rounding is hardened at the end ($h = [h(V) \\ge 1/2]$).  AdaQTransform (ICLR 2025,
OpenReview JElN0LJMKB) adds per-output-channel $\\xi$ (init 1) and $\\eta$ (init 0) on the quantized
output, learned jointly: $\\hat Y = \\xi\\odot((s\\odot\\tilde W)\\hat X + b) + \\eta$.  Gradients are analytic
(the clip of the integer grid passes no gradient), and Adam updates all variables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .quantizers import GAMMA, ZETA, rectified_sigmoid, rectified_sigmoid_grad, signed_grid


@dataclass
class Reconstruction:
    """Result of :func:`reconstruct`: the hardened integer weights, the transform and the errors.

    Attributes:
        W_int: (C_out, d) integer weights; xi, eta: (C_out,) the transform (1 and 0 without it);
        error: the final reconstruction error $\\|Y - \\hat Y\\|_F^2/(C_{out}N)$ with hard rounding;
        history: the relaxed objective's data term every 50 iterations.
    """

    W_int: np.ndarray
    xi: np.ndarray
    eta: np.ndarray
    error: float
    history: list[float]


class _Adam:
    def __init__(self, lr: float, shape: tuple[int, ...]) -> None:
        self.lr, self.m, self.v, self.t = lr, np.zeros(shape), np.zeros(shape), 0

    def step(self, grad: np.ndarray) -> np.ndarray:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        mh, vh = self.m / (1 - 0.9**self.t), self.v / (1 - 0.999**self.t)
        return -self.lr * mh / (np.sqrt(vh) + 1e-8)


def reconstruct(W: np.ndarray, bias: np.ndarray, w_steps: np.ndarray, X_hat: np.ndarray, Y: np.ndarray, bits: int,
                *, transform: bool, iterations: int = 600, reg: float = 0.01, warmup: float = 0.2,
                lr: float = 0.05, transform_lr: float = 0.005, fixed_xi: float | None = None) -> Reconstruction:
    """Reconstruct a quantized linear layer by AdaRound, with AdaQTransform if ``transform``.

    Args:
        W: (C_out, d) full-precision weights; bias: (C_out,); w_steps: (C_out,) fixed weight steps;
        X_hat: (d, N) quantized inputs; Y: (C_out, N) full-precision outputs to match; bits: weight bits.
        transform: learn xi and eta jointly (AdaQTransform); False: AdaRound alone.
        iterations: Adam steps; reg: lambda of the rounding regulariser; warmup: fraction of steps without it;
        lr: Adam's step for V; transform_lr: for xi (and, times the spread of Y, for eta).
        fixed_xi: with ``transform``, hold xi at this value and learn eta only (a control).
    Raises:
        ValueError: on mismatched shapes.
    """
    W, X_hat, Y = np.atleast_2d(W), np.asarray(X_hat, float), np.atleast_2d(Y)
    C, d = W.shape
    if X_hat.shape[0] != d or Y.shape != (C, X_hat.shape[1]):
        raise ValueError(f"shapes do not match: W {W.shape}, X_hat {X_hat.shape}, Y {Y.shape}")
    lo, hi = signed_grid(bits)
    s = np.asarray(w_steps, float).reshape(-1, 1)
    B = np.floor(W / s)
    frac = np.clip(W / s - B, 0.01, 0.99)
    V = -np.log((ZETA - GAMMA) / (frac - GAMMA) - 1)        # h(V) = frac: starts at the full-precision weights
    xi = np.full(C, 1.0 if fixed_xi is None else float(fixed_xi))
    eta = np.zeros(C)
    b = np.asarray(bias, float)
    N = Y.shape[1]
    y_scale = float(np.std(Y)) or 1.0
    opt_v, opt_xi, opt_eta = _Adam(lr, V.shape), _Adam(transform_lr, (C,)), _Adam(transform_lr * y_scale, (C,))
    history = []
    start_reg = int(warmup * iterations)
    for it in range(iterations):
        h = rectified_sigmoid(V)
        raw = B + h
        inside = (raw >= lo) & (raw <= hi)
        Wt = np.clip(raw, lo, hi)
        Q = (s * Wt) @ X_hat + b[:, None]
        Yh = xi[:, None] * Q + eta[:, None]
        R = Yh - Y
        G = 2 * R / N
        gW = (xi[:, None] * s) * (G @ X_hat.T) * inside
        if it >= start_reg:
            beta = 20 + (2 - 20) * (it - start_reg) / max(1, iterations - start_reg - 1)
            t = 2 * h - 1
            g_reg = -reg * beta * np.abs(t) ** (beta - 1) * np.sign(t) * 2
        else:
            g_reg = 0.0
        V += opt_v.step((gW + g_reg) * rectified_sigmoid_grad(V))
        if transform:
            if fixed_xi is None:
                xi += opt_xi.step(np.sum(G * Q, axis=1))
            eta += opt_eta.step(np.sum(G, axis=1))
        if it % 50 == 0:
            history.append(float(np.mean(R**2)))
    W_int = np.clip(B + (rectified_sigmoid(V) >= 0.5), lo, hi)
    Yh = xi[:, None] * ((s * W_int) @ X_hat + b[:, None]) + eta[:, None]
    return Reconstruction(W_int.astype(np.int64), xi, eta, float(np.mean((Yh - Y) ** 2)), history)
