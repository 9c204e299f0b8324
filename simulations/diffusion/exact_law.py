"""The exact law of the K-step sequential sampler for one coordinate, by quadrature.

For a product target the sequential sampler's coordinates are independent one-dimensional
Markov chains ``y_{k+1} = y_k + h m(y_k) + sqrt(h) xi``.  Their densities are propagated on a
uniform grid with the Gaussian transition kernel and the trapezoidal rule, which for these
smooth, rapidly decaying integrands is accurate to far below the Monte Carlo errors it is
compared with (the rule's error decays like exp(-2 pi^2 h / dx^2) for a Gaussian kernel of
variance h on spacing dx; Trefethen & Weideman, SIAM Review 56 (2014)).  The first step, from
the point y_0 = 0, is the Gaussian N(h m(0), h) written down directly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import special


def grid_for(T: float, spacing: float = 0.01, width: float = 9.0) -> np.ndarray:
    """A uniform grid covering the reach of y_T for a target in [-1, 1]: |y| <= T + width sqrt(T).

    Raises:
        ValueError: on non-positive arguments.
    """
    if not (T > 0 and spacing > 0 and width > 0):
        raise ValueError("T, spacing and width must be positive")
    edge = T + width * np.sqrt(T)
    n = int(np.ceil(2 * edge / spacing)) + 1
    return np.linspace(-edge, edge, n)


def sequential_density(mean1d: Callable[[np.ndarray, float], np.ndarray], K: int, T: float,
                       grid: np.ndarray) -> np.ndarray:
    """Density of y_K of the one-dimensional K-step sequential sampler on ``grid``.

    Args:
        mean1d: m(y, t) for a 1-D array y (vectorised), e.g. ``lambda y, t: np.tanh(y + b)``.
        K, T: steps and horizon (h = T/K).
        grid: uniform, increasing 1-D grid wide enough to hold the law (see :func:`grid_for`).
    Returns:
        density values on the grid, shape grid.shape (integrating to 1 up to the mass off-grid).
    Raises:
        ValueError: on a non-uniform grid or bad sizes.
    """
    if int(K) != K or K < 1 or not T > 0:
        raise ValueError("need an integer K >= 1 and T > 0")
    g = np.asarray(grid, dtype=float)
    dx = np.diff(g)
    if g.ndim != 1 or g.size < 3 or np.any(dx <= 0) or np.ptp(dx) > 1e-9 * dx.mean():
        raise ValueError("the grid must be uniform and increasing with at least 3 points")
    h = T / K
    w = np.full(g.size, dx.mean())
    w[[0, -1]] *= 0.5                                   # trapezoidal weights
    mu0 = h * float(np.asarray(mean1d(np.zeros(1), 0.0))[0])
    dens = np.exp(-(g - mu0) ** 2 / (2 * h)) / np.sqrt(2 * np.pi * h)
    for k in range(1, K):
        centre = g + h * mean1d(g, k * h)                # where each grid point moves on average
        kernel = np.exp(-(g[:, None] - centre[None, :]) ** 2 / (2 * h)) / np.sqrt(2 * np.pi * h)
        dens = kernel @ (w * dens)
    return dens


def sequential_cdf(mean1d: Callable[[np.ndarray, float], np.ndarray], K: int, T: float, grid: np.ndarray,
                   points: np.ndarray) -> np.ndarray:
    """CDF of y_K of the one-dimensional sequential sampler at ``points``.

    The last step is integrated exactly: F(q) = sum_j w_j p_{K-1}(g_j) Phi((q - g_j - h m(g_j)) / sqrt h)
    with p_{K-1} from :func:`sequential_density` (a Riemann sum of a smooth integrand: spectrally
    accurate, unlike a cumulative sum of the density).
    """
    pts = np.asarray(points, dtype=float)
    h = T / K
    if K == 1:
        mu0 = h * float(np.asarray(mean1d(np.zeros(1), 0.0))[0])
        return gaussian_cdf(pts, mu0, h)
    g = np.asarray(grid, dtype=float)
    dens = sequential_density(mean1d, K - 1, T * (K - 1) / K, g)
    centre = g + h * mean1d(g, (K - 1) * h)
    w = np.full(g.size, g[1] - g[0])
    w[[0, -1]] *= 0.5
    return special.ndtr((pts[:, None] - centre[None, :]) / np.sqrt(h)) @ (w * dens)


def scaled_sum_cdf(mean1ds: list[Callable[[np.ndarray, float], np.ndarray]], K: int, T: float, grid: np.ndarray,
                   points: np.ndarray) -> np.ndarray:
    """CDF at ``points`` of (Y_1 + ... + Y_d)/sqrt(d) for independent coordinates run by the sequential sampler.

    The density of Y_1 + ... + Y_{d-1} is a discrete convolution of the coordinates' densities on the
    grid; the last coordinate enters through its exact CDF (:func:`sequential_cdf`).
    """
    d = len(mean1ds)
    if d == 0:
        raise ValueError("need at least one coordinate")
    pts = np.asarray(points, dtype=float) * np.sqrt(d)
    if d == 1:
        return sequential_cdf(mean1ds[0], K, T, grid, pts)
    g = np.asarray(grid, dtype=float)
    dx = g[1] - g[0]
    dens = [sequential_density(m, K, T, g) for m in mean1ds[:-1]]
    sgrid, sdens = density_of_scaled_sum(g, dens, 1.0)
    # F_sum(q) = sum_u dx f(u) F_d(q - u): evaluate F_d on the needed points
    shifted = (pts[:, None] - sgrid[None, :]).ravel()
    Fd = sequential_cdf(mean1ds[-1], K, T, g, shifted).reshape(pts.size, sgrid.size)
    return Fd @ (dx * sdens)


def cdf_on(grid: np.ndarray, density: np.ndarray, points: np.ndarray) -> np.ndarray:
    """CDF at ``points`` of a density given on a uniform grid (cumulative trapezoid, then linear interpolation;
    its error is O(dx^2): use :func:`sequential_cdf` where accuracy matters)."""
    g = np.asarray(grid, dtype=float)
    f = np.asarray(density, dtype=float)
    cum = np.concatenate([[0.0], np.cumsum(0.5 * (f[1:] + f[:-1]) * np.diff(g))])
    return np.interp(points, g, cum, left=0.0, right=cum[-1])


def density_of_scaled_sum(grid: np.ndarray, densities: list[np.ndarray], scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Density of ``scale * (Y_1 + ... + Y_d)`` for independent Y_j with the given densities on one grid.

    Returns:
        (grid of the sum, density on it).
    """
    g = np.asarray(grid, dtype=float)
    dx = g[1] - g[0]
    out = np.asarray(densities[0], dtype=float)
    start = g[0]
    for f in densities[1:]:
        out = np.convolve(out, f) * dx
        start = start + g[0]
    sgrid = start + dx * np.arange(out.size)
    return scale * sgrid, out / scale


def gaussian_cdf(x: np.ndarray, mean: float, var: float) -> np.ndarray:
    """CDF of N(mean, var) (scipy's ndtr)."""
    return special.ndtr((np.asarray(x, dtype=float) - mean) / np.sqrt(var))
