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
        out_scale: ``1/sqrt(m)`` (NTK), ``1.0`` (standard) or ``1/m`` (mean field).
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
    ``"ntk"`` (output scaled by ``1/sqrt(m)``), ``"standard"`` (no output scaling) or
    ``"mean_field"`` (output scaled by ``1/m``; Mei, Montanari & Nguyen 2018, Chizat & Bach 2019)."""
    scale = output_scale(width, parametrization)
    phis = fourier_projections(n, modes)
    J = phis.shape[0]
    theta = rng.standard_normal((J + 1, width, width))
    Q = rng.choice([-1.0, 1.0], size=width)
    P = rng.standard_normal(width)
    return FNO1(theta, Q, P, phis, scale)


def output_scale(width: int, parametrization: str) -> float:
    """``1/sqrt(m)`` (``"ntk"``), ``1`` (``"standard"``) or ``1/m`` (``"mean_field"``)."""
    scales = {"ntk": 1 / math.sqrt(width), "standard": 1.0, "mean_field": 1 / width}
    if parametrization not in scales:
        raise ValueError(f"parametrization must be one of {sorted(scales)}, not {parametrization!r}")
    return scales[parametrization]


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


# --------------------------------------------------------------------------- lifted form
@dataclass
class LiftedFNO:
    """The one-layer FNO through its lifted weights ``V_j = Theta_j P`` (shape ``(J + 1, m)``).

    The output depends on ``Theta`` only through ``V`` (``z_c = sum_j V_{jc} (Phi_j u)(x) /
    sqrt(m)``), and every gradient of the loss in ``Theta_j`` is ``s_j P^T`` for a vector ``s_j``,
    so gradient descent on ``Theta`` moves ``V_j`` by ``-eta ||P||^2 s_j``: the pair ``(V, Q)``
    with ``||P||^2`` reproduces the full model and its GD path exactly, at cost ``O(m)`` instead
    of ``O(m^2)`` per input.

    Attributes:
        V: ``(J + 1, m)``; Q: ``(m,)``; pnorm2: ``||P||^2``; phis: ``(J, n, n)``;
        out_scale: ``1/sqrt(m)`` (NTK), ``1`` (standard) or ``1/m`` (mean field).
    """

    V: np.ndarray
    Q: np.ndarray
    pnorm2: float
    phis: np.ndarray
    out_scale: float

    @property
    def width(self) -> int:
        return self.Q.size


def lift(net: FNO1) -> LiftedFNO:
    """The lifted form of a full :class:`FNO1` (``V = Theta P``)."""
    return LiftedFNO(net.theta @ net.P, net.Q.copy(), float(net.P @ net.P), net.phis, net.out_scale)


def sample_lifted_fno(width: int, n: int, modes: int, rng: np.random.Generator, *,
                      parametrization: str = "ntk") -> LiftedFNO:
    """A random FNO of :func:`init_fno`'s distribution, drawn in lifted form.

    With ``Theta_j`` of i.i.d. ``N(0, 1)`` entries independent of ``P``, ``Theta_j P`` given ``P``
    is ``N(0, ||P||^2 I_m)``, independently over ``j``: ``V`` is drawn that way (exactly the law
    of ``lift(init_fno(...))``) without forming the ``m x m`` matrices.
    """
    if width < 1:
        raise ValueError(f"width must be >= 1, got {width}")
    scale = output_scale(width, parametrization)
    phis = fourier_projections(n, modes)
    P = rng.standard_normal(width)
    pnorm2 = float(P @ P)
    V = rng.standard_normal((phis.shape[0] + 1, width)) * math.sqrt(pnorm2)
    Q = rng.choice([-1.0, 1.0], size=width)
    return LiftedFNO(V, Q, pnorm2, phis, scale)


def _lifted_pre(lf: LiftedFNO, U) -> tuple[np.ndarray, np.ndarray]:
    U = np.atleast_2d(np.asarray(U, dtype=float))
    F = np.concatenate([U[:, None, :], np.einsum("jxy,iy->ijx", lf.phis, U)], axis=1)
    return np.einsum("jc,ijx->icx", lf.V, F) / math.sqrt(lf.width), F


def lifted_forward(lf: LiftedFNO, U) -> np.ndarray:
    """``G(u_i)(x)``, shape ``(N, n)`` (equal to :func:`fno_forward` of the full model)."""
    z, _ = _lifted_pre(lf, U)
    return lf.out_scale * np.einsum("c,icx->ix", lf.Q, np.tanh(z))


def lifted_hessian_norms(lf: LiftedFNO, U, xs) -> np.ndarray:
    """``||d^2 G(u_i)(x_i) / d theta^2||_2`` for each pair ``(U[i], xs[i])``, from the block form of
    :func:`output_hessian_norm_closed_form` with ``|g| = |f| ||P||``."""
    z, F = _lifted_pre(lf, U)
    m = lf.width
    idx = np.arange(len(xs))
    zc = z[idx, :, xs]  # (N, m)
    f2 = np.sum(F[idx, :, xs] ** 2, axis=1)  # |f|^2 per pair
    t = np.tanh(zc)
    a = lf.out_scale * lf.Q * (-2 * t * (1 - t**2)) * (f2 * lf.pnorm2)[:, None] / m
    b = lf.out_scale * (1 - t**2) * np.sqrt(f2 * lf.pnorm2)[:, None] / math.sqrt(m)
    return np.max(np.abs(a) / 2 + np.sqrt(a**2 / 4 + b**2), axis=1)


def tangent_kernel(lf: LiftedFNO, U) -> np.ndarray:
    """The neural tangent kernel ``K[(i,x),(i',x')] = <d G(u_i)(x) / d theta, d G(u_i')(x') / d theta>``
    over all parameters ``(Theta, Q)``, shape ``(N n, N n)``:

        ``K = s^2 [ (||P||^2 / m) (F F^T) * (T' diag(Q^2) T'^T) + T T^T ]``

    with ``T[(i,x), c] = tanh(z_icx)``, ``T' = tanh'``, ``(F F^T)[(i,x),(i',x')] = sum_j
    F_ijx F_i'jx'`` and ``*`` the entrywise product.
    """
    z, F = _lifted_pre(lf, U)
    N, m, n = z.shape
    T = np.tanh(z).transpose(0, 2, 1).reshape(N * n, m)
    Tp = 1 - T**2
    Ff = F.transpose(0, 2, 1).reshape(N * n, -1)
    theta_part = (lf.pnorm2 / m) * (Ff @ Ff.T) * ((Tp * lf.Q**2) @ Tp.T)
    return lf.out_scale**2 * (theta_part + T @ T.T)


def lifted_gradient_descent(lf: LiftedFNO, U, Y, step: float, steps: int) -> tuple[LiftedFNO, np.ndarray]:
    """Full-batch GD on :func:`loss` in lifted form (the same path as :func:`gradient_descent` on
    the full model); returns the final model and the losses ``L_0..L_T``."""
    if steps < 0 or step <= 0:
        raise ValueError("need steps >= 0 and step > 0")
    V, Q = lf.V.copy(), lf.Q.copy()
    Y = np.asarray(Y, dtype=float)
    _, F = _lifted_pre(lf, U)
    m, s = lf.width, lf.out_scale
    losses = []
    N, Jp, n = F.shape
    Fm = F.transpose(1, 0, 2).reshape(Jp, N * n)  # (J+1, N n)
    for _ in range(steps + 1):
        t = np.tanh(V.T @ Fm / math.sqrt(m))  # (m, N n)
        R = s * (Q @ t) - Y.ravel()
        losses.append(float(0.5 * np.mean(R**2)))
        if len(losses) > steps:
            break
        R /= Y.size
        gQ = s * (t @ R)
        S = (s * Q)[:, None] * (1 - t**2) * R[None, :]  # (m, N n)
        sv = (Fm @ S.T) / math.sqrt(m)  # (J+1, m): the gradient in Theta_j is sv_j P^T
        V = V - step * lf.pnorm2 * sv
        Q = Q - step * gQ
    return LiftedFNO(V, Q, lf.pnorm2, lf.phis, lf.out_scale), np.array(losses)


def relative_kernel_change(before: LiftedFNO, after: LiftedFNO, U) -> float:
    """``||K_after - K_before||_F / ||K_before||_F`` for the tangent kernel on inputs ``U``."""
    K0, K1 = tangent_kernel(before, U), tangent_kernel(after, U)
    return float(np.linalg.norm(K1 - K0) / np.linalg.norm(K0))


# --------------------------------------------------------------------------- the GD path in lifted coordinates
@dataclass
class LiftedProblem:
    """The square loss of a lifted FNO on a training set, in the coordinates ``w = (V / ||P||, Q)``.

    In these coordinates the loss of the full model is ``L(w)``, gradient descent on the full
    parameters ``theta = (Theta, Q)`` with step ``eta`` is gradient descent on ``w`` with the same step
    (every gradient in ``Theta_j`` is ``s_j P^T``, which moves ``V_j / ||P||`` by ``-eta ||P|| s_j``, the
    gradient in ``V_j / ||P||``), and distances, inner products and curvatures of ``theta``-space
    moves equal those of ``w``-space moves (directions of ``Theta`` orthogonal to ``P`` leave the
    loss unchanged and are never moved).

    Attributes:
        lf: the network (its ``V`` and ``Q`` are the starting point).
        features: ``(J + 1, M)``: the features ``(u_i(x), (Phi_j u_i)(x))`` of the ``M`` training
            pairs ``(i, x)``.
        targets: ``(M,)``.
    """

    lf: LiftedFNO
    features: np.ndarray
    targets: np.ndarray

    @property
    def size(self) -> int:
        return self.lf.V.size + self.lf.Q.size

    def start(self) -> np.ndarray:
        """``w_0 = (V / ||P||, Q)`` flattened."""
        return np.concatenate([(self.lf.V / math.sqrt(self.lf.pnorm2)).ravel(), self.lf.Q])

    def loss_and_gradient(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        """``L(w) = (1 / 2M) sum (G - y)^2`` and its exact gradient in ``w``."""
        lf, m, s = self.lf, self.lf.width, self.lf.out_scale
        pn = math.sqrt(lf.pnorm2)
        V = pn * w[:lf.V.size].reshape(lf.V.shape)
        Q = w[lf.V.size:]
        t = np.tanh(V.T @ self.features / math.sqrt(m))  # (m, M)
        R = s * (Q @ t) - self.targets
        loss = float(0.5 * np.mean(R**2))
        R = R / R.size
        gQ = s * (t @ R)
        S = (s * Q)[:, None] * (1 - t**2) * R[None, :]
        gV = pn * (self.features @ S.T) / math.sqrt(m)
        return loss, np.concatenate([gV.ravel(), gQ])

    def top_curvature(self, w: np.ndarray, rng: np.random.Generator, tol: float = 1e-8) -> float:
        """Largest eigenvalue of the loss Hessian at ``w`` (:func:`top_loss_curvature`)."""
        return top_loss_curvature(self.loss_and_gradient, w, rng, tol)


def top_loss_curvature(loss_and_gradient, w: np.ndarray, rng: np.random.Generator, tol: float = 1e-8) -> float:
    """Largest eigenvalue of the Hessian of a loss at ``w``: Lanczos (scipy ``eigsh``, relative
    tolerance ``tol``) on central differences of its exact gradient ``loss_and_gradient(w)[1]``,
    with step ``1e-5`` relative to the typical entry of ``w``."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    h = 1e-5 * max(1.0, float(np.linalg.norm(w)) / math.sqrt(w.size))

    def hvp(v):
        v = np.ravel(v)
        return (loss_and_gradient(w + h * v)[1] - loss_and_gradient(w - h * v)[1]) / (2 * h)

    op = LinearOperator((w.size, w.size), matvec=hvp, dtype=float)
    return float(eigsh(op, k=1, which="LA", v0=rng.standard_normal(w.size), tol=tol,
                       return_eigenvectors=False)[0])


