r"""Perturbed (accelerated) gradient descent to an epsilon-SOSP, driven by gradient oracles
that count their queries.

An epsilon-approximate second-order stationary point (epsilon-SOSP) of an ell-smooth,
rho-Hessian-Lipschitz f is a point with ``||grad f|| <= eps`` and
``lambda_min(hess f) >= -sqrt(rho eps)`` (Jin et al. 2017; Gong, Zhang, Li, ICLR 2025).

Algorithms:

* :func:`perturbed_gd`: PGD of Jin, Ge, Netrapalli, Kakade, Jordan, "How to escape saddle
  points efficiently" (ICML 2017), Algorithm 2, with its theory parameters.
* :func:`perturbed_agd`: PAGD of Jin, Netrapalli, Jordan, "Accelerated gradient descent escapes
  saddle points faster than gradient descent" (COLT 2018), Algorithm 2 with c = chi = 1,
  including the negative-curvature-exploitation (NCE) step.

Both take a gradient oracle (:class:`GradientOracle`): exact first order (1 query per
gradient), forward finite differences (d + 1 evaluation queries) or the emulated Jordan
estimator (R evaluation queries, the boosting count of
:func:`simulations.quantum.emulator.boosting_runs`).  Function values cost one query.  The
hitting time is decided by an oracle-free exact test (:func:`is_sosp`), and the queries spent up
to it are recorded.

Test family (:class:`RampSaddle`): separable, a pseudo-Huber ramp of slope 2 eps and length
Delta / (2 eps) in x_1, unit quadratics, and a strict saddle ``c (x^4/4 - x^2/2)`` in x_d; it
makes gradient descent pay ``~ ell Delta / eps^2`` iterations and PAGD ``~ eps^{-7/4}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .emulator import boosting_runs, median_gradient_estimate


# --------------------------------------------------------------------------- test family
@dataclass
class RampSaddle:
    """``f(x) = 2 eps w (sqrt(1 + (x_1/w)^2) - 1) + 1/2 sum_{1<j<d} x_j^2 + c s^2 (z^4/4 - z^2/2)``,
    ``z = x_d / s``.

    Attributes:
        d: dimension (>= 2); eps: target accuracy; delta_f: ramp height (length delta_f/(2 eps));
        c: saddle curvature (Hessian -c at x_d = 0); w: ramp rounding width; s: half-width of the
        double well in x_d (minima at ``x_d = +-s``, depth ``c s^2 / 4``; 1 by default).
        ell, rho: smoothness and Hessian-Lipschitz constants on the region the runs visit
        (|x_d| <= s: f_dd'' = c(3z^2 - 1) <= 2c; |f'''| = 6 c |z| / s <= 6c/s).

    :meth:`border_saddle` builds the member whose saddle curvature sits just beyond the SOSP
    test's tolerance.
    """

    d: int
    eps: float
    delta_f: float = 1.0
    c: float = 1.0
    w: float = 1.0
    s: float = 1.0

    def __post_init__(self) -> None:
        if self.d < 2:
            raise ValueError(f"the ramp-saddle family needs d >= 2, not {self.d}")
        if min(self.c, self.s, self.w, self.delta_f) <= 0:
            raise ValueError(f"c, s, w and delta_f must be positive, not {self.c}, {self.s}, {self.w}, "
                             f"{self.delta_f}")
        if not 0 < self.eps < self.c**2 / self.rho:
            raise ValueError(f"eps must lie in (0, c^2/rho) = (0, {self.c**2 / self.rho:.4g}) so the saddle "
                             f"(curvature -c) fails the SOSP test, not {self.eps}")

    @classmethod
    def border_saddle(cls, d: int, eps: float, ratio: float = 2.0, rho: float = 6.0, **kwargs) -> RampSaddle:
        """The member whose saddle has curvature ``-ratio sqrt(rho eps)`` (``ratio`` times the SOSP
        test's tolerance) at a fixed Hessian-Lipschitz constant ``rho``.

        ``c = ratio sqrt(rho eps)`` and the well's half-width ``s = 6 c / rho`` (so that
        ``6 c / s = rho``), of the order ``sqrt(eps / rho)``: the saddle of the hard instances for
        escaping at the curvature scale of the test.  ``kwargs``: delta_f, w.

        Raises:
            ValueError: for ``ratio <= 1`` (the saddle would pass the test) or ``rho <= 0``.
        """
        if ratio <= 1 or rho <= 0:
            raise ValueError(f"need ratio > 1 and rho > 0, not {ratio}, {rho}")
        c = ratio * math.sqrt(rho * eps)
        return cls(d, eps, c=c, s=6 * c / rho, **kwargs)

    @property
    def ell(self) -> float:
        return max(2.0 * self.c, 1.0, 2.0 * self.eps / self.w)

    @property
    def rho(self) -> float:
        return 6.0 * self.c / self.s

    def start(self, spread: float = 0.3, on_saddle: bool = True) -> np.ndarray:
        """Start at the top of the ramp (``x_1 = -delta_f / (2 eps)``), the middle coordinates at
        ``spread``, and ``x_d`` on the saddle manifold (``x_d = 0``, default) or, with
        ``on_saddle=False``, at the well's minimum ``x_d = s`` (the run then never meets the
        saddle: its count is the ramp's alone)."""
        x = np.full(self.d, spread)
        x[0] = -self.delta_f / (2 * self.eps)
        x[-1] = 0.0 if on_saddle else self.s
        return x

    def coordinate_values(self, x: np.ndarray) -> np.ndarray:
        """Per-coordinate terms ``f_j(x_j)`` of the separable f (they sum to ``f(x)``), along the
        last axis of ``x`` (any leading shape)."""
        x = np.asarray(x, dtype=float)
        out = 0.5 * x**2
        u = x[..., 0] / self.w
        out[..., 0] = 2 * self.eps * self.w * (np.sqrt(1 + u * u) - 1)
        z = x[..., -1] / self.s
        out[..., -1] = self.c * self.s**2 * (z**4 / 4 - z**2 / 2)
        return out

    def value(self, x: np.ndarray) -> float:
        """``f(x)`` for one point, shape (d,)."""
        return float(self.coordinate_values(x).sum())

    def gradient(self, x: np.ndarray) -> np.ndarray:
        """``grad f`` along the last axis of ``x`` (one point (d,) or any leading shape)."""
        x = np.asarray(x, dtype=float)
        g = x.copy()
        u = x[..., 0] / self.w
        g[..., 0] = 2 * self.eps * u / np.sqrt(1 + u * u)
        z = x[..., -1] / self.s
        g[..., -1] = self.c * self.s * (z**3 - z)
        return g

    def is_sosp_rows(self, X: np.ndarray) -> np.ndarray:
        """:meth:`is_sosp` for each row of X, shape (T, d) -> (T,) (vectorised over the rows)."""
        X = np.atleast_2d(np.asarray(X, dtype=float))
        g = self.gradient(X)
        u = X[:, 0] / self.w
        z = X[:, -1] / self.s
        h_min = np.minimum(2 * self.eps / self.w * (1 + u * u) ** -1.5, self.c * (3 * z * z - 1))
        if self.d > 2:
            h_min = np.minimum(h_min, 1.0)
        return (np.sum(g * g, axis=1) <= self.eps**2) & (h_min >= -math.sqrt(self.rho * self.eps))

    def is_sosp(self, x: np.ndarray) -> bool:
        """Exact eps-SOSP test for this family: its Hessian is diagonal, so its smallest
        eigenvalue is the smallest diagonal entry (same result as :func:`is_sosp`, cheaper)."""
        u = float(x[0]) / self.w
        g0 = 2 * self.eps * u / np.sqrt(1 + u * u)
        z = float(x[-1]) / self.s
        gd = self.c * self.s * (z**3 - z)
        g2 = g0 * g0 + gd * gd + (float(x[1:-1] @ x[1:-1]) if self.d > 2 else 0.0)
        h_min = min(2 * self.eps / self.w * (1 + u * u) ** -1.5, self.c * (3 * z * z - 1),
                    1.0 if self.d > 2 else math.inf)
        return g2 <= self.eps**2 and h_min >= -math.sqrt(self.rho * self.eps)

    def hessian(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        diag = np.ones(self.d)
        u = x[0] / self.w
        diag[0] = 2 * self.eps / self.w * (1 + u * u) ** -1.5
        diag[-1] = self.c * (3 * (x[-1] / self.s) ** 2 - 1)
        return np.diag(diag)


def is_sosp(grad: np.ndarray, hess: np.ndarray, eps: float, rho: float) -> bool:
    """Exact epsilon-SOSP test: ``||grad|| <= eps`` and ``lambda_min(hess) >= -sqrt(rho eps)``."""
    return bool(np.linalg.norm(grad) <= eps and np.linalg.eigvalsh(hess)[0] >= -np.sqrt(rho * eps))


# --------------------------------------------------------------------------- oracles
@dataclass
class GradientOracle:
    """A gradient oracle that counts its queries.

    Args:
        kind: ``"first_order"`` (exact gradient, 1 query), ``"finite_difference"`` (forward
            differences with step ``fd_step``, d + 1 evaluation queries) or ``"quantum"``
            (emulated Jordan estimator: median of ``runs`` runs at ``n`` qubits per register).
        runs, n, M: quantum estimator parameters (M bounds |d_j f|).
        bias: gradient bias added to every estimate (first-order noise), shape (d,) or a callable
            of x; zero by default.
        bias_bins: for ``"quantum"``: a callable of x giving the shift of each register's bin
            position, shape (d,), before the median (a zeroth-order oracle noise whose phase is
            linear on the grid, e.g. a sawtooth of the grid's period, acts exactly so); None by
            default.
        value_noise: a callable of x added to every function value (zeroth-order noise on the
            evaluation queries); None by default.
    """

    kind: str
    runs: int = 1
    n: int = 20
    M: float = 1.0
    fd_step: float = 1e-7
    bias: object = None
    bias_bins: object = None
    value_noise: object = None
    queries: int = 0
    gradients: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ("first_order", "finite_difference", "quantum"):
            raise ValueError(f"unknown oracle kind {self.kind!r}")

    def gradient(self, problem: RampSaddle, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        self.gradients += 1
        if self.kind == "first_order":
            self.queries += 1
            g = problem.gradient(x)
        elif self.kind == "finite_difference":
            d = x.size
            self.queries += d + 1
            f0 = problem.value(x)
            g = np.array([(problem.value(x + self.fd_step * e) - f0) / self.fd_step for e in np.eye(d)])
        else:
            self.queries += self.runs
            shift = 0.0 if self.bias_bins is None else self.bias_bins(x)
            g = median_gradient_estimate(problem.gradient(x), self.n, self.M, self.runs, rng, shift)
        if self.bias is not None:
            g = g + (self.bias(x) if callable(self.bias) else np.asarray(self.bias, dtype=float))
        return g

    def value(self, problem: RampSaddle, x: np.ndarray) -> float:
        self.queries += 1
        return problem.value(x) + (0.0 if self.value_noise is None else float(self.value_noise(x)))


def quantum_oracle(problem: RampSaddle, *, delta: float = 1e-3, precision: float | None = None,
                   n: int | None = None, M: float = 1.0) -> GradientOracle:
    """The emulated Jordan oracle with R = boosting_runs(d, delta) and enough qubits.

    Args:
        precision: target resolution 2M/N; default ``min(eps / (4 sqrt d), r_pgd / (20 sqrt d))``,
            below the gradient a perturbation of PGD's radius creates along the escape direction
            (a coarser estimator rounds it to zero and stays at the saddle).
        n: qubits per register (overrides ``precision``).
    """
    d, eps = problem.d, problem.eps
    if n is None:
        if precision is None:
            r = pgd_parameters(problem)["r"]
            precision = min(eps / (4 * np.sqrt(d)), r / (20 * np.sqrt(d)))
        n = int(np.ceil(np.log2(2 * M / precision)))
    return GradientOracle("quantum", runs=boosting_runs(d, delta, 2**n), n=n, M=M)


# --------------------------------------------------------------------------- algorithms
@dataclass
class Run:
    """Outcome of one PGD / PAGD run.

    Attributes:
        hit_iteration: first iteration whose iterate is an eps-SOSP (None if never).
        hit_queries: oracle queries spent up to and including that iteration.
        iterations: iterations performed; queries: total queries.
        output: the point the algorithm returns; output_is_sosp: exact test on it.
        trajectory_last: last iterate.
    """

    hit_iteration: int | None
    hit_queries: int | None
    iterations: int
    queries: int
    output: np.ndarray
    output_is_sosp: bool
    info: dict = field(default_factory=dict)


def _ball(rng: np.random.Generator, d: int, r: float) -> np.ndarray:
    v = rng.standard_normal(d)
    return r * rng.random() ** (1.0 / d) * v / np.linalg.norm(v)


def pgd_parameters(problem: RampSaddle, delta: float = 0.1, c: float = 1.0) -> dict:
    """Theory parameters of Jin et al. (2017), Algorithm 2."""
    d, eps, ell, rho = problem.d, problem.eps, problem.ell, problem.rho
    chi = 3 * max(np.log(d * ell * problem.delta_f / (c * eps**2 * delta)), 4.0)
    return {
        "eta": c / ell, "chi": chi, "r": np.sqrt(c) * eps / (chi**2 * ell),
        "g_thres": np.sqrt(c) * eps / chi**2, "f_thres": c / chi**3 * np.sqrt(eps**3 / rho),
        "t_thres": int(np.ceil(chi / c**2 * ell / np.sqrt(rho * eps))),
    }


def perturbed_gd(problem: RampSaddle, oracle: GradientOracle, rng: np.random.Generator, *,
                 max_iter: int = 10**6, perturb: bool = True, stop_at_hit: bool = True,
                 x0: np.ndarray | None = None, radius_factor: float = 1.0) -> Run:
    """PGD (Jin et al. 2017, Algorithm 2) with the given oracle.

    Args:
        perturb: False gives plain gradient descent (a negative control: it stays on the saddle
            manifold).
        radius_factor: multiplies the theory perturbation radius r (1 = Jin et al.; other values
            are variants, for controls).
        stop_at_hit: stop as soon as the exact test sees an eps-SOSP (the hitting time is the
            quantity measured); otherwise run the algorithm's own stopping rule.
        x0: start point (default ``problem.start()``).
    """
    p = pgd_parameters(problem)
    x = problem.start() if x0 is None else np.array(x0, dtype=float)
    t_noise = -p["t_thres"] - 1
    x_tilde, f_tilde = x.copy(), None
    hit_it = hit_q = None
    output = None
    for t in range(max_iter):
        if hit_it is None and problem.is_sosp(x):
            hit_it, hit_q = t, oracle.queries
            if stop_at_hit:
                output = x
                break
        g = oracle.gradient(problem, x, rng)
        if perturb and np.linalg.norm(g) <= p["g_thres"] and t - t_noise > p["t_thres"]:
            x_tilde, t_noise = x.copy(), t
            f_tilde = oracle.value(problem, x_tilde)
            x = x_tilde + _ball(rng, problem.d, radius_factor * p["r"])
            g = oracle.gradient(problem, x, rng)
        if perturb and t - t_noise == p["t_thres"] and f_tilde is not None:
            if oracle.value(problem, x) - f_tilde > -p["f_thres"]:
                output = x_tilde
                break
        x = x - p["eta"] * g
    else:
        t = max_iter
    if output is None:
        output = x
    return Run(hit_it, hit_q, t, oracle.queries, output,
               problem.is_sosp(output), dict(p))


def pagd_parameters(problem: RampSaddle) -> dict:
    """Parameters of Jin, Netrapalli, Jordan (2018), Algorithm 2, with c = chi = 1."""
    ell, rho, eps = problem.ell, problem.rho, problem.eps
    kappa = ell / np.sqrt(rho * eps)
    eta = 1 / (4 * ell)
    theta = 1 / (4 * np.sqrt(kappa))
    gamma = theta**2 / eta
    return {"eta": eta, "theta": theta, "gamma": gamma, "s": gamma / (4 * rho), "r": eta * eps,
            "T": int(np.ceil(np.sqrt(kappa))), "kappa": kappa}


def perturbed_agd(problem: RampSaddle, oracle: GradientOracle, rng: np.random.Generator, *,
                  max_iter: int = 10**6, perturb: bool = True, x0: np.ndarray | None = None) -> Run:
    """PAGD (Jin, Netrapalli, Jordan 2018, Algorithm 2), stopped at the first eps-SOSP iterate.

    The NCE test is skipped when ``x_t = y_t`` (zero momentum), where it holds with equality
    and, taken literally, would freeze the iteration.  ``x0``: start point (default
    ``problem.start()``).
    """
    p = pagd_parameters(problem)
    eta, theta, gamma, s, r, T = p["eta"], p["theta"], p["gamma"], p["s"], p["r"], p["T"]
    x = problem.start() if x0 is None else np.array(x0, dtype=float)
    v = np.zeros_like(x)
    last_perturb = -T - 1
    eps = problem.eps
    hit_it = hit_q = None
    for t in range(max_iter):
        if problem.is_sosp(x):
            hit_it, hit_q = t, oracle.queries
            break
        g = None
        if perturb and t - last_perturb > T:
            gx = oracle.gradient(problem, x, rng)
            if np.linalg.norm(gx) <= eps:
                x = x + _ball(rng, problem.d, r)
                last_perturb = t
            elif not np.any(v):
                g = gx  # y = x: the gradient just queried is the one at y
        y = x + (1 - theta) * v
        if g is None:
            g = oracle.gradient(problem, y, rng)
        x_next = y - eta * g
        v_next = x_next - x
        diff = x - y
        if np.any(diff):
            fx, fy = oracle.value(problem, x), oracle.value(problem, y)
            if fx <= fy + g @ diff - gamma / 2 * diff @ diff:
                nv = np.linalg.norm(v)
                if nv >= s:
                    x_next = x.copy()
                else:
                    step = s * v / nv
                    a, b = x + step, x - step
                    x_next = a if oracle.value(problem, a) <= oracle.value(problem, b) else b
                v_next = np.zeros_like(x)
        x, v = x_next, v_next
    else:
        t = max_iter
    return Run(hit_it, hit_q, t, oracle.queries, x,
               problem.is_sosp(x), dict(p))


def run_to_sosp(method: str, problem: RampSaddle, oracle: GradientOracle, rng: np.random.Generator,
                **kwargs) -> Run:
    """Dispatch to :func:`perturbed_gd` (``"pgd"``) or :func:`perturbed_agd` (``"pagd"``)."""
    algorithms: dict[str, Callable[..., Run]] = {"pgd": perturbed_gd, "pagd": perturbed_agd}
    if method not in algorithms:
        raise ValueError(f"method must be 'pgd' or 'pagd', not {method!r}")
    return algorithms[method](problem, oracle, rng, **kwargs)
