r"""An asynchronous bundle method (ABM) with simulated delays, and delayed gradient descent.

Source: the asynchronous bundle method of "An Asynchronous Bundle Method for Distributed Learning
Problems" (ICLR 2025); the server update below follows the authors' public parameter-server code
as summarised in the research notes (the paper's text was not available).

Problem: $F(x) = \sum_{i=1}^n f_i(x)$, $f_i$ convex and smooth, held by worker $i$ (here
$\ell_2$-regularised logistic losses).  The server keeps, per worker, the last $m$ cuts
$(z_{ij}, f_i(z_{ij}), g_{ij} = \nabla f_i(z_{ij}))$, the worker's last query point $z_i$ and a local
smoothness estimate $\hat L_i = \|g_{\rm new} - g_{\rm prev}\|/\|z_{\rm new} - z_{\rm prev}\|$.  When a
worker reports, the server sets $L = c\sum_i\hat L_i$, $\bar z = \frac1L\sum_i c\hat L_i z_i$ and

.. math::  x_{k+1} = \arg\min_x \sum_i \max_{j\le m}\big[f_i(z_{ij}) + \langle g_{ij}, x - z_{ij}\rangle\big]
           + \frac L2\|x - \bar z\|^2,

solved in the dual over one simplex per worker, $x(\lambda) = \bar z - \frac1L\sum_i G_i\lambda_i$
(accelerated projected gradient to a duality gap $\delta$).  No parameter depends on the delay.
Each worker $i$ takes ``compute_time[i]`` time units per gradient; the event simulator records
the delay (in server iterations) of every report.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import special

__all__ = [
    "ABMRun", "DistributedLogistic", "abm_run", "cut_model", "delayed_gradient_descent",
    "distributed_logistic", "event_delays", "project_simplex", "project_simplex_rows",
]


@dataclass(frozen=True)
class DistributedLogistic:
    r"""$f_i(x) = \sum_{r \in \text{worker } i}\log(1 + e^{-b_r a_r^\top x}) + \frac{\mu}{2n}\|x\|^2$.

    Attributes: A (list of per-worker data matrices), b (labels), mu ($\ell_2$ weight),
    x_star and F_star (computed by Newton's method to float64 precision), nonconvex_worker
    (index of a worker whose loss gets $-\frac{\kappa}{2}\|x\|^2$ added, or -1).
    """

    A: list
    b: list
    mu: float
    kappa: float = 0.0
    nonconvex_worker: int = -1
    x_star: np.ndarray = field(default=None)
    F_star: float = 0.0

    @property
    def n(self) -> int:
        return len(self.A)

    def f_i(self, i: int, x: np.ndarray) -> tuple[float, np.ndarray]:
        """Value and gradient of worker ``i``'s loss at ``x``."""
        M = self.A[i] * self.b[i][:, None]
        z = M @ x
        val = float(np.sum(np.logaddexp(0.0, -z))) + self.mu / (2 * self.n) * float(x @ x)
        grad = -M.T @ special.expit(-z) + self.mu / self.n * x
        if i == self.nonconvex_worker:
            val -= 0.5 * self.kappa * float(x @ x)
            grad = grad - self.kappa * x
        return val, grad

    def F(self, x: np.ndarray) -> float:
        return sum(self.f_i(i, x)[0] for i in range(self.n))

    def grad_F(self, x: np.ndarray) -> np.ndarray:
        return sum(self.f_i(i, x)[1] for i in range(self.n))

    def hessian_F(self, x: np.ndarray) -> np.ndarray:
        H = (self.mu - (self.kappa if self.nonconvex_worker >= 0 else 0.0)) * np.eye(x.size)
        for Ai, bi in zip(self.A, self.b, strict=True):
            p = special.expit((Ai * bi[:, None]) @ x)
            H = H + Ai.T @ (Ai * (p * (1 - p))[:, None])
        return H


def distributed_logistic(rng: np.random.Generator, n_workers: int, per_worker: int, d: int,
                         mu: float, *, kappa: float = 0.0, nonconvex_worker: int = -1) -> DistributedLogistic:
    r"""Random logistic-regression data split over ``n_workers``; $x^\star$, $F^\star$ by Newton.

    Raises:
        ValueError: on non-positive sizes or $\mu \le 0$.
    """
    if n_workers < 1 or per_worker < 1 or d < 1 or not mu > 0:
        raise ValueError("need positive sizes and mu > 0")
    w = rng.standard_normal(d)
    A, b = [], []
    for _ in range(n_workers):
        Ai = rng.standard_normal((per_worker, d)) / math.sqrt(d)
        bi = np.where(Ai @ w + 0.5 * rng.standard_normal(per_worker) >= 0, 1.0, -1.0)
        A.append(Ai)
        b.append(bi)
    prob = DistributedLogistic(A, b, float(mu), float(kappa), int(nonconvex_worker))
    x = np.zeros(d)
    for _ in range(100):
        step = np.linalg.solve(prob.hessian_F(x), prob.grad_F(x))
        x = x - step
        if np.linalg.norm(step) <= 1e-15 * max(1.0, np.linalg.norm(x)):
            break
    return DistributedLogistic(A, b, float(mu), float(kappa), int(nonconvex_worker), x, prob.F(x))


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``v`` onto the probability simplex (sort-based, Held et al. 1974)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    idx = np.arange(1, v.size + 1)
    rho = np.nonzero(u - css / idx > 0)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1.0), 0.0)


