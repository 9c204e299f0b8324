"""Local-loss training with a BP-modified offset, in the linear-Gaussian (Ornstein-Uhlenbeck) model
of stochastic gradient descent near a minimum.

Ren & Li, "BP-Modified Local Loss for Efficient Training of Deep Neural Networks" (ICLR 2025,
OpenReview MtW30ql5Oj).  The paper's text could not be read; the algorithm is our reading of its
abstract and public reviews: the local-loss gradient ``g_LL`` is corrected by an offset
``Delta g = g_BP - g_LL`` computed by backpropagation on a separate, smaller mini-batch (size ``B'``)
and refreshed every ``K`` steps ("lazy update"), scaled by a modification strength ``alpha``:

    theta_{t+1} = theta_t - eta (g_LL(theta_t; batch_t) + alpha * Delta g_{tau(t)}),  tau(t) = K floor(t/K).

Model (our reading of the paper's stochastic-modified-equation analysis, which reviewers describe
as an Ornstein-Uhlenbeck model): per-sample gradients ``g_BP = H (theta - theta*) + zeta`` and
``g_LL = g_BP + b + nu`` (a local loss whose gradient is biased by ``b`` with extra noise ``nu``),
``zeta ~ N(0, S)``, ``nu ~ N(0, S_nu)`` independent.  The offset on ``B'`` fresh samples is
``-b - mean(nu')``.  Then ``x_t = theta_t - theta_bar`` obeys a linear recursion with a white noise of
covariance ``(S + S_nu)/B`` and a noise of covariance ``alpha^2 S_nu / B'`` held for ``K`` steps;
the stationary mean is ``theta_bar = theta* - (1 - alpha) H^-1 b`` and the period-averaged excess
loss is exactly

    E L(theta) - L* = (1 - alpha)^2 b^T H^-1 b / 2 + V_white + alpha^2 V_offset(K, B'),

minimised at ``alpha* = (b^T H^-1 b / 2) / (b^T H^-1 b / 2 + V_offset)``: the offset trades bias for
variance.  ``L(theta) = (theta - theta*)^T H (theta - theta*) / 2``.

A small network trained with greedy local losses (:class:`LocalNet`, :func:`train_local`) runs the
same update on real local and BP gradients.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg


@dataclass
class LocalLossModel:
    """The linear-Gaussian local-loss model.

    Attributes:
        H: ``(d, d)`` positive definite Hessian of the BP loss; b: ``(d,)`` local-gradient bias;
        S: ``(d, d)`` per-sample BP gradient noise covariance; S_nu: ``(d, d)`` extra local noise;
        eta: step size (``eta lambda_max(H) < 2``); batch: ``B``; offset_batch: ``B'``;
        period: ``K`` (offset refreshed every K steps).
    """

    H: np.ndarray
    b: np.ndarray
    S: np.ndarray
    S_nu: np.ndarray
    eta: float
    batch: int
    offset_batch: int
    period: int

    def __post_init__(self) -> None:
        d = self.b.size
        for name in ("H", "S", "S_nu"):
            if getattr(self, name).shape != (d, d):
                raise ValueError(f"{name} must have shape ({d}, {d})")
        lam = np.linalg.eigvalsh(self.H)
        if lam[0] <= 0:
            raise ValueError("H must be positive definite")
        if not 0 < self.eta * lam[-1] < 2:
            raise ValueError(f"eta lambda_max(H) = {self.eta * lam[-1]:.3g} must lie in (0, 2) for stability")
        if min(self.batch, self.offset_batch, self.period) < 1:
            raise ValueError("batch sizes and period must be >= 1")

    @property
    def dim(self) -> int:
        return self.b.size


def random_model(rng: np.random.Generator, dim: int, *, eta: float = 0.2, batch: int = 8, offset_batch: int = 2,
                 period: int = 4, bias_scale: float = 0.3) -> LocalLossModel:
    """A random instance: Hessian eigenvalues uniform in [0.5, 2] in a random basis, Wishart noise
    covariances of unit scale, bias ``b`` Gaussian of scale ``bias_scale``."""
    Q, R = np.linalg.qr(rng.normal(size=(dim, dim)))
    Q = Q * np.sign(np.diag(R))
    H = (Q * rng.uniform(0.5, 2.0, dim)) @ Q.T
    G1, G2 = rng.normal(size=(dim, dim)), rng.normal(size=(dim, dim))
    return LocalLossModel(H, bias_scale * rng.normal(size=dim), G1 @ G1.T / dim, G2 @ G2.T / dim, eta, batch,
                          offset_batch, period)


def stationary_mean_offset(model: LocalLossModel, alpha: float) -> np.ndarray:
    """``theta_bar - theta* = -(1 - alpha) H^-1 b``."""
    return -(1 - alpha) * np.linalg.solve(model.H, model.b)


def bias_term(model: LocalLossModel) -> float:
    """``b^T H^-1 b / 2``: the excess loss of the stationary mean at ``alpha = 0``."""
    return 0.5 * float(model.b @ np.linalg.solve(model.H, model.b))


def white_variance(model: LocalLossModel) -> float:
    """``tr(H P)/2`` with ``P = A P A^T + eta^2 (S + S_nu)/B``, ``A = I - eta H`` (discrete Lyapunov)."""
    A = np.eye(model.dim) - model.eta * model.H
    P = linalg.solve_discrete_lyapunov(A, model.eta**2 * (model.S + model.S_nu) / model.batch)
    return 0.5 * float(np.trace(model.H @ P))


def offset_variance(model: LocalLossModel) -> float:
    """The period-averaged ``tr(H P)/2`` of the response to a unit-strength offset noise
    ``N(0, S_nu/B')`` redrawn every ``K`` steps and held in between (the coefficient of ``alpha^2``).

    With ``A = I - eta H`` and the held noise ``c``: over one period
    ``x_{tau+j} = A^j x_tau + eta (I + A + ... + A^{j-1}) c``; the covariance at the refresh times
    solves ``P_0 = A^K P_0 A^{K,T} + C_K Q C_K^T`` with ``C_j = eta sum_{i<j} A^i``, ``Q = S_nu/B'``, and
    the phase ``j`` covariance is ``A^j P_0 A^{j,T} + C_j Q C_j^T``.
    """
    d, K = model.dim, model.period
    A = np.eye(d) - model.eta * model.H
    Q = model.S_nu / model.offset_batch
    powers = [np.eye(d)]
    for _ in range(K):
        powers.append(A @ powers[-1])
    C = [model.eta * sum(powers[:j], np.zeros((d, d))) for j in range(K + 1)]
    P0 = linalg.solve_discrete_lyapunov(powers[K], C[K] @ Q @ C[K].T)
    total = 0.0
    for j in range(K):
        Pj = powers[j] @ P0 @ powers[j].T + C[j] @ Q @ C[j].T
        total += 0.5 * float(np.trace(model.H @ Pj))
    return total / K


def excess_loss(model: LocalLossModel, alpha: float) -> float:
    """The exact period-averaged stationary excess loss ``(1-alpha)^2 B + V_white + alpha^2 V_offset``."""
    return (1 - alpha) ** 2 * bias_term(model) + white_variance(model) + alpha**2 * offset_variance(model)


def optimal_alpha(model: LocalLossModel) -> float:
    """``alpha* = B / (B + V_offset)``: the minimiser of :func:`excess_loss` over ``alpha``."""
    B, V = bias_term(model), offset_variance(model)
    return B / (B + V)


def simulate_excess(model: LocalLossModel, alphas: np.ndarray, rng: np.random.Generator, *, chains: int,
                    burn_in: int, window: int, same_batch: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo of the algorithm: ``chains`` independent runs from ``theta = theta*`` for each
    ``alpha`` (common random numbers across the alphas), ``burn_in`` steps (a multiple of ``K``), then
    the loss ``L(theta_t) - L*`` averaged over the next ``window`` steps (a multiple of ``K``) per chain.

    Per step each chain draws the local mini-batch's noise ``mean over B of (zeta + nu)``; at refresh
    steps the offset is ``-b - mean over B' of nu'``, from fresh samples, or, with ``same_batch=True``,
    from the first ``B'`` samples of the local mini-batch (the split-batch assumption dropped).

    Returns:
        ``(mean, standard error)`` of the per-chain averages, one entry per alpha.

    Raises:
        ValueError: if burn_in or window is not a positive multiple of the period.
    """
    K, d, B, Bp = model.period, model.dim, model.batch, model.offset_batch
    if burn_in % K or window % K or window <= 0:
        raise ValueError("burn_in and window must be multiples of the period K (window > 0)")
    alphas = np.asarray(alphas, dtype=float)
    Ls = np.linalg.cholesky(model.S + 1e-15 * np.eye(d))
    Ln = np.linalg.cholesky(model.S_nu + 1e-15 * np.eye(d))
    x = np.zeros((alphas.size, d, chains))  # theta - theta*
    acc = np.zeros((alphas.size, chains))
    c = np.zeros((alphas.size, d, chains))
    for t in range(burn_in + window):
        if same_batch:
            z = rng.normal(size=(B, d, chains))
            n = rng.normal(size=(B, d, chains))
            zeta = np.einsum("ij,bjc->ic", Ls, z) / B
            nus = np.einsum("ij,bjc->bic", Ln, n)
            nu = nus.sum(0) / B
            nu_off = nus[:Bp].sum(0) / Bp
        else:
            # means of B i.i.d. samples: Gaussian with covariance / B (exact)
            zeta = Ls @ rng.normal(size=(d, chains)) / np.sqrt(B)
            nu = Ln @ rng.normal(size=(d, chains)) / np.sqrt(B)
            nu_off = Ln @ rng.normal(size=(d, chains)) / np.sqrt(Bp)
        if t % K == 0:
            c = (-model.b[:, None] - nu_off)[None, :, :] * np.ones((alphas.size, 1, 1))
        g_ll = np.einsum("ij,ajc->aic", model.H, x) + (model.b[:, None] + zeta + nu)[None]
        x = x - model.eta * (g_ll + alphas[:, None, None] * c)
        if t >= burn_in:
            acc += 0.5 * np.einsum("aic,ij,ajc->ac", x, model.H, x)
    per_chain = acc / window
    return per_chain.mean(1), per_chain.std(1, ddof=1) / np.sqrt(chains)


# --------------------------------------------------------------------------- a small network
@dataclass
class LocalNet:
    """A tanh MLP of ``len(hidden)`` blocks, ``h_k = tanh(W_k h_{k-1} + c_k)``, a linear output
    ``y_hat = W_out h_K + c_out``, and one linear auxiliary head ``A_k`` per hidden block for its local
    loss ``|A_k h_k + a_k - y|^2 / 2`` (greedy local learning with auxiliary heads, as in GIM or
    LoCo).  The output layer's local loss is the global loss."""

    W: list[np.ndarray]
    c: list[np.ndarray]
    A: list[np.ndarray]
    a: list[np.ndarray]

    def copy(self) -> LocalNet:
        return LocalNet([w.copy() for w in self.W], [v.copy() for v in self.c], [w.copy() for w in self.A],
                        [v.copy() for v in self.a])


def init_local_net(rng: np.random.Generator, d_in: int, hidden: tuple[int, ...], d_out: int) -> LocalNet:
    """Gaussian weights of variance 1/fan_in, zero biases."""
    sizes = (d_in, *hidden, d_out)
    W = [rng.normal(0, 1 / np.sqrt(a), (b, a)) for a, b in zip(sizes[:-1], sizes[1:], strict=True)]
    c = [np.zeros(b) for b in sizes[1:]]
    A = [rng.normal(0, 1 / np.sqrt(h), (d_out, h)) for h in hidden]
    a = [np.zeros(d_out) for _ in hidden]
    return LocalNet(W, c, A, a)


def _forward(net: LocalNet, X: np.ndarray) -> list[np.ndarray]:
    hs = [X]
    for k in range(len(net.W) - 1):
        hs.append(np.tanh(hs[-1] @ net.W[k].T + net.c[k]))
    return hs


def global_loss(net: LocalNet, X: np.ndarray, Y: np.ndarray) -> float:
    """``mean |y_hat - y|^2 / 2`` over the rows of ``X (N, d_in)``, ``Y (N, d_out)``."""
    out = _forward(net, X)[-1] @ net.W[-1].T + net.c[-1]
    return 0.5 * float(np.mean(np.sum((out - Y) ** 2, axis=1)))


def block_gradients(net: LocalNet, X: np.ndarray, Y: np.ndarray) -> tuple[list, list, list]:
    """Per block ``k``: the BP gradient of the global loss and the local gradient (through block
    ``k`` only, from its auxiliary head) with respect to ``(W_k, c_k)``, and the auxiliary heads'
    gradients.  Returns ``(bp, local, heads)``: lists of ``(gW, gc)`` pairs (the output layer's local
    gradient is its BP gradient)."""
    N = X.shape[0]
    hs = _forward(net, X)
    K = len(net.W) - 1
    err = (hs[-1] @ net.W[-1].T + net.c[-1] - Y) / N
    bp = [None] * (K + 1)
    bp[K] = (err.T @ hs[-1], err.sum(0))
    back = err @ net.W[-1]
    for k in range(K - 1, -1, -1):
        dz = back * (1 - hs[k + 1] ** 2)
        bp[k] = (dz.T @ hs[k], dz.sum(0))
        back = dz @ net.W[k]
    local, heads = [None] * (K + 1), []
    local[K] = bp[K]
    for k in range(K):
        e = (hs[k + 1] @ net.A[k].T + net.a[k] - Y) / N
        heads.append((e.T @ hs[k + 1], e.sum(0)))
        dz = (e @ net.A[k]) * (1 - hs[k + 1] ** 2)
        local[k] = (dz.T @ hs[k], dz.sum(0))
    return bp, local, heads


def train_local(net: LocalNet, X: np.ndarray, Y: np.ndarray, rng: np.random.Generator, *, steps: int, lr: float,
                batch: int, alpha: float, period: int = 1, offset_batch: int | None = None,
                mode: str = "modified") -> LocalNet:
    """Train with local losses, the BP-modified offset, or BP.

    ``mode="modified"``: each hidden block steps along ``g_LL + alpha * Delta`` where
    ``Delta = g_BP - g_LL`` is computed on ``offset_batch`` separate samples every ``period`` steps and
    held in between (``alpha = 0``: plain local-loss training); ``mode="bp"``: end-to-end BP.  The
    auxiliary heads always follow their local losses; the output layer follows the global loss.
    """
    if mode not in ("modified", "bp"):
        raise ValueError("mode must be 'modified' or 'bp'")
    net = net.copy()
    N = X.shape[0]
    K = len(net.W) - 1
    offset = None
    for t in range(steps):
        idx = rng.choice(N, size=batch, replace=False)
        bp, local, heads = block_gradients(net, X[idx], Y[idx])
        if mode == "modified" and alpha != 0 and t % period == 0:
            jdx = rng.choice(N, size=offset_batch or batch, replace=False)
            bp2, local2, _ = block_gradients(net, X[jdx], Y[jdx])
            offset = [(g[0] - h[0], g[1] - h[1]) for g, h in zip(bp2[:K], local2[:K], strict=True)]
        for k in range(K + 1):
            if mode == "bp" or k == K:
                gW, gc = bp[k]
            else:
                gW, gc = local[k]
                if alpha != 0:
                    gW, gc = gW + alpha * offset[k][0], gc + alpha * offset[k][1]
            net.W[k] -= lr * gW
            net.c[k] -= lr * gc
        for k in range(K):
            net.A[k] -= lr * heads[k][0]
            net.a[k] -= lr * heads[k][1]
    return net


def teacher_regression(rng: np.random.Generator, n: int, d_in: int = 8, d_out: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Inputs ``N(0, I)`` ``(n, d_in)`` and targets ``(n, d_out)`` of a random two-hidden-layer tanh teacher
    (widths 16, gains 1.5): a task a greedy layer-wise learner cannot fit as well as end-to-end training."""
    X = rng.normal(size=(n, d_in))
    W1 = rng.normal(size=(16, d_in)) / np.sqrt(d_in)
    W2 = rng.normal(size=(16, 16)) / 4
    W3 = rng.normal(size=(d_out, 16)) / 4
    return X, np.tanh(np.tanh(1.5 * X @ W1.T) @ W2.T * 1.5) @ W3.T * 2
