r"""Nonlinearly preconditioned gradient methods and anisotropic smoothness.

Source: K. Oikonomidis, J. Quan, E. Laude, P. Patrinos, "Nonlinearly Preconditioned Gradient
Methods under Generalized Smoothness", ICML 2025, arXiv:2502.08532.

The method (eq. (2) of the paper) is

.. math::  x^{k+1} = T_{\gamma,\lambda}(x^k) = x^k - \gamma\,\nabla\phi^*(\lambda\nabla f(x^k)),

with a reference function $\phi$ (proper, lsc, $\mu$-strongly convex, even, $\phi(0) = 0$:
Assumption 1.1) and its conjugate $\phi^*$.  $f$ is $(L, \bar L)$-anisotropically smooth relative to
$\phi$ (Definition 2.1) when for all $x, \bar x$

.. math::  f(x) \le f(\bar x) + \bar L\big[(L^{-1}\star\phi)(x - \bar y) - (L^{-1}\star\phi)(\bar x - \bar y)\big],
           \quad \bar y = \bar x - L^{-1}\nabla\phi^*(\bar L^{-1}\nabla f(\bar x)),

with the epi-scaling $(L^{-1}\star\phi)(z) = L^{-1}\phi(Lz)$.  Taking $\bar x = x^k$ and
$x = \bar y = x^{k+1}$ ($\gamma = 1/L$, $\lambda = 1/\bar L$) gives the descent inequality (our
reading) $f(x^{k+1}) \le f(x^k) - \frac{\bar L}{L}\phi(\nabla\phi^*(\nabla f(x^k)/\bar L))$.

Reference functions here: :func:`quadratic_reference` ($\frac12\|\cdot\|^2$: gradient descent),
:func:`clipping_reference` ($h(\|\cdot\|)$ with $h(t) = -|t| - \ln(1 - |t|)$, whose conjugate gives
the smoothly clipped step $y/(1 + \|y\|)$) and :func:`cosh_reference` (separable
$\sum_i \cosh z_i - 1$, step $\operatorname{arcsinh}$ per coordinate).  All three are
1-strongly convex.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

__all__ = [
    "AnisotropicPairs", "Reference", "SmoothProblem", "anisotropic_pair", "anisotropic_upper_bound", "descent_check",
    "l0l1_cross_function", "second_order_value",
    "sample_anisotropic_pairs", "clipping_reference",
    "cosh_reference", "cos_well_problem", "logistic_problem", "preconditioned_gd",
    "quadratic_problem", "quadratic_reference",
]


@dataclass(frozen=True)
class Reference:
    r"""A reference function $\phi$ with its conjugate's gradient.

    Attributes:
        name: short name.
        phi: $\phi(z)$ for $z$ of shape ``(d,)`` (``inf`` outside its domain).
        grad_phi_star: $\nabla\phi^*(y)$, shape ``(d,)``.
        phi_star: $\phi^*(y)$.
        mu: strong-convexity modulus of $\phi$.
    """

    name: str
    phi: Callable[[np.ndarray], float]
    grad_phi_star: Callable[[np.ndarray], np.ndarray]
    phi_star: Callable[[np.ndarray], float]
    mu: float = 1.0


def quadratic_reference() -> Reference:
    r"""$\phi = \frac12\|\cdot\|^2 = \phi^*$, $\nabla\phi^* = \mathrm{id}$, $\mu = 1$: the method is gradient descent."""
    return Reference("1/2 ||z||^2", phi=lambda z: 0.5 * float(z @ z), grad_phi_star=lambda y: np.array(y, dtype=float),
                     phi_star=lambda y: 0.5 * float(y @ y))


def _h_clip(t: float) -> float:
    # h(t) = -t - log(1 - t) for 0 <= t < 1, written with log1p for accuracy near 0
    if t >= 1.0:
        return math.inf
    return -t - math.log1p(-t)


def clipping_reference() -> Reference:
    r"""$\phi = h\circ\|\cdot\|$ with $h(t) = -|t| - \ln(1 - |t|)$ on $|t| < 1$ ($+\infty$ outside).

    $h^*(s) = |s| - \ln(1 + |s|)$, so $\nabla\phi^*(y) = h^{*\prime}(\|y\|)\,y/\|y\| = y/(1 + \|y\|)$
    and the method takes $x^+ = x - \gamma\lambda\nabla f(x)/(1 + \lambda\|\nabla f(x)\|)$, a smooth
    form of gradient clipping.  $h'' = 1/(1-t)^2 \ge 1$ and $h'(t)/t = 1/(1-t) \ge 1$, so $\mu = 1$.
    """
    def phi(z: np.ndarray) -> float:
        return _h_clip(float(np.linalg.norm(z)))

    def grad_phi_star(y: np.ndarray) -> np.ndarray:
        y = np.asarray(y, dtype=float)
        return y / (1.0 + float(np.linalg.norm(y)))

    def phi_star(y: np.ndarray) -> float:
        s = float(np.linalg.norm(y))
        return s - math.log1p(s)

    return Reference("clipping h(||z||)", phi=phi, grad_phi_star=grad_phi_star, phi_star=phi_star)


def cosh_reference() -> Reference:
    r"""Separable $\phi(z) = \sum_i (\cosh z_i - 1)$, $\nabla\phi^*(y) = \operatorname{arcsinh}(y)$, $\mu = 1$.

    $\phi^*(y) = \sum_i (y_i\operatorname{arcsinh} y_i - \sqrt{1 + y_i^2} + 1)$.
    """
    return Reference(
        "sum cosh(z_i) - 1", phi=lambda z: float(np.sum(2.0 * np.sinh(np.asarray(z) / 2.0) ** 2)),
        grad_phi_star=lambda y: np.arcsinh(np.asarray(y, dtype=float)),
        phi_star=lambda y: float(np.sum(y * np.arcsinh(y) - np.sqrt(1 + y * y) + 1)))


def anisotropic_upper_bound(f_xbar: float, grad_xbar: np.ndarray, xbar: np.ndarray, x: np.ndarray,
                            L: float, Lbar: float, ref: Reference) -> float:
    r"""Right-hand side of Definition 2.1: $f(\bar x) + \bar L[L^{-1}\phi(L(x - \bar y)) - L^{-1}\phi(L(\bar x - \bar y))]$.

    Returns ``inf`` when $L(x - \bar y)$ is outside $\operatorname{dom}\phi$ (the inequality is
    then vacuous).

    Raises:
        ValueError: unless $L, \bar L > 0$, or on shape mismatch.
    """
    if not (L > 0 and Lbar > 0):
        raise ValueError(f"L and Lbar must be positive, got {L!r}, {Lbar!r}")
    xbar, x, g = (np.asarray(a, dtype=float) for a in (xbar, x, grad_xbar))
    if not (xbar.shape == x.shape == g.shape):
        raise ValueError("x, xbar and the gradient must have one shape")
    shift = ref.grad_phi_star(g / Lbar) / L          # xbar - ybar
    ybar = xbar - shift
    return float(f_xbar + Lbar * (ref.phi(L * (x - ybar)) - ref.phi(L * shift)) / L)


def preconditioned_gd(grad: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, gamma: float,
                      lam: float, ref: Reference, n_steps: int) -> np.ndarray:
    r"""Iterates $x^{k+1} = x^k - \gamma\nabla\phi^*(\lambda\nabla f(x^k))$, $k < n$ (eq. (2)).

    Returns:
        array of shape ``(n + 1, d)`` with $x^0, \dots, x^n$.

    Raises:
        ValueError: unless $\gamma, \lambda > 0$ and $n \ge 0$.
    """
    if not (gamma > 0 and lam > 0):
        raise ValueError(f"gamma and lambda must be positive, got {gamma!r}, {lam!r}")
    if int(n_steps) != n_steps or n_steps < 0:
        raise ValueError(f"n_steps must be a non-negative integer, got {n_steps!r}")
    x = np.asarray(x0, dtype=float).copy()
    out = [x.copy()]
    for _ in range(int(n_steps)):
        x = x - gamma * ref.grad_phi_star(lam * grad(x))
        out.append(x.copy())
    return np.array(out)


# --------------------------------------------------------------------------- test functions
@dataclass(frozen=True)
class SmoothProblem:
    r"""A Lipschitz-smooth objective: $\|\nabla f(x) - \nabla f(y)\| \le L_f\|x - y\|$ (certified).

    Attributes: name, dim, f, grad, L_f, f_star ($\inf f$), convex.
    """

    name: str
    dim: int
    f: Callable[[np.ndarray], float]
    grad: Callable[[np.ndarray], np.ndarray]
    L_f: float
    f_star: float
    convex: bool = True


def logistic_problem(A: np.ndarray, b: np.ndarray) -> SmoothProblem:
    r"""$f(x) = \frac1n\sum_i \log(1 + e^{-b_i a_i^\top x})$, $L_f = \|A\|_2^2/(4n)$ (convex).

    $f^\star$ is computed by BFGS to a gradient norm of $10^{-10}$ (use only where $f^\star$ is
    needed to a few digits); the rows must not be linearly separable.

    Raises:
        ValueError: on shape mismatch or labels outside $\{-1, 1\}$.
    """
    A, b = np.asarray(A, dtype=float), np.asarray(b, dtype=float)
    if A.ndim != 2 or b.shape != (A.shape[0],) or not np.all(np.abs(b) == 1):
        raise ValueError("A must be (n, d) and b a vector of n labels in {-1, 1}")
    n = A.shape[0]
    M = A * b[:, None]

    def f(x: np.ndarray) -> float:
        return float(np.mean(np.logaddexp(0.0, -M @ x)))

    def grad(x: np.ndarray) -> np.ndarray:
        return -M.T @ special.expit(-M @ x) / n

    res = optimize.minimize(f, np.zeros(A.shape[1]), jac=grad, method="BFGS", options={"gtol": 1e-10})
    return SmoothProblem("logistic", A.shape[1], f, grad, float(np.linalg.norm(A, 2) ** 2 / (4 * n)),
                         float(res.fun))


def quadratic_problem(H: np.ndarray) -> SmoothProblem:
    r"""$f(x) = \frac12 x^\top H x$ with $H$ symmetric PSD: $L_f = \lambda_{\max}(H)$, $f^\star = 0$.

    Raises:
        ValueError: unless $H$ is square, symmetric and PSD.
    """
    H = np.asarray(H, dtype=float)
    if H.ndim != 2 or H.shape[0] != H.shape[1] or not np.allclose(H, H.T):
        raise ValueError("H must be a symmetric square matrix")
    ev = np.linalg.eigvalsh(H)
    if ev.min() < -1e-12 * max(1.0, ev.max()):
        raise ValueError("H must be positive semidefinite")
    return SmoothProblem("quadratic", H.shape[0], lambda x: 0.5 * float(x @ H @ x), lambda x: H @ x,
                         float(ev.max()), 0.0)


def cos_well_problem(d: int, a: float = 2.0) -> SmoothProblem:
    r"""Nonconvex $f(x) = \sum_j (x_j^2/2 + a\cos x_j)$, $a > 1$: $L_f = 1 + a$, $f^\star$ exact.

    $f'' = 1 - a\cos x_j \in [1 - a, 1 + a]$, so $L_f = 1 + a$; nonconvex near 0 for $a > 1$.
    $f^\star = d\,(t^2/2 + a\cos t)$ at the positive root $t$ of $t = a\sin t$ (brentq to 1e-15).

    Raises:
        ValueError: on $d < 1$ or $a \le 1$.
    """
    if int(d) != d or d < 1 or not a > 1:
        raise ValueError(f"need d >= 1 and a > 1, got d={d!r}, a={a!r}")
    t = optimize.brentq(lambda s: s - a * math.sin(s), 1e-3, math.pi, xtol=1e-15)
    return SmoothProblem(f"cos well (a={a:g})", int(d), lambda x: float(np.sum(x * x / 2 + a * np.cos(x))),
                         lambda x: x - a * np.sin(x), 1.0 + a, d * (t * t / 2 + a * math.cos(t)),
                         convex=False)


@dataclass
class AnisotropicPairs:
    r"""Definition 2.1 on sampled pairs: only pairs with a finite right-hand side are kept.

    Attributes:
        lhs: $f(x)$; rhs: the Definition 2.1 bound; slack: float64 rounding allowance per pair
        ($16\epsilon$ times the magnitudes involved); n_drawn: pairs drawn (the rest were vacuous).
    """

    lhs: np.ndarray
    rhs: np.ndarray
    slack: np.ndarray
    n_drawn: int


def sample_anisotropic_pairs(problem: SmoothProblem, ref: Reference, rng: np.random.Generator, n: int,
                             L: float, Lbar: float, *, spread: float = 3.0,
                             rho_max: float = 3.0) -> AnisotropicPairs:
    r"""Draw $\bar x \sim \mathcal N(0, \text{spread}^2 I)$ and $x = \bar y + \rho v / L$, $v$ uniform
    on the sphere, $\rho \sim U(0, \rho_{\max})$, and evaluate both sides of Definition 2.1.

    Sampling around $\bar y$ makes $L(x - \bar y)$ fall in $\operatorname{dom}\phi$ when
    $\rho_{\max} < 1$ for the clipping reference (non-vacuous pairs); pairs with an infinite
    right-hand side are dropped and counted in ``n_drawn``.

    Raises:
        ValueError: on $n < 1$ or non-positive constants.
    """
    if int(n) != n or n < 1 or not (L > 0 and Lbar > 0 and rho_max > 0 and spread > 0):
        raise ValueError("need n >= 1 and positive L, Lbar, rho_max, spread")
    eps = np.finfo(float).eps
    lhs, rhs, slack = [], [], []
    d = problem.dim
    for _ in range(int(n)):
        xb = spread * rng.standard_normal(d)
        g = problem.grad(xb)
        yb = xb - ref.grad_phi_star(g / Lbar) / L
        v = rng.standard_normal(d)
        v /= np.linalg.norm(v)
        x = yb + rng.uniform(0.0, rho_max) * v / L
        fb = problem.f(xb)
        r = anisotropic_upper_bound(fb, g, xb, x, L, Lbar, ref)
        if not math.isfinite(r):
            continue
        fx = problem.f(x)
        lhs.append(fx)
        rhs.append(r)
        slack.append(16 * eps * (abs(fx) + abs(fb) + abs(r - fb) + 1.0))
    return AnisotropicPairs(np.array(lhs), np.array(rhs), np.array(slack), int(n))


def descent_check(problem: SmoothProblem, ref: Reference, x0: np.ndarray, L: float, Lbar: float,
                  n_steps: int, gamma: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Run the method with $\lambda = 1/\bar L$ and $\gamma$ (default $1/L$) and return, per step,
    $f(x^k)$ (shape ``(n+1,)``), the decrease $f(x^k) - f(x^{k+1})$ and the guaranteed
    $\frac{\bar L}{L}\phi(\nabla\phi^*(\nabla f(x^k)/\bar L))$ (shape ``(n,)`` each).

    Raises:
        ValueError: as :func:`preconditioned_gd`.
    """
    gamma = 1.0 / L if gamma is None else gamma
    xs = preconditioned_gd(problem.grad, x0, gamma, 1.0 / Lbar, ref, n_steps)
    fs = np.array([problem.f(x) for x in xs])
    guaranteed = np.array([Lbar / L * ref.phi(ref.grad_phi_star(problem.grad(x) / Lbar)) for x in xs[:-1]])
    return fs, fs[:-1] - fs[1:], guaranteed


