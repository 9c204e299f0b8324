"""Inverse optimization by learning feasible regions: forward LPs, training LPs and MILPs, baselines.

Ren, Mohajerin Esfahani & Georghiou, "Inverse Optimization via Learning Feasible Regions" (ICML
2025, arXiv 2505.15025).  What public sources give (the abstract; the summary at
sciencestack.ai/paper/2505.15025, whose description of the hypothesis class is read as follows): the
forward problem is ``min_x c(s)^T x`` over a learned region ``X_theta(s)`` with a known linear
objective; the constraint function is ``g_theta(x, s) = min_{z in Z} ||x - A_theta(s) z -
b_theta(s)||`` over a primitive set ``Z = {z : H z <= h}``, so ``X_theta(s) = A_theta(s) Z +
b_theta(s)``; training uses a suboptimality loss or a predictability loss; for restricted classes
the training problem is a convex program or a MILP.

The restricted class used here (our reading): ``A`` fixed and ``b_theta(s) = Theta phi(s)`` with a
feature map ``phi``.  Then ``min_{x in X_theta(s)} c^T x = c^T Theta phi(s) + v(c)`` with
``v(c) = min_{z in Z} (A^T c)^T z`` independent of Theta, and

* suboptimality loss (reconstructed): ``l(Theta; s, xhat) = c^T xhat - min_{x in X_Theta(s)} c^T x
  + kappa g_Theta(xhat, s)`` with the 1-norm in g and ``kappa > ||c||_inf`` (so l >= 0, and
  l = 0 exactly when xhat is feasible and optimal).  Summed over data it is a linear program in
  (Theta, z_i, t_i).
* predictability loss: ``l(Theta; s, xhat) = min ||xhat - x||_1`` over the optimal decisions x of
  the forward problem; writing optimality by the KKT conditions of the inner LP with big-M
  complementarity gives a MILP.

LPs and MILPs are solved by HiGHS (through cvxpy for the training problems, through
``scipy.optimize.linprog`` for the forward problems).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


@dataclass(frozen=True)
class Polytope:
    """Z = {z in R^k : H z <= h}, bounded and with non-empty interior."""

    H: np.ndarray
    h: np.ndarray

    @property
    def dim(self) -> int:
        return int(self.H.shape[1])


def triangle() -> Polytope:
    """The triangle conv{(0,0), (1,0), (0,1)}."""
    return Polytope(np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 1.0]]), np.array([0.0, 0.0, 1.0]))


def random_polytope(dim: int, facets: int, rng: np.random.Generator, box: float = 2.0) -> Polytope:
    """A random polytope: ``facets`` random unit normals at distance 1 from the origin, intersected
    with the box [-box, box]^dim (which keeps it bounded); contains the unit ball.
    """
    if dim < 1 or facets < 0 or not box > 1:
        raise ValueError("need dim >= 1, facets >= 0 and box > 1")
    N = rng.standard_normal((facets, dim))
    N /= np.linalg.norm(N, axis=1, keepdims=True)
    H = np.vstack([N, np.eye(dim), -np.eye(dim)])
    h = np.concatenate([np.ones(facets), np.full(2 * dim, box)])
    return Polytope(H, h)


def solve_inner(Z: Polytope, cost: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """argmin_{z in Z} cost^T z by HiGHS: (z, value, duals lambda >= 0 of H z <= h).

    Raises:
        RuntimeError: when HiGHS does not report an optimal solution.
    """
    res = linprog(cost, A_ub=Z.H, b_ub=Z.h, bounds=[(None, None)] * Z.dim, method="highs")
    if res.status != 0:
        raise RuntimeError(f"forward LP not solved: {res.message}")
    return np.asarray(res.x), float(res.fun), -np.asarray(res.ineqlin.marginals)


def polytope_vertices(Z: Polytope, tol: float = 1e-9) -> np.ndarray:
    """All vertices of Z by enumeration: every set of ``dim`` facets whose planes meet in one point of Z.

    Exponential in general; meant for the small polytopes used here (at most a few hundred facet sets).
    Returns shape (n_vertices, dim).
    """
    from itertools import combinations

    k = Z.dim
    found = []
    for rows in combinations(range(Z.H.shape[0]), k):
        M = Z.H[list(rows)]
        if abs(np.linalg.det(M)) < 1e-12:
            continue
        v = np.linalg.solve(M, Z.h[list(rows)])
        if np.all(Z.H @ v <= Z.h + tol) and not any(np.allclose(v, u, atol=1e-9) for u in found):
            found.append(v)
    if not found:
        raise ValueError("Z has no vertex: it must be bounded with non-empty interior")
    return np.array(found)


def decisions(Z: Polytope, A: np.ndarray, Theta: np.ndarray, Phi: np.ndarray, C: np.ndarray,
              vertices: np.ndarray | None = None) -> np.ndarray:
    """Optimal decisions x(s_i) = A z*(A^T c_i) + Theta phi_i of the class, for rows Phi (n, p) and C (n, m).

    z* is computed by HiGHS, or, when ``vertices`` of Z are given, as the best vertex (the same point
    whenever the optimum is unique; ties are broken towards the first vertex).
    """
    out = np.empty((Phi.shape[0], A.shape[0]))
    if vertices is not None:
        best = np.argmin((C @ A) @ vertices.T, axis=1)
        return vertices[best] @ A.T + Phi @ Theta.T
    for i in range(Phi.shape[0]):
        z, _, _ = solve_inner(Z, A.T @ C[i])
        out[i] = A @ z + Theta @ Phi[i]
    return out


def smoothed_decisions(Z: Polytope, A: np.ndarray, Theta: np.ndarray, Phi: np.ndarray, C: np.ndarray,
                       eps: float) -> np.ndarray:
    """Decisions of the class with the inner LP smoothed by (eps/2)||z||^2 (a continuous decision map).

    Raises:
        ValueError: unless eps > 0.
    """
    import cvxpy as cp

    if not eps > 0:
        raise ValueError("eps must be positive")
    out = np.empty((Phi.shape[0], A.shape[0]))
    z = cp.Variable(Z.dim)
    q = cp.Parameter(Z.dim)
    prob = cp.Problem(cp.Minimize(q @ z + eps / 2 * cp.sum_squares(z)), [Z.H @ z <= Z.h])
    for i in range(Phi.shape[0]):
        q.value = A.T @ C[i]
        prob.solve(solver="CLARABEL")
        out[i] = A @ z.value + Theta @ Phi[i]
    return out


def train_suboptimality(Z: Polytope, A: np.ndarray, Phi: np.ndarray, C: np.ndarray, Xhat: np.ndarray,
                        kappa: float | None = None, vertices: np.ndarray | None = None):
    """Fit Theta by the suboptimality loss over the class (A fixed, b = Theta phi): a linear program.

    Args:
        Phi: features (n, p); C: known costs (n, m); Xhat: observed decisions (n, m).
        kappa: weight of the infeasibility term (default 2 max |c|, which exceeds ||c_i||_inf).
        vertices: vertices of Z, to compute v(c_i) = min_z (A^T c_i)^T z by enumeration instead of HiGHS.
    Returns:
        (problem, Theta): the solved ``cvxpy.Problem`` (HiGHS) and the fitted Theta (m, p).
    """
    import cvxpy as cp

    n, p = Phi.shape
    m = A.shape[0]
    if C.shape != (n, m) or Xhat.shape != (n, m):
        raise ValueError("Phi, C and Xhat must have one row per sample and A's row count as width")
    kappa = 2 * float(np.abs(C).max()) if kappa is None else float(kappa)
    if vertices is not None:
        v = np.min((C @ A) @ vertices.T, axis=1)
    else:
        v = np.array([solve_inner(Z, A.T @ C[i])[1] for i in range(n)])
    Theta = cp.Variable((m, p))
    zs = cp.Variable((n, Z.dim))
    ts = cp.Variable((n, m))
    resid = Xhat - zs @ A.T - Phi @ Theta.T
    gap = cp.sum(cp.multiply(C, Xhat)) - cp.sum(cp.multiply(C, Phi @ Theta.T)) - v.sum()
    cons = [ts >= resid, ts >= -resid, zs @ Z.H.T <= np.tile(Z.h, (n, 1))]
    prob = cp.Problem(cp.Minimize(gap + kappa * cp.sum(ts)), cons)
    prob.solve(solver="HIGHS")
    return prob, (None if Theta.value is None else np.asarray(Theta.value))


def inner_bounds(Z: Polytope, A: np.ndarray, C: np.ndarray) -> tuple[np.ndarray, float]:
    """Valid big-M constants for the KKT encoding: the largest slack of each facet over Z (exact, by LPs),
    and twice the largest optimal dual over the samples' inner LPs, plus one."""
    slack = np.array([Z.h[j] - solve_inner(Z, Z.H[j])[1] for j in range(Z.H.shape[0])])
    duals = max(float(solve_inner(Z, A.T @ C[i])[2].max()) for i in range(C.shape[0]))
    return slack, 2 * duals + 1.0


