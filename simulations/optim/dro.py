r"""Penalised $\chi^2$ distributionally robust optimisation through its dual, and D-SGD-C.

Sources: Q. Zhang, Y. Zhou, S. Khan, A. Prater-Bennette, L. Shen, S. Zou, "Revisiting Large-Scale
Non-convex Distributionally Robust Optimization", ICLR 2025 (OpenReview JYwVijuNA7); the dual
formulation follows J. Jin, B. Zhang, H. Wang, L. Wang, NeurIPS 2021 (arXiv:2110.12459).

Problem: $\Psi(x) = \sup_Q \mathbb E_Q\ell(x;\xi) - \lambda D_\psi(Q\|P)$ with
$\psi(t) = (t - 1)^2$.  Its dual is $\Psi(x) = \min_\eta L(x, \eta)$,

.. math::  L(x, \eta) = \lambda\,\mathbb E_P\,\psi^*\!\Big(\frac{\ell(x;\xi) - \eta}{\lambda}\Big) + \eta,
           \qquad \psi^*(s) = \tfrac14 (s + 2)_+^2 - 1.

With $s = (\ell - \eta)/\lambda$ (derivation in the research notes, checked here):
$\partial_\eta L = 1 - \frac12\mathbb E(s+2)_+$, $\nabla_x L = \frac12\mathbb E[(s+2)_+\nabla\ell]$,
$\partial^2_{\eta\eta}L = \frac1{2\lambda}\Pr(s > -2)$,
$\nabla_x\partial_\eta L = -\frac1{2\lambda}\mathbb E[\mathbf 1\{s>-2\}\nabla\ell]$,
$\nabla^2_{xx}L = \frac12\mathbb E[(s+2)_+\nabla^2\ell] + \frac1{2\lambda}\mathbb E[\mathbf 1\{s>-2\}\nabla\ell\nabla\ell^\top]$.

Loss: the nonconvex robust-regression loss $\ell(x; a, y) = \log(1 + (a^\top x - y)^2/2)$, with
$|\partial_r\ell| \le 1/\sqrt2$ and $|\partial_r^2\ell| \le 1$ in the residual $r$, so
$G = \max_i\|a_i\|/\sqrt2$ and $M = \max_i\|a_i\|^2$ bound its gradient and Hessian.

D-SGD-C (as reconstructed in the research notes): mini-batch gradients $g_x, g_\eta$,
$x \leftarrow x - \gamma\min(1, \Gamma/\|g_x\|)\,g_x$ (clipping on $x$ only) and
$\eta \leftarrow \eta - \beta g_\eta$.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize

__all__ = [
    "DROData", "DualDerivatives", "chi2_conjugate", "dual_derivatives", "dual_minimum",
    "dual_objective", "dsgdc_run", "dsgdc_vr_run", "primal_value", "robust_regression_data",
    "per_sample_gradient_moments", "sample_dual_blocks", "sample_noise_moments", "atom_instance",
    "opposite_pairs_instance",
]


def chi2_conjugate(s, positive_part: bool = True):
    r"""$\psi^*(s) = \frac14(s+2)_+^2 - 1$ (``positive_part=False``: the wrong $\frac14(s+2)^2 - 1$)."""
    s = np.asarray(s, dtype=float)
    u = np.maximum(s + 2.0, 0.0) if positive_part else s + 2.0
    return 0.25 * u * u - 1.0


def dual_objective(losses: np.ndarray, eta: float, lam: float, positive_part: bool = True) -> float:
    r"""$L = \lambda\,\frac1m\sum_i\psi^*((\ell_i - \eta)/\lambda) + \eta$ for a uniform $P$ on $m$ losses."""
    if not lam > 0:
        raise ValueError(f"lambda must be positive, got {lam!r}")
    return float(lam * np.mean(chi2_conjugate((np.asarray(losses) - eta) / lam, positive_part)) + eta)


def dual_minimum(losses: np.ndarray, lam: float, positive_part: bool = True) -> tuple[float, float]:
    r"""$\min_\eta L(\eta)$ and its minimiser, by bracketing the root of $\partial_\eta L$ (monotone).

    With the positive part, $\partial_\eta L = 1 - \frac1{2m}\sum_i((\ell_i - \eta)/\lambda + 2)_+$
    increases from $-\infty$ to 1, so the root is unique; without it the objective is a convex
    quadratic in $\eta$ minimised in closed form.

    Raises:
        ValueError: on non-positive $\lambda$ or empty losses.
    """
    losses = np.asarray(losses, dtype=float)
    if losses.size == 0 or not lam > 0:
        raise ValueError("need at least one loss and lambda > 0")

    def deta(eta: float) -> float:
        u = (losses - eta) / lam + 2.0
        return 1.0 - 0.5 * float(np.mean(np.maximum(u, 0.0) if positive_part else u))

    if positive_part:
        lo, hi = losses.min() - 2 * lam - 1.0, losses.max() + 2 * lam + 1.0
        while deta(lo) > 0:
            lo -= 2 * (hi - lo)
        eta = optimize.brentq(deta, lo, hi, xtol=1e-14, rtol=4 * np.finfo(float).eps, maxiter=500)
    else:
        eta = float(np.mean(losses))  # root of 1 - (mean(l) - eta)/(2 lam) - 1
    return dual_objective(losses, eta, lam, positive_part), float(eta)


def primal_problem(losses: np.ndarray, lam: float) -> Any:
    r"""$\max_{q \in \Delta_m}\sum_i q_i\ell_i - \lambda\frac1m\sum_i(m q_i - 1)^2$ as a cvxpy problem,
    solved with CLARABEL (its ``value``, ``status`` and ``solver_stats`` give the certificate)."""
    import cvxpy as cp

    losses = np.asarray(losses, dtype=float)
    m = losses.size
    q = cp.Variable(m, nonneg=True)
    objective = cp.Maximize(losses @ q - lam / m * cp.sum_squares(m * q - 1))
    prob = cp.Problem(objective, [cp.sum(q) == 1])
    prob.solve(solver="CLARABEL")
    return prob


def primal_value(losses: np.ndarray, lam: float) -> tuple[float, str]:
    r"""The optimal value of :func:`primal_problem` and the solver's status."""
    prob = primal_problem(losses, lam)
    return float(prob.value), str(prob.status)


