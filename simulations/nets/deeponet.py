"""A small DeepONet in numpy with exact gradients, Hessian-vector products and Hessian block norms.

An input function ``u`` is seen through its values at ``s`` sensors (a vector in ``R^s``); a query
point ``y`` in ``R^d`` is extended by a constant ``1`` (the trunk bias) to ``yhat`` in ``R^{d+1}``.
The branch and the trunk are one-hidden-layer tanh networks of width ``m`` with ``K`` outputs:

    f(u) = h * A_b tanh(W_b u / sqrt(s)),          (branch, R^K)
    g(y) = h * A_t tanh(W_t yhat / sqrt(d + 1)),   (trunk,  R^K)
    G(u)(y) = (1 / sqrt(K)) sum_k f_k(u) g_k(y),

with ``h = 1/sqrt(m)`` (NTK parametrisation) or ``h = 1`` (standard), all weights ``N(0, 1)``.
The parameters are ``theta = (W_b, A_b, W_t, A_t)`` (flat in that order, row-major).  This is the
DeepONet (Lu, Jin, Pang, Zhang & Karniadakis, Nature Machine Intelligence 2021) in the form
analysed by Cisneros-Velarde, Shrimali & Banerjee ("Optimization for neural operators can
benefit from width", ICML 2025): the output Hessian in ``theta`` splits into the branch block
``(1/sqrt K) sum_k g_k d^2 f_k``, the trunk block ``(1/sqrt K) sum_k f_k d^2 g_k`` and the
branch-trunk cross block ``C = (1/sqrt K) sum_k grad f_k grad g_k^T``.  The first two are
``O(m^{-1/2})`` under the NTK parametrisation; the cross block is a product of first derivatives,
which do not shrink with the width: its norm is ``(1/sqrt K) ||K_f^{1/2} K_g^{1/2}||_2`` with
``K_f, K_g`` the ``K x K`` tangent kernels of the two nets (:func:`hessian_block_norms`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

_SCALES = ("ntk", "standard")


@dataclass
class DeepONet:
    """Parameters of the DeepONet of the module docstring.

    Attributes:
        Wb: branch hidden weights ``(m, s)``; Ab: branch output weights ``(K, m)``;
        Wt: trunk hidden weights ``(m, d + 1)`` (last column: the bias); At: ``(K, m)``;
        hidden_scale: ``h = 1/sqrt(m)`` (NTK) or ``1`` (standard).
    """

    Wb: np.ndarray
    Ab: np.ndarray
    Wt: np.ndarray
    At: np.ndarray
    hidden_scale: float

    @property
    def width(self) -> int:
        return self.Wb.shape[0]

    @property
    def basis(self) -> int:
        return self.Ab.shape[0]

    @property
    def sensors(self) -> int:
        return self.Wb.shape[1]

    def flat(self) -> np.ndarray:
        return np.concatenate([self.Wb.ravel(), self.Ab.ravel(), self.Wt.ravel(), self.At.ravel()])

    def with_flat(self, w: np.ndarray) -> DeepONet:
        w = np.asarray(w, dtype=float)
        if w.size != self.flat().size:
            raise ValueError(f"flat parameter vector must have {self.flat().size} entries, got {w.size}")
        parts, start = [], 0
        for a in (self.Wb, self.Ab, self.Wt, self.At):
            parts.append(w[start:start + a.size].reshape(a.shape).copy())
            start += a.size
        return DeepONet(*parts, self.hidden_scale)

    def split(self, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """A flat vector in parameter space as ``(dWb, dAb, dWt, dAt)``."""
        parts, start = [], 0
        for a in (self.Wb, self.Ab, self.Wt, self.At):
            parts.append(np.asarray(v[start:start + a.size]).reshape(a.shape))
            start += a.size
        return tuple(parts)

    @property
    def branch_size(self) -> int:
        """Number of branch parameters (the first entries of :meth:`flat`)."""
        return self.Wb.size + self.Ab.size


def hidden_scale(width: int, parametrization: str) -> float:
    """``1/sqrt(m)`` for ``"ntk"``, ``1`` for ``"standard"``."""
    if parametrization not in _SCALES:
        raise ValueError(f"parametrization must be one of {_SCALES}, not {parametrization!r}")
    return 1 / math.sqrt(width) if parametrization == "ntk" else 1.0


def init_deeponet(width: int, sensors: int, basis: int, rng: np.random.Generator, *,
                  query_dim: int = 1, parametrization: str = "ntk") -> DeepONet:
    """A DeepONet with all weights i.i.d. ``N(0, 1)``: width ``m``, ``s`` sensors, ``K`` basis
    functions, queries in ``R^query_dim``.  Raises ValueError for non-positive sizes."""
    if min(width, sensors, basis, query_dim) < 1:
        raise ValueError("width, sensors, basis and query_dim must all be >= 1")
    h = hidden_scale(width, parametrization)
    return DeepONet(rng.standard_normal((width, sensors)), rng.standard_normal((basis, width)),
                    rng.standard_normal((width, query_dim + 1)), rng.standard_normal((basis, width)), h)


def _yhat(net: DeepONet, y) -> np.ndarray:
    y = np.atleast_1d(np.asarray(y, dtype=float))
    if y.shape[-1] != net.Wt.shape[1] - 1:
        raise ValueError(f"query points must have {net.Wt.shape[1] - 1} coordinates, got shape {y.shape}")
    return np.concatenate([y, np.ones(y.shape[:-1] + (1,))], axis=-1)


def _check_u(net: DeepONet, u) -> np.ndarray:
    u = np.asarray(u, dtype=float)
    if u.shape[-1] != net.sensors:
        raise ValueError(f"input functions must have {net.sensors} sensor values, got shape {u.shape}")
    return u


def _branch_pre(net: DeepONet, U) -> np.ndarray:
    return _check_u(net, U) @ net.Wb.T / math.sqrt(net.sensors)


def _trunk_pre(net: DeepONet, ys) -> np.ndarray:
    yh = _yhat(net, ys)
    return yh @ net.Wt.T / math.sqrt(yh.shape[-1])


def branch(net: DeepONet, U) -> np.ndarray:
    """Branch outputs ``f(u_i)``: ``U`` of shape ``(N, s)`` -> ``(N, K)``."""
    return net.hidden_scale * np.tanh(_branch_pre(net, np.atleast_2d(U))) @ net.Ab.T


def trunk(net: DeepONet, ys) -> np.ndarray:
    """Trunk outputs ``g(y_j)``: ``ys`` of shape ``(M, d)`` -> ``(M, K)``."""
    ys = np.asarray(ys, dtype=float)
    ys = ys.reshape(-1, net.Wt.shape[1] - 1)
    return net.hidden_scale * np.tanh(_trunk_pre(net, ys)) @ net.At.T


def deeponet_forward(net: DeepONet, U, ys) -> np.ndarray:
    """``G(u_i)(y_j)`` for every input and query point, shape ``(N, M)``."""
    return branch(net, U) @ trunk(net, ys).T / math.sqrt(net.basis)


def _point(net: DeepONet, u, y):
    """Per-point quantities: activations and derivatives of both nets at one (u, y)."""
    u = _check_u(net, u).ravel()
    yh = _yhat(net, y).ravel()
    zb = net.Wb @ u / math.sqrt(u.size)
    zt = net.Wt @ yh / math.sqrt(yh.size)
    tb, tt = np.tanh(zb), np.tanh(zt)
    h = net.hidden_scale
    f, g = h * net.Ab @ tb, h * net.At @ tt
    return u, yh, tb, tt, f, g


def output_gradient(net: DeepONet, u, y) -> np.ndarray:
    """Exact gradient of the scalar output ``G(u)(y)`` in the parameters (order of :meth:`flat`),
    by backpropagation: ``dG/dA_b = c g tanh(z_b)^T h``, ``dG/dW_b = c h (A_b^T g) tanh'(z_b)
    u^T / sqrt(s)`` (``c = 1/sqrt K``), and symmetrically for the trunk."""
    u, yh, tb, tt, f, g = _point(net, u, y)
    c, h = 1 / math.sqrt(net.basis), net.hidden_scale
    gAb = c * h * np.outer(g, tb)
    gWb = c * h * np.outer((net.Ab.T @ g) * (1 - tb**2), u) / math.sqrt(u.size)
    gAt = c * h * np.outer(f, tt)
    gWt = c * h * np.outer((net.At.T @ f) * (1 - tt**2), yh) / math.sqrt(yh.size)
    return np.concatenate([gWb.ravel(), gAb.ravel(), gWt.ravel(), gAt.ravel()])


def loss(net: DeepONet, U, ys, Y) -> float:
    """``(1 / (2 N M)) sum_ij (G(u_i)(y_j) - Y_ij)^2``."""
    return float(0.5 * np.mean((deeponet_forward(net, U, ys) - Y) ** 2))


def loss_gradient(net: DeepONet, U, ys, Y) -> np.ndarray:
    """Exact gradient of :func:`loss` (order of :meth:`DeepONet.flat`), batched backprop."""
    U = np.atleast_2d(np.asarray(U, dtype=float))
    ys = np.asarray(ys, dtype=float).reshape(-1, net.Wt.shape[1] - 1)
    c, h = 1 / math.sqrt(net.basis), net.hidden_scale
    Tb = np.tanh(_branch_pre(net, U))  # (N, m)
    Tt = np.tanh(_trunk_pre(net, ys))  # (M, m)
    F, Gt = h * Tb @ net.Ab.T, h * Tt @ net.At.T  # (N, K), (M, K)
    R = (c * F @ Gt.T - Y) / np.size(Y)  # dL/dG, (N, M)
    dF, dGt = c * R @ Gt, c * R.T @ F  # dL/df_i (N, K), dL/dg_j (M, K)
    gAb = h * dF.T @ Tb
    gAt = h * dGt.T @ Tt
    Sb = h * (dF @ net.Ab) * (1 - Tb**2)  # (N, m)
    St = h * (dGt @ net.At) * (1 - Tt**2)
    yh = _yhat(net, ys)
    gWb = Sb.T @ U / math.sqrt(U.shape[1])
    gWt = St.T @ yh / math.sqrt(yh.shape[1])
    return np.concatenate([gWb.ravel(), gAb.ravel(), gWt.ravel(), gAt.ravel()])


def output_hvp(net: DeepONet, u, y, v: np.ndarray) -> np.ndarray:
    """Exact Hessian-vector product ``(d^2 G(u)(y) / d theta^2) v`` (order of :meth:`flat`).

    With ``df = J_f v_b``, ``dg = J_g v_t`` and ``d^2 f = h [2 dA_b (tanh' * dz_b) + A_b (tanh'' *
    dz_b^2)]`` (``dz_b = dW_b u / sqrt(s)``), the quadratic form is ``v^T H v = c (g . d^2 f + 2 df .
    dg + f . d^2 g)``; this returns its gradient in ``v`` divided by 2.
    """
    u, yh, tb, tt, f, g = _point(net, u, y)
    c, h = 1 / math.sqrt(net.basis), net.hidden_scale
    dWb, dAb, dWt, dAt = net.split(np.ravel(v))
    sides = []
    for x, tz, A, dW, dA in ((u, tb, net.Ab, dWb, dAb), (yh, tt, net.At, dWt, dAt)):
        r = math.sqrt(x.size)
        d1, d2 = 1 - tz**2, -2 * tz * (1 - tz**2)
        dz = dW @ x / r
        tangent = h * (dA @ tz + A @ (d1 * dz))  # J v of this net's outputs, (K,)
        sides.append((x, r, tz, A, dA, d1, d2, dz, tangent))
    blocks = []
    # each side with its weight vector w (the other net's outputs) and the other net's tangent
    for (x, r, tz, A, dA, d1, d2, dz, _), w, dother in ((sides[0], g, sides[1][8]),
                                                       (sides[1], f, sides[0][8])):
        HA = h * (np.outer(w, d1 * dz) + np.outer(dother, tz))
        s = h * ((dA.T @ w) * d1 + (A.T @ w) * d2 * dz + d1 * (A.T @ dother))
        blocks += [np.outer(s, x) / r, HA]
    return c * np.concatenate([b.ravel() for b in blocks])


def output_hessian_norm(net: DeepONet, u, y, rng: np.random.Generator, tol: float = 1e-10) -> float:
    """Spectral norm of the full output Hessian by Lanczos (scipy ``eigsh``) on :func:`output_hvp`."""
    from scipy.sparse.linalg import LinearOperator, eigsh

    size = net.flat().size
    op = LinearOperator((size, size), matvec=lambda v: output_hvp(net, u, y, np.ravel(v)), dtype=float)
    vals = eigsh(op, k=1, which="LM", v0=rng.standard_normal(size), tol=tol, return_eigenvectors=False)
    return float(abs(vals[0]))


def hessian_block_norms(net: DeepONet, u, y) -> dict[str, float]:
    """Spectral norms of the three blocks of ``d^2 G(u)(y) / d theta^2`` in closed form.

    Branch block: only ``delta = dW_b u/|u|`` and ``e = dA_b^T g/|g|`` enter its quadratic form,
    which splits into ``m`` independent 2x2 blocks ``[[alpha_c, beta_c], [beta_c, 0]]`` with
    ``alpha_c = c h r^2 (A_b^T g)_c tanh''(z_c)``, ``beta_c = c h r |g| tanh'(z_c)``, ``r = |u| /
    sqrt(s)``; its norm is ``max_c |alpha_c|/2 + sqrt(alpha_c^2/4 + beta_c^2)``.  Trunk block: the
    same with ``(yhat, f)`` in place of ``(u, g)``.  Cross block ``C = c J_f^T J_g``:
    ``||C|| = c ||K_f^{1/2} K_g^{1/2}||`` with ``K_f = J_f J_f^T = h^2 (|tanh z_b|^2 I + r^2 A_b
    diag(tanh'^2) A_b^T)`` and ``K_g`` likewise.

    Returns ``{"branch", "trunk", "cross"}``; the full norm lies between the largest of them and
    ``max(branch, trunk) + cross``.  :func:`hessian_block_norms_batch` does many points at once.
    """
    out = hessian_block_norms_batch(net, np.atleast_2d(u), np.reshape(y, (1, -1)))
    return {k: float(v[0]) for k, v in out.items()}


def hessian_block_norms_batch(net: DeepONet, U, ys) -> dict[str, np.ndarray]:
    """:func:`hessian_block_norms` for the pairs ``(U[i], ys[i])`` (``U`` ``(N, s)``, ``ys``
    ``(N, d)``); returns arrays of length ``N``."""
    U = np.atleast_2d(_check_u(net, U))
    ys = np.asarray(ys, dtype=float).reshape(U.shape[0], net.Wt.shape[1] - 1)
    yh = _yhat(net, ys)
    c, h = 1 / math.sqrt(net.basis), net.hidden_scale
    Tb, Tt = np.tanh(_branch_pre(net, U)), np.tanh(_trunk_pre(net, ys))  # (N, m)
    F, Gt = h * Tb @ net.Ab.T, h * Tt @ net.At.T  # (N, K)
    out: dict[str, np.ndarray] = {}
    roots = []
    for name, X, T, A, W in (("branch", U, Tb, net.Ab, Gt), ("trunk", yh, Tt, net.At, F)):
        r = np.linalg.norm(X, axis=1) / math.sqrt(X.shape[1])  # (N,)
        d1, d2 = 1 - T**2, -2 * T * (1 - T**2)
        alpha = c * h * (r**2)[:, None] * (W @ A) * d2
        beta = c * h * (r * np.linalg.norm(W, axis=1))[:, None] * d1
        out[name] = np.max(np.abs(alpha) / 2 + np.sqrt(alpha**2 / 4 + beta**2), axis=1)
        kern = h**2 * (np.sum(T**2, axis=1)[:, None, None] * np.eye(A.shape[0])
                       + (r**2)[:, None, None] * np.stack([(A * d) @ A.T for d in d1**2]))
        w, V = np.linalg.eigh(kern)
        roots.append((V * np.sqrt(np.clip(w, 0.0, None))[:, None, :]) @ np.swapaxes(V, 1, 2))
    out["cross"] = c * np.linalg.norm(roots[0] @ roots[1], ord=2, axis=(1, 2))
    return out


def tangent_kernel(net: DeepONet, U, ys) -> np.ndarray:
    """Neural tangent kernel over all parameters on the pairs ``(u_i, y_j)`` (row-major ``i, j``),
    shape ``(N M, N M)``: ``K[(i,j),(i',j')] = (1/K) [g_j^T K_f(u_i,u_i') g_j' + f_i^T K_g(y_j,y_j')
    f_i']`` with the branch kernel ``K_f(u,u') = h^2 (tanh z_b . tanh z_b' I + (u.u'/s) A_b
    diag(tanh'(z_b) tanh'(z_b')) A_b^T)`` (and the trunk one likewise)."""
    U = np.atleast_2d(np.asarray(U, dtype=float))
    ys = np.asarray(ys, dtype=float).reshape(-1, net.Wt.shape[1] - 1)
    h = net.hidden_scale
    Tb, Tt = np.tanh(_branch_pre(net, U)), np.tanh(_trunk_pre(net, ys))
    F, Gt = h * Tb @ net.Ab.T, h * Tt @ net.At.T
    yh = _yhat(net, ys)
    # Jacobian of f (N, K, P_b) contracted pairwise without forming it:
    # <J_f(u_i)[k], J_f(u_i')[k']> = h^2 [delta_kk' Tb_i . Tb_i' + (u_i.u_i'/s) sum_c A_kc A_k'c d1_ic d1_i'c]
    D1b, D1t = 1 - Tb**2, 1 - Tt**2
    # contract with the partner outputs directly: weights w_ij = g_j for the branch part
    ab = np.einsum("kc,jk->jc", net.Ab, Gt)  # (M, m): (A_b^T g_j)
    at = np.einsum("kc,ik->ic", net.At, F)  # (N, m): (A_t^T f_i)
    N, M = F.shape[0], Gt.shape[0]
    branch_part = (h**2 * ((Tb @ Tb.T)[:, None, :, None] * (Gt @ Gt.T)[None, :, None, :]
                           + ((U @ U.T) / U.shape[1])[:, None, :, None]
                           * np.einsum("ic,jc,pc,qc->ijpq", D1b, ab, D1b, ab, optimize=True)))
    trunk_part = (h**2 * ((Tt @ Tt.T)[None, :, None, :] * (F @ F.T)[:, None, :, None]
                          + ((yh @ yh.T) / yh.shape[1])[None, :, None, :]
                          * np.einsum("jc,ic,qc,pc->ijpq", D1t, at, D1t, at, optimize=True)))
    return ((branch_part + trunk_part) / net.basis).reshape(N * M, N * M)


def _tanh_kernel_limit(r: float, nodes: int = 80) -> float:
    """``E[tanh(r xi)^2] + r^2 E[tanh'(r xi)^2]`` for ``xi ~ N(0, 1)`` (Gauss-Hermite quadrature)."""
    x, w = np.polynomial.hermite_e.hermegauss(nodes)
    w = w / w.sum()
    t = np.tanh(r * x)
    return float(w @ (t**2) + r**2 * (w @ (1 - t**2) ** 2))


def cross_block_limit(u, y, basis: int) -> float:
    """Infinite-width limit of the cross-block norm ``||C||`` of :func:`hessian_block_norms` (NTK
    parametrisation, ``K = basis`` fixed): the branch kernel ``K_f = (1/m)(|tanh z_b|^2 I + r^2 A_b
    diag(tanh'^2) A_b^T)`` tends to ``kappa(r) I`` with ``kappa(r) = E tanh(r xi)^2 + r^2 E
    tanh'(r xi)^2``, ``r = |u| / sqrt(s)`` (``z_b`` has i.i.d. ``N(0, r^2)`` entries), and likewise
    the trunk kernel with ``r = |yhat| / sqrt(d + 1)``; so ``||C|| -> sqrt(kappa_f kappa_g / K)``,
    positive and independent of the width."""
    if basis < 1:
        raise ValueError(f"basis must be >= 1, got {basis}")
    u = np.asarray(u, dtype=float).ravel()
    yh = np.append(np.atleast_1d(np.asarray(y, dtype=float)).ravel(), 1.0)
    rf, rg = np.linalg.norm(u) / math.sqrt(u.size), np.linalg.norm(yh) / math.sqrt(yh.size)
    return math.sqrt(_tanh_kernel_limit(rf) * _tanh_kernel_limit(rg) / basis)


# --------------------------------------------------------------------------- law of the block norms
def block_neuron_cdf(t, r: float, z_quantiles: int = 1024) -> np.ndarray:
    """Distribution function at ``t`` of the per-neuron factor of a within-net Hessian block.

    The branch block of :func:`hessian_block_norms` is ``c |g| m^{-1/2} max_c h(xi_c, z_c)`` with
    ``h(xi, z) = |xi| r^2 |tanh''(z)|/2 + sqrt(xi^2 r^4 tanh''(z)^2/4 + r^2 tanh'(z)^2)``, where at
    initialisation ``xi_c = (A_b^T g)_c / |g| ~ N(0, 1)`` and ``z_c ~ N(0, r^2)``, all independent
    (``r = |u| / sqrt(s)``; the trunk block likewise with ``r = |yhat| / sqrt(d + 1)``).  Since ``h``
    increases with ``|xi|``: ``h <= t`` iff ``t > b`` and ``|xi| <= (t^2 - b^2) / (t a)`` with
    ``a = r^2 |tanh''(z)|``, ``b = r tanh'(z)``; the expectation over ``z`` uses ``z_quantiles``
    equal-probability points of ``|N(0, r^2)|`` (``h`` is even in ``z``).
    """
    from scipy.special import ndtr

    from .extremes import half_normal_quantiles

    z = r * half_normal_quantiles(z_quantiles)
    th = np.tanh(z)
    a = r**2 * np.abs(2 * th * (1 - th**2))
    b = r * (1 - th**2)
    t = np.atleast_1d(np.asarray(t, dtype=float))[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        xi = np.where(a > 0, (t**2 - b**2) / (t * a), np.inf)
    p = np.where(t > b, 2 * ndtr(xi) - 1, 0.0)
    return p.mean(axis=1)


def block_log_max_law(r: float, widths, grid: int = 1500) -> np.ndarray:
    """``E log max_{c <= m} h(xi_c, z_c)`` (:func:`block_neuron_cdf`) for each width ``m``."""
    from .extremes import expected_log_max_from_cdf

    widths = np.atleast_1d(widths)
    th = np.tanh(r * np.linspace(0, 12, 20001))
    a_max = float(np.max(r**2 * np.abs(2 * th * (1 - th**2))))
    hi = 10 * a_max + r  # |xi| <= 10 carries all but 2e-23 of the mass
    lo = 1e-3 * r
    t = np.geomspace(lo, hi, grid)
    F = block_neuron_cdf(t, r)
    # start where the smallest width's maximum has no mass left below
    start = max(0, int(np.searchsorted(F ** float(widths.min()), 1e-300)) - 1)
    return expected_log_max_from_cdf(t[start:], F[start:], widths)


# --------------------------------------------------------------------------- the GD path
@dataclass
class DeepONetProblem:
    """The square loss :func:`loss` of a DeepONet on a training grid, as a function of the flat
    parameter vector (the interface of :func:`simulations.nets.operators.contraction_along_path`).

    Attributes:
        net: the network at the start; U: ``(N, s)`` inputs; ys: ``(M, d)`` queries; Y: ``(N, M)``.
    """

    net: DeepONet
    U: np.ndarray
    ys: np.ndarray
    Y: np.ndarray

    def start(self) -> np.ndarray:
        return self.net.flat()

    def loss_and_gradient(self, w: np.ndarray) -> tuple[float, np.ndarray]:
        """The loss and its exact gradient at the parameters ``w``."""
        net = self.net.with_flat(w)
        return loss(net, self.U, self.ys, self.Y), loss_gradient(net, self.U, self.ys, self.Y)

    def top_curvature(self, w: np.ndarray, rng: np.random.Generator, tol: float = 1e-8) -> float:
        """Largest eigenvalue of the loss Hessian at ``w`` (Lanczos on gradient differences)."""
        from .operators import top_loss_curvature

        return top_loss_curvature(self.loss_and_gradient, w, rng, tol)
