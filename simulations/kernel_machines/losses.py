"""Losses of kernel machines, their Fenchel conjugates and the dual terms of the box-constrained dual.

The primal problem of a kernel machine with feature map $\\varphi$ and penalty $c = 1/\\lambda$ is

    P(theta) = 1/2 ||theta||^2 + c sum_i xi_{y_i}(<theta, phi(x_i)>),

and its Fenchel dual (Zhang & Lai, "Joker", ICML 2025, Theorem 1, in the scaling of the authors'
code: $c$ multiplies the losses) is, written as a minimisation,

    D(alpha) = 1/2 alpha^T K alpha + sum_i d_i(alpha_i),   d_i(a) = c xi*_{y_i}(-a / c),

over the box where every $d_i$ is finite, with $K = \\Phi\\Phi^T$; strong duality gives
$\\min P = -\\min D$ and $\\theta^\\star = \\Phi^T\\alpha^\\star$.  Each :class:`Loss` below gives
$\\xi_y$, the dual term $d$ with its first two derivatives and the box; the conjugates are derived
in each class's docstring and tested against a numerical supremum in the unit tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LOSS_NAMES = ("squared", "squared_hinge", "logistic", "huber", "eps_insensitive")


def _check_c(c: float) -> float:
    c = float(c)
    if not (np.isfinite(c) and c > 0):
        raise ValueError(f"the penalty c = 1/lambda must be a positive finite number, not {c!r}")
    return c


@dataclass(frozen=True)
class Loss:
    """A loss $\\xi_y(z)$ of a kernel machine and the dual term $d(a) = c\\,\\xi_y^*(-a/c)$.

    Attributes:
        name: one of :data:`LOSS_NAMES`.
        param: the loss's own parameter (Huber's $\\delta$, the insensitivity $\\varepsilon$), else 0.
        smooth_dual: whether $d$ is twice differentiable inside its box (the block trust-region
            method needs it; the epsilon-insensitive dual term has a kink at 0).
    """

    name: str
    param: float = 0.0

    def __post_init__(self) -> None:
        if self.name not in LOSS_NAMES:
            raise ValueError(f"unknown loss {self.name!r}; choose one of {LOSS_NAMES}")
        if self.name in ("huber", "eps_insensitive") and not self.param > 0:
            raise ValueError(f"the {self.name} loss needs a positive parameter, not {self.param!r}")

    @property
    def smooth_dual(self) -> bool:
        return self.name != "eps_insensitive"

    @property
    def classification(self) -> bool:
        """Labels must be +-1 (squared hinge, logistic)."""
        return self.name in ("squared_hinge", "logistic")

    # ------------------------------------------------------------------ primal
    def primal(self, z: np.ndarray, y: np.ndarray) -> np.ndarray:
        """$\\xi_y(z)$ elementwise (z, y: arrays of one shape)."""
        z, y = np.asarray(z, float), np.asarray(y, float)
        if self.name == "squared":
            return 0.5 * (z - y) ** 2
        if self.name == "squared_hinge":
            return 0.5 * np.maximum(0.0, 1.0 - y * z) ** 2
        if self.name == "logistic":
            return np.logaddexp(0.0, -y * z)
        r = np.abs(z - y)
        if self.name == "huber":
            d = self.param
            return np.where(r <= d, 0.5 * r**2, d * r - 0.5 * d**2)
        return np.maximum(0.0, r - self.param)

    # ------------------------------------------------------------------ dual
    def box(self, y: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper ends of the box where $d$ is finite (closed; the logistic box's ends are
        limits, where $d$ stays finite but its derivative does not).

        - squared: $\\mathbb R$; squared hinge: $y a \\ge 0$; logistic: $0 \\le y a \\le c$;
          Huber: $|a| \\le c\\delta$; epsilon-insensitive: $|a| \\le c$.
        """
        c = _check_c(c)
        y = np.asarray(y, float)
        inf = np.full(y.shape, np.inf)
        if self.name == "squared":
            return -inf, inf
        if self.name == "squared_hinge":
            return np.where(y > 0, 0.0, -np.inf), np.where(y > 0, np.inf, 0.0)
        if self.name == "logistic":
            return np.where(y > 0, 0.0, -c), np.where(y > 0, c, 0.0)
        half = c * (self.param if self.name == "huber" else 1.0)
        return np.full(y.shape, -half), np.full(y.shape, half)

    def dual_term(self, a: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
        """$d(a) = c\\,\\xi_y^*(-a/c)$ elementwise ($+\\infty$ outside the box).

        Derivations (with $s = -a/c$ the conjugate's argument):
        squared: $\\xi^*(s) = s^2/2 + sy$, so $d = a^2/(2c) - ay$; squared hinge ($y = \\pm1$):
        $\\xi^*(s) = s^2/2 + sy$ for $sy \\le 0$ (else $+\\infty$), so $d = a^2/(2c) - ay$ on $ya \\ge 0$;
        logistic: with $u = ya/c \\in [0, 1]$, $\\xi^* = u\\ln u + (1-u)\\ln(1-u)$, so
        $d = c[u\\ln u + (1-u)\\ln(1-u)]$; Huber: $\\xi^*(s) = s^2/2 + sy$ on $|s| \\le \\delta$;
        epsilon-insensitive: $\\xi^*(s) = sy + \\varepsilon|s|$ on $|s| \\le 1$, so $d = -ay + \\varepsilon|a|$.
        """
        c = _check_c(c)
        a, y = np.asarray(a, float), np.asarray(y, float)
        lo, hi = self.box(y, c)
        tol = 1e-12 * c
        outside = (a < lo - tol) | (a > hi + tol)
        if self.name == "logistic":
            u = np.clip(y * a / c, 0.0, 1.0)
            with np.errstate(divide="ignore", invalid="ignore"):
                val = c * (np.where(u > 0, u * np.log(u), 0.0) + np.where(u < 1, (1 - u) * np.log1p(-u), 0.0))
        elif self.name == "eps_insensitive":
            val = -a * y + self.param * np.abs(a)
        else:
            val = a**2 / (2 * c) - a * y
        return np.where(outside, np.inf, val)

    def dual_grad(self, a: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
        """$d'(a)$ inside the box (for the epsilon-insensitive loss: a subgradient, $\\varepsilon\\,\\mathrm{sign}(a) - y$)."""
        c = _check_c(c)
        a, y = np.asarray(a, float), np.asarray(y, float)
        if self.name == "logistic":
            u = y * a / c
            return y * np.log(u / (1 - u))
        if self.name == "eps_insensitive":
            return self.param * np.sign(a) - y
        return a / c - y

    def dual_hess(self, a: np.ndarray, y: np.ndarray, c: float) -> np.ndarray:
        """$d''(a)$ inside the box (0 for the epsilon-insensitive loss away from its kink)."""
        c = _check_c(c)
        a, y = np.asarray(a, float), np.asarray(y, float)
        if self.name == "logistic":
            u = y * a / c
            return 1.0 / (c * u * (1 - u))
        if self.name == "eps_insensitive":
            return np.zeros_like(a)
        return np.full(a.shape, 1.0 / c)

    def interior_start(self, y: np.ndarray, c: float) -> np.ndarray:
        """A point strictly inside the box where the dual is finite (logistic: $ya = c/2$; others 0)."""
        c = _check_c(c)
        y = np.asarray(y, float)
        if self.name == "logistic":
            return 0.5 * c * y
        return np.zeros_like(y)


def make_loss(name: str, param: float | None = None) -> Loss:
    """The :class:`Loss` named ``name`` (Huber's delta defaults to 0.5, epsilon to 0.1, as in the
    authors' code defaults)."""
    if param is None:
        param = {"huber": 0.5, "eps_insensitive": 0.1}.get(name, 0.0)
    return Loss(name, float(param))


def primal_objective(theta: np.ndarray, features: np.ndarray, y: np.ndarray, loss: Loss, c: float) -> float:
    """$P(\\theta) = \\frac12\\|\\theta\\|^2 + c\\sum_i \\xi_{y_i}(\\varphi_i^T\\theta)$.

    Args:
        theta: (M,) weights; features: (n, M) rows $\\varphi(x_i)$; y: (n,) labels/targets.
    """
    c = _check_c(c)
    theta = np.asarray(theta, float)
    return float(0.5 * theta @ theta + c * np.sum(loss.primal(features @ theta, y)))


def dual_objective(alpha: np.ndarray, features: np.ndarray, y: np.ndarray, loss: Loss, c: float) -> float:
    """$D(\\alpha) = \\frac12\\|\\Phi^T\\alpha\\|^2 + \\sum_i d_i(\\alpha_i)$ ($+\\infty$ outside the box)."""
    beta = np.asarray(features, float).T @ np.asarray(alpha, float)
    return float(0.5 * beta @ beta + np.sum(loss.dual_term(alpha, y, c)))


def duality_gap(alpha: np.ndarray, features: np.ndarray, y: np.ndarray, loss: Loss, c: float) -> float:
    """$P(\\Phi^T\\alpha) + D(\\alpha) \\ge 0$ (weak duality), zero exactly at the optimum."""
    theta = np.asarray(features, float).T @ np.asarray(alpha, float)
    return primal_objective(theta, features, y, loss, c) + dual_objective(alpha, features, y, loss, c)