def project_simplex_rows(v: np.ndarray) -> np.ndarray:
    """Each row of ``v`` (shape ``(k, m)``) projected onto the probability simplex, vectorised.

    The same sort-based rule as :func:`project_simplex`, applied row by row in one pass.
    """
    v = np.atleast_2d(np.asarray(v, dtype=float))
    u = -np.sort(-v, axis=1)
    css = np.cumsum(u, axis=1) - 1.0
    idx = np.arange(1, v.shape[1] + 1)
    rho = (u - css / idx > 0).shape[1] - 1 - np.argmax((u - css / idx > 0)[:, ::-1], axis=1)
    theta = css[np.arange(v.shape[0]), rho] / (rho + 1.0)
    return np.maximum(v - theta[:, None], 0.0)


def _project_blocks(z: np.ndarray, sizes: list, splits: np.ndarray) -> np.ndarray:
    """Each worker's block of ``z`` projected onto its simplex, all blocks in one vectorised pass.

    Blocks of unequal length are padded with -1e300: a padded entry never enters the threshold
    of the sort-based rule (its partial-sum test is negative), so the real entries are projected
    exactly as alone, and the padding is dropped.
    """
    if len(set(sizes)) == 1:
        return project_simplex_rows(z.reshape(len(sizes), sizes[0])).ravel()
    width = max(sizes)
    padded = np.full((len(sizes), width), -1e300)
    mask = np.arange(width) < np.asarray(sizes)[:, None]
    padded[mask] = z
    return project_simplex_rows(padded)[mask]


def _solve_subproblem(G: list, V: list, zbar: np.ndarray, L: float, delta: float,
                      max_iter: int = 300) -> np.ndarray:
    r"""Maximise $D(\lambda) = \sum_i(-v_i^\top\lambda_i) + \langle\bar z, G\lambda\rangle - \frac1{2L}\|G\lambda\|^2$
    over a product of simplices by FISTA; stop at a duality gap below ``delta``; return $x(\lambda)$."""
    Gall = np.hstack(G)
    vall = np.concatenate(V)
    sizes = [g.shape[1] for g in G]
    splits = np.cumsum(sizes)[:-1]
    lam = np.concatenate([np.eye(s)[-1] for s in sizes])  # start at each worker's newest cut
    step = L / max(float(np.linalg.norm(Gall, 2)) ** 2, 1e-300)
    y, lam_prev, t = lam.copy(), lam.copy(), 1.0
    x = zbar - Gall @ lam / L
    for it in range(max_iter):
        if it % 10 == 0:
            x = zbar - Gall @ lam / L
            # primal value of the model at x(lam) minus the dual value is the duality gap
            cuts = Gall.T @ x - vall
            best = (cuts.reshape(len(sizes), -1).max(axis=1).sum() if len(set(sizes)) == 1
                    else sum(np.max(c) for c in np.split(cuts, splits)))
            primal = float(best) + L / 2 * float((x - zbar) @ (x - zbar))
            dual = float(-vall @ lam + zbar @ (Gall @ lam) - (Gall @ lam) @ (Gall @ lam) / (2 * L))
            if primal - dual <= delta * (1.0 + abs(primal)):
                break
        grad = -vall + Gall.T @ (zbar - Gall @ y / L)
        z = y + step * grad
        lam_prev, lam = lam, _project_blocks(z, sizes, splits)
        t_next = (1 + math.sqrt(1 + 4 * t * t)) / 2
        y = lam + (t - 1) / t_next * (lam - lam_prev)
        t = t_next
    return zbar - Gall @ lam / L


