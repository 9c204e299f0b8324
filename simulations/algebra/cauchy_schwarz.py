"""Cauchy-Schwarz regularizers (Taner, Wang & Studer, "Cauchy-Schwarz Regularizers", ICLR 2025).

For two vector-valued maps ``u(x), v(x)`` the Cauchy-Schwarz inequality gives the nonnegative
function

    l(x) = ||u(x)||^2 ||v(x)||^2 - <u(x), v(x)>^2 = sum_{i<j} (u_i v_j - u_j v_i)^2   (Lagrange),

which vanishes exactly where ``u(x)`` and ``v(x)`` are parallel.  Choosing ``u, v`` places the
zero set on a chosen target (the paper's construction; the polynomials below are our reading of
its named instances, the paper may normalise them differently):

* symmetric binary  ``u = x o x, v = 1``:     ``N ||x||_4^4 - ||x||_2^4``, zero on ``{-a, a}^N``;
* one-sided binary  ``u = x, v = x o x``:     ``||x||_2^2 ||x||_4^4 - (sum x_i^3)^2``, zero on ``{0, a}^N``;
* symmetric ternary ``u = x, v = x^{o3}``:    ``||x||_2^2 ||x||_6^6 - ||x||_4^8``, zero on ``{-a, 0, a}^N``;
* eigenvector       ``u = x, v = Cx``:        ``||x||^2 ||Cx||^2 - (x^T C x)^2``, zero iff ``Cx || x``;
* orthogonal columns ``u = vec(X^T X), v = vec(I_K)``: ``K ||X^T X||_F^2 - ||X||_F^4``, zero iff
  ``X^T X = a^2 I_K``.

Each is a homogeneous polynomial (degree 4, 6, 8, 4, 4), so its zero set is a cone: every scale
``a`` is a minimiser (scale adaptivity).  By Euler's identity ``<x, grad l(x)> = deg * l(x)``,
every stationary point has ``l = 0`` and is a global minimiser.

Functions come in numpy form (value and gradient, for optimisation) and sympy form (exact
expressions, for proofs).
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

REGULARIZERS = ("binary", "one_sided", "ternary", "eigenvector", "orthogonal")
DEGREES = {"binary": 4, "one_sided": 6, "ternary": 8, "eigenvector": 4, "orthogonal": 4}


def _vec(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if x.ndim != 1 or x.size < 1:
        raise ValueError(f"x must be a non-empty vector, got shape {x.shape}")
    return x


def cs_value(u, v) -> float:
    """``||u||^2 ||v||^2 - <u, v>^2`` for two vectors of one length (>= 0 up to rounding)."""
    u, v = np.ravel(u), np.ravel(v)
    if u.shape != v.shape:
        raise ValueError(f"u and v must have the same length, got {u.size} and {v.size}")
    return float(np.dot(u, u) * np.dot(v, v) - np.dot(u, v) ** 2)


def binary_regularizer(x) -> float:
    """Symmetric binary CS regularizer ``N ||x||_4^4 - ||x||_2^4`` (zero iff ``x in {-a, a}^N``)."""
    x = _vec(x)
    return float(x.size * np.sum(x**4) - np.sum(x**2) ** 2)


def binary_gradient(x) -> np.ndarray:
    """Gradient ``4 x o (N x o x - ||x||^2 1)`` of :func:`binary_regularizer`."""
    x = _vec(x)
    return 4 * x * (x.size * x**2 - np.sum(x**2))


def one_sided_regularizer(x) -> float:
    """One-sided binary CS regularizer ``||x||_2^2 ||x||_4^4 - (sum x^3)^2`` (zero iff ``x in {0, a}^N``)."""
    x = _vec(x)
    return float(np.sum(x**2) * np.sum(x**4) - np.sum(x**3) ** 2)


def one_sided_gradient(x) -> np.ndarray:
    """Gradient ``2x ||x||_4^4 + 4x^3 ||x||_2^2 - 6 x^2 sum x^3``."""
    x = _vec(x)
    return 2 * x * np.sum(x**4) + 4 * x**3 * np.sum(x**2) - 6 * x**2 * np.sum(x**3)


def ternary_regularizer(x) -> float:
    """Symmetric ternary CS regularizer ``||x||_2^2 ||x||_6^6 - ||x||_4^8`` (zero iff ``x in {-a,0,a}^N``)."""
    x = _vec(x)
    return float(np.sum(x**2) * np.sum(x**6) - np.sum(x**4) ** 2)


def ternary_gradient(x) -> np.ndarray:
    """Gradient ``2x ||x||_6^6 + 6x^5 ||x||_2^2 - 8 x^3 ||x||_4^4``."""
    x = _vec(x)
    return 2 * x * np.sum(x**6) + 6 * x**5 * np.sum(x**2) - 8 * x**3 * np.sum(x**4)


def eigenvector_regularizer(x, C) -> float:
    """Eigenvector CS regularizer ``||x||^2 ||Cx||^2 - (x^T C x)^2`` (zero iff ``Cx`` is parallel to ``x``)."""
    x = _vec(x)
    C = np.asarray(C, dtype=float)
    if C.shape != (x.size, x.size):
        raise ValueError(f"C must be {x.size} x {x.size}, got {C.shape}")
    return cs_value(x, C @ x)


def eigenvector_gradient(x, C) -> np.ndarray:
    """Gradient ``2x ||Cx||^2 + 2 ||x||^2 C^T C x - 2 (x^T C x)(C + C^T) x``."""
    x = _vec(x)
    C = np.asarray(C, dtype=float)
    Cx = C @ x
    return 2 * x * (Cx @ Cx) + 2 * (x @ x) * (C.T @ Cx) - 2 * (x @ Cx) * ((C + C.T) @ x)


def orthogonal_regularizer(X) -> float:
    """Orthogonal-columns CS regularizer ``K ||X^T X||_F^2 - ||X||_F^4`` for ``X`` of shape ``(M, K)``."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must be a matrix, got shape {X.shape}")
    G = X.T @ X
    return float(X.shape[1] * np.sum(G**2) - np.trace(G) ** 2)


