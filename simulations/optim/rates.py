"""Reductions of optimisation trajectories used by rate theorems."""

from __future__ import annotations

import numpy as np


def tightest_best_iterate(measure: np.ndarray, constant: float) -> tuple[int, float, float]:
    """Where a best-iterate guarantee ``min_{k<T} measure_k <= constant / T`` is tightest.

    Nonconvex rate theorems bound the best stationarity measure of the first ``T`` iterates by
    ``constant / T`` for every ``T``; the guarantee holds for all ``T`` exactly when it holds at
    the ``T`` maximising the ratio of the two sides, which is what this returns.

    Args:
        measure: shape (K,), the stationarity measure of iterates 0..K-1 (e.g.
            ``s_k^2 / ell(2 s_k)``), finite.
        constant: the numerator of the bound (e.g. ``2 (f(x_0) - f*)``), > 0.

    Returns:
        ``(T, min_{k<T} measure_k, constant / T)`` at the tightest ``T`` in 1..K.

    Raises:
        ValueError: for an empty measure or a non-positive constant.
    """
    measure = np.asarray(measure, dtype=float)
    if measure.size == 0 or not constant > 0:
        raise ValueError(f"need a non-empty measure and a positive constant, got {measure.size} values "
                         f"and constant {constant}")
    running = np.minimum.accumulate(measure)
    bound = constant / np.arange(1, measure.size + 1)
    w = int(np.argmax(running / bound))
    return w + 1, float(running[w]), float(bound[w])
