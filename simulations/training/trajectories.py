"""Optimisation trajectories: trajectory maps and the successive-update oscillation of gradient
descent on quadratics.

Singh, He, Hofmann & Schölkopf, "The Directionality of Optimization Trajectories in Neural Networks"
(ICLR 2025; arXiv 2403.07379).  Only the abstracts and openings of the paper could be read; the
definitions here are our reading of them:

* Trajectory map: ``TM_ij = <theta_i, theta_j> / (||theta_i|| ||theta_j||)`` over checkpoints
  ``theta_0..theta_T`` (optionally centred at a reference point); mean directional similarity
  ``MDS = mean_{i != j} TM_ij``.
* Micro-level oscillation: the cosine between successive updates ``Delta_t = theta_{t+1} - theta_t``.
  For gradient descent on ``f(theta) = 1/2 theta^T H theta`` with step ``eta``,
  ``Delta_t = -eta H (I - eta H)^t theta_0``; in the eigenbasis (eigenvalues ``lam_i``, coefficients
  ``c_i`` of ``theta_0``, ``rho_i = 1 - eta lam_i``)

      cos(Delta_t, Delta_{t+1}) = sum_i w_i rho_i^(2t+1) / sqrt(sum_i w_i rho_i^(2t) sum_i w_i rho_i^(2t+2)),
      w_i = lam_i^2 c_i^2,

  which tends to the sign of the dominant ``rho_i`` (largest ``|rho_i|``): successive steps point
  in opposite directions iff ``eta > 2/(lam_min + lam_max)`` (when both extreme modes are present
  and ``eta < 2/lam_max``), the classical optimal step of gradient descent on quadratics.
"""

from __future__ import annotations

import math

import numpy as np


# --------------------------------------------------------------------------- trajectory maps
def trajectory_map(checkpoints: np.ndarray, reference: np.ndarray | None = None) -> np.ndarray:
    """Cosine similarities ``TM_ij`` of the checkpoints ``(T+1, p)`` (minus ``reference`` if given).

    Raises:
        ValueError: if a (centred) checkpoint is zero.
    """
    X = np.asarray(checkpoints, dtype=float)
    if reference is not None:
        X = X - np.asarray(reference, dtype=float)
    norms = np.linalg.norm(X, axis=1)
    if np.any(norms == 0):
        raise ValueError("a checkpoint has zero norm; its direction is undefined")
    U = X / norms[:, None]
    return U @ U.T


def mean_directional_similarity(tm: np.ndarray) -> float:
    """The mean of the off-diagonal entries of a trajectory map ``(n, n)``, ``n >= 2``."""
    n = tm.shape[0]
    if n < 2:
        raise ValueError("need at least two checkpoints")
    return float((tm.sum() - np.trace(tm)) / (n * (n - 1)))


def random_walk_mds(n: int) -> float:
    """The large-dimension limit of the MDS of ``n`` checkpoints ``W_1..W_n`` of a random walk from
    the origin: ``cos(W_i, W_j) -> sqrt(min(i,j)/max(i,j))``, averaged over ``i != j``."""
    if n < 2:
        raise ValueError("need at least two checkpoints")
    i = np.arange(1, n + 1, dtype=float)
    tm = np.sqrt(np.minimum.outer(i, i) / np.maximum.outer(i, i))
    return mean_directional_similarity(tm)


# --------------------------------------------------------------------------- quadratic GD
def gd_updates(H: np.ndarray, theta0: np.ndarray, eta: float, steps: int, *, rescale: bool = True) -> np.ndarray:
    """Updates ``Delta_t = theta_{t+1} - theta_t`` of gradient descent on ``1/2 theta^T H theta``,
    ``t = 0..steps-1``: shape ``(steps, d)`` (simulated, not from the closed form).

    The iteration is linear, so with ``rescale=True`` the iterate is divided by its norm whenever
    that leaves ``[1e-100, 1e100]``: each row is then the true update times a positive factor (the
    directions, hence all cosines between updates, are unchanged) and long runs neither underflow
    nor overflow.
    """
    theta = np.array(theta0, dtype=float, copy=True)
    out = np.zeros((steps, theta.size))
    for t in range(steps):
        step = -eta * (H @ theta)
        out[t] = step
        theta = theta + step
        if rescale:
            nrm = float(np.linalg.norm(theta))
            if nrm and not 1e-100 <= nrm <= 1e100:
                theta = theta / nrm
    return out


