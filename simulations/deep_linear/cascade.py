r"""The period-doubling cascade of the balanced scalar dynamics of one singular mode.

For the map :math:`F_\eta(x) = x + \eta(s - x^L)x^{L-1}` (:func:`factorization.balanced_map`) the
fixed point :math:`s^{1/L}` loses stability at :math:`\eta_1 = 2/(L s^{2-2/L})`; a two-cycle takes
over, which loses stability at :math:`\eta_2`, a four-cycle at :math:`\eta_3`, and so on.  The
onsets :math:`\eta_n` (where the :math:`2^{n-1}`-cycle's multiplier :math:`\prod_k F'(x_k)` reaches
-1) are found by Newton's method on :math:`F^{p}(x) = x` and Brent's method on the multiplier; the
ratios of successive gaps approach Feigenbaum's constant 4.6692... when the cascade is the
universal one of maps with a quadratic extremum.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize

from .factorization import balanced_map

__all__ = ["FEIGENBAUM_DELTA", "attractor_period", "cycle_multiplier", "feigenbaum_ratios",
           "period_doubling_onsets"]

FEIGENBAUM_DELTA = 4.669201609102990  # Feigenbaum (1978); OEIS A006890


def _derivative(x: np.ndarray, eta: float, s: float, depth: int) -> np.ndarray:
    return 1 + eta * ((depth - 1) * s * x ** (depth - 2) - (2 * depth - 1) * x ** (2 * depth - 2))


def _orbit(x: float, eta: float, s: float, depth: int, period: int) -> np.ndarray:
    pts = np.empty(period)
    for k in range(period):
        pts[k] = x
        x = float(balanced_map(x, eta, s, depth))
    return pts


def cycle_multiplier(x0: float, eta: float, s: float, depth: int, period: int,
                     tol: float = 1e-13) -> tuple[float, float]:
    """A point of the ``period``-cycle near ``x0`` (Newton on :math:`F^{p}(x) - x`) and the cycle's
    multiplier :math:`\\prod_k F'(x_k)`.

    Raises:
        ValueError: when Newton's method does not converge to a cycle of exactly that period.
    """
    x = float(x0)
    for _ in range(100):
        pts = _orbit(x, eta, s, depth, period)
        end = float(balanced_map(pts[-1], eta, s, depth))
        if abs(end - x) <= tol * max(1.0, abs(x)):
            break
        lam = float(np.prod(_derivative(pts, eta, s, depth)))
        x -= (end - x) / (lam - 1.0)
    else:
        raise ValueError(f"Newton's method did not converge to a {period}-cycle at eta = {eta!r}")
    pts = _orbit(x, eta, s, depth, period)
    if period > 1 and np.min(np.abs(pts[1:] - pts[0])) < 1e-9 * max(1.0, abs(x)):
        raise ValueError(f"the cycle found at eta = {eta!r} has a period shorter than {period}")
    return x, float(np.prod(_derivative(pts, eta, s, depth)))


def attractor_period(eta: float, s: float, depth: int, transient: int = 20000, max_period: int = 256,
                     tol: float = 1e-9, x0: float | None = None) -> int:
    """The period of the attractor of :math:`F_\\eta` reached from ``x0`` (default: 0.9 s^{1/L}).

    Returns the smallest p <= ``max_period`` with :math:`|x_{t+p} - x_t| \\le` tol (relative to
    :math:`s^{1/L}`) over ``2 max_period`` iterates after the transient, 0 when none (chaos or a
    longer period), and -1 when the iterates diverge.
    """
    fixed = s ** (1.0 / depth)
    x = 0.9 * fixed if x0 is None else float(x0)
    for _ in range(transient):
        x = float(balanced_map(x, eta, s, depth))
        if not np.isfinite(x) or abs(x) > 1e6 * fixed:
            return -1
    tail = _orbit(x, eta, s, depth, 3 * max_period)
    if not np.all(np.isfinite(tail)):
        return -1
    for p in range(1, max_period + 1):
        if np.max(np.abs(tail[p:p + 2 * max_period] - tail[:2 * max_period])) <= tol * fixed:
            return p
    return 0


def period_doubling_onsets(s: float, depth: int, levels: int) -> np.ndarray:
    """Step sizes :math:`\\eta_1 < \\dots < \\eta_{levels}` at which the attractor's period doubles.

    :math:`\\eta_1 = 2/(L s^{2-2/L})` (the fixed point's multiplier :math:`1 - \\eta L s^{2-2/L}`
    reaches -1); each next onset is the root, by Brent's method, of multiplier + 1 of the cycle
    continued by Newton's method from the middle of its window.

    Raises:
        ValueError: for depth < 2 (the map is then linear: no cascade) or when a window is not found.
    """
    if depth < 2:
        raise ValueError("the balanced map of a depth-1 factorization is linear: it has no period doubling")
    fixed = s ** (1.0 / depth)
    onsets = [2.0 / (depth * s ** (2.0 - 2.0 / depth))]
    gap = 0.05 * onsets[0]
    x_prev = 0.9 * fixed  # off the (unstable) fixed point
    for n in range(2, levels + 1):
        period = 2 ** (n - 1)
        # inside the window of the 2^(n-1)-cycle: scan up from the last onset
        eta_in, x_in = None, None
        for frac in np.linspace(0.05, 3.0, 120):
            eta = onsets[-1] + frac * gap
            if attractor_period(eta, s, depth, transient=4000 + 400 * period, max_period=period,
                                x0=x_prev) == period:
                x = x_prev
                for _ in range(4000 + 400 * period):
                    x = float(balanced_map(x, eta, s, depth))
                try:
                    x, lam = cycle_multiplier(x, eta, s, depth, period)
                except ValueError:
                    continue
                if -1 < lam < 1:
                    eta_in, x_in = eta, x
                    break
        if eta_in is None:
            raise ValueError(f"no window of period {period} found after eta = {onsets[-1]!r}")
        # step up, continuing the cycle, until its multiplier drops below -1
        eta_out, x_cur, lam = eta_in, x_in, 0.0
        path = [(eta_in, x_in)]
        while lam > -1:
            eta_out += 0.02 * gap
            x_cur, lam = cycle_multiplier(x_cur, eta_out, s, depth, period)
            path.append((eta_out, x_cur))
        etas_path = np.array([e for e, _ in path])

        def f(eta: float, period: int = period, path: list = path, etas_path: np.ndarray = etas_path) -> float:
            start = path[int(np.argmin(np.abs(etas_path - eta)))][1]  # continue from the nearest known cycle
            return cycle_multiplier(start, eta, s, depth, period)[1] + 1.0

        eta_in = path[-2][0]

        root = optimize.brentq(f, eta_in, eta_out, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
        gap = root - onsets[-1]
        onsets.append(root)
        x_prev = x_in * (1 - 1e-3)  # off the cycle, which is unstable beyond the onset
    return np.asarray(onsets)


def feigenbaum_ratios(onsets) -> np.ndarray:
    """:math:`\\delta_n = (\\eta_n - \\eta_{n-1}) / (\\eta_{n+1} - \\eta_n)` for consecutive onsets."""
    e = np.asarray(onsets, dtype=float)
    g = np.diff(e)
    return g[:-1] / g[1:]