def train_predictability_milp(Z: Polytope, A: np.ndarray, Phi: np.ndarray, C: np.ndarray, Xhat: np.ndarray,
                              relax: bool = False, optimality: bool = True, mip_gap: float = 1e-9):
    """Fit Theta by the predictability loss sum_i min ||xhat_i - x||_1 over optimal decisions x: a MILP.

    The inner LP min (A^T c_i)^T z, H z <= h, is replaced by its KKT conditions
    A^T c_i + H^T lam_i = 0, lam_i >= 0, with complementarity lam_ij <= M_lam u_ij,
    h_j - H_j z_i <= M_j (1 - u_ij), u binary.

    Args:
        relax: solve the LP relaxation (u in [0, 1]) instead: a broken variant for controls.
        optimality: False drops the KKT conditions (z_i anywhere in Z): a broken variant for controls.
    Returns:
        (problem, Theta).
    """
    import cvxpy as cp

    n, p = Phi.shape
    m = A.shape[0]
    k = Z.H.shape[0]
    slack_max, lam_max = inner_bounds(Z, A, C)
    Theta = cp.Variable((m, p))
    zs = cp.Variable((n, Z.dim))
    ts = cp.Variable((n, m))
    resid = Xhat - zs @ A.T - Phi @ Theta.T
    cons = [ts >= resid, ts >= -resid, zs @ Z.H.T <= np.tile(Z.h, (n, 1))]
    if optimality:
        lam = cp.Variable((n, k), nonneg=True)
        u = cp.Variable((n, k)) if relax else cp.Variable((n, k), boolean=True)
        cons += [C @ A + lam @ Z.H == 0, lam <= lam_max * u,
                 np.tile(Z.h, (n, 1)) - zs @ Z.H.T <= cp.multiply(np.tile(slack_max, (n, 1)), 1 - u)]
        if relax:
            cons += [u >= 0, u <= 1]
    prob = cp.Problem(cp.Minimize(cp.sum(ts)), cons)
    prob.solve(solver="HIGHS", mip_rel_gap=mip_gap) if (optimality and not relax) else prob.solve(solver="HIGHS")
    return prob, (None if Theta.value is None else np.asarray(Theta.value))


