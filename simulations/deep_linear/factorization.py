r"""Deep matrix factorization trained by gradient descent, beyond the edge of stability.

The loss is :math:`f(W_1, \dots, W_L) = \frac12 \|W_L \cdots W_1 - M\|_F^2` with square factors
:math:`W_\ell \in \mathbb R^{d\times d}` and a target :math:`M = U \operatorname{diag}(s) V^\top`
(singular values :math:`s_1 \ge s_2 \ge \dots \ge 0`).  Ghosh, Kwon, Wang, Ravishankar & Qu,
"Learning Dynamics of Deep Matrix Factorization Beyond the Edge of Stability" (ICLR 2025,
arXiv:2502.20531) start gradient descent from :math:`W_L = 0`, :math:`W_\ell = \alpha I`
(:math:`\ell < L`; the initialisation of the authors' published scripts).  From there every iterate
stays in the *singular vector stationary set*: :math:`W_L = U \Sigma_L V^\top`,
:math:`W_\ell = V \Sigma_\ell V^\top` with diagonal :math:`\Sigma_\ell`, and the dynamics decouple
into one scalar recursion per singular value,
:math:`\sigma_{\ell,i} \leftarrow \sigma_{\ell,i} - \eta\,(\prod_k \sigma_{k,i} - s_i)\prod_{k\ne\ell}\sigma_{k,i}`.

Arrays of factors have shape ``(..., L, d, d)`` with ``layers[..., 0, :, :] = W_1``; leading axes
batch independent runs (one per step size, say).  Everything is float64 numpy.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize

__all__ = [
    "balanced_hessian_spectrum",
    "balanced_map",
    "balanced_minimum",
    "balancing_contraction",
    "dmf_gradients",
    "dmf_loss",
    "end_to_end",
    "gauss_newton_hessian",
    "gradient_descent",
    "mode_sharpness",
    "paper_initialization",
    "random_target",
    "svs_gradient_descent",
    "svs_values",
    "two_period_orbit",
]


def _check_layers(layers: np.ndarray) -> np.ndarray:
    layers = np.asarray(layers, dtype=float)
    if layers.ndim < 3 or layers.shape[-1] != layers.shape[-2]:
        raise ValueError(f"layers must have shape (..., L, d, d) with square factors, not {layers.shape}")
    return layers


def end_to_end(layers: np.ndarray) -> np.ndarray:
    """The product :math:`W_L \\cdots W_1`.

    Args:
        layers: array ``(..., L, d, d)``, ``layers[..., 0]`` being :math:`W_1`.

    Returns:
        array ``(..., d, d)``.

    Raises:
        ValueError: on factors that are not square.
    """
    layers = _check_layers(layers)
    prod = layers[..., 0, :, :]
    for ell in range(1, layers.shape[-3]):
        prod = layers[..., ell, :, :] @ prod
    return prod


def dmf_loss(layers: np.ndarray, target: np.ndarray) -> np.ndarray:
    """:math:`\\frac12\\|W_L\\cdots W_1 - M\\|_F^2`, shape ``(...)``."""
    r = end_to_end(layers) - np.asarray(target, dtype=float)
    return 0.5 * np.sum(r * r, axis=(-2, -1))


def dmf_gradients(layers: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Gradients of :func:`dmf_loss` with respect to every factor.

    :math:`\\nabla_{W_\\ell} f = (W_L\\cdots W_{\\ell+1})^\\top R\\,(W_{\\ell-1}\\cdots W_1)^\\top` with the
    residual :math:`R = W_L\\cdots W_1 - M`.

    Args:
        layers: ``(..., L, d, d)``.
        target: ``(d, d)`` (broadcast over the leading axes).

    Returns:
        array of the shape of ``layers``.
    """
    layers = _check_layers(layers)
    L, d = layers.shape[-3], layers.shape[-1]
    eye = np.broadcast_to(np.eye(d), layers.shape[:-3] + (d, d))
    below = [eye]  # below[l] = W_l ... W_1 (W_0 ... W_1 = I)
    for ell in range(L):
        below.append(layers[..., ell, :, :] @ below[-1])
    above = [eye]  # above[k] = W_L ... W_{L-k+1}
    for ell in range(L - 1, -1, -1):
        above.append(above[-1] @ layers[..., ell, :, :])
    residual = below[L] - np.asarray(target, dtype=float)
    grads = np.empty_like(layers)
    for ell in range(L):
        left = above[L - 1 - ell]  # W_L ... W_{ell+2} (0-based: factors above layer ell)
        right = below[ell]  # factors below layer ell
        grads[..., ell, :, :] = np.swapaxes(left, -1, -2) @ residual @ np.swapaxes(right, -1, -2)
    return grads


