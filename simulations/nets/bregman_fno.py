"""Deep one-dimensional Fourier neural operators, standard and Bregman, trained in numpy.

A network maps an input function ``a`` sampled on a periodic grid of ``n`` points to an output
function on the same grid.  It lifts ``a`` pointwise to ``w`` channels, applies ``L`` Fourier
blocks and projects pointwise back to one channel.  A block acts with a spectral convolution
``K`` (channel mixing on the first ``modes`` Fourier modes, complex weights ``R``), a pointwise
channel mixing ``W`` and a bias ``b``.  With ``sigma`` the activation and ``v_0`` the lifted input:

* ``"standard"`` (Li et al., ICLR 2021):  ``x_0 = v_0``, ``x_{l+1} = sigma(K_l x_l + W_l x_l + b_l)``;
* ``"bregman"`` (Mezidi et al., "A Bregman proximal viewpoint on neural operators", ICML 2025):
  ``x_0 = sigma(v_0)``, ``x_{l+1} = sigma(sigma^{-1}(x_l) + K_l x_l + W_l x_l + b_l)``, computed on
  the pre-activations ``z_{l+1} = z_l + K_l x_l + W_l x_l + b_l`` (``z_0 = v_0``, ``x_l = sigma(z_l)``),
  as the authors' code does;
* ``"euclidean"`` (the same paper's Euclidean-proximal variant): ``x_0 = v_0``,
  ``x_{l+1} = sigma(x_l + K_l x_l + W_l x_l + b_l)``.

As in the authors' code (``github.com/armezidi/bregmano``, ``neuralop/layers/fno_block.py``) the last
block is not activated: the projection reads its pre-activation.  Bregman blocks start at
``K = W = 0, b = 0`` (the network is then the identity on its lifted input); standard and Euclidean
blocks start at the neuraloperator defaults (spectral weights ``N(0, 2 / (w + w))`` split evenly
between real and imaginary parts, ``W`` and ``b`` uniform on ``+-1/sqrt(w)``).  Lifting and
projection are linear (the paper's lifting/projection MLPs are simplified to one linear map).

The activation is softplus ``sigma(z) = log(1 + e^{beta z}) / beta`` (the paper's experiments; the
authors' code uses ``beta = 1000`` unless told otherwise), whose inverse on ``(0, inf)`` is
``z = x + log(1 - e^{-beta x}) / beta``.  Training minimises the relative L2 error with Adam
(Kingma & Ba 2015); gradients are exact (hand-written backpropagation, checked against finite
differences in the unit tests).  The data come from the viscous Burgers equation, solved exactly by
the Cole-Hopf transform (:func:`burgers_cole_hopf`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

ARCHITECTURES = ("standard", "bregman", "euclidean")


def softplus(z, beta: float = 1.0):
    """``log(1 + e^{beta z}) / beta``, evaluated without overflow."""
    z = np.asarray(z, dtype=float)
    return np.maximum(z, 0.0) + np.log1p(np.exp(-beta * np.abs(z))) / beta


def softplus_derivative(z, beta: float = 1.0):
    """``sigma'(z) = 1 / (1 + e^{-beta z})``, evaluated without overflow or underflow to 0."""
    z = np.asarray(z, dtype=float)
    e = np.exp(-beta * np.abs(z))
    return np.where(z >= 0, 1.0, e) / (1.0 + e)


def softplus_inverse(x, beta: float = 1.0):
    """``z = x + log(1 - e^{-beta x}) / beta`` for ``x > 0`` (the inverse of :func:`softplus`).

    Raises:
        ValueError: if some ``x <= 0`` (outside the range of softplus).
    """
    x = np.asarray(x, dtype=float)
    if np.any(x <= 0):
        raise ValueError("softplus_inverse needs x > 0 (the range of softplus)")
    return x + np.log(-np.expm1(-beta * x)) / beta


