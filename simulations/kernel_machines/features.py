"""Kernels, random Fourier features and synthetic data for kernel machines.

Random Fourier features (Rahimi & Recht, NIPS 2007): for the Gaussian kernel
$k(x, x') = \\exp(-\\|x - x'\\|^2/(2\\ell^2))$, $\\varphi(x) = \\sqrt{2/M}\\cos(Wx + b)$ with the rows of
$W$ drawn from $N(0, \\ell^{-2}I)$ and $b \\sim U[0, 2\\pi]$ has $E[\\varphi(x)^T\\varphi(x')] = k(x, x')$.
An exact kernel is handled through a square-root factor $R$ with $K = RR^T$: the rows of $R$ are
then finite features with the same Gram matrix, so one code path serves exact and inexact models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def gaussian_kernel(x: np.ndarray, z: np.ndarray, lengthscale: float) -> np.ndarray:
    """Gram matrix $k(x_i, z_j) = \\exp(-\\|x_i - z_j\\|^2/(2\\ell^2))$; x: (n, d), z: (m, d) -> (n, m).

    Raises:
        ValueError: for a non-positive lengthscale or mismatched dimensions.
    """
    if not lengthscale > 0:
        raise ValueError(f"the lengthscale must be positive, not {lengthscale!r}")
    x, z = np.atleast_2d(np.asarray(x, float)), np.atleast_2d(np.asarray(z, float))
    if x.shape[1] != z.shape[1]:
        raise ValueError(f"points of dimension {x.shape[1]} and {z.shape[1]} cannot be compared")
    sq = (x**2).sum(1)[:, None] + (z**2).sum(1)[None, :] - 2 * x @ z.T
    return np.exp(-np.maximum(sq, 0.0) / (2 * lengthscale**2))


@dataclass(frozen=True)
class FourierFeatures:
    """The random Fourier feature map of a Gaussian kernel (frequencies W: (M, d), phases b: (M,))."""

    W: np.ndarray
    b: np.ndarray

    @property
    def M(self) -> int:
        return int(self.W.shape[0])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Features of x: (n, d) -> (n, M)."""
        x = np.atleast_2d(np.asarray(x, float))
        return np.sqrt(2.0 / self.M) * np.cos(x @ self.W.T + self.b)


def fourier_features(rng: np.random.Generator, dim: int, M: int, lengthscale: float) -> FourierFeatures:
    """Draw an M-feature map of the Gaussian kernel with the given lengthscale on R^dim."""
    if M < 1 or dim < 1:
        raise ValueError(f"need at least one feature and one input dimension, got M={M}, dim={dim}")
    if not lengthscale > 0:
        raise ValueError(f"the lengthscale must be positive, not {lengthscale!r}")
    return FourierFeatures(rng.normal(0.0, 1.0 / lengthscale, size=(M, dim)), rng.uniform(0.0, 2 * np.pi, size=M))


def kernel_factor(K: np.ndarray) -> np.ndarray:
    """A factor R (n, r) with R R^T = K for a symmetric positive semidefinite K (eigenvectors of the
    positive eigenvalues scaled by their square roots; eigenvalues below 1e-12 of the largest dropped)."""
    K = np.asarray(K, float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"a Gram matrix must be square, got shape {K.shape}")
    w, U = np.linalg.eigh(0.5 * (K + K.T))
    keep = w > 1e-12 * max(w.max(), 0.0)
    return U[:, keep] * np.sqrt(w[keep])


def synthetic_data(rng: np.random.Generator, n: int, dim: int, task: str,
                   noise: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """Inputs x ~ N(0, I_dim) (n, dim) and targets of a smooth nonlinear function.

    task: ``"regression"`` (y = sin(x_1) + 0.5 cos(2 x_2) + noise N(0, noise^2)) or
    ``"classification"`` (y = sign of that function plus noise, in {-1, +1}).
    """
    if task not in ("regression", "classification"):
        raise ValueError(f"task must be 'regression' or 'classification', not {task!r}")
    if n < 2 or dim < 2:
        raise ValueError(f"need n >= 2 points in dim >= 2, got n={n}, dim={dim}")
    x = rng.normal(size=(n, dim))
    f = np.sin(x[:, 0]) + 0.5 * np.cos(2 * x[:, 1])
    y = f + noise * rng.normal(size=n)
    if task == "classification":
        y = np.where(y >= 0, 1.0, -1.0)
    return x, y
