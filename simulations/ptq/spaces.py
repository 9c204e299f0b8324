"""Exact optima of PTQ reconstruction over nested parameter spaces, by enumeration.

For a linear layer $Y = WX + b$ (W: C_out x d) quantized to $\\hat Y = (s\\odot W_{\\rm int})\\hat X + b$ with
fixed per-channel steps $s$ and quantized inputs $\\hat X$, the reconstruction error
$\\|Y - \\hat Y\\|_F^2$ separates over output channels.  On one channel every rounding choice
$h \\in \\{0,1\\}^d$ (AdaRound's space: $W_{\\rm int} = \\mathrm{clip}(\\lfloor w/s\\rfloor + h)$) is enumerated,
and for each the best parameters of a wider space are in closed form:

- ``"rounding"``: the rounding choice only (AdaRound/BRECQ with a fixed step);
- ``"adaqtransform"``: plus a per-channel affine map $\\xi\\hat Y_c + \\eta$ (AdaQTransform: the
  de-quantization step decoupled from the rounding step, $s' = \\xi s$, and a shift $\\eta$), the least
  squares fit on $[\\hat Y_c, 1]$;
- ``"scale"``: plus $\\xi$ only ($\\eta = 0$): a decoupled de-quantization step;
- ``"fixed_scale"``: $\\xi$ fixed to a value given (not 1) and $\\eta$ free: a family without the
  identity, which is *not* a superset of ``"rounding"`` (controls).

Source of the spaces: the abstract and reviews of "From Decoupling to Adaptive Transformation: a
Wider Optimization Space for PTQ" (ICLR 2025, OpenReview JElN0LJMKB): per-channel scaling
$\\xi$ and translating $\\eta$ on the quantized output, with the rounding step $s_w$ kept fixed.
"""

from __future__ import annotations

import itertools

import numpy as np

from .quantizers import signed_grid

SPACES = ("rounding", "scale", "adaqtransform", "fixed_scale")


def rounding_candidates(d: int) -> np.ndarray:
    """All 2^d rounding choices h in {0, 1}^d as a (2^d, d) array (d <= 14)."""
    if not 1 <= d <= 14:
        raise ValueError(f"exhaustive rounding enumeration needs 1 <= d <= 14 inputs, not {d}")
    return np.array(list(itertools.product((0.0, 1.0), repeat=d)))


def channel_errors(w: np.ndarray, step: float, X_hat: np.ndarray, y: np.ndarray, bias: float, bits: int,
                   space: str, fixed_scale: float = 0.5) -> np.ndarray:
    """Smallest squared error of each rounding choice over the space's continuous parameters.

    Args:
        w: (d,) weight row; step: its quantization step > 0; X_hat: (d, N) quantized inputs;
        y: (N,) the full-precision outputs of the channel; bias: its bias; bits: weight bit width;
        space: one of :data:`SPACES`; fixed_scale: the xi of ``"fixed_scale"``.
    Returns:
        (2^d,) errors, one per rounding choice (in the order of :func:`rounding_candidates`).
    """
    if space not in SPACES:
        raise ValueError(f"space must be one of {SPACES}, not {space!r}")
    lo, hi = signed_grid(bits)
    H = rounding_candidates(len(w))
    W_int = np.clip(np.floor(np.asarray(w, float) / step) + H, lo, hi)
    q = step * (W_int @ X_hat) + bias                    # (2^d, N): the quantized outputs
    y = np.asarray(y, float)
    N = y.size
    if space == "rounding":
        return np.sum((y - q) ** 2, axis=1)
    if space == "scale":
        qq = np.sum(q * q, axis=1)
        qy = q @ y
        return y @ y - np.where(qq > 0, qy**2 / np.where(qq > 0, qq, 1.0), 0.0)
    if space == "fixed_scale":
        r = y - fixed_scale * q
        return N * np.var(r, axis=1)
    qc = q - q.mean(axis=1, keepdims=True)
    yc = y - y.mean()
    vq = np.sum(qc * qc, axis=1)
    cov = qc @ yc
    return yc @ yc - np.where(vq > 0, cov**2 / np.where(vq > 0, vq, 1.0), 0.0)


def layer_optimum(W: np.ndarray, steps: np.ndarray, X_hat: np.ndarray, Y: np.ndarray, bias: np.ndarray, bits: int,
                  space: str, fixed_scale: float = 0.5) -> float:
    """The exact optimum of the layer's reconstruction error $\\|Y - \\hat Y\\|_F^2$ over the space (the
    sum over output channels of each channel's minimum over all rounding choices).

    Shapes: W (C_out, d), steps (C_out,), X_hat (d, N), Y (C_out, N), bias (C_out,).
    """
    W, Y = np.atleast_2d(W), np.atleast_2d(Y)
    return float(sum(channel_errors(W[c], float(steps[c]), X_hat, Y[c], float(bias[c]), bits, space,
                                    fixed_scale).min() for c in range(W.shape[0])))
