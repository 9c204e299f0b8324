r"""Two-player monotone games, their gap function, and payoff-perturbed gradient dynamics.

A two-player game in this module is given by its gradient map
$V(\pi) = (\nabla_x v_1(x, y), \nabla_y v_2(x, y))$ (each player *maximises* its payoff) and by
each player's strategy set: the probability simplex or a box $[-R, R]^d$.  The game is
*monotone* when $\langle V(\pi) - V(\pi'), \pi - \pi'\rangle \le 0$ for all profiles (Abe,
Sakamoto, Ariu & Iwasaki, "Boosting Perturbed Gradient Ascent for Last-Iterate Convergence in
Games", ICLR 2025).  Everything is batched: a profile is a pair of arrays ``x`` of shape
``(S, n)`` and ``y`` of shape ``(S, m)`` holding ``S`` independent replicas, and a game's
matrices may carry the same leading replica axis.

The gap function is $\mathrm{Gap}(\pi) = \max_{\pi' \in \mathcal X}\langle V(\pi), \pi' - \pi
\rangle$, summed over the two players; it is zero exactly at the Nash equilibria of a monotone
game, and for a bilinear zero-sum game on simplices it equals the NashConv
$\max_i (Ay)_i - \min_j (A^\top x)_j$.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

ANCHOR_RULES = ("gabp", "apga", "frozen")


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of each row of ``v`` onto the probability simplex.

    Args:
        v: array of shape ``(..., n)``, finite.

    Returns:
        Array of the same shape whose rows are non-negative and sum to 1 (sort-based algorithm
        of Held, Wolfe & Crowder 1974 / Duchi et al. 2008).

    Raises:
        ValueError: on an empty last axis.  (NaN input gives NaN output.)
    """
    v = np.asarray(v, dtype=float)
    if v.shape[-1] < 1:
        raise ValueError("cannot project onto the simplex of dimension 0")
    shape = v.shape
    v2 = v.reshape(-1, shape[-1])
    u = -np.sort(-v2, axis=-1)
    css = np.cumsum(u, axis=-1)
    css -= 1.0
    # The condition u_k > css_k / k holds exactly for k = 1..rho (a prefix), so rho is a count.
    rho = np.count_nonzero(u * np.arange(1, shape[-1] + 1) > css, axis=-1)
    theta = (css[np.arange(v2.shape[0]), rho - 1] / rho).reshape(shape[:-1] + (1,))
    return np.maximum(v - theta, 0.0)


@dataclass(frozen=True)
class StrategySet:
    """A player's strategy set: ``kind="simplex"`` (probability vectors) or ``"box"`` ($[-R, R]^d$)."""

    kind: str
    radius: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ("simplex", "box"):
            raise ValueError(f"strategy set kind must be 'simplex' or 'box', not {self.kind!r}")
        if self.kind == "box" and not self.radius > 0:
            raise ValueError(f"box radius must be positive, got {self.radius}")

    def project(self, v: np.ndarray) -> np.ndarray:
        """Euclidean projection of each row of ``v`` (shape ``(..., d)``) onto the set."""
        if self.kind == "simplex":
            return project_simplex(v)
        return np.clip(v, -self.radius, self.radius)

    def support(self, g: np.ndarray) -> np.ndarray:
        r"""$\max_{p \in \text{set}} \langle g, p\rangle$ for each row of ``g`` (shape ``(..., d)``)."""
        if self.kind == "simplex":
            return g.max(axis=-1)
        return self.radius * np.abs(g).sum(axis=-1)


