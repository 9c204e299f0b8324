r"""A single attention head trained by (AdamW or AdamW^2) on a teacher task, in plain numpy.

Sequences :math:`X \in \mathbb R^{d\times T}` (tokens as columns); the head computes
:math:`A = \operatorname{softmax}_{\text{rows}}(X^\top W_q^\top W_k X/\sqrt{d_k})` and the output
:math:`X A^\top` (values = tokens); the loss is :math:`\frac{1}{2N}\sum\|XA^\top - Y\|_F^2` against a
teacher head's outputs :math:`Y`.  Gradients are exact (backpropagation written out; the unit tests
compare them with finite differences).
"""

from __future__ import annotations

import numpy as np

from .spectral import adamw2_step, row_entropies, softmax_rows, spectral_energy_concentration

__all__ = ["attention_forward", "attention_loss_grads", "teacher_task", "train_attention"]


def attention_forward(X: np.ndarray, Wq: np.ndarray, Wk: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(attention maps A ``(N, T, T)``, outputs ``(N, d, T)``) for a batch X ``(N, d, T)``."""
    dk = Wq.shape[0]
    B = Wq.T @ Wk
    P = np.einsum("ndi,de,nej->nij", X, B, X) / np.sqrt(dk)
    A = softmax_rows(P)
    return A, np.einsum("ndj,nij->ndi", X, A)


def attention_loss_grads(X: np.ndarray, Y: np.ndarray, Wq: np.ndarray, Wk: np.ndarray) -> tuple[float, np.ndarray,
                                                                                                  np.ndarray]:
    """(loss, dL/dWq, dL/dWk) of :math:`\\frac{1}{2N}\\sum_n\\|X_nA_n^\\top - Y_n\\|_F^2`."""
    N, dk = X.shape[0], Wq.shape[0]
    A, out = attention_forward(X, Wq, Wk)
    R = out - Y  # (N, d, T)
    loss = 0.5 * float(np.sum(R**2)) / N
    dA = np.einsum("ndi,ndj->nij", R, X) / N  # dL/dA[i, j] = R[:, i] . X[:, j]
    dP = A * (dA - np.sum(dA * A, axis=-1, keepdims=True))
    dB = np.einsum("ndi,nij,nej->de", X, dP, X) / np.sqrt(dk)
    return loss, Wk @ dB.T, Wq @ dB


def teacher_task(rng: np.random.Generator, n_seq: int, d: int, T: int, rank: int, teacher_scale: float,
                 dk: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Sequences of tokens in a random ``rank``-dimensional subspace of :math:`\\mathbb R^d` (low-rank
    features) and the outputs of a teacher head with random :math:`W_q, W_k` scaled by
    ``teacher_scale`` (sharp teacher attention for large scales).

    Returns:
        ``(X (n_seq, d, T), Y (n_seq, d, T))``.
    """
    dk = dk or d
    basis = np.linalg.qr(rng.standard_normal((d, rank)))[0]
    X = np.einsum("dr,nrt->ndt", basis, rng.standard_normal((n_seq, rank, T)))
    Wq = teacher_scale * rng.standard_normal((dk, d)) / np.sqrt(d)
    Wk = teacher_scale * rng.standard_normal((dk, d)) / np.sqrt(d)
    return X, attention_forward(X, Wq, Wk)[1]


def train_attention(X: np.ndarray, Y: np.ndarray, Wq: np.ndarray, Wk: np.ndarray, steps: int, lr: float,
                    tau: float | None, weight_decay: float = 0.0, sigma_update=None, warmup: int = 0,
                    bound_by_gradient: bool = False) -> dict:
    """Train (Wq, Wk) with AdamW (``tau=None``) or AdamW^2 (threshold ``tau``); with ``warmup = w > 0``
    the learning rate rises linearly over the first w steps (lr (t+1)/w), else it is constant;
    ``bound_by_gradient`` bounds the rate with the raw gradient's sigma_1 (a misreading, for controls).

    Returns:
        dict of per-step arrays: ``loss``, ``sigma_q``/``sigma_k`` (top singular values before each
        step), ``growth_q``/``growth_k`` (sigma_1 after minus before, over sigma_1 before),
        ``sec`` (SEC(1) of Wq^T Wk) and ``min_entropy`` (least row entropy over the batch), and the
        final ``Wq``, ``Wk``.
    """
    sq, sk = {}, {}
    rec = {k: [] for k in ("loss", "sigma_q", "sigma_k", "growth_q", "growth_k", "sec", "min_entropy")}
    for t in range(steps):
        lr_t = lr * min(1.0, (t + 1) / warmup) if warmup > 0 else lr
        loss, gq, gk = attention_loss_grads(X, Y, Wq, Wk)
        A, _ = attention_forward(X, Wq, Wk)
        s_q, s_k = float(np.linalg.norm(Wq, 2)), float(np.linalg.norm(Wk, 2))
        rec["loss"].append(loss)
        rec["sigma_q"].append(s_q)
        rec["sigma_k"].append(s_k)
        rec["sec"].append(spectral_energy_concentration(Wq.T @ Wk, 1))
        rec["min_entropy"].append(float(np.min(row_entropies(A))))
        Wq, _, _ = adamw2_step(Wq, gq, sq, lr_t, tau, weight_decay=weight_decay, sigma_update=sigma_update,
                               bound_by_gradient=bound_by_gradient)
        Wk, _, _ = adamw2_step(Wk, gk, sk, lr_t, tau, weight_decay=weight_decay, sigma_update=sigma_update,
                               bound_by_gradient=bound_by_gradient)
        rec["growth_q"].append(float(np.linalg.norm(Wq, 2)) / s_q - 1)
        rec["growth_k"].append(float(np.linalg.norm(Wk, 2)) / s_k - 1)
    out = {k: np.asarray(v) for k, v in rec.items()}
    out["Wq"], out["Wk"] = Wq, Wk
    return out