def random_target(rng: np.random.Generator, singular_values, d: int | None = None) -> tuple[np.ndarray, np.ndarray,
                                                                                             np.ndarray]:
    """A target :math:`M = U\\operatorname{diag}(s)V^\\top` with Haar-random orthogonal U, V.

    Args:
        rng: numpy Generator.
        singular_values: the nonnegative values :math:`s_i` (padded with zeros up to ``d``).
        d: the dimension (default: the number of values given).

    Returns:
        ``(M, U, V)``.

    Raises:
        ValueError: on negative values or ``d`` below their number.
    """
    s = np.asarray(singular_values, dtype=float)
    d = s.size if d is None else int(d)
    if np.any(s < 0) or d < s.size:
        raise ValueError("singular values must be nonnegative and at most d of them")
    s = np.concatenate([s, np.zeros(d - s.size)])

    def haar(n: int) -> np.ndarray:
        q, r = np.linalg.qr(rng.standard_normal((n, n)))
        return q * np.sign(np.diag(r))

    U, V = haar(d), haar(d)
    return (U * s) @ V.T, U, V


def paper_initialization(d: int, depth: int, scale: float, batch: tuple[int, ...] = ()) -> np.ndarray:
    """:math:`W_L = 0`, :math:`W_\\ell = \\alpha I_d` for :math:`\\ell < L`, shape ``batch + (L, d, d)``.

    Raises:
        ValueError: for depth < 1 or a negative scale.
    """
    if depth < 1 or scale < 0:
        raise ValueError("depth must be >= 1 and the scale >= 0")
    layers = np.zeros(tuple(batch) + (depth, d, d))
    for ell in range(depth - 1):
        layers[..., ell, :, :] = scale * np.eye(d)
    return layers


def svs_values(layers: np.ndarray, U: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, float]:
    """Per-layer singular values in the singular vector stationary set, and the distance to it.

    In the set, :math:`W_L = U\\Sigma_L V^\\top` and :math:`W_\\ell = V\\Sigma_\\ell V^\\top`
    (:math:`\\ell < L`); the values returned are the diagonals of :math:`U^\\top W_L V` and
    :math:`V^\\top W_\\ell V` (signed), the distance the largest off-diagonal entry.

    Returns:
        ``(values (..., L, d), largest off-diagonal magnitude)``.
    """
    layers = _check_layers(layers)
    L = layers.shape[-3]
    rotated = np.empty_like(layers)
    for ell in range(L):
        left = U if ell == L - 1 else V
        rotated[..., ell, :, :] = left.T @ layers[..., ell, :, :] @ V
    diag = np.diagonal(rotated, axis1=-2, axis2=-1)
    off = rotated - diag[..., None] * np.eye(layers.shape[-1])
    return diag.copy(), float(np.max(np.abs(off))) if off.size else 0.0