def lifted_problem(lf: LiftedFNO, U, Y, pairs=None) -> LiftedProblem:
    """The training problem of ``lf`` on inputs ``U`` ``(N, n)`` and targets ``Y`` ``(N, n)``, over all
    grid points or over the ``(i, x)`` pairs listed in ``pairs``."""
    U = np.atleast_2d(np.asarray(U, dtype=float))
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    F = np.concatenate([U[:, None, :], np.einsum("jxy,iy->ijx", lf.phis, U)], axis=1)  # (N, J+1, n)
    if pairs is None:
        feats = F.transpose(1, 0, 2).reshape(F.shape[1], -1)
        targets = Y.ravel()
    else:
        idx, xs = np.asarray(pairs).T
        feats = F[idx, :, xs].T
        targets = Y[idx, xs]
    return LiftedProblem(lf, feats, np.asarray(targets, dtype=float))


def contraction_along_path(problem, omega: float, steps: int, converge_steps: int,
                           rng: np.random.Generator, beta_factor: float = 1.0) -> dict[str, np.ndarray]:
    """The RSC-and-smoothness contraction of gradient descent, measured along its path.

    ``problem`` has ``start()``, ``loss_and_gradient(w)`` and ``top_curvature(w, rng)`` (a
    :class:`LiftedProblem` or a :class:`simulations.nets.deeponet.DeepONetProblem`).  ``beta`` is the largest top curvature of the loss at the first ``steps + 1`` points of the GD
    path with step ``omega / beta`` (found by running that path and raising ``beta`` until it
    covers the curvature the path meets; at most four rounds).  GD with ``eta = omega / beta`` is
    then run for ``converge_steps`` steps to the point ``w*`` it reaches (``L* = L(w*)``), and the
    checked path is its first ``steps`` steps; with ``beta_factor != 1`` (a control) the checked
    path instead uses the wrong constant ``beta' = beta_factor * beta`` (step ``omega / beta'``) and
    so does its bound.  For each checked step ``t``:

    * ``alpha_t = 2 [L* - L_t - <w* - w_t, g_t>] / ||w* - w_t||^2``: the restricted strong convexity
      modulus of the loss at ``w_t`` toward ``w*`` (RSC holds there with any modulus up to it);
    * ``decrease_t = (L_t - L_{t+1}) / (L_t - L*)``: the fraction of the excess loss removed;
    * ``bound_t = omega (2 - omega) alpha_t / beta'``: the fraction that RSC and smoothness
      guarantee, ``L_{t+1} - L* <= (1 - omega (2 - omega) alpha_t / beta)(L_t - L*)``.

    Returns a dict with the arrays ``alpha``, ``decrease``, ``bound``, ``excess`` (``L_t - L*``) and
    the floats ``beta`` (the constant used), ``loss_star``, ``loss_0``.

    Raises:
        ValueError: unless ``omega > 0``, ``beta_factor > 0``, ``steps >= 1`` and
            ``converge_steps > steps``.
    """
    if omega <= 0 or beta_factor <= 0 or steps < 1 or converge_steps <= steps:
        raise ValueError("need omega > 0, beta_factor > 0, steps >= 1 and converge_steps > steps")
    w0 = problem.start()

    def path(eta, count):
        w, points = w0.copy(), [w0.copy()]
        for _ in range(count):
            w = w - eta * problem.loss_and_gradient(w)[1]
            points.append(w.copy())
        return points

    beta = problem.top_curvature(w0, rng)
    for _ in range(4):
        met = max(problem.top_curvature(q, rng) for q in path(omega / beta, steps))
        if met <= beta:
            break
        beta = met
    points = path(omega / beta, converge_steps)
    w_star = points[-1]
    loss_star = problem.loss_and_gradient(w_star)[0]
    used = beta_factor * beta
    checked = points[:steps + 1] if beta_factor == 1.0 else path(omega / used, steps)
    evaluated = [problem.loss_and_gradient(q) for q in checked]
    L = np.array([e[0] for e in evaluated])
    alpha = np.empty(steps)
    for t in range(steps):
        d = w_star - checked[t]
        dd = float(d @ d)
        alpha[t] = 2 * (loss_star - L[t] - d @ evaluated[t][1]) / dd if dd > 0 else np.nan
    excess = L[:steps] - loss_star
    with np.errstate(divide="ignore", invalid="ignore"):
        decrease = (L[:steps] - L[1:steps + 1]) / excess
    return {"alpha": alpha, "decrease": decrease, "bound": omega * (2 - omega) * alpha / used,
            "excess": excess, "beta": used, "loss_star": loss_star, "loss_0": float(L[0])}