# --------------------------------------------------------------------------- data
def burgers_cole_hopf(U0, viscosity: float, time: float) -> np.ndarray:
    """Exact solution at ``time`` of ``u_t + u u_x = viscosity u_xx`` on the periodic unit interval.

    Cole-Hopf: ``u = -2 nu phi_x / phi`` with ``phi`` solving the heat equation ``phi_t = nu phi_xx``
    from ``phi_0 = exp(-(1/(2 nu)) int_0^x u_0)``; the heat flow is applied exactly in Fourier space.

    Args:
        U0: initial conditions, shape ``(N, n)`` (rows: functions on the grid ``x_j = j/n``); each row
            must have zero mean (so that ``phi_0`` is periodic).
        viscosity: ``nu > 0``.
        time: ``t >= 0``.

    Returns:
        ``u(t)``, shape ``(N, n)``.  The result is spectrally accurate when ``phi_0`` is resolved by
        the grid (its Fourier coefficients decay to rounding level before ``n/2``).

    Raises:
        ValueError: for non-positive viscosity, negative time or rows with non-zero mean.
    """
    U0 = np.atleast_2d(np.asarray(U0, dtype=float))
    if viscosity <= 0 or time < 0:
        raise ValueError("need viscosity > 0 and time >= 0")
    if np.max(np.abs(U0.mean(axis=1))) > 1e-10 * max(1.0, float(np.max(np.abs(U0)))):
        raise ValueError("initial conditions must have zero mean on the periodic grid")
    n = U0.shape[1]
    k = 2 * np.pi * np.fft.rfftfreq(n, d=1.0 / n)
    c = np.fft.rfft(U0, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(k > 0, c / (1j * k), 0.0)
    primitive = np.fft.irfft(c, n=n, axis=1)  # zero-mean antiderivative of u_0
    exponent = -primitive / (2 * viscosity)
    phi0 = np.exp(exponent - exponent.max(axis=1, keepdims=True))  # constant factors cancel in u
    ph = np.fft.rfft(phi0, axis=1) * np.exp(-viscosity * k**2 * time)
    phi = np.fft.irfft(ph, n=n, axis=1)
    phi_x = np.fft.irfft(1j * k * ph, n=n, axis=1)
    return -2 * viscosity * phi_x / phi


def burgers_dataset(rng: np.random.Generator, count: int, n: int, *, viscosity: float, time: float,
                    length_scale: float = 0.1, fine: int = 1024) -> tuple[np.ndarray, np.ndarray]:
    """``count`` pairs ``(u_0, u(time))`` of the viscous Burgers equation on a grid of ``n`` points.

    Initial conditions are periodic Gaussian random fields with squared-exponential spectrum
    (length scale ``length_scale``, zero mean, unit mean square), solved on a grid of ``fine``
    points by :func:`burgers_cole_hopf` and sampled at every ``fine // n``-th point.

    Raises:
        ValueError: if ``fine`` is not a multiple of ``n``.
    """
    if fine % n:
        raise ValueError(f"fine grid {fine} must be a multiple of n = {n}")
    kf = np.fft.rfftfreq(fine, d=1.0 / fine)
    amp = np.exp(-0.25 * (2 * np.pi * kf * length_scale) ** 2)
    coef = (rng.standard_normal((count, kf.size)) + 1j * rng.standard_normal((count, kf.size))) * amp
    coef[:, 0] = 0.0
    U0 = np.fft.irfft(coef, n=fine, axis=1)
    U0 /= np.sqrt(np.mean(U0**2, axis=1, keepdims=True))
    UT = burgers_cole_hopf(U0, viscosity, time)
    step = fine // n
    return U0[:, ::step].copy(), UT[:, ::step].copy()


# --------------------------------------------------------------------------- model
@dataclass
class FNO1d:
    """Parameters of a deep 1-D FNO (module docstring).

    Attributes:
        architecture: ``"standard"``, ``"bregman"`` or ``"euclidean"``.
        params: list of arrays, in order ``lift_w (w,)``, ``lift_b (w,)``, then per block
            ``R (modes, w, w)`` complex, ``W (w, w)``, ``b (w,)``, then ``proj_w (w,)``,
            ``proj_b (1,)``.  ``W[o, i]`` maps input channel ``i`` to output channel ``o``;
            ``R[m, i, o]`` likewise for Fourier mode ``m``.
        beta: the softplus sharpness (default 1000, the authors' default).
    """

    architecture: str
    params: list[np.ndarray]
    beta: float = 1000.0

    @property
    def depth(self) -> int:
        return (len(self.params) - 4) // 3

    @property
    def width(self) -> int:
        return self.params[0].size

    @property
    def modes(self) -> int:
        return self.params[2].shape[0]

    def block(self, layer: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        i = 2 + 3 * layer
        return self.params[i], self.params[i + 1], self.params[i + 2]

    def copy(self) -> FNO1d:
        return FNO1d(self.architecture, [p.copy() for p in self.params], self.beta)


def init_fno1d(width: int, modes: int, depth: int, rng: np.random.Generator,
               architecture: str = "standard", zero_blocks: bool | None = None,
               beta: float = 1000.0) -> FNO1d:
    """A random FNO as initialised by the authors' code (module docstring).

    Args:
        zero_blocks: start every block at ``K = W = 0, b = 0``; default: only for ``"bregman"``
            (the authors' choice); ``False`` draws Bregman blocks as the standard ones.

    Raises:
        ValueError: for an unknown architecture or non-positive sizes.
    """
    if architecture not in ARCHITECTURES:
        raise ValueError(f"architecture must be one of {ARCHITECTURES}, not {architecture!r}")
    if min(width, modes, depth) < 1:
        raise ValueError("width, modes and depth must be >= 1")
    bound = 1 / math.sqrt(width)
    params = [rng.uniform(-1, 1, width), rng.uniform(-1, 1, width)]  # lifting from one channel
    std = math.sqrt(2 / (2 * width))
    if zero_blocks is None:
        zero_blocks = architecture == "bregman"
    for _ in range(depth):
        if zero_blocks:
            params += [np.zeros((modes, width, width), dtype=complex), np.zeros((width, width)),
                       np.zeros(width)]
        else:
            R = (rng.standard_normal((modes, width, width))
                 + 1j * rng.standard_normal((modes, width, width))) * (std / math.sqrt(2))
            params += [R, rng.uniform(-bound, bound, (width, width)), rng.uniform(-bound, bound, width)]
    params += [rng.uniform(-bound, bound, width), rng.uniform(-bound, bound, 1)]
    return FNO1d(architecture, params, beta)


@lru_cache(maxsize=16)
def _fourier_matrices(n: int, modes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Real matrices of the truncated ``rfft`` and of ``irfft`` on the first ``modes`` modes.

    ``rfft(x)[m] = x @ Fc[:, m] + i x @ Fs[:, m]`` and ``irfft(Y)`` (zero beyond ``modes``)
    ``= Re(Y) @ Gc + Im(Y) @ Gs`` with ``Gc[m] = c_m cos / n``, ``Gs[m] = -c_m sin / n``, ``c_0 = 1``,
    ``c_m = 2`` (the imaginary part of the mean mode is dropped, as ``irfft`` does).
    """
    if not 1 <= modes <= n // 2:
        raise ValueError(f"modes must be in 1..{n // 2} (below the Nyquist mode), got {modes}")
    angle = 2 * np.pi * np.outer(np.arange(n), np.arange(modes)) / n  # (n, modes)
    c = np.where(np.arange(modes) == 0, 1.0, 2.0)
    return np.cos(angle), -np.sin(angle), (c[:, None] * np.cos(angle).T) / n, (-c[:, None] * np.sin(angle).T) / n


def _spectral(x: np.ndarray, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``K x`` for ``x`` of shape ``(B, n, w)`` (channels last); also returns ``rfft(x)`` on the kept
    modes, laid out as ``(modes, B, w)``."""
    Fc, Fs, Gc, Gs = _fourier_matrices(x.shape[1], R.shape[0])
    X = (Fc.T @ x + 1j * (Fs.T @ x)).transpose(1, 0, 2)  # (modes, B, w_in)
    Y = (X @ R).transpose(1, 0, 2)  # (B, modes, w_out)
    return Gc.T @ Y.real + Gs.T @ Y.imag, X


def _spectral_backward(G: np.ndarray, X: np.ndarray, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradients of ``<G, K x>`` in ``x`` and in ``R`` (``R`` as ``d/dRe + i d/dIm``): with
    ``y = Re(Y) Gc + Im(Y) Gs``, the gradient in ``Y`` is ``G Gc^T + i G Gs^T``; the product rule for
    ``Y = X R`` (gradient ``conj(factor) x gradient``) and the adjoint of the truncated ``rfft``
    follow."""
    Fc, Fs, Gc, Gs = _fourier_matrices(G.shape[1], R.shape[0])
    GY = (Gc @ G + 1j * (Gs @ G)).transpose(1, 0, 2)  # (modes, B, w_out)
    gR = np.conj(X).transpose(0, 2, 1) @ GY  # (modes, w_in, w_out)
    GX = (GY @ np.conj(R).transpose(0, 2, 1)).transpose(1, 0, 2)  # (B, modes, w_in)
    return Fc @ GX.real + Fs @ GX.imag, gR


def _activate(s: np.ndarray, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """``(softplus(s), softplus'(s))`` from one exponential."""
    e = np.exp(-beta * np.abs(s))
    return np.maximum(s, 0.0) + np.log1p(e) / beta, np.where(s >= 0, 1.0, e) / (1.0 + e)


def fno_forward(net: FNO1d, A: np.ndarray, keep: bool = False):
    """Outputs for inputs ``A`` of shape ``(B, n)``: shape ``(B, n)``; with ``keep`` also the
    intermediate values needed by :func:`fno_backward`.  Hidden states are stored channels last,
    ``(B, n, w)``."""
    A = np.atleast_2d(np.asarray(A, dtype=float))
    p = net.params
    z = A[:, :, None] * p[0] + p[1]  # lifted input v_0, (B, n, w)
    L = net.depth
    arch = net.architecture
    # slope[l]: softplus' at the pre-activation that produced x_l (Bregman: z_l) or, for the other
    # architectures, at the pre-activation of block l (which produced x_{l+1})
    cache = {"A": A, "slope": [], "x": [], "X": []}
    if arch == "bregman":
        x, d = _activate(z, net.beta)
    else:
        x, d = z, None
    for layer in range(L):
        R, W, b = net.block(layer)
        Kx, X = _spectral(x, R)
        s = Kx + x @ W.T + b
        cache["x"].append(x)
        cache["X"].append(X)
        if arch == "bregman":
            cache["slope"].append(d)
            s += z
            z = s
        elif arch == "euclidean":
            s += x
        if layer < L - 1:
            x, d = _activate(s, net.beta)
            if arch != "bregman":
                cache["slope"].append(d)
        else:
            x = s
    out = x @ p[-2] + p[-1][0]
    cache["last"] = x
    return (out, cache) if keep else out


def fno_backward(net: FNO1d, cache: dict, G: np.ndarray) -> list[np.ndarray]:
    """Gradients (same order and shapes as ``net.params``; complex ones as ``d/dRe + i d/dIm``) of
    ``sum(G * fno_forward(net, A))``."""
    p = net.params
    L = net.depth
    grads: list[np.ndarray] = [np.zeros_like(q) for q in p]
    w = p[0].size
    grads[-2] = G.reshape(-1) @ cache["last"].reshape(-1, w)
    grads[-1] = np.array([G.sum()])
    g = G[:, :, None] * p[-2]  # gradient in the last block's output (pre-activation), (B, n, w)
    arch = net.architecture
    for layer in reversed(range(L)):
        R, W, b = net.block(layer)
        x, X = cache["x"][layer], cache["X"][layer]
        if arch == "bregman" or layer == L - 1:
            gs = g  # Bregman: g is the gradient in z_{l+1}; last block: no activation
        else:
            gs = g * cache["slope"][layer]
        i = 2 + 3 * layer
        gx, grads[i] = _spectral_backward(gs, X, R)
        g2 = gs.reshape(-1, w)
        grads[i + 1] = g2.T @ x.reshape(-1, w)
        grads[i + 2] = g2.sum(axis=0)
        gx += gs @ W
        if arch == "bregman":
            g = gs + gx * cache["slope"][layer]  # gradient in z_l
        elif arch == "euclidean":
            g = gx + gs
        else:
            g = gx
    # g is now the gradient in z_0 (Bregman) or in v_0 (others): v_0 = lift_w a + lift_b
    grads[0] = cache["A"].reshape(-1) @ g.reshape(-1, w)
    grads[1] = g.reshape(-1, w).sum(axis=0)
    return grads


def relative_l2(pred: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Per-function relative L2 error ``||pred_i - target_i|| / ||target_i||``."""
    return np.linalg.norm(pred - target, axis=-1) / np.linalg.norm(target, axis=-1)


def loss_and_gradient(net: FNO1d, A: np.ndarray, Y: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Mean relative L2 error over the batch and its exact gradient in the parameters."""
    pred, cache = fno_forward(net, A, keep=True)
    diff = pred - Y
    rn = np.linalg.norm(diff, axis=1)
    yn = np.linalg.norm(Y, axis=1)
    loss = float(np.mean(rn / yn))
    G = diff / (np.maximum(rn, 1e-300) * yn)[:, None] / Y.shape[0]
    return loss, fno_backward(net, cache, G)


def train_adam(net: FNO1d, A: np.ndarray, Y: np.ndarray, rng: np.random.Generator, *, steps: int,
               batch: int, lr: float, betas: tuple[float, float] = (0.9, 0.999),
               eps: float = 1e-8) -> tuple[FNO1d, np.ndarray]:
    """Adam on the mean relative L2 error with minibatches drawn without replacement per epoch.

    Returns the trained copy of ``net`` and the training losses of the minibatches (length
    ``steps``).  Complex parameters are updated on their real and imaginary parts separately.
    """
    if steps < 0 or batch < 1 or lr <= 0:
        raise ValueError("need steps >= 0, batch >= 1 and lr > 0")
    net = net.copy()
    views = [q.view(np.float64) if np.iscomplexobj(q) else q for q in net.params]
    m1 = [np.zeros_like(v) for v in views]
    m2 = [np.zeros_like(v) for v in views]
    N = A.shape[0]
    order = rng.permutation(N)
    pos, losses = 0, np.empty(steps)
    for t in range(1, steps + 1):
        if pos + batch > N:
            order, pos = rng.permutation(N), 0
        idx = order[pos:pos + batch]
        pos += batch
        loss, grads = loss_and_gradient(net, A[idx], Y[idx])
        losses[t - 1] = loss
        for v, g, a, s in zip(views, grads, m1, m2, strict=True):
            gv = g.view(np.float64) if np.iscomplexobj(g) else g
            a *= betas[0]
            a += (1 - betas[0]) * gv
            s *= betas[1]
            s += (1 - betas[1]) * gv**2
            v -= lr * (a / (1 - betas[0] ** t)) / (np.sqrt(s / (1 - betas[1] ** t)) + eps)
    return net, losses


def train_and_test(rng: np.random.Generator, data: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                   architecture: str, depth: int, *, width: int, modes: int, steps: int, batch: int,
                   lr: float, zero_blocks: bool | None = None, ends: list[np.ndarray] | None = None,
                   beta: float = 1000.0) -> float:
    """Train one FNO on ``data = (A_train, Y_train, A_test, Y_test)`` and return its mean relative L2
    test error.

    ``ends`` (lifting weights and bias, projection weights and bias) replaces the random lifting
    and projection, so that networks compared with each other start from the same ends.
    """
    A, Y, At, Yt = data
    net = init_fno1d(width, modes, depth, rng, architecture, zero_blocks, beta)
    if ends is not None:
        net.params[0], net.params[1], net.params[-2], net.params[-1] = (e.copy() for e in ends)
    trained, _ = train_adam(net, A, Y, rng, steps=steps, batch=batch, lr=lr)
    return float(np.mean(relative_l2(fno_forward(trained, At), Yt)))