def gradient_descent(target: np.ndarray, depth: int, etas, steps: int, scale: float, U: np.ndarray,
                     V: np.ndarray, layers0: np.ndarray | None = None, keep: int = 0,
                     divergence: float = 1e6) -> dict:
    """Gradient descent on the factorization loss for a batch of step sizes.

    Args:
        target: ``(d, d)`` target M.
        depth: number of factors L.
        etas: step sizes, shape ``(B,)``.
        steps: number of steps T.
        scale: initialisation scale alpha of :func:`paper_initialization` (ignored with ``layers0``).
        U, V: the target's singular vectors (for :func:`svs_values`).
        layers0: optional initial factors ``(B, L, d, d)``.
        keep: also return the per-layer values of the last ``keep`` steps (0: none).
        divergence: a run whose largest entry exceeds this is stopped (its values become NaN).

    Returns:
        dict with ``values`` ``(B, T+1, L, d)`` (per-layer values in the stationary set at every
        step), ``off_diagonal`` (largest distance to the set over the run), ``layers`` (final
        factors), ``diverged`` ``(B,)`` booleans.
    """
    etas = np.asarray(etas, dtype=float).ravel()
    d = target.shape[0]
    layers = paper_initialization(d, depth, scale, (etas.size,)) if layers0 is None else np.array(layers0, float)
    values = np.full((etas.size, steps + 1, depth, d), np.nan)
    diverged = np.zeros(etas.size, dtype=bool)
    off = 0.0
    v, o = svs_values(layers, U, V)
    values[:, 0] = v
    off = max(off, o)
    for t in range(1, steps + 1):
        grads = dmf_gradients(layers, target)
        layers = layers - etas[:, None, None, None] * grads
        bad = ~np.all(np.isfinite(layers), axis=(1, 2, 3)) | (np.max(np.abs(layers), axis=(1, 2, 3)) > divergence)
        if np.any(bad):
            diverged |= bad
            layers[bad] = 0.0
        v, o = svs_values(layers, U, V)
        v[diverged] = np.nan
        values[:, t] = v
        off = max(off, o)
    return {"values": values, "off_diagonal": off, "layers": layers, "diverged": diverged}


