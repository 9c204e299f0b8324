r"""Gradient descent under $\ell$-smoothness with the step size of Tyurin (ICML 2025).

Source: A. Tyurin, "Toward a Unified Theory of Gradient Descent under Generalized
Smoothness", ICML 2025, PMLR 267:60493-60514, arXiv:2412.11773.

A twice-differentiable $f$ is $\ell$-smooth when $\|\nabla^2 f(x)\| \le \ell(\|\nabla f(x)\|)$ for
a non-decreasing positive function $\ell$ (Li, Qian, Tian, Rakhlin & Jadbabaie, NeurIPS 2023).
The paper's gradient descent takes, with $s_k = \|\nabla f(x_k)\|$,

.. math::  x_{k+1} = x_k - \gamma_k \nabla f(x_k), \qquad
           \gamma_k = \gamma(s_k) = \int_0^1 \frac{dv}{\ell(s_k + s_k v)}
           = \frac{1}{s_k}\int_{s_k}^{2 s_k} \frac{du}{\ell(u)}

(the step-size formula is stated in the abstract).  Where the paper's lemmas could not be read,
this module uses the following derivation, which is ours: along the ray
$y(t) = x - t\,\nabla f(x)/s$ the gradient norm is bounded by the solution $\psi$ of
$\psi' = \ell(\psi)$, $\psi(0) = s$, so that
$f(y(t)) \le f(x) - s t + \int_0^t (\psi(\tau) - s)\, d\tau$ (a "generalized quadratic upper
bound"); it is minimised where $\psi(t) = 2s$, i.e. at $t = s\gamma(s)$, and its minimum gives the
one-step decrease $s^2 \int_0^1 (1-w)/\ell(s+sw)\,dw \ge \gamma(s) s^2 / 2$ (Chebyshev's integral
inequality, $\ell$ non-decreasing).

Contents
--------
* :class:`Smoothness` and factories for $\ell$ with closed-form step sizes:
  :func:`constant_smoothness` ($L$), :func:`affine_smoothness` ($L_0 + L_1 s$),
  :func:`power_smoothness` ($c s^p$), :func:`affine_power_smoothness` ($L_0 + L_1 s^\rho$),
  :func:`exponential_smoothness` ($L_0 e^{L_1 s}$), plus :func:`double_well_antiderivative`
  (an independent arctan form for $\rho = 2/3$).
* Quadratures of the step size: :func:`step_size_quad` (scipy) and :func:`step_size_mpquad`
  (mpmath, 50 digits by default), :func:`step_size_symbolic` (sympy), and
  :func:`descent_guarantee_quad`.
* Test problems with certified $\ell$: :func:`exponential_problem` ($e^x$, $\ell(s) = s$),
  :func:`neg_log_problem` ($-\log x$, $\ell(s) = s^2$), :func:`logistic_sum_problem`
  ($\ell \equiv \|A\|^2/4$), :func:`double_well_problem` ($\sum_i x_i^4/4 - x_i^2/2$,
  $\ell(s) = 2 + 3 s^{2/3}$, certified by :func:`double_well_certificate`).
* :func:`gradient_descent` (the trajectory) and :func:`one_step_mp` (one step at high precision).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
from scipy import integrate, optimize, special

__all__ = [
    "Problem", "Smoothness", "Trajectory", "affine_power_smoothness", "affine_smoothness",
    "constant_smoothness", "descent_guarantee_quad", "double_well_antiderivative",
    "double_well_certificate", "double_well_problem", "exponential_problem",
    "exponential_smoothness", "gradient_descent", "logistic_sum_problem", "neg_log_problem",
    "one_step_mp", "power_smoothness", "scaled_smoothness", "step_size_mpquad",
    "step_size_quad", "step_size_symbolic",
]


# --------------------------------------------------------------------------- smoothness profiles
@dataclass(frozen=True)
class Smoothness:
    r"""A smoothness profile $\ell : [0, \infty) \to [0, \infty)$ with its closed-form step size.

    Attributes:
        name: short human-readable formula (``"2 + 3 s^(2/3)"``).
        ell: vectorised $\ell(s)$ on float arrays.
        ell_mp: $\ell(s)$ on one ``mpmath.mpf`` (evaluated at the caller's working precision).
        gamma: vectorised closed form of $\gamma(s) = \int_0^1 dv/\ell(s + sv)$, $s > 0$.
        gamma_mp: the same closed form on one ``mpf``.
        params: the constants of the profile.

    Calling the object evaluates $\ell$; :meth:`step_size` evaluates $\gamma$ and, at $s = 0$,
    returns its limit $1/\ell(0)$ (``inf`` when $\ell(0) = 0$).
    """

    name: str
    ell: Callable[[np.ndarray], np.ndarray]
    ell_mp: Callable[[Any], Any]
    gamma: Callable[[np.ndarray], np.ndarray]
    gamma_mp: Callable[[Any], Any]
    params: dict[str, float] = field(default_factory=dict)

    def __call__(self, s: Any) -> np.ndarray:
        return self.ell(np.asarray(s, dtype=float))

    def step_size(self, s: Any) -> np.ndarray | float:
        r"""$\gamma(s)$ for $s \ge 0$ (float or array); raises ValueError on negative or NaN $s$."""
        arr = np.asarray(s, dtype=float)
        if np.any(~(arr >= 0)):
            raise ValueError(f"the gradient norm s must be >= 0, got {s!r}")
        pos = np.where(arr > 0, arr, 1.0)
        with np.errstate(divide="ignore"):
            at_zero = 1.0 / self.ell(np.zeros_like(arr))
        out = np.where(arr > 0, self.gamma(pos), at_zero)
        return float(out) if out.ndim == 0 else out


def _positive(name: str, value: float) -> float:
    value = float(value)
    if not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return value


def _mp(x: float | Fraction) -> Any:
    """``x`` as an ``mpf`` at the working precision (a Fraction exactly, e.g. 2/3)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def constant_smoothness(L: float) -> Smoothness:
    r"""$\ell \equiv L$ (classical $L$-smoothness): $\gamma = 1/L$.

    Raises:
        ValueError: unless $L > 0$.
    """
    L = _positive("L", L)
    return Smoothness(
        name=f"{L:g}", ell=lambda s: np.full_like(s, L, dtype=float), ell_mp=lambda s: mpmath.mpf(L),
        gamma=lambda s: np.full_like(s, 1.0 / L, dtype=float), gamma_mp=lambda s: 1 / mpmath.mpf(L),
        params={"L": L})


def affine_smoothness(L0: float, L1: float) -> Smoothness:
    r"""$(L_0, L_1)$-smoothness $\ell(s) = L_0 + L_1 s$ (Zhang, He, Sra & Jadbabaie, ICLR 2020).

    Closed form (ours, from the substitution $u = s + sv$):
    $\gamma(s) = \ln\!\big((L_0 + 2L_1 s)/(L_0 + L_1 s)\big)/(L_1 s)$, computed as
    $\operatorname{log1p}(L_1 s/(L_0 + L_1 s))/(L_1 s)$ to avoid cancellation; $\to 1/L_0$ as
    $L_1 \to 0$.

    Raises:
        ValueError: unless $L_0 > 0$ and $L_1 > 0$.
    """
    L0, L1 = _positive("L0", L0), _positive("L1", L1)

    def gamma(s: np.ndarray) -> np.ndarray:
        return np.log1p(L1 * s / (L0 + L1 * s)) / (L1 * s)

    def gamma_mp(s: Any) -> Any:
        s = mpmath.mpf(s)
        return mpmath.log1p(L1 * s / (L0 + L1 * s)) / (L1 * s)

    return Smoothness(name=f"{L0:g} + {L1:g} s", ell=lambda s: L0 + L1 * s,
                      ell_mp=lambda s: L0 + L1 * mpmath.mpf(s), gamma=gamma, gamma_mp=gamma_mp,
                      params={"L0": L0, "L1": L1})


def power_smoothness(c: float, p: float | Fraction) -> Smoothness:
    r"""$\ell(s) = c\,s^p$ with $c > 0$, $p \ge 0$ (e.g. $e^x$: $c = p = 1$; $-\log x$: $c = 1, p = 2$).

    Closed form (ours): $\gamma(s) = (2^{1-p} - 1)/((1-p)\,c\,s^p)$ for $p \ne 1$ and
    $\gamma(s) = \ln 2/(c s)$ for $p = 1$.  Note $\ell(0) = 0$ for $p > 0$: this $\ell$ is not
    positive at $0$, which matters only at a stationary point.

    Args:
        c: scale $c > 0$.
        p: exponent $p \ge 0$; a ``Fraction`` is used exactly by the mpmath evaluations.

    Raises:
        ValueError: unless $c > 0$ and $p \ge 0$.
    """
    c = _positive("c", c)
    p_exact = p
    p = float(p)
    if not (p >= 0 and math.isfinite(p)):
        raise ValueError(f"the exponent p must be >= 0, got {p!r}")
    if p == 1.0:
        coef, coef_mp = math.log(2.0) / c, lambda: mpmath.log(2) / c
    else:
        coef = (2.0 ** (1.0 - p) - 1.0) / ((1.0 - p) * c)

        def coef_mp() -> Any:
            one_p = 1 - _mp(p_exact)
            return (mpmath.power(2, one_p) - 1) / (one_p * c)

    return Smoothness(
        name=f"{c:g} s^{p:g}", ell=lambda s: c * np.power(s, p),
        ell_mp=lambda s: c * mpmath.power(mpmath.mpf(s), _mp(p_exact)),
        gamma=lambda s: coef / np.power(s, p),
        gamma_mp=lambda s: coef_mp() / mpmath.power(mpmath.mpf(s), _mp(p_exact)),
        params={"c": c, "p": p})


def affine_power_smoothness(L0: float, L1: float, rho: float | Fraction) -> Smoothness:
    r"""$\ell(s) = L_0 + L_1 s^\rho$, $\rho > 0$ (for $\rho = 1$ this is :func:`affine_smoothness`).

    Closed form (ours): with the antiderivative
    $F(x) = \int_0^x du/(L_0 + L_1 u^\rho) = (x/L_0)\,{}_2F_1(1, 1/\rho; 1 + 1/\rho; -L_1 x^\rho/L_0)$,
    $\gamma(s) = (F(2s) - F(s))/s$.  The float version uses ``scipy.special.hyp2f1``, the mpmath
    version ``mpmath.hyp2f1``; a ``Fraction`` $\rho$ is used exactly by the mpmath evaluations.

    Raises:
        ValueError: unless $L_0, L_1, \rho > 0$.
    """
    rho_exact = rho
    L0, L1, rho = _positive("L0", L0), _positive("L1", L1), _positive("rho", rho)
    b = 1.0 / rho

    def F(x: np.ndarray) -> np.ndarray:
        return x / L0 * special.hyp2f1(1.0, b, 1.0 + b, -L1 * np.power(x, rho) / L0)

    def F_mp(x: Any) -> Any:
        r = _mp(rho_exact)
        return x / L0 * mpmath.hyp2f1(1, 1 / r, 1 + 1 / r, -L1 * mpmath.power(x, r) / L0)

    def gamma_mp(s: Any) -> Any:
        s = mpmath.mpf(s)
        return (F_mp(2 * s) - F_mp(s)) / s

    return Smoothness(
        name=f"{L0:g} + {L1:g} s^{rho:g}", ell=lambda s: L0 + L1 * np.power(s, rho),
        ell_mp=lambda s: L0 + L1 * mpmath.power(mpmath.mpf(s), _mp(rho_exact)),
        gamma=lambda s: (F(2 * s) - F(s)) / s, gamma_mp=gamma_mp,
        params={"L0": L0, "L1": L1, "rho": rho})


def double_well_antiderivative(x: Any, a: float, b: float) -> Any:
    r"""$Q(x) = \int_0^x du/(a + b u^{2/3}) = (3/b)\,(x^{1/3} - \sqrt{a/b}\,\arctan(x^{1/3}\sqrt{b/a}))$.

    An elementary closed form (ours, substitution $u = w^3$) independent of the hypergeometric
    form used by :func:`affine_power_smoothness` with $\rho = 2/3$; it works on ``mpf`` (use it at
    high precision: in float64 it cancels for small $x$).  Then
    $\gamma(s) = (Q(2s) - Q(s))/s$.

    Raises:
        ValueError: on negative $x$ or non-positive $a, b$.
    """
    _positive("a", a)
    _positive("b", b)
    if x < 0:
        raise ValueError(f"x must be >= 0, got {x!r}")
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    w = mpmath.cbrt(mpmath.mpf(x))
    r = mpmath.sqrt(a / b)
    return 3 / b * (w - r * mpmath.atan(w / r))


def exponential_smoothness(L0: float, L1: float) -> Smoothness:
    r"""$\ell(s) = L_0 e^{L_1 s}$: closed form (ours)
    $\gamma(s) = e^{-L_1 s}\,(1 - e^{-L_1 s})/(L_0 L_1 s)$, computed with ``expm1``.

    Raises:
        ValueError: unless $L_0, L_1 > 0$.
    """
    L0, L1 = _positive("L0", L0), _positive("L1", L1)

    def gamma(s: np.ndarray) -> np.ndarray:
        return np.exp(-L1 * s) * (-np.expm1(-L1 * s)) / (L0 * L1 * s)

    def gamma_mp(s: Any) -> Any:
        s = mpmath.mpf(s)
        return mpmath.exp(-L1 * s) * (-mpmath.expm1(-L1 * s)) / (L0 * L1 * s)

    return Smoothness(name=f"{L0:g} exp({L1:g} s)", ell=lambda s: L0 * np.exp(L1 * s),
                      ell_mp=lambda s: L0 * mpmath.exp(L1 * mpmath.mpf(s)), gamma=gamma,
                      gamma_mp=gamma_mp, params={"L0": L0, "L1": L1})


def scaled_smoothness(base: Smoothness, factor: float) -> Smoothness:
    r"""The profile $\ell(s)/\text{factor}$ (a misspecified $\ell$ when factor $> 1$).

    Its step size is $\text{factor}\cdot\gamma(s)$.  Used by negative controls (e.g. $e^x$ with
    $\ell(s) = s/4$).

    Raises:
        ValueError: unless factor > 0.
    """
    k = _positive("factor", factor)
    return Smoothness(
        name=f"({base.name})/{k:g}", ell=lambda s: base.ell(s) / k,
        ell_mp=lambda s: base.ell_mp(s) / k, gamma=lambda s: k * base.gamma(s),
        gamma_mp=lambda s: k * base.gamma_mp(s), params={**base.params, "scale": 1.0 / k})


# --------------------------------------------------------------------------- quadratures
def _check_s(s: float) -> float:
    s = float(s)
    if not (s > 0 and math.isfinite(s)):
        raise ValueError(f"the gradient norm s must be a positive finite number, got {s!r}")
    return s


def step_size_quad(ell: Callable[[float], float], s: float) -> float:
    r"""$\gamma(s) = \int_0^1 dv/\ell(s + sv)$ by ``scipy.integrate.quad`` (float64, adaptive).

    Args:
        ell: $\ell$ on floats (a :class:`Smoothness` works).
        s: gradient norm, $s > 0$.

    Raises:
        ValueError: on $s \le 0$.
    """
    s = _check_s(s)
    val, _ = integrate.quad(lambda v: 1.0 / float(ell(s + s * v)), 0.0, 1.0,
                            epsabs=0.0, epsrel=1e-13, limit=200)
    return float(val)


def step_size_mpquad(ell_mp: Callable[[Any], Any], s: Any, dps: int = 50,
                     scale: bool = True) -> tuple[Any, Any]:
    r"""$\gamma(s)$ by mpmath's tanh-sinh quadrature at ``dps`` significant digits.

    Args:
        ell_mp: $\ell$ on ``mpf`` values.
        s: gradient norm, $s > 0$ (float, string or ``mpf``; converted at ``dps`` digits).
        dps: working precision in decimal digits.
        scale: True integrates the paper's integrand $1/\ell(s + s v)$; False integrates
            $1/\ell(s + v)$, the misspecified integrand without the factor $s$ on $v$ (for
            negative controls).

    Returns:
        (value, error estimate) as ``mpf`` numbers; the estimate is mpmath's, in absolute terms.

    Raises:
        ValueError: on $s \le 0$ or dps < 15.
    """
    if dps < 15:
        raise ValueError(f"dps must be at least 15, got {dps}")
    with mpmath.workdps(dps):
        s = mpmath.mpf(s)
        if not s > 0:
            raise ValueError(f"the gradient norm s must be positive, got {s}")
        c = s if scale else mpmath.mpf(1)
        val, err = mpmath.quad(lambda v: 1 / ell_mp(s + c * v), [0, 1], error=True)
        return +val, +err


def step_size_symbolic(ell: Callable[[Any], Any], s: Any) -> Any:
    r"""$\int_0^1 dv/\ell(s + s v)$ integrated by sympy.

    Args:
        ell: a function of one sympy expression returning a sympy expression for $\ell$.
        s: a positive sympy symbol (the gradient norm).

    Returns:
        The sympy result of ``integrate(1/ell(s + s*v), (v, 0, 1))`` (may be unevaluated when
        sympy finds no antiderivative).
    """
    import sympy as sp

    v = sp.Symbol("v", nonnegative=True)
    return sp.integrate(1 / ell(s + s * v), (v, 0, 1))


def descent_guarantee_quad(ell: Callable[[float], float], s: float) -> float:
    r"""$s^2 \int_0^1 (1-w)/\ell(s + s w)\,dw$: the decrease guaranteed by the minimised
    generalized quadratic upper bound (our derivation; see the module docstring).

    It is at least $\gamma(s)\,s^2/2$ when $\ell$ is non-decreasing.

    Raises:
        ValueError: on $s \le 0$.
    """
    s = _check_s(s)
    val, _ = integrate.quad(lambda w: (1.0 - w) / float(ell(s + s * w)), 0.0, 1.0,
                            epsabs=0.0, epsrel=1e-13, limit=200)
    return float(s * s * val)


# --------------------------------------------------------------------------- test problems
@dataclass(frozen=True)
class Problem:
    r"""An objective with a certified smoothness profile.

    Attributes:
        name: short name.
        dim: dimension $d$ of $x$.
        f, grad: objective and gradient on float arrays of shape ``(d,)``.
        f_mp, grad_mp: the same on a list of ``mpf`` (gradient returned as a list).
        smoothness: $\ell$ with $\|\nabla^2 f(x)\| \le \ell(\|\nabla f(x)\|)$ on the domain.
        f_star: $\inf f$ (``-inf`` when unbounded below); for logistic sums computed by Newton.
        in_domain: predicate on float arrays (all of $\mathbb{R}^d$ except for $-\log$).
        hessian: optional Hessian on floats (for diagnostics and controls).
        x_star: a minimiser when one is known (``None`` otherwise).
    """

    name: str
    dim: int
    f: Callable[[np.ndarray], float]
    grad: Callable[[np.ndarray], np.ndarray]
    f_mp: Callable[[list], Any]
    grad_mp: Callable[[list], list]
    smoothness: Smoothness
    f_star: float
    in_domain: Callable[[np.ndarray], bool] = lambda x: bool(np.all(np.isfinite(x)))
    hessian: Callable[[np.ndarray], np.ndarray] | None = None
    x_star: np.ndarray | None = None


def exponential_problem() -> Problem:
    r"""$f(x) = e^x$ on $\mathbb{R}$ with $\ell(s) = s$, exact since $f'' = f' = |f'|$.

    $\inf f = 0$ (not attained).  Worked value: $\gamma(s) = \ln 2/s$ and $s = e^x$, so every
    step is $x \mapsto x - \ln 2$ and $f$ halves (listed as an example by the paper).
    """
    return Problem(
        name="exp(x)", dim=1, f=lambda x: float(np.exp(x[0])), grad=lambda x: np.exp(x),
        f_mp=lambda x: mpmath.exp(x[0]), grad_mp=lambda x: [mpmath.exp(x[0])],
        smoothness=power_smoothness(1.0, 1.0), f_star=0.0,
        hessian=lambda x: np.exp(x).reshape(1, 1))


def neg_log_problem() -> Problem:
    r"""$f(x) = -\log x$ on $x > 0$ with $\ell(s) = s^2$, exact since $f'' = 1/x^2 = (f')^2$.

    Unbounded below ($f^* = -\infty$).  Worked value: $s = 1/x$, $\gamma = x^2/2$, so every
    step is $x \mapsto 1.5x$ (listed as an example by the paper).
    """
    return Problem(
        name="-log(x)", dim=1, f=lambda x: float(-np.log(x[0])), grad=lambda x: -1.0 / x,
        f_mp=lambda x: -mpmath.log(x[0]), grad_mp=lambda x: [-1 / x[0]],
        smoothness=power_smoothness(1.0, 2), f_star=-math.inf,
        in_domain=lambda x: bool(np.all(np.isfinite(x)) and np.all(x > 0)),
        hessian=lambda x: (1.0 / x**2).reshape(1, 1))


def _logistic_newton(A: np.ndarray, tol: float = 1e-13, max_iter: int = 100) -> np.ndarray:
    # inf f = 0 is not attained iff some x has A x < 0 row-wise, i.e. iff A x <= -1 is feasible
    lp = optimize.linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(A.shape[0]),
                          bounds=[(None, None)] * A.shape[1], method="highs")
    if lp.status == 0:
        raise ValueError("the logistic sum has no finite minimiser (the rows of A are separable "
                         "through the origin); draw more rows than columns")
    x = np.zeros(A.shape[1])
    for _ in range(max_iter):
        p = special.expit(A @ x)
        g = A.T @ p
        H = A.T @ (A * (p * (1 - p))[:, None])
        step = np.linalg.solve(H, g)
        x = x - step
        if np.linalg.norm(step) <= tol * max(1.0, np.linalg.norm(x)):
            break
    p = special.expit(A @ x)
    if np.linalg.norm(A.T @ p) > 1e-9 * np.linalg.norm(A) ** 2:
        raise ValueError("Newton's method did not converge on the logistic sum")
    return x


