r"""Gradient methods for $(L_0, L_1)$-smooth functions.

Source: D. Vankov, A. Rodomanov, A. Nedich, L. Sankar, S. U. Stich, "Optimizing
$(L_0, L_1)$-Smooth Functions by Gradient Methods", ICLR 2025, arXiv:2410.10800.

A twice-differentiable $f$ is $(L_0, L_1)$-smooth (Zhang, He, Sra & Jadbabaie, ICLR 2020) when
$\|\nabla^2 f(x)\| \le L_0 + L_1 \|\nabla f(x)\|$ for all $x$.  Integrating this along a segment
(Grönwall) gives the two structural inequalities used throughout (the paper's Sec. 2 states
inequalities of this kind; the forms below are our derivation, with $r = \|y - x\|$,
$\varphi(t) = e^t - t - 1$):

.. math::
   \|\nabla f(y) - \nabla f(x)\| \le \Big(\tfrac{L_0}{L_1} + \|\nabla f(x)\|\Big)(e^{L_1 r} - 1),
   \qquad
   f(y) \le f(x) + \langle \nabla f(x), y - x\rangle
        + \frac{L_0 + L_1\|\nabla f(x)\|}{L_1^2}\,\varphi(L_1 r).

Minimising the right-hand side along $-\nabla f(x)$ gives the step size of
:func:`l0l1_step_size`, $h(g) = \ln\!\big(1 + \tfrac{L_1 g}{L_0 + L_1 g}\big)/(L_1 g)$ with
$g = \|\nabla f(x)\|$, and the guaranteed decrease of :func:`l0l1_decrease`,
$\Delta(g) = \frac{L_0 + L_1 g}{L_1^2}\,\omega(u)$, $u = \frac{L_1 g}{L_0 + L_1 g}$,
$\omega(u) = (1+u)\ln(1+u) - u \ge u^2/3$, hence $\Delta(g) \ge g^2/(3(L_0 + L_1 g))$.

Contents: the step size and decrease; the two bounds; test functions with certified
$(L_0, L_1)$ (:func:`cosh_problem`, :func:`quartic_problem`, :func:`double_well_l0l1_problem`) and
one outside the class (:func:`exp_square_problem`); :func:`run_method` for the gradient method with
the $(L_0, L_1)$ step, Polyak steps, normalized steps, clipped steps and a constant step; and
:func:`complexity_bound`, the paper's convex complexity expression.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = [
    "L0L1Problem", "MethodRun", "PairCheck", "sample_pair_inequalities", "complexity_bound", "cosh_problem", "double_well_l0l1_constant",
    "double_well_l0l1_problem", "exp_square_problem", "gradient_difference_bound",
    "function_upper_bound", "l0l1_decrease", "l0l1_step_size", "quartic_problem", "run_method",
    "sublevel_smoothness_cosh", "chain_quadratic_problem", "agmsdr_run", "huber_valley_problem", "profile_problem",
]


def _check_constants(L0: float, L1: float) -> tuple[float, float]:
    L0, L1 = float(L0), float(L1)
    if not (L0 >= 0 and L1 >= 0 and math.isfinite(L0) and math.isfinite(L1)) or L0 + L1 == 0:
        raise ValueError(f"need L0 >= 0, L1 >= 0 finite and not both zero, got ({L0!r}, {L1!r})")
    return L0, L1


def l0l1_step_size(grad_norm, L0: float, L1: float):
    r"""Step size $h(g) = \frac{1}{L_1 g}\ln\!\big(1 + \frac{L_1 g}{L_0 + L_1 g}\big)$, $g = \|\nabla f(x)\|$.

    It minimises the $(L_0, L_1)$ upper bound along $-\nabla f(x)$ (derivation in the module
    docstring).  Limits: $1/L_0$ as $g \to 0$ or $L_1 \to 0$; about $\ln 2/(L_1 g)$ for large
    $g$, i.e. a displacement $h g \approx \ln 2 / L_1$ (a clipped step).  Computed with ``log1p``.

    Args:
        grad_norm: $g \ge 0$ (float or array).
        L0, L1: the smoothness constants, $L_0, L_1 \ge 0$, not both zero ($g > 0$ if $L_0 = 0$).

    Returns:
        $h(g)$ (float for scalar input, else array).

    Raises:
        ValueError: on negative or NaN $g$, invalid constants, or $g = 0$ with $L_0 = 0$.
    """
    L0, L1 = _check_constants(L0, L1)
    g = np.asarray(grad_norm, dtype=float)
    if np.any(~(g >= 0)) or np.any(~np.isfinite(g)):
        raise ValueError(f"the gradient norm must be finite and >= 0, got {grad_norm!r}")
    if L0 == 0 and np.any(g == 0):
        raise ValueError("with L0 = 0 the step size is unbounded at a zero gradient")
    if L1 == 0:
        out = np.full_like(g, 1.0 / L0)
    else:
        t = L1 * g
        safe = np.where(t > 0, t, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            h = np.log1p(safe / (L0 + safe)) / safe
        out = np.where(t > 0, h, 1.0 / L0 if L0 > 0 else np.inf)
    return float(out) if out.ndim == 0 else out


def l0l1_decrease(grad_norm, L0: float, L1: float):
    r"""Guaranteed decrease $\Delta(g) = \frac{L_0 + L_1 g}{L_1^2}\big((1+u)\ln(1+u) - u\big)$,
    $u = L_1 g/(L_0 + L_1 g)$, of one step with :func:`l0l1_step_size`; $g^2/(2L_0)$ when $L_1 = 0$.

    This is $h g^2 - \frac{L_0 + L_1 g}{L_1^2}\varphi(L_1 h g)$ at the minimising $h$ (our
    derivation).  For small $u$ it is computed from the series $\omega(u) = \sum_{k\ge2}
    (-1)^k u^k/(k(k-1))$ to avoid cancellation.

    Raises:
        ValueError: as :func:`l0l1_step_size`.
    """
    L0, L1 = _check_constants(L0, L1)
    g = np.asarray(grad_norm, dtype=float)
    if np.any(~(g >= 0)) or np.any(~np.isfinite(g)):
        raise ValueError(f"the gradient norm must be finite and >= 0, got {grad_norm!r}")
    if L1 == 0:
        out = g**2 / (2.0 * L0)
    else:
        a = L0 + L1 * g
        u = np.where(a > 0, L1 * g / np.where(a > 0, a, 1.0), 0.0)
        direct = (1 + u) * np.log1p(u) - u
        k = np.arange(2, 30)
        series = np.sum(((-1.0) ** k / (k * (k - 1))) * np.power.outer(u, k), axis=-1)
        omega = np.where(u < 1e-2, series, direct)
        out = a / L1**2 * omega
    return float(out) if np.ndim(out) == 0 else out


def _phi_over(L1: float, r: np.ndarray) -> np.ndarray:
    """phi(L1 r) / L1^2 with phi(t) = e^t - t - 1; r^2/2 when L1 = 0."""
    if L1 == 0:
        return r**2 / 2.0
    t = L1 * r
    small = t < 1e-3
    series = t**2 / 2 + t**3 / 6 + t**4 / 24
    return np.where(small, series, np.expm1(np.minimum(t, 700.0)) - t) / L1**2


def function_upper_bound(fx: float, gx: np.ndarray, y_minus_x: np.ndarray, L0: float, L1: float) -> float:
    r"""$f(x) + \langle \nabla f(x), y - x\rangle + \frac{L_0 + L_1\|\nabla f(x)\|}{L_1^2}\varphi(L_1\|y - x\|)$.

    Args:
        fx: $f(x)$; gx: $\nabla f(x)$, shape ``(d,)``; y_minus_x: $y - x$, shape ``(d,)``.

    Raises:
        ValueError: on invalid constants or shape mismatch.
    """
    L0, L1 = _check_constants(L0, L1)
    gx, v = np.asarray(gx, dtype=float), np.asarray(y_minus_x, dtype=float)
    if gx.shape != v.shape:
        raise ValueError(f"gradient shape {gx.shape} and displacement shape {v.shape} differ")
    r = float(np.linalg.norm(v))
    return float(fx + gx @ v + (L0 + L1 * np.linalg.norm(gx)) * _phi_over(L1, np.asarray(r)))


def gradient_difference_bound(grad_norm_x: float, dist: float, L0: float, L1: float) -> float:
    r"""$(L_0/L_1 + \|\nabla f(x)\|)(e^{L_1 r} - 1)$ with $r = \|y - x\|$; $L_0 r$ when $L_1 = 0$.

    Raises:
        ValueError: on invalid constants or a negative distance.
    """
    L0, L1 = _check_constants(L0, L1)
    if not dist >= 0:
        raise ValueError(f"the distance must be >= 0, got {dist!r}")
    if L1 == 0:
        return float(L0 * dist)
    return float((L0 / L1 + grad_norm_x) * np.expm1(L1 * dist))


# --------------------------------------------------------------------------- test functions
@dataclass(frozen=True)
class L0L1Problem:
    r"""An objective with certified $(L_0, L_1)$ (``in_class=False``: claimed constants that fail).

    Attributes:
        name: short name; dim: $d$.
        f, grad: objective and gradient on arrays of shape ``(d,)``.
        hess_norm: $\|\nabla^2 f(x)\|_2$ (exact, for the certificates).
        L0, L1: the constants; f_star: $\min f$; x_star: a minimiser.
        convex: whether $f$ is convex; in_class: whether the constants are certified.
    """

    name: str
    dim: int
    f: Callable[[np.ndarray], float]
    grad: Callable[[np.ndarray], np.ndarray]
    hess_norm: Callable[[np.ndarray], float]
    L0: float
    L1: float
    f_star: float
    x_star: np.ndarray
    convex: bool = True
    in_class: bool = True


def _dim(d: int) -> int:
    if int(d) != d or d < 1:
        raise ValueError(f"the dimension d must be a positive integer, got {d!r}")
    return int(d)


def cosh_problem(d: int, c: float = 1.0, center: np.ndarray | None = None) -> L0L1Problem:
    r"""$f(x) = c^{-2}\sum_j (\cosh(c(x_j - x^\star_j)) - 1)$: convex, $(L_0, L_1) = (1, c)$, $f^\star = 0$.

    Certified: $\partial_j f = \sinh(c u_j)/c$, $\nabla^2 f = \operatorname{diag}\cosh(c u_j)$,
    and $\cosh \le 1 + |\sinh|$, so $\|\nabla^2 f\| = \max_j \cosh(c u_j) \le 1 + c\max_j|\partial_j f|
    \le 1 + c\|\nabla f\|$.  Tight: equality in the limit $|u_j| \to \infty$, and at $u = 0$.
    Not Lipschitz-smooth: the Hessian grows like $e^{c\|u\|_\infty}$.

    Raises:
        ValueError: on $d < 1$, $c \le 0$ or a centre of the wrong shape.
    """
    d = _dim(d)
    if not c > 0:
        raise ValueError(f"c must be positive, got {c!r}")
    xs = np.zeros(d) if center is None else np.asarray(center, dtype=float)
    if xs.shape != (d,):
        raise ValueError(f"center must have shape ({d},), got {xs.shape}")
    c = float(c)

    def f(x: np.ndarray) -> float:
        # cosh(t) - 1 = 2 sinh(t/2)^2, exact near 0
        return float(np.sum(2.0 * np.sinh(c * (x - xs) / 2.0) ** 2) / c**2)

    return L0L1Problem(
        name=f"cosh (c={c:g})", dim=d, f=f, grad=lambda x: np.sinh(c * (x - xs)) / c,
        hess_norm=lambda x: float(np.max(np.cosh(c * (x - xs)))), L0=1.0, L1=c, f_star=0.0,
        x_star=xs.copy())


def quartic_problem(d: int, L1: float = 1.0, L0: float | None = None) -> L0L1Problem:
    r"""$f(x) = \sum_j x_j^4$: convex, $(L_0, L_1) = (16/L_1^2, L_1)$, $f^\star = 0$ at $0$.

    Certified: $\|\nabla^2 f\| = \max_j 12x_j^2$ and $\max_t (12t^2 - 4L_1 t^3) = 16/L_1^2$ at
    $t = 2/L_1$, so $12x_j^2 \le 16/L_1^2 + L_1 \cdot 4|x_j|^3 \le L_0 + L_1\|\nabla f\|$.  Passing a
    smaller ``L0`` gives constants that fail (``in_class=False``), for negative controls.

    Raises:
        ValueError: on $d < 1$ or non-positive constants.
    """
    d = _dim(d)
    if not L1 > 0:
        raise ValueError(f"L1 must be positive, got {L1!r}")
    certified = 16.0 / L1**2
    L0 = certified if L0 is None else float(L0)
    if not L0 > 0:
        raise ValueError(f"L0 must be positive, got {L0!r}")
    return L0L1Problem(
        name="x^4", dim=d, f=lambda x: float(np.sum(x**4)), grad=lambda x: 4.0 * x**3,
        hess_norm=lambda x: float(np.max(12.0 * x**2)), L0=L0, L1=float(L1), f_star=0.0,
        x_star=np.zeros(d), in_class=L0 >= certified)


def double_well_l0l1_constant() -> float:
    r"""$L_0 = \sup_t \big(|3t^2 - 1| - |t^3 - t|\big)$ for the double well with $L_1 = 1$.

    Closed form (ours): on $t \ge 1$ the function $3t^2 - 1 - t^3 + t$ has derivative
    $-3t^2 + 6t + 1$, zero at $t^\star = 1 + 2/\sqrt3$; its value there is the supremum (on
    $[0, 1/\sqrt3]$ the function is at most 1, on $[1/\sqrt3, 1]$ at most 2, and it is even).
    """
    t = 1.0 + 2.0 / math.sqrt(3.0)
    return 3 * t * t - 1 - t**3 + t


def double_well_l0l1_problem(d: int) -> L0L1Problem:
    r"""$f(x) = \sum_j (x_j^4/4 - x_j^2/2)$: nonconvex, $(L_0, L_1) = (L_0^\star, 1)$, $f^\star = -d/4$.

    $L_0^\star = $ :func:`double_well_l0l1_constant` $\approx 5.0792$; coordinatewise
    $|f''(t)| \le L_0^\star + |f'(t)|$, and the Hessian is diagonal, so
    $\|\nabla^2 f\| \le L_0^\star + \max_j |\partial_j f| \le L_0^\star + \|\nabla f\|$.

    Raises:
        ValueError: on $d < 1$.
    """
    d = _dim(d)
    return L0L1Problem(
        name="double well", dim=d, f=lambda x: float(np.sum(x**4 / 4 - x**2 / 2)),
        grad=lambda x: x**3 - x, hess_norm=lambda x: float(np.max(np.abs(3 * x**2 - 1))),
        L0=double_well_l0l1_constant(), L1=1.0, f_star=-d / 4.0, x_star=np.ones(d), convex=False)


def exp_square_problem(d: int, L0: float = 1.0, L1: float = 1.0) -> L0L1Problem:
    r"""$f(x) = \sum_j e^{x_j^2}$ with claimed $(L_0, L_1)$: *not* $(L_0, L_1)$-smooth for any constants.

    $f''(t)/|f'(t)| = (1 + 2t^2)/|t| \to \infty$, so no $(L_0, L_1)$ works; used by negative
    controls with the constants it is (wrongly) given.  $f^\star = d$ at $0$.

    Raises:
        ValueError: on $d < 1$.
    """
    d = _dim(d)
    return L0L1Problem(
        name="exp(x^2)", dim=d, f=lambda x: float(np.sum(np.exp(x**2))),
        grad=lambda x: 2 * x * np.exp(x**2),
        hess_norm=lambda x: float(np.max((2 + 4 * x**2) * np.exp(x**2))), L0=float(L0),
        L1=float(L1), f_star=float(d), x_star=np.zeros(d), in_class=False)


def sublevel_smoothness_cosh(problem: L0L1Problem, x0: np.ndarray) -> float:
    r"""$L = \sup\{\|\nabla^2 f(x)\| : f(x) \le f(x_0)\}$ for :func:`cosh_problem` (classical GD's $L$).

    On the sublevel set each term obeys $c^{-2}(\cosh(c u_j) - 1) \le F_0 = f(x_0) - f^\star$, so
    $\|\nabla^2 f\| = \max_j \cosh(c u_j) \le 1 + c^2 F_0$, with equality when one coordinate
    carries the whole gap.  Gradient descent with step $1/L$ stays in the set.
    """
    return 1.0 + problem.L1**2 * (problem.f(x0) - problem.f_star)


# --------------------------------------------------------------------------- methods
@dataclass
class MethodRun:
    r"""A run of a gradient method.

    Attributes:
        f: $f(x_k)$, shape ``(K + 1,)``; grad_norm: $\|\nabla f(x_k)\|$, shape ``(K + 1,)``;
        step: step sizes $h_k$ (multiplying $\nabla f(x_k)$), shape ``(K,)``;
        iterations: number of steps taken; reached: whether the target was met;
        x: final iterate.
    """

    f: np.ndarray
    grad_norm: np.ndarray
    step: np.ndarray
    iterations: int
    reached: bool
    x: np.ndarray


METHODS = ("l0l1", "polyak", "normalized", "clipped", "constant")


def run_method(problem: L0L1Problem, x0, method: str, max_iter: int, *, target_gap: float | None = None,
               L0: float | None = None, L1: float | None = None, step: float | None = None,
               clip: float | None = None, keep_history: bool = True) -> MethodRun:
    r"""Run $x_{k+1} = x_k - h_k \nabla f(x_k)$ with one of the step rules of the paper.

    Step rules ($g_k = \|\nabla f(x_k)\|$):

    * ``"l0l1"``: $h_k = $ :func:`l0l1_step_size` $(g_k, L_0, L_1)$ (constants default to the
      problem's);
    * ``"polyak"``: $h_k = (f(x_k) - f^\star)/g_k^2$ (Polyak 1987; needs $f^\star$ only);
    * ``"normalized"``: $h_k = \beta/g_k$ with $\beta = $ ``step`` (normalized gradient method);
    * ``"clipped"``: $h_k = \min(\eta, c/g_k)$ with $\eta = $ ``step``, $c = $ ``clip``;
    * ``"constant"``: $h_k = $ ``step``.

    Args:
        problem: the objective; x0: start, shape ``(d,)``; max_iter: iteration budget.
        target_gap: stop at the first $k$ with $f(x_k) - f^\star \le$ target_gap (``None``: run
            all ``max_iter`` steps).
        keep_history: False keeps only the last values (for long runs).

    Returns:
        :class:`MethodRun`; ``iterations`` is the first $k$ meeting the target (or the number of
        steps run), ``reached`` whether it was met.

    Raises:
        ValueError: on an unknown method, a missing parameter, or a start of the wrong shape.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if method in ("normalized", "clipped", "constant") and not (step is not None and step > 0):
        raise ValueError(f"method {method!r} needs a positive step")
    if method == "clipped" and not (clip is not None and clip > 0):
        raise ValueError("the clipped method needs a positive clip level")
    x = np.atleast_1d(np.asarray(x0, dtype=float)).copy()
    if x.shape != (problem.dim,):
        raise ValueError(f"x0 must have shape ({problem.dim},), got {x.shape}")
    a0 = problem.L0 if L0 is None else float(L0)
    a1 = problem.L1 if L1 is None else float(L1)
    fs, gs, hs = [], [], []
    fx, g = problem.f(x), problem.grad(x)
    gn = float(np.linalg.norm(g))
    fs.append(fx)
    gs.append(gn)
    k, reached = 0, target_gap is not None and fx - problem.f_star <= target_gap
    while not reached and k < max_iter and gn > 0:
        if method == "l0l1":
            h = l0l1_step_size(gn, a0, a1)
        elif method == "polyak":
            h = (fx - problem.f_star) / gn**2
        elif method == "normalized":
            h = step / gn
        elif method == "clipped":
            h = min(step, clip / gn)
        else:
            h = step
        x = x - h * g
        fx, g = problem.f(x), problem.grad(x)
        gn = float(np.linalg.norm(g))
        k += 1
        if keep_history:
            fs.append(fx)
            gs.append(gn)
            hs.append(h)
        else:
            fs, gs, hs = [fx], [gn], [h]
        if not (math.isfinite(fx) and math.isfinite(gn)):
            break
        if target_gap is not None and fx - problem.f_star <= target_gap:
            reached = True
    return MethodRun(np.array(fs), np.array(gs), np.array(hs), k, bool(reached), x)


def complexity_bound(L0: float, L1: float, R: float, F0: float, eps: float) -> float:
    r"""The paper's convex complexity expression $\frac{L_0 R^2}{\varepsilon} + L_1 R \ln\frac{F_0}{\varepsilon}$.

    (Abstract and summary of arXiv:2410.10800: the gradient method reaches $f - f^\star \le
    \varepsilon$ within $O$ of this many iterations, $R = \|x_0 - x^\star\|$,
    $F_0 = f(x_0) - f^\star$.)  The logarithm is floored at 1, as $O(\cdot)$ counts at least one
    step.

    Raises:
        ValueError: on non-positive $\varepsilon$, $R$ or $F_0$.
    """
    if not (eps > 0 and R > 0 and F0 > 0):
        raise ValueError(f"need eps, R, F0 > 0, got eps={eps!r}, R={R!r}, F0={F0!r}")
    return float(L0 * R**2 / eps + L1 * R * max(1.0, math.log(F0 / eps)))


@dataclass
class PairCheck:
    r"""The two structural inequalities evaluated on sampled pairs $(x, y)$.

    Attributes:
        lhs, rhs: left- and right-hand sides, shape ``(2n,)``: the first $n$ entries are the
            gradient-difference inequality, the last $n$ the function upper bound.
        slack: allowed rounding per entry (absolute), from the magnitudes of the terms.
        labels: ``"grad pair i"`` / ``"func pair i"``.
        distance: $\|y - x\|$ per pair, shape ``(2n,)``.
        base: shape ``(2n,)``: 0 for the gradient entries, $f(x) + \langle\nabla f(x), y - x\rangle$ for
            the function entries (subtracting it leaves the curvature terms: measured
            $f(y) - f(x) - \langle\nabla f(x), y - x\rangle$ against the bound's $\varphi$ term).
    """

    lhs: np.ndarray
    rhs: np.ndarray
    slack: np.ndarray
    labels: list[str]
    distance: np.ndarray
    base: np.ndarray | None = None


def sample_pair_inequalities(problem: L0L1Problem, rng: np.random.Generator, n: int, *,
                             spread: float = 2.0, max_dist: float = 3.0,
                             L0: float | None = None, L1: float | None = None) -> PairCheck:
    r"""Evaluate both structural inequalities on $n$ random pairs.

    $x \sim \mathcal N(0, \text{spread}^2 I)$ shifted to the minimiser, $y = x + r\,v$ with $v$
    uniform on the sphere and $r$ log-uniform on $[10^{-3}, \text{max\_dist}]$.  The slack of each
    entry is $16\epsilon$ times the sum of the magnitudes of the terms (float64 rounding of the
    few operations involved, $\epsilon = 2^{-52}$).

    Args:
        problem: the function and (by default) its constants; ``L0``/``L1`` override them.
        rng: generator; n: number of pairs, $\ge 1$.

    Raises:
        ValueError: on $n < 1$ or non-positive spread / distance.
    """
    if int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if not (spread > 0 and max_dist > 1e-3):
        raise ValueError("spread must be positive and max_dist above 1e-3")
    a0 = problem.L0 if L0 is None else float(L0)
    a1 = problem.L1 if L1 is None else float(L1)
    d = problem.dim
    eps = np.finfo(float).eps
    glhs, grhs, gsl, flhs, frhs, fsl, dist, base = [], [], [], [], [], [], [], []
    for _ in range(int(n)):
        x = problem.x_star + spread * rng.standard_normal(d)
        v = rng.standard_normal(d)
        v /= np.linalg.norm(v)
        r = float(np.exp(rng.uniform(np.log(1e-3), np.log(max_dist))))
        y = x + r * v
        gx, gy = problem.grad(x), problem.grad(y)
        fx, fy = problem.f(x), problem.f(y)
        gnx = float(np.linalg.norm(gx))
        glhs.append(float(np.linalg.norm(gy - gx)))
        grhs.append(gradient_difference_bound(gnx, r, a0, a1))
        gsl.append(16 * eps * (float(np.linalg.norm(gy)) + gnx + grhs[-1]))
        rhs = function_upper_bound(fx, gx, y - x, a0, a1)
        flhs.append(fy)
        frhs.append(rhs)
        fsl.append(16 * eps * (abs(fy) + abs(fx) + abs(float(gx @ (y - x))) + abs(rhs - fx - gx @ (y - x))))
        dist.append(r)
        base.append(float(fx + gx @ (y - x)))
    labels = [f"grad pair {i}" for i in range(n)] + [f"func pair {i}" for i in range(n)]
    return PairCheck(np.array(glhs + flhs), np.array(grhs + frhs), np.array(gsl + fsl), labels,
                     np.array(dist + dist), np.array([0.0] * len(base) + base))


# --------------------------------------------------------------------------- accelerated method
def chain_quadratic_problem(n: int, L: float = 1.0) -> L0L1Problem:
    r"""Nesterov's worst-case convex quadratic (Nesterov 2004, Sec. 2.1.2), $n$ variables:

    $f(x) = \frac L4\big(\frac12[x_1^2 + \sum_{i<n}(x_i - x_{i+1})^2 + x_n^2] - x_1\big)$, with
    $x^\star_i = 1 - \frac{i}{n+1}$ and $f^\star = \frac L8\big(\frac1{n+1} - 1\big)$.  Its Hessian
    $\frac L4\,\mathrm{tridiag}(-1, 2, -1)$ has norm below $L$, so $(L_0, L_1) = (L, 0)$.  From
    $x_0 = 0$, an iterate in the span of the first $k$ gradients has zeros beyond coordinate $k$,
    so $f(x_k) - f^\star \ge \frac L8\big(\frac1{k+1} - \frac1{n+1}\big)$ for $k < n$ (the minimum
    of $f$ on those vectors is the $k$-variable optimum).

    Raises:
        ValueError: on $n < 2$ or $L \le 0$.
    """
    n = _dim(n)
    if n < 2 or not L > 0:
        raise ValueError(f"need n >= 2 and L > 0, got n={n!r}, L={L!r}")
    L = float(L)
    xs = 1.0 - np.arange(1, n + 1) / (n + 1)

    def f(x: np.ndarray) -> float:
        dx = np.diff(x)
        return float(L / 4 * (0.5 * (x[0] ** 2 + dx @ dx + x[-1] ** 2) - x[0]))

    def grad(x: np.ndarray) -> np.ndarray:
        g = 2.0 * x
        g[1:] -= x[:-1]
        g[:-1] -= x[1:]
        g[0] -= 1.0
        return L / 4 * g

    eig_max = L / 4 * (2 - 2 * math.cos(math.pi * n / (n + 1)))
    return L0L1Problem(name=f"chain quadratic (n={n})", dim=n, f=f, grad=grad,
                       hess_norm=lambda x: eig_max, L0=L, L1=0.0,
                       f_star=L / 8 * (1.0 / (n + 1) - 1.0), x_star=xs)


def agmsdr_run(problem: L0L1Problem, x0, max_iter: int, *, target_gap: float,
               L0: float | None = None, L1: float | None = None) -> MethodRun:
    r"""AGMsDR (accelerated gradient method with small-dimensional relaxation; Nesterov, Gasnikov,
    Guminov & Dvurechensky, Optim. Methods Softw. 2020), with the $(L_0, L_1)$ gradient step.

    With $v_0 = x_0$, $A_0 = 0$, for $k \ge 0$:
    $\beta_k = \arg\min_{\beta\in[0,1]} f(v_k + \beta(x_k - v_k))$, $y_k = v_k + \beta_k(x_k - v_k)$;
    $x_{k+1} = y_k - h(\|\nabla f(y_k)\|)\nabla f(y_k)$ with :func:`l0l1_step_size`;
    $a_{k+1} > 0$ solves $\frac{a^2}{A_k + a} = \frac{2(f(y_k) - f(x_{k+1}))}{\|\nabla f(y_k)\|^2}$;
    $A_{k+1} = A_k + a_{k+1}$, $v_{k+1} = v_k - a_{k+1}\nabla f(y_k)$.  Its guarantee is
    $f(x_k) - f^\star \le \|x_0 - x^\star\|^2/(2A_k)$.  The segment search is scipy's bounded
    Brent method to $10^{-10}$ in $\beta$.

    Returns:
        :class:`MethodRun` with the values at the points $x_k$; ``step`` holds $a_{k}$.

    Raises:
        ValueError: on a start of the wrong shape or a non-positive target.
    """
    from scipy.optimize import minimize_scalar

    if not target_gap > 0:
        raise ValueError(f"target_gap must be positive, got {target_gap!r}")
    x = np.atleast_1d(np.asarray(x0, dtype=float)).copy()
    if x.shape != (problem.dim,):
        raise ValueError(f"x0 must have shape ({problem.dim},), got {x.shape}")
    a0 = problem.L0 if L0 is None else float(L0)
    a1 = problem.L1 if L1 is None else float(L1)
    v, A = x.copy(), 0.0
    fx = problem.f(x)
    fs, gs, hs = [fx], [float(np.linalg.norm(problem.grad(x)))], []
    k, reached = 0, fx - problem.f_star <= target_gap
    while not reached and k < max_iter:
        d = x - v
        if np.any(d != 0):
            res = minimize_scalar(lambda b, v=v, d=d: problem.f(v + b * d), bounds=(0.0, 1.0), method="bounded",
                                  options={"xatol": 1e-10})
            beta = float(res.x) if res.fun <= min(problem.f(v), fx) else (1.0 if fx <= problem.f(v) else 0.0)
        else:
            beta = 1.0
        y = v + beta * d
        fy, gy = problem.f(y), problem.grad(y)
        gn = float(np.linalg.norm(gy))
        if gn == 0:
            x, fx, reached = y, fy, fy - problem.f_star <= target_gap
            break
        x = y - l0l1_step_size(gn, a0, a1) * gy
        fx = problem.f(x)
        c = 2.0 * max(fy - fx, 0.0) / gn**2
        a = 0.5 * (c + math.sqrt(c * c + 4.0 * c * A))
        A += a
        v = v - a * gy
        k += 1
        fs.append(fx)
        gs.append(gn)
        hs.append(a)
        if not math.isfinite(fx):
            break
        reached = fx - problem.f_star <= target_gap
    return MethodRun(np.array(fs), np.array(gs), np.array(hs), k, bool(reached), x)


# --------------------------------------------------------------------------- worst-case instances
def profile_problem(profile, L0: float, L1: float, convex: bool) -> L0L1Problem:
    r"""A one-dimensional :class:`simulations.optim.profiles.Profile1D` as an :class:`L0L1Problem`.

    The profile must have a known minimiser (``profile.x_min``, where $f = 0$); its constants
    $(L_0, L_1)$ are those it was built for (:func:`simulations.optim.profiles.huber_wall`,
    :func:`simulations.optim.profiles.v_staircase`).

    Raises:
        ValueError: when the profile has no minimiser.
    """
    if profile.x_min is None:
        raise ValueError("the profile needs a known minimiser (x_min)")
    return L0L1Problem(
        name=profile.name, dim=1, f=lambda x: float(profile.f(x[0])[0]), grad=lambda x: profile.grad(x[0]),
        hess_norm=lambda x: float(abs(profile.hess(x[0])[0])), L0=float(L0), L1=float(L1), f_star=0.0,
        x_star=np.array([float(profile.x_min)]), convex=bool(convex))


def huber_valley_problem(L0: float, delta: float, L1: float = 1.0) -> L0L1Problem:
    r"""$f(x, y) = H_\delta(x) + \frac{L_0}{2} y^2$ with the Huber function
    $H_\delta(x) = \frac{L_0}{2}x^2$ for $|x| \le \delta$, $L_0\delta(|x| - \delta/2)$ beyond.

    Convex, $L_0$-smooth (so $(L_0, L_1)$-smooth for every $L_1 \ge 0$), $f^\star = 0$ at 0, not
    strongly convex.  The normalized gradient method with step $\beta \gg \delta$ started at
    $(R, \beta/2)$ bounces in $y$ between $\pm\beta/2$ while its $x$ moves only about $\delta$ per
    step: with $\delta = 2\varepsilon/(L_0R)$ it needs order $L_0R^2/\varepsilon$ steps, the
    instance on which its complexity binds (ours).

    Raises:
        ValueError: unless $L_0, \delta > 0$.
    """
    if not (L0 > 0 and delta > 0):
        raise ValueError(f"need L0, delta > 0, got {L0!r}, {delta!r}")
    L0, delta = float(L0), float(delta)

    def f(v: np.ndarray) -> float:
        ax = abs(float(v[0]))
        hx = L0 * ax * ax / 2 if ax <= delta else L0 * delta * (ax - delta / 2)
        return float(hx + L0 * float(v[1]) ** 2 / 2)

    def grad(v: np.ndarray) -> np.ndarray:
        x = float(v[0])
        gx = L0 * x if abs(x) <= delta else L0 * delta * math.copysign(1.0, x)
        return np.array([gx, L0 * float(v[1])])

    return L0L1Problem(name=f"Huber valley (delta={delta:.3g})", dim=2, f=f, grad=grad,
                       hess_norm=lambda v: L0, L0=L0, L1=float(L1), f_star=0.0, x_star=np.zeros(2))