def svs_gradient_descent(s, depth: int, etas, steps: int, scale: float, keep: int | None = None,
                         gaps: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    r"""Gradient descent inside the singular vector stationary set: one scalar recursion per mode.

    :math:`\sigma_{\ell,i} \leftarrow \sigma_{\ell,i} - \eta(\prod_k\sigma_{k,i} - s_i)\prod_{k\ne\ell}
    \sigma_{k,i}` from :math:`\sigma_{L,i} = 0`, :math:`\sigma_{\ell,i} = \alpha` -- the exact image of
    :func:`gradient_descent` from the paper's initialisation (the set is invariant; Ghosh et al.,
    the singular vector stationary set), computed without the rounding that moves a matrix run off it.

    Args:
        s: target singular values ``(r,)``.
        depth: L.
        etas: step sizes ``(B,)``.
        steps: T.
        scale: alpha.
        keep: keep only the last ``keep`` steps (default: all T + 1).
        gaps: also return the balancing gap :math:`\sigma_{L,i}^2 - \sigma_{1,i}^2` at every step,
            ``(B, T+1, r)`` (the factors below the top one stay equal to each other).

    Returns:
        array ``(B, T+1 or keep, L, r)`` of per-layer values (a run that leaves [-1e6, 1e6] is NaN
        from then on), and the gaps when asked.
    """
    s = np.asarray(s, dtype=float)
    etas = np.asarray(etas, dtype=float).ravel()
    w = np.full((etas.size, depth, s.size), float(scale))
    w[:, depth - 1] = 0.0
    keep = steps + 1 if keep is None else int(keep)
    out = np.full((etas.size, keep, depth, s.size), np.nan)
    first = steps + 1 - keep
    if first == 0:
        out[:, 0] = w
    gap = np.full((etas.size, steps + 1, s.size), np.nan) if gaps else None
    if gaps:
        gap[:, 0] = w[:, -1] ** 2 - w[:, 0] ** 2
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(1, steps + 1):
            # product of the other factors, by prefix and suffix products (no division by zero)
            before = np.ones_like(w)
            after = np.ones_like(w)
            before[:, 1:] = np.cumprod(w[:, :-1], axis=1)
            after[:, :-1] = np.cumprod(w[:, :0:-1], axis=1)[:, ::-1]
            others = before * after
            prod = before[:, -1:] * w[:, -1:]
            w = w - etas[:, None, None] * (prod - s) * others
            w[~(np.abs(w) <= 1e6)] = np.nan
            if t >= first:
                out[:, t - first] = w
            if gaps:
                gap[:, t] = w[:, -1] ** 2 - w[:, 0] ** 2
    return (out, gap) if gaps else out


def balanced_minimum(U: np.ndarray, s, V: np.ndarray, depth: int, imbalance: float = 1.0) -> np.ndarray:
    """Factors of a global minimum in the stationary set: :math:`W_L = U S^{1/L} V^\\top`,
    :math:`W_\\ell = V S^{1/L} V^\\top`, balanced for ``imbalance = 1``.

    With ``imbalance = c`` the top factor is multiplied by c and the first by 1/c (still a
    minimum, no longer balanced; needs L >= 2).

    Returns:
        ``(L, d, d)``.
    """
    s = np.asarray(s, dtype=float)
    root = s ** (1.0 / depth)
    layers = np.empty((depth, s.size, s.size))
    for ell in range(depth - 1):
        layers[ell] = (V * root) @ V.T
    layers[depth - 1] = (U * root) @ V.T
    if imbalance != 1.0:
        if depth < 2:
            raise ValueError("an unbalanced minimum needs at least two factors")
        layers[depth - 1] *= imbalance
        layers[0] /= imbalance
    return layers


def gauss_newton_hessian(layers: np.ndarray, target: np.ndarray | None = None) -> np.ndarray:
    """:math:`J^\\top J`, the Hessian of the loss at a global minimum (zero residual).

    J is the Jacobian of :math:`\\operatorname{vec}(W_L\\cdots W_1)` with respect to
    :math:`(\\operatorname{vec}W_1, \\dots, \\operatorname{vec}W_L)` (column-major vec), built from
    :math:`\\operatorname{vec}(AXB) = (B^\\top\\otimes A)\\operatorname{vec}X`.  At a point with a
    nonzero residual the true Hessian adds a term linear in the residual; ``target`` is then used to
    check that the residual is zero.

    Returns:
        array ``(L d^2, L d^2)``.

    Raises:
        ValueError: when ``target`` is given and the residual is not zero to 1e-9 relative.
    """
    layers = _check_layers(layers)
    L, d = layers.shape[-3], layers.shape[-1]
    if target is not None:
        r = end_to_end(layers) - target
        if np.linalg.norm(r) > 1e-9 * max(1.0, np.linalg.norm(target)):
            raise ValueError("the Gauss-Newton matrix is the Hessian only at a zero-residual point")
    blocks = []
    for ell in range(L):
        left = np.eye(d)
        for k in range(L - 1, ell, -1):
            left = left @ layers[k]
        right = np.eye(d)
        for k in range(ell):
            right = layers[k] @ right
        blocks.append(np.kron(right.T, left))
    J = np.concatenate(blocks, axis=1)
    return J.T @ J


def balanced_hessian_spectrum(s, depth: int) -> np.ndarray:
    """Eigenvalues of the Hessian at a balanced minimum, closed form, sorted descending.

    For every ordered pair (i, j) of singular values, the eigenvalue
    :math:`\\sum_{\\ell=1}^L s_i^{2(L-\\ell)/L} s_j^{2(\\ell-1)/L}` (so :math:`L s_i^{2-2/L}` on the
    diagonal), and :math:`(L-1)d^2` zeros; the largest, :math:`L s_1^{2-2/L}`, is the sharpness.
    (Our derivation from the rank-one structure of J^T J in the singular bases; the sharpness is
    the one of Ghosh et al., whose thresholds 2/(L s_i^{2-2/L}) appear in their scripts.)

    Returns:
        array ``(L d^2,)``.
    """
    s = np.asarray(s, dtype=float)
    ell = np.arange(1, depth + 1)
    with np.errstate(divide="ignore"):
        a = s[:, None, None] ** (2.0 * (depth - ell) / depth)  # (i, 1, l)
        b = s[None, :, None] ** (2.0 * (ell - 1) / depth)  # (1, j, l)
    pair = np.sum(a * b, axis=-1).ravel()
    vals = np.concatenate([pair, np.zeros((depth - 1) * s.size ** 2)])
    return np.sort(vals)[::-1]


def mode_sharpness(s, depth: int) -> np.ndarray:
    """:math:`L s_i^{2-2/L}` for each singular value: the curvature along mode i at the balanced
    minimum, whose inverse times 2 is the step size beyond which mode i oscillates."""
    return depth * np.asarray(s, dtype=float) ** (2.0 - 2.0 / depth)


def balanced_map(x, eta: float, s: float, depth: int):
    """One gradient step of the balanced scalar dynamics, :math:`x \\mapsto x + \\eta(s - x^L)x^{L-1}`
    (every factor equal to x; the recursion of one mode of the stationary set once balanced)."""
    x = np.asarray(x, dtype=float)
    return x + eta * (s - x**depth) * x ** (depth - 1)


def balancing_contraction(values: np.ndarray, eta: float, s: float, a: int, b: int) -> np.ndarray:
    """The factor by which one step multiplies :math:`\\sigma_a^2 - \\sigma_b^2` (our derivation).

    For the scalar recursion of one mode, :math:`\\sigma_a'^2 - \\sigma_b'^2 = (\\sigma_a^2 - \\sigma_b^2)
    (1 - \\eta^2 r^2 \\prod_{k\\ne a,b}\\sigma_k^2)` with :math:`r = \\prod_k\\sigma_k - s`.

    Args:
        values: per-layer values ``(..., L)``.

    Returns:
        the factor, shape ``(...)``.
    """
    values = np.asarray(values, dtype=float)
    r = np.prod(values, axis=-1) - s
    others = np.delete(values, [a, b], axis=-1)
    return 1.0 - eta**2 * r**2 * np.prod(others**2, axis=-1)


def two_period_orbit(s: float, depth: int, eta: float) -> tuple[float, float]:
    """The two points :math:`\\rho_1 < s^{1/L} < \\rho_2` of the period-2 orbit of
    :func:`balanced_map`, for :math:`\\eta > 2/(L s^{2-2/L})`.

    A two-cycle :math:`\\rho_2 = z\\rho_1`, :math:`z = 1 + \\eta(s - \\rho_1^L)\\rho_1^{L-2}`, satisfies
    :math:`\\rho_1^L(1 + z^{2L-1}) = s(1 + z^{L-1})` (our derivation from the two steps); the root is
    bracketed on :math:`(0, s^{1/L})` below the fixed point and refined by Brent's method, and
    checked to be a true two-cycle.

    Raises:
        ValueError: when eta is at or below the threshold (no two-cycle there) or no root is found.
    """
    if depth < 2:
        raise ValueError("the balanced map has a two-cycle only for depth >= 2")
    if eta * depth * s ** (2 - 2 / depth) <= 2:
        raise ValueError("no two-cycle at or below the edge of stability eta = 2/(L s^(2-2/L))")
    fixed = s ** (1.0 / depth)

    def g(rho: float) -> float:
        z = 1 + eta * (s - rho**depth) * rho ** (depth - 2)
        return rho**depth * (1 + z ** (2 * depth - 1)) - s * (1 + z ** (depth - 1))

    # g vanishes at the fixed point (z = 1); the cycle's lower point lies below it.  Scan down.
    grid = fixed * (1 - np.geomspace(1e-9, 0.999, 4000))
    vals = np.array([g(r) for r in grid])
    sign = np.sign(vals)
    idx = np.nonzero(sign[1:] != sign[:-1])[0]
    if idx.size == 0:
        raise ValueError("no two-cycle found below the fixed point")
    i = idx[0]
    rho1 = optimize.brentq(g, grid[i + 1], grid[i], xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=500)
    rho2 = float(balanced_map(rho1, eta, s, depth))
    back = float(balanced_map(rho2, eta, s, depth))
    if not abs(back - rho1) <= 1e-9 * fixed or abs(rho2 - rho1) < 1e-12 * fixed:
        raise ValueError("the root found is not a two-cycle of the balanced map")
    return float(rho1), rho2