@dataclass(frozen=True)
class DROData:
    r"""Samples $(a_i, y_i)$, $i < m$, of the robust-regression loss, with $\lambda$, $G$ and $M$."""

    A: np.ndarray
    y: np.ndarray
    lam: float

    @property
    def G(self) -> float:
        return float(np.max(np.linalg.norm(self.A, axis=1)) / math.sqrt(2.0))

    @property
    def M(self) -> float:
        return float(np.max(np.sum(self.A**2, axis=1)))

    def losses(self, x: np.ndarray, idx: np.ndarray | None = None) -> np.ndarray:
        A, y = (self.A, self.y) if idx is None else (self.A[idx], self.y[idx])
        r = A @ x - y
        return np.log1p(r * r / 2.0)


def robust_regression_data(rng: np.random.Generator, m: int, d: int, lam: float,
                           outlier_fraction: float = 0.1) -> DROData:
    r"""$a_i \sim \mathcal N(0, I_d/d)$, $y_i = a_i^\top x_\circ + 0.1\,\epsilon_i$ with a fraction of
    outliers $y_i \sim \mathcal N(0, 25)$.

    Raises:
        ValueError: on $m, d < 1$ or $\lambda \le 0$.
    """
    if m < 1 or d < 1 or not lam > 0:
        raise ValueError("need m, d >= 1 and lambda > 0")
    A = rng.standard_normal((m, d)) / math.sqrt(d)
    x_true = rng.standard_normal(d)
    y = A @ x_true + 0.1 * rng.standard_normal(m)
    out = rng.random(m) < outlier_fraction
    y[out] = 5.0 * rng.standard_normal(int(out.sum()))
    return DROData(A, y, float(lam))


