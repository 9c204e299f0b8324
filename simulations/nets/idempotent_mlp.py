"""Training small MLPs ``f: R^d -> R^d`` to be idempotent, by gradient descent or by the update of
Jensen & Vicary ("Enforcing idempotency in neural networks", ICML 2025).

The network is ``f(x) = W_2 tanh(W_1 x + b_1) + b_2`` (hidden width ``h``, PyTorch's default
``Linear`` initialisation: every weight and bias uniform on ``+-1/sqrt(fan_in)``).  Two training
signals are compared on a batch ``X`` (rows ``x_i``):

* the canonical loss ``L(theta) = mean_i ||f(f(x_i)) - f(x_i)||^2``, differentiated through both
  applications of ``f`` (:func:`canonical_gradient`);
* the substitute: the gradient of ``(1/2) mean_i ||f(x_i) - t_i||^2`` with the target
  ``t_i = 3 f(f(x_i)) - 2 f(f(f(x_i)))`` held fixed (:func:`substitute_gradient`).  For a linear
  ``f(x) = K x`` and inputs with ``mean_i x_i x_i^T = I`` this gradient is ``K - (3K^2 - 2K^3)``, so a
  unit step is the paper's recurrence ``K <- 3K^2 - 2K^3`` (its perturbation-theory projection onto
  the idempotent matrices); applied through back-propagation it is architecture-agnostic.  The
  abstract describes the extension to non-linear networks as "a substitution of the gradient for
  the canonical loss function"; this per-sample target is our reconstruction of that rule (the
  paper's text beyond the abstract could not be read).

Both signals drive Adam (Kingma & Ba 2015) with the same step size; the idempotent error
``mean_i ||f(f(x_i)) - f(x_i)||^2 / d`` is measured on held-out inputs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class MLP:
    """``f(x) = W2 tanh(W1 x + b1) + b2``; ``params = [W1 (h, d), b1 (h,), W2 (d, h), b2 (d,)]``."""

    params: list[np.ndarray]

    def copy(self) -> MLP:
        return MLP([p.copy() for p in self.params])


def init_mlp(dim: int, hidden: int, rng: np.random.Generator) -> MLP:
    """PyTorch's default initialisation of two ``Linear`` layers (uniform on ``+-1/sqrt(fan_in)``).

    Raises:
        ValueError: for non-positive sizes.
    """
    if dim < 1 or hidden < 1:
        raise ValueError("dim and hidden must be >= 1")
    a, b = 1 / math.sqrt(dim), 1 / math.sqrt(hidden)
    return MLP([rng.uniform(-a, a, (hidden, dim)), rng.uniform(-a, a, hidden),
                rng.uniform(-b, b, (dim, hidden)), rng.uniform(-b, b, dim)])


def apply(net: MLP, X: np.ndarray) -> np.ndarray:
    """``f`` applied to each row of ``X`` (shape ``(N, d)``)."""
    W1, b1, W2, b2 = net.params
    return np.tanh(X @ W1.T + b1) @ W2.T + b2


def _forward(net: MLP, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    W1, b1, W2, b2 = net.params
    H = np.tanh(X @ W1.T + b1)
    return H @ W2.T + b2, H


def _backward(net: MLP, X: np.ndarray, H: np.ndarray, G: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """Parameter gradients of ``sum(G * f(X))`` and its gradient in ``X``."""
    W1, _, W2, _ = net.params
    gH = (G @ W2) * (1 - H**2)
    return [gH.T @ X, gH.sum(axis=0), G.T @ H, G.sum(axis=0)], gH @ W1


def idempotent_error(net: MLP, X: np.ndarray) -> float:
    """``mean_i ||f(f(x_i)) - f(x_i)||^2 / d``."""
    Y = apply(net, X)
    return float(np.mean((apply(net, Y) - Y) ** 2))


def canonical_gradient(net: MLP, X: np.ndarray) -> list[np.ndarray]:
    """Exact gradient of ``mean_i ||f(f(x_i)) - f(x_i)||^2`` (through both applications of ``f``)."""
    Y, H1 = _forward(net, X)
    Z, H2 = _forward(net, Y)
    E = 2 * (Z - Y) / X.shape[0]
    g_outer, gY = _backward(net, Y, H2, E)  # through f(y)
    g_inner, _ = _backward(net, X, H1, gY - E)  # through y = f(x)
    return [a + b for a, b in zip(g_outer, g_inner, strict=True)]


def substitute_gradient(net: MLP, X: np.ndarray, coefficients: tuple[float, float] = (3.0, -2.0)) -> list[np.ndarray]:
    """Gradient of ``(1/2) mean_i ||f(x_i) - t_i||^2`` with ``t_i = c_2 f(f(x_i)) + c_3 f(f(f(x_i)))``
    held fixed; ``coefficients = (c_2, c_3)`` is ``(3, -2)`` for the paper's recurrence."""
    Y, H1 = _forward(net, X)
    Z = apply(net, Y)
    T = coefficients[0] * Z + coefficients[1] * apply(net, Z)
    grads, _ = _backward(net, X, H1, (Y - T) / X.shape[0])
    return grads


def train(net: MLP, X: np.ndarray, rule: str, *, steps: int, lr: float,
          betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          coefficients: tuple[float, float] = (3.0, -2.0)) -> MLP:
    """Full-batch Adam on the training signal ``rule`` (``"canonical"`` or ``"substitute"``).

    Returns the trained copy of ``net``.

    Raises:
        ValueError: for an unknown rule, negative steps or a non-positive step size.
    """
    if rule not in ("canonical", "substitute"):
        raise ValueError(f"rule must be 'canonical' or 'substitute', not {rule!r}")
    if steps < 0 or lr <= 0:
        raise ValueError("need steps >= 0 and lr > 0")
    net = net.copy()
    m1 = [np.zeros_like(p) for p in net.params]
    m2 = [np.zeros_like(p) for p in net.params]
    for t in range(1, steps + 1):
        grads = canonical_gradient(net, X) if rule == "canonical" else substitute_gradient(net, X, coefficients)
        for p, g, a, s in zip(net.params, grads, m1, m2, strict=True):
            a *= betas[0]
            a += (1 - betas[0]) * g
            s *= betas[1]
            s += (1 - betas[1]) * g**2
            p -= lr * (a / (1 - betas[0] ** t)) / (np.sqrt(s / (1 - betas[1] ** t)) + eps)
    return net


def train_gd(net: MLP, X: np.ndarray, rule: str, *, steps: int, lr: float,
             coefficients: tuple[float, float] = (3.0, -2.0)) -> MLP:
    """Full-batch plain gradient descent ``theta <- theta - lr * signal`` on ``rule``
    (``"canonical"`` or ``"substitute"``); returns the trained copy.

    Raises:
        ValueError: for an unknown rule, negative steps or a non-positive step size.
    """
    if rule not in ("canonical", "substitute"):
        raise ValueError(f"rule must be 'canonical' or 'substitute', not {rule!r}")
    if steps < 0 or lr <= 0:
        raise ValueError("need steps >= 0 and lr > 0")
    net = net.copy()
    for _ in range(steps):
        grads = canonical_gradient(net, X) if rule == "canonical" else substitute_gradient(net, X, coefficients)
        for p, g in zip(net.params, grads, strict=True):
            p -= lr * g
    return net
