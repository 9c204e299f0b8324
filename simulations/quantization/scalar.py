"""Scalar quantizers of Laplace-distributed weights: companded and uniform, with exact mean squared error.

Sean I. Young, "Radio: Rate-Distortion Optimization for Large Language Model Compression"
(ICML 2025, arXiv 2505.03031) quantizes Laplace-like weights by companding: a compressor maps the
weights to a bounded interval, a uniform quantizer with 2^B levels acts there, and the expander
maps the levels back (the author's poster, seaniyoung.com/preprints/young-radio-poster.html,
section 4; its formula did not survive the text extraction).  The compressor used here is the
one that makes companding asymptotically optimal for the Laplace law (Bennett 1948; Panter &
Dite 1951): c(x) proportional to the integral of p^{1/3}, i.e.

    c(x) = sign(x - mu) (1 - exp(-sqrt(2) |x - mu| / (3 S))),  S the standard deviation,

with midpoint reconstruction in the companded domain.  Its mean squared error satisfies
D 4^B / S^2 -> (1/12)(int p^{1/3})^3 / S^2 = 9/2, the Panter-Dite constant of the Laplace law,
which is also the limit for optimal (Lloyd-Max) quantizers.

Errors are computed cell by cell: finite cells by Gauss-Legendre quadrature of the shifted
integrand (no cancellation for narrow cells), the two unbounded outer cells in closed form.
"""

from __future__ import annotations

import numpy as np

PANTER_DITE_LAPLACE = 4.5                    # (1/12) (int p^{1/3})^3 / S^2 for the Laplace law
PANTER_DITE_GAUSSIAN = np.sqrt(3) * np.pi / 2  # the same for the Gaussian law (about 2.7207)

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(12)


def _check_bits(bits: int) -> int:
    if int(bits) != bits or not 1 <= bits <= 24:
        raise ValueError(f"bits must be an integer in [1, 24], got {bits!r}")
    return int(bits)


def laplace_compressor(x: np.ndarray, mean: float, std: float) -> np.ndarray:
    """c(x) = sign(x - mean) (1 - exp(-sqrt(2)|x - mean|/(3 std))), values in (-1, 1)."""
    if not std > 0:
        raise ValueError(f"std must be positive, got {std}")
    z = np.asarray(x, dtype=float) - mean
    return np.sign(z) * -np.expm1(-np.sqrt(2) * np.abs(z) / (3 * std))


