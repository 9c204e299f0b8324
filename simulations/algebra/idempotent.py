"""McWeeny purification: the cubic iteration that projects a matrix onto the idempotents.

Jensen & Vicary (ICML 2025, "Enforcing Idempotency in Neural Networks", PMLR 267:27070-27090)
derive, by perturbation theory, the recurrence

    K  <-  F(K) = 3 K^2 - 2 K^3

for pushing a real square matrix ``K`` towards the manifold of idempotent matrices
(``K^2 = K``).  The same map is McWeeny's density-matrix purification (R. McWeeny, Rev. Mod.
Phys. 32:335, 1960) and, through ``K = (I + X) / 2``, the Newton-Schulz iteration for the
matrix sign function ``X <- (3X - X^3) / 2`` (N. J. Higham, Functions of Matrices, 2008, Ch. 5).

On eigenvalues it acts as the scalar map ``f(x) = 3x^2 - 2x^3``, whose fixed points are
``0, 1/2, 1`` with ``f'(0) = f'(1) = 0`` (superattracting) and ``f'(1/2) = 3/2`` (repelling).

Conventions:
    * matrices are real ``numpy`` arrays of shape ``(n, n)``; functions marked as such also
      accept ``sympy.Matrix`` arguments (exact arithmetic);
    * ``vec`` stacks columns (column-major, ``order="F"``), so that
      ``vec(A X B) = (B^T kron A) vec(X)``; a linear map ``E -> L(E)`` on ``n x n`` matrices is
      represented by the ``n^2 x n^2`` matrix ``M`` with ``vec(L(E)) = M vec(E)``;
    * a polynomial ``p(x) = c_0 + c_1 x + ... + c_d x^d`` is given by its coefficient sequence
      ``(c_0, ..., c_d)``; ``MCWEENY_COEFFS = (0, 0, 3, -2)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

MCWEENY_COEFFS: tuple[float, ...] = (0.0, 0.0, 3.0, -2.0)
"""Coefficients ``(c_0, c_1, c_2, c_3)`` of ``f(x) = 3x^2 - 2x^3``."""


# --------------------------------------------------------------------------- validation
def _square(K: np.ndarray, name: str = "K") -> np.ndarray:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {K.shape}")
    if not np.all(np.isfinite(K)):
        raise ValueError(f"{name} contains NaN or inf")
    return K


def _coeffs(coeffs: Sequence[float]) -> list:
    coeffs = list(coeffs)
    if not coeffs:
        raise ValueError("a polynomial needs at least one coefficient")
    return coeffs


def _is_sympy(K: object) -> bool:
    return type(K).__module__.startswith("sympy")


# --------------------------------------------------------------------------- scalar map
def mcweeny_scalar(x: float | np.ndarray) -> float | np.ndarray:
    """The scalar McWeeny map ``f(x) = 3x^2 - 2x^3`` (elementwise on arrays).

    It is the action of :func:`mcweeny_step` on each eigenvalue of a diagonalizable matrix.
    Fixed points: ``0, 1/2, 1``.  Near 1, ``f(1 + e) = 1 - 3e^2 - 2e^3``; near 0,
    ``f(e) = 3e^2 - 2e^3``.  Works on floats, numpy arrays and sympy expressions.
    """
    return 3 * x**2 - 2 * x**3


def mcweeny_scalar_derivative(x: float | np.ndarray) -> float | np.ndarray:
    """``f'(x) = 6x - 6x^2 = 6x(1 - x)``; equals 0 at 0 and 1, and 3/2 at 1/2."""
    return 6 * x - 6 * x**2


