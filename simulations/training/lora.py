"""The LoRA objective with weight decay, its second-order stationary points and the constants of
Kim, Kim & Ryu's landscape theorem.

Kim, Kim & Ryu, "LoRA Training Provably Converges to a Low-Rank Global Minimum or It Fails Loudly
(But it Probably Won't Fail)" (ICML 2025, arXiv 2502.09376), Sections 1.3-3.

For a loss ``f`` on ``m x n`` matrices (the full fine-tuning risk as a function of the update ``X``)
the LoRA objective with weight decay ``lam`` is

    F(A, B) = f(A B^T) + lam/2 (||A||_F^2 + ||B||_F^2),   A (m, r), B (n, r),

and the convex relaxation is ``f(X) + lam ||X||_*``.  A second-order stationary point (SOSP) has
``grad F = 0`` and ``Hess F >= 0``; the Hessian's quadratic form in a direction ``(U, V)`` is

    2 <grad f(X), U V^T> + Hess f(X)[A V^T + U B^T] + lam (||U||^2 + ||V||^2).

The restricted strong convexity (RSC) constant ``alpha`` about the global minimiser ``X*`` and the
restricted smoothness (RSM) constant ``beta`` are the paper's (Section 2.2).  For a quadratic loss
with Hessian operator ``H`` (an ``mn x mn`` matrix acting on row-major ``vec(X)``) and the radius
``D = inf``: ``alpha = lambda_min(H)`` when the bottom eigenvector is a direction ``X - X*`` with
``rank X <= r`` (checked by :func:`reachable_along`), and ``beta = lambda_max(H)`` when the top
eigenvalue is attained on a rank-one matrix (every rank-one matrix is a direction ``U X + X V``;
checked by :func:`rank_one_rayleigh_max`).

Tight instances (our construction, :func:`spurious_instance`): ``3 x 3`` quadratics with ``r = 2``,
a rank-one global minimiser ``X* = x* e3 e3^T`` and a spurious SOSP ``diag(p, q, 0)``.  The Hessian is
``H_d`` on the diagonal entries and ``c`` on the off-diagonal ones; ``H_d`` has spectrum in
``[alpha, c]`` and maps ``D = (p, q, -x*)`` to the gradient difference ``v`` the first-order
conditions require.  Such an ``H_d`` exists iff ``||v - m D|| <= rho ||D||`` (``m, rho`` the centre and
radius of ``[alpha, c]``); with ``p = x*`` the smallest feasible ``q/p`` is
``t_min = (1 - sqrt(1 - 8a/(1 + a)))/2`` for ``a = alpha/c <= 1/7``, which is ``(2 alpha/beta)(1 + a + O(a^2))``:
the theorem's ratio bound is attained as ``a -> 0``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize


# --------------------------------------------------------------------------- losses
@dataclass
class QuadraticLoss:
    """``f(X) = 1/2 vec(X - M)^T H vec(X - M)`` on ``m x n`` matrices (row-major ``vec``).

    Attributes:
        H: ``(m n, m n)`` symmetric positive semidefinite Hessian.
        M: ``(m, n)`` centre.
    """

    H: np.ndarray
    M: np.ndarray

    def __post_init__(self) -> None:
        self.H = np.asarray(self.H, dtype=float)
        self.M = np.asarray(self.M, dtype=float)
        k = self.M.size
        if self.H.shape != (k, k):
            raise ValueError(f"H must have shape ({k}, {k}) for M of shape {self.M.shape}, got {self.H.shape}")
        if not np.allclose(self.H, self.H.T, atol=1e-12 * max(1.0, np.abs(self.H).max())):
            raise ValueError("H must be symmetric")

    @property
    def shape(self) -> tuple[int, int]:
        return self.M.shape

    def value(self, X: np.ndarray) -> float:
        v = (X - self.M).ravel()
        return 0.5 * float(v @ self.H @ v)

    def grad(self, X: np.ndarray) -> np.ndarray:
        return (self.H @ (X - self.M).ravel()).reshape(self.M.shape)

    def hess(self, X: np.ndarray) -> np.ndarray:
        return self.H


@dataclass
class DoubleWellLoss:
    """``f(X) = g(<X, E>) + 1/2 ||X - <X, E> E||_F^2`` with ``E = u v^T`` (unit vectors) and
    ``g(t) = (t^2 - 1)^2 + tilt t``: nonconvex along ``E``, so not restricted strongly convex about
    its global minimiser; with weight decay it has a rank-one local minimum that is not global
    (a silent failure of LoRA with rank ``r >= 2``).

    Attributes:
        u: ``(m,)``, v: ``(n,)`` unit vectors; tilt: the linear term of ``g``.
    """

    u: np.ndarray
    v: np.ndarray
    tilt: float = 0.3

    @property
    def shape(self) -> tuple[int, int]:
        return (self.u.size, self.v.size)

    def _E(self) -> np.ndarray:
        return np.outer(self.u, self.v)

    def value(self, X: np.ndarray) -> float:
        t = float(self.u @ X @ self.v)
        R = X - t * self._E()
        return (t * t - 1) ** 2 + self.tilt * t + 0.5 * float(np.sum(R * R))

    def grad(self, X: np.ndarray) -> np.ndarray:
        t = float(self.u @ X @ self.v)
        E = self._E()
        gp = 4 * t * (t * t - 1) + self.tilt
        return (X - t * E) + gp * E

    def hess(self, X: np.ndarray) -> np.ndarray:
        t = float(self.u @ X @ self.v)
        e = self._E().ravel()
        k = e.size
        return np.eye(k) - np.outer(e, e) + (12 * t * t - 4) * np.outer(e, e)


# --------------------------------------------------------------------------- the LoRA objective
def split(z: np.ndarray, shape: tuple[int, int], r: int) -> tuple[np.ndarray, np.ndarray]:
    """``(A, B)`` from the flat vector ``z = (vec A, vec B)``, ``A (m, r)``, ``B (n, r)``."""
    m, n = shape
    if z.size != (m + n) * r:
        raise ValueError(f"z must have {(m + n) * r} entries for shape {shape} and rank {r}, got {z.size}")
    return z[: m * r].reshape(m, r), z[m * r:].reshape(n, r)


def lora_value_grad(z: np.ndarray, loss, lam: float, r: int) -> tuple[float, np.ndarray]:
    """``F(A, B)`` and its gradient ``(grad f(X) B + lam A, grad f(X)^T A + lam B)`` at ``z``."""
    A, B = split(z, loss.shape, r)
    X = A @ B.T
    G = loss.grad(X)
    val = loss.value(X) + 0.5 * lam * (float(np.sum(A * A)) + float(np.sum(B * B)))
    return val, np.concatenate([(G @ B + lam * A).ravel(), (G.T @ A + lam * B).ravel()])


def lora_hessian(z: np.ndarray, loss, lam: float, r: int) -> np.ndarray:
    """The ``((m+n) r, (m+n) r)`` Hessian of ``F`` at ``z`` (exact, from the quadratic form above)."""
    A, B = split(z, loss.shape, r)
    m, n = loss.shape
    X = A @ B.T
    G = loss.grad(X)
    p = (m + n) * r
    # Jacobian of (U, V) -> vec(A V^T + U B^T), row-major vec
    Jac = np.zeros((m * n, p))
    for i in range(m):
        for k in range(r):
            col = i * r + k  # U[i, k]
            Jac[i * n:(i + 1) * n, col] = B[:, k]
    for j in range(n):
        for k in range(r):
            col = m * r + j * r + k  # V[j, k]
            Jac[np.arange(m) * n + j, col] = A[:, k]
    Hs = Jac.T @ loss.hess(X) @ Jac + lam * np.eye(p)
    C = np.zeros((m * r, n * r))  # 2 <G, U V^T> = 2 sum_{i,j,k} G_ij U_ik V_jk
    for k in range(r):
        C[k::r, k::r] = G
    Hs[: m * r, m * r:] += C
    Hs[m * r:, : m * r] += C.T
    return Hs


@dataclass
class CriticalPoint:
    """A point of the LoRA objective with its certificate.

    Attributes:
        A, B: the factors; X: ``A B^T``; value: ``F(A, B)``.
        grad_norm: Euclidean norm of ``grad F``; hess_min: smallest eigenvalue of ``Hess F``.
        singular_values: of ``X``, descending.
    """

    A: np.ndarray
    B: np.ndarray
    X: np.ndarray
    value: float
    grad_norm: float
    hess_min: float
    singular_values: np.ndarray

    def is_sosp(self, grad_tol: float, hess_tol: float) -> bool:
        """Certified SOSP: ``||grad F|| <= grad_tol`` and ``lambda_min(Hess F) >= -hess_tol``."""
        return self.grad_norm <= grad_tol and self.hess_min >= -hess_tol


def certify(A: np.ndarray, B: np.ndarray, loss, lam: float) -> CriticalPoint:
    """Gradient norm, smallest Hessian eigenvalue and singular values at ``(A, B)``."""
    r = A.shape[1]
    z = np.concatenate([A.ravel(), B.ravel()])
    val, g = lora_value_grad(z, loss, lam, r)
    hmin = float(np.linalg.eigvalsh(lora_hessian(z, loss, lam, r))[0])
    X = A @ B.T
    return CriticalPoint(A.copy(), B.copy(), X, val, float(np.linalg.norm(g)), hmin,
                         np.linalg.svd(X, compute_uv=False))


def find_critical_point(loss, lam: float, A0: np.ndarray, B0: np.ndarray, *, polish: int = 30,
                        max_iterations: int = 3000) -> CriticalPoint:
    """Minimise ``F`` from ``(A0, B0)`` with scipy's exact trust-region Newton method (it uses the
    Hessian, so it leaves saddle points along negative curvature), then polish with Newton steps
    (least-squares solves, which pass over the zero-curvature directions of the rotation symmetry
    ``(A, B) -> (A Q, B Q)``) and certify the result."""
    r = A0.shape[1]
    z0 = np.concatenate([A0.ravel(), B0.ravel()])

    def fun(z):
        return lora_value_grad(z, loss, lam, r)

    res = optimize.minimize(fun, z0, jac=True, hess=lambda z: lora_hessian(z, loss, lam, r), method="trust-exact",
                            options={"maxiter": max_iterations, "gtol": 1e-11})
    z = res.x
    for _ in range(polish):
        _, g = lora_value_grad(z, loss, lam, r)
        if np.linalg.norm(g) < 1e-14:
            break
        step = np.linalg.lstsq(lora_hessian(z, loss, lam, r), -g, rcond=1e-10)[0]
        z_new = z + step
        if lora_value_grad(z_new, loss, lam, r)[0] > lora_value_grad(z, loss, lam, r)[0] + 1e-12:
            break
        z = z_new
    A, B = split(z, loss.shape, r)
    return certify(A, B, loss, lam)


def balanced_factors(X: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
    """``A = U sqrt(S)``, ``B = V sqrt(S)`` from the top ``r`` singular triplets of ``X``."""
    U, s, Vt = np.linalg.svd(X)
    if r > s.size:
        raise ValueError(f"rank {r} exceeds the matrix size {X.shape}")
    root = np.sqrt(s[:r])
    return U[:, :r] * root, Vt[:r].T * root


# --------------------------------------------------------------------------- the convex problem
def nuclear_prox_solve(loss: QuadraticLoss, lam: float, *, iterations: int = 100000, tol: float = 1e-12) -> np.ndarray:
    """The minimiser of ``f(X) + lam ||X||_*`` for a quadratic ``f`` with ``H > 0`` by accelerated
    proximal gradient (FISTA, step ``1/lambda_max(H)``, singular-value soft thresholding) with
    restarts when the objective increases; stops when :func:`optimality_residual` is below ``tol``
    (checked every 25 iterations).

    Raises:
        ValueError: if ``lam <= 0``.
    """
    if lam <= 0:
        raise ValueError("lam must be > 0")
    Lf = float(np.linalg.eigvalsh(loss.H)[-1])
    X = np.zeros(loss.shape)
    Y, t = X.copy(), 1.0
    f_old = regularised_value(X, loss, lam)
    def prox_step(Y: np.ndarray) -> np.ndarray:
        U, s, Vt = np.linalg.svd(Y - loss.grad(Y) / Lf, full_matrices=False)
        return (U * np.maximum(s - lam / Lf, 0.0)) @ Vt

    for k in range(iterations):
        Xn = prox_step(Y)
        f_new = regularised_value(Xn, loss, lam)
        if f_new > f_old:  # restart the momentum with a plain proximal step from X
            Xn, t = prox_step(X), 1.0
            f_new = regularised_value(Xn, loss, lam)
        tn = (1 + math.sqrt(1 + 4 * t * t)) / 2
        Y = Xn + ((t - 1) / tn) * (Xn - X)
        X, t, f_old = Xn, tn, f_new
        if k % 25 == 0 and optimality_residual(X, loss, lam) <= tol:
            break
    return X


def optimality_residual(X: np.ndarray, loss, lam: float, *, rank_tol: float = 1e-9) -> float:
    """How far ``-grad f(X)`` is from ``lam * subdifferential ||X||_*`` (0 at a minimiser of the
    convex problem): with ``X = U S V^T`` (rank ``k``) and ``G = -grad f(X)/lam``, the maximum of
    ``||U^T G V - I||``, ``||U^T G (I - V V^T)||``, ``||(I - U U^T) G V||`` and
    ``max(||(I - U U^T) G (I - V V^T)||_2 - 1, 0)`` (Watson 1992's characterisation), in units of ``lam``."""
    if lam <= 0:
        raise ValueError("the residual is defined for lam > 0")
    G = -loss.grad(X) / lam
    U, s, Vt = np.linalg.svd(X)
    k = int(np.sum(s > rank_tol * max(1.0, s[0] if s.size else 0.0)))
    Uk, Vk = U[:, :k], Vt[:k].T
    Pu, Pv = np.eye(X.shape[0]) - Uk @ Uk.T, np.eye(X.shape[1]) - Vk @ Vk.T
    parts = [float(np.linalg.norm(Uk.T @ G @ Vk - np.eye(k), 2)) if k else 0.0,
             float(np.linalg.norm(Uk.T @ G @ Pv, 2)) if k else 0.0,
             float(np.linalg.norm(Pu @ G @ Vk, 2)) if k else 0.0,
             max(float(np.linalg.norm(Pu @ G @ Pv, 2)) - 1.0, 0.0)]
    return max(parts)


def regularised_value(X: np.ndarray, loss, lam: float) -> float:
    """``f(X) + lam ||X||_*``: equal to ``F(A, B)`` at balanced factors of ``X``."""
    return loss.value(X) + lam * float(np.linalg.svd(X, compute_uv=False).sum())


# --------------------------------------------------------------------------- constants
def rank_one_rayleigh_max(H: np.ndarray, shape: tuple[int, int], rng: np.random.Generator, *,
                          starts: int = 3, iterations: int = 500) -> float:
    """``max <u v^T, H (u v^T)>`` over unit ``u, v`` by alternating top-eigenvector updates: the
    largest Rayleigh quotient of ``H`` on rank-one matrices.  The first start is the best rank-one
    approximation of ``H``'s top eigenvector (exact when that eigenvector has rank one), the others
    are random; each run stops when the value changes by less than 1e-15 relative."""
    m, n = shape
    T = H.reshape(m, n, m, n)
    w, Q = np.linalg.eigh(H)
    top_space = Q[:, w >= w[-1] - 1e-12 * max(1.0, abs(w[-1]))]
    # alternating projections between the top eigenspace and the rank-one matrices: a rank-one
    # matrix in that space (when there is one) attains lambda_max exactly
    Y = top_space[:, 0].reshape(m, n)
    for _ in range(200):
        U_, s_, Vt_ = np.linalg.svd(Y)
        R1 = s_[0] * np.outer(U_[:, 0], Vt_[0])
        Y = (top_space @ (top_space.T @ R1.ravel())).reshape(m, n)
    first = np.linalg.svd(Y)[2][0]
    best = -math.inf
    for s in range(starts):
        v = first if s == 0 else rng.normal(size=n)
        v = v / np.linalg.norm(v)
        val = -math.inf
        for _ in range(iterations):
            u = np.linalg.eigh(np.einsum("acbd,c,d->ab", T, v, v))[1][:, -1]
            w2, Q2 = np.linalg.eigh(np.einsum("acbd,a,b->cd", T, u, u))
            v = Q2[:, -1]
            new = float(w2[-1])
            if abs(new - val) <= 1e-15 * max(1.0, abs(new)):
                val = new
                break
            val = new
        best = max(best, val)
    return best


def reachable_along(X_star: np.ndarray, direction: np.ndarray, r: int) -> float | None:
    """For ``3 x 3`` matrices, ``r = 2`` and a rank-one ``X* = x u v^T``: the ``|t| > 0`` with
    ``rank(X* + t d) <= 2``, from ``det(X* + t d) = t^3 det(d) + t^2 x v^T adj(d) u`` (the
    matrix determinant lemma), or None if there is none.  When it exists, ``d`` is a feasible
    direction ``X - X*`` in the definition of restricted strong convexity (with ``D >= |t| ||d||``).

    Raises:
        ValueError: for other shapes, ranks, or an ``X*`` that is not of rank one.
    """
    if X_star.shape != (3, 3) or r != 2:
        raise ValueError("implemented for 3 x 3 matrices and r = 2")
    U, s, Vt = np.linalg.svd(X_star)
    if not (s[0] > 0 and s[1] <= 1e-12 * s[0]):
        raise ValueError("X* must have rank one")
    d = np.asarray(direction, dtype=float)
    cof = np.array([[np.linalg.det(np.delete(np.delete(d, i, 0), j, 1)) * (-1) ** (i + j) for j in range(3)]
                    for i in range(3)])
    adj = cof.T
    c3 = float(np.linalg.det(d))
    c2 = float(s[0] * Vt[0] @ adj @ U[:, 0])
    scale = float(np.abs(d).max()) ** 3
    if abs(c3) <= 1e-14 * scale:
        return None
    t = -c2 / c3
    return abs(t) if abs(t) > 0 else None


@dataclass
class LandscapeConstants:
    """``alpha = lambda_min(H)``, ``beta = lambda_max(H)`` and the evidence that they are the
    (r, inf)-RSC and RSM constants: the radius at which the bottom eigenvector is reached
    (``alpha_reach``, None if never) and the rank-one Rayleigh maximum (``beta_rank_one``)."""

    alpha: float
    beta: float
    alpha_reach: float | None
    beta_rank_one: float

    @property
    def exact(self) -> bool:
        return self.alpha_reach is not None and abs(self.beta_rank_one - self.beta) <= 1e-8 * self.beta


def quadratic_constants(loss: QuadraticLoss, X_star: np.ndarray, r: int, rng: np.random.Generator) -> LandscapeConstants:
    """The RSC and RSM constants of a quadratic loss about ``X*`` with ``D = inf`` (3 x 3, r = 2)."""
    w, Q = np.linalg.eigh(loss.H)
    d_min = Q[:, 0].reshape(loss.shape)
    reach = reachable_along(X_star, d_min, r)
    return LandscapeConstants(float(w[0]), float(w[-1]), reach, rank_one_rayleigh_max(loss.H, loss.shape, rng))


# --------------------------------------------------------------------------- tight instances
def t_min(a: float) -> float:
    """The smallest feasible ``q/p`` of the tight family (``p = x*``), ``a = alpha/beta <= 1/7``."""
    if not 0 < a <= 1 / 7:
        raise ValueError(f"the family needs 0 < alpha/beta <= 1/7, got {a}")
    return (1 - math.sqrt(1 - 8 * a / (1 + a))) / 2


@dataclass
class SpuriousInstance:
    """A quadratic LoRA landscape with a known spurious SOSP: ``loss``, weight decay ``lam``, LoRA
    rank ``r``, the global minimiser ``X_star`` (rank ``r_star``) and the spurious point's balanced
    factors ``A, B``."""

    loss: QuadraticLoss
    lam: float
    r: int
    r_star: int
    X_star: np.ndarray
    A: np.ndarray
    B: np.ndarray


def _diag_hessian(D: np.ndarray, v: np.ndarray, alpha: float, c: float) -> np.ndarray:
    """A symmetric 3x3 ``H_d`` with spectrum in ``[alpha, c]`` and ``H_d D = v`` (bottom eigenvalue
    exactly ``alpha``), or ValueError when ``||v - m D|| > rho ||D||``."""
    m, rho = (alpha + c) / 2, (c - alpha) / 2
    nD = float(np.linalg.norm(D))
    d = D / nD
    u = (v - m * D) / (rho * nD)
    if np.linalg.norm(u) > 1 + 1e-12:
        raise ValueError(f"infeasible: ||v - m D|| / (rho ||D||) = {np.linalg.norm(u):.6g} > 1")
    e2 = u - (u @ d) * d
    if np.linalg.norm(e2) < 1e-13:
        e2 = np.cross(d, [1.0, 0.0, 0.0]) if abs(d[0]) < 0.9 else np.cross(d, [0.0, 1.0, 0.0])
    e2 /= np.linalg.norm(e2)
    e3 = np.cross(d, e2)
    basis = np.stack([d, e2, e3], axis=1)
    u1, u2 = float(u @ d), float(u @ e2)
    R = basis @ np.array([[u1, u2, 0.0], [u2, -u1, 0.0], [0.0, 0.0, -1.0]]) @ basis.T
    return m * np.eye(3) + rho * R


def feasibility(alpha: float, lam: float, p: float, q: float, x_star: float, *, c: float = 1.0,
                offdiag: float | None = None, margin: float = 1e-3) -> float:
    """``||v - m D|| / (rho ||D||)`` for the spurious point of :func:`spurious_instance`: the
    instance exists iff this is at most 1."""
    c_off = c if offdiag is None else float(offdiag)
    s = -(lam + c_off * q) * (1 - margin)
    w = lam * (1 - margin)
    D = np.array([p, q, -x_star])
    v = np.array([-lam + w, -lam + w, s + lam])
    m, rho = (alpha + c) / 2, (c - alpha) / 2
    return float(np.linalg.norm(v - m * D) / (rho * np.linalg.norm(D)))


def smallest_feasible_q(alpha: float, lam: float, p: float, x_star: float, **kw) -> float:
    """The smallest ``q`` in ``(0, p]`` for which :func:`spurious_instance` is feasible (bisection
    on :func:`feasibility`, which is convex in ``q`` near its minimum), or ValueError if none."""
    qs = np.linspace(1e-6 * p, p, 4001)
    vals = np.array([feasibility(alpha, lam, p, q, x_star, **kw) for q in qs])
    ok = np.nonzero(vals <= 1)[0]
    if not ok.size:
        raise ValueError("no feasible q for these parameters")
    hi = qs[ok[0]]
    lo = qs[ok[0] - 1] if ok[0] > 0 else 0.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if feasibility(alpha, lam, p, mid, x_star, **kw) <= 1:
            hi = mid
        else:
            lo = mid
    return hi


def spurious_instance(alpha: float, lam: float, p: float, q: float, x_star: float, *, c: float = 1.0,
                      offdiag: float | None = None, margin: float = 1e-3,
                      rotation: tuple[np.ndarray, np.ndarray] | None = None) -> SpuriousInstance:
    """A ``3 x 3`` quadratic with ``r = 2``, global minimiser ``x* e3 e3^T`` and spurious SOSP
    ``diag(p, q, 0)`` (``p >= q > 0``), rotated to ``P X Q^T`` when ``rotation = (P, Q)`` is given.

    The first-order conditions fix ``grad f(X) = -lam diag(1, 1, 0) + s E33`` at the spurious point,
    with ``s = -(lam + c_off q)(1 - margin)`` just inside the second-order condition
    ``|s| <= lam + c_off q``, and ``grad f(X*) = -lam E33 - lam (1 - margin) diag(1, 1, 0)`` just inside
    the subgradient set; the diagonal block ``H_d`` (spectrum ``[alpha, c]``) maps
    ``X - X* = diag(p, q, -x*)`` to their difference, the off-diagonal entries have curvature
    ``c_off = offdiag`` (default ``c``).

    Raises:
        ValueError: if the requested point is infeasible (see :func:`_diag_hessian`) or the sizes are bad.
    """
    if not (p >= q > 0 and x_star > 0 and lam > 0 and 0 < alpha < c):
        raise ValueError("need p >= q > 0, x* > 0, lam > 0 and 0 < alpha < c")
    c_off = c if offdiag is None else float(offdiag)
    s = -(lam + c_off * q) * (1 - margin)
    w = lam * (1 - margin)
    D = np.array([p, q, -x_star])
    v = np.array([-lam + w, -lam + w, s + lam])
    Hd = _diag_hessian(D, v, alpha, c)
    H = np.eye(9) * c_off
    idx = [0, 4, 8]
    for i in range(3):
        for j in range(3):
            H[idx[i], idx[j]] = Hd[i, j]
    Xs = np.diag([p, q, 0.0])
    Gs = np.diag([-lam, -lam, s])
    M = Xs - np.linalg.solve(H, Gs.ravel()).reshape(3, 3)
    X_star = np.diag([0.0, 0.0, x_star])
    A = np.diag(np.sqrt([p, q, 0.0]))[:, :2]
    B = A.copy()
    if rotation is not None:
        P, Qr = rotation
        K = np.kron(P, Qr)  # vec(P X Q^T) = (P kron Q) vec(X), row-major
        H = K @ H @ K.T
        M, Xs, X_star = P @ M @ Qr.T, P @ Xs @ Qr.T, P @ X_star @ Qr.T
        A, B = P @ A, Qr @ B
    return SpuriousInstance(QuadraticLoss(0.5 * (H + H.T), M), lam, 2, 1, X_star, A, B)


def random_rotation(rng: np.random.Generator, n: int) -> np.ndarray:
    """A Haar-random ``n x n`` orthogonal matrix (QR of a Gaussian matrix with sign correction)."""
    Q, R = np.linalg.qr(rng.normal(size=(n, n)))
    return Q * np.sign(np.diag(R))


def random_quadratic(rng: np.random.Generator, shape: tuple[int, int], condition: float, *,
                     scale: float = 1.0) -> QuadraticLoss:
    """A quadratic loss with a Haar-random eigenbasis, eigenvalues log-uniform in ``[1, condition]``
    (both ends attained) and a Gaussian centre ``M`` of entry scale ``scale``."""
    k = shape[0] * shape[1]
    if condition < 1:
        raise ValueError("condition must be >= 1")
    ev = np.exp(rng.uniform(0, math.log(condition), k))
    ev[0], ev[-1] = 1.0, condition
    Q = random_rotation(rng, k)
    return QuadraticLoss((Q * ev) @ Q.T, scale * rng.normal(size=shape))


# --------------------------------------------------------------------------- the theorem's quantities
def ratio_bound_terms(X: np.ndarray, r: int, r_star: int) -> tuple[float, float]:
    """``(sigma_r(X), sigma_{r*}(X))`` (1-based ranks)."""
    s = np.linalg.svd(X, compute_uv=False)
    return float(s[r - 1]), float(s[r_star - 1])


def distance_bound(X: np.ndarray, X_star: np.ndarray, r: int, r_star: int, alpha: float, beta: float
                   ) -> tuple[float, float]:
    """``(||X - X*||_F^2, ||X - Pi_{r*}(X)||_F^2 / (1 - 2 alpha sigma_{r*} / (beta sigma_r)))``: the two
    sides of Theorem 1(2)(ii)'s distance inequality (right side inf when the denominator is <= 0)."""
    s = np.linalg.svd(X, compute_uv=False)
    tail = float(np.sum(s[r_star:] ** 2))
    den = 1 - 2 * alpha * s[r_star - 1] / (beta * s[r - 1]) if s[r - 1] > 0 else -math.inf
    rhs = tail / den if den > 0 else math.inf
    return float(np.sum((X - X_star) ** 2)), rhs


def gradient_descent(loss, lam: float, A0: np.ndarray, B0: np.ndarray, steps: int, *, step: float = 1.0,
                     shrink: float = 0.5, tol: float = 1e-13) -> tuple[np.ndarray, np.ndarray, int]:
    """Gradient descent on ``F`` from ``(A0, B0)`` with Armijo backtracking (start at ``step``, halve
    until ``F`` decreases by at least half the first-order prediction): the monotone first-order
    training LoRA does, without divergence at large curvature.  Stops when ``||grad F|| <= tol``.

    Returns:
        ``(A, B, steps taken)``.
    """
    r = A0.shape[1]
    z = np.concatenate([A0.ravel(), B0.ravel()])
    val, g = lora_value_grad(z, loss, lam, r)
    t = step
    taken = 0
    while taken < steps:
        gg = float(g @ g)
        if gg <= tol * tol:
            break
        taken += 1
        t = min(step, 2 * t)
        while True:
            z_new = z - t * g
            v_new, g_new = lora_value_grad(z_new, loss, lam, r)
            if v_new <= val - 0.5 * t * gg or t < 1e-20:
                break
            t *= shrink
        z, val, g = z_new, v_new, g_new
    A, B = split(z, loss.shape, r)
    return A, B, taken