@dataclass
class ABMRun:
    r"""Record of an ABM run.

    Attributes:
        F: $F(x_k)$ per server iteration, shape ``(K + 1,)``; delays: delay (server iterations)
        of each report; cuts: per worker, the list of stored cuts $(z, f, g)$ at the end;
        cut_history: all cuts ever stored, as (worker, z, f, g).
    """

    F: np.ndarray
    delays: np.ndarray
    cuts: list
    cut_history: list


def abm_run(problem: DistributedLogistic, compute_time: np.ndarray, n_iter: int, *, bundle_size: int = 10,
            c: float = 1.0, delta: float = 1e-10, L_init: float = 1.0,
            target: float | None = None, gradient_noise: float = 0.0,
            rng: np.random.Generator | None = None) -> ABMRun:
    r"""Simulate ABM with worker $i$ taking ``compute_time[i]`` per gradient (event-driven).

    All workers start at $x_0 = 0$; each report is one server iteration; ties are processed one
    at a time in worker order.  The delay of a report is the number of server iterations since
    the point it evaluates was issued.  With ``target``, the run stops once
    $\min_{j \le k} F(x_j) - F^\star \le$ target $\cdot |F^\star|$.  ``delta`` is the subproblem's
    relative duality gap.  ``gradient_noise > 0`` adds independent $\mathcal N(0, \text{noise}^2 I)$
    noise (drawn from ``rng``) to every reported gradient: an inexact oracle whose error does not
    vanish (the exact-oracle hypothesis of the deterministic setting broken).

    Raises:
        ValueError: on a compute-time vector of the wrong length or non-positive entries, or
            gradient noise without a generator.
    """
    if gradient_noise < 0 or (gradient_noise > 0 and rng is None):
        raise ValueError("gradient_noise must be >= 0, and a generator is needed when it is positive")
    n = problem.n
    compute_time = np.asarray(compute_time, dtype=float)
    if compute_time.shape != (n,) or np.any(compute_time <= 0):
        raise ValueError(f"compute_time must be {n} positive numbers")
    d = problem.A[0].shape[1]
    x = np.zeros(d)
    bundles: list[list] = [[] for _ in range(n)]
    z_last = [None] * n
    g_last = [None] * n
    L_hat = np.full(n, float(L_init))
    issued = np.zeros(n, dtype=int)              # server iteration at which the query was issued
    query = [x.copy() for _ in range(n)]
    events = [(compute_time[i], i) for i in range(n)]
    heapq.heapify(events)
    Fs, delays, history = [problem.F(x)], [], []
    for k in range(int(n_iter)):
        t, i = heapq.heappop(events)
        z = query[i]
        fz, gz = problem.f_i(i, z)
        if gradient_noise > 0:
            gz = gz + gradient_noise * rng.standard_normal(gz.size)
        delays.append(k - issued[i])
        if z_last[i] is not None and np.linalg.norm(z - z_last[i]) > 0:
            L_hat[i] = float(np.linalg.norm(gz - g_last[i]) / np.linalg.norm(z - z_last[i]))
        z_last[i], g_last[i] = z.copy(), gz.copy()
        bundles[i].append((z.copy(), fz, gz.copy()))
        history.append((i, z.copy(), fz, gz.copy()))
        if len(bundles[i]) > bundle_size:
            bundles[i].pop(0)
        L = c * float(np.sum(L_hat))
        zbar = sum(c * L_hat[j] * (z_last[j] if z_last[j] is not None else query[j]) for j in range(n)) / L
        if all(bundles[j] for j in range(n)):
            G = [np.array([cut[2] for cut in bundles[j]]).T for j in range(n)]
            V = [np.array([cut[2] @ cut[0] - cut[1] for cut in bundles[j]]) for j in range(n)]
            x = _solve_subproblem(G, V, zbar, L, delta)
        else:
            x = zbar - gz / L
        Fs.append(problem.F(x))
        query[i] = x.copy()
        if target is not None and min(Fs) - problem.F_star <= target * abs(problem.F_star):
            break
        issued[i] = k + 1
        heapq.heappush(events, (t + compute_time[i], i))
    return ABMRun(np.array(Fs), np.array(delays), bundles, history)