# --------------------------------------------------------------------------- second-order condition
def second_order_value(grad_f: np.ndarray, hess_f: np.ndarray, kernel, Lbar: float) -> float:
    r"""$\lambda_{\max}\big(\nabla^2\phi^*(\bar L^{-1}\nabla f(x))\,\nabla^2 f(x)\big)$ for the isotropic
    reference $\phi = h(\|\cdot\|)$ of ``kernel`` (a :class:`simulations.optim.profiles.Kernel`).

    The second-order characterization of $(L, \bar L)$-anisotropic smoothness (Oikonomidis et al.,
    restated as Prop. 2.4 by Bodard & Patrinos 2025) asks this to be at most $L\bar L$ at every
    $x$.  The product of the positive definite $P = \nabla^2\phi^*$ and the symmetric
    $H = \nabla^2 f$ has the real eigenvalues of $P^{1/2} H P^{1/2}$, computed here with
    ``eigvalsh``.

    Args:
        grad_f: $\nabla f(x)$, shape ``(d,)``; hess_f: $\nabla^2 f(x)$, shape ``(d, d)``.
        kernel: the reference kernel; Lbar: $\bar L > 0$.

    Raises:
        ValueError: on mismatched shapes or $\bar L \le 0$.
    """
    g = np.asarray(grad_f, dtype=float)
    H = np.asarray(hess_f, dtype=float)
    if H.shape != (g.size, g.size) or not Lbar > 0:
        raise ValueError(f"need a gradient of shape (d,), a Hessian (d, d) and Lbar > 0; got {g.shape}, {H.shape}, "
                         f"{Lbar!r}")
    P = kernel.hessian_conj(g / Lbar)
    w, V = np.linalg.eigh(P)
    root = (V * np.sqrt(w)) @ V.T
    return float(np.linalg.eigvalsh(root @ ((H + H.T) / 2) @ root).max())


