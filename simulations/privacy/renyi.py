"""Rényi divergences of Gaussians in closed form and the Rényi-DP to (epsilon, delta) conversion.

Sources: Gil, Alajaji & Linder, "Rényi divergence measures for commonly used univariate
continuous distributions", Inf. Sci. 2013 (Gaussian case); Mironov, "Rényi Differential
Privacy", CSF 2017, Prop. 3 (conversion) and Table II (Gaussian mechanism).
"""

from __future__ import annotations

import math

import numpy as np


def renyi_divergence_gaussians(mean0, mean1, sigma0: float, sigma1: float | None = None,
                               order: float = 2.0) -> float:
    """D_order(N(mean0, sigma0^2 I) || N(mean1, sigma1^2 I)) in nats, isotropic covariances.

    With equal variances this is order ||mean0 - mean1||^2 / (2 sigma^2).  In general, per
    coordinate, with s^2 = order sigma1^2 + (1 - order) sigma0^2 (which must be > 0):
    ln(sigma1/sigma0) + ln(sigma1^2 / s^2) / (2 (order - 1)) + order (m0 - m1)^2 / (2 s^2).

    Args:
        mean0, mean1: arrays of one shape (d coordinates).
        sigma0, sigma1: standard deviations, > 0 (sigma1 defaults to sigma0).
        order: Rényi order alpha > 1.
    Returns:
        The divergence (inf when s^2 <= 0: the divergence is infinite there).
    Raises:
        ValueError: on order <= 1, non-positive sigmas or shape mismatch.
    """
    m0, m1 = np.asarray(mean0, dtype=float), np.asarray(mean1, dtype=float)
    if m0.shape != m1.shape:
        raise ValueError(f"means have shapes {m0.shape} and {m1.shape}")
    if not order > 1:
        raise ValueError(f"the Rényi order must exceed 1, got {order!r}")
    sigma1 = sigma0 if sigma1 is None else sigma1
    if not (sigma0 > 0 and sigma1 > 0):
        raise ValueError("standard deviations must be positive")
    d = max(m0.size, 1)
    sq = float(np.sum((m0 - m1) ** 2))
    if sigma0 == sigma1:
        return order * sq / (2 * sigma0**2)
    s2 = order * sigma1**2 + (1 - order) * sigma0**2
    if s2 <= 0:
        return math.inf
    per_coord = math.log(sigma1 / sigma0) + math.log(sigma1**2 / s2) / (2 * (order - 1))
    return d * per_coord + order * sq / (2 * s2)


def renyi_to_dp(order: float, renyi_epsilon: float, delta: float) -> float:
    """epsilon of (epsilon, delta)-DP implied by (order, renyi_epsilon)-RDP: renyi_epsilon + ln(1/delta)/(order - 1).

    Mironov (2017), Prop. 3.

    Raises:
        ValueError: on order <= 1, negative renyi_epsilon or delta outside (0, 1).
    """
    if not order > 1 or renyi_epsilon < 0 or not 0 < delta < 1:
        raise ValueError("need order > 1, renyi_epsilon >= 0 and delta in (0, 1)")
    return renyi_epsilon + math.log(1 / delta) / (order - 1)


def gaussian_sigma_for_renyi(distance: float, order: float, renyi_epsilon: float) -> float:
    """Smallest sigma with order distance^2 / (2 sigma^2) <= renyi_epsilon (equal-variance Gaussians).

    Raises:
        ValueError: on non-positive arguments or order <= 1.
    """
    if not (distance >= 0 and order > 1 and renyi_epsilon > 0):
        raise ValueError("need distance >= 0, order > 1 and renyi_epsilon > 0")
    return distance * math.sqrt(order / (2 * renyi_epsilon))
