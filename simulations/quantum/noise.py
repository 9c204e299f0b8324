r"""Noise robustness of perturbed gradient descent driven by noisy oracles: the largest tolerated
noise, measured by bisection on the success rate.

Source: Gong, Zhang, Li, "Robustness of Quantum Algorithms for Nonconvex Optimization" (ICLR
2025, arXiv:2212.02548), abstract: PGD with quantum gradient estimation stays correct up to
zeroth-order noise ``O(eps^6/d^4)`` and first-order noise ``O(eps/d^{0.5+zeta})``; PAGD up to
``O(eps^10/d^5)``.  These are sufficient conditions with hidden constants.

Adversaries (both bounded by the noise level and aimed at the saddle escape):

* zeroth order, "trap": ``e(x) = nu' sign(x_d) (2 frac(x_d / h) - 1)``, a sawtooth of period
  equal to the side ``h`` of Jordan's sampled cube.  On the grid its phase ``2 pi S e`` is
  linear with slope ``2 S nu'`` bins per register span, and when ``2 S nu' = k`` is an integer
  the wrap-around jump is a multiple of ``2 pi``: the oracle acts on the circuit exactly as a
  shift of the escape register's bin position by ``k sign(x_d)`` (a restoring gradient bias of
  ``k`` bins ``= 2 nu' / h``).  Under a noise budget ``nu`` the adversary plays the largest such
  exact trap, ``k = floor(nu / nu_bin)`` with ``nu_bin = M h / N`` (so ``|e| <= nu' <= nu``), and
  noise levels are real numbers bisected in function-value units.  The sign is taken at the
  query point: the cube (side ``h ~ 1e-8``) does not straddle ``x_d = 0`` once a perturbation
  (radius ``~1e-5``) has moved the iterate off the saddle.  At the saddle itself the emulator
  applies no shift, a simplification: there the fixed sawtooth is a V on the cube, whose output
  law is bimodal at about ``+-k`` bins (its median is ``+-k``, rarely 0); on these runs that
  changes success counts within their sampling scatter.
* first order: the gradient oracle returns ``grad f(x) + b sign(x_d) e_d``, ``||bias|| = b``.

Jordan's cube side ``h`` is set by the curvature budget: the quadratic part of ``f`` adds a phase
of at most ``2 pi S (ell/2) d (h/2)^2 = pi N ell d h / (8 M)``; ``h`` keeps it at
``CURVATURE_PHASE`` radians (the emulator itself ignores the curvature phase: at 0.3 rad a
run's law moves by under 1% in total variation from the Fejer kernel).

A trial starts PGD (Jin et al. 2017, theory parameters) exactly at the strict saddle of the
ramp-saddle family (the origin) and succeeds when the point PGD returns passes the exact
epsilon-SOSP test.  A bisection first checks its bracket: the lower level must be seen to
pass and the upper level to fail, so a threshold is reported only where the noise was seen to
break the algorithm (with the noise switched off the bisection raises).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .sosp import (
    GradientOracle,
    RampSaddle,
    perturbed_agd,
    perturbed_gd,
    pgd_parameters,
    quantum_oracle,
)

CURVATURE_PHASE = 0.3  # radians of quadratic phase allowed on Jordan's cube


def curvature_grid_width(n: int, ell: float, d: int, M: float = 1.0, phase: float = CURVATURE_PHASE) -> float:
    """Cube side ``h = 8 M phase / (pi N ell d)``: the quadratic phase on the cube is at most ``phase``.

    Raises:
        ValueError: on non-positive sizes or constants.
    """
    if n < 1 or d < 1 or ell <= 0 or M <= 0 or phase <= 0:
        raise ValueError("n, d, ell, M and phase must be positive")
    return 8 * M * phase / (math.pi * 2**n * ell * d)


def noise_per_bin(problem: RampSaddle, oracle: GradientOracle) -> float:
    """Zeroth-order noise level ``nu_bin = M h / N`` whose trap shifts the escape register by one bin."""
    h = curvature_grid_width(oracle.n, problem.ell, problem.d, oracle.M)
    return oracle.M * h / 2**oracle.n


def _sign(z: float) -> float:
    return 1.0 if z > 0 else (-1.0 if z < 0 else 0.0)


def escape_trial(rng: np.random.Generator, oracle_kind: str, eps: float, d: int, level: float,
                 method: str = "pgd", radius_factor: float = 1.0, qubits: int | None = None) -> bool:
    """One run of PGD (or PAGD) from the strict saddle under a trap adversary of the given level.

    Args:
        rng: numpy Generator (perturbations and the estimator's randomness).
        oracle_kind: ``"zeroth"`` (emulated Jordan estimator; ``level`` = noise budget ``nu`` in
            function-value units, played as the largest exact trap of ``floor(nu / nu_bin)``
            bins, see :func:`noise_per_bin`) or ``"first"`` (exact gradient plus a restoring
            bias of norm ``level``).
        eps: target accuracy; d: dimension (>= 2).
        method: ``"pgd"`` or ``"pagd"``.
        radius_factor: PGD's perturbation radius relative to the theory radius (PGD only; 0 is
            gradient descent without perturbation).
        qubits: qubits per register of the Jordan estimator (zeroth order; default: enough to
            resolve the escape gradient, see :func:`simulations.quantum.sosp.quantum_oracle`).

    Returns:
        True when an iterate passes the exact epsilon-SOSP test before the algorithm stops (PGD
        stops by its own rule, returning the saddle, when the perturbation did not escape).

    Raises:
        ValueError: on an unknown oracle kind or method, or a negative level.
    """
    if level < 0 or radius_factor < 0:
        raise ValueError(f"the noise level and radius factor must be non-negative, not {level}, {radius_factor}")
    problem = RampSaddle(d, eps)
    if oracle_kind == "zeroth":
        oracle = quantum_oracle(problem, n=qubits)
        nu_bin = noise_per_bin(problem, oracle)
        k = int(math.floor(level / nu_bin * (1 + 1e-12)))
        nu = k * nu_bin

        def shift(x, k=k, d=d):
            out = np.zeros(d)
            out[-1] = k * _sign(float(x[-1]))
            return out

        oracle.bias_bins = shift
        oracle.value_noise = lambda x, nu=nu: nu * _sign(float(x[-1]))
    elif oracle_kind == "first":
        b = float(level)

        def bias(x, b=b, d=d):
            out = np.zeros(d)
            out[-1] = b * _sign(float(x[-1]))
            return out

        oracle = GradientOracle("first_order", bias=bias)
    else:
        raise ValueError(f"oracle_kind must be 'zeroth' or 'first', not {oracle_kind!r}")
    x0 = np.zeros(d)
    # From the saddle one perturbation either escapes within ~t_thres steps or PGD stops; runs
    # not done by three times that (a bias larger than PGD's gradient threshold never lets it
    # perturb) count as failures.
    max_iter = 3 * pgd_parameters(problem)["t_thres"] + 200
    if method == "pgd":
        run = perturbed_gd(problem, oracle, rng, x0=x0, max_iter=max_iter, radius_factor=radius_factor)
        return bool(run.hit_iteration is not None and run.output_is_sosp)
    if method == "pagd":
        run = perturbed_agd(problem, oracle, rng, x0=x0, max_iter=max_iter)
        return bool(run.hit_iteration is not None and run.output_is_sosp)
    raise ValueError(f"method must be 'pgd' or 'pagd', not {method!r}")


def first_order_escapes(rng: np.random.Generator, eps: float, d: int, level: float, trials: int,
                        radius_factor: float = 1.0) -> tuple[int, int]:
    """(successes, trials) of PGD from the strict saddle under a restoring first-order bias, all
    trials at once.

    The runs of :func:`escape_trial` with ``oracle_kind="first"`` (PGD of Jin et al. 2017,
    Algorithm 2, theory parameters, gradient oracle ``grad f(x) + level sign(x_d) e_d``, start at
    the origin of :class:`RampSaddle` ``(d, eps)``, success = an iterate passes the exact
    eps-SOSP test before PGD's stopping rule returns the saddle, failure after
    ``3 t_thres + 200`` iterations), vectorised over the trials and reduced exactly in d: the
    d - 2 middle coordinates are identical quadratics ``x_j^2 / 2`` that start at 0, so after
    PGD's one perturbation they all contract by ``1 - eta`` per step and enter the gradient
    norm, ``f`` and the SOSP test only through ``q = sum_j x_j^2``; the perturbation (uniform
    in the ball of radius ``radius_factor r``) is drawn as ``r U^{1/d} v / |v|`` with ``v_1,
    v_d`` standard normal and ``sum_{middle} v_j^2`` chi-square with d - 2 degrees of freedom
    (the same law).  Each step of the scalar algorithm is applied to the rows still running.
    The draws come from ``rng`` in another order than in :func:`escape_trial`: the two agree
    in law, not run by run.  Cost O(trials) per step, whatever d.

    Raises:
        ValueError: for a negative level or radius factor, or trials < 1.
        RuntimeError: if a run were perturbed twice (not possible from the saddle: PGD stops or
            leaves the saddle after its first perturbation; the reduction assumes it).
    """
    if level < 0 or radius_factor < 0 or trials < 1:
        raise ValueError(f"need level >= 0, radius_factor >= 0 and trials >= 1, not {level}, "
                         f"{radius_factor}, {trials}")
    problem = RampSaddle(d, eps)
    p = pgd_parameters(problem)
    eta, g_thres, f_thres, t_thres = p["eta"], p["g_thres"], p["f_thres"], p["t_thres"]
    radius = radius_factor * p["r"]
    w, c, s_well = problem.w, problem.c, problem.s
    hess_tol = -math.sqrt(problem.rho * eps)
    x1, xd, q = np.zeros(trials), np.zeros(trials), np.zeros(trials)
    kicked = np.zeros(trials, dtype=bool)
    t_noise = np.full(trials, -t_thres - 1)
    f_tilde = np.full(trials, np.nan)
    running = np.ones(trials, dtype=bool)
    success = np.zeros(trials, dtype=bool)

    def exact_gradient(a, b):
        u = a / w
        z = b / s_well
        return 2 * eps * u / np.sqrt(1 + u * u), c * s_well * (z**3 - z)

    def value(a, b, qq):
        u = a / w
        z = b / s_well
        return 2 * eps * w * (np.sqrt(1 + u * u) - 1) + c * s_well**2 * (z**4 / 4 - z**2 / 2) + qq / 2

    for t in range(3 * t_thres + 200):
        rows = np.flatnonzero(running)
        a, b, qq = x1[rows], xd[rows], q[rows]
        g1, gd = exact_gradient(a, b)
        h_min = np.minimum(2 * eps / w * (1 + (a / w) ** 2) ** -1.5, c * (3 * (b / s_well) ** 2 - 1))
        if d > 2:
            h_min = np.minimum(h_min, 1.0)
        hit = (g1 * g1 + gd * gd + qq <= eps**2) & (h_min >= hess_tol)
        success[rows[hit]] = True
        running[rows[hit]] = False
        keep = ~hit
        rows, a, b, qq, g1, gd = rows[keep], a[keep], b[keep], qq[keep], g1[keep], gd[keep]
        if rows.size == 0:
            break
        gd = gd + level * np.sign(b)
        kick = (np.sqrt(g1 * g1 + gd * gd + qq) <= g_thres) & (t - t_noise[rows] > t_thres)
        if kick.any():
            k = rows[kick]
            if kicked[k].any():
                raise RuntimeError("a run was perturbed twice; use escape_trial for such runs")
            kicked[k] = True
            t_noise[k] = t
            f_tilde[k] = value(a[kick], b[kick], qq[kick])
            v1, vd = rng.standard_normal(k.size), rng.standard_normal(k.size)
            mid = rng.chisquare(d - 2, k.size) if d > 2 else np.zeros(k.size)
            scale = radius * rng.random(k.size) ** (1.0 / d) / np.sqrt(v1 * v1 + vd * vd + mid)
            a[kick] += scale * v1
            b[kick] += scale * vd
            qq[kick] = scale**2 * mid
            g1k, gdk = exact_gradient(a[kick], b[kick])
            g1[kick], gd[kick] = g1k, gdk + level * np.sign(b[kick])
        test = (t - t_noise[rows] == t_thres) & ~np.isnan(f_tilde[rows])
        if test.any():
            stop = np.zeros(rows.size, dtype=bool)
            stop[test] = value(a[test], b[test], qq[test]) - f_tilde[rows[test]] > -f_thres
            running[rows[stop]] = False
            keep = ~stop
            rows, a, b, qq, g1, gd = rows[keep], a[keep], b[keep], qq[keep], g1[keep], gd[keep]
        x1[rows], xd[rows], q[rows] = a - eta * g1, b - eta * gd, qq * (1 - eta) ** 2
    return int(success.sum()), int(trials)


@dataclass
class Bisection:
    """Outcome of :func:`bisect_threshold`.

    Attributes:
        lower: largest level whose success rate was judged at least the target.
        upper: smallest level judged below the target.
        levels, successes, trials, intervals: every level tried, in order, with its counts and
            Wilson interval.
    """

    lower: float
    upper: float
    levels: list[float]
    successes: list[int]
    trials: list[int]
    intervals: list[tuple[float, float]]

    @property
    def threshold(self) -> float:
        """Geometric mid-point of the final bracket."""
        return math.sqrt(self.lower * self.upper) if self.lower > 0 else self.upper / 2


def bisect_threshold(success_count: Callable[[float], tuple[int, int]], lower: float, upper: float, *,
                     target: float = 0.5, steps: int = 6, check_bracket: bool = True,
                     dither: np.random.Generator | None = None) -> Bisection:
    """Bisection (geometric) for the level where the success rate crosses ``target``.

    With ``check_bracket`` the two ends are measured first: ``lower`` must pass and ``upper``
    must fail, otherwise no crossing was seen and nothing is reported.  Then at each geometric
    mid-point ``success_count(level)`` returns (successes, trials); a level passes when the point
    estimate is at least ``target``.  The Wilson interval of every level measured is kept.  The
    success rate must decrease with the level (not checked).

    Args:
        success_count: level -> (successes, trials).
        lower, upper: a passing and a failing level (0 < lower < upper).
        target: success rate that defines the threshold (in (0, 1)).
        steps: number of mid-points measured (>= 0).
        check_bracket: measure and check both ends first.
        dither: when given, both ends are multiplied by ``(upper/lower)^(U / 2^steps)``,
            ``U ~ U(0, 1)`` drawn from it: the lattice of bisection levels moves by a random
            fraction of its final cell, so thresholds bisected at several grid points are not all
            read off one lattice (whose spacing would otherwise show in a fitted exponent).

    Raises:
        ValueError: when not ``0 < lower < upper``, or when a checked end does not behave as a
            bracket (the upper end still succeeding means the noise did not break the algorithm
            within the bracket: raise ``upper``, or check that the noise is switched on).
    """
    if not 0 < lower < upper:
        raise ValueError(f"need 0 < lower < upper, got {lower}, {upper}")
    if dither is not None:
        kappa = (upper / lower) ** (dither.random() / 2**steps)
        lower, upper = lower * kappa, upper * kappa
    levels, succ, tri, ints = [], [], [], []

    def measure(level: float) -> bool:
        k, n = success_count(level)
        levels.append(level)
        succ.append(k)
        tri.append(n)
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        ints.append((float(ci.low), float(ci.high)))
        return k / n >= target

    if check_bracket:
        if measure(upper):
            raise ValueError(
                f"no threshold in the bracket: the upper level {upper:.4g} still succeeds "
                f"({succ[-1]}/{tri[-1]} >= {target}); the noise did not break the algorithm there "
                f"(raise the upper level, or check that the noise is switched on)")
        if not measure(lower):
            raise ValueError(
                f"no threshold in the bracket: the lower level {lower:.4g} already fails "
                f"({succ[-1]}/{tri[-1]} < {target}); lower it")
    for _ in range(steps):
        mid = math.sqrt(lower * upper)
        if measure(mid):
            lower = mid
        else:
            upper = mid
    return Bisection(lower, upper, levels, succ, tri, ints)


def success_count(rng: np.random.Generator, oracle_kind: str, eps: float, d: int, level: float,
                  trials: int, method: str = "pgd", **variant) -> tuple[int, int]:
    """(successes, trials) of :func:`escape_trial` at one noise level, all drawn from ``rng``;
    ``variant``: ``radius_factor`` / ``qubits`` of :func:`escape_trial`."""
    if trials < 1:
        raise ValueError(f"trials must be at least 1, not {trials}")
    wins = sum(escape_trial(rng, oracle_kind, eps, d, level, method, **variant) for _ in range(trials))
    return int(wins), int(trials)


def measure_threshold(rng: np.random.Generator, oracle_kind: str, eps: float, d: int, lower: float,
                      upper: float, steps: int, trials: int, method: str = "pgd", dither: bool = True,
                      **variant) -> Bisection:
    """Bisection for the largest tolerated noise of PGD / PAGD at one (eps, d), bracket checked.

    Levels are noise budgets in function-value units for ``oracle_kind="zeroth"`` (see
    :func:`escape_trial`; :func:`zeroth_order_noise` converts bins) and gradient-bias norms for
    ``"first"``; the success rate at the returned ``lower`` was at least 1/2 and at ``upper``
    below 1/2 (point estimates of ``trials`` runs each).  With ``dither`` the bracket is
    dithered from ``rng`` (see :func:`bisect_threshold`).  ``variant``: ``radius_factor`` /
    ``qubits`` of :func:`escape_trial`.

    Raises:
        ValueError: when the bracket's ends do not pass and fail (see :func:`bisect_threshold`).
    """
    return bisect_threshold(
        lambda lvl: success_count(rng, oracle_kind, eps, d, lvl, trials, method, **variant),
        lower, upper, steps=steps, dither=rng if dither else None)


def zeroth_order_noise(eps: float, d: int, bins: float) -> float:
    """Zeroth-order noise level ``nu`` (function-value units) of a trap shifting ``bins`` bins,
    for the Jordan estimator PGD uses at (eps, d)."""
    problem = RampSaddle(d, eps)
    return bins * noise_per_bin(problem, quantum_oracle(problem))


def pgd_log_factor(eps: float, d: int) -> float:
    """``chi^2`` of PGD's theory parameters on the ramp-saddle family at (eps, d) (Jin et al. 2017):
    PGD's perturbation radius ``r = eps / (chi^2 ell)`` carries it, with ``chi = 3 max(ln(d ell Delta
    / (eps^2 delta)), 4)``; its log-log slope over the sizes of a fit is the allowance this
    polylogarithmic factor adds to a fitted exponent."""
    return float(pgd_parameters(RampSaddle(d, eps))["chi"] ** 2)