def l0l1_cross_function(L0: float, L1: float, a: float):
    r"""$f(x) = a x_1 + \frac{c}{L_1^2}(\cosh(L_1 x_2) - 1)$, $c = L_0 + L_1 a$: an $(L_0, L_1)$-smooth
    function on which the second-order condition of Cor. 2.7 (clipping reference,
    $L = L_1$, $\bar L = L_0/L_1$) holds with equality along $x_2 = 0$.

    $(L_0, L_1)$-smooth: $\|\nabla^2 f\| = c\cosh(L_1 x_2)$ and
    $(L_0 + L_1\|\nabla f\|)^2 - \dots$: with $C = \cosh(L_1x_2)$,
    $L_1^2 a^2 + c^2(C^2 - 1) - (cC - L_0)^2 = 2L_0c(C - 1) \ge 0$, so
    $cC \le L_0 + \sqrt{L_1^2a^2 + c^2\sinh^2(L_1x_2)} = L_0 + L_1\|\nabla f\|$ (ours; checked
    symbolically in the tests).  At $x_2 = 0$ the gradient $(a, 0)$ is orthogonal to the Hessian's
    eigenvector $e_2$ with eigenvalue $c = L_0 + L_1\|\nabla f\|$, where
    $\nabla^2\phi^*(\nabla f/\bar L)$ has eigenvalue $1/(1 + a/\bar L)$: their product is
    $(L_0 + L_1 a)/(1 + L_1 a/L_0) = L_0 = L\bar L$ for every $a$.

    Returns:
        ``(f, grad, hess)`` callables on arrays of shape ``(2,)``.

    Raises:
        ValueError: unless $L_0, L_1 > 0$ and $a \ge 0$.
    """
    if not (L0 > 0 and L1 > 0 and a >= 0):
        raise ValueError(f"need L0, L1 > 0 and a >= 0, got {L0!r}, {L1!r}, {a!r}")
    c = L0 + L1 * a

    def f(x: np.ndarray) -> float:
        return float(a * x[0] + c / L1**2 * 2 * np.sinh(L1 * x[1] / 2) ** 2)

    def grad(x: np.ndarray) -> np.ndarray:
        return np.array([a, c / L1 * np.sinh(L1 * x[1])])

    def hess(x: np.ndarray) -> np.ndarray:
        return np.array([[0.0, 0.0], [0.0, c * np.cosh(L1 * x[1])]])

    return f, grad, hess


def anisotropic_pair(problem: SmoothProblem, ref: Reference, xbar: np.ndarray, x: np.ndarray, L: float,
                     Lbar: float) -> tuple[float, float]:
    r"""Definition 2.1 on one pair written as (measured, bound), both $\ge 0$ at the model's minimum:

    measured $= f(x) - f(\bar x) + \frac{\bar L}{L}\phi(L(\bar x - \bar y))$ and
    bound $= \frac{\bar L}{L}\phi(L(x - \bar y))$; the definition is measured $\le$ bound.  Their
    ratio is 1 where $f$ meets its model; halving the bound is the near miss of the constant
    $\bar L/L$ in front of the model.

    Raises:
        ValueError: as :func:`anisotropic_upper_bound`.
    """
    g = problem.grad(xbar)
    shift = ref.grad_phi_star(g / Lbar) / L  # xbar - ybar
    ybar = xbar - shift
    measured = problem.f(x) - problem.f(xbar) + Lbar / L * ref.phi(L * shift)
    bound = Lbar / L * ref.phi(L * (x - ybar))
    if not (L > 0 and Lbar > 0):
        raise ValueError(f"L and Lbar must be positive, got {L!r}, {Lbar!r}")
    return float(measured), float(bound)
