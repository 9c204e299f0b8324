"""Matrix preconditioners of Shampoo, Adafactor, Adam and SOAP for one ``m x n`` weight matrix.

Source: N. Vyas, D. Morwani, R. Zhao, I. Shapira, D. Brandfonbrener, L. Janson, S. Kakade,
"SOAP: Improving and Stabilizing Shampoo using Adam", ICLR 2025 (arXiv:2409.11321), Sec. 3
(Claim 1: Shampoo with power 1/2 is Adafactor in the eigenbasis of Shampoo's preconditioner)
and Sec. 4 (the SOAP algorithm), with the details of the authors' reference implementation
``nikhilvyas/SOAP/soap.py``.  Adam: Kingma & Ba (ICLR 2015), with the decoupled weight decay of
Loshchilov & Hutter (ICLR 2019).  Adafactor: Shazeer & Stern (ICML 2018).

Conventions.  A gradient ``G`` has shape ``(m, n)``; a stack of ``T`` gradients has shape
``(T, m, n)``.  Shampoo's left and right statistics are ``L = sum_t G_t G_t^T`` (``m x m``)
and ``R = sum_t G_t^T G_t`` (``n x n``), or their average / exponential moving average.
Eigenbases are orthogonal matrices whose columns are eigenvectors sorted by *decreasing*
eigenvalue (the order of ``soap.py``).  A matrix is moved into the eigenbasis by
``G' = Q_L^T G Q_R`` and back by ``G = Q_L G' Q_R^T``.  All arithmetic is float64 numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

__all__ = [
    "AdamState",
    "SOAPState",
    "adafactor_factors",
    "adafactor_in_basis_update",
    "adafactor_second_moment",
    "adam_in_basis_update",
    "adam_init",
    "adam_rounding_bound",
    "adam_step",
    "eigenbasis",
    "least_squares_scale",
    "matrix_power_psd",
    "random_orthogonal",
    "refresh_eigenbasis_power_qr",
    "rotate",
    "sample_gradients",
    "shampoo_statistics",
    "shampoo_update",
    "soap_init",
    "soap_step",
    "unrotate",
]


# --------------------------------------------------------------------------- validation
def _as_matrix(x: np.ndarray, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (a matrix), got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or inf")
    return a


def _as_stack(grads: np.ndarray) -> np.ndarray:
    g = np.asarray(grads, dtype=float)
    if g.ndim == 2:
        g = g[None]
    if g.ndim != 3 or g.shape[0] < 1:
        raise ValueError(f"gradients must have shape (T, m, n) with T >= 1, got {np.shape(grads)}")
    if not np.all(np.isfinite(g)):
        raise ValueError("gradients contain NaN or inf")
    return g


def _as_symmetric(a: np.ndarray, name: str) -> np.ndarray:
    a = _as_matrix(a, name)
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} must be square, got shape {a.shape}")
    scale = max(float(np.abs(a).max()), np.finfo(float).tiny)
    if float(np.abs(a - a.T).max()) > 1e-10 * scale:
        raise ValueError(f"{name} must be symmetric")
    return (a + a.T) / 2


def _check_orthogonal(q: np.ndarray, name: str, size: int) -> np.ndarray:
    q = _as_matrix(q, name)
    if q.shape != (size, size):
        raise ValueError(f"{name} must have shape ({size}, {size}), got {q.shape}")
    if float(np.abs(q.T @ q - np.eye(size)).max()) > 1e-8:
        raise ValueError(f"{name} must be orthogonal (Q^T Q = I)")
    return q


def _check_betas(betas: tuple[float, float]) -> tuple[float, float]:
    if len(betas) != 2:
        raise ValueError(f"betas must be a pair (beta1, beta2), got {betas!r}")
    b1, b2 = (float(b) for b in betas)
    if not (0.0 <= b1 < 1.0 and 0.0 <= b2 < 1.0):
        raise ValueError(f"betas must lie in [0, 1), got {betas!r}")
    return b1, b2


# --------------------------------------------------------------------------- linear algebra
def random_orthogonal(rng: np.random.Generator, n: int) -> np.ndarray:
    """A Haar-distributed random ``n x n`` orthogonal matrix.

    QR of a standard Gaussian matrix with the signs of ``diag(R)`` moved into ``Q``
    (Mezzadri, Notices AMS 2007), so the law is exactly Haar.

    Raises:
        ValueError: if ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"the dimension must be at least 1, got {n}")
    q, r = np.linalg.qr(rng.standard_normal((n, n)))
    return q * np.where(np.diag(r) < 0, -1.0, 1.0)


