"""Differentially private mechanisms and their calibration.

Sources: Dwork & Roth, "The Algorithmic Foundations of Differential Privacy" (2014), Thm 3.6
(Laplace), Thm 3.10 (exponential mechanism), Thm A.1 (classical Gaussian calibration);
Balle & Wang, "Improving the Gaussian Mechanism for Differential Privacy: Analytical
Calibration and Optimal Denoising", ICML 2018, Thm 8 (exact privacy profile of the Gaussian
mechanism) and Alg. 1 (analytic calibration).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, special


def _check_positive(name: str, value: float) -> float:
    value = float(value)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return value


def _check_delta(delta: float) -> float:
    delta = float(delta)
    if not 0 < delta < 1:
        raise ValueError(f"delta must lie in (0, 1), got {delta!r}")
    return delta


def laplace_scale(epsilon: float, sensitivity: float) -> float:
    """Scale b = sensitivity / epsilon of the Laplace mechanism, (epsilon, 0)-DP (Dwork & Roth Thm 3.6).

    Raises:
        ValueError: unless epsilon and sensitivity are positive.
    """
    return _check_positive("sensitivity", sensitivity) / _check_positive("epsilon", epsilon)


def laplace_mechanism(rng: np.random.Generator, value, epsilon: float, sensitivity: float) -> np.ndarray:
    """value + Laplace(0, sensitivity/epsilon) noise, coordinatewise; ``sensitivity`` is the l1 one."""
    value = np.asarray(value, dtype=float)
    return value + rng.laplace(0.0, laplace_scale(epsilon, sensitivity), size=value.shape)


def gaussian_delta(epsilon: float, sigma: float, sensitivity: float) -> float:
    """Exact privacy profile of the Gaussian mechanism (Balle & Wang 2018, Thm 8).

    delta(epsilon) = Phi(D/(2 sigma) - epsilon sigma / D) - e^epsilon Phi(-D/(2 sigma) - epsilon sigma / D),
    with D the l2 sensitivity: the smallest delta for which N(f(x), sigma^2 I) is (epsilon, delta)-DP.

    Args:
        epsilon: >= 0.  sigma, sensitivity: > 0.
    Raises:
        ValueError: on a negative epsilon or a non-positive sigma / sensitivity.
    """
    if not (math.isfinite(epsilon) and epsilon >= 0):
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon!r}")
    sigma = _check_positive("sigma", sigma)
    d = _check_positive("sensitivity", sensitivity)
    a = d / (2 * sigma) - epsilon * sigma / d
    b = -d / (2 * sigma) - epsilon * sigma / d
    # e^eps Phi(b) in log space: Phi(b) underflows long before e^eps overflows.
    return float(special.ndtr(a) - math.exp(epsilon + special.log_ndtr(b)))


def gaussian_mechanism_sigma(epsilon: float, delta: float, sensitivity: float,
                             method: str = "analytic") -> float:
    """Noise standard deviation making the Gaussian mechanism (epsilon, delta)-DP.

    Args:
        epsilon: privacy parameter, > 0 (the classical calibration needs epsilon < 1).
        delta: in (0, 1).
        sensitivity: l2 sensitivity of the released function, > 0.
        method: ``"classical"``: sigma = sensitivity sqrt(2 ln(1.25/delta)) / epsilon (Dwork & Roth,
            Thm A.1, valid for epsilon < 1); ``"analytic"``: the smallest sigma with
            ``gaussian_delta(epsilon, sigma, sensitivity) <= delta`` (Balle & Wang 2018), found by
            bracketing and Brent's method to relative precision 1e-12.

    Raises:
        ValueError: on out-of-range arguments, an unknown method, or epsilon >= 1 with "classical".
    """
    epsilon = _check_positive("epsilon", epsilon)
    delta = _check_delta(delta)
    sensitivity = _check_positive("sensitivity", sensitivity)
    if method == "classical":
        if epsilon >= 1:
            raise ValueError(f"the classical Gaussian calibration holds only for epsilon < 1, got {epsilon}")
        return sensitivity * math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    if method != "analytic":
        raise ValueError(f"unknown calibration method {method!r}; use 'classical' or 'analytic'")

    def gap(log_sigma: float) -> float:
        return gaussian_delta(epsilon, math.exp(log_sigma), sensitivity) - delta

    lo, hi = math.log(sensitivity) - 1.0, math.log(sensitivity) + 1.0
    while gap(lo) <= 0:            # delta(sigma) decreases in sigma: widen until bracketed
        lo -= 2.0
    while gap(hi) > 0:
        hi += 2.0
    return math.exp(optimize.brentq(gap, lo, hi, xtol=1e-14, rtol=1e-13))


def gaussian_mechanism(rng: np.random.Generator, value, sigma: float) -> np.ndarray:
    """value + N(0, sigma^2 I) noise."""
    value = np.asarray(value, dtype=float)
    return value + rng.normal(0.0, _check_positive("sigma", sigma), size=value.shape)


def exponential_mechanism_probabilities(utilities, epsilon: float, sensitivity: float) -> np.ndarray:
    """Output distribution of the exponential mechanism, P(r) proportional to exp(epsilon u(r) / (2 sensitivity)).

    (epsilon, 0)-DP when every utility changes by at most ``sensitivity`` between neighbours
    (Dwork & Roth Thm 3.10).

    Args:
        utilities: 1-D array of finite utilities, one per candidate.
    Raises:
        ValueError: on an empty or non-finite utility vector or non-positive parameters.
    """
    u = np.asarray(utilities, dtype=float)
    if u.ndim != 1 or u.size == 0 or not np.all(np.isfinite(u)):
        raise ValueError("utilities must be a non-empty 1-D array of finite numbers")
    z = _check_positive("epsilon", epsilon) * u / (2 * _check_positive("sensitivity", sensitivity))
    return special.softmax(z)


def exponential_mechanism(rng: np.random.Generator, utilities, epsilon: float, sensitivity: float) -> int:
    """Index drawn by the exponential mechanism (see :func:`exponential_mechanism_probabilities`)."""
    p = exponential_mechanism_probabilities(utilities, epsilon, sensitivity)
    return int(rng.choice(p.size, p=p))


def randomized_response_probabilities(bit: int, epsilon: float) -> np.ndarray:
    """Output distribution [P(0), P(1)] of binary randomised response: truth w.p. e^eps / (1 + e^eps).

    Raises:
        ValueError: unless bit is 0 or 1 and epsilon > 0.
    """
    if bit not in (0, 1):
        raise ValueError(f"bit must be 0 or 1, got {bit!r}")
    keep = special.expit(_check_positive("epsilon", epsilon))
    return np.array([keep, 1 - keep]) if bit == 0 else np.array([1 - keep, keep])