def cut_model(cuts: list, n: int, x: np.ndarray) -> float:
    r"""$\sum_i \max_j [f_i(z_{ij}) + \langle g_{ij}, x - z_{ij}\rangle]$ for cuts ``(worker, z, f, g)``."""
    best = np.full(n, -np.inf)
    for i, z, f, g in cuts:
        best[i] = max(best[i], f + float(g @ (x - z)))
    return float(np.sum(best))


def delayed_gradient_descent(problem: DistributedLogistic, gamma: float, tau: int, n_iter: int,
                             target: float | None = None) -> np.ndarray:
    r"""$x_{k+1} = x_k - \gamma\nabla F(x_{k-\tau})$ from $x_0 = \dots = x_{-\tau} = 0$; returns $F(x_k)$.

    With ``target``, stops at the first $k$ with $F(x_k) - F^\star \le$ target $\cdot|F^\star|$
    (the returned array then ends there); without it, all ``n_iter`` steps are run.

    Raises:
        ValueError: unless $\gamma > 0$ and $\tau \ge 0$.
    """
    if not gamma > 0 or tau < 0:
        raise ValueError("need gamma > 0 and tau >= 0")
    # All workers' data stacked: F(x) = sum_j log(1 + exp(-z_j)) + (mu - kappa')/2 ||x||^2 with
    # z = M x (kappa' the nonconvex worker's kappa, or 0); one product M x per iterate, reused
    # for the value now and for the delayed gradient tau steps later.
    M = np.vstack([Ai * bi[:, None] for Ai, bi in zip(problem.A, problem.b, strict=True)])
    reg = problem.mu - (problem.kappa if problem.nonconvex_worker >= 0 else 0.0)
    F_star, tol = problem.F_star, (None if target is None else target * abs(problem.F_star))
    x = np.zeros(M.shape[1])
    z = M @ x
    hist = [(x, z)] * (tau + 1)                       # (x_j, M x_j) for j = k - tau, ..., k
    Fs = [float(np.sum(np.logaddexp(0.0, -z))) + 0.5 * reg * float(x @ x)]
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(int(n_iter)):
            xd, zd = hist[-1 - tau]
            x = hist[-1][0] - gamma * (reg * xd - M.T @ special.expit(-zd))
            z = M @ x
            hist.append((x, z))
            if len(hist) > tau + 1:
                del hist[0]
            Fs.append(float(np.sum(np.logaddexp(0.0, -z))) + 0.5 * reg * float(x @ x))
            if tol is not None and Fs[-1] - F_star <= tol:
                break
    return np.array(Fs)


def event_delays(compute_time: np.ndarray, n_events: int) -> np.ndarray:
    r"""Delays (in server iterations) of the first ``n_events`` reports of the event schedule of
    :func:`abm_run`, without the optimisation: worker $i$ reports every ``compute_time[i]`` time
    units, each report is one server iteration, ties in worker order; the delay of a report is
    the number of server iterations since its query point was issued.

    Raises:
        ValueError: on non-positive compute times or ``n_events < 1``.
    """
    compute_time = np.asarray(compute_time, dtype=float)
    if compute_time.ndim != 1 or np.any(compute_time <= 0) or n_events < 1:
        raise ValueError("need positive compute times and n_events >= 1")
    n = compute_time.size
    issued = np.zeros(n, dtype=int)
    events = [(compute_time[i], i) for i in range(n)]
    heapq.heapify(events)
    out = []
    for k in range(int(n_events)):
        t, i = heapq.heappop(events)
        out.append(k - issued[i])
        issued[i] = k + 1
        heapq.heappush(events, (t + compute_time[i], i))
    return np.array(out)