def laplace_expander(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Inverse of :func:`laplace_compressor` on (-1, 1)."""
    if not std > 0:
        raise ValueError(f"std must be positive, got {std}")
    u = np.asarray(u, dtype=float)
    if np.any(np.abs(u) >= 1):
        raise ValueError("the expander is defined on the open interval (-1, 1)")
    return mean - np.sign(u) * (3 * std / np.sqrt(2)) * np.log1p(-np.abs(u))


def companded_quantizer(bits: int, mean: float, std: float) -> tuple[np.ndarray, np.ndarray]:
    """Cell boundaries (2^B + 1 values, outer ones infinite) and levels (2^B) of the Laplace compander.

    The uniform quantizer acts on (-1, 1) with cells of width 2/2^B and midpoint levels.
    """
    n = 2 ** _check_bits(bits)
    u = -1 + 2 * np.arange(n + 1) / n
    inner = laplace_expander(u[1:-1], mean, std)
    bounds = np.concatenate([[-np.inf], inner, [np.inf]])
    levels = laplace_expander(-1 + (2 * np.arange(n) + 1) / n, mean, std)
    return bounds, levels


def uniform_quantizer(bits: int, mean: float, std: float, loading: float) -> tuple[np.ndarray, np.ndarray]:
    """A uniform quantizer on [mean - loading std, mean + loading std] with 2^B midpoint levels;
    values outside fall into the outer cells.  Returns (boundaries, levels) as :func:`companded_quantizer`.
    """
    if not (std > 0 and loading > 0):
        raise ValueError("std and loading must be positive")
    n = 2 ** _check_bits(bits)
    edges = mean + loading * std * (-1 + 2 * np.arange(n + 1) / n)
    levels = 0.5 * (edges[1:] + edges[:-1])
    return np.concatenate([[-np.inf], edges[1:-1], [np.inf]]), levels


def quantize(x: np.ndarray, bounds: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Map each value to the level of its cell (cells [b_k, b_{k+1}))."""
    idx = np.searchsorted(bounds[1:-1], np.asarray(x, dtype=float), side="right")
    return levels[idx]


def laplace_quantizer_mse(bounds: np.ndarray, levels: np.ndarray, mean: float, std: float) -> float:
    """Exact mean squared error of a scalar quantizer for the Laplace law with this mean and std.

    Args:
        bounds: increasing cell boundaries, shape (N + 1,), bounds[0] = -inf, bounds[-1] = +inf.
        levels: reconstruction level of each cell, shape (N,).
    Returns:
        E (X - Q(X))^2 for X ~ Laplace(mean, std / sqrt(2)).
    Raises:
        ValueError: on inconsistent shapes or non-increasing boundaries.
    """
    b = np.asarray(bounds, dtype=float)
    r = np.asarray(levels, dtype=float)
    if b.ndim != 1 or r.shape != (b.size - 1,) or b[0] != -np.inf or b[-1] != np.inf or np.any(np.diff(b) <= 0):
        raise ValueError("need N + 1 increasing boundaries from -inf to +inf and N levels")
    if not std > 0:
        raise ValueError(f"std must be positive, got {std}")
    lam = np.sqrt(2) / std
    # work on |x - mean| by splitting each cell at the mean
    total = 0.0
    for sign in (1.0, -1.0):
        lo = np.clip(sign * (b[:-1] - mean), 0, None) if sign > 0 else np.clip(-(b[1:] - mean), 0, None)
        hi = np.clip(sign * (b[1:] - mean), 0, None) if sign > 0 else np.clip(-(b[:-1] - mean), 0, None)
        lev = sign * (r - mean)
        keep = hi > lo
        lo, hi, lev = lo[keep], hi[keep], lev[keep]
        finite = np.isfinite(hi)
        # finite cells: (lam/2) e^{-lam lo} int_0^{w} (lo - lev + t)^2 e^{-lam t} dt by Gauss-Legendre
        w = hi[finite] - lo[finite]
        t = 0.5 * w[:, None] * (_GL_NODES[None, :] + 1)
        f = (lo[finite, None] - lev[finite, None] + t) ** 2 * np.exp(-lam * t)
        cells = 0.5 * w * (f @ _GL_WEIGHTS) * np.exp(-lam * lo[finite]) * lam / 2
        # unbounded cell: (lam/2) int_lo^inf (x - lev)^2 e^{-lam x} dx, in closed form
        a, v = lo[~finite], lev[~finite]
        tail = 0.5 * np.exp(-lam * a) * ((a - v) ** 2 + 2 * (a - v) / lam + 2 / lam**2)
        total += float(np.sum(cells) + np.sum(tail))
    return total


def companded_mse(bits: int, std: float = 1.0, design_std: float | None = None) -> float:
    """MSE of the Laplace compander with 2^B levels on Laplace(0, std) weights.

    Args:
        design_std: the std the compressor is designed for (default ``std``; a different value
            models a misestimated weight variance).
    """
    bounds, levels = companded_quantizer(bits, 0.0, std if design_std is None else design_std)
    return laplace_quantizer_mse(bounds, levels, 0.0, std)


def bennett_constant_laplace(design_ratio: float = 1.0) -> float:
    """lim 4^B D / S^2 of the Laplace compander designed for std r S, on Laplace(0, S) data.

    Bennett's integral for a compressor of range length 2 with N = 2^B cells: N^2 D -> (1/3) int p/c'^2.
    With p(x) = (lam/2) e^{-lam|x|}, lam = sqrt(2)/S, and c'(x) = (lam_c/3) e^{-lam_c|x|/3}, lam_c = lam/r:
    int p/c'^2 = 9 r^2 / (lam^2 (1 - 2/(3 r))), so the limit is 1.5 r^2 / (1 - 2/(3 r)): 4.5 at r = 1
    (the Panter-Dite constant), larger for r != 1, infinite for r <= 2/3 (the integral diverges).
    """
    r = float(design_ratio)
    if r <= 2.0 / 3.0:
        return float("inf")
    return 1.5 * r**2 / (1 - 2 / (3 * r))


def compander_cell_sum(n_cells: int) -> float:
    """(108 / N) sum_{j < N/2} I_j with I_j = int_j^{j+1} w^2 ln^2(w / (j + 1/2)) dw: exactly 4^B D / S^2 of
    the Laplace compander with N = 2^B cells (any S).

    Derivation: on the positive half, the cell j places from the top (u in [1 - 2(j+1)/N, 1 - 2j/N]) maps to
    x = -(3 S/sqrt 2) ln v, v = 1 - u, where e^{-lam x} = v^3; its error integral becomes
    (27 S^2 / 2) (8 / N^3) I_j.  Both halves give D = 108 S^2 sum_j I_j / N^3.  I_0 is in closed form,
    the others by Gauss-Legendre quadrature (smooth integrands).
    """
    if int(n_cells) != n_cells or n_cells < 2 or n_cells % 2:
        raise ValueError("n_cells must be an even integer >= 2")
    half = n_cells // 2
    # I_0 = [w^3 (L^2/3 - 2L/9 + 2/27)] at w = 1, L = ln(2)
    L = np.log(2.0)
    total = L**2 / 3 - 2 * L / 9 + 2 / 27
    j = np.arange(1, half, dtype=float)
    w = j[:, None] + 0.5 * (_GL_NODES[None, :] + 1)
    f = w**2 * np.log(w / (j[:, None] + 0.5)) ** 2
    total += float(np.sum(0.5 * (f @ _GL_WEIGHTS)))
    return 108.0 * total / n_cells


def compander_correction_constant(terms: int = 200_000) -> float:
    """K with |4^B D / S^2 - 4.5| <= K / 2^B for every B >= 1 (the Laplace compander).

    From :func:`compander_cell_sum`, 4^B D/S^2 - 4.5 = (108/N) sum_{j < N/2} (I_j - 1/12), so
    K = 108 sum_{j >= 0} |I_j - 1/12|.  The sum is taken to ``terms`` and its tail bounded by
    sum_{j > J} 1/(900 (j + 1/2)^2) <= 1/(900 J) (I_j - 1/12 = -1/(960 (j + 1/2)^2) + O(j^-4)).
    """
    L = np.log(2.0)
    first = abs(L**2 / 3 - 2 * L / 9 + 2 / 27 - 1 / 12)
    j = np.arange(1, terms, dtype=float)
    w = j[:, None] + 0.5 * (_GL_NODES[None, :] + 1)
    f = w**2 * np.log(w / (j[:, None] + 0.5)) ** 2
    rest = np.abs(0.5 * (f @ _GL_WEIGHTS) - 1 / 12)
    return 108.0 * (first + float(np.sum(rest)) + 1 / (900 * terms))