@dataclass
class DualDerivatives:
    """Exact derivatives of the dual objective at one $(x, \\eta)$ (see the module docstring)."""

    d_eta: float
    grad_x: np.ndarray
    d_eta_eta: float
    d_x_eta: np.ndarray
    hess_xx: np.ndarray


def dual_derivatives(data: DROData, x: np.ndarray, eta: float, idx: np.ndarray | None = None,
                     lam: float | None = None) -> DualDerivatives:
    r"""Exact first and second derivatives of $L(x, \eta)$ over the samples ``idx`` (all by default).

    ``lam`` overrides $\lambda$ (for negative controls).
    """
    lam = data.lam if lam is None else float(lam)
    A, y = (data.A, data.y) if idx is None else (data.A[idx], data.y[idx])
    r = A @ x - y
    loss = np.log1p(r * r / 2.0)
    dl = r / (1.0 + r * r / 2.0)                       # d loss / d residual
    d2l = (1.0 - r * r / 2.0) / (1.0 + r * r / 2.0) ** 2
    s = (loss - eta) / lam
    w = np.maximum(s + 2.0, 0.0)
    active = (s > -2.0).astype(float)
    n = r.size
    grad_ell = A * dl[:, None]
    d_eta = 1.0 - 0.5 * float(np.mean(w))
    grad_x = 0.5 * (grad_ell.T @ w) / n
    d_eta_eta = float(np.mean(active)) / (2.0 * lam)
    d_x_eta = -(grad_ell.T @ active) / (2.0 * lam * n)
    hess = 0.5 * (A.T @ (A * (w * d2l)[:, None])) / n + (grad_ell.T @ (grad_ell * active[:, None])) / (2 * lam * n)
    return DualDerivatives(d_eta, grad_x, d_eta_eta, d_x_eta, hess)


def dsgdc_run(data: DROData, rng: np.random.Generator, x0: np.ndarray, eta0: float, gamma: float,
              beta: float, clip: float | None, batch: int, n_steps: int, target: float | None = None
              ) -> tuple[np.ndarray, int]:
    r"""D-SGD-C: clipped SGD on $x$ and SGD on $\eta$ with mini-batches of size ``batch``.

    Args:
        clip: $\Gamma$; ``None`` runs unclipped SGD on $x$ (for controls).
        target: stop at the first step where the full gradient norm
            $\sqrt{\|\nabla_x L\|^2 + (\partial_\eta L)^2}$ is at most ``target``.

    Returns:
        (full gradient norms at the iterates, number of steps taken).  Non-finite iterates stop
        the run (the last norm is then ``inf``).
    """
    if not (gamma > 0 and beta > 0 and batch >= 1):
        raise ValueError("need gamma, beta > 0 and batch >= 1")
    x, eta = np.asarray(x0, dtype=float).copy(), float(eta0)
    m = data.A.shape[0]
    norms = []
    t = 0
    while True:
        full = dual_derivatives(data, x, eta)
        gn = math.hypot(float(np.linalg.norm(full.grad_x)), full.d_eta)
        norms.append(gn if math.isfinite(gn) else math.inf)
        if not math.isfinite(gn) or (target is not None and gn <= target) or t >= n_steps:
            break
        idx = rng.integers(0, m, size=batch)
        st = dual_derivatives(data, x, eta, idx)
        gx = st.grad_x
        scale = 1.0 if clip is None else min(1.0, clip / max(float(np.linalg.norm(gx)), 1e-300))
        x = x - gamma * scale * gx
        eta = eta - beta * st.d_eta
        t += 1
    return np.array(norms), t