def l1_regression_on_vertices(Z: Polytope, A: np.ndarray, Phi: np.ndarray, C: np.ndarray,
                              Xhat: np.ndarray) -> tuple[float, np.ndarray]:
    """The predictability training problem solved another way, when every inner LP has a unique optimum:
    compute z*_i directly, then min_Theta sum_i ||xhat_i - A z*_i - Theta phi_i||_1 as a scipy LP.

    Returns:
        (optimal value, Theta).
    """
    n, p = Phi.shape
    m = A.shape[0]
    target = Xhat - np.array([A @ solve_inner(Z, A.T @ C[i])[0] for i in range(n)])
    # variables: Theta (m p, row-major), t (n m); minimise sum t with -t <= target - Theta phi <= t
    nth, nt = m * p, n * m
    rows_theta = np.zeros((nt, nth))
    for i in range(n):
        for r in range(m):
            rows_theta[i * m + r, r * p:(r + 1) * p] = Phi[i]
    eye = np.eye(nt)
    A_ub = np.vstack([np.hstack([-rows_theta, -eye]), np.hstack([rows_theta, -eye])])
    b_ub = np.concatenate([-target.ravel(), target.ravel()])
    cost = np.concatenate([np.zeros(nth), np.ones(nt)])
    res = linprog(cost, A_ub=A_ub, b_ub=b_ub, bounds=[(None, None)] * nth + [(0, None)] * nt, method="highs")
    if res.status != 0:
        raise RuntimeError(f"l1 regression LP not solved: {res.message}")
    return float(res.fun), res.x[:nth].reshape(m, p)


def projected_affine_baseline(Phi: np.ndarray, Xhat: np.ndarray, lower: np.ndarray,
                              upper: np.ndarray) -> np.ndarray:
    """Objective-only IO with a strongly convex objective: x(s) = argmin_{x in box} ||x - W phi(s)||^2 / 2.

    The decision map s -> Proj_box(W phi(s)) is continuous; W is fitted by least squares of Xhat on Phi
    (with the box containing the data the projection is inactive at the fit).  Returns W (m, p).
    """
    W, *_ = np.linalg.lstsq(Phi, Xhat, rcond=None)
    if lower.shape != upper.shape or np.any(lower >= upper):
        raise ValueError("the box needs lower < upper")
    return W.T


def baseline_decisions(W: np.ndarray, Phi: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """Decisions Proj_box(W phi_i) of the objective-only baseline, shape (n, m)."""
    return np.clip(Phi @ W.T, lower, upper)


def rotating_costs(s: np.ndarray, A: np.ndarray, s0: float = 0.5, spread: float = np.pi / 3) -> np.ndarray:
    """Unit costs c(s) that turn through an angle ``spread`` as s goes over [0, 1], with A^T c(s0)
    proportional to (-1, -1): for the triangle Z the optimal vertex of min (A^T c)^T z jumps from
    (0, 1) to (1, 0) (or back) at s = s0, and the decision map jumps by ||A e_1 - A e_2||.

    Returns:
        shape (len(s), 2).
    """
    base = np.linalg.solve(A.T, np.array([-1.0, -1.0]))
    ang0 = np.arctan2(base[1], base[0])
    ang = ang0 + (np.asarray(s, dtype=float) - s0) * spread
    return np.column_stack([np.cos(ang), np.sin(ang)])