# --------------------------------------------------------------------------- matrix maps
def matrix_polynomial(K, coeffs: Sequence[float]):
    """``p(K) = c_0 I + c_1 K + ... + c_d K^d`` by Horner's rule.

    Args:
        K: square matrix, ``numpy`` array of shape ``(n, n)`` or ``sympy.Matrix``.
        coeffs: ``(c_0, ..., c_d)``, lowest degree first.

    Returns:
        ``p(K)``, of the same kind and shape as ``K``.

    Raises:
        ValueError: if ``K`` is not square (or not finite) or ``coeffs`` is empty.
    """
    coeffs = _coeffs(coeffs)
    if _is_sympy(K):
        if K.rows != K.cols:
            raise ValueError(f"K must be a square matrix, got shape {K.shape}")
        eye = type(K).eye(K.rows)
    else:
        K = _square(K)
        eye = np.eye(K.shape[0])
    out = coeffs[-1] * eye
    for c in reversed(coeffs[:-1]):
        out = out @ K + c * eye
    return out


def mcweeny_step(K):
    """One step of the paper's recurrence ``F(K) = 3K^2 - 2K^3``.

    Args:
        K: square matrix, ``numpy`` array ``(n, n)`` or ``sympy.Matrix``.

    Returns:
        ``3 K^2 - 2 K^3`` (same kind and shape).  Idempotents (``K^2 = K``) are fixed points.

    Source: Jensen & Vicary (ICML 2025), abstract (recurrence K' <- 3K^2 - 2K^3); McWeeny (1960).
    """
    if not _is_sympy(K):
        K = _square(K)
    K2 = K @ K
    return 3 * K2 - 2 * (K2 @ K)


def relaxed_mcweeny_step(K: np.ndarray, relaxation: float) -> np.ndarray:
    """Under-relaxed recurrence ``K + a (F(K) - K)`` with ``0 < a <= 1``.

    Same fixed points as :func:`mcweeny_step`, but at an idempotent its derivative is
    ``(1 - a) I + a DF``, which has eigenvalue ``1 - a`` on the transversal directions: for
    ``a < 1`` the convergence is only linear (rate ``1 - a``).  Used as a deliberately broken
    algorithm in negative controls.

    Raises:
        ValueError: if ``relaxation`` is not in ``(0, 1]``.
    """
    if not 0 < relaxation <= 1:
        raise ValueError(f"relaxation must lie in (0, 1], not {relaxation}")
    K = _square(K)
    return K + relaxation * (mcweeny_step(K) - K)


def mcweeny_frechet(K: np.ndarray, E: np.ndarray) -> np.ndarray:
    """Frechet derivative of ``F(K) = 3K^2 - 2K^3`` at ``K`` in direction ``E``.

    ``DF_K(E) = 3(KE + EK) - 2(K^2 E + K E K + E K^2)``; at an idempotent ``P`` it reduces to
    ``PE + EP - 2PEP``.

    Args:
        K, E: real ``(n, n)`` arrays.

    Returns:
        ``DF_K(E)``, shape ``(n, n)``.

    Raises:
        ValueError: on non-square or mismatched shapes.
    """
    K, E = _square(K), _square(E, "E")
    if K.shape != E.shape:
        raise ValueError(f"K and E must have one shape, got {K.shape} and {E.shape}")
    K2 = K @ K
    return 3 * (K @ E + E @ K) - 2 * (K2 @ E + K @ E @ K + E @ K2)


def vec(X: np.ndarray) -> np.ndarray:
    """Column-stacking ``vec``: ``(n, m)`` array -> ``(n m,)`` vector (``order="F"``)."""
    return np.asarray(X).reshape(-1, order="F")


def unvec(v: np.ndarray, n: int) -> np.ndarray:
    """Inverse of :func:`vec` for ``n x n`` matrices: ``(n^2,)`` -> ``(n, n)``.

    Raises:
        ValueError: if ``v`` does not have ``n^2`` entries.
    """
    v = np.asarray(v)
    if v.size != n * n:
        raise ValueError(f"a vector of {v.size} entries is not an {n}x{n} matrix")
    return v.reshape((n, n), order="F")