def dsgdc_vr_run(data: DROData, rng: np.random.Generator, x0: np.ndarray, eta0: float, gamma: float,
                 beta: float, clip: float, batch: int, refresh_batch: int, period: int, n_steps: int,
                 target: float | None = None) -> tuple[np.ndarray, int]:
    r"""Variance-reduced D-SGD-C (reconstructed: a SPIDER estimator with the clipped step).

    Every ``period`` steps the estimator is refreshed with a batch of ``refresh_batch`` samples,
    $v_t = \hat\nabla L(x_t, \eta_t)$; in between
    $v_t = v_{t-1} + \hat\nabla L(x_t, \eta_t) - \hat\nabla L(x_{t-1}, \eta_{t-1})$ on one shared
    batch of ``batch`` samples.  Then $x \leftarrow x - \gamma\min(1, \Gamma/\|v^x\|)v^x$ and
    $\eta \leftarrow \eta - \beta v^\eta$ (Fang et al. 2018 for SPIDER; the paper's variant was not
    read).

    Returns:
        (full gradient norms at the iterates, number of steps), as :func:`dsgdc_run`.

    Raises:
        ValueError: on non-positive step sizes, batches or period.
    """
    if not (gamma > 0 and beta > 0 and clip > 0 and batch >= 1 and refresh_batch >= 1 and period >= 1):
        raise ValueError("need positive steps, clip, batches and period")
    x, eta = np.asarray(x0, dtype=float).copy(), float(eta0)
    m = data.A.shape[0]
    norms: list[float] = []
    vx, veta = np.zeros_like(x), 0.0
    x_prev, eta_prev = x.copy(), eta
    t = 0
    while True:
        full = dual_derivatives(data, x, eta)
        gn = math.hypot(float(np.linalg.norm(full.grad_x)), full.d_eta)
        norms.append(gn if math.isfinite(gn) else math.inf)
        if not math.isfinite(gn) or (target is not None and gn <= target) or t >= n_steps:
            break
        if t % period == 0:
            est = dual_derivatives(data, x, eta, rng.integers(0, m, size=refresh_batch))
            vx, veta = est.grad_x, est.d_eta
        else:
            idx = rng.integers(0, m, size=batch)
            now, before = dual_derivatives(data, x, eta, idx), dual_derivatives(data, x_prev, eta_prev, idx)
            vx = vx + now.grad_x - before.grad_x
            veta = veta + now.d_eta - before.d_eta
        x_prev, eta_prev = x.copy(), eta
        scale = min(1.0, clip / max(float(np.linalg.norm(vx)), 1e-300))
        x = x - gamma * scale * vx
        eta = eta - beta * veta
        t += 1
    return np.array(norms), t


def per_sample_gradient_moments(data: DROData, x: np.ndarray, eta: float) -> tuple[float, float, float, float]:
    r"""Exact noise of one-sample gradients of $L$ at $(x, \eta)$ under the uniform $P$ on the data.

    Returns:
        $(\mathbb E\|g_x - \nabla_x L\|^2,\ \mathrm{Var}(g_\eta),\ \mathrm{Var}_\xi\,\ell(x;\xi),\
        \partial_\eta L)$, with $g_x = \frac12 w\nabla\ell$, $g_\eta = 1 - \frac12 w$,
        $w = ((\ell - \eta)/\lambda + 2)_+$ per sample (averages over the $m$ samples, no sampling).
    """
    r = data.A @ np.asarray(x, dtype=float) - data.y
    q = 1.0 + 0.5 * r * r
    loss = np.log(q)
    w = np.maximum((loss - eta) / data.lam + 2.0, 0.0)
    gx = (0.5 * w * r / q)[:, None] * data.A
    dev = gx - gx.mean(axis=0)
    geta = 1.0 - 0.5 * w
    return (float(np.mean(np.sum(dev * dev, axis=1))), float(np.var(geta)), float(np.var(loss)),
            float(np.mean(geta)))


