"""Entropic optimal transport: log-domain Sinkhorn and the Gaussian closed form.

For probability vectors a (n,), b (m,) and a cost matrix C (n, m), the entropic transport cost
with the entropy taken relative to the product of the marginals,

    OT_eps(a, b) = min_{pi in Pi(a, b)} <C, pi> + eps KL(pi || a (x) b),

is computed by Sinkhorn's iterations (Peyre & Cuturi, "Computational Optimal Transport",
Sec. 4.2-4.4), stabilised by absorbing the scalings into the dual potentials.  Its dual potentials f, g (normalised so that the dual objective equals
the primal at convergence, <f, a> + <g, b> = OT_eps) are the first variations of OT_eps in a and b
(Feydy et al., AISTATS 2019).

For Gaussians the optimal coupling is Gaussian; in one dimension, with cost $(x - y)^2$,
$\\mathrm{OT}_\\varepsilon = (m_1 - m_2)^2 + s_1^2 + s_2^2 - 2c - \\frac\\varepsilon2\\ln(1 - c^2/(s_1^2s_2^2))$ where the optimal
covariance $c = (-\\varepsilon + \\sqrt{\\varepsilon^2 + 16 s_1^2s_2^2})/4$ solves $2c^2 + \\varepsilon c - 2s_1^2s_2^2 = 0$ (the
mutual information of a bivariate Gaussian is $-\\frac12\\ln(1-\\rho^2)$; cf. Janati, Muzellec, Peyre & Cuturi,
NeurIPS 2020; Mallasto et al., Information Geometry 2022).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    """log sum exp along an axis, shifted by the maximum (no overflow)."""
    m = x.max(axis=axis, keepdims=True)
    return np.squeeze(m, axis=axis) + np.log(np.exp(x - m).sum(axis=axis))


def _check(a: np.ndarray, b: np.ndarray, C: np.ndarray, eps: float) -> None:
    if eps <= 0:
        raise ValueError(f"the entropic regularisation must be positive, not {eps!r}")
    if np.any(a <= 0) or np.any(b <= 0) or abs(a.sum() - 1) > 1e-9 or abs(b.sum() - 1) > 1e-9:
        raise ValueError("the marginals must be positive probability vectors (sum 1)")
    if C.shape != (a.size, b.size):
        raise ValueError(f"cost of shape {C.shape} does not match marginals of sizes {a.size}, {b.size}")


@dataclass
class SinkhornResult:
    """Entropic OT value, dual potentials (f: (n,), g: (m,)), iterations used and the final
    marginal error (the l1 distance of the plan's first marginal to a)."""

    value: float
    f: np.ndarray
    g: np.ndarray
    iterations: int
    marginal_error: float

    def plan(self, C: np.ndarray, a: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
        """The optimal plan pi_kl = a_k b_l exp((f_k + g_l - C_kl)/eps)."""
        return a[:, None] * b[None, :] * np.exp((self.f[:, None] + self.g[None, :] - C) / eps)


def sinkhorn(a: np.ndarray, b: np.ndarray, C: np.ndarray, eps: float, *, tol: float = 1e-13, max_iter: int = 100_000,
             f0: np.ndarray | None = None, g0: np.ndarray | None = None) -> SinkhornResult:
    """Sinkhorn for OT_eps(a, b) with cost C and entropy relative to a (x) b, stabilised by
    absorption (Schmitzer, SIAM J. Sci. Comput. 2019): scaling iterations on the kernel
    exp((f + g - C)/eps), whose scalings are absorbed into the potentials f, g whenever they
    leave [1e-20, 1e20], so nothing overflows whatever C/eps.

    Args:
        a: (n,) and b: (m,) probability vectors (positive entries summing to 1); C: (n, m) cost;
        eps > 0; tol: stop when the first marginal's l1 error is below tol; max_iter: scaling
        iterations in all; g0: a warm start for the second potential (f0 is accepted for symmetry
        of the call and ignored: f is recomputed from g to keep the kernel bounded).
    Raises:
        ValueError: for non-positive weights, weights not summing to 1, or eps <= 0.
    """
    a, b, C = np.asarray(a, float), np.asarray(b, float), np.asarray(C, float)
    _check(a, b, C, eps)
    g = np.zeros(b.size) if g0 is None else np.array(g0, float)
    err, it = np.inf, 0
    while it < max_iter:
        # the f that balances the rows for this g (a log-domain half step): the kernel's entries
        # are then at most 1/b_l, so the scaling iterations cannot overflow
        f = -eps * logsumexp((g[None, :] - C) / eps + np.log(b)[None, :], axis=1)
        kernel = np.exp((f[:, None] + g[None, :] - C) / eps)
        u, v = np.ones(a.size), np.ones(b.size)
        kt = np.ascontiguousarray(kernel.T)
        while it < max_iter:
            it += 1
            u = 1.0 / (kernel @ (b * v))
            v = 1.0 / (kt @ (a * u))
            if it % 10 == 0:
                err = float(np.sum(a * np.abs(u * (kernel @ (b * v)) - 1)))
                if err <= tol:
                    break
                if max(u.max(), v.max(), 1 / u.min(), 1 / v.min()) > 1e20:   # absorb before overflow
                    break
        f += eps * np.log(u)
        g += eps * np.log(v)
        if err <= tol:
            break
    # at convergence the plan's mass is 1 and OT = <f, a> + <g, b> (the dual equals the primal)
    return SinkhornResult(float(f @ a + g @ b), f, g, it, err)


def entropic_ot_newton(a: np.ndarray, b: np.ndarray, C: np.ndarray, eps: float, *, tol: float = 1e-13,
                       max_iter: int = 100, g0: np.ndarray | None = None) -> SinkhornResult:
    """OT_eps(a, b) by Newton's method on the semi-dual (for small problems: a dense n x n solve).

    With f(g)_k = -eps log sum_l b_l exp((g_l - C_kl)/eps) (the first marginal is then exact), the
    concave semi-dual phi(g) = <g, b> + <f(g), a> has gradient b - P^T a (the second marginal's
    error, P_kl = b_l exp((f_k + g_l - C_kl)/eps)) and Hessian -(diag(P^T a) - P^T diag(a) P)/eps;
    Newton's steps (with backtracking on phi) converge quadratically, so a warm start reaches the
    tolerance in a few steps where Sinkhorn's iterations contract slowly for large C/eps.  Without
    a warm start, 200 Sinkhorn iterations (:func:`sinkhorn`) give the starting point.

    Returns:
        A :class:`SinkhornResult` (iterations counts Newton steps; marginal_error is the l1 error
        of the second marginal).
    Raises:
        ValueError: as :func:`sinkhorn`; RuntimeError when the tolerance is not reached.
    """
    a, b, C = np.asarray(a, float), np.asarray(b, float), np.asarray(C, float)
    _check(a, b, C, eps)
    g = sinkhorn(a, b, C, eps, tol=tol, max_iter=200).g if g0 is None else np.array(g0, float)
    lb = np.log(b)

    def semi_dual(gv: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        fv = -eps * logsumexp((gv[None, :] - C) / eps + lb[None, :], axis=1)
        return float(gv @ b + fv @ a), fv, np.exp((fv[:, None] + gv[None, :] - C) / eps + lb[None, :])

    value, f, P = semi_dual(g)
    n = b.size
    for it in range(1, max_iter + 1):
        grad = b - P.T @ a
        err = float(np.abs(grad).sum())
        if err <= tol:
            return SinkhornResult(value, f, g, it - 1, err)
        H = (np.diag(P.T @ a) - P.T @ (a[:, None] * P)) / eps + np.full((n, n), 1.0 / n)
        step = np.linalg.solve(H, grad)
        t = 1.0
        while True:
            trial = semi_dual(g + t * step)
            if trial[0] >= value - 1e-15 * max(1.0, abs(value)) or t < 1e-8:
                break
            t *= 0.5
        g = g + t * step
        value, f, P = trial
    raise RuntimeError(f"Newton's method did not reach the tolerance {tol} (error {err})")


def entropic_ot_gaussian_1d(m1: float, s1: float, m2: float, s2: float, eps: float) -> float:
    """Closed-form OT_eps between N(m1, s1^2) and N(m2, s2^2), cost (x - y)^2, entropy relative to
    the product of the marginals (see the module docstring)."""
    if s1 <= 0 or s2 <= 0 or eps <= 0:
        raise ValueError("standard deviations and eps must be positive")
    a = s1**2 * s2**2
    c = (-eps + np.sqrt(eps**2 + 16 * a)) / 4
    return float((m1 - m2) ** 2 + s1**2 + s2**2 - 2 * c - eps / 2 * np.log(1 - c**2 / a))


def gaussian_coupling_cost(cross: np.ndarray, A: np.ndarray, B: np.ndarray, eps: float,
                           cost_matrix: np.ndarray | None = None, F: np.ndarray | None = None,
                           mean_gap: np.ndarray | None = None) -> float:
    """<c, pi> + eps KL(pi || mu (x) nu) for the Gaussian coupling of N(., A) and N(., B) with
    cross-covariance ``cross`` and the quadratic cost c(x, y) = (y - F x)^T M (y - F x) / 2
    (M = ``cost_matrix``, default I; F default I; ``mean_gap`` = E[y - F x], default 0).

    The KL term is the mutual information $-\\frac12\\ln\\det(I - A^{-1}S B^{-1}S^T)$; minimising over S gives
    the entropic cost between the two Gaussians (used to test :func:`sinkhorn` in several dimensions).
    """
    A, B, S = np.atleast_2d(A), np.atleast_2d(B), np.atleast_2d(cross)
    d = A.shape[0]
    M = np.eye(d) if cost_matrix is None else np.atleast_2d(cost_matrix)
    F = np.eye(d) if F is None else np.atleast_2d(F)
    gap = np.zeros(d) if mean_gap is None else np.asarray(mean_gap, float)
    cov_diff = B - F @ S - S.T @ F.T + F @ A @ F.T        # Cov(y - F x)
    expected = 0.5 * (np.trace(M @ cov_diff) + gap @ M @ gap)
    inner = np.eye(d) - np.linalg.solve(A, S) @ np.linalg.solve(B, S.T)
    sign, logdet = np.linalg.slogdet(inner)
    if sign <= 0:
        return np.inf
    return float(expected - eps / 2 * logdet)