def linear_map_matrix(apply: Callable[[np.ndarray], np.ndarray], n: int) -> np.ndarray:
    """Matrix ``M`` (``n^2 x n^2``) of a linear map on ``n x n`` matrices, column-major vec.

    Column ``k`` of ``M`` is ``vec(apply(E_k))`` for the ``k``-th unit matrix ``E_k`` (the one
    with ``vec(E_k) = e_k``).  ``n^2`` evaluations of ``apply``.

    Raises:
        ValueError: if ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    M = np.empty((n * n, n * n))
    for k in range(n * n):
        E = np.zeros(n * n)
        E[k] = 1.0
        M[:, k] = vec(apply(unvec(E, n)))
    return M


def polynomial_frechet(K: np.ndarray, E: np.ndarray, coeffs: Sequence[float]) -> np.ndarray:
    """Frechet derivative of ``K -> p(K)`` at ``K`` in direction ``E``.

    ``Dp_K(E) = sum_k c_k sum_{j=0}^{k-1} K^j E K^{k-1-j}``.  For ``MCWEENY_COEFFS`` this is
    :func:`mcweeny_frechet`; for ``(0, 0, 1)`` (the map ``K -> K^2``) it is ``KE + EK``.

    Args:
        K, E: real ``(n, n)`` arrays; coeffs: ``(c_0, ..., c_d)``.

    Raises:
        ValueError: on bad shapes or empty ``coeffs``.
    """
    coeffs = _coeffs(coeffs)
    K, E = _square(K), _square(E, "E")
    if K.shape != E.shape:
        raise ValueError(f"K and E must have one shape, got {K.shape} and {E.shape}")
    n = K.shape[0]
    powers = [np.eye(n)]
    for _ in range(len(coeffs) - 2):
        powers.append(powers[-1] @ K)
    out = np.zeros_like(K)
    for k, c in enumerate(coeffs):
        for j in range(k):
            out += c * (powers[j] @ E @ powers[k - 1 - j])
    return out


def polynomial_frechet_matrix(K: np.ndarray, coeffs: Sequence[float]) -> np.ndarray:
    """``n^2 x n^2`` matrix of ``E -> Dp_K(E)`` (column-major vec), see :func:`polynomial_frechet`."""
    K = _square(K)
    return linear_map_matrix(lambda E: polynomial_frechet(K, E, coeffs), K.shape[0])


def mcweeny_frechet_matrix(K: np.ndarray) -> np.ndarray:
    """``n^2 x n^2`` matrix of ``E -> DF_K(E)`` for ``F(K) = 3K^2 - 2K^3`` (column-major vec).

    Built column by column from :func:`mcweeny_frechet`.  At an idempotent ``P`` of rank ``r``
    it is diagonalizable with eigenvalue 1 of multiplicity ``2 r (n - r)`` (directions
    ``PE(I-P)`` and ``(I-P)EP``, tangent to the idempotent manifold) and eigenvalue 0 of
    multiplicity ``n^2 - 2 r (n - r)`` (``PEP`` and ``(I-P)E(I-P)``, transversal).
    """
    K = _square(K)
    return linear_map_matrix(lambda E: mcweeny_frechet(K, E), K.shape[0])


def frechet_eigenvalue_error_bound(K: np.ndarray, S: np.ndarray, L: np.ndarray) -> float:
    """Bound on the error of the computed eigenvalues of a Frechet matrix at ``K = S D S^{-1}``.

    ``L`` (``N x N``, ``N = n^2``) is the Frechet matrix of a matrix polynomial of degree <= 3 at
    the diagonalizable ``K`` whose eigenvector matrix is ``S``.  ``L`` is then diagonalizable
    with eigenvector matrix ``S^{-T} kron S`` (the directions ``s_i t_j^T``), of 2-norm condition
    number ``kappa(S)^2``, so the Bauer-Fike theorem bounds every eigenvalue error by
    ``kappa(S)^2 * ||Delta L||_2`` for a perturbation ``Delta L`` of ``L``.  Two sources enter
    ``Delta L`` (unit roundoff ``u``):

    * forming ``K`` from ``S`` in floating point moves it by about ``n u kappa(S)``, and the map
      ``K -> L`` has Lipschitz constant at most ``6 + 10 ||K||_2`` for ``3K^2 - 2K^3``;
    * the QR eigensolver is backward stable with ``||Delta L|| <= N u ||L||_F`` (the modest
      constant of the backward error taken as ``N``).

    Returns:
        ``kappa(S)^2 * u * (N ||L||_F + n kappa(S) (6 + 10 ||K||_2))``.

    Raises:
        ValueError: on inconsistent shapes.
    """
    K, S, L = _square(K), _square(S, "S"), _square(L, "L")
    n = K.shape[0]
    if S.shape != K.shape or L.shape != (n * n, n * n):
        raise ValueError(f"shapes K {K.shape}, S {S.shape}, L {L.shape} do not fit")
    u = np.finfo(float).eps / 2
    kappa = float(np.linalg.cond(S))
    backward = n * n * np.linalg.norm(L, "fro") + n * kappa * (6 + 10 * np.linalg.norm(K, 2))
    return float(kappa**2 * u * backward)


# --------------------------------------------------------------------------- instances
def similar_diagonal(S: np.ndarray, eigenvalues: Sequence[float]) -> np.ndarray:
    """``S diag(eigenvalues) S^{-1}``: the diagonalizable matrix with eigenbasis ``S``.

    Args:
        S: invertible ``(n, n)`` array (columns are the eigenvectors).
        eigenvalues: ``n`` real numbers.

    Raises:
        ValueError: on a shape mismatch or a singular ``S``.
    """
    S = _square(S, "S")
    lam = np.asarray(eigenvalues, dtype=float).ravel()
    if lam.size != S.shape[0]:
        raise ValueError(f"need {S.shape[0]} eigenvalues, got {lam.size}")
    try:
        return (S * lam) @ np.linalg.inv(S)
    except np.linalg.LinAlgError:
        raise ValueError("S is singular") from None


def random_eigenbasis(n: int, rng: np.random.Generator, condition: float = 10.0) -> np.ndarray:
    """Random invertible ``(n, n)`` eigenbasis ``S = Q_1 diag(sigma) Q_2`` of known condition.

    ``Q_1, Q_2`` are Haar-orthogonal (QR of Gaussian matrices with the sign fix), ``sigma`` is
    log-uniform in ``[1, condition]`` with both ends attained (for ``n >= 2``), so
    ``cond_2(S) = condition`` exactly up to rounding.  ``S diag(d) S^{-1}`` is then an oblique
    (non-normal) matrix whose eigenvalue problem has a controlled conditioning.

    Raises:
        ValueError: if ``n < 1`` or ``condition < 1``.
    """
    if n < 1 or condition < 1:
        raise ValueError(f"need n >= 1 and condition >= 1, got n={n}, condition={condition}")

    def haar() -> np.ndarray:
        Q, R = np.linalg.qr(rng.standard_normal((n, n)))
        return Q * np.sign(np.diag(R))

    logs = rng.uniform(0.0, np.log(condition), n)
    if n >= 2:
        logs[0], logs[1] = 0.0, np.log(condition)
    return (haar() * np.exp(logs)) @ haar()


def idempotent_from_basis(S: np.ndarray, rank: int) -> np.ndarray:
    """Oblique idempotent ``S diag(1_rank, 0_{n-rank}) S^{-1}``: projects onto the first
    ``rank`` columns of ``S`` along the others.

    Raises:
        ValueError: if ``rank`` is not in ``[0, n]`` or ``S`` is singular.
    """
    n = np.shape(S)[0]
    if not 0 <= rank <= n:
        raise ValueError(f"rank must lie in [0, {n}], not {rank}")
    return similar_diagonal(S, [1.0] * rank + [0.0] * (n - rank))


def random_idempotent(n: int, rank: int, rng: np.random.Generator) -> np.ndarray:
    """Random oblique (non-symmetric) idempotent of size ``n`` and rank ``rank``.

    ``S`` has i.i.d. standard normal entries (invertible with probability one) and the result
    is :func:`idempotent_from_basis` ``(S, rank)``; ``P @ P = P`` up to rounding of order
    ``n * eps * cond(S)^2``.

    Raises:
        ValueError: if ``n < 1`` or ``rank`` is not in ``[0, n]``.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    return idempotent_from_basis(rng.standard_normal((n, n)), rank)


