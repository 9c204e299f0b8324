"""Stochastic matrix least squares: a test problem for matrix optimisers (Shampoo, SOAP, Adam).

Loss of one minibatch ``(X, Y)`` with ``X`` of shape ``(n, b)`` (inputs as columns) and ``Y`` of
shape ``(m, b)``: ``f(W) = ||W X - Y||_F^2 / (2 b)`` for ``W`` of shape ``(m, n)``; its gradient
is ``(W X - Y) X^T / b``.  Under the change of coordinates ``W = Q_L W' Q_R^T`` with orthogonal
``Q_L, Q_R`` the same loss is the regression on rotated data ``X' = Q_R^T X``, ``Y' = Q_L^T Y``,
whose gradient in ``W'`` is ``Q_L^T (grad f) Q_R``.
"""

from __future__ import annotations

import numpy as np

from .preconditioners import (
    SOAPState,
    adam_init,
    adam_step,
    random_orthogonal,
    soap_init,
    soap_step,
)
from .soap_published import PublishedSOAPState, published_soap_init, published_soap_step

__all__ = ["regression_batches", "regression_gradient", "rotate_batches", "train_adam", "train_soap",
           "train_published_soap"]


def regression_gradient(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Gradient ``(W X - Y) X^T / b`` of ``||W X - Y||_F^2 / (2 b)``.

    Args:
        w: ``(m, n)`` weights; x: ``(n, b)`` inputs; y: ``(m, b)`` targets.

    Returns:
        ``(m, n)`` gradient.

    Raises:
        ValueError: on shape mismatches.
    """
    w, x, y = (np.asarray(a, dtype=float) for a in (w, x, y))
    if w.ndim != 2 or x.ndim != 2 or y.ndim != 2:
        raise ValueError("w, x and y must be matrices")
    if x.shape[0] != w.shape[1] or y.shape != (w.shape[0], x.shape[1]):
        raise ValueError(f"shapes do not fit: w {w.shape}, x {x.shape}, y {y.shape}")
    return (w @ x - y) @ x.T / x.shape[1]


def regression_batches(rng: np.random.Generator, steps: int, m: int, n: int, batch: int, *,
                       condition: float = 100.0, noise: float = 0.1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Minibatches of an ill-conditioned planted matrix regression.

    Inputs ``x = C^{1/2} z`` with ``z`` standard Gaussian in ``R^n`` and a covariance ``C`` with a
    Haar-random eigenbasis and eigenvalues log-spaced from 1 to ``1/condition``; targets
    ``y = W* x + noise * xi`` with ``W*`` standard Gaussian ``(m, n)`` and ``xi`` standard
    Gaussian in ``R^m``.

    Args:
        rng: random generator; steps: number of minibatches ``>= 1``; m, n: weight shape;
        batch: minibatch size ``b >= 1``; condition: ``>= 1``; noise: label-noise scale ``>= 0``.

    Returns:
        ``(xs, ys, w_star)`` of shapes ``(steps, n, b)``, ``(steps, m, b)``, ``(m, n)``.

    Raises:
        ValueError: on non-positive sizes, ``condition < 1`` or ``noise < 0``.
    """
    if min(steps, m, n, batch) < 1:
        raise ValueError(f"steps, m, n, batch must be positive, got {steps}, {m}, {n}, {batch}")
    if condition < 1 or noise < 0:
        raise ValueError(f"need condition >= 1 and noise >= 0, got {condition}, {noise}")
    root = random_orthogonal(rng, n) * condition ** (-0.5 * np.linspace(0.0, 1.0, n))
    w_star = rng.standard_normal((m, n))
    xs = root @ rng.standard_normal((steps, n, batch))
    ys = w_star @ xs + noise * rng.standard_normal((steps, m, batch))
    return xs, ys, w_star


def rotate_batches(xs: np.ndarray, ys: np.ndarray, q_left: np.ndarray,
                   q_right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same regression in the coordinates ``W' = Q_L^T W Q_R``: ``(Q_R^T X, Q_L^T Y)``.

    Raises:
        ValueError: on shape mismatches.
    """
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    if xs.shape[-2] != q_right.shape[0] or ys.shape[-2] != q_left.shape[0]:
        raise ValueError("the bases do not fit the data")
    return q_right.T @ xs, q_left.T @ ys


def train_adam(w0: np.ndarray, xs: np.ndarray, ys: np.ndarray, **adam_kwargs) -> np.ndarray:
    """Adam (:func:`~simulations.optim.preconditioners.adam_step`) on the regression, one step a batch.

    Args:
        w0: ``(m, n)`` initial weights; xs, ys: ``(T, n, b)`` and ``(T, m, b)`` minibatches;
        adam_kwargs: ``lr``, ``betas``, ``eps``, ``weight_decay``.

    Returns:
        ``(T + 1, m, n)`` iterates, starting with ``w0``.
    """
    w = np.asarray(w0, dtype=float)
    state, path = adam_init(w.shape), [w]
    for x, y in zip(xs, ys, strict=True):
        w, state = adam_step(w, regression_gradient(w, x, y), state, **adam_kwargs)
        path.append(w)
    return np.stack(path)


def train_soap(w0: np.ndarray, xs: np.ndarray, ys: np.ndarray, statistic_weight: float = 1.0,
               **soap_kwargs) -> tuple[np.ndarray, SOAPState]:
    """SOAP (:func:`~simulations.optim.preconditioners.soap_step`) on the regression.

    As in ``soap.py``, the gradient of the first batch at ``w0`` only initialises ``L, R`` and
    the eigenbases (:func:`~simulations.optim.preconditioners.soap_init`); each later batch
    makes one step.

    Args:
        w0: ``(m, n)`` initial weights; xs, ys: ``(T, n, b)`` and ``(T, m, b)``, ``T >= 1``;
        statistic_weight: weight of the first gradient's products in ``L, R``
            (:func:`~simulations.optim.preconditioners.soap_init`);
        soap_kwargs: keyword arguments of ``soap_step``.

    Returns:
        ``(path, state)``: ``(T, m, n)`` iterates starting with ``w0``, and the final state.

    Raises:
        ValueError: if there is no batch.
    """
    if len(xs) < 1:
        raise ValueError("SOAP needs at least one batch to initialise its preconditioner")
    w = np.asarray(w0, dtype=float)
    state, path = soap_init(regression_gradient(w, xs[0], ys[0]), statistic_weight), [w]
    for x, y in zip(xs[1:], ys[1:], strict=True):
        w, state = soap_step(w, regression_gradient(w, x, y), state, **soap_kwargs)
        path.append(w)
    return np.stack(path), state


def train_published_soap(w0: np.ndarray, xs: np.ndarray, ys: np.ndarray, shampoo_beta: float = 0.95,
                         **kwargs) -> tuple[np.ndarray, PublishedSOAPState]:
    """SOAP as published (:mod:`~simulations.optim.soap_published`) on the regression.

    The first batch only initialises the preconditioner; each later batch makes one step.

    Returns:
        ``(path, state)``: ``(T, m, n)`` iterates starting with ``w0``, and the final state.

    Raises:
        ValueError: if there is no batch.
    """
    if len(xs) < 1:
        raise ValueError("SOAP needs at least one batch to initialise its preconditioner")
    w = np.asarray(w0, dtype=float)
    state = published_soap_init(regression_gradient(w, xs[0], ys[0]), shampoo_beta)
    path = [w]
    for x, y in zip(xs[1:], ys[1:], strict=True):
        w, state = published_soap_step(w, regression_gradient(w, x, y), state, shampoo_beta=shampoo_beta,
                                       **kwargs)
        path.append(w)
    return np.stack(path), state
