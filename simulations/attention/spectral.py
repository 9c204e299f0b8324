r"""Single-head attention logits, their Jacobian, spectral energy concentration, attention entropy,
and the AdamW^2 step rule.

Qi, He, Ye, Li, Zi, Dai, Zou & Xiao, "Taming Transformer Without Using Learning Rate Warmup"
(ICLR 2025, arXiv:2505.21910) write the logits of a head as :math:`P = X^\top W_q^\top W_k X`
(tokens as the columns of :math:`X \in \mathbb R^{d\times T}`), note that
:math:`\partial\operatorname{vec}P / \partial\operatorname{vec}(W_q^\top W_k) = X^\top\otimes X^\top`
(rank :math:`\operatorname{rank}(X)^2`), measure the *spectral energy concentration*
:math:`\mathrm{SEC}(s) = \sum_{i\le s}\sigma_i^2 / \sum_i\sigma_i^2` of :math:`W_q^\top W_k`, and bound
the learning rate so that by Weyl's inequality :math:`\sigma_1(W_t) \le (1+\tau)\sigma_1(W_{t-1})`:
if :math:`\sigma_1(\Delta W_t)/\sigma_1(W_{t-1}) > \tau/\mathrm{lr}`, the step uses
:math:`\mathrm{lr}_t = \tau\sigma_1(W_{t-1})/\sigma_1(\Delta W_t)` (:math:`\Delta W_t` the AdamW update
direction).  The threshold's exact form is our reading of the abstract and summaries.

vec is column-major throughout (``order="F"``): :math:`\operatorname{vec}(AXB) = (B^\top\otimes A)\operatorname{vec}X`.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "adamw2_step",
    "entropy_lower_bound",
    "logit_jacobian",
    "logit_jacobian_by_basis",
    "power_iteration_sigma",
    "row_entropies",
    "softmax_rows",
    "spectral_energy_concentration",
]


def logit_jacobian(X: np.ndarray) -> np.ndarray:
    """:math:`X^\\top\\otimes X^\\top`, shape ``(T^2, d^2)``: the Jacobian of vec(P) in vec(W_q^T W_k)."""
    X = np.asarray(X)
    return np.kron(X.T, X.T)


def logit_jacobian_by_basis(X: np.ndarray) -> np.ndarray:
    """The same Jacobian column by column: vec of :math:`X^\\top E_{ij} X` for each basis matrix
    :math:`E_{ij}` (column-major order), computed without Kronecker products.  Exact for integer X."""
    X = np.asarray(X)
    d = X.shape[0]
    cols = []
    for j in range(d):
        for i in range(d):  # column-major: i runs fastest
            E = np.zeros((d, d), dtype=X.dtype)
            E[i, j] = 1
            cols.append((X.T @ E @ X).ravel(order="F"))
    return np.stack(cols, axis=1)


def spectral_energy_concentration(M: np.ndarray, s: int = 1) -> float:
    """:math:`\\sum_{i\\le s}\\sigma_i^2(M) / \\sum_i\\sigma_i^2(M)` (1 when the energy sits in s directions).

    Raises:
        ValueError: for the zero matrix or s < 1.
    """
    sv = np.linalg.svd(np.asarray(M, dtype=float), compute_uv=False)
    total = float(np.sum(sv**2))
    if total == 0 or s < 1:
        raise ValueError("SEC needs a nonzero matrix and s >= 1")
    return float(np.sum(sv[:s] ** 2) / total)


def softmax_rows(Z: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stabilised by the row maximum."""
    Z = np.asarray(Z, dtype=float)
    E = np.exp(Z - Z.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def row_entropies(A: np.ndarray) -> np.ndarray:
    """Shannon entropy (nats) of each row of a row-stochastic matrix (0 log 0 = 0)."""
    A = np.asarray(A, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.sum(np.where(A > 0, A * np.log(A), 0.0), axis=-1)


def entropy_lower_bound(T: int, spread: float, top: int | None = None) -> float:
    r"""The least entropy of a softmax over T logits that all lie in an interval of length ``spread``.

    With ``top = k`` the value for k logits at the top and T - k at the bottom,
    :math:`\log(ke^{\Delta} + T - k) - k\Delta e^{\Delta}/(ke^{\Delta} + T - k)`; for k = 1 this is
    :math:`\log(1 + (T-1)e^{-\Delta}) + \Delta(T-1)e^{-\Delta}/(1 + (T-1)e^{-\Delta})`, the form of Zhai
    et al. (ICML 2023, Theorem 3.1).  By default the minimum over k = 1 ... T - 1 (the least entropy
    is attained at such a two-level configuration; for small spreads k > 1: e.g. T = 19,
    spread 1 gives k = 6).

    Raises:
        ValueError: for T < 1, a negative spread, or k outside 1 ... T - 1.
    """
    if T < 1 or spread < 0:
        raise ValueError("T must be >= 1 and the spread >= 0")
    if T == 1:
        return 0.0
    ks = np.arange(1, T) if top is None else np.array([int(top)])
    if np.any(ks < 1) or np.any(ks > T - 1):
        raise ValueError(f"the number of top logits must lie in 1 ... T - 1, not {top!r}")
    big = ks * np.exp(spread)
    vals = np.log(big + T - ks) - spread * big / (big + T - ks)
    return float(np.min(vals))


def power_iteration_sigma(M: np.ndarray, iterations: int, start: np.ndarray) -> float:
    """Estimate of :math:`\\sigma_1(M)` by ``iterations`` steps of power iteration on :math:`M^\\top M`
    from ``start`` (a lower bound of :math:`\\sigma_1`, exact in the limit).

    Raises:
        ValueError: for fewer than one iteration or a zero start.
    """
    v = np.asarray(start, dtype=float)
    if iterations < 1 or not np.any(v):
        raise ValueError("power iteration needs at least one step and a nonzero start")
    v = v / np.linalg.norm(v)
    for _ in range(iterations):
        v = M.T @ (M @ v)
        norm = np.linalg.norm(v)
        if norm == 0:  # the start is orthogonal to the row space: the estimate is 0
            return 0.0
        v /= norm
    return float(np.linalg.norm(M @ v))


def adamw2_step(W: np.ndarray, grad: np.ndarray, state: dict, lr: float, tau: float | None,
                beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8, weight_decay: float = 0.0,
                sigma_update=None, bound_by_gradient: bool = False) -> tuple[np.ndarray, float, np.ndarray]:
    """One AdamW step on matrix ``W``, with the AdamW^2 learning-rate bound when ``tau`` is given.

    The update direction is :math:`\\Delta W = \\hat m/(\\sqrt{\\hat v} + \\epsilon)` (bias-corrected
    moments); the step is :math:`W - \\mathrm{lr}_t(\\Delta W + \\lambda W)` with
    :math:`\\mathrm{lr}_t = \\min(\\mathrm{lr}, \\tau\\sigma_1(W)/\\sigma_1(\\Delta W))` (AdamW^2) or
    :math:`\\mathrm{lr}` (AdamW, ``tau=None``).

    Args:
        W, grad: arrays of one shape.
        state: dict holding ``m``, ``v``, ``t`` (updated in place; start with ``{}``).
        lr, tau, beta1, beta2, eps, weight_decay: the hyperparameters.
        sigma_update: function ``DeltaW -> estimate of sigma_1`` (default: exact, by SVD).
        bound_by_gradient: use sigma_1 of the raw gradient instead of the update's (a misreading of
            the rule, for controls).

    Returns:
        ``(new W, lr_t, DeltaW)``.
    """
    if not state:
        state.update(m=np.zeros_like(W), v=np.zeros_like(W), t=0)
    state["t"] += 1
    state["m"] = beta1 * state["m"] + (1 - beta1) * grad
    state["v"] = beta2 * state["v"] + (1 - beta2) * grad**2
    m_hat = state["m"] / (1 - beta1 ** state["t"])
    v_hat = state["v"] / (1 - beta2 ** state["t"])
    delta = m_hat / (np.sqrt(v_hat) + eps)
    lr_t = lr
    if tau is not None:
        s_delta = (sigma_update or (lambda M: float(np.linalg.norm(M, 2))))(grad if bound_by_gradient else delta)
        s_w = float(np.linalg.norm(W, 2))
        if s_delta > 0:
            lr_t = min(lr, tau * s_w / s_delta)
    return W - lr_t * (delta + weight_decay * W), lr_t, delta