def orthogonal_gradient(X) -> np.ndarray:
    """Gradient ``4K X X^T X - 4 ||X||_F^2 X``."""
    X = np.asarray(X, dtype=float)
    return 4 * X.shape[1] * X @ (X.T @ X) - 4 * np.sum(X**2) * X


def fixed_scale_penalty(x) -> float:
    """The classical fixed-scale binary penalty ``sum (x_i^2 - 1)^2`` (not a CS regularizer)."""
    x = _vec(x)
    return float(np.sum((x**2 - 1) ** 2))


def fixed_scale_gradient(x) -> np.ndarray:
    """Gradient ``4 x o (x o x - 1)``: vanishes at every ``x in {-1, 0, 1}^N``."""
    x = _vec(x)
    return 4 * x * (x**2 - 1)


# --------------------------------------------------------------------------- sympy forms
def symbolic_pair(name: str, x, C=None):
    """The maps ``(u, v)`` of a named regularizer as lists of sympy expressions.

    Args:
        name: one of :data:`REGULARIZERS`.
        x: list of sympy symbols (for ``"orthogonal"``, a sympy Matrix ``X`` of shape ``(M, K)``).
        C: sympy Matrix for ``"eigenvector"``.

    Raises:
        ValueError: on an unknown name or a missing ``C``.
    """
    import sympy as sp

    if name == "binary":
        return [xi**2 for xi in x], [sp.Integer(1)] * len(x)
    if name == "one_sided":
        return list(x), [xi**2 for xi in x]
    if name == "ternary":
        return list(x), [xi**3 for xi in x]
    if name == "eigenvector":
        if C is None:
            raise ValueError("the eigenvector regularizer needs the matrix C")
        return list(x), list(C * sp.Matrix(x))
    if name == "orthogonal":
        G = x.T * x
        K = x.shape[1]
        return list(G), [sp.Integer(int(i == j)) for i in range(K) for j in range(K)]
    raise ValueError(f"unknown regularizer {name!r}; choose from {REGULARIZERS}")