@dataclass(frozen=True)
class TwoPlayerGame:
    """A two-player continuous game given by its gradient map and strategy sets.

    Attributes:
        gradient: ``gradient(x, y) -> (gx, gy)`` with ``x`` of shape ``(S, n)``, ``y`` of shape
            ``(S, m)``; ``gx`` is player 1's payoff gradient in ``x``, ``gy`` player 2's in ``y``.
        sets: the two strategy sets.
        dims: ``(n, m)``.
        name: a label.
    """

    gradient: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
    sets: tuple[StrategySet, StrategySet]
    dims: tuple[int, int]
    name: str = "game"

    def gap(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        r"""Gap function $\sum_i \max_{\pi_i'}\langle V_i(\pi), \pi_i' - \pi_i\rangle$ per replica, shape ``(S,)``."""
        gx, gy = self.gradient(x, y)
        return (self.sets[0].support(gx) - np.sum(gx * x, axis=-1)
                + self.sets[1].support(gy) - np.sum(gy * y, axis=-1))


def _matvec(A: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``A @ v`` row by row: ``A`` of shape ``(n, m)`` or ``(S, n, m)``, ``v`` of shape ``(S, m)``."""
    if A.ndim == 2:
        return v @ A.T
    return np.einsum("snm,sm->sn", A, v)


def _rmatvec(A: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``A.T @ u`` row by row."""
    if A.ndim == 2:
        return u @ A
    return np.einsum("snm,sn->sm", A, u)


def bilinear_zero_sum(A: np.ndarray) -> TwoPlayerGame:
    r"""The zero-sum matrix game $v_1 = x^\top A y = -v_2$ on two probability simplices.

    Args:
        A: payoff matrix of the row (maximising) player, shape ``(n, m)``, or a stack of
            ``S`` matrices of shape ``(S, n, m)`` (one game per replica).

    Returns:
        The game with gradient ``(A y, -A^T x)``; it is monotone (the symmetric part of its
        Jacobian is zero).

    Raises:
        ValueError: on a non-finite matrix or a wrong number of axes.
    """
    A = np.asarray(A, dtype=float)
    if A.ndim not in (2, 3) or not np.all(np.isfinite(A)):
        raise ValueError(f"A must be a finite (n, m) or (S, n, m) array, got shape {A.shape}")

    def gradient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return _matvec(A, y), -_rmatvec(A, x)

    simplex = StrategySet("simplex")
    return TwoPlayerGame(gradient, (simplex, simplex), (A.shape[-2], A.shape[-1]), "bilinear zero-sum")


def nash_conv(A: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""NashConv (duality gap) of the zero-sum matrix game: $\max_i (Ay)_i - \min_j (A^\top x)_j$.

    Args:
        A: shape ``(n, m)`` or ``(S, n, m)``; x: shape ``(S, n)``; y: shape ``(S, m)``.

    Returns:
        Shape ``(S,)``, non-negative on simplices, zero exactly at Nash equilibria.
    """
    A = np.asarray(A, dtype=float)
    return _matvec(A, y).max(axis=-1) - _rmatvec(A, x).min(axis=-1)


def hard_concave_convex(d: int, radius: float = 200.0) -> TwoPlayerGame:
    r"""The hard concave-convex game of Ouyang & Xu (Math. Prog. 2021), as in Abe et al.'s code.

    Player 1 maximises $f(x, y) = -\tfrac12 x^\top H x + h^\top x + x^\top A y$, player 2
    maximises $-x^\top A y + b^\top y$, on $[-R, R]^d$ each, with $A = \tfrac14$ (the
    anti-diagonal with a $-1$ to the left of each $+1$), $H = 2A^\top A$, $b = \tfrac14
    \mathbf 1$ and $h = \tfrac14 e_d$.  Monotone (its Jacobian's symmetric part is
    $\mathrm{diag}(-H, 0) \preceq 0$).

    Args:
        d: dimension of each player's strategy (>= 2).
        radius: half-width $R$ of the boxes (> 0).

    Raises:
        ValueError: for ``d < 2`` or a non-positive radius.
    """
    if d < 2:
        raise ValueError(f"hard_concave_convex needs d >= 2, got {d}")
    A = np.zeros((d, d))
    for i in range(d):
        A[i, d - 1 - i] = 1.0
        if d - 1 - i >= 1:
            A[i, d - 2 - i] = -1.0
    A /= 4.0
    H = 2.0 * A.T @ A
    b = np.full(d, 0.25)
    h = np.zeros(d)
    h[-1] = 0.25

    def gradient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return -x @ H.T + h + y @ A.T, -x @ A + b

    box = StrategySet("box", radius)
    return TwoPlayerGame(gradient, (box, box), (d, d), "hard concave-convex")


def expanding_rotation(a: float, radius: float = 1.0) -> TwoPlayerGame:
    r"""A non-monotone game on $[-R, R]$ each: $v_1 = \tfrac a2 x^2 - xy$, $v_2 = \tfrac a2 y^2 + xy$.

    Its Jacobian $\begin{pmatrix} a & -1 \\ 1 & a\end{pmatrix}$ has symmetric part $aI$, so for
    $a > 0$ the game is *not* monotone (the gradient field spirals outwards); each player's
    payoff is convex in its own strategy and the game has no Nash equilibrium on the box.

    Raises:
        ValueError: for ``a <= 0`` (the game would be monotone) or a non-positive radius.
    """
    if not a > 0:
        raise ValueError(f"expanding_rotation needs a > 0 to be non-monotone, got {a}")

    def gradient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return a * x - y, a * y + x

    box = StrategySet("box", radius)
    return TwoPlayerGame(gradient, (box, box), (1, 1), "expanding rotation (non-monotone)")


def monotonicity_violation(game: TwoPlayerGame, rng: np.random.Generator, n_pairs: int = 256) -> float:
    r"""Largest $\langle V(\pi) - V(\pi'), \pi - \pi'\rangle / \|\pi - \pi'\|^2$ over random pairs.

    Non-positive for a monotone game; a positive value certifies non-monotonicity (one pair
    suffices).  Pairs are drawn uniformly from the boxes / simplices.
    """
    def draw(s: StrategySet, dim: int) -> np.ndarray:
        if s.kind == "simplex":
            return rng.dirichlet(np.ones(dim), size=n_pairs)
        return rng.uniform(-s.radius, s.radius, size=(n_pairs, dim))

    n, m = game.dims
    x1, y1, x2, y2 = draw(game.sets[0], n), draw(game.sets[1], m), draw(game.sets[0], n), draw(game.sets[1], m)
    g1, h1 = game.gradient(x1, y1)
    g2, h2 = game.gradient(x2, y2)
    num = np.sum((g1 - g2) * (x1 - x2), axis=-1) + np.sum((h1 - h2) * (y1 - y2), axis=-1)
    den = np.sum((x1 - x2) ** 2, axis=-1) + np.sum((y1 - y2) ** 2, axis=-1)
    return float(np.max(num / den))


def perturbed_gradient_ascent(
    game: TwoPlayerGame,
    x0: np.ndarray,
    y0: np.ndarray,
    *,
    eta: float,
    mu: float,
    T: int,
    T_sigma: int | None = None,
    anchor: str = "gabp",
    noise_std: float = 0.0,
    rng: np.random.Generator | None = None,
    checkpoints: Sequence[int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Projected gradient ascent on the perturbed payoff, with anchor updates (GA / APGA / GABP).

    Each player runs
    $\pi^{t+1} = \Pi_{\mathcal X}\big(\pi^t + \eta\,[\hat g^t - \mu(\pi^t - \sigma^k)]\big)$ with
    $\hat g^t = V(\pi^t) + \xi^t$, $\xi^t \sim \mathcal N(0, \text{noise\_std}^2 I)$ (zero for
    full feedback).  Every ``T_sigma`` steps the anchor is refreshed ($k \leftarrow k + 1$):
    GABP (Abe et al., ICLR 2025, Algorithm 1) sets $\sigma^{k} = (k\,\pi^t + \pi^0)/(k + 1)$;
    APGA (Abe et al. 2024) sets $\sigma^k = \pi^t$; ``"frozen"`` never refreshes it
    ($\sigma = \pi^0$, the broken control).  ``mu = 0`` is plain projected gradient ascent.

    Args:
        game: the game; x0, y0: initial profiles of shapes ``(S, n)`` and ``(S, m)`` in the sets.
        eta: step size (> 0); mu: perturbation strength (>= 0); T: number of steps (>= 1).
        T_sigma: anchor refresh interval in steps (>= 1; ignored for ``"frozen"``).
        anchor: ``"gabp"``, ``"apga"`` or ``"frozen"``.
        noise_std: standard deviation of the additive gradient noise (>= 0); needs ``rng``.
        rng: generator for the noise.
        checkpoints: step counts ``t`` (1..T) at which the gap of the last iterate $\pi^t$ is
            recorded (default: only ``T``).

    Returns:
        ``(gaps, x, y)``: gaps of shape ``(S, len(checkpoints))`` and the final profiles.

    Raises:
        ValueError: on a bad parameter, an unknown anchor rule, missing rng for noisy feedback,
            or checkpoints outside ``1..T``.
    """
    if not eta > 0 or mu < 0 or T < 1 or noise_std < 0:
        raise ValueError(f"need eta > 0, mu >= 0, T >= 1, noise_std >= 0; got {eta}, {mu}, {T}, {noise_std}")
    if anchor not in ANCHOR_RULES:
        raise ValueError(f"anchor must be one of {ANCHOR_RULES}, not {anchor!r}")
    if anchor != "frozen" and (T_sigma is None or T_sigma < 1):
        raise ValueError(f"anchor rule {anchor!r} needs T_sigma >= 1, got {T_sigma}")
    if noise_std > 0 and rng is None:
        raise ValueError("noisy feedback needs a random generator rng")
    cps = np.array(sorted(set(int(c) for c in (checkpoints if checkpoints is not None else [T]))))
    if cps.size == 0 or cps[0] < 1 or cps[-1] > T:
        raise ValueError(f"checkpoints must lie in 1..T={T}")
    x = np.array(x0, dtype=float)
    y = np.array(y0, dtype=float)
    x_init, y_init = x.copy(), y.copy()
    sx, sy = x.copy(), y.copy()
    k = 0
    px, py = game.sets
    gaps = np.empty((x.shape[0], cps.size))
    j = 0
    for t in range(1, T + 1):
        gx, gy = game.gradient(x, y)
        if noise_std > 0:
            gx = gx + noise_std * rng.standard_normal(gx.shape)
            gy = gy + noise_std * rng.standard_normal(gy.shape)
        x = px.project(x + eta * (gx - mu * (x - sx)))
        y = py.project(y + eta * (gy - mu * (y - sy)))
        if anchor != "frozen" and t % T_sigma == 0:
            k += 1
            if anchor == "gabp":
                sx, sy = (k * x + x_init) / (k + 1), (k * y + y_init) / (k + 1)
            else:
                sx, sy = x.copy(), y.copy()
        if t == cps[j]:
            gaps[:, j] = game.gap(x, y)
            j += 1
            if j == cps.size:
                break
    return gaps, x, y
