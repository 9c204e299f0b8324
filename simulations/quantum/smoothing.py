r"""Perturbed SGD on the Gaussian smoothing, with stochastic gradients averaged by quantum or
classical mean estimation, counting first-order oracle queries.

Source: Gong, Zhang, Li, "Robustness of Quantum Algorithms for Nonconvex Optimization" (ICLR
2025), abstract claim (iii): SGD with quantum mean estimation on the Gaussian smoothing
``f_sigma(x) = E_u f(x + sigma u)``, ``u ~ N(0, I_d)``, finds an epsilon-SOSP with
``O(d^2 / eps^3)`` first-order queries.  Only the abstract could be read; the algorithm below is
our reconstruction on the pattern of the classical zeroth-order perturbed SGD of Jin, Liu, Ge,
Jordan (NeurIPS 2018): ``x <- x - eta (g + xi)``, ``xi ~ N(0, r^2 / d I)``, ``eta = 1 / ell``,
where ``g`` estimates ``grad f_sigma(x) = E_u grad f(x + sigma u)`` coordinatewise to a target
accuracy with failure probability ``delta`` per coordinate.

Mean estimators of a variable ``G_j = clip(d_j f(x + sigma u), -B, B)`` (one first-order query
per draw of ``u``):

* quantum: canonical amplitude estimation (Brassard, Hoyer, Mosca, Tapp 2002, ``Est_Amp`` with
  the Fourier transform over ``Z_M`` for any integer ``M``) of ``a = E[(G_j + B) / (2B)]``;
  ``2M - 1`` calls to the state preparation (each one oracle query) per run; ``M`` the least
  integer with ``2B (pi/M + pi^2/M^2) <= accuracy`` (their Theorem 12 with ``a(1-a) <= 1/4``,
  success ``>= 8/pi^2`` per run).  The outcome law is exact: ``y ~ F_M(M theta/pi - y)`` (Fejer
  kernel, ``a = sin^2 theta``; the conjugate eigenphase gives the same estimate), estimate
  ``sin^2(pi y / M)``; median of ``runs`` runs, each run sampled by inversion of the kernel
  (:func:`simulations.quantum.emulator._kernel_quantile`, exact for ``M <= 1024`` and within
  ``2/M`` in total variation above).  Coordinatewise: ``d * runs * (2M - 1)`` queries per step.
* classical: the sample mean of ``n`` draws of the vector ``G`` (one query gives all ``d``
  coordinates), ``n`` from Hoeffding's inequality for the same accuracy and per-run failure
  ``1 - 8/pi^2``, median of ``runs`` runs: ``runs * n`` queries per step.  The mean of ``n``
  (``>= 10^4`` here) bounded draws is emulated by its normal law with the exact mean and
  variance (an emulation: Berry-Esseen with ``E|G - mean|^3 <= 2B s^2`` bounds the Kolmogorov
  distance by ``0.95 B / (s sqrt n)``, s the standard deviation of G; the query count does not
  depend on it).

Both budgets guarantee the same accuracy for every variable in ``[-B, B]``; the query counts
are exact integers.  Expectations over ``u`` are Gauss-Hermite quadratures (``QUAD_NODES``
nodes per coordinate: the ramp-saddle family is separable).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .emulator import _kernel_quantile
from .sosp import RampSaddle

QUAD_NODES = 32
QAE_SUCCESS = 8 / math.pi**2
QAE_GRID_MULTIPLE = 4  # amplitude-estimation grids are multiples of 4 (see qae_grid_size)
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(QUAD_NODES)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def smoothed_moments(problem: RampSaddle, x: np.ndarray, sigma: float, B: float) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of ``G_j = clip(d_j f(x + sigma u), -B, B)``, ``u ~ N(0, I)``, per coordinate.

    Args:
        problem: a :class:`RampSaddle`; x: point, shape (d,); sigma: smoothing radius (>= 0);
            B: clipping bound (> 0).

    Gauss-Hermite quadrature with ``QUAD_NODES`` nodes: on the ramp coordinate it agrees with
    adaptive quadrature to 1e-15 for ``sigma <= w / 3`` (the runs use ``sigma <= 0.016`` with
    ``w = 0.05``) and to 1e-6 at ``sigma = w``; the cubic coordinate is exact (polynomial).

    Returns:
        (mean, variance), each of shape (d,).

    Raises:
        ValueError: for sigma < 0 or B <= 0.
    """
    if sigma < 0 or B <= 0:
        raise ValueError(f"sigma must be >= 0 and B > 0, not sigma={sigma}, B={B}")
    X = np.asarray(x, dtype=float)[None, :] + sigma * _NODES[:, None]
    G = np.clip(problem.gradient(X), -B, B)
    mean = _WEIGHTS @ G
    var = np.maximum(_WEIGHTS @ (G - mean) ** 2, 0.0)
    return mean, var


