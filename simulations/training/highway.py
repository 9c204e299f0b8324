"""Backpropagation through residual-type sequential models, its path decomposition, and Highway-BP.

Fagnou, Caillon, Delattre & Allauzen, "Accelerated training through iterative gradient
propagation along the residual path" (ICLR 2025, arXiv 2501.17086), Sections 3-4.

A sequential model has layers ``h_i = f_i(h_{i-1})``, ``i = 1..L``, with ``h_0`` the input and a
loss ``sum_i L_i(h_i)`` (intermediate losses allowed, as in RNNs).  Each layer is written
``f_i(x) = r_i(x, g_i(x))`` (eq. 1): an expensive block ``g_i`` and a cheap residual function
``r_i``, so that its Jacobian splits as ``J_i + K_i`` with ``J_i = d_z r_i  d_x g_i`` (the block)
and ``K_i = d_x r_i`` (the residual connection, eq. 2).

Gradients are row vectors, as in the paper: ``grad_i = dL/dh_i`` and the chain rule multiplies on
the right, ``grad_i = e_i + grad_{i+1} (J_{i+1} + K_{i+1})`` with ``e_i = dL_i/dh_i``.

* Theorem 1: ``dL/dh_i`` is the sum over ``j >= i`` and every subset ``S`` of ``{i+1..j}`` of the
  path term ``e_j M_j M_{j-1} ... M_{i+1}`` with ``M_l = J_l`` for ``l`` in ``S`` and ``K_l``
  otherwise (:func:`path_sum`).
* Theorem 2: ``w_i^k``, the sum of the paths through at most ``k`` blocks, satisfies
  ``w_i^0 = sum_j e_j K_j ... K_{i+1}`` and ``w_i^{k+1} = w_i^0 + sum_{j>i} w_j^k J_j K_{j-1} ... K_{i+1}``,
  and ``w_i^k = dL/dh_i`` for ``k >= L - i`` (:func:`highway_bp`).
* Section 4.3 and Algorithm 1: each iteration is a parallel vector-Jacobian product through the
  blocks and a reversed cumulative sum-product along the residual path, computed by Hillis and
  Steele's scan in ``ceil(log2 L)`` rounds (:func:`cumsumprod_scan`).

Layer kinds (Table 1 of the paper):

* ``"preact"``: pre-activation residual block, ``r(x, z) = x + z``, ``g(x) = W2 tanh(W1 x + b)``;
  ``K = I``.
* ``"relu"``: original ResNet, ``r(x, z) = relu(x + z)``; ``K = diag(1[x + g(x) > 0])``.
* ``"gated"``: GRU-like cell (update gate only), ``g(x) = [a(x), b(x)]`` with
  ``a = sigmoid(Wa x + Ua u_i + ca)``, ``b = (1 - a) tanh(Wb x + Ub u_i + cb)`` and
  ``r(x, z) = z1 * x + z2``; ``K = diag(a(x))``.  With ``shared=True`` every layer uses the same weights and its own input
  ``u_i`` (an RNN unrolled over ``L`` time steps).

Units: everything is dimensionless; shapes are given per function.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

KINDS = ("preact", "relu", "gated")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * z))


@dataclass
class ResidualModel:
    """A sequential model of ``L`` layers of one kind, with per-layer quadratic losses.

    Attributes:
        kind: ``"preact"``, ``"relu"`` or ``"gated"`` (see the module docstring).
        weights: one dict of arrays per layer: ``W1 (m, d), b1 (m,), W2 (d, m)`` for the residual
            kinds, ``Wa, Wb (d, d), Ua, Ub (d, p), ca, cb (d,)`` for ``"gated"``.
        inputs: ``(L, p)`` external inputs ``u_i`` of the gated kind (``(L, 0)`` otherwise).
        targets: ``(L, d)`` targets ``y_i`` of the losses ``L_i(h) = c_i ||h - y_i||^2 / 2``.
        loss_weights: ``(L,)`` weights ``c_i >= 0`` (only the last one positive: a loss at the end).
        gamma: splitting parameter of Appendix C.3: the layer is written with
            ``g'(x) = g(x) + gamma x`` and ``r'(x, z) = (1 - gamma) x + z`` for the residual kinds
            (the same function; Highway-BP sees ``K' = (1 - gamma) K``-type splits).  0 = Table 1.
    """

    kind: str
    weights: list[dict[str, np.ndarray]]
    inputs: np.ndarray
    targets: np.ndarray
    loss_weights: np.ndarray
    gamma: float = 0.0
    cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {self.kind!r}")
        if not self.weights:
            raise ValueError("a model needs at least one layer")
        L = len(self.weights)
        if self.targets.shape[0] != L or self.loss_weights.shape != (L,):
            raise ValueError(f"targets must have shape (L, d) and loss_weights (L,) with L = {L}; got "
                             f"{self.targets.shape} and {self.loss_weights.shape}")
        if np.any(self.loss_weights < 0):
            raise ValueError("loss weights must be nonnegative")
        if self.gamma != 0.0 and self.kind == "relu":
            raise ValueError("the gamma split is defined for linear residual functions (preact, gated), not relu")

    @property
    def depth(self) -> int:
        return len(self.weights)

    @property
    def width(self) -> int:
        return self.targets.shape[1]


def init_model(rng: np.random.Generator, kind: str, depth: int, width: int, *, hidden: int | None = None,
               scale: float = 1.0, shared: bool = False, input_dim: int = 2, losses: str = "last",
               gamma: float = 0.0) -> ResidualModel:
    """A random model: Gaussian weights with variance ``scale / fan_in`` (block outputs scaled by
    ``1/sqrt(depth)`` for the residual kinds, so the residual path dominates as in trained ResNets).

    Args:
        rng: the generator.
        kind: ``"preact"``, ``"relu"`` or ``"gated"``.
        depth: number of layers ``L >= 1``; width: state dimension ``d >= 1``.
        hidden: block width ``m`` (default ``2 d``).
        scale: weight variance multiplier (> 0).
        shared: one set of weights for every layer (an RNN).
        input_dim: dimension ``p`` of the gated kind's external inputs.
        losses: ``"last"`` (a loss on ``h_L`` only) or ``"all"`` (one per layer, as in RNN language models).
        gamma: the Appendix C.3 splitting parameter (see :class:`ResidualModel`).

    Raises:
        ValueError: on a bad kind, size or loss mode.
    """
    if depth < 1 or width < 1:
        raise ValueError(f"depth and width must be >= 1, got {depth}, {width}")
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    if losses not in ("last", "all"):
        raise ValueError(f"losses must be 'last' or 'all', not {losses!r}")
    m = hidden or 2 * width

    def layer() -> dict[str, np.ndarray]:
        if kind == "gated":
            s = math.sqrt(scale / width)
            return {"Wa": rng.normal(0, s, (width, width)), "Wb": rng.normal(0, s, (width, width)),
                    "Ua": rng.normal(0, 1 / math.sqrt(max(input_dim, 1)), (width, input_dim)),
                    "Ub": rng.normal(0, 1 / math.sqrt(max(input_dim, 1)), (width, input_dim)),
                    "ca": rng.normal(1.0, 0.5, width), "cb": rng.normal(0, 0.1, width)}
        return {"W1": rng.normal(0, math.sqrt(scale / width), (m, width)), "b1": rng.normal(0, 0.1, m),
                "W2": rng.normal(0, math.sqrt(scale / m) / math.sqrt(depth), (width, m))}

    if shared:
        one = layer()
        weights = [one] * depth
    else:
        weights = [layer() for _ in range(depth)]
    p = input_dim if kind == "gated" else 0
    inputs = rng.normal(size=(depth, p))
    targets = rng.normal(size=(depth, width))
    lw = np.ones(depth) if losses == "all" else np.r_[np.zeros(depth - 1), 1.0]
    return ResidualModel(kind, weights, inputs, targets, lw, gamma=gamma)


def layer_forward(model: ResidualModel, i: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Layer ``i`` (1-based) at input ``x``: ``(f_i(x), J_i, K_i)`` with ``J_i + K_i = df_i/dx``.

    Shapes: ``x (d,)``; returns ``(d,)``, ``(d, d)``, ``(d, d)``.  With ``gamma != 0`` the split is
    ``J' = J + gamma K0``, ``K' = (1 - gamma) K0`` where ``K0`` is the unsplit residual Jacobian
    (``I`` for preact; ``diag(a)`` for gated), so ``J' + K' = J + K``.
    """
    w = model.weights[i - 1]
    d = x.shape[0]
    if model.kind in ("preact", "relu"):
        a = w["W1"] @ x + w["b1"]
        t = np.tanh(a)
        gx = w["W2"] @ t
        dg = w["W2"] @ ((1 - t**2)[:, None] * w["W1"])  # d g / d x, (d, d)
        if model.kind == "preact":
            K0 = np.eye(d)
            out = x + gx
            J = dg
        else:
            pre = x + gx
            mask = (pre > 0).astype(float)
            out = pre * mask
            K0 = np.diag(mask)
            J = mask[:, None] * dg
    else:
        u = model.inputs[i - 1]
        za = w["Wa"] @ x + w["Ua"] @ u + w["ca"]
        zb = w["Wb"] @ x + w["Ub"] @ u + w["cb"]
        ga, tb = _sigmoid(za), np.tanh(zb)
        out = ga * x + (1 - ga) * tb
        K0 = np.diag(ga)
        # x * d a/dx + d b/dx with b = (1 - a) tanh(zb)
        J = (ga * (1 - ga) * (x - tb))[:, None] * w["Wa"] + ((1 - ga) * (1 - tb**2))[:, None] * w["Wb"]
    g = model.gamma
    if g:
        return out, J + g * K0, (1 - g) * K0
    return out, J, K0


@dataclass
class Trace:
    """A forward pass: states ``h (L+1, d)``, block Jacobians ``J (L, d, d)`` (``J[i-1] = J_i``),
    residual Jacobians ``K (L, d, d)`` and loss gradients ``e (L+1, d)`` (``e[0] = 0``)."""

    h: np.ndarray
    J: np.ndarray
    K: np.ndarray
    e: np.ndarray
    loss: float


def forward(model: ResidualModel, x0: np.ndarray) -> Trace:
    """Run the model from ``h_0 = x0 (d,)`` and record what backpropagation needs.

    Raises:
        ValueError: if ``x0`` does not have the model's width.
    """
    d, L = model.width, model.depth
    x0 = np.asarray(x0, dtype=float)
    if x0.shape != (d,):
        raise ValueError(f"x0 must have shape ({d},), got {x0.shape}")
    h = np.zeros((L + 1, d))
    J = np.zeros((L, d, d))
    K = np.zeros((L, d, d))
    h[0] = x0
    for i in range(1, L + 1):
        h[i], J[i - 1], K[i - 1] = layer_forward(model, i, h[i - 1])
    e = np.zeros((L + 1, d))
    e[1:] = model.loss_weights[:, None] * (h[1:] - model.targets)
    loss = 0.5 * float(np.sum(model.loss_weights * np.sum((h[1:] - model.targets) ** 2, axis=1)))
    return Trace(h, J, K, e, loss)


def total_loss(model: ResidualModel, x0: np.ndarray) -> float:
    """The loss ``sum_i c_i ||h_i - y_i||^2 / 2`` of one forward pass (for finite differences)."""
    return forward(model, x0).loss


def backprop(trace: Trace) -> np.ndarray:
    """Exact backpropagation: ``(L+1, d)`` rows ``dL/dh_i``, ``i = 0..L``, by
    ``grad_i = e_i + grad_{i+1} (J_{i+1} + K_{i+1})``."""
    L = trace.J.shape[0]
    g = np.zeros_like(trace.e)
    g[L] = trace.e[L]
    for i in range(L - 1, -1, -1):
        g[i] = trace.e[i] + g[i + 1] @ (trace.J[i] + trace.K[i])
    return g


def path_sum(trace: Trace, i: int, max_blocks: int | None = None, *, min_blocks: int = 0,
             absolute: bool = False) -> np.ndarray:
    """Theorem 1 by enumeration: the sum over ``j >= i`` and subsets ``S`` of ``{i+1..j}`` (with
    ``min_blocks <= |S| <= max_blocks``) of ``e_j M_j ... M_{i+1}``, ``M_l = J_l`` on ``S``, else ``K_l``.

    With ``absolute=True`` the same sum of ``|e_j| |M_j| ... |M_{i+1}|`` (entrywise absolute values):
    the magnitude that bounds the floating-point error of the sum (Higham, *Accuracy and Stability
    of Numerical Algorithms*, 2002, Sec. 3.5: ``|fl(AB) - AB| <= gamma_n |A| |B|``).

    Cost ``O(2^(L-i) d^2)``: meant for ``L - i <= 14``.

    Raises:
        ValueError: if ``i`` is out of ``0..L`` or the enumeration would exceed 2^14 paths.
    """
    L = trace.J.shape[0]
    if not 0 <= i <= L:
        raise ValueError(f"layer index must lie in 0..{L}, got {i}")
    if L - i > 14:
        raise ValueError(f"enumerating 2^{L - i} paths is too many; use L - i <= 14")
    op = np.abs if absolute else (lambda a: a)
    total = np.zeros(trace.e.shape[1])
    for j in range(i, L + 1):
        if not np.any(trace.e[j]):
            continue
        span = range(i + 1, j + 1)
        for mask in itertools.product((False, True), repeat=j - i):
            nb = sum(mask)
            if nb < min_blocks or (max_blocks is not None and nb > max_blocks):
                continue
            row = op(trace.e[j])
            for layer, through_block in zip(reversed(span), reversed(mask), strict=True):
                row = row @ op(trace.J[layer - 1] if through_block else trace.K[layer - 1])
            total += row
    return total


def path_sums_by_blocks(trace: Trace, i: int) -> np.ndarray:
    """The enumeration of :func:`path_sum` grouped by the number of blocks a path goes through:
    row ``b`` is the sum of the paths from the losses to ``h_i`` through exactly ``b`` blocks,
    ``b = 0..L-i``.  Shape ``(L - i + 1, d)``; the cumulative sum over ``b`` gives the truncated sums.

    Raises:
        ValueError: as :func:`path_sum`.
    """
    L = trace.J.shape[0]
    if not 0 <= i <= L:
        raise ValueError(f"layer index must lie in 0..{L}, got {i}")
    if L - i > 14:
        raise ValueError(f"enumerating 2^{L - i} paths is too many; use L - i <= 14")
    out = np.zeros((L - i + 1, trace.e.shape[1]))
    for j in range(i, L + 1):
        if not np.any(trace.e[j]):
            continue
        span = range(i + 1, j + 1)
        for mask in itertools.product((False, True), repeat=j - i):
            row = trace.e[j].copy()
            for layer, through_block in zip(reversed(span), reversed(mask), strict=True):
                row = row @ (trace.J[layer - 1] if through_block else trace.K[layer - 1])
            out[sum(mask)] += row
    return out


def absolute_backprop(trace: Trace) -> np.ndarray:
    """Backpropagation of ``|e|`` through ``|J_l| + |K_l|``: an entrywise upper bound of the sum of
    the absolute path terms, hence (times ``gamma_n``) of the rounding error of any of the
    gradient computations here (Higham 2002, Sec. 3.5).  Shape ``(L+1, d)``."""
    L = trace.J.shape[0]
    g = np.zeros_like(trace.e)
    g[L] = np.abs(trace.e[L])
    for i in range(L - 1, -1, -1):
        g[i] = np.abs(trace.e[i]) + g[i + 1] @ (np.abs(trace.J[i]) + np.abs(trace.K[i]))
    return g


def rounding_allowance(trace: Trace, n: int) -> np.ndarray:
    """Entrywise float64 error allowance ``gamma_n * absolute_backprop(trace)``, ``gamma_n =
    n u / (1 - n u)``, ``u = 2^-53`` (Higham 2002, Lemma 3.1 and Sec. 3.5).

    ``n`` is the length of the longest chain of roundings a computed entry goes through: for a
    product of ``L`` factors of size ``d`` followed by the sum of ``N`` such terms it is at most
    ``L (d + 1) + N``; callers state theirs.  The difference of two computations of the same path
    sum is then within twice the allowance.

    Raises:
        ValueError: if ``n u >= 1``.
    """
    u = 2.0**-53
    if n * u >= 1:
        raise ValueError(f"n = {n} is too large for a rounding bound")
    return (n * u / (1 - n * u)) * absolute_backprop(trace)


def residual_accumulation(v: np.ndarray, K: np.ndarray) -> np.ndarray:
    """The reversed cumulative sum-product along the residual path, sequentially (eq. 9):
    ``u_i = v_i + u_{i+1} K_{i+1}`` for ``i = L-1, ..., 0`` with ``u_L = v_L``.

    Args:
        v: ``(L+1, d)`` rows ``v_0..v_L``.
        K: ``(L, d, d)`` with ``K[l-1] = K_l``.

    Returns:
        ``(L+1, d)`` rows ``u_i = sum_{j >= i} v_j K_j ... K_{i+1}``.
    """
    u = np.array(v, dtype=float, copy=True)
    for i in range(K.shape[0] - 1, -1, -1):
        u[i] = v[i] + u[i + 1] @ K[i]
    return u


def cumsumprod_scan(v: np.ndarray, K: np.ndarray, rounds: int | None = None) -> tuple[np.ndarray, int]:
    """Algorithm 1 (Hillis & Steele's parallel scan, reversed): the same ``u`` as
    :func:`residual_accumulation` in ``ceil(log2(L + 1))`` rounds of element-wise parallel updates
    ``u_i <- u_i + u_{i+s} P_i``, ``P_i <- P_{i+s} P_i`` with ``s = 2^m``, where ``P_i`` starts as
    the one-step factor ``K_{i+1}`` (the paper indexes it ``K``).

    Args:
        v: ``(n, d)`` rows; K: ``(n-1, d, d)`` factors (``n = L + 1`` states).
        rounds: number of doubling rounds to run (default ``ceil(log2 n)``, enough for exactness);
            fewer rounds give the partial scan (for controls).

    Returns:
        ``(u, rounds run)``.
    """
    n, d = v.shape
    if K.shape != (n - 1, d, d):
        raise ValueError(f"K must have shape ({n - 1}, {d}, {d}) for {n} rows, got {K.shape}")
    full = math.ceil(math.log2(n)) if n > 1 else 0
    rounds = full if rounds is None else int(rounds)
    if rounds < 0:
        raise ValueError("rounds must be nonnegative")
    u = np.array(v, dtype=float, copy=True)
    P = np.concatenate([K, np.zeros((1, d, d))])  # P[i] maps row i+1 to row i; nothing beyond the end
    for m in range(rounds):
        s = 2**m
        u_new, P_new = u.copy(), P.copy()
        idx = np.arange(n - s)
        u_new[idx] = u[idx] + np.einsum("ia,iab->ib", u[idx + s], P[idx])
        P_new[idx] = np.einsum("iab,ibc->iac", P[idx + s], P[idx])
        u, P = u_new, P_new
    return u, rounds


def highway_bp(trace: Trace, iterations: int, *, scan: bool = False) -> np.ndarray:
    """Highway-BP (Theorem 2 and Section 4.3): the estimates ``w^k`` for ``k = 0..iterations``.

    ``w^0 = CumSumProd(e, K)``; each iteration computes ``v_i = w_{i+1}^k J_{i+1}`` for every layer
    at once, accumulates ``u = CumSumProd(v, K)`` along the residual path, and sets
    ``w^{k+1} = w^0 + u``.

    Args:
        trace: a forward pass.
        iterations: ``k_max >= 0``.
        scan: accumulate with :func:`cumsumprod_scan` (Algorithm 1) instead of the sequential
            recursion (same numbers up to rounding).

    Returns:
        ``(iterations + 1, L + 1, d)``: ``out[k, i] = w_i^k``.
    """
    if iterations < 0:
        raise ValueError("iterations must be >= 0")
    L, d = trace.J.shape[0], trace.e.shape[1]
    acc = (lambda v: cumsumprod_scan(v, trace.K)[0]) if scan else (lambda v: residual_accumulation(v, trace.K))
    out = np.zeros((iterations + 1, L + 1, d))
    w0 = acc(trace.e)
    out[0] = w0
    for k in range(iterations):
        v = np.zeros((L + 1, d))
        v[:L] = np.einsum("ia,iab->ib", out[k, 1:], trace.J)  # v_i = w_{i+1} J_{i+1}
        out[k + 1] = w0 + acc(v)
    return out


def fixed_point_iteration(trace: Trace, iterations: int) -> np.ndarray:
    """The fixed-point iteration baseline (Wang & Ragni 2021; Section 5.2.1): ``w^0 = e`` and
    ``w_i^{k+1} = e_i + w_{i+1}^k (J_{i+1} + K_{i+1})``, every layer in parallel.

    Returns:
        ``(iterations + 1, L + 1, d)``.
    """
    if iterations < 0:
        raise ValueError("iterations must be >= 0")
    L, d = trace.J.shape[0], trace.e.shape[1]
    out = np.zeros((iterations + 1, L + 1, d))
    out[0] = trace.e
    full = trace.J + trace.K
    for k in range(iterations):
        out[k + 1] = trace.e
        out[k + 1, :L] += np.einsum("ia,iab->ib", out[k, 1:], full)
    return out


def parameter_gradients(model: ResidualModel, trace: Trace, grads: np.ndarray) -> list[dict[str, np.ndarray]]:
    """``dL/dtheta_i = grads_i df_i/dtheta_i`` for the residual kinds (``grads`` may be an estimate
    such as ``w^k``), layer by layer: ``{"W1", "b1", "W2"}``.

    Raises:
        ValueError: for the gated kind or shared weights (not needed by the checks).
    """
    if model.kind == "gated":
        raise ValueError("parameter gradients are implemented for the residual kinds only")
    out = []
    for i in range(1, model.depth + 1):
        w, x, gi = model.weights[i - 1], trace.h[i - 1], grads[i]
        a = w["W1"] @ x + w["b1"]
        t = np.tanh(a)
        if model.kind == "relu":
            gi = gi * (x + w["W2"] @ t > 0)
        dt = (gi @ w["W2"]) * (1 - t**2)
        out.append({"W2": np.outer(gi, t), "W1": np.outer(dt, x), "b1": dt})
    return out


def relative_error(estimate: np.ndarray, exact: np.ndarray) -> float:
    """``||estimate - exact|| / ||exact||`` over all entries (inf if ``exact`` is 0 and they differ)."""
    den = float(np.linalg.norm(exact))
    num = float(np.linalg.norm(np.asarray(estimate) - exact))
    if den == 0.0:
        return 0.0 if num == 0.0 else math.inf
    return num / den
