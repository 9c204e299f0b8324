"""Small ReLU networks in numpy, their linear regions and their local complexity.

A network with widths ``(d, n_1, ..., n_L, 1)`` computes ``z_1 = W_1 x + b_1``,
``z_l = W_l relu(z_{l-1}) + b_l`` and the output ``f(x) = W_out relu(z_L) + b_out``.  Every hidden
neuron's zero set ``{x : z_k(x) = 0}`` is a piece of region boundary (Hanin & Rolnick, ICML 2019).

Local complexity (our reading of Patel & Montufar, "On the local complexity of linear regions in
deep ReLU networks", ICML 2025): the density of region boundaries under the data distribution
``p``,

    LC = sum_k E_{x~p}[ ||grad z_k(x)|| delta(z_k(x)) ] = sum_k  int_{z_k = 0} p dS     (co-area),

estimated two independent ways:

* co-area / kernel: ``sum_k ||grad z_k(x)|| 1{|z_k(x)| < h} / (2h)`` averaged over ``x ~ p``
  (bias ``O(h^2)``);
* Crofton: random segments ``x + t u``, ``x ~ p``, ``u`` uniform on the sphere, ``t`` in
  ``[-L/2, L/2]``; the expected number of boundary crossings is ``c_d * L * LC + O(L^3)`` with
  ``c_d = E|<n, u>| = Gamma(d/2) / (sqrt(pi) Gamma((d+1)/2))``.  Crossings are found exactly by
  walking the segment from one linear region to the next.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class ReLUNet:
    """Weights ``W_l`` of shape ``(n_l, n_{l-1})`` and biases ``b_l``; the last layer is linear.

    ``activation`` is ``"relu"`` (default) or ``"softplus"`` (smooth, for controls), with
    ``sharpness`` beta: ``softplus(z) = log(1 + exp(beta z)) / beta``.
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str = "relu"
    sharpness: float = 1.0

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.biases) or len(self.weights) < 2:
            raise ValueError("a network needs >= 2 layers and one bias per weight matrix")
        for i, (W, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if b.shape != (W.shape[0],):
                raise ValueError(f"bias {i} must have shape ({W.shape[0]},), got {b.shape}")
            if i and W.shape[1] != self.weights[i - 1].shape[0]:
                raise ValueError(f"W_{i + 1} has {W.shape[1]} columns, layer {i} has {self.weights[i - 1].shape[0]} units")
        if self.activation not in ("relu", "softplus"):
            raise ValueError(f"activation must be 'relu' or 'softplus', not {self.activation!r}")

    @property
    def input_dim(self) -> int:
        return self.weights[0].shape[1]

    @property
    def hidden(self) -> list[int]:
        return [W.shape[0] for W in self.weights[:-1]]

    def sigma(self, z):
        if self.activation == "relu":
            return np.maximum(z, 0.0)
        return np.logaddexp(0.0, self.sharpness * z) / self.sharpness


def init_relu_net(widths, rng: np.random.Generator, *, bias_std: float = 0.5,
                  weight_gain: float = math.sqrt(2.0)) -> ReLUNet:
    """He-initialised network: ``W_l ~ N(0, gain^2 / fan_in)``, ``b_l ~ N(0, bias_std^2)``.

    Args:
        widths: ``(d, n_1, ..., n_L, 1)``: input, hidden widths, output.
    """
    widths = [int(w) for w in widths]
    if len(widths) < 3 or min(widths) < 1:
        raise ValueError(f"widths must be (d, n_1, ..., out) with positive entries, got {widths}")
    Ws = [rng.standard_normal((b, a)) * weight_gain / math.sqrt(a) for a, b in zip(widths[:-1], widths[1:], strict=False)]
    bs = [rng.standard_normal(b) * bias_std for b in widths[1:]]
    return ReLUNet(Ws, bs)


def forward(net: ReLUNet, X) -> tuple[np.ndarray, list[np.ndarray]]:
    """Outputs ``(N, out)`` and hidden preactivations (list of ``(N, n_l)``) at inputs ``(N, d)``."""
    X = np.atleast_2d(np.asarray(X, dtype=float))
    if X.shape[1] != net.input_dim:
        raise ValueError(f"inputs must have {net.input_dim} columns, got {X.shape[1]}")
    pre, a = [], X
    for W, b in zip(net.weights[:-1], net.biases[:-1], strict=True):
        z = a @ W.T + b
        pre.append(z)
        a = net.sigma(z)
    return a @ net.weights[-1].T + net.biases[-1], pre


def preactivation_gradients(net: ReLUNet, X) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Hidden preactivations and their input gradients ``grad_x z_k`` (ReLU networks).

    Returns:
        ``(pre, grads)`` with ``pre[l]`` of shape ``(N, n_l)`` and ``grads[l]`` of shape
        ``(N, n_l, d)``; at a kink (``z = 0`` exactly) the ReLU derivative is taken as 0.
    """
    _, pre = forward(net, X)
    N = pre[0].shape[0]
    J = np.broadcast_to(net.weights[0], (N,) + net.weights[0].shape).copy()
    grads = [J]
    for layer in range(1, len(pre)):
        D = (pre[layer - 1] > 0).astype(float)
        masked = D[:, :, None] * grads[-1]  # (N, n_{l-1}, d)
        # One matrix product W_l @ [masked as (n_{l-1}, N d)] instead of a batched einsum.
        n_prev, d = masked.shape[1], masked.shape[2]
        flat = masked.transpose(1, 0, 2).reshape(n_prev, N * d)
        J = (net.weights[layer] @ flat).reshape(-1, N, d).transpose(1, 0, 2)
        grads.append(J)
    return pre, grads


def output_gradient(net: ReLUNet, X) -> np.ndarray:
    """``grad_x f`` of the (scalar) output at each input, shape ``(N, d)`` (ReLU networks)."""
    pre, grads = preactivation_gradients(net, X)
    D = (pre[-1] > 0).astype(float)
    return np.einsum("j,njd->nd", net.weights[-1][0], D[:, :, None] * grads[-1])


def crofton_constant(d: int) -> float:
    """``c_d = E|<n, u>|`` for a unit ``n`` and ``u`` uniform on the sphere S^{d-1}."""
    if d < 1:
        raise ValueError(f"dimension must be >= 1, got {d}")
    return math.exp(math.lgamma(d / 2) - math.lgamma((d + 1) / 2)) / math.sqrt(math.pi)


def coarea_local_complexity(net: ReLUNet, X, bandwidth: float) -> np.ndarray:
    """Per-sample co-area estimates ``sum_k ||grad z_k(x)|| 1{|z_k(x)| < h} / (2h)`` (shape ``(N,)``).

    Their mean estimates LC under the distribution of the rows of ``X`` with bias ``O(h^2)``.
    """
    if bandwidth <= 0:
        raise ValueError(f"bandwidth must be positive, got {bandwidth}")
    pre, grads = preactivation_gradients(net, X)
    total = np.zeros(pre[0].shape[0])
    for z, g in zip(pre, grads, strict=True):
        total += np.sum(np.linalg.norm(g, axis=2) * (np.abs(z) < bandwidth), axis=1) / (2 * bandwidth)
    return total


def first_layer_gaussian_lc(net: ReLUNet) -> float:
    """Exact LC of the first hidden layer under ``x ~ N(0, I_d)``: ``sum_i phi(b_i / ||w_i||)``."""
    W, b = net.weights[0], net.biases[0]
    s = b / np.linalg.norm(W, axis=1)
    return float(np.sum(np.exp(-0.5 * s**2) / math.sqrt(2 * math.pi)))


@dataclass
class SegmentWalk:
    """Breakpoints of a ReLU network along ``x0 + t u``, ``t`` in ``[0, length]``.

    Attributes:
        times: crossing parameters ``t`` in increasing order.
        neurons: ``(layer, index)`` of the neuron whose zero set is crossed at each time.
    """

    times: np.ndarray
    neurons: list[tuple[int, int]]

    @property
    def count(self) -> int:
        return len(self.neurons)


def walk_segment(net: ReLUNet, x0, u, length: float, *, step: float = 1e-9) -> SegmentWalk:
    """Exact boundary crossings along a segment, region by region.

    Inside a linear region every preactivation is affine in ``t``; the next crossing is the
    smallest root ahead of the current position among all hidden neurons.  The activation
    pattern is read a distance ``step`` past each crossing.

    Raises:
        ValueError: for a non-ReLU network or a non-positive length.
    """
    if net.activation != "relu":
        raise ValueError("linear regions are defined for ReLU networks only")
    if length <= 0:
        raise ValueError(f"length must be positive, got {length}")
    x0, u = np.asarray(x0, dtype=float), np.asarray(u, dtype=float)
    t, times, neurons = 0.0, [], []
    hidden = len(net.weights) - 1
    for _ in range(100000):
        te = t + step
        a, da = x0 + te * u, u
        roots = []
        for layer in range(hidden):
            z = net.weights[layer] @ a + net.biases[layer]
            dz = net.weights[layer] @ da
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.where(dz != 0, te - z / dz, np.inf)
            r[r <= te] = np.inf
            k = int(np.argmin(r))
            roots.append((r[k], layer, k))
            on = z > 0
            a, da = np.where(on, z, 0.0), np.where(on, dz, 0.0)
        r, layer, k = min(roots)
        if r > length:
            return SegmentWalk(np.array(times), neurons)
        times.append(r)
        neurons.append((layer, k))
        t = r
    raise RuntimeError("more than 100000 crossings on one segment")


def random_segments(rng: np.random.Generator, n: int, d: int, length: float) -> tuple[np.ndarray, np.ndarray]:
    """Starts ``x - (L/2) u`` and unit directions ``u`` of ``n`` segments centred at ``x ~ N(0, I_d)``."""
    X = rng.standard_normal((n, d))
    U = rng.standard_normal((n, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    return X - 0.5 * length * U, U


def crofton_counts(net: ReLUNet, starts, directions, length: float) -> np.ndarray:
    """Number of boundary crossings on each segment (exact walk)."""
    return np.array([walk_segment(net, s, u, length).count for s, u in zip(starts, directions, strict=True)])


def directional_slopes(net: ReLUNet, x0, u, times, length: float) -> np.ndarray:
    """``d/dt f(x0 + t u)`` on each linear piece between consecutive ``times`` (and the ends),
    from the output gradient at the piece midpoints."""
    edges = np.concatenate([[0.0], np.asarray(times, dtype=float), [length]])
    mids = 0.5 * (edges[:-1] + edges[1:])
    G = output_gradient(net, x0[None, :] + mids[:, None] * u[None, :])
    return G @ u


def gradient_jump_bound(net: ReLUNet) -> float:
    """``prod_l ||W_l||_2`` over all layers: bounds ``||grad f(x+) - grad f(x-)||`` across any
    single-neuron boundary (the jump is ``(W_out D ... W_{l+1} e_k) grad z_k^T``)."""
    return float(np.prod([np.linalg.norm(W, 2) for W in net.weights]))


def smooth_total_variation(net: ReLUNet, x0, u, length: float, n_grid: int = 4001) -> float:
    """Total variation of ``t -> d/dt f(x0 + t u)`` on ``[0, length]`` from a fine grid
    (second differences of ``f``); for smooth activations."""
    t = np.linspace(0.0, length, n_grid)
    f, _ = forward(net, x0[None, :] + t[:, None] * u[None, :])
    slopes = np.diff(f[:, 0]) / np.diff(t)
    return float(np.sum(np.abs(np.diff(slopes))))


def mean_and_standard_error(values) -> tuple[float, float]:
    """Sample mean and its standard error ``s / sqrt(n)``."""
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        raise ValueError("need at least two values for a standard error")
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size))


# --------------------------------------------------------------------------- low-dimensional data
def restrict_to_subspace(net: ReLUNet, basis) -> ReLUNet:
    """The network seen on the subspace spanned by the orthonormal columns of ``basis``.

    ``x = basis @ y`` with ``y`` in ``R^k``: the returned network computes ``f(basis @ y)``
    (first weight matrix ``W_1 basis``), so its local complexity under ``y ~ p`` is the boundary
    density of ``f`` on data supported on that ``k``-dimensional subspace, with gradients taken
    along the data.  The same network applied to full-dimensional data through the rank-``k``
    first layer ``W_1 basis basis^T`` has the same local complexity (its preactivations depend
    on ``x`` only through ``basis^T x``).

    Args:
        basis: ``(d, k)`` with orthonormal columns, ``1 <= k <= d``.

    Raises:
        ValueError: wrong row count or columns not orthonormal (tolerance 1e-8).
    """
    Q = np.asarray(basis, dtype=float)
    if Q.ndim != 2 or Q.shape[0] != net.input_dim or not 1 <= Q.shape[1] <= Q.shape[0]:
        raise ValueError(f"basis must have shape ({net.input_dim}, k) with 1 <= k <= "
                         f"{net.input_dim}, got {Q.shape}")
    if not np.allclose(Q.T @ Q, np.eye(Q.shape[1]), atol=1e-8):
        raise ValueError("basis columns must be orthonormal")
    return ReLUNet([net.weights[0] @ Q] + [W.copy() for W in net.weights[1:]],
                   [b.copy() for b in net.biases], net.activation, net.sharpness)


# --------------------------------------------------------------------------- training
def squared_loss_gradients(net: ReLUNet, X, y) -> tuple[float, list[np.ndarray], list[np.ndarray]]:
    """Loss ``(1 / 2N) sum_i (f(x_i) - y_i)^2`` and its exact gradients (backpropagation).

    Args:
        X: inputs ``(N, d)``; y: targets ``(N,)``.

    Returns:
        ``(loss, grad_weights, grad_biases)`` with the shapes of ``net.weights`` / ``net.biases``.
        At a kink the ReLU derivative is taken as 0 (as in :func:`preactivation_gradients`).
    """
    if net.activation != "relu":
        raise ValueError("squared_loss_gradients is written for ReLU networks")
    X = np.atleast_2d(np.asarray(X, dtype=float))
    y = np.asarray(y, dtype=float).ravel()
    if y.size != X.shape[0]:
        raise ValueError(f"{X.shape[0]} inputs but {y.size} targets")
    acts, pres, a = [X], [], X
    for W, b in zip(net.weights[:-1], net.biases[:-1], strict=True):
        z = a @ W.T + b
        pres.append(z)
        a = np.maximum(z, 0.0)
        acts.append(a)
    residual = (a @ net.weights[-1].T + net.biases[-1])[:, 0] - y
    delta = residual[:, None] / y.size
    gW, gb = [None] * len(net.weights), [None] * len(net.weights)
    for layer in range(len(net.weights) - 1, -1, -1):
        gW[layer] = delta.T @ acts[layer]
        gb[layer] = delta.sum(axis=0)
        if layer:
            delta = (delta @ net.weights[layer]) * (pres[layer - 1] > 0)
    return float(0.5 * np.mean(residual**2)), gW, gb


def train_adam(net: ReLUNet, X, y, steps: int, step_size: float = 3e-3, weight_decay: float = 0.0,
               betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8) -> tuple[ReLUNet, np.ndarray]:
    """Full-batch Adam (Kingma & Ba 2015) on :func:`squared_loss_gradients`, with weight decay
    ``(lambda / 2) sum_l ||W_l||_F^2`` added to the loss on the weight matrices (not the biases).

    Returns:
        the trained network (a new object) and the data losses ``L_0..L_{steps-1}`` (before each
        update, without the decay term).
    """
    if steps < 0 or step_size <= 0 or weight_decay < 0:
        raise ValueError("need steps >= 0, step_size > 0 and weight_decay >= 0")
    Ws = [W.copy() for W in net.weights]
    bs = [b.copy() for b in net.biases]
    params = Ws + bs
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1, b2 = betas
    losses = []
    for t in range(1, steps + 1):
        loss, gW, gb = squared_loss_gradients(ReLUNet(Ws, bs), X, y)
        losses.append(loss)
        grads = [g + weight_decay * W for g, W in zip(gW, Ws, strict=True)] + gb
        for p, g, mi, vi in zip(params, grads, m, v, strict=True):
            mi *= b1
            mi += (1 - b1) * g
            vi *= b2
            vi += (1 - b2) * g * g
            p -= step_size * (mi / (1 - b1**t)) / (np.sqrt(vi / (1 - b2**t)) + eps)
    return ReLUNet(Ws, bs), np.array(losses)


def regression_task(rng: np.random.Generator, n: int, d: int, kind: str = "single_index",
                    frequency: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Inputs ``x ~ N(0, I_d)`` (``(n, d)``) and targets ``(n,)``.

    ``kind="single_index"``: ``y = sin(frequency <u, x>)`` with ``u`` uniform on the sphere (a
    target with one relevant direction: low-dimensional structure).  ``kind="random_labels"``:
    ``y ~ N(0, 1)`` independent of ``x`` (no structure).  ``kind="shuffled_labels"``: the
    single-index targets permuted at random over the inputs (the same label values, their
    relation to ``x`` destroyed; the permutation is the ranking of the noise draw).  All kinds
    draw ``X``, ``u`` and the noise in the same order, so one generator gives the same inputs
    for any kind.
    """
    if kind not in ("single_index", "random_labels", "shuffled_labels"):
        raise ValueError(f"kind must be 'single_index', 'random_labels' or 'shuffled_labels', not {kind!r}")
    if n < 1 or d < 1:
        raise ValueError(f"need n, d >= 1, got {n}, {d}")
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    noise = rng.standard_normal(n)
    if kind == "random_labels":
        return X, noise
    y = np.sin(frequency * X @ u)
    return X, (y if kind == "single_index" else y[np.argsort(noise)])