def symbolic_regularizer(name: str, x, C=None, n_override=None):
    """Closed-form sympy polynomial of a named regularizer (the formulas of the module docstring).

    ``n_override`` replaces the dimension ``N`` (or ``K``) in the binary/orthogonal formulas; it
    exists to build deliberately wrong variants for negative controls.
    """
    import sympy as sp

    if name == "binary":
        n = len(x) if n_override is None else n_override
        return n * sum(xi**4 for xi in x) - sum(xi**2 for xi in x) ** 2
    if name == "one_sided":
        return sum(xi**2 for xi in x) * sum(xi**4 for xi in x) - sum(xi**3 for xi in x) ** 2
    if name == "ternary":
        return sum(xi**2 for xi in x) * sum(xi**6 for xi in x) - sum(xi**4 for xi in x) ** 2
    if name == "eigenvector":
        xv = sp.Matrix(x)
        Cx = C * xv
        return (xv.T * xv)[0] * (Cx.T * Cx)[0] - ((xv.T * Cx)[0]) ** 2
    if name == "orthogonal":
        G = x.T * x
        k = x.shape[1] if n_override is None else n_override
        return k * sum(g**2 for g in G) - G.trace() ** 2
    raise ValueError(f"unknown regularizer {name!r}; choose from {REGULARIZERS}")


def lagrange_sum_of_squares(u, v):
    """``sum_{i<j} (u_i v_j - u_j v_i)^2`` (Lagrange's identity for the CS gap)."""
    if len(u) != len(v):
        raise ValueError(f"u and v must have the same length, got {len(u)} and {len(v)}")
    return sum((u[i] * v[j] - u[j] * v[i]) ** 2 for i, j in combinations(range(len(u)), 2))


# --------------------------------------------------------------------------- recovery from Ax = b
# The solution-recovery experiment of the paper (Sec. 3.1): a vector x* with entries in a finite
# alphabet is to be recovered from M < N Gaussian measurements b = A x* by minimising a CS
# regularizer over the affine set {x : Ax = b}, against a convex baseline on the same instance.
_VECTOR_FUNCS = {
    "binary": (binary_regularizer, binary_gradient),
    "one_sided": (one_sided_regularizer, one_sided_gradient),
    "ternary": (ternary_regularizer, ternary_gradient),
}


def _measurements(A, b) -> tuple[np.ndarray, np.ndarray]:
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float).ravel()
    if A.ndim != 2 or A.shape[0] != b.size:
        raise ValueError(f"A must be an M x N matrix and b a vector of length M, got {A.shape} and {b.shape}")
    if A.shape[0] >= A.shape[1]:
        raise ValueError(f"the system must be underdetermined (M < N), got M = {A.shape[0]}, N = {A.shape[1]}")
    return A, b


def cs_recovery(A, b, rng: np.random.Generator, *, regularizer: str = "binary", starts: int = 10,
                reference=None, tol: float = 1e-2, max_iter: int = 2000) -> tuple[np.ndarray, int]:
    """Minimise a CS regularizer over ``{x : Ax = b}`` from random starts (paper, Sec. 3.1).

    The affine set is parametrised as ``x = x_p + Q y`` (``x_p`` the least-norm solution, ``Q`` an
    orthonormal basis of the null space of ``A``, from scipy), and ``y -> l(x_p + Q y)`` is
    minimised by scipy's L-BFGS-B from ``Q^T g``, ``g ~ N(0, I_N)``, as the authors restart their
    accelerated projected gradient (their ``binary_recovery.m`` uses up to 10 starts).

    Args:
        A: ``(M, N)`` measurement matrix, ``M < N``; b: ``(M,)`` measurements.
        regularizer: ``"binary"``, ``"one_sided"`` or ``"ternary"``.
        starts: random starts; stops early once ``reference`` is recovered.
        reference: the vector to recover (optional); a start succeeds when
            ``||x - reference|| / ||reference|| < tol``.
        max_iter: L-BFGS-B iterations per start.

    Returns:
        ``(x, used)``: the last start's minimiser (the recovered one when a start succeeded) and the
        number of starts used.

    Raises:
        ValueError: on shapes that are not an underdetermined system, an unknown regularizer or
            ``starts < 1``.
    """
    from scipy.linalg import lstsq, null_space
    from scipy.optimize import minimize

    A, b = _measurements(A, b)
    if regularizer not in _VECTOR_FUNCS:
        raise ValueError(f"regularizer must be one of {tuple(_VECTOR_FUNCS)}, not {regularizer!r}")
    if starts < 1:
        raise ValueError(f"need at least one start, got {starts}")
    value, gradient = _VECTOR_FUNCS[regularizer]
    x_p = lstsq(A, b)[0]
    Q = null_space(A)

    def objective(y):
        x = x_p + Q @ y
        return value(x), Q.T @ gradient(x)

    x = x_p
    for used in range(1, int(starts) + 1):
        y0 = Q.T @ rng.standard_normal(A.shape[1])
        res = minimize(objective, y0, jac=True, method="L-BFGS-B",
                       options={"maxiter": int(max_iter), "gtol": 1e-12, "ftol": 1e-15})
        x = x_p + Q @ res.x
        if reference is not None and recovered(x, reference, tol):
            return x, used
    return x, int(starts)


