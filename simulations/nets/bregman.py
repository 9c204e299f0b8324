"""Activations as Bregman proximity operators, and Bregman (Fourier) neural-operator layers.

For a Legendre potential ``psi`` with ``sigma = (psi')^{-1} = grad psi*``, the activation is the
Bregman proximity operator from the dual to the primal space:

    sigma(z) = argmin_x { psi(x) - <z, x> }.

Instances (Mezidi et al., "A Bregman proximal viewpoint on neural operators", ICML 2025;
Frecon, Gasso, Pontil & Salzo, "Bregman neural networks", ICML 2022):

* sigmoid: ``psi(x) = x log x + (1 - x) log(1 - x)`` on ``[0, 1]``, ``psi' = logit``;
* tanh: ``psi(x) = ((1 + x) log(1 + x) + (1 - x) log(1 - x)) / 2`` on ``[-1, 1]``, ``psi' = artanh``;
* softmax: negative entropy ``sum x_i log x_i`` on the simplex;
* ReLU: ``psi(x) = x^2 / 2`` plus the indicator of ``[0, inf)`` (a Euclidean projection).

A Bregman layer is ``x+ = sigma(sigma^{-1}(x) + K x + b)``, the minimiser of
``-<K x + b, u> + D_psi(u, x)`` with the Bregman divergence
``D_psi(u, x) = psi(u) - psi(x) - psi'(x)(u - x)``; with ``K = 0, b = 0`` it is the identity.  The
classical layer is ``sigma(K x + b)``.  ``K`` is a Fourier integral operator
``K x = irfft(R * rfft(x))`` on a periodic grid, whose spectral norm is ``max_k |R_k|``.
"""

from __future__ import annotations

import math

import numpy as np

POTENTIALS = ("sigmoid", "tanh")


def sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(z, dtype=float)))


def logit(x):
    x = np.asarray(x, dtype=float)
    return np.log(x) - np.log1p(-x)


def activation(name: str):
    """``(sigma, sigma_inverse)`` of a named Legendre activation (``"sigmoid"`` or ``"tanh"``)."""
    if name == "sigmoid":
        return sigmoid, logit
    if name == "tanh":
        return np.tanh, np.arctanh
    raise ValueError(f"unknown activation {name!r}; choose from {POTENTIALS}")


def potential(name: str, x):
    """Legendre potential ``psi(x)`` (with ``0 log 0 = 0``) of a named activation."""
    x = np.asarray(x, dtype=float)

    def xlogx(t):
        return np.where(t > 0, t * np.log(np.where(t > 0, t, 1.0)), 0.0)

    if name == "sigmoid":
        return xlogx(x) + xlogx(1.0 - x)
    if name == "tanh":
        return 0.5 * (xlogx(1.0 + x) + xlogx(1.0 - x))
    raise ValueError(f"unknown activation {name!r}; choose from {POTENTIALS}")


def potential_curvature(name: str, x):
    """``psi''(x)``: ``1 / (x (1 - x))`` (sigmoid) or ``1 / (1 - x^2)`` (tanh)."""
    x = np.asarray(x, dtype=float)
    if name == "sigmoid":
        return 1.0 / (x * (1.0 - x))
    if name == "tanh":
        return 1.0 / (1.0 - x**2)
    raise ValueError(f"unknown activation {name!r}; choose from {POTENTIALS}")


def domain(name: str) -> tuple[float, float]:
    """Closed domain of ``psi``."""
    return {"sigmoid": (0.0, 1.0), "tanh": (-1.0, 1.0)}[name]


def bregman_divergence(name: str, u, x):
    """``D_psi(u, x) = psi(u) - psi(x) - psi'(x) (u - x)`` (elementwise)."""
    _, inv = activation(name)
    return potential(name, u) - potential(name, x) - inv(x) * (np.asarray(u) - np.asarray(x))


# --------------------------------------------------------------------------- symbolic forms
def symbolic_activation(name: str, z):
    """Sympy expression of ``sigma(z)`` (``z`` a sympy symbol; a list for ``"softmax"``)."""
    import sympy as sp

    if name == "sigmoid":
        return 1 / (1 + sp.exp(-z))
    if name == "tanh":
        return sp.tanh(z)
    if name == "relu":
        return sp.Max(z, 0)
    if name == "softmax":
        total = sum(sp.exp(t) for t in z)
        return [sp.exp(t) / total for t in z]
    raise ValueError(f"unknown activation {name!r}")


def symbolic_potential_derivative(name: str, x):
    """Sympy expression of ``psi'(x)`` written from ``psi`` (log form, not through sigma^{-1})."""
    import sympy as sp

    if name == "sigmoid":
        return sp.diff(x * sp.log(x) + (1 - x) * sp.log(1 - x), x)
    if name == "tanh":
        return sp.diff(((1 + x) * sp.log(1 + x) + (1 - x) * sp.log(1 - x)) / 2, x)
    raise ValueError(f"unknown activation {name!r}")