def random_orthogonal_projector(n: int, rank: int,
                                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Random symmetric idempotent ``P = U U^T`` with ``U`` (``n x rank``) orthonormal.

    ``U`` is the Q factor of a Gaussian ``n x rank`` matrix (Haar-distributed range).

    Returns:
        ``(P, U)``: the ``(n, n)`` projector and its ``(n, rank)`` orthonormal range basis.

    Raises:
        ValueError: if ``n < 1`` or ``rank`` is not in ``[0, n]``.
    """
    if n < 1 or not 0 <= rank <= n:
        raise ValueError(f"need n >= 1 and 0 <= rank <= n, got n={n}, rank={rank}")
    U, _ = np.linalg.qr(rng.standard_normal((n, rank)))
    return U @ U.T, U


def symmetric_perturbation(n: int, scale: float, rng: np.random.Generator) -> np.ndarray:
    """Random symmetric ``(n, n)`` matrix with spectral norm exactly ``scale`` (up to rounding).

    A GOE-type matrix ``(G + G^T) / 2`` rescaled by its largest absolute eigenvalue.

    Raises:
        ValueError: if ``n < 1`` or ``scale < 0``.
    """
    if n < 1 or scale < 0:
        raise ValueError(f"need n >= 1 and scale >= 0, got n={n}, scale={scale}")
    G = rng.standard_normal((n, n))
    E = (G + G.T) / 2
    norm = np.max(np.abs(np.linalg.eigvalsh(E)))
    return E * (scale / norm) if norm > 0 else E


def spectral_projector(K: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Orthogonal projector onto the eigenvectors of symmetric ``K`` with eigenvalue > threshold.

    For symmetric ``K`` whose eigenvalues lie in the basin ``((1 - sqrt 3)/2, 1/2) U
    (1/2, (1 + sqrt 3)/2)``, this is the limit of the McWeeny iterates.

    Raises:
        ValueError: if ``K`` is not square or not symmetric (to 1e-12 relative).
    """
    K = _square(K)
    if not np.allclose(K, K.T, rtol=0, atol=1e-12 * max(1.0, np.abs(K).max())):
        raise ValueError("spectral_projector needs a symmetric matrix")
    lam, V = np.linalg.eigh((K + K.T) / 2)
    W = V[:, lam > threshold]
    return W @ W.T


def idempotency_error(K: np.ndarray) -> float:
    """``||K^2 - K||_2`` (spectral norm); zero exactly on idempotents."""
    K = _square(K)
    return float(np.linalg.norm(K @ K - K, 2))


def symbolic_idempotent(n: int, rank: int, prefix: str = "a"):
    """A general symbolic idempotent ``n x n`` matrix of rank ``rank`` (``sympy.Matrix``).

    Rank 0 and ``n``: ``0`` and ``I``.  Rank 1: ``u v^T / (v^T u)`` with symbolic vectors
    ``u, v`` (every rank-1 idempotent has this form); rank ``n - 1``: ``I`` minus that.
    Otherwise ``A (B A)^{-1} B`` with symbolic ``A`` (``n x r``) and ``B`` (``r x n``), which
    covers every rank-``r`` idempotent (take ``B`` with ``B A = I``); slow beyond ``n = 3``.
    Symbols are named ``{prefix}u0, {prefix}v0, ...`` or ``{prefix}A00, {prefix}B00, ...``.

    Raises:
        ValueError: if ``n < 1`` or ``rank`` is not in ``[0, n]``.
    """
    import sympy as sp

    if n < 1 or not 0 <= rank <= n:
        raise ValueError(f"need n >= 1 and 0 <= rank <= n, got n={n}, rank={rank}")
    if rank == 0:
        return sp.zeros(n, n)
    if rank == n:
        return sp.eye(n)
    if rank in (1, n - 1):
        u = sp.Matrix(sp.symbols(f"{prefix}u0:{n}"))
        v = sp.Matrix(sp.symbols(f"{prefix}v0:{n}"))
        P1 = (u * v.T) / (v.T * u)[0, 0]
        return P1 if rank == 1 else sp.eye(n) - P1
    A = sp.Matrix(n, rank, lambda i, j: sp.Symbol(f"{prefix}A{i}{j}"))
    B = sp.Matrix(rank, n, lambda i, j: sp.Symbol(f"{prefix}B{i}{j}"))
    return A * (B * A).inv() * B


# --------------------------------------------------------------------------- iteration
@dataclass
class IterationResult:
    """Trajectory of an iteration ``K_{t+1} = step(K_t)``.

    Attributes:
        final: the last finite iterate ``K_T``, shape ``(n, n)``.
        errors: ``(T + 1,)`` array of ``error(K_t)`` for ``t = 0..T``.
        converged: True if the error reached ``tol``.
        diverged: True if ``||K_t||_max`` exceeded ``blowup`` (the iteration stopped there).
    """

    final: np.ndarray
    errors: np.ndarray
    converged: bool
    diverged: bool

    @property
    def steps(self) -> int:
        return int(self.errors.size - 1)


def iterate_map(K0: np.ndarray, step: Callable[[np.ndarray], np.ndarray] = mcweeny_step,
                error: Callable[[np.ndarray], float] = idempotency_error, *, tol: float = 0.0,
                max_steps: int = 50, blowup: float = 1e8) -> IterationResult:
    """Iterate ``K <- step(K)`` from ``K0`` until ``error(K) <= tol``, a blow-up, or ``max_steps``.

    Args:
        K0: ``(n, n)`` start.
        step: the map (default the McWeeny step ``3K^2 - 2K^3``).
        error: error of an iterate (default ``||K^2 - K||_2``); e.g. ``||K - P_inf||_2``.
        tol: stop once the error is at most ``tol`` (0: run ``max_steps`` steps).
        max_steps: at most this many steps (>= 0).
        blowup: stop, flagged diverged, once the largest absolute entry exceeds it (before
            overflow turns the trajectory into inf/NaN).

    Returns:
        :class:`IterationResult` with the error trajectory.

    Raises:
        ValueError: on a non-square or non-finite ``K0``, ``max_steps < 0`` or ``tol < 0``.
    """
    if max_steps < 0 or tol < 0:
        raise ValueError(f"need max_steps >= 0 and tol >= 0, got {max_steps} and {tol}")
    K = _square(K0, "K0")
    errors = [float(error(K))]
    converged = errors[0] <= tol
    diverged = False
    for _ in range(max_steps):
        if converged:
            break
        nxt = step(K)
        if not np.all(np.isfinite(nxt)) or np.abs(nxt).max() > blowup:
            diverged = True
            if np.all(np.isfinite(nxt)):
                K = nxt
                errors.append(float(error(K)))
            break
        K = nxt
        errors.append(float(error(K)))
        converged = errors[-1] <= tol
    return IterationResult(K, np.asarray(errors), bool(converged), diverged)


def quadratic_ratios(errors: np.ndarray) -> np.ndarray:
    """``e_{t+1} / e_t^2`` for consecutive errors (``(T,)`` from ``(T + 1,)``).

    For the McWeeny map the ratio tends to 3 (from ``f(1 + e) = 1 - 3e^2 - 2e^3``).

    Raises:
        ValueError: if an error other than the last is zero (the ratio is undefined).
    """
    e = np.asarray(errors, dtype=float).ravel()
    if np.any(e[:-1] == 0):
        raise ValueError("a zero error before the end of the trajectory: ratios undefined")
    return e[1:] / e[:-1] ** 2
