"""Rate-distortion optimal bit allocation across weight groups.

Sean I. Young, "Radio: Rate-Distortion Optimization for Large Language Model Compression"
(ICML 2025, arXiv 2505.03031).  Public sources (the author's poster, section 3; the review at
themoonlight.io) give the problem: bit depths B_n of N weight groups of P_n weights each minimise
the output distortion subject to the average bit depth R,

    minimise  sum_n P_n d_n(B_n)   subject to   sum_n P_n B_n = R sum_n P_n,

with the distortion model d_n(B_n) = G_n^2 S_n^2 2^{-2 B_n} (G_n^2 the variance of the output
gradient with respect to the group's weights, S_n^2 the weights' variance), and state the
optimality condition: every group's distortion slope equals -V (per weight), the multiplier V
fixed by the rate.  With B_n >= 0 this is reverse water-filling: B_n = max(0, log2(w_n / theta)/2),
w_n = G_n^2 S_n^2, theta the water level (Huang & Schultheiss 1963; Gersho & Gray 1992, sec. 8.3;
Cover & Thomas, Thm 10.3.3).  Without clipping B_n = R + log2(w_n / GM)/2 with GM the
P-weighted geometric mean of the w_n, and the distortion is (sum P_n) GM 2^{-2R} against
(sum P_n) AM 2^{-2R} for the uniform depth R: a gain of AM/GM.
"""

from __future__ import annotations

import numpy as np


def _inputs(sizes, sensitivities) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(sizes, dtype=float)
    w = np.asarray(sensitivities, dtype=float)
    if p.ndim != 1 or p.shape != w.shape or p.size == 0 or np.any(p <= 0) or np.any(w <= 0) \
            or not np.all(np.isfinite(p)) or not np.all(np.isfinite(w)):
        raise ValueError("sizes and sensitivities must be positive finite 1-D arrays of one length")
    return p, w


def model_distortion(sizes, sensitivities, bits) -> float:
    """sum_n P_n w_n 2^{-2 B_n} (the distortion model, w_n = G_n^2 S_n^2)."""
    p, w = _inputs(sizes, sensitivities)
    b = np.asarray(bits, dtype=float)
    if b.shape != p.shape:
        raise ValueError("bits must have one entry per group")
    return float(np.sum(p * w * 2.0 ** (-2 * b)))


def reverse_water_filling(sizes, sensitivities, rate: float, tol: float = 1e-13) -> tuple[np.ndarray, float]:
    """Optimal continuous bit depths B_n >= 0 with sum P_n B_n = rate sum P_n, and the water level theta.

    B_n = max(0, log2(w_n/theta)/2), theta found by bisection on log theta (the rate is decreasing in theta).

    Raises:
        ValueError: on bad inputs or a negative rate.
    """
    p, w = _inputs(sizes, sensitivities)
    if not rate >= 0:
        raise ValueError(f"rate must be non-negative, got {rate}")
    total = rate * p.sum()

    def spent(log_theta: float) -> float:
        return float(np.sum(p * np.maximum(0.0, (np.log2(w) - log_theta / np.log(2)) / 2)))

    lo, hi = np.log(w.min()) - 2 * np.log(2) * (rate + 1) * p.sum() / p.min(), np.log(w.max())
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        if spent(mid) > total:
            lo = mid
        else:
            hi = mid
        if hi - lo < tol:
            break
    # the bisection fixes the active set; on it the water level solves a linear equation exactly
    active = np.log2(w) > 0.5 * (lo + hi) / np.log(2)
    if not np.any(active):
        return np.zeros_like(w), float(w.max())
    log2_theta = (p[active] @ np.log2(w[active]) - 2 * total) / p[active].sum()
    bits = np.where(active, (np.log2(w) - log2_theta) / 2, 0.0)
    return np.maximum(bits, 0.0), float(2.0**log2_theta)


def weighted_am_gm(sizes, sensitivities) -> tuple[float, float]:
    """P-weighted arithmetic and geometric means of the sensitivities w_n."""
    p, w = _inputs(sizes, sensitivities)
    q = p / p.sum()
    return float(q @ w), float(np.exp(q @ np.log(w)))


def greedy_integer_allocation(sizes, sensitivities, rate: int, max_bits: int = 16) -> np.ndarray:
    """Integer bit depths with sum P_n B_n <= rate sum P_n minimising the model distortion, for equal P_n.

    Marginal-return greedy (Fox 1966): add one bit at a time to the group whose distortion falls most;
    optimal for separable convex decreasing distortions with equal group sizes.

    Raises:
        ValueError: unless the group sizes are equal and rate is a non-negative integer.
    """
    p, w = _inputs(sizes, sensitivities)
    if np.ptp(p) > 0:
        raise ValueError("the greedy integer allocation here assumes equal group sizes")
    if int(rate) != rate or rate < 0:
        raise ValueError("rate must be a non-negative integer")
    bits = np.zeros(p.size, dtype=int)
    for _ in range(int(rate) * p.size):
        gain = w * 2.0 ** (-2 * bits) * 0.75
        gain[bits >= max_bits] = -np.inf
        bits[int(np.argmax(gain))] += 1
    return bits


def convex_bit_allocation(sizes, sensitivities, rate: float, solver: str = "CLARABEL"):
    """The allocation problem solved as a convex program by cvxpy (exponential cone), independently
    of the closed form: minimise sum P_n w_n exp(-2 ln2 B_n) s.t. sum P_n B_n = rate sum P_n, B >= 0.

    CLARABEL is asked for gaps and feasibility of 1e-10 (at its default 1e-8 its error on these
    exponential-cone programs was seen to exceed 3e-8 max(1, |value|) by up to 3.5 times); when it
    cannot reach them it is run again at its defaults.

    Returns:
        (problem, bits, tolerance): the solved ``cvxpy.Problem`` (its value is the optimal
        distortion), the optimal bit depths, and the Clarabel stopping tolerance the solve met
        (1e-10, or 1e-8 when run again at the defaults; None for another solver).
    Raises:
        ValueError: on bad inputs.
    """
    import cvxpy as cp

    p, w = _inputs(sizes, sensitivities)
    b = cp.Variable(p.size)
    objective = cp.Minimize(cp.sum(cp.multiply(p * w, cp.exp(-2 * np.log(2) * b))))
    problem = cp.Problem(objective, [p @ b == rate * p.sum(), b >= 0])
    if solver == "CLARABEL":
        import warnings

        with warnings.catch_warnings():   # an inaccurate tight solve is expected now and then: solved again below
            warnings.simplefilter("ignore", UserWarning)
            problem.solve(solver=solver, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
        if problem.status == "optimal":
            return problem, np.asarray(b.value, dtype=float), 1e-10
    problem.solve(solver=solver)
    return problem, np.asarray(b.value, dtype=float), 1e-8 if solver == "CLARABEL" else None
