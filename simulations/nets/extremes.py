"""Expected logarithm of the maximum of ``m`` i.i.d. copies of a random variable, from its law.

Used to fix, before any run, the finite-width bias of rate fits whose cost is a maximum over
the ``m`` neurons of a network (the output-Hessian norms of wide FNOs and DeepONets): the slope of
``E log max_{c <= m} h_c`` against ``log m`` over the widths of a fit is the allowance of the fit.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri


def half_normal_quantiles(count: int) -> np.ndarray:
    """The ``count`` midpoint quantiles of ``|N(0, 1)|``: ``Phi^{-1}(1/2 + (k - 1/2) / (2 count))``.

    Each carries probability ``1/count``; used as an equal-weight quadrature of ``|N(0, 1)|``.
    """
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count}")
    return ndtri(0.5 + (np.arange(count) + 0.5) / (2 * count))


def expected_log_max_discrete(values, widths) -> np.ndarray:
    """``E log max_{c <= m} X_c`` for each ``m`` in ``widths``, ``X`` uniform on ``values``.

    With the values sorted, ``P(max = x_(j)) = (j/K)^m - ((j-1)/K)^m``.  When ``values`` are the
    images ``h(q_k)`` of equal-probability quantiles ``q_k`` of a continuous law, this is a
    quadrature of the continuous expectation; near a smooth maximum of ``h`` its error is of the
    order of ``h''`` times the squared quantile spacing there.

    Raises:
        ValueError: if some value is not positive.
    """
    x = np.sort(np.asarray(values, dtype=float).ravel())
    if x.size == 0 or x[0] <= 0:
        raise ValueError("values must be positive")
    K = x.size
    logs = np.log(x)
    frac = np.arange(K + 1) / K
    out = []
    for m in np.atleast_1d(widths):
        cdf = frac ** float(m)
        out.append(float(logs @ np.diff(cdf)))
    return np.array(out)


def expected_log_max_from_cdf(t, cdf, widths) -> np.ndarray:
    """``E log max_{c <= m} X_c`` for positive ``X`` with distribution function ``cdf`` on the
    increasing grid ``t``, for each ``m`` in ``widths``.

    Uses ``E log M = log t_0 + int_{t_0}^{t_end} (1 - F(s)^m) / s ds`` (valid when ``F(t_0)^m`` is
    negligible and ``F(t_end)^m`` is 1 to rounding), with the trapezoid rule in ``log s``.

    Raises:
        ValueError: for a grid that is not increasing and positive, or a cdf outside [0, 1].
    """
    t = np.asarray(t, dtype=float)
    F = np.asarray(cdf, dtype=float)
    if t.ndim != 1 or t.size < 2 or t[0] <= 0 or np.any(np.diff(t) <= 0) or F.shape != t.shape:
        raise ValueError("t must be a positive increasing grid with one cdf value per point")
    if np.any(F < -1e-12) or np.any(F > 1 + 1e-12):
        raise ValueError("cdf values must lie in [0, 1]")
    F = np.clip(F, 0.0, 1.0)
    u = np.log(t)
    out = []
    for m in np.atleast_1d(widths):
        g = 1.0 - F ** float(m)
        out.append(float(u[0] + np.sum(0.5 * (g[1:] + g[:-1]) * np.diff(u))))
    return np.array(out)
