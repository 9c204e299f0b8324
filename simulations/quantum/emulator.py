r"""Emulator of Jordan's gradient circuit for sizes no statevector simulator reaches.

For a phase that is linear on the grid, ``exp(2 pi i m k / N)`` on each register with a real
bin position ``m = N d_j f / (2M)``, the inverse QFT leaves register ``j`` in a product state
whose outcome ``g`` has the Fejer-kernel law

    P(g) = F_N(m - g),   F_N(t) = sin^2(pi t) / (N^2 sin^2(pi t / N)),   F_N(0) = 1,

and the registers are independent (Jordan 2005; the kernel sums to one over the N residues).
This is exact for linear f.  For an ell-smooth f the quadratic term adds a phase of at most
``pi N ell h d / (16 M)`` radians; the emulator takes the exact gradient at the query point, so
it presumes a grid width h small enough for that phase to be negligible (h <= 1e-3 M/(N ell d)
keeps it below 2e-4 rad) and does not model the curvature error.
:func:`emulated_probabilities` builds the whole distribution (the test suite checks it against
Aer on every size both run); :func:`sample_outcomes` draws exact single-run samples and
:func:`sample_median_outcomes` draws the median of R runs directly (one Beta variate and one
quantile of the law), for registers of up to 62 qubits.

Boosting: the median of ``R`` (odd) runs lies in ``[floor(m), ceil(m)]`` exactly when fewer
than half of the runs fall on either side of it; with independent registers all ``d``
coordinates are within one bin with probability ``median_success(...)^d``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


def fejer_kernel(t, N: int) -> np.ndarray:
    """``F_N(t) = sin^2(pi t) / (N^2 sin^2(pi t / N))`` with ``F_N = 1`` at multiples of N.

    Args:
        t: real offsets (bins), any shape.
        N: register size ``2^n`` (>= 1).
    """
    if N < 1:
        raise ValueError(f"N must be a positive integer, not {N!r}")
    t = np.asarray(t, dtype=float)
    num = np.sin(np.pi * t) ** 2
    den = (N * np.sin(np.pi * t / N)) ** 2
    near = np.abs(np.remainder(t + N / 2, N) - N / 2) < 1e-12
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(near, 1.0, num / np.where(near, 1.0, den))
    return out


def register_distribution(m: float, n: int) -> np.ndarray:
    """Exact outcome distribution of one register (outcomes 0..N-1) for bin position ``m``."""
    N = 2**n
    return fejer_kernel(m - np.arange(N), N)


def emulated_probabilities(ms, n: int) -> np.ndarray:
    """Distribution of the whole d-register output for linear phases, in qiskit basis order.

    Args:
        ms: bin positions, shape (d,): register j carries ``exp(2 pi i m_j k / N)``.
        n: qubits per register.

    Returns:
        Array of shape (N^d,), the Kronecker product (register d-1 most significant).
    """
    ms = np.atleast_1d(np.asarray(ms, dtype=float))
    out = np.ones(1)
    for m in ms:  # register 0 is least significant: kron(new, old)
        out = np.kron(register_distribution(m, n), out)
    return out


def linear_phases(ms, n: int) -> np.ndarray:
    """Phases ``2 pi sum_j m_j k_j / N`` on the grid, qiskit basis order (the linear-f oracle)."""
    ms = np.atleast_1d(np.asarray(ms, dtype=float))
    N = 2**n
    d = ms.size
    idx = np.arange(N**d)
    ks = np.stack([(idx // N**j) % N for j in range(d)], axis=1)
    return 2 * np.pi * (ks @ ms) / N


def single_run_success(offset, N: int) -> np.ndarray:
    """P(|g - m| <= 1) for one register, fractional part ``offset`` of m in [0, 1).

    For a non-integer m the outcomes within one bin are floor(m) and ceil(m); for an integer m
    they are m - 1, m, m + 1.
    """
    f = np.asarray(offset, dtype=float)
    if np.any((f < 0) | (f >= 1)):
        raise ValueError("offset must lie in [0, 1)")
    two = fejer_kernel(f, N) + fejer_kernel(f - 1, N)
    return np.where(f == 0, fejer_kernel(0.0, N) + 2 * fejer_kernel(1.0, N), two)


def worst_case_success(N: int) -> float:
    """Single-run success at the worst offset 1/2: ``2 F_N(1/2) = 2 / (N^2 sin^2(pi / 2N))``."""
    return float(2 * fejer_kernel(0.5, N))


def median_success(p_below: float, p_above: float, runs: int) -> float:
    """Probability that the median of ``runs`` (odd) runs lies within one bin of m.

    The median lies in the interval ``[floor(m), ceil(m)]`` exactly when fewer than half of the
    runs fall below it and fewer than half above; for odd ``runs`` the two failures are
    disjoint, so the probability is ``1 - P(Bin(R, p_below) > R/2) - P(Bin(R, p_above) > R/2)``.

    Args:
        p_below, p_above: single-run probabilities of an outcome below / above the interval.
        runs: odd number of runs.
    """
    if runs < 1 or runs % 2 == 0:
        raise ValueError(f"runs must be a positive odd integer, not {runs}")
    k = runs // 2
    return float(1.0 - stats.binom.sf(k, runs, p_below) - stats.binom.sf(k, runs, p_above))


def worst_case_tails(N: int) -> tuple[float, float]:
    """Single-run probabilities below / above ``[floor(m), ceil(m)]`` at the worst offset 1/2.

    The kernel is symmetric about ``m`` there, so both equal ``(1 - 2 F_N(1/2)) / 2``.
    """
    t = (1.0 - worst_case_success(N)) / 2.0
    return t, t


def boosting_runs(d: int, delta: float, N: int, max_runs: int = 100001) -> int:
    """Smallest odd R whose median puts all ``d`` coordinates within one bin w.p. >= 1 - delta.

    Uses the worst offset (1/2) in every coordinate and independent registers:
    ``median_success(worst_case_tails(N), R)^d >= 1 - delta``.  This is the number of oracle
    queries per gradient estimate.

    Raises:
        ValueError: for delta outside (0, 1), d < 1 or no R up to ``max_runs``.
    """
    if not 0 < delta < 1:
        raise ValueError(f"delta must lie in (0, 1), not {delta}")
    if d < 1:
        raise ValueError(f"d must be at least 1, not {d}")
    lo, hi = worst_case_tails(N)
    target = np.log1p(-delta) / d
    R = 1
    while R <= max_runs:
        if np.log(max(median_success(lo, hi, R), 1e-300)) >= target:
            return R
        R += 2
    raise ValueError(f"no odd R <= {max_runs} reaches failure probability {delta} at d={d}")


def exact_median_success(offset: float, N: int, runs: int) -> float:
    """``median_success`` at any fractional offset, from the full kernel (for N <= 2^16)."""
    if N > 2**16:
        raise ValueError("exact_median_success sums the whole kernel; use N <= 2^16")
    js = np.arange(-N // 2 + 1, N // 2 + 1)
    p = fejer_kernel(offset - js, N)
    lo_edge, hi_edge = (0, 1) if offset > 0 else (-1, 1)
    return median_success(float(p[js < lo_edge].sum()), float(p[js > hi_edge].sum()), runs)


# --------------------------------------------------------------------------- exact sampling
def _tail_envelope_sample(rng, b, u0, size):
    """Integer u >= u0 with P(U > u) = (u0 + b - 1) / (u + b) (telescoping envelope)."""
    v = 1.0 - rng.random(size)  # in (0, 1]
    return np.floor((u0 + b - 1) / v - b).astype(np.int64) + 1


def sample_outcomes(m, n: int, rng: np.random.Generator, window: int = 16) -> np.ndarray:
    """Exact samples of one-register outcomes (signed, in [-N/2, N/2)) for bin positions ``m``.

    Outcomes within ``window`` bins of ``m`` are drawn from the exact kernel; the rest (the tail,
    of exact mass one minus the window) by rejection from the envelope
    ``F_N(t) <= sin^2(pi t) / (4 t^2)``, valid for ``|t| <= N/2``.  Exact for every N.

    Args:
        m: bin positions, any shape, with ``|m| < N/2``.
        n: qubits per register (<= 62).
        rng: numpy Generator.
        window: half-width of the exactly tabulated window (>= 2).
    """
    if not 1 <= n <= 62:
        raise ValueError(f"n must lie in [1, 62], not {n}")
    if window < 2:
        raise ValueError(f"window must be at least 2, not {window}")
    N = 2**n
    m = np.asarray(m, dtype=float)
    shape = m.shape
    m = m.ravel()
    if np.any(np.abs(m) >= N / 2):
        raise ValueError("bin positions must satisfy |m| < N/2 (gradient within the range M)")
    m0 = np.floor(m)
    f = m - m0
    if N <= 2 * window:
        js = np.arange(-N // 2 + 1, N // 2 + 1)
    else:
        js = np.arange(-window + 1, window + 1)
    # sin^2(pi (f - j)) = sin^2(pi f) for integer j: only the denominator varies in the window.
    s2f = np.sin(np.pi * f) ** 2
    den = (N * np.sin(np.pi * (f[:, None] - js[None, :]) / N)) ** 2
    exact = f == 0
    den[exact] = 1.0
    pmf = s2f[:, None] / den
    if np.any(exact):
        pmf[exact] = (js == 0).astype(float)
    cdf = np.cumsum(pmf, axis=1)
    u = rng.random(m.size)
    inside = u < cdf[:, -1]
    pick = np.minimum((cdf < u[:, None]).sum(axis=1), js.size - 1)
    j = js[pick]
    tail = np.flatnonzero(~inside)
    if tail.size and N > 2 * window:
        s2 = np.sin(np.pi * f[tail]) ** 2
        ft = f[tail]
        e_right = s2 / 4 / (window - ft)  # u = j >= window + 1, t = j - f
        e_left = s2 / 4 / (window + ft - 1)  # u = -j >= window, t = f + u
        out = np.empty(tail.size, dtype=np.int64)
        todo = np.arange(tail.size)
        while todo.size:
            right = rng.random(todo.size) < e_right[todo] / (e_right[todo] + e_left[todo])
            b = np.where(right, -ft[todo], ft[todo])
            u0 = np.where(right, window + 1, window)
            uu = _tail_envelope_sample(rng, b, u0, todo.size)
            jj = np.where(right, uu, -uu)
            ok_range = (jj <= N // 2) & (jj >= -N // 2 + 1)
            t = np.abs(jj - ft[todo])
            env = s2[todo] / 4 / ((t - 1) * t)
            with np.errstate(invalid="ignore"):
                acc = ok_range & (rng.random(todo.size) * env <= fejer_kernel(ft[todo] - jj, N))
            out[todo[acc]] = jj[acc]
            todo = todo[~acc]
        j = j.copy()
        j[tail] = out
    g = (m0.astype(np.int64) + j)
    g = np.mod(g + N // 2, N) - N // 2
    return g.reshape(shape)


EXACT_QUANTILE_MAX_N = 2**10
_TRIGAMMA_SHIFT = 10.0  # the asymptotic series is used from here on
_TRIGAMMA_STEPS = np.arange(10.0)  # the recurrence's ten steps below the shift


def trigamma(x) -> np.ndarray:
    """Trigamma ``psi'(x) = sum_{k >= 0} 1 / (k + x)^2`` for x > 0 (elementwise).

    Ten steps of the recurrence ``psi'(x) = 1/x^2 + psi'(x + 1)`` move every argument below 10
    to at least 10, where the asymptotic series ``1/x + 1/(2x^2) + sum_k B_2k / x^(2k+1)``
    (Bernoulli numbers up to B_10) is accurate to about 1e-14 relative: the values of
    ``scipy.special.polygamma(1, x)`` to 1e-12 (unit test), a few times faster on the arrays of
    the samplers.

    Raises:
        ValueError: for a non-positive argument.
    """
    x = np.asarray(x, dtype=float)
    if np.any(x <= 0):
        raise ValueError("trigamma is evaluated here for positive arguments only")
    small = x < _TRIGAMMA_SHIFT
    if small.all():  # the samplers' case: arguments in (0, 2]
        acc = (1.0 / (x[..., None] + _TRIGAMMA_STEPS) ** 2).sum(axis=-1)
        y = x + _TRIGAMMA_SHIFT
    else:
        acc = np.zeros_like(x)
        y = x.copy()
        xs = x[small]
        acc[small] = (1.0 / (xs[:, None] + _TRIGAMMA_STEPS) ** 2).sum(axis=1)
        y[small] = xs + _TRIGAMMA_SHIFT
    z = 1.0 / y
    z2 = z * z
    tail = z * z2 * (1 / 6 - z2 * (1 / 30 - z2 * (1 / 42 - z2 * (1 / 30 - z2 * 5 / 66))))
    return acc + z + z2 / 2 + tail


def _sinc2_cdf(j: np.ndarray, f: np.ndarray) -> np.ndarray:
    """CDF of the N -> infinity kernel ``sin^2(pi f) / (pi^2 (j - f)^2)`` at integer offsets j.

    ``P(offset <= j) = s psi'(f - j)`` for ``j <= -1`` and ``1 - s psi'(j + 1 - f)`` for
    ``j >= 0``, with ``s = sin^2(pi f) / pi^2`` and trigamma ``psi'`` (the series
    ``sum_{k >= 0} 1 / (k + x)^2``).
    """
    s = np.sin(np.pi * f) ** 2 / np.pi**2
    left = j <= -1
    x = np.where(left, f - j, j + 1 - f)
    x = np.where(x > 0, x, 1.0)  # f = 0, j = 0: no mass off the centre, any positive x
    val = s * trigamma(x)
    return np.where(left, val, 1.0 - val)


def _kernel_quantile(m: np.ndarray, q: np.ndarray, N: int) -> np.ndarray:
    """Signed outcome g in [-N/2, N/2): the smallest with ``P(outcome <= g) >= q``, per row.

    For ``N <= EXACT_QUANTILE_MAX_N`` the finite-N kernel is tabulated (exact).  For larger N
    the kernel is replaced by its N -> infinity limit (the squared sinc law, whose CDF has the
    closed form of :func:`_sinc2_cdf`); the two laws differ by at most ``2 / N`` in total
    variation (``1/sin^2 x - 1/x^2 <= 1/3 + x^2/15`` on the N residues, plus the sinc mass beyond
    them), i.e. below 2e-6 for the n >= 20 qubits the algorithms use.
    """
    if N <= EXACT_QUANTILE_MAX_N:
        g = np.arange(-N // 2, N // 2)
        out = np.empty(m.size, dtype=np.int64)
        step = max(1, 2**21 // N)  # rows per block: at most 2M tabulated entries
        for s0 in range(0, m.size, step):
            sl = slice(s0, s0 + step)
            cdf = np.cumsum(fejer_kernel(m[sl, None] - g[None, :], N), axis=1)
            out[sl] = g[np.minimum((cdf < q[sl, None]).sum(axis=1), N - 1)]
        return out
    m0 = np.floor(m)
    f = m - m0
    s = np.sin(np.pi * f) ** 2 / np.pi**2
    # Fast path: the two central offsets 0 and 1 (all but a fraction ~1/R^2 of the medians).
    z = s * trigamma(np.stack([1.0 + f, np.where(f > 0, 1.0 - f, 1.0), 2.0 - f]))
    c_left, c_zero, c_one = z[0], 1.0 - z[1], 1.0 - z[2]
    central = (q > c_left) & (q <= c_one)
    if central.all():
        return np.clip(m0.astype(np.int64) + (q > c_zero), -N // 2, N // 2 - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        # trigamma(x) ~ 1/(x - 1/2) for large x: invert the tail CDFs to within a step or two
        x_left = np.where(s > 0, s / np.maximum(q, 1e-300), np.inf) + 0.5
        x_right = np.where(s > 0, s / np.maximum(1.0 - q, 1e-300), np.inf) + 0.5
    est = np.where(q <= c_left, np.floor(f - x_left),
                   np.where(q <= c_zero, 0, np.ceil(x_right - 1 + f)))
    est = np.clip(np.nan_to_num(est, nan=0.0, posinf=N, neginf=-N), -N, N).astype(np.int64)
    cand = est[:, None] + np.arange(-3, 4)[None, :]
    ok = _sinc2_cdf(cand, f[:, None]) >= q[:, None]
    first = np.argmax(ok, axis=1)
    j = np.where(ok.any(axis=1), cand[np.arange(m.size), first], cand[:, -1])
    g = m0.astype(np.int64) + j
    return np.clip(g, -N // 2, N // 2 - 1)


def sample_median_outcomes(m, n: int, runs: int, rng: np.random.Generator) -> np.ndarray:
    """Exact samples of the median of ``runs`` (odd) independent outcomes, per register.

    The median of ``R`` i.i.d. draws from a distribution with CDF ``F`` is ``F^{-1}(B)`` with
    ``B ~ Beta((R+1)/2, (R+1)/2)`` (the middle order statistic of R uniforms), so one Beta draw
    and one quantile replace R samples.  Signed outcomes in [-N/2, N/2).

    Args:
        m: bin positions, shape (d,), ``|m| < N/2``.
        n: qubits per register (<= 62); runs: odd number of runs; rng: numpy Generator.
    """
    if runs < 1 or runs % 2 == 0:
        raise ValueError(f"runs must be a positive odd integer, not {runs}")
    if not 1 <= n <= 62:
        raise ValueError(f"n must lie in [1, 62], not {n}")
    N = 2**n
    m = np.atleast_1d(np.asarray(m, dtype=float))
    if np.any(np.abs(m) >= N / 2):
        raise ValueError("bin positions must satisfy |m| < N/2 (gradient within the range M)")
    b = rng.beta((runs + 1) / 2, (runs + 1) / 2, size=m.size)
    if m.size <= SCALAR_PATH_MAX_D and N > EXACT_QUANTILE_MAX_N:
        return _scalar_quantiles(m, b, N)
    return _kernel_quantile(m, b, N)


SCALAR_PATH_MAX_D = 8


def _scalar_quantiles(m: np.ndarray, q: np.ndarray, N: int) -> np.ndarray:
    """:func:`_kernel_quantile` for a few registers with Python scalars (same values, less
    overhead): the central offsets 0 and 1 directly, anything else through the array path."""
    from scipy.special import zeta

    out = np.empty(m.size, dtype=np.int64)
    for i in range(m.size):
        mi, qi = float(m[i]), float(q[i])
        m0 = math.floor(mi)
        f = mi - m0
        s = math.sin(math.pi * f) ** 2 / math.pi**2
        c_left = s * zeta(2.0, 1.0 + f)
        c_zero = 1.0 - s * zeta(2.0, 1.0 - f) if f > 0 else 1.0
        c_one = 1.0 - s * zeta(2.0, 2.0 - f)
        if c_left < qi <= c_one:
            out[i] = min(max(m0 + (1 if qi > c_zero else 0), -N // 2), N // 2 - 1)
        else:
            out[i] = _kernel_quantile(np.array([mi]), np.array([qi]), N)[0]
    return out


def median_gradient_estimate(grad, n: int, M: float, runs: int, rng: np.random.Generator,
                             bias_bins=0.0) -> np.ndarray:
    """Emulated Jordan estimate: coordinatewise median of ``runs`` runs; costs ``runs`` queries.

    Args:
        grad: exact gradient at the query point, shape (d,), with ``|grad_j| < M``.
        n: qubits per register; M: range bound.
        runs: number of runs (odd).
        rng: numpy Generator.
        bias_bins: shift of every register's bin position (an oracle noise converted to a
            gradient bias, in bins), scalar or shape (d,).

    Returns:
        The estimate, shape (d,): ``2 M median(g) / N``, sampled exactly through
        :func:`sample_median_outcomes`.
    """
    grad = np.atleast_1d(np.asarray(grad, dtype=float))
    N = 2**n
    m = N * grad / (2.0 * M) + np.asarray(bias_bins, dtype=float)
    return 2.0 * M * sample_median_outcomes(m, n, runs, rng) / N