def qae_grid_size(accuracy: float, B: float, multiple: int = 1) -> int:
    """Least multiple M of ``multiple`` with ``2B (pi/M + pi^2/M^2) <= accuracy`` (any integer
    for ``multiple = 1``, not a power of 2).

    The estimators here use ``multiple = QAE_GRID_MULTIPLE`` (4): then the amplitude 1/2, the
    image of a zero mean, sits on the grid (outcome M/4) and is returned exactly.  With
    ``M mod 4 != 0`` it falls half a bin (``M = 2 mod 4``) or a quarter of a bin off the grid, so
    the estimator's law at a zero mean (a strict saddle's gradient) changes with ``M mod 4``,
    irregularly in the accuracy: a +-4 % wobble of the smoothed SGD's noise thresholds over d,
    in step with ``M mod 4``, that would enter fitted exponents.

    Raises:
        ValueError: for accuracy <= 0, B <= 0 or multiple < 1.
    """
    if accuracy <= 0 or B <= 0 or multiple < 1:
        raise ValueError(f"accuracy and B must be positive and multiple >= 1, not {accuracy}, {B}, {multiple}")
    c = accuracy / (2 * B)  # pi^2 x^2 + pi x - c = 0, x = 1/M
    x = (-math.pi + math.sqrt(math.pi**2 + 4 * math.pi**2 * c)) / (2 * math.pi**2)
    M = max(1, math.ceil(1 / x) - 2)
    while 2 * B * (math.pi / M + math.pi**2 / M**2) > accuracy:
        M += 1
    return M + (-M) % multiple


def hoeffding_samples(accuracy: float, B: float, failure: float = 1 - QAE_SUCCESS) -> int:
    """Draws of a [-B, B] variable whose sample mean is within ``accuracy`` w.p. >= 1 - failure.

    Hoeffding: ``n = ceil(2 B^2 ln(2 / failure) / accuracy^2)``.

    Raises:
        ValueError: for accuracy <= 0, B <= 0 or failure outside (0, 1).
    """
    if accuracy <= 0 or B <= 0 or not 0 < failure < 1:
        raise ValueError("accuracy and B must be positive and failure in (0, 1)")
    return int(math.ceil(2 * B * B * math.log(2 / failure) / accuracy**2))