def logistic_sum_problem(A: np.ndarray) -> Problem:
    r"""$f(x) = \sum_{i=1}^n \log(1 + e^{a_i^\top x})$ with $\ell \equiv \|A\|_2^2/4$.

    Certified: $\nabla^2 f = A^\top \operatorname{diag}(\sigma(1-\sigma)) A \preceq \|A\|^2/4$.
    $f^* = \min f$ is computed by Newton's method (converged to float64 precision); the rows of
    $A$ must not be separable through the origin (else $\inf f = 0$ is not attained).

    Args:
        A: array of shape ``(n, d)``.

    Raises:
        ValueError: on a non-2-D or non-finite ``A``, or when $f$ has no finite minimiser.
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or not np.all(np.isfinite(A)) or A.shape[0] < 1:
        raise ValueError(f"A must be a finite (n, d) array, got shape {A.shape}")
    L = float(np.linalg.norm(A, 2) ** 2 / 4.0)
    x_star = _logistic_newton(A)
    rows = [[mpmath.mpf(float(v)) for v in row] for row in A]

    def f(x: np.ndarray) -> float:
        return float(np.sum(np.logaddexp(0.0, A @ x)))

    def grad(x: np.ndarray) -> np.ndarray:
        return A.T @ special.expit(A @ x)

    def f_mp(x: list) -> Any:
        return mpmath.fsum(mpmath.log1p(mpmath.exp(mpmath.fdot(r, x))) for r in rows)

    def grad_mp(x: list) -> list:
        sig = [1 / (1 + mpmath.exp(-mpmath.fdot(r, x))) for r in rows]
        return [mpmath.fsum(sig[i] * rows[i][j] for i in range(len(rows))) for j in range(A.shape[1])]

    def hessian(x: np.ndarray) -> np.ndarray:
        p = special.expit(A @ x)
        return A.T @ (A * (p * (1 - p))[:, None])

    return Problem(name="logistic sum", dim=A.shape[1], f=f, grad=grad, f_mp=f_mp, grad_mp=grad_mp,
                   smoothness=constant_smoothness(L), f_star=f(x_star), hessian=hessian,
                   x_star=x_star)


DOUBLE_WELL_A, DOUBLE_WELL_B = 2.0, 3.0


def double_well_certificate(b: float = DOUBLE_WELL_B, x_max: float = 50.0,
                            n_grid: int = 20001, dps: int = 30) -> float:
    r"""Smallest $a$ with $|f''(x)| \le a + b|f'(x)|^{2/3}$ for $f(x) = x^4/4 - x^2/2$.

    Computes $\sup_x g(x)$, $g(x) = |3x^2 - 1| - b|x^3 - x|^{2/3}$ ($g$ is even), by mpmath on
    a grid of $[0, x_{\max}]$ plus the kinks $x \in \{0, 1/\sqrt3, 1\}$ and the tail limit
    $\lim_{x\to\infty} g = 1$ (for $b = 3$; $+\infty$ for $b < 3$).  For $b = 3$ the supremum is
    $g(1) = 2$: on $[0, 1/\sqrt3]$, $g \le 1$; on $[1/\sqrt3, 1]$, $g \le 3x^2 - 1 \le 2$; on
    $[1, \infty)$, $g$ decreases from 2 to 1.  This is a numerical certificate on a grid backed by
    that case analysis, not a formal proof.

    Raises:
        ValueError: for $b < 3$ (no finite $a$ exists).
    """
    if not b >= 3:
        raise ValueError(f"for b < 3 the ratio |f''|/|f'|^(2/3) -> 3 > b: no finite a exists (b={b})")
    with mpmath.workdps(dps):
        bb = mpmath.mpf(b)

        def g(x: Any) -> Any:
            return abs(3 * x**2 - 1) - bb * mpmath.cbrt((x**3 - x) ** 2)

        pts = [mpmath.mpf(x_max) * i / (n_grid - 1) for i in range(n_grid)]
        pts += [mpmath.mpf(0), 1 / mpmath.sqrt(3), mpmath.mpf(1)]
        best = max(g(x) for x in pts)
        tail = mpmath.mpf(1) if b == 3 else -mpmath.inf
        return float(max(best, tail))


def double_well_problem(d: int, a: float = DOUBLE_WELL_A, b: float = DOUBLE_WELL_B) -> Problem:
    r"""$f(x) = \sum_{i=1}^d (x_i^4/4 - x_i^2/2)$ with $\ell(s) = a + b s^{2/3}$ ($a = 2, b = 3$).

    Certified coordinatewise by :func:`double_well_certificate`; since the Hessian is diagonal,
    $\|\nabla^2 f\| = \max_i |f''(x_i)| \le a + b \max_i |f'(x_i)|^{2/3} \le \ell(\|\nabla f\|)$.
    $f^* = -d/4$ at $x \in \{\pm 1\}^d$.  Nonconvex (saddles where some $x_i = 0$).  Note
    $s^{2/3}$ is not Lipschitz at $s = 0$; the step size and the descent argument only evaluate
    $\ell$ on $[s_k, \infty)$, $s_k > 0$, where it is.

    Raises:
        ValueError: on $d < 1$.
    """
    if int(d) != d or d < 1:
        raise ValueError(f"the dimension d must be a positive integer, got {d!r}")
    d = int(d)
    return Problem(
        name="double well", dim=d, f=lambda x: float(np.sum(x**4 / 4 - x**2 / 2)),
        grad=lambda x: x**3 - x,
        f_mp=lambda x: mpmath.fsum(xi**4 / 4 - xi**2 / 2 for xi in x),
        grad_mp=lambda x: [xi**3 - xi for xi in x],
        smoothness=affine_power_smoothness(a, b, Fraction(2, 3)), f_star=-d / 4.0,
        hessian=lambda x: np.diag(3 * x**2 - 1), x_star=np.ones(d))


# --------------------------------------------------------------------------- gradient descent
@dataclass
class Trajectory:
    r"""A gradient-descent run.

    Attributes:
        x: iterates, shape ``(K + 1, d)`` ($x_0, \dots, x_K$).
        f: $f(x_k)$, shape ``(K + 1,)``.
        grad_norm: $s_k = \|\nabla f(x_k)\|$, shape ``(K + 1,)``.
        step: step sizes $\gamma_k$ used, shape ``(K,)``.
        stopped: why the run ended before ``n_steps`` (``""`` when it did not).
    """

    x: np.ndarray
    f: np.ndarray
    grad_norm: np.ndarray
    step: np.ndarray
    stopped: str = ""


def gradient_descent(problem: Problem, x0: Any, n_steps: int,
                     smoothness: Smoothness | None = None,
                     constant_step: float | None = None) -> Trajectory:
    r"""Gradient descent $x_{k+1} = x_k - \gamma_k \nabla f(x_k)$ in float64.

    Args:
        problem: the objective.
        x0: starting point, shape ``(d,)`` (a scalar for $d = 1$).
        n_steps: number of steps $K \ge 0$.
        smoothness: the $\ell$ defining $\gamma_k = \gamma(s_k)$ (default: the problem's);
            a misspecified one gives a negative control.
        constant_step: if given, use this constant step instead of $\gamma(s_k)$.

    Returns:
        The :class:`Trajectory`.  The run stops early, with ``stopped`` set, at an exact
        stationary point ($s_k = 0$) or when an iterate leaves the domain or overflows (the
        finite prefix is returned).

    Raises:
        ValueError: on a start of the wrong shape or outside the domain, or n_steps < 0.
    """
    x = np.atleast_1d(np.asarray(x0, dtype=float)).copy()
    if x.shape != (problem.dim,):
        raise ValueError(f"x0 must have shape ({problem.dim},), got {x.shape}")
    if not problem.in_domain(x):
        raise ValueError(f"x0 = {x} is outside the domain of {problem.name}")
    if int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    if constant_step is not None:
        _positive("constant_step", constant_step)
    ell = smoothness or problem.smoothness
    xs, fs, ss, gs = [x.copy()], [problem.f(x)], [], []
    g = problem.grad(x)
    ss.append(float(np.linalg.norm(g)))
    stopped = ""
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(int(n_steps)):
            s = ss[-1]
            if s == 0.0:
                stopped = "exact stationary point"
                break
            gamma = float(constant_step) if constant_step is not None else float(ell.step_size(s))
            x_new = x - gamma * g
            if not problem.in_domain(x_new):
                stopped = "iterate left the domain or overflowed"
                break
            g_new = problem.grad(x_new)
            f_new = problem.f(x_new)
            s_new = float(np.linalg.norm(g_new))
            if not (math.isfinite(f_new) and math.isfinite(s_new)):
                stopped = "function or gradient overflowed"
                break
            x, g = x_new, g_new
            gs.append(gamma)
            xs.append(x.copy())
            fs.append(f_new)
            ss.append(s_new)
    return Trajectory(np.array(xs), np.array(fs), np.array(ss), np.array(gs), stopped)


def one_step_mp(problem: Problem, x: Any, smoothness: Smoothness | None = None,
                dps: int = 50) -> dict[str, Any]:
    r"""One step of the paper's gradient descent from the float point ``x``, at ``dps`` digits.

    The point $x$ is taken exactly (its float64 value); $s = \|\nabla f(x)\|$,
    $\gamma = \gamma(s)$ (closed form), $x^+ = x - \gamma \nabla f(x)$ and $f(x) - f(x^+)$ are
    computed in mpmath, so rounding is below $10^{-(\text{dps} - 5)}$ relative.

    Returns:
        dict with ``s``, ``gamma``, ``decrease`` $= f(x) - f(x^+)$ and
        ``bound`` $= \gamma s^2/2$ (all ``mpf``), and ``in_domain`` (bool).

    Raises:
        ValueError: on a point of the wrong shape, or $s = 0$.
    """
    xf = np.atleast_1d(np.asarray(x, dtype=float))
    if xf.shape != (problem.dim,):
        raise ValueError(f"x must have shape ({problem.dim},), got {xf.shape}")
    ell = smoothness or problem.smoothness
    with mpmath.workdps(dps):
        xm = [mpmath.mpf(float(v)) for v in xf]
        g = problem.grad_mp(xm)
        s = mpmath.sqrt(mpmath.fsum(gi**2 for gi in g))
        if s == 0:
            raise ValueError("the gradient vanishes at x: no step to take")
        gamma = ell.gamma_mp(s)
        x_new = [xi - gamma * gi for xi, gi in zip(xm, g, strict=True)]
        ok = problem.in_domain(np.array([float(v) for v in x_new]))
        decrease = problem.f_mp(xm) - problem.f_mp(x_new) if ok else -mpmath.inf
        return {"s": +s, "gamma": +gamma, "decrease": +decrease, "bound": gamma * s**2 / 2,
                "in_domain": ok}
