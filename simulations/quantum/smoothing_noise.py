r"""Noise thresholds of perturbed SGD on the Gaussian smoothing, driven by noisy zeroth- or
first-order oracles, measured from the strict saddle of the ramp-saddle family.

Source: Gong, Zhang, Li, "Robustness of Quantum Algorithms for Nonconvex Optimization" (ICLR
2025, arXiv:2212.02548), abstract: SGD with quantum mean estimation on the Gaussian smoothing of
noisy oracles is robust to noise ``O(eps^1.5 / d)`` on the zeroth-order oracle and
``O(eps / sqrt d)`` on the first-order oracle.  Only the abstract could be read; everything
below is our reconstruction on the pattern of Jin, Liu, Ge, Jordan (NeurIPS 2018, "On the
local minima of the empirical risk": ZPSGD, SGD on the Gaussian smoothing of a function known up
to ``|f - F| <= nu``, robust for ``nu <= O(eps^1.5 / d)``; smoothing radius
``sigma = Theta(sqrt(eps / (rho d)))``).

Algorithm (as :mod:`simulations.quantum.smoothing`): ``x <- x - eta (g + xi)``,
``xi ~ N(0, r^2/d I)``, ``eta = 1/ell``, parameters of
:func:`simulations.quantum.smoothing.smoothing_parameters` (``sigma = sqrt(eps/rho)/(4 sqrt d)``,
per-coordinate accuracy ``eps/(4 sqrt d)``, ``r = eps/2``, ``B = 2``), ``g`` the median of
``runs`` canonical amplitude estimations (grid size M) of each coordinate's mean:

* first order: ``G_j = clip(d_j f(y), -B, B) + b_j(y)``, ``y = x + sigma u``: the oracle returns
  ``grad f(y) + b(y)``, ``||b(y)|| <= nu``.  Mean: Gauss-Hermite quadrature of the clipped
  gradient (separable family) plus the closed form of the smoothed bias.  Adding the bias after
  the clip equals clipping the sum wherever ``|d_j f| + nu <= B`` on the quadrature's support
  (``|x_d| <= 1.4`` and ``nu <= B/4``; :func:`sgd_noise_threshold` refuses levels above B/4).
* zeroth order: the two-point estimator ``G_j = (f~(x + sigma u) - f~(x)) u_j / sigma`` with
  ``f~ = f + e``, ``|e| <= nu`` (two evaluation queries per draw of u).  Its mean is
  ``d_j f_sigma(x) + d_j e_sigma(x)`` (Stein's identity, ``f_sigma(x) = E f(x + sigma u)``):
  quadrature for f, closed form for e.  The variable is unbounded; it is emulated as an
  amplitude estimation of a [-B, B] variable with that unclipped mean.  Near the saddle, where
  the trap acts, clipping at B = 2 changes nothing (no draw of 4e5 exceeds B at ``x_d = 0``, for
  eps in [0.001, 0.05] and d in {2, 32}); half-way down the escape (``x_d = 0.5``, gradient
  -0.375) 1% of the draws exceed B and the clipped mean would be smaller by up to 0.014.

Emulated estimator: the median of ``runs`` independent runs of canonical amplitude estimation of
``a = (mean + B)/(2B)`` is drawn exactly with one Beta variate (the middle order statistic of
``runs`` uniforms) and one quantile of the Fejer law
(:func:`simulations.quantum.emulator._kernel_quantile`), which is the median of the runs'
estimates ``sin^2(pi y / M)`` whenever every outcome stays in ``[0, M/2]``, where ``sin^2``
increases.  Means in [-1, 1] give amplitudes in [1/4, 3/4], at least M/6 bins from the ends, so
one run leaves that range with probability below ``6/(pi^2 M)`` (Fejer tail), i.e. below 1%
for the 21 runs and M >= 1000 used here (eps <= 0.05); the median then moves by at most one
order statistic.

Adversaries (aimed at the escape coordinate ``x_d``; the algorithm's sigma is known to them):

* first order: ``b(y) = nu sign(y_d) e_d`` (the restoring bias of :mod:`.noise`); smoothed,
  ``E b_d(x + sigma u) = nu erf(x_d / (sigma sqrt 2))``, slope ``nu sqrt(2/pi)/sigma`` at the
  saddle, the largest any bias of norm nu can give (``E|u| = sqrt(2/pi)``).
* zeroth order: a V-shaped well ``e(y) = nu (2 min(|y_d|/a, 1) - 1)`` (values in
  ``[-nu, nu]``), half-width ``a = max(sigma, sqrt(2 nu) (eta/c)^(1/4))`` (:func:`vee_width`):
  its smoothed gradient is a restoring bias of size ``2 nu / a`` out to ``|x_d| = a``, strong
  enough to hold its edge against the saddle and wide enough that one step does not jump over
  it.  (A well of fixed width sigma, ``nu sign(|y_d| - sigma)``, gives the largest curvature at
  the saddle, but at large nu its steep walls throw the iterate out: success is then not
  monotone in nu and no threshold can be bisected.)

Heuristic scales (not used by the code): a restoring bias of size beta holds the saddle
(curvature ``-c``) once ``beta sqrt(2/pi)/sigma > c`` and beta exceeds the kicks of the
perturbation ``r/sqrt d`` and of the estimator's error, so the first-order threshold is of
order ``max(c sigma, r/sqrt d)``; the zeroth-order trap gives ``beta ~ sqrt(nu c)``, so its
threshold is of order the square of that.  Along ``x_d`` near the saddle every length of the
algorithm (sigma, r/sqrt d, the accuracy) scales as ``1/sqrt d``: at fixed eps the tolerated
noise scales as ``1/sqrt d`` (first order) and ``1/d`` (zeroth order).

A trial starts at the strict saddle (the origin) and succeeds when an iterate passes the exact
eps-SOSP test within ``budget`` iterations.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import erf, ndtr

from .noise import Bisection, bisect_threshold
from .smoothing import QAE_GRID_MULTIPLE, qae_grid_size, qae_median_sample, smoothing_parameters
from .sosp import RampSaddle

QUAD_NODES = 32
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(QUAD_NODES)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()
EPS_REF = 0.05  # epsilon at which the controls' extra decay factor (eps/EPS_REF)^a equals one
BRACKETS = {"first": (0.002, 20.0), "zeroth": (0.002, 50.0)}  # default bracket, in noise_scale units
D_REF = 2  # dimension at which the controls' extra decay factor (D_REF/d)^b equals one


# --------------------------------------------------------------------------- parameters
def sgd_noise_parameters(problem: RampSaddle, *, delta: float = 1e-3, eps_decay: float = 0.0,
                         d_decay: float = 0.0) -> dict:
    """Parameters of the smoothed SGD at (eps, d), optionally with radii that shrink too fast.

    ``eps_decay = d_decay = 0`` gives :func:`smoothing_parameters` unchanged.  Otherwise the
    smoothing radius and the perturbation radius are multiplied by
    ``lam = (eps/EPS_REF)^eps_decay (D_REF/d)^d_decay`` while the estimator's accuracy is kept
    (a deliberately broken rule used by the negative controls; since the accuracy does not
    follow, it is a different algorithm, not a change of units).

    Returns:
        dict with eta, sigma, accuracy, r, B, runs, lam and M (amplitude-estimation grid size).

    Raises:
        ValueError: for negative decay exponents.
    """
    if eps_decay < 0 or d_decay < 0:
        raise ValueError(f"decay exponents must be >= 0, not {eps_decay}, {d_decay}")
    p = dict(smoothing_parameters(problem, delta))
    lam = (problem.eps / EPS_REF) ** eps_decay * (D_REF / problem.d) ** d_decay
    for key in ("sigma", "r"):
        p[key] *= lam
    p["lam"] = lam
    p["M"] = qae_grid_size(p["accuracy"], p["B"], QAE_GRID_MULTIPLE)
    return p


# --------------------------------------------------------------------------- adversaries
def restoring_bias_smoothed(z, nu: float, sigma: float) -> np.ndarray:
    """``E_u[nu sign(z + sigma u)] = nu erf(z / (sigma sqrt 2))``: the smoothed first-order trap.

    Raises:
        ValueError: for sigma <= 0 or nu < 0.
    """
    if sigma <= 0 or nu < 0:
        raise ValueError(f"need sigma > 0 and nu >= 0, not {sigma}, {nu}")
    return nu * erf(np.asarray(z, dtype=float) / (sigma * math.sqrt(2)))


def vee_width(nu: float, sigma: float, eta: float, c: float) -> float:
    """Half-width ``a = max(sigma, sqrt(2 nu) (eta/c)^(1/4))`` of the zeroth-order trap at level nu.

    The trap's slope ``beta = 2 nu / a`` holds its edge against the saddle (``beta > c a``, i.e.
    ``a^2 < 2 nu / c``) and one step from its centre does not jump past the edge (``eta beta < a``,
    i.e. ``a^2 > 2 eta nu``); ``a^2 = 2 nu sqrt(eta/c)`` is the geometric middle (margin
    ``sqrt(1/(eta c)) = sqrt 2`` each way for ``eta = 1/ell = 1/(2c)``).  Below ``sigma`` the
    smoothing would erase the trap, so the width is floored there.
    """
    if nu < 0 or sigma <= 0 or eta <= 0 or c <= 0:
        raise ValueError(f"need nu >= 0 and sigma, eta, c > 0, not {nu}, {sigma}, {eta}, {c}")
    return max(sigma, math.sqrt(2 * nu) * (eta / c) ** 0.25)


def vee_noise(z, nu: float, a: float) -> np.ndarray:
    """Zeroth-order trap ``e(z) = nu (2 min(|z|/a, 1) - 1)``, values in ``[-nu, nu]``: a V of slope
    ``2 nu / a`` out to ``|z| = a``, flat beyond."""
    if a <= 0 or nu < 0:
        raise ValueError(f"need a > 0 and nu >= 0, not {a}, {nu}")
    return nu * (2 * np.minimum(np.abs(np.asarray(z, dtype=float)) / a, 1.0) - 1)


def vee_noise_smoothed_gradient(z, nu: float, a: float, sigma: float) -> np.ndarray:
    """``d/dz E_u e(z + sigma u) = E_u[e(z + sigma u) u] / sigma`` for :func:`vee_noise`.

    Closed form ``(2 nu / a) (Phi((a - z)/sigma) + Phi((-a - z)/sigma) - 2 Phi(-z/sigma))`` (the
    smoothed derivative ``(2 nu/a) E[sign(y) 1{|y| < a}]``, ``y = z + sigma u``); positive for
    ``z > 0``: it restores toward the saddle.
    """
    if a <= 0 or sigma <= 0 or nu < 0:
        raise ValueError(f"need a > 0, sigma > 0 and nu >= 0, not {a}, {sigma}, {nu}")
    z = np.asarray(z, dtype=float)
    cdf = ndtr  # the standard normal CDF
    return (2 * nu / a) * (cdf((a - z) / sigma) + cdf((-a - z) / sigma) - 2 * cdf(-z / sigma))


# --------------------------------------------------------------------------- separable family
# --------------------------------------------------------------------------- estimator means
def first_order_mean(problem: RampSaddle, X: np.ndarray, sigma: float, B: float, nu: float) -> np.ndarray:
    """Mean of ``clip(d_j f(x + sigma u), +-B) + b_j(x + sigma u)`` under the restoring bias, shape (T, d).

    Gauss-Hermite quadrature (``QUAD_NODES`` nodes, one per coordinate: separable) for the
    gradient, :func:`restoring_bias_smoothed` for the bias on the last coordinate.
    """
    X = np.atleast_2d(np.asarray(X, dtype=float))
    G = np.clip(problem.gradient(X[None, :, :] + sigma * _NODES[:, None, None]), -B, B)
    mean = np.tensordot(_WEIGHTS, G, axes=1)
    if nu > 0:
        mean[:, -1] += restoring_bias_smoothed(X[:, -1], nu, sigma)
    return mean


def zeroth_order_mean(problem: RampSaddle, X: np.ndarray, sigma: float, nu: float, eta: float) -> np.ndarray:
    """Mean of the two-point estimator ``(f~(x + sigma u) - f~(x)) u_j / sigma``, shape (T, d).

    ``E[(f(x + sigma u) - f(x)) u_j] / sigma = E[(f_j(x_j + sigma u_j) - f_j(x_j)) u_j] / sigma``
    for a separable f (the other terms are independent of ``u_j``, whose mean is 0): Gauss-Hermite
    quadrature per coordinate; the noise adds :func:`vee_noise_smoothed_gradient` on the last one,
    half-width :func:`vee_width` (its value at x cancels, ``E u_j = 0``).
    """
    X = np.atleast_2d(np.asarray(X, dtype=float))
    F0 = problem.coordinate_values(X)
    F = problem.coordinate_values(X[None, :, :] + sigma * _NODES[:, None, None]) - F0[None]
    mean = np.tensordot(_WEIGHTS * _NODES, F, axes=1) / sigma
    if nu > 0:
        a = vee_width(nu, sigma, eta, problem.c)
        mean[:, -1] += vee_noise_smoothed_gradient(X[:, -1], nu, a, sigma)
    return mean


# --------------------------------------------------------------------------- trials
def saddle_problem(eps: float, d: int, saddle_ratio: float | None = None) -> RampSaddle:
    """The member of the ramp-saddle family the noise trials start from: the standard one (saddle
    curvature -1, ``saddle_ratio=None``) or :meth:`RampSaddle.border_saddle` with that ratio
    (curvature ``-saddle_ratio sqrt(rho eps)``, rho = 6)."""
    return RampSaddle(d, eps) if saddle_ratio is None else RampSaddle.border_saddle(d, eps, saddle_ratio)


def escape_successes(rng: np.random.Generator, order: str, eps: float, d: int, nu: float, trials: int,
                     budget: int, *, eps_decay: float = 0.0, d_decay: float = 0.0, noise_on: bool = True,
                     delta: float = 1e-3, saddle_ratio: float | None = None) -> tuple[int, int]:
    """(successes, trials) of smoothed SGD started at the strict saddle under a trap of level nu.

    All trials run at once (vectorised).  A trial succeeds when an iterate passes the exact
    eps-SOSP test (:meth:`RampSaddle.is_sosp_rows`) at an iteration ``t <= budget``.

    Args:
        rng: numpy Generator (perturbations and the estimator's outcomes).
        order: ``"zeroth"`` (two-point estimator, well noise of level nu on f) or ``"first"``
            (stochastic gradients, restoring bias of norm nu).
        eps, d: target accuracy and dimension of :class:`RampSaddle` (c = 1, w = 1).
        nu: noise level (>= 0); trials: number of runs; budget: iterations per run.
        eps_decay, d_decay: the deliberately broken radius rule of :func:`sgd_noise_parameters`.
        noise_on: False switches the adversary off (whatever nu).
        saddle_ratio: None for the standard family (c = 1); otherwise the border saddle of
            :func:`saddle_problem`.

    Raises:
        ValueError: on an unknown order, nu < 0, trials < 1 or budget < 1.
    """
    if order not in ("zeroth", "first"):
        raise ValueError(f"order must be 'zeroth' or 'first', not {order!r}")
    if nu < 0 or trials < 1 or budget < 1:
        raise ValueError(f"need nu >= 0, trials >= 1 and budget >= 1, not {nu}, {trials}, {budget}")
    problem = saddle_problem(eps, d, saddle_ratio)
    p = sgd_noise_parameters(problem, delta=delta, eps_decay=eps_decay, d_decay=d_decay)
    level = float(nu) if noise_on else 0.0
    X = np.zeros((trials, d))
    active = np.ones(trials, dtype=bool)
    noise_sd = p["r"] / math.sqrt(d)
    for t in range(budget + 1):
        active[active] = ~problem.is_sosp_rows(X[active])
        if t == budget or not active.any():
            break
        Xa = X[active]
        if order == "first":
            mean = first_order_mean(problem, Xa, p["sigma"], p["B"], level)
        else:
            mean = zeroth_order_mean(problem, Xa, p["sigma"], level, p["eta"])
        g = qae_median_sample(mean, p["B"], p["M"], p["runs"], rng)
        X[active] = Xa - p["eta"] * (g + noise_sd * rng.standard_normal(Xa.shape))
    return int(trials - active.sum()), int(trials)


def noise_scale(order: str, eps: float, d: int, saddle_ratio: float | None = None) -> float:
    """Natural unit of the noise level: sigma (first order) or sigma^2 (zeroth order) of the
    algorithm as stated, in which the bisection bracket is given (the bracket is checked, not
    assumed)."""
    sigma = sgd_noise_parameters(saddle_problem(eps, d, saddle_ratio))["sigma"]
    return sigma if order == "first" else sigma**2


def sgd_noise_threshold(rng: np.random.Generator, order: str, eps: float, d: int, *, trials: int, steps: int,
                        budget: int, bracket: tuple[float, float] | None = None, eps_decay: float = 0.0,
                        d_decay: float = 0.0, noise_on: bool = True, dither: bool = True,
                        saddle_ratio: float | None = None) -> Bisection:
    """Bisected largest tolerated noise (in noise units: gradient norm or function value) at (eps, d).

    The bracket is ``bracket`` (default ``BRACKETS[order]``) times :func:`noise_scale` of the
    algorithm as stated (without the decay of a variant, so a variant's threshold is read in the
    same units as the algorithm's), dithered from ``rng`` when ``dither`` (see
    :func:`simulations.quantum.noise.bisect_threshold`), and must be observed to straddle the
    threshold.  Success rate 1/2 is the crossing level.  ``saddle_ratio``: the family member of
    :func:`saddle_problem`.

    Raises:
        ValueError: when the bracket is not seen to straddle the threshold; for a first-order level above ``B/4`` (the
            mean of :func:`first_order_mean` assumes ``|d_j f| + nu <= B``).
    """
    unit = noise_scale(order, eps, d, saddle_ratio)
    lo, hi = BRACKETS[order] if bracket is None else bracket
    B = smoothing_parameters(saddle_problem(eps, d, saddle_ratio))["B"]
    if order == "first" and hi * unit * (hi / lo) ** (1 / 2**steps) > B / 4:  # the largest dithered end
        raise ValueError(f"first-order levels above B/4 = {B / 4} leave the model of first_order_mean")

    def count(level: float) -> tuple[int, int]:
        return escape_successes(rng, order, eps, d, level, trials, budget, eps_decay=eps_decay,
                                d_decay=d_decay, noise_on=noise_on, saddle_ratio=saddle_ratio)

    return bisect_threshold(count, lo * unit, hi * unit, steps=steps, dither=rng if dither else None)