def recovered(x, reference, tol: float = 1e-2) -> bool:
    """The paper's success criterion ``||x - x*|| / ||x*|| < tol`` (``tol = 1e-2`` in the authors' code)."""
    x, ref = np.ravel(x), np.ravel(reference)
    if x.shape != ref.shape or not np.any(ref):
        raise ValueError("x and a nonzero reference of the same length are needed")
    return bool(np.linalg.norm(x - ref) / np.linalg.norm(ref) < tol)


def linf_recovery(A, b) -> np.ndarray:
    """The l-infinity baseline: ``argmin ||x||_inf`` subject to ``Ax = b``, as a linear program
    (``min t`` with ``-t <= x_i <= t``) solved by HiGHS through scipy.

    Raises:
        ValueError: on a malformed system; RuntimeError when HiGHS does not report optimality.
    """
    from scipy.optimize import linprog

    A, b = _measurements(A, b)
    M, N = A.shape
    c = np.zeros(N + 1)
    c[-1] = 1.0
    eye = np.eye(N)
    A_ub = np.block([[eye, -np.ones((N, 1))], [-eye, -np.ones((N, 1))]])
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(2 * N), A_eq=np.hstack([A, np.zeros((M, 1))]), b_eq=b,
                  bounds=[(None, None)] * N + [(0, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"l-infinity linear program not solved: {res.message}")
    return res.x[:N]


def linf_success_probability(M: int, N: int) -> float:
    """Probability that a fixed vertex ``x*`` of ``{-1, 1}^N`` is the unique l-infinity minimiser
    over ``{x : Ax = A x*}`` for Gaussian ``A`` of size ``M x N``:
    ``2^{-(N-1)} sum_{k=0}^{M-1} C(N-1, k)`` (Donoho & Tanner, "Counting the faces of
    randomly-projected hypercubes and orthants", 2010; Mangasarian & Recht 2011).  It is 1/2 at
    ``M = N/2``: the baseline's phase transition.

    Raises:
        ValueError: unless ``1 <= M <= N``.
    """
    M, N = int(M), int(N)
    if not 1 <= M <= N:
        raise ValueError(f"need 1 <= M <= N, got M = {M}, N = {N}")
    return math.fsum(math.comb(N - 1, k) for k in range(M)) / 2 ** (N - 1)


def binary_recovery_trial(rng: np.random.Generator, N: int, M: int, *, regularizer: str = "binary",
                          starts: int = 10, tol: float = 1e-2) -> tuple[bool, bool]:
    """One instance of the binary recovery experiment: ``A ~ N(0, 1)^{M x N}``, ``x*`` uniform on
    ``{-1, 1}^N``, ``b = A x*``; returns (CS regularizer recovered x*, l-infinity recovered x*).

    Raises:
        ValueError: unless ``1 <= M < N``.
    """
    if not 1 <= M < N:
        raise ValueError(f"need 1 <= M < N, got M = {M}, N = {N}")
    A = rng.standard_normal((M, N))
    x_star = np.where(rng.random(N) < 0.5, -1.0, 1.0)
    b = A @ x_star
    x_cs, _ = cs_recovery(A, b, rng, regularizer=regularizer, starts=starts, reference=x_star, tol=tol)
    return recovered(x_cs, x_star, tol), recovered(linf_recovery(A, b), x_star, tol)
