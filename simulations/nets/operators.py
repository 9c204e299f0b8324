"""A one-layer Fourier neural operator in numpy with exact gradients and Hessian-vector products.

On a periodic grid of ``n`` points, an input function ``u`` is lifted to ``m`` channels
``v_c = P_c u`` (fixed ``P ~ N(0, 1)``), passed through one Fourier layer and projected:

    z_c(x) = (1/sqrt(m)) sum_{c'} [ W_{cc'} v_{c'}(x) + sum_j A^j_{cc'} (Phi_j v_{c'})(x) ],
    G(u)(x) = s_out * sum_c Q_c tanh(z_c(x)),

where ``Phi_1..Phi_J`` are the real Fourier projections on the kept modes (cosine and sine parts,
so ``sum_j A^j Phi_j`` is the FNO spectral convolution with real weights), and ``s_out`` is
``1/sqrt(m)`` (NTK parametrisation) or ``1`` (standard).  The trainable parameters are
``theta = (Theta_0 = W, Theta_1..J = A^j, Q)``.  This is the width-``m`` FNO of Cisneros-Velarde,
Shrimali & Banerjee ("Optimization for neural operators can benefit from width", ICML 2025) in its
smallest form; the output Hessian ``d^2 G(u)(x) / d theta^2`` decays like ``m^{-1/2}`` under the
NTK parametrisation (Liu, Zhu & Belkin, NeurIPS 2020).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def fourier_projections(n: int, modes: int) -> np.ndarray:
    """Real Fourier projection matrices ``Phi_j`` (shape ``(J, n, n)``): the mean, then the cosine
    and sine parts of frequencies ``1..modes-1`` (``J = 2 modes - 1``)."""
    if not 1 <= modes <= n // 2:
        raise ValueError(f"modes must be in 1..{n // 2}, got {modes}")
    x = 2 * np.pi * np.arange(n) / n
    basis = [np.ones(n) / math.sqrt(n)]
    for k in range(1, modes):
        basis += [np.cos(k * x) * math.sqrt(2 / n), np.sin(k * x) * math.sqrt(2 / n)]
    return np.stack([np.outer(e, e) for e in basis])


@dataclass
class FNO1:
    """Parameters of the one-layer FNO (see module docstring).

    Attributes:
        theta: array ``(J + 1, m, m)``: ``theta[0] = W``, ``theta[j] = A^j``.
        Q: output weights ``(m,)``.
        P: fixed lifting ``(m,)``.
        phis: ``(J, n, n)`` Fourier projections.
        out_scale: ``1/sqrt(m)`` (NTK) or ``1.0`` (standard parametrisation).
    """

    theta: np.ndarray
    Q: np.ndarray
    P: np.ndarray
    phis: np.ndarray
    out_scale: float

    @property
    def width(self) -> int:
        return self.Q.size

    def flat(self) -> np.ndarray:
        return np.concatenate([self.theta.ravel(), self.Q])

    def with_flat(self, w: np.ndarray) -> FNO1:
        k = self.theta.size
        return FNO1(w[:k].reshape(self.theta.shape), w[k:].copy(), self.P, self.phis, self.out_scale)


def init_fno(width: int, n: int, modes: int, rng: np.random.Generator, *,
             parametrization: str = "ntk") -> FNO1:
    """Random FNO: ``theta, P ~ N(0, 1)``, ``Q`` Rademacher (+-1); ``parametrization`` is
    ``"ntk"`` (output scaled by ``1/sqrt(m)``) or ``"standard"`` (no output scaling)."""
    if parametrization not in ("ntk", "standard"):
        raise ValueError(f"parametrization must be 'ntk' or 'standard', not {parametrization!r}")
    phis = fourier_projections(n, modes)
    J = phis.shape[0]
    theta = rng.standard_normal((J + 1, width, width))
    Q = rng.choice([-1.0, 1.0], size=width)
    P = rng.standard_normal(width)
    return FNO1(theta, Q, P, phis, 1 / math.sqrt(width) if parametrization == "ntk" else 1.0)


def _features(net: FNO1, U) -> np.ndarray:
    """``F[i, j, x]``: ``u_i(x)`` for ``j = 0`` and ``(Phi_j u_i)(x)`` for ``j >= 1``."""
    U = np.atleast_2d(np.asarray(U, dtype=float))
    return np.concatenate([U[:, None, :], np.einsum("jxy,iy->ijx", net.phis, U)], axis=1)


def preactivations(net: FNO1, U) -> tuple[np.ndarray, np.ndarray]:
    """``z[i, c, x]`` and the features ``F[i, j, x]`` for inputs ``U`` of shape ``(N, n)``."""
    F = _features(net, U)
    TP = net.theta @ net.P  # (J+1, m): Theta_j P
    return np.einsum("jc,ijx->icx", TP, F) / math.sqrt(net.width), F


def fno_forward(net: FNO1, U) -> np.ndarray:
    """``G(u_i)(x)`` for every input and grid point, shape ``(N, n)``."""
    z, _ = preactivations(net, U)
    return net.out_scale * np.einsum("c,icx->ix", net.Q, np.tanh(z))


def loss(net: FNO1, U, Y) -> float:
    """``(1 / (2 N n)) sum (G(u_i)(x) - y_i(x))^2``."""
    R = fno_forward(net, U) - Y
    return float(0.5 * np.mean(R**2))


def loss_gradient(net: FNO1, U, Y) -> np.ndarray:
    """Exact gradient of :func:`loss` as a flat vector (order of :meth:`FNO1.flat`)."""
    z, F = preactivations(net, U)
    t = np.tanh(z)
    R = (net.out_scale * np.einsum("c,icx->ix", net.Q, t) - Y) / Y.size
    gQ = net.out_scale * np.einsum("ix,icx->c", R, t)
    S = net.out_scale * net.Q[None, :, None] * (1 - t**2) * R[:, None, :]  # (N, m, n)
    s = np.einsum("icx,ijx->jc", S, F) / math.sqrt(net.width)  # (J+1, m)
    gTheta = s[:, :, None] * net.P[None, None, :]
    return np.concatenate([gTheta.ravel(), gQ])


def output_hvp(net: FNO1, u, x_index: int, v: np.ndarray) -> np.ndarray:
    """Exact Hessian-vector product of the scalar output ``G(u)(x)`` in the parameters.

    With ``g = (P u(x), P (Phi_1 u)(x), ...)`` (so ``z_c = <Theta_c, g> / sqrt(m)``):
    ``(Hv)_{Theta_c} = s [Q_c tanh''(z_c) g <g, v_{Theta_c}> / m + tanh'(z_c) g v_{Q_c} / sqrt(m)]``,
    ``(Hv)_{Q_c} = s tanh'(z_c) <g, v_{Theta_c}> / sqrt(m)``.
    """
    m = net.width
    z, F = preactivations(net, np.asarray(u, dtype=float)[None, :])
    zc, f = z[0, :, x_index], F[0, :, x_index]  # (m,), (J+1,)
    t = np.tanh(zc)
    d1, d2 = 1 - t**2, -2 * t * (1 - t**2)
    k = net.theta.size
    VT = v[:k].reshape(net.theta.shape)  # (J+1, m, m): VT[j, c, c']
    VQ = v[k:]
    gv = np.einsum("jcd,j,d->c", VT, f, net.P)  # <g, v_{Theta_c}>
    coef = net.out_scale * (net.Q * d2 * gv / m + d1 * VQ / math.sqrt(m))  # (m,)
    HT = coef[None, :, None] * f[:, None, None] * net.P[None, None, :]
    HQ = net.out_scale * d1 * gv / math.sqrt(m)
    return np.concatenate([HT.ravel(), HQ])


def output_hessian_norm(net: FNO1, u, x_index: int, rng: np.random.Generator, tol: float = 1e-10) -> float:
    """Spectral norm of ``d^2 G(u)(x) / d theta^2`` by Lanczos (scipy ``eigsh``) on
    :func:`output_hvp`."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    size = net.theta.size + net.width
    op = LinearOperator((size, size), matvec=lambda v: output_hvp(net, u, x_index, np.ravel(v)),
                        dtype=float)
    v0 = rng.standard_normal(size)
    vals = eigsh(op, k=1, which="LM", v0=v0, tol=tol, return_eigenvectors=False)
    return float(abs(vals[0]))


def output_hessian_norm_closed_form(net: FNO1, u, x_index: int) -> float:
    """The same norm from the block structure: ``H`` acts on ``span{e_c kron g, e_{Q_c}}`` as
    ``m`` independent 2x2 blocks ``[[a_c, b_c], [b_c, 0]]`` with ``a_c = s Q_c tanh''(z_c) |g|^2 / m``
    and ``b_c = s tanh'(z_c) |g| / sqrt(m)``, and vanishes elsewhere."""
    m = net.width
    z, F = preactivations(net, np.asarray(u, dtype=float)[None, :])
    zc, f = z[0, :, x_index], F[0, :, x_index]
    t = np.tanh(zc)
    gnorm = np.linalg.norm(f) * np.linalg.norm(net.P)
    a = net.out_scale * net.Q * (-2 * t * (1 - t**2)) * gnorm**2 / m
    b = net.out_scale * (1 - t**2) * gnorm / math.sqrt(m)
    return float(np.max(np.abs(a) / 2 + np.sqrt(a**2 / 4 + b**2)))


def gaussian_random_fields(rng: np.random.Generator, count: int, n: int, length_scale: float = 0.2) -> np.ndarray:
    """Periodic Gaussian random functions on ``n`` grid points with squared-exponential spectrum
    ``exp(-(2 pi k l)^2 / 2)``, normalised to unit mean square."""
    k = np.fft.rfftfreq(n, d=1.0 / n)
    amp = np.exp(-0.25 * (2 * np.pi * k * length_scale) ** 2)
    coef = (rng.standard_normal((count, k.size)) + 1j * rng.standard_normal((count, k.size))) * amp
    coef[:, 0] = 0.0
    U = np.fft.irfft(coef, n=n, axis=1)
    return U / np.sqrt(np.mean(U**2, axis=1, keepdims=True))


def antiderivative(U) -> np.ndarray:
    """Periodic antiderivative with zero mean, ``y' = u`` on ``[0, 1)`` (spectral), for zero-mean ``u``."""
    U = np.asarray(U, dtype=float)
    n = U.shape[-1]
    k = np.fft.rfftfreq(n, d=1.0 / n)
    c = np.fft.rfft(U, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(k > 0, c / (2j * np.pi * k), 0.0)
    return np.fft.irfft(c, n=n, axis=-1)


def loss_smoothness(net: FNO1, U, Y, rng: np.random.Generator, h: float = 1e-5) -> float:
    """Largest |eigenvalue| of the loss Hessian at ``net`` (Lanczos on central differences of the
    exact gradient, relative step ``h``)."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    w = net.flat()
    scale = h * max(1.0, float(np.linalg.norm(w)) / math.sqrt(w.size))

    def hvp(v):
        v = np.ravel(v)
        gp = loss_gradient(net.with_flat(w + scale * v), U, Y)
        gm = loss_gradient(net.with_flat(w - scale * v), U, Y)
        return (gp - gm) / (2 * scale)

    op = LinearOperator((w.size, w.size), matvec=hvp, dtype=float)
    vals = eigsh(op, k=1, which="LM", v0=rng.standard_normal(w.size), tol=1e-6,
                 return_eigenvectors=False)
    return float(abs(vals[0]))


def gradient_descent(net: FNO1, U, Y, step: float, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch gradient descent; returns the losses ``L_0..L_T`` and squared gradient norms
    ``||grad L_t||^2`` for ``t = 0..T-1``."""
    w = net.flat()
    losses, grads = [], []
    for _ in range(steps):
        cur = net.with_flat(w)
        g = loss_gradient(cur, U, Y)
        losses.append(loss(cur, U, Y))
        grads.append(float(g @ g))
        w = w - step * g
    losses.append(loss(net.with_flat(w), U, Y))
    return np.array(losses), np.array(grads)