# --------------------------------------------------------------------------- per-sample form
def _active_weights(losses: np.ndarray, eta: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    r"""$w_i = ((\ell_i - \eta)/\lambda + 2)_+$ and the indicator of $w_i > 0$."""
    if not lam > 0:
        raise ValueError(f"lambda must be positive, got {lam!r}")
    u = (np.asarray(losses, dtype=float) - eta) / lam + 2.0
    return np.maximum(u, 0.0), (u > 0).astype(float)


def sample_dual_blocks(losses: np.ndarray, grads: np.ndarray, hessians: np.ndarray, eta: float,
                       lam: float, probs: np.ndarray | None = None) -> DualDerivatives:
    r"""Exact derivatives of $L(x, \eta)$ from per-sample values at one point $x$.

    For $P = \sum_i p_i\delta_{\xi_i}$ with per-sample loss $\ell_i$, gradient $\nabla\ell_i$ and
    Hessian $\nabla^2\ell_i$ at $x$ (module docstring):
    $\partial_\eta L = 1 - \frac12\sum_i p_iw_i$, $\nabla_xL = \frac12\sum_ip_iw_i\nabla\ell_i$,
    $\partial^2_{\eta\eta}L = \frac1{2\lambda}\sum_i p_i\mathbf 1_i$,
    $\nabla_x\partial_\eta L = -\frac1{2\lambda}\sum_ip_i\mathbf 1_i\nabla\ell_i$,
    $\nabla^2_{xx}L = \frac12\sum_ip_iw_i\nabla^2\ell_i + \frac1{2\lambda}\sum_ip_i\mathbf 1_i\nabla\ell_i\nabla\ell_i^\top$.

    Args:
        losses: ``(m,)``; grads: ``(m, d)``; hessians: ``(m, d, d)``; probs: ``(m,)`` weights
            summing to 1 (uniform by default).

    Raises:
        ValueError: on mismatched shapes, weights not a distribution, or $\lambda \le 0$.
    """
    losses = np.asarray(losses, dtype=float)
    grads = np.asarray(grads, dtype=float)
    hessians = np.asarray(hessians, dtype=float)
    m = losses.size
    if grads.ndim != 2 or grads.shape[0] != m or hessians.shape != (m, grads.shape[1], grads.shape[1]):
        raise ValueError(f"need losses (m,), grads (m, d), hessians (m, d, d); got {losses.shape}, "
                         f"{grads.shape}, {hessians.shape}")
    p = np.full(m, 1.0 / m) if probs is None else np.asarray(probs, dtype=float)
    if p.shape != (m,) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-12:
        raise ValueError("probs must be m non-negative weights summing to 1")
    w, act = _active_weights(losses, eta, lam)
    d_eta = 1.0 - 0.5 * float(p @ w)
    grad_x = 0.5 * grads.T @ (p * w)
    hess = 0.5 * np.einsum("i,ijk->jk", p * w, hessians) + (grads.T * (p * act)) @ grads / (2 * lam)
    return DualDerivatives(d_eta, grad_x, float(p @ act) / (2 * lam), -(grads.T @ (p * act)) / (2 * lam), hess)


def sample_noise_moments(losses: np.ndarray, grads: np.ndarray, eta: float, lam: float,
                         probs: np.ndarray | None = None) -> tuple[float, float, float, float]:
    r"""Exact noise of one-sample gradients of $L$ drawn from $P = \sum_ip_i\delta_{\xi_i}$.

    Returns:
        $(\mathbb E\|g_x - \nabla_xL\|^2,\ \mathrm{Var}(g_\eta),\ \mathrm{Var}(\ell),\ \partial_\eta L)$
        with $g_x = \frac12w\nabla\ell$ and $g_\eta = 1 - \frac12w$ per sample.

    Raises:
        ValueError: as :func:`sample_dual_blocks`.
    """
    losses = np.asarray(losses, dtype=float)
    grads = np.asarray(grads, dtype=float)
    m = losses.size
    if grads.ndim != 2 or grads.shape[0] != m:
        raise ValueError(f"need losses (m,) and grads (m, d); got {losses.shape}, {grads.shape}")
    p = np.full(m, 1.0 / m) if probs is None else np.asarray(probs, dtype=float)
    if p.shape != (m,) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-12:
        raise ValueError("probs must be m non-negative weights summing to 1")
    w, _ = _active_weights(losses, eta, lam)
    gx = 0.5 * w[:, None] * grads
    dev = gx - p @ gx
    geta = 1.0 - 0.5 * w
    mean_loss = float(p @ losses)
    return (float(p @ np.sum(dev * dev, axis=1)), float(p @ (geta - p @ geta) ** 2),
            float(p @ (losses - mean_loss) ** 2), float(p @ geta))


def _robust_loss_derivatives(r: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""$\rho(r) = \log(1 + r^2/2)$, $\rho'(r)$ and $\rho''(r)$ (the module's loss in its residual)."""
    r = np.asarray(r, dtype=float)
    q = 1.0 + 0.5 * r * r
    return np.log(q), r / q, (1.0 - 0.5 * r * r) / (q * q)


def atom_instance(residuals: np.ndarray, directions: np.ndarray, offsets: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Per-sample values at one point of the losses $\ell_i(x) = c_i + \rho(a_i^\top x - y_i)$.

    Sample $i$ has residual $r_i$, feature vector $a_i$ (rows of ``directions``) and loss offset
    $c_i$ (0 by default), so $\ell_i = c_i + \rho(r_i)$, $\nabla\ell_i = \rho'(r_i)a_i$ and
    $\nabla^2\ell_i = \rho''(r_i)a_ia_i^\top$; every loss is $G$-Lipschitz and $M$-smooth with
    $G = \max\|a_i\|/\sqrt2$ and $M = \max\|a_i\|^2$ (the constants of :class:`DROData`).  Offsets
    and residuals are free, so this family realises the per-point values used by the bounds.

    Returns:
        (losses ``(m,)``, gradients ``(m, d)``, Hessians ``(m, d, d)``).

    Raises:
        ValueError: on mismatched shapes.
    """
    r = np.atleast_1d(np.asarray(residuals, dtype=float))
    a = np.atleast_2d(np.asarray(directions, dtype=float))
    if a.shape[0] != r.size:
        raise ValueError(f"need one direction per residual, got {a.shape[0]} and {r.size}")
    c = np.zeros(r.size) if offsets is None else np.asarray(offsets, dtype=float)
    if c.shape != r.shape:
        raise ValueError("need one offset per residual")
    loss, d1, d2 = _robust_loss_derivatives(r)
    return c + loss, d1[:, None] * a, d2[:, None, None] * np.einsum("ij,ik->ijk", a, a)


def opposite_pairs_instance(offsets: np.ndarray, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Pairs of samples with opposite gradients of the largest norm $G$ and loss offsets $c_k$.

    Pair $k$ has residuals $\pm\sqrt2$ (where $|\rho'| = 1/\sqrt2$ is largest) on the same feature
    vector $a$, so both losses equal $c_k + \log 2$ and the gradients are $\pm a/\sqrt2$:
    $\sum_i w_i\nabla\ell_i = 0$ whatever $\eta$, every $\|\nabla\ell_i\| = G$, and the loss
    spread is that of the offsets.

    Returns:
        (losses ``(2K,)``, gradients ``(2K, d)``).
    """
    c = np.repeat(np.asarray(offsets, dtype=float), 2)
    a = np.asarray(direction, dtype=float).ravel()
    r = np.tile([math.sqrt(2.0), -math.sqrt(2.0)], c.size // 2)
    losses, grads, _ = atom_instance(r, np.tile(a, (r.size, 1)), c)
    return losses, grads