# --------------------------------------------------------------------------- law of the Hessian norm
def neuron_hessian_factor(z, f2, r: float = 1.0) -> np.ndarray:
    """``sqrt(m)`` times the spectral norm of neuron ``c``'s 2x2 block of the output Hessian.

    With ``z = z_c`` the neuron's pre-activation, ``f2 = |f|^2`` (the squared norm of the features
    ``(u(x), (Phi_j u)(x))`` at the grid point) and ``r = ||P||^2 / m``: the block is
    ``[[a, b], [b, 0]] / sqrt(m)`` with ``a = +-tanh''(z) f2 r`` and ``b = tanh'(z) sqrt(f2 r)``
    (:func:`output_hessian_norm_closed_form`), so the factor is ``|a|/2 + sqrt(a^2/4 + b^2)``.
    """
    t = np.tanh(np.asarray(z, dtype=float))
    d1 = 1 - t**2
    a = np.abs(2 * t * d1) * f2 * r
    b = d1 * np.sqrt(f2 * r)
    return a / 2 + np.sqrt(a**2 / 4 + b**2)


def hessian_log_max_law(f2_values, widths, quantiles: int = 2**16) -> np.ndarray:
    """``mean_i E log max_{c <= m} h(z_c; f2_i)`` for each width ``m``, with ``z_c`` i.i.d.
    ``N(0, f2_i)`` and ``h`` = :func:`neuron_hessian_factor` at ``r = 1``.

    At initialisation ``z_c ~ N(0, r f2)`` given ``P`` with ``r = ||P||^2 / m -> 1``, so for the
    geometric mean over pairs ``i`` of the output-Hessian norms, ``E log cost = -(1/2) log m`` plus
    this (up to the ``O(1/m)`` effect of ``r``).  The slope of this against ``log m`` is the
    finite-width bias of a rate fit of the cost (``h`` is even in ``z``: the quadrature uses
    ``quantiles`` equal-probability points of ``|N(0, f2)|``).
    """
    from .extremes import expected_log_max_discrete, half_normal_quantiles

    q = half_normal_quantiles(quantiles)
    rows = [expected_log_max_discrete(neuron_hessian_factor(np.sqrt(f2) * q, f2), widths)
            for f2 in np.atleast_1d(f2_values)]
    return np.mean(rows, axis=0)


def pair_feature_norms(phis: np.ndarray, U, xs) -> np.ndarray:
    """``|f|^2`` of the features ``(u_i(x_i), (Phi_j u_i)(x_i))`` for each pair ``(U[i], xs[i])``
    (``phis`` from :func:`fourier_projections`)."""
    U = np.atleast_2d(np.asarray(U, dtype=float))
    F = np.concatenate([U[:, None, :], np.einsum("jxy,iy->ijx", phis, U)], axis=1)
    idx = np.arange(len(xs))
    return np.sum(F[idx, :, np.asarray(xs)] ** 2, axis=1)