# --------------------------------------------------------------------------- Fourier operator
def random_fourier_multiplier(n: int, modes: int, norm: float, rng: np.random.Generator) -> np.ndarray:
    """Complex multiplier ``R`` on the ``n // 2 + 1`` rfft frequencies, nonzero on the first
    ``modes``, with ``max |R_k| = norm`` (so ``||K||_2 = norm`` on real grid functions).

    The zero (and, for even ``n``, the Nyquist) frequency gets a real multiplier so that ``K``
    maps real functions to real functions with the stated norm.
    """
    if not 1 <= modes <= n // 2 + 1:
        raise ValueError(f"modes must be in 1..{n // 2 + 1}, got {modes}")
    R = np.zeros(n // 2 + 1, dtype=complex)
    R[:modes] = rng.standard_normal(modes) + 1j * rng.standard_normal(modes)
    R[0] = R[0].real
    if n % 2 == 0 and modes == n // 2 + 1:
        R[-1] = R[-1].real
    return R * (norm / np.max(np.abs(R)))


def fourier_operator(x, R) -> np.ndarray:
    """``K x = irfft(R * rfft(x))`` along the last axis (periodic grid of ``n`` points)."""
    x = np.asarray(x, dtype=float)
    return np.fft.irfft(R * np.fft.rfft(x, axis=-1), n=x.shape[-1], axis=-1)


def bregman_layer(name: str, x, R, b=0.0) -> np.ndarray:
    """``sigma(sigma^{-1}(x) + K x + b)``: the Bregman layer (identity when ``K = 0, b = 0``)."""
    sig, inv = activation(name)
    return sig(inv(x) + fourier_operator(x, R) + b)


def classical_layer(name: str, x, R, b=0.0) -> np.ndarray:
    """``sigma(K x + b)``: the classical neural-operator layer."""
    sig, _ = activation(name)
    return sig(fourier_operator(x, R) + b)


def bregman_prox_numeric(name: str, v, x, xatol: float = 1e-12) -> np.ndarray:
    """Entrywise ``argmin_u { -v u + D_psi(u, x) }`` by bounded Brent minimisation (scipy),
    independent of the closed form ``sigma(sigma^{-1}(x) + v)``."""
    from scipy.optimize import minimize_scalar

    lo, hi = domain(name)
    v, x = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(x, dtype=float))
    out = np.empty(v.shape)
    for idx in np.ndindex(v.shape):
        res = minimize_scalar(lambda u, i=idx: float(-v[i] * u + bregman_divergence(name, u, x[i])),
                              bounds=(lo, hi), method="bounded",
                              options={"xatol": xatol, "maxiter": 500})
        out[idx] = res.x
    return out


def euclidean_prox_numeric(v, x, lo: float, hi: float, xatol: float = 1e-12) -> np.ndarray:
    """Entrywise ``argmin_{u in [lo, hi]} { -v u + (u - x)^2 / 2 }`` = ``clip(x + v, lo, hi)``
    (the Euclidean proximal step), by bounded Brent minimisation."""
    from scipy.optimize import minimize_scalar

    v, x = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(x, dtype=float))
    out = np.empty(v.shape)
    for idx in np.ndindex(v.shape):
        res = minimize_scalar(lambda u, i=idx: float(-v[i] * u + 0.5 * (u - x[i]) ** 2),
                              bounds=(lo, hi), method="bounded",
                              options={"xatol": xatol, "maxiter": 500})
        out[idx] = res.x
    return out


def argmin_error_bound(name: str, u, objective_scale, xatol: float) -> np.ndarray:
    """Bound on the error of a minimiser located by scipy's bounded Brent search.

    The search stops within ``2 (sqrt(eps) |u| + xatol / 3)`` of the minimiser it sees
    (``scipy.optimize.fminbound``'s tolerance), and the objective, evaluated with rounding errors of
    ``eps * objective_scale`` (the sum of the magnitudes of its terms), cannot resolve points
    within ``sqrt(8 eps objective_scale / psi''(u))`` of the true minimiser.
    """
    eps = np.finfo(float).eps
    u = np.asarray(u, dtype=float)
    search = 2 * (math.sqrt(eps) * np.abs(u) + xatol / 3)
    flat = np.sqrt(8 * eps * np.asarray(objective_scale, dtype=float) / potential_curvature(name, u))
    return search + flat


def prox_objective_scale(name: str, u, x, v) -> np.ndarray:
    """Sum of the magnitudes of every term summed when evaluating ``-v u + D_psi(u, x)``
    (including the ``t log t`` terms inside ``psi``): rounding errors of the objective are
    ``O(eps)`` times this."""
    u, x, v = (np.asarray(a, dtype=float) for a in (u, x, v))

    def parts(t):
        a, b = (t, 1.0 - t) if name == "sigmoid" else ((1.0 + t) / 2, (1.0 - t) / 2)
        c = 1.0 if name == "sigmoid" else 2.0
        return sum(np.abs(w * np.log(np.where(w > 0, c * w if name == "tanh" else w, 1.0)))
                   for w in (a, b)) + np.abs(a) + np.abs(b)

    _, inv = activation(name)
    return np.abs(v * u) + parts(u) + parts(x) + np.abs(inv(x)) * (np.abs(u) + np.abs(x))


def bregman_stack_drift_bound(depth: int, norm: float, n: int, lipschitz: float = 1.0) -> float:
    """``depth * norm * sqrt(n) * Lip(sigma)``: bound on ``||x_depth - x_0||_2`` for a stack of
    Bregman layers with ``b = 0`` and ``||K||_2 <= norm`` on ``[-1, 1]^n`` (dual iterates move by
    ``||K x|| <= norm sqrt(n)`` per layer)."""
    return depth * norm * math.sqrt(n) * lipschitz