def successive_cosines(updates: np.ndarray) -> np.ndarray:
    """``cos(Delta_t, Delta_{t+1})`` for consecutive rows of ``updates`` ``(T, d)``: shape ``(T-1,)``."""
    a, b = updates[:-1], updates[1:]
    return np.einsum("ij,ij->i", a, b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def successive_cosine_closed_form(eigenvalues: np.ndarray, coefficients: np.ndarray, eta: float,
                                  t: np.ndarray | int) -> np.ndarray:
    """The closed form of ``cos(Delta_t, Delta_{t+1})`` (module docstring), computed in log space
    so that large ``t`` neither underflows nor overflows.

    Args:
        eigenvalues: ``(d,)`` positive eigenvalues of ``H``; coefficients: ``(d,)`` of ``theta_0`` in
            the eigenbasis; eta: step size; t: step index or array of them.
    """
    lam = np.asarray(eigenvalues, dtype=float)
    c = np.asarray(coefficients, dtype=float)
    rho = 1 - eta * lam
    keep = lam * c != 0
    lam, c, rho = lam[keep], c[keep], rho[keep]
    t = np.atleast_1d(np.asarray(t, dtype=float))
    logw = 2 * np.log(np.abs(lam * c))
    with np.errstate(divide="ignore"):
        logr = np.log(np.abs(rho))  # -inf for a mode removed in one step (rho = 0)
    sgn = np.sign(rho)

    def power(p: float) -> np.ndarray:  # log |rho|^p with 0^0 = 1
        return np.where(rho == 0, 0.0 if p == 0 else -np.inf, p * np.where(rho == 0, 0.0, logr))

    out = np.empty(t.size)
    for k, tt in enumerate(t):
        e0 = logw + power(2 * tt)
        e1 = logw + power(2 * tt + 1)
        e2 = logw + power(2 * tt + 2)
        m = max(e0.max(), e1.max(), e2.max())
        num = np.sum(sgn * np.exp(e1 - m))  # rho^(2t+1) carries the sign of rho
        d0, d2 = np.sum(np.exp(e0 - m)), np.sum(np.exp(e2 - m))
        out[k] = num / math.sqrt(d0 * d2)
    return out


def oscillation_threshold(eigenvalues: np.ndarray) -> float:
    """``2/(lam_min + lam_max)``: above it (and below ``2/lam_max``) the top mode's ``|rho|`` exceeds
    the bottom mode's and successive updates oscillate."""
    lam = np.asarray(eigenvalues, dtype=float)
    return 2.0 / (lam.min() + lam.max())


def limit_sign(eigenvalues: np.ndarray, coefficients: np.ndarray, eta: float) -> float:
    """The sign of the dominant ``rho_i = 1 - eta lam_i`` (largest ``|rho_i|`` among the modes present):
    the limit of ``cos(Delta_t, Delta_{t+1})``; 0 when two modes of opposite sign tie."""
    lam = np.asarray(eigenvalues, dtype=float)
    c = np.asarray(coefficients, dtype=float)
    rho = (1 - eta * lam)[lam * c != 0]
    a = np.abs(rho)
    top = rho[a >= a.max() * (1 - 1e-15)]
    return float(np.sign(top[0])) if np.all(np.sign(top) == np.sign(top[0])) else 0.0


def steps_to_resolve(eigenvalues: np.ndarray, coefficients: np.ndarray, eta: float, accuracy: float) -> int:
    """A number of steps ``T`` after which ``|cos(Delta_T, Delta_{T+1}) - limit| <= accuracy``: the
    modes other than the dominant ones contribute at most ``2 sum_i (w_i/w_dom)(|rho_i|/|rho_dom|)^(2T)``
    relative to the dominant term, which ``T`` makes smaller than ``accuracy``.

    Raises:
        ValueError: when the dominant mode is not unique in modulus (a tie: no limit).
    """
    lam = np.asarray(eigenvalues, dtype=float)
    c = np.asarray(coefficients, dtype=float)
    rho = 1 - eta * lam
    w = (lam * c) ** 2
    a = np.abs(rho)
    dom = int(np.argmax(a))
    others = a < a[dom] * (1 - 1e-12)
    if np.any(~others & (np.sign(rho) != np.sign(rho[dom]))):
        raise ValueError("two modes of opposite sign tie in modulus: the cosine has no limit")
    if not np.any(others):
        return 1
    ratio = float(np.max(a[others] / a[dom]))
    total = float(np.sum(w[others]) / w[dom])
    need = math.log(2 * total / accuracy) / (-2 * math.log(ratio)) if total > 0 else 0.0
    return max(1, math.ceil(need))