def eigenbasis(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues (decreasing) and orthonormal eigenvectors of a symmetric matrix.

    Args:
        a: symmetric ``(k, k)`` matrix (e.g. Shampoo's ``L`` or ``R``).

    Returns:
        ``(lam, Q)``: ``lam`` of shape ``(k,)`` in decreasing order and ``Q`` of shape
        ``(k, k)`` with ``a = Q diag(lam) Q^T`` (``numpy.linalg.eigh``, columns flipped to
        the decreasing order used by ``soap.py``).

    Raises:
        ValueError: if ``a`` is not a finite symmetric square matrix.
    """
    a = _as_symmetric(a, "the matrix")
    lam, q = np.linalg.eigh(a)
    return lam[::-1].copy(), q[:, ::-1].copy()


def matrix_power_psd(a: np.ndarray, power: float, *, eps: float = 0.0) -> np.ndarray:
    """``(a + eps I)^power`` of a symmetric positive (semi-)definite matrix by eigendecomposition.

    With ``power = -1/2`` this is Shampoo's inverse square root ``L^{-1/2}``, with
    ``power = -1/4`` the inverse fourth root of the original Shampoo (Gupta et al., 2018).

    Args:
        a: symmetric ``(k, k)`` matrix.
        power: real exponent (negative for inverse roots).
        eps: ridge added to the diagonal before the power (``>= 0``).

    Returns:
        ``Q diag((lam + eps)^power) Q^T``, a symmetric ``(k, k)`` matrix.

    Raises:
        ValueError: if ``a`` is not symmetric, ``eps < 0``, an eigenvalue of ``a + eps I`` is
            negative beyond rounding, or ``power < 0`` and ``a + eps I`` is singular.
    """
    if eps < 0:
        raise ValueError(f"eps must be non-negative, got {eps}")
    lam, q = eigenbasis(a)
    lam = lam + eps
    floor = 1e-12 * max(float(np.abs(lam).max()), np.finfo(float).tiny)
    if lam.min() < -floor:
        raise ValueError(f"the matrix is not positive semi-definite (eigenvalue {lam.min():.3e})")
    lam = np.maximum(lam, 0.0)
    if power < 0 and lam.min() <= 0:
        raise ValueError("a negative power of a singular matrix: add a ridge eps > 0 "
                         "or accumulate more gradients")
    return (q * lam**power) @ q.T


def rotate(g: np.ndarray, q_left: np.ndarray, q_right: np.ndarray) -> np.ndarray:
    """Move ``g`` (shape ``(..., m, n)``) into the basis ``(Q_L, Q_R)``: ``Q_L^T g Q_R``."""
    return np.swapaxes(q_left, -1, -2) @ np.asarray(g, dtype=float) @ q_right


def unrotate(g: np.ndarray, q_left: np.ndarray, q_right: np.ndarray) -> np.ndarray:
    """Move ``g`` (shape ``(..., m, n)``) back from the basis ``(Q_L, Q_R)``: ``Q_L g Q_R^T``."""
    return q_left @ np.asarray(g, dtype=float) @ np.swapaxes(q_right, -1, -2)


def least_squares_scale(a: np.ndarray, b: np.ndarray) -> float:
    """The scalar ``c`` minimising ``||a - c b||_F``: ``<a, b> / <b, b>``.

    Raises:
        ValueError: on a shape mismatch or ``b = 0``.
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} and {b.shape}")
    bb = float(np.vdot(b, b))
    if bb == 0:
        raise ValueError("b is zero: no scale is defined")
    return float(np.vdot(a, b)) / bb


# --------------------------------------------------------------------------- gradients
def sample_gradients(rng: np.random.Generator, num: int, m: int, n: int, *,
                     condition: float = 100.0) -> np.ndarray:
    """Random gradients with a non-trivial, ill-conditioned Kronecker covariance.

    ``G_t = U diag(a) Z_t diag(b) V^T`` with ``Z_t`` i.i.d. standard Gaussian ``m x n``,
    Haar-random orthogonal ``U`` (``m x m``) and ``V`` (``n x n``), and log-spaced scales
    ``a_i^2`` from 1 down to ``1/condition`` (same for ``b``), so that
    ``E[G G^T] = tr(diag(b)^2) U diag(a)^2 U^T`` has condition number ``condition`` and a
    random eigenbasis.

    Args:
        rng: random generator.
        num: number of gradients ``T >= 1``.
        m, n: gradient shape, ``>= 1``.
        condition: ratio of the largest to the smallest row (and column) variance, ``>= 1``.

    Returns:
        Array of shape ``(num, m, n)``.

    Raises:
        ValueError: on non-positive sizes or ``condition < 1``.
    """
    if num < 1 or m < 1 or n < 1:
        raise ValueError(f"num, m, n must be positive, got {num}, {m}, {n}")
    if condition < 1:
        raise ValueError(f"condition must be >= 1, got {condition}")
    a = condition ** (-0.5 * np.linspace(0.0, 1.0, m))
    b = condition ** (-0.5 * np.linspace(0.0, 1.0, n))
    u, v = random_orthogonal(rng, m), random_orthogonal(rng, n)
    z = rng.standard_normal((num, m, n))
    return (u * a) @ z @ (v * b).T


# --------------------------------------------------------------------------- Shampoo
def shampoo_statistics(grads: np.ndarray, *, beta: float | None = None,
                       average: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Shampoo's left and right preconditioner statistics.

    ``L = sum_t G_t G_t^T`` and ``R = sum_t G_t^T G_t`` (Gupta et al., 2018; SOAP paper Sec. 2),
    or the average (``average=True``, the empirical version of the idealised
    ``E[G G^T]``, ``E[G^T G]`` of the SOAP paper's Claim 1), or the exponential moving average
    ``L <- beta L + (1 - beta) G_t G_t^T`` from ``L = 0`` (``beta`` given, as in ``soap.py``).
    Note ``tr L = tr R = sum_t ||G_t||_F^2`` in every variant.

    Args:
        grads: ``(T, m, n)`` stack of gradients (a single ``(m, n)`` gradient is accepted).
        beta: EMA coefficient in ``[0, 1)``; None for the sum / average.
        average: divide the sum by ``T`` (ignored when ``beta`` is given).

    Returns:
        ``(L, R)`` of shapes ``(m, m)`` and ``(n, n)``.

    Raises:
        ValueError: on a malformed stack or ``beta`` outside ``[0, 1)``.
    """
    g = _as_stack(grads)
    if beta is None:
        left = np.einsum("tij,tkj->ik", g, g)
        right = np.einsum("tji,tjk->ik", g, g)
        if average:
            left, right = left / g.shape[0], right / g.shape[0]
        return left, right
    if not 0.0 <= beta < 1.0:
        raise ValueError(f"beta must lie in [0, 1), got {beta}")
    left = np.zeros((g.shape[1], g.shape[1]))
    right = np.zeros((g.shape[2], g.shape[2]))
    for gt in g:
        left = beta * left + (1 - beta) * gt @ gt.T
        right = beta * right + (1 - beta) * gt.T @ gt
    return left, right


def shampoo_update(g: np.ndarray, left: np.ndarray, right: np.ndarray, *, power: float = 0.5,
                   trace_normalise: bool = True, eps: float = 0.0) -> np.ndarray:
    """Shampoo's preconditioned direction ``L^{-p} G R^{-p}``.

    With ``trace_normalise=True`` this is the idealised Shampoo of the SOAP paper (Sec. 3,
    after Morwani et al. 2024), whose preconditioner is ``(L kron R / tr L)^p``: the direction
    is ``(tr L)^p L^{-p} G R^{-p}``.  ``power = 1/2`` is the version of Claim 1, ``1/4`` the
    original Shampoo (Gupta et al., 2018).

    Args:
        g: ``(m, n)`` gradient to precondition.
        left, right: ``(m, m)`` and ``(n, n)`` statistics (``shampoo_statistics``).
        power: exponent ``p > 0``.
        trace_normalise: multiply by ``(tr L)^p``.
        eps: ridge added to both statistics before the inverse roots.

    Returns:
        ``(m, n)`` preconditioned direction.

    Raises:
        ValueError: on shape mismatches, ``power <= 0`` or singular statistics (``eps = 0``).
    """
    g = _as_matrix(g, "the gradient")
    if power <= 0:
        raise ValueError(f"power must be positive, got {power}")
    left, right = _as_symmetric(left, "L"), _as_symmetric(right, "R")
    if left.shape[0] != g.shape[0] or right.shape[0] != g.shape[1]:
        raise ValueError(f"L {left.shape} and R {right.shape} do not fit a gradient {g.shape}")
    out = matrix_power_psd(left, -power, eps=eps) @ g @ matrix_power_psd(right, -power, eps=eps)
    if trace_normalise:
        out = out * float(np.trace(left)) ** power
    return out


# --------------------------------------------------------------------------- Adafactor
def adafactor_factors(second_moment: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Adafactor's row and column factors of a non-negative ``(m, n)`` second-moment matrix.

    ``r_i = sum_j S_ij`` and ``c_j = sum_i S_ij`` (Shazeer & Stern 2018, Alg. 4 with the
    ``1_m``/``1_n`` sums; the SOAP paper's ``A_i`` and ``C_j``).

    Raises:
        ValueError: if the matrix is not 2-d, not finite or has a negative entry.
    """
    s = _as_matrix(second_moment, "the second moment")
    if s.min() < 0:
        raise ValueError("a second-moment matrix must be non-negative")
    return s.sum(axis=1), s.sum(axis=0)


def adafactor_second_moment(second_moment: np.ndarray) -> np.ndarray:
    """Adafactor's rank-one estimate ``V = r c^T / sum_i r_i`` of a second-moment matrix.

    Args:
        second_moment: non-negative ``(m, n)`` matrix ``S`` (e.g. ``E[G (.) G]``).

    Returns:
        ``(m, n)`` matrix with the same row and column sums as ``S``.

    Raises:
        ValueError: as :func:`adafactor_factors`, or if ``S`` is zero.
    """
    r, c = adafactor_factors(second_moment)
    total = float(r.sum())
    if total <= 0:
        raise ValueError("the second moment is zero: Adafactor's estimate is undefined")
    return np.outer(r, c) / total


def adafactor_in_basis_update(g: np.ndarray, grads: np.ndarray, q_left: np.ndarray,
                              q_right: np.ndarray) -> np.ndarray:
    """Idealised Adafactor run in the basis ``(Q_L, Q_R)``, mapped back to the original basis.

    The statistics are the empirical ``E[G' (.) G']`` over ``grads`` rotated by
    ``G' = Q_L^T G Q_R``; Adafactor factors them (:func:`adafactor_second_moment`) into ``V``
    and the direction is ``Q_L (G' / sqrt(V)) Q_R^T`` with ``G' = Q_L^T g Q_R``, no epsilon,
    no momentum (the "idealised Adafactor" of the SOAP paper, Sec. 3).  With ``Q_L, Q_R`` the
    eigenbases of ``E[G G^T]`` and ``E[G^T G]`` this is Claim 1's left-hand side.

    Args:
        g: ``(m, n)`` gradient to precondition.
        grads: ``(T, m, n)`` gradients defining the expectation.
        q_left, q_right: orthogonal ``(m, m)`` and ``(n, n)`` bases.

    Returns:
        ``(m, n)`` preconditioned direction.

    Raises:
        ValueError: on shape mismatches, non-orthogonal bases or a zero row/column second moment.
    """
    g = _as_matrix(g, "the gradient")
    stack = _as_stack(grads)
    q_left = _check_orthogonal(q_left, "Q_L", g.shape[0])
    q_right = _check_orthogonal(q_right, "Q_R", g.shape[1])
    if stack.shape[1:] != g.shape:
        raise ValueError(f"gradients {stack.shape} do not match the gradient {g.shape}")
    v = adafactor_second_moment(np.mean(rotate(stack, q_left, q_right) ** 2, axis=0))
    if v.min() <= 0:
        raise ValueError("a row or column of the rotated second moment is zero")
    return unrotate(rotate(g, q_left, q_right) / np.sqrt(v), q_left, q_right)


def adam_in_basis_update(g: np.ndarray, grads: np.ndarray, q_left: np.ndarray,
                         q_right: np.ndarray) -> np.ndarray:
    """Idealised (unfactored) Adam run in the basis ``(Q_L, Q_R)``, mapped back.

    As :func:`adafactor_in_basis_update` but with the full diagonal second moment
    ``V_ij = E[G'_ij^2]`` instead of its rank-one factorisation: ``Q_L (G' / sqrt(V)) Q_R^T``.
    This is SOAP's preconditioner with ideal (expected) statistics and no momentum.

    Raises:
        ValueError: on shape mismatches, non-orthogonal bases or a zero coordinate of ``V``.
    """
    g = _as_matrix(g, "the gradient")
    stack = _as_stack(grads)
    q_left = _check_orthogonal(q_left, "Q_L", g.shape[0])
    q_right = _check_orthogonal(q_right, "Q_R", g.shape[1])
    if stack.shape[1:] != g.shape:
        raise ValueError(f"gradients {stack.shape} do not match the gradient {g.shape}")
    v = np.mean(rotate(stack, q_left, q_right) ** 2, axis=0)
    if v.min() <= 0:
        raise ValueError("a coordinate of the rotated second moment is zero")
    return unrotate(rotate(g, q_left, q_right) / np.sqrt(v), q_left, q_right)


# --------------------------------------------------------------------------- Adam
@dataclass(frozen=True)
class AdamState:
    """Adam's moments for one ``(m, n)`` parameter: EMA of ``G`` and of ``G (.) G``, step count."""

    exp_avg: np.ndarray
    exp_avg_sq: np.ndarray
    step: int = 0


def adam_init(shape: tuple[int, int]) -> AdamState:
    """Zero moments for a parameter of ``shape`` (step 0)."""
    return AdamState(np.zeros(shape), np.zeros(shape), 0)


def adam_step(w: np.ndarray, g: np.ndarray, state: AdamState, *, lr: float,
              betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
              weight_decay: float = 0.0, eps_mode: str = "adam",
              decay: str = "before") -> tuple[np.ndarray, AdamState]:
    """One step of Adam with bias correction and decoupled weight decay (AdamW).

    ``M <- b1 M + (1-b1) G``, ``V <- b2 V + (1-b2) G^2``, ``Mh = M / (1-b1^t)``,
    ``Vh = V / (1-b2^t)``, ``W <- (1 - lr wd) W - lr Mh / (sqrt(Vh) + eps)``
    (Kingma & Ba 2015, Alg. 1; Loshchilov & Hutter 2019).  At ``t = 1`` with ``eps = 0`` the
    step is exactly ``-lr sign(G)``.

    Args:
        w, g: parameter and gradient, same shape.
        state: moments before the step.
        lr: step size ``> 0``.
        betas: ``(beta1, beta2)`` in ``[0, 1)``.
        eps: denominator offset ``>= 0``.
        weight_decay: decoupled weight decay ``>= 0``.
        eps_mode: ``"adam"`` (``Mh / (sqrt(Vh) + eps)``) or ``"folded"`` (Kingma & Ba's
            efficient form, as in ``soap.py``: ``lr sqrt(1-b2^t)/(1-b1^t) M / (sqrt(V) + eps)``).
        decay: ``"before"`` (``W <- (1 - lr wd) W - lr N``) or ``"after"`` (``soap.py``:
            ``W <- (W - lr N)(1 - lr wd)``).

    Returns:
        ``(w_new, state_new)``; the inputs are not modified.

    Raises:
        ValueError: on shape mismatches or out-of-range hyper-parameters.
    """
    w, g = _as_matrix(w, "the parameter"), _as_matrix(g, "the gradient")
    _check_conventions(eps_mode, decay)
    if w.shape != g.shape or state.exp_avg.shape != g.shape:
        raise ValueError(f"parameter {w.shape}, gradient {g.shape} and state "
                         f"{state.exp_avg.shape} shapes differ")
    if lr <= 0 or eps < 0 or weight_decay < 0:
        raise ValueError(f"need lr > 0, eps >= 0, weight_decay >= 0; got {lr}, {eps}, {weight_decay}")
    b1, b2 = _check_betas(betas)
    t = state.step + 1
    m = b1 * state.exp_avg + (1 - b1) * g
    v = b2 * state.exp_avg_sq + (1 - b2) * g * g
    w_new = _apply_step(w, m, v, t, b1, b2, lr, eps, weight_decay, eps_mode, decay, None, None)
    return w_new, AdamState(m, v, t)


def _check_conventions(eps_mode: str, decay: str) -> None:
    if eps_mode not in ("adam", "folded"):
        raise ValueError(f"eps_mode must be 'adam' or 'folded', not {eps_mode!r}")
    if decay not in ("before", "after"):
        raise ValueError(f"decay must be 'before' or 'after', not {decay!r}")


def _apply_step(w, m, v, t, b1, b2, lr, eps, weight_decay, eps_mode, decay, ql, qr):
    """Adam's step from moments ``m`` (original basis) and ``v`` (the basis ``ql, qr``, or none)."""
    m_rot = m if ql is None else rotate(m, ql, qr)
    if eps_mode == "adam":
        direction = (m_rot / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
        scale = lr
    else:
        direction = m_rot / (np.sqrt(v) + eps)
        scale = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
    if ql is not None:
        direction = unrotate(direction, ql, qr)
    if decay == "before":
        return (1 - lr * weight_decay) * w - scale * direction
    stepped = w - scale * direction
    return stepped - lr * weight_decay * stepped


def adam_rounding_bound(grads: np.ndarray, *, lr: float, betas: tuple[float, float] = (0.9, 0.999),
                        eps: float = 1e-8, terms: int | None = None) -> float:
    """First-order bound on the float64 error that rounding of the gradients puts in Adam's iterates.

    If every gradient entry carries an absolute rounding error of at most
    ``terms * u * ||G_t||_F`` (``u`` the unit roundoff, ``terms`` the length of the dot
    products that produced it, e.g. ``m + n`` for ``Q_L^T G Q_R``), the first and second moment
    EMAs inherit it, and the step ``lr Mh / (sqrt(Vh) + eps)`` has derivative at most
    ``~ 1 / (sqrt(Vh) + eps)`` in each of ``Mh`` and ``Vh``'s square root, so the iterate after
    ``T`` steps is off by at most about
    ``sum_t 2 lr terms u ||G_t||_F / min_ij (sqrt(Vh_t,ij) + eps)``.  This neglects the
    feed-back of the error through later gradients (second order over a few steps of a
    descent run) and is pessimistic (the smallest coordinate of ``Vh`` sets the scale).

    Args:
        grads: ``(T, m, n)`` gradients along the run, in the coordinates where Adam runs.
        lr, betas, eps: Adam's hyper-parameters.
        terms: dot-product length; default ``m + n``.

    Returns:
        The bound (same unit as the parameters).

    Raises:
        ValueError: on a malformed stack or hyper-parameters.
    """
    g = _as_stack(grads)
    _, b2 = _check_betas(betas)
    if lr <= 0 or eps < 0:
        raise ValueError(f"need lr > 0 and eps >= 0, got {lr}, {eps}")
    k = g.shape[1] + g.shape[2] if terms is None else int(terms)
    u = np.finfo(float).eps / 2
    v = np.zeros(g.shape[1:])
    total = 0.0
    for t, gt in enumerate(g, start=1):
        v = b2 * v + (1 - b2) * gt * gt
        denom = float(np.sqrt(v / (1 - b2**t)).min()) + eps
        if denom <= 0:
            return float("inf")
        total += 2 * lr * k * u * float(np.linalg.norm(gt)) / denom
    return total


# --------------------------------------------------------------------------- SOAP
@dataclass(frozen=True)
class SOAPState:
    """SOAP's state for one ``(m, n)`` parameter (SOAP paper, Sec. 4; ``soap.py``).

    Attributes:
        left, right: Shampoo statistics ``L`` (``m x m``) and ``R`` (``n x n``), EMAs.
        q_left, q_right: current eigenbases ``Q_L``, ``Q_R``.
        exp_avg: first moment ``M``, kept in the *original* basis.
        exp_avg_sq: second moment ``V``, kept in the *rotated* basis.
        step: number of Adam steps taken (the initialising call is not one).
    """

    left: np.ndarray
    right: np.ndarray
    q_left: np.ndarray
    q_right: np.ndarray
    exp_avg: np.ndarray
    exp_avg_sq: np.ndarray
    step: int = 0


def soap_init(g: np.ndarray, statistic_weight: float = 1.0) -> SOAPState:
    """SOAP's first call: ``L = c G G^T``, ``R = c G^T G``, eigenbases by ``eigh``, zero moments.

    ``c = statistic_weight``: 1 here by default; the published ``soap.py`` starts its moving
    averages at zero, which is ``c = 1 - shampoo_beta`` (the same bases, but a different weight
    of the first gradient in later refreshes).

    As in ``soap.py``, the first gradient only initialises the preconditioner (no parameter
    update), so the basis never depends on the gradient it rotates.  (Later ``soap.py``
    releases follow the ``eigh`` with one power-iteration/QR refresh, which leaves an exact
    eigenbasis unchanged up to column signs.)

    Raises:
        ValueError: if ``g`` is not a finite matrix.
    """
    g = _as_matrix(g, "the gradient")
    if not statistic_weight > 0:
        raise ValueError(f"statistic_weight must be positive, got {statistic_weight}")
    left, right = statistic_weight * (g @ g.T), statistic_weight * (g.T @ g)
    return SOAPState(left, right, eigenbasis(left)[1], eigenbasis(right)[1],
                     np.zeros_like(g), np.zeros_like(g), 0)


def refresh_eigenbasis_power_qr(stat: np.ndarray, q: np.ndarray, exp_avg_sq: np.ndarray,
                                axis: int) -> tuple[np.ndarray, np.ndarray]:
    """One power-iteration step plus QR towards the eigenbasis of ``stat`` (``soap.py``).

    ``S Q`` is computed, its columns sorted by the Rayleigh-quotient estimates
    ``diag(Q^T S Q)`` in decreasing order, and orthonormalised by QR; the second moment is
    permuted along ``axis`` (0 for ``L``, 1 for ``R``) by the same sort so each coordinate keeps
    its statistics.

    Args:
        stat: symmetric ``(k, k)`` statistic (``L`` or ``R``).
        q: current orthogonal basis ``(k, k)``.
        exp_avg_sq: ``(m, n)`` second moment in the rotated basis.
        axis: 0 or 1.

    Returns:
        ``(q_new, exp_avg_sq_permuted)``.

    Raises:
        ValueError: on a bad axis or shapes.
    """
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 or 1, got {axis}")
    stat = _as_symmetric(stat, "the statistic")
    if q.shape != stat.shape or exp_avg_sq.shape[axis] != stat.shape[0]:
        raise ValueError("the basis, the statistic and the second moment do not fit")
    power = stat @ q
    order = np.argsort(-np.einsum("ij,ij->j", q, power), kind="stable")
    q_new, _ = np.linalg.qr(power[:, order])
    return q_new, np.take(exp_avg_sq, order, axis=axis)


def soap_step(w: np.ndarray, g: np.ndarray, state: SOAPState, *, lr: float,
              betas: tuple[float, float] = (0.95, 0.95), shampoo_beta: float = 0.95,
              eps: float = 1e-8, weight_decay: float = 0.0,
              precondition_frequency: int | None = 10, refresh: str = "power_qr",
              second_moment_basis: str = "eigen", eps_mode: str = "adam",
              decay: str = "before") -> tuple[np.ndarray, SOAPState]:
    """One step of SOAP: Adam in the eigenbasis of Shampoo's preconditioner (SOAP paper, Sec. 4).

    With ``t = state.step + 1``:

    1. ``G' = Q_L^T G Q_R``;
    2. ``M <- b1 M + (1-b1) G`` (original basis), ``M' = Q_L^T M Q_R``;
    3. ``V <- b2 V + (1-b2) G' (.) G'`` (rotated basis);
    4. ``N = Q_L [ (M'/(1-b1^t)) / (sqrt(V/(1-b2^t)) + eps) ] Q_R^T``;
    5. ``W <- (1 - lr wd) W - lr N``;
    6. ``L <- s L + (1-s) G G^T``, ``R <- s R + (1-s) G^T G`` with ``s = shampoo_beta``;
    7. if ``precondition_frequency`` divides ``t``: refresh ``Q_L, Q_R`` (one power step + QR
       as in ``soap.py``, or an exact ``eigh``).

    Steps 1-4, 6 and 7 follow ``soap.py``; its variants differ from this function only in
    where ``eps`` and the decay enter: the first release divides by ``sqrt(V) + eps`` with the
    bias corrections folded into the step size (``eps`` effectively ``eps / sqrt(1-b2^t)``)
    and decays the post-step weights (``W <- (W - lr N)(1 - lr wd)``, an ``O(lr^2 wd)``
    difference); later releases store bias-corrected EMAs and use ``max(sqrt(Vh), eps)``.  The
    first release keeps ``M`` projected and re-projects it when the basis changes, which is
    the same as keeping it in the original basis.  None of this affects the rotation
    structure: for a frozen basis every variant is the matching Adam variant run on
    ``Q_L^T W Q_R``.

    Args:
        w, g: parameter and gradient, shape ``(m, n)``.
        state: from :func:`soap_init` or a previous step.
        lr: step size ``> 0``; betas: Adam's ``(beta1, beta2)`` (default of the first
            ``soap.py`` release; later ones use ``(0.9, 0.95)``); shampoo_beta: EMA of ``L, R``.
        eps: denominator offset; weight_decay: decoupled weight decay.
        precondition_frequency: refresh period ``f >= 1``; None freezes the basis.
        refresh: ``"power_qr"`` (``soap.py``) or ``"eigh"`` (exact eigenvectors).
        second_moment_basis: ``"eigen"`` (SOAP); ``"original"`` keeps ``V`` as the EMA of
            ``G (.) G`` in the original basis while the numerator is still rotated -- an
            ablation that breaks the algorithm, used as a negative control.
        eps_mode, decay: where ``eps`` and the weight decay enter, as in :func:`adam_step`
            (``"folded"`` and ``"after"`` are the published ``soap.py``'s conventions).

    Returns:
        ``(w_new, state_new)``; the inputs are not modified.

    Raises:
        ValueError: on shape mismatches or out-of-range options.
    """
    w, g = _as_matrix(w, "the parameter"), _as_matrix(g, "the gradient")
    if w.shape != g.shape or state.exp_avg.shape != g.shape:
        raise ValueError(f"parameter {w.shape}, gradient {g.shape} and state "
                         f"{state.exp_avg.shape} shapes differ")
    if lr <= 0 or eps < 0 or weight_decay < 0:
        raise ValueError(f"need lr > 0, eps >= 0, weight_decay >= 0; got {lr}, {eps}, {weight_decay}")
    if not 0.0 <= shampoo_beta < 1.0:
        raise ValueError(f"shampoo_beta must lie in [0, 1), got {shampoo_beta}")
    if precondition_frequency is not None and precondition_frequency < 1:
        raise ValueError(f"precondition_frequency must be >= 1 or None, got {precondition_frequency}")
    if refresh not in ("power_qr", "eigh"):
        raise ValueError(f"refresh must be 'power_qr' or 'eigh', not {refresh!r}")
    if second_moment_basis not in ("eigen", "original"):
        raise ValueError(f"second_moment_basis must be 'eigen' or 'original', not {second_moment_basis!r}")
    _check_conventions(eps_mode, decay)
    b1, b2 = _check_betas(betas)
    t = state.step + 1
    ql, qr = state.q_left, state.q_right

    g_rot = rotate(g, ql, qr)
    m = b1 * state.exp_avg + (1 - b1) * g
    sq = g_rot if second_moment_basis == "eigen" else g
    v = b2 * state.exp_avg_sq + (1 - b2) * sq * sq
    w_new = _apply_step(w, m, v, t, b1, b2, lr, eps, weight_decay, eps_mode, decay, ql, qr)

    left = shampoo_beta * state.left + (1 - shampoo_beta) * g @ g.T
    right = shampoo_beta * state.right + (1 - shampoo_beta) * g.T @ g
    if precondition_frequency is not None and t % precondition_frequency == 0:
        if refresh == "eigh":
            ql, qr = eigenbasis(left)[1], eigenbasis(right)[1]
        else:
            ql, v = refresh_eigenbasis_power_qr(left, ql, v, axis=0)
            qr, v = refresh_eigenbasis_power_qr(right, qr, v, axis=1)
    return w_new, replace(state, left=left, right=right, q_left=ql, q_right=qr,
                          exp_avg=m, exp_avg_sq=v, step=t)