def median_runs(delta: float, success: float = QAE_SUCCESS) -> int:
    """Least odd R with ``P(Bin(R, 1 - success) >= (R + 1)/2) <= delta`` (median boosting).

    Raises:
        ValueError: for delta or success outside (0, 1), or success <= 1/2.
    """
    if not 0 < delta < 1 or not 0.5 < success < 1:
        raise ValueError(f"delta must lie in (0, 1) and success in (1/2, 1), not {delta}, {success}")
    R = 1
    while stats.binom.sf(R // 2, R, 1 - success) > delta:
        R += 2
    return R


def qae_median_estimates(a: np.ndarray, M: int, runs: int, rng: np.random.Generator) -> np.ndarray:
    """Median over ``runs`` independent runs of amplitude estimation of each amplitude in ``a``.

    Each run's outcome y is drawn from the Fejer law ``F_M(M theta / pi - y)`` (by inversion of
    its CDF), ``a = sin^2 theta``, and gives the estimate ``sin^2(pi y / M)``.

    Args:
        a: amplitudes in [0, 1], shape (k,); M: grid size (>= 2); runs: odd number of runs.

    Returns:
        Estimates, shape (k,).
    """
    if M < 2 or runs < 1 or runs % 2 == 0:
        raise ValueError(f"M must be >= 2 and runs a positive odd integer, not M={M}, runs={runs}")
    a = np.clip(np.atleast_1d(np.asarray(a, dtype=float)), 0.0, 1.0)
    pos = np.repeat(M * np.arcsin(np.sqrt(a)) / math.pi, runs)  # in [0, M/2]
    pos = np.minimum(pos, M / 2 - 1e-9)
    y = _kernel_quantile(pos, rng.random(pos.size), M)
    est = np.sin(math.pi * y / M) ** 2
    return np.median(est.reshape(a.size, runs), axis=1)


def qae_median_sample(mean: np.ndarray, B: float, M: int, runs: int, rng: np.random.Generator) -> np.ndarray:
    """Median of ``runs`` amplitude-estimation runs for each entry of ``mean`` (a [-B, B] variable's mean).

    One Beta((R+1)/2, (R+1)/2) variate per entry is the middle order statistic of R uniforms; the
    Fejer-law quantile at it is the median outcome y, and ``2B sin^2(pi y / M) - B`` the median
    estimate while the runs' outcomes stay in ``[0, M/2]``, where ``sin^2`` increases (see the
    docstring of :mod:`simulations.quantum.smoothing_noise` for the rare exceptions).  The law of
    :func:`qae_median_estimates`, with one quantile instead of R.

    Raises:
        ValueError: for M < 2 or runs not a positive odd integer.
    """
    if M < 2 or runs < 1 or runs % 2 == 0:
        raise ValueError(f"M must be >= 2 and runs a positive odd integer, not M={M}, runs={runs}")
    mean = np.asarray(mean, dtype=float)
    a = np.clip((mean + B) / (2 * B), 0.0, 1.0).ravel()
    pos = np.minimum(M * np.arcsin(np.sqrt(a)) / math.pi, M / 2 - 1e-9)
    k = (runs + 1) / 2
    y = _kernel_quantile(pos, rng.beta(k, k, size=a.size), M)
    return (2 * B * np.sin(math.pi * y / M) ** 2 - B).reshape(mean.shape)


@dataclass
class SmoothedMeanEstimator:
    """Estimator of ``grad f_sigma(x)`` by quantum or classical mean estimation, counting queries.

    Args:
        estimator: ``"quantum"`` (amplitude estimation, coordinatewise) or ``"classical"``
            (vector sample mean).
        sigma: smoothing radius; B: clipping bound; accuracy: target error per coordinate
            (gradient units); runs: odd number of runs whose median is taken.

    Attributes:
        M: amplitude-estimation grid size; n: Hoeffding sample size; queries: first-order
        oracle queries made so far (:meth:`calls_per_step` per gradient estimate).
    """

    estimator: str
    sigma: float
    B: float
    accuracy: float
    runs: int = 5
    queries: int = 0

    def __post_init__(self) -> None:
        if self.estimator not in ("quantum", "classical"):
            raise ValueError(f"estimator must be 'quantum' or 'classical', not {self.estimator!r}")
        if self.runs < 1 or self.runs % 2 == 0:
            raise ValueError(f"runs must be a positive odd integer, not {self.runs}")
        self.M = qae_grid_size(self.accuracy, self.B, QAE_GRID_MULTIPLE)
        self.n = hoeffding_samples(self.accuracy, self.B)

    def calls_per_step(self, d: int) -> int:
        """``d runs (2M - 1)`` (quantum) or ``runs n`` (classical)."""
        return d * self.runs * (2 * self.M - 1) if self.estimator == "quantum" else self.runs * self.n

    def gradient(self, problem: RampSaddle, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Estimate of ``E_u clip(grad f(x + sigma u))``, shape (d,)."""
        self.queries += self.calls_per_step(problem.d)
        mean, var = smoothed_moments(problem, x, self.sigma, self.B)
        if self.estimator == "quantum":
            a = (mean + self.B) / (2 * self.B)
            return 2 * self.B * qae_median_estimates(a, self.M, self.runs, rng) - self.B
        draws = mean[None, :] + np.sqrt(var / self.n)[None, :] * rng.standard_normal((self.runs, problem.d))
        return np.median(draws, axis=0)


def smoothing_parameters(problem: RampSaddle, delta: float = 1e-3) -> dict:
    """Our reading of the smoothed SGD's parameters at (eps, d).

    ``eta = 1/ell``; smoothing radius ``sigma = sqrt(eps/rho) / (4 sqrt d)`` (its bias on the
    gradient, ``O(rho sigma^2)``, stays below eps/16); per-coordinate accuracy
    ``eps / (4 sqrt d)`` (estimate within eps/4 in norm); perturbation ``r = eps / 2``; clipping
    ``B = 2``; ``runs`` from the median boosting at failure ``delta`` per coordinate.
    """
    d, eps = problem.d, problem.eps
    return {"eta": 1 / problem.ell, "sigma": math.sqrt(eps / problem.rho) / (4 * math.sqrt(d)),
            "accuracy": eps / (4 * math.sqrt(d)), "r": eps / 2, "B": 2.0, "runs": median_runs(delta)}


@dataclass
class SGDRun:
    """Outcome of one smoothed-SGD run: iteration and queries of the first eps-SOSP iterate (None
    if never reached), and the per-step budget."""

    hit_iteration: int | None
    hit_queries: int | None
    iterations: int
    calls_per_step: int


def smoothed_sgd(problem: RampSaddle, estimator: str, rng: np.random.Generator, *,
                 max_iter: int | None = None, delta: float = 1e-3, accuracy_scale: float = 1.0) -> SGDRun:
    """Perturbed SGD on the Gaussian smoothing from ``problem.start()`` to the first eps-SOSP iterate.

    Args:
        estimator: ``"quantum"`` or ``"classical"`` mean estimation.
        max_iter: iteration cap (default: four times the ramp's ``ell delta_f / (2 eps^2)``
            plus 2000).
        delta: failure probability per coordinate estimate.
        accuracy_scale: multiplies the target accuracy (1 = the parameters of
            :func:`smoothing_parameters`).

    Returns:
        :class:`SGDRun`; ``hit_queries`` counts every oracle query up to the hitting iterate
        (decided by the exact test :meth:`RampSaddle.is_sosp`).
    """
    p = smoothing_parameters(problem, delta)
    est = SmoothedMeanEstimator(estimator, p["sigma"], p["B"], p["accuracy"] * accuracy_scale, p["runs"])
    if max_iter is None:
        max_iter = int(4 * problem.ell * problem.delta_f / (2 * problem.eps**2)) + 2000
    x = problem.start()
    noise_sd = p["r"] / math.sqrt(problem.d)
    for t in range(max_iter):
        if problem.is_sosp(x):
            return SGDRun(t, est.queries, t, est.calls_per_step(problem.d))
        g = est.gradient(problem, x, rng)
        x = x - p["eta"] * (g + noise_sd * rng.standard_normal(problem.d))
    return SGDRun(None, None, max_iter, est.calls_per_step(problem.d))


def ramp_hitting_factor(eps_grid, w: float, delta_f: float) -> np.ndarray:
    """Share ``1 - s(eps)`` of the ramp an iteration count pays before the first eps-SOSP iterate.

    On the ramp ``2 eps w (sqrt(1 + (x_1/w)^2) - 1)`` the gradient norm can fall below eps only
    for ``|x_1| <= w / sqrt(3)``, so the first eps-SOSP iterate may be reached up to ``w/sqrt 3``
    before the bottom: a relative saving ``s(eps) = 2 w eps / (sqrt(3) delta_f)`` of the ramp's
    length ``delta_f / (2 eps)``, larger at larger eps.  A cost ``A eps^-k (1 - s(eps))`` has a
    log-log slope in ``1/eps`` of ``k`` plus the slope of this factor over the grid (positive,
    since s shrinks with eps): the allowance of a fitted exponent.

    Args:
        eps_grid: the target accuracies of the fit, shape (n,); w: ramp rounding width; delta_f:
            ramp height.

    Returns:
        ``1 - s(eps)``, shape (n,), in (0, 1).

    Raises:
        ValueError: when ``s >= 1`` somewhere (the ramp is shorter than its rounded bottom).
    """
    eps = np.asarray(eps_grid, dtype=float)
    s = 2 * w * eps / (math.sqrt(3) * delta_f)
    if np.any(s >= 1):
        raise ValueError("the ramp is shorter than its rounded bottom: increase delta_f")
    return 1.0 - s
