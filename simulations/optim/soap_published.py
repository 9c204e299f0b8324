"""SOAP as the authors' published implementation states its update, for one matrix parameter.

Source: the update rule of ``soap.py`` in the authors' repository ``nikhilvyas/SOAP`` (read at
commit a1e5535), for the SOAP paper (Vyas et al., ICLR 2025, arXiv:2409.11321).  Written here
from that reading, in numpy, independently of :func:`simulations.optim.preconditioners.soap_step`,
so that the two can be compared with the eigenbasis refresh on.  What the published rule does
that the paper's pseudo-code leaves open:

- the first gradient only initialises the preconditioner: ``L`` and ``R`` are moving averages
  started at zero, so after it ``L = (1 - s) G G^T`` and ``R = (1 - s) G^T G``
  (``s`` = ``shampoo_beta``), and the bases are their eigenvectors in decreasing order;
- the first moment is stored in the rotated basis; when the basis is refreshed it is rotated
  back with the old basis and forward with the new one;
- the denominator is ``sqrt(V) + eps`` without bias correction; the bias corrections are folded
  into the step size ``lr sqrt(1 - b2^t) / (1 - b1^t)``;
- the weight decay is applied after the step: ``W <- W - lr wd W``;
- a refresh (when the step count is a multiple of the frequency) sorts the basis columns by
  ``diag(Q^T L Q)`` in decreasing order (permuting the second moment alike), takes one power
  step ``L Q`` and orthonormalises it by QR.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

__all__ = ["PublishedSOAPState", "published_soap_init", "published_soap_step"]


@dataclass(frozen=True)
class PublishedSOAPState:
    """State of the published rule: statistics, bases, rotated moments and the step count."""

    left: np.ndarray
    right: np.ndarray
    q_left: np.ndarray
    q_right: np.ndarray
    exp_avg_rotated: np.ndarray
    exp_avg_sq: np.ndarray
    step: int = 0


def _eigh_descending(a: np.ndarray) -> np.ndarray:
    _, q = np.linalg.eigh(a)
    return q[:, ::-1].copy()


def published_soap_init(g: np.ndarray, shampoo_beta: float = 0.95) -> PublishedSOAPState:
    """The first call: statistics moved from zero towards ``G G^T``, ``G^T G``; bases by ``eigh``.

    Raises:
        ValueError: if ``g`` is not a finite matrix or ``shampoo_beta`` lies outside [0, 1).
    """
    g = np.asarray(g, dtype=float)
    if g.ndim != 2 or not np.all(np.isfinite(g)):
        raise ValueError("the gradient must be a finite matrix")
    if not 0.0 <= shampoo_beta < 1.0:
        raise ValueError(f"shampoo_beta must lie in [0, 1), got {shampoo_beta}")
    left = (1.0 - shampoo_beta) * (g @ g.T)
    right = (1.0 - shampoo_beta) * (g.T @ g)
    return PublishedSOAPState(left, right, _eigh_descending(left), _eigh_descending(right),
                              np.zeros_like(g), np.zeros_like(g), 0)


def _power_qr(stat: np.ndarray, q: np.ndarray, exp_avg_sq: np.ndarray, axis: int):
    order = np.argsort(-np.diag(q.T @ stat @ q), kind="stable")
    exp_avg_sq = np.take(exp_avg_sq, order, axis=axis)
    q_new, _ = np.linalg.qr(stat @ q[:, order])
    return q_new, exp_avg_sq


def published_soap_step(w: np.ndarray, g: np.ndarray, state: PublishedSOAPState, *, lr: float,
                        betas: tuple[float, float] = (0.95, 0.95), shampoo_beta: float = 0.95,
                        eps: float = 1e-8, weight_decay: float = 0.01,
                        precondition_frequency: int = 10) -> tuple[np.ndarray, PublishedSOAPState]:
    """One step of the published rule (module docstring) for a matrix parameter ``w``.

    Args:
        w, g: parameter and gradient, shape ``(m, n)``; state: from :func:`published_soap_init`
            or a previous step; lr, betas, shampoo_beta, eps, weight_decay,
            precondition_frequency: the published hyper-parameters (defaults of ``soap.py``,
            ``shampoo_beta`` given explicitly).

    Returns:
        ``(w_new, state_new)``.

    Raises:
        ValueError: on shape mismatches or out-of-range hyper-parameters.
    """
    w, g = np.asarray(w, dtype=float), np.asarray(g, dtype=float)
    if w.shape != g.shape or g.shape != state.exp_avg_sq.shape:
        raise ValueError(f"parameter {w.shape}, gradient {g.shape} and state {state.exp_avg_sq.shape} differ")
    b1, b2 = betas
    if not (lr > 0 and eps >= 0 and weight_decay >= 0 and 0 <= b1 < 1 and 0 <= b2 < 1
            and 0 <= shampoo_beta < 1 and precondition_frequency >= 1):
        raise ValueError("hyper-parameter out of range")
    ql, qr = state.q_left, state.q_right
    t = state.step + 1
    g_rot = ql.T @ g @ qr
    exp_avg = b1 * state.exp_avg_rotated + (1 - b1) * g_rot
    exp_avg_sq = b2 * state.exp_avg_sq + (1 - b2) * g_rot * g_rot
    step_size = lr * np.sqrt(1 - b2**t) / (1 - b1**t)
    direction = ql @ (exp_avg / (np.sqrt(exp_avg_sq) + eps)) @ qr.T
    w_new = w - step_size * direction
    w_new = w_new - lr * weight_decay * w_new
    # preconditioner update: the first moment goes back to the original basis, the statistics
    # move towards this gradient's products, the bases may be refreshed, the moment comes back
    exp_avg_original = ql @ exp_avg @ qr.T
    left = shampoo_beta * state.left + (1 - shampoo_beta) * (g @ g.T)
    right = shampoo_beta * state.right + (1 - shampoo_beta) * (g.T @ g)
    if t % precondition_frequency == 0:
        ql, exp_avg_sq = _power_qr(left, ql, exp_avg_sq, 0)
        qr, exp_avg_sq = _power_qr(right, qr, exp_avg_sq, 1)
    return w_new, replace(state, left=left, right=right, q_left=ql, q_right=qr,
                          exp_avg_rotated=ql.T @ exp_avg_original @ qr, exp_avg_sq=exp_avg_sq, step=t)
