r"""The Heterogeneous Data Game (reconstruction): providers choose models, data sources choose
providers by a logit rule at a temperature.

Xu, Wang & Li, "Heterogeneous Data Game: Characterizing the Model Competition Across Multiple
Data Sources" (ICML 2025) define the game in a part of the paper that could not be read; this
module implements the reconstruction of the research notes.  Provider $i$ picks a model
$\theta_i \in [-B, B]$; data source $j$ (mass $w_j$, optimum $\mu_j$) has the saturating loss
$\ell_j(\theta) = 1 - \exp(-(\theta - \mu_j)^2 / (2 s^2))$ and sends its users to provider $i$
with the logit probability
$P_{ij} = e^{-\ell_j(\theta_i)/\tau} / (e^{-c/\tau}\,[\text{outside option}] + \sum_k e^{-\ell_j(\theta_k)/\tau})$;
provider $i$'s utility is its market share $U_i = \sum_j w_j P_{ij}$.

The functions certify equilibria of the *continuous* game: an equilibrium candidate by its
regret over the whole strategy interval (grid maximum plus a Lipschitz margin), and the absence
of pure equilibria by a branch-and-bound over the profile square with a Lipschitz lower bound
on the regret.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DataGame:
    """Parameters of the (duopoly or larger) Heterogeneous Data Game.

    Attributes:
        weights: source masses $w_j$ (positive, summing to 1), shape ``(m,)``.
        centers: source optima $\\mu_j$, shape ``(m,)``.
        tau: temperature of the sources' logit choice (> 0).
        width: loss width $s$ (> 0).
        outside: loss $c$ of the outside option, or None (no outside option).
        bound: strategies lie in ``[-bound, bound]``.
    """

    weights: tuple[float, ...]
    centers: tuple[float, ...]
    tau: float
    width: float = 1.0
    outside: float | None = None
    bound: float = 1.5

    def __post_init__(self) -> None:
        w = np.asarray(self.weights, dtype=float)
        if w.ndim != 1 or w.size != len(self.centers) or np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
            raise ValueError("weights must be positive, sum to 1 and match the centers")
        if not self.tau > 0 or not self.width > 0 or not self.bound > 0:
            raise ValueError("tau, width and bound must be positive")

    def loss(self, theta: np.ndarray) -> np.ndarray:
        """Loss of every source at models ``theta``: shape ``theta.shape + (m,)``."""
        d = np.asarray(theta, dtype=float)[..., None] - np.asarray(self.centers)
        return 1.0 - np.exp(-(d**2) / (2.0 * self.width**2))

    def utility(self, own: np.ndarray, others: Sequence[np.ndarray]) -> np.ndarray:
        """Market share of a provider at ``own`` against providers at ``others`` (broadcast)."""
        own_l = self.loss(own)
        # logits relative to the provider's own, for stability: e_k / e_own = exp((l_own - l_k)/tau)
        den = np.ones(np.broadcast_shapes(own_l.shape, *[self.loss(o).shape for o in others]))
        for o in others:
            den = den + np.exp((own_l - self.loss(o)) / self.tau)
        if self.outside is not None:
            den = den + np.exp((own_l - self.outside) / self.tau)
        return np.sum(np.asarray(self.weights) / den, axis=-1)

    def lipschitz(self) -> float:
        r"""Bound on $|\partial U_i / \partial\theta_k|$ for every $i, k$.

        Softmax derivatives are at most $1/4$ in absolute value, and
        $|\ell_j'| \le e^{-1/2}/s$, so $L = e^{-1/2}/(4 s \tau)$.
        """
        return float(np.exp(-0.5) / (4.0 * self.width * self.tau))


def duopoly_payoffs(game: DataGame, grid: np.ndarray) -> np.ndarray:
    """Payoff array of the duopoly restricted to ``grid``: shape ``(2, g, g)`` (see finite.py)."""
    g = np.asarray(grid, dtype=float)
    u1 = game.utility(g[:, None], [g[None, :]])
    return np.stack([u1, u1.T])


def continuous_regret(game: DataGame, profile: Sequence[float], n_grid: int = 200001) -> tuple[float, float]:
    """Certified bounds on the largest regret of a duopoly profile over the whole interval.

    Args:
        game: the game; profile: ``(theta_1, theta_2)``; n_grid: deviations tried per player.

    Returns:
        ``(lower, upper)``: ``lower`` is the best gain found on the deviation grid (a valid
        lower bound), ``upper = lower' + L h / 2`` with ``lower'`` the grid maximum and ``h`` the
        grid step (every deviation lies within h/2 of a grid point and the utility is
        L-Lipschitz in the own strategy).  ``upper <= eps`` certifies an ``eps``-equilibrium.
    """
    dev = np.linspace(-game.bound, game.bound, n_grid)
    h = dev[1] - dev[0]
    t = [float(x) for x in profile]
    lo = -np.inf
    for i in range(2):
        other = t[1 - i]
        base = float(game.utility(np.array(t[i]), [np.array(other)]))
        best = float(np.max(game.utility(dev, [np.full(1, other)])))
        lo = max(lo, best - base)
    return max(lo, 0.0), max(lo, 0.0) + game.lipschitz() * h / 2.0


@dataclass(frozen=True)
class NonExistence:
    """Result of :func:`certify_no_pure_equilibrium`.

    Attributes:
        certified: True when every profile of the square has positive regret.
        cells: number of cells examined.
        min_margin: smallest certified lower bound on the regret over the final cells.
        uncertified: centre of a cell that could not be certified (None when certified).
    """

    certified: bool
    cells: int
    min_margin: float
    uncertified: tuple[float, float] | None


def certify_no_pure_equilibrium(game: DataGame, n_dev: int = 601, start: int = 64,
                                min_half_width: float = 1e-5, max_cells: int = 2_000_000,
                                exclude_band: float = 0.0) -> NonExistence:
    r"""Prove that the duopoly has no pure equilibrium on the continuous square, or fail.

    Branch and bound over square cells of half-width $r$ (sup norm): at the centre $c$ the
    regret $R_i(c) \ge \max_{d \in D} U_i(d, c_{-i}) - U_i(c)$ for the deviation grid $D$; for any
    $\theta$ in the cell $R_i(\theta) \ge R_i(c) - (L_\text{own} + 2L_\text{other})\,r = R_i(c) - 3Lr$
    (the best response value is $L$-Lipschitz in the opponent, the utility $2L$-Lipschitz in
    the profile under the sup norm: $L$ per coordinate).  A cell whose bound is positive for
    some player contains no equilibrium; other cells are split in four.

    Args:
        game: the game (two providers); n_dev: deviation grid size; start: initial cells per
            side; min_half_width: give up below this half-width; max_cells: work limit.
        exclude_band: cells lying entirely within ``|theta_1 - theta_2| < exclude_band`` are not
            examined, so a success proves that every pure equilibrium is within the band
            (near-homogeneous); 0 examines the whole square.

    Returns:
        A :class:`NonExistence`.
    """
    dev = np.linspace(-game.bound, game.bound, n_dev)
    L3 = 3.0 * game.lipschitz()
    r = game.bound / start
    ax = -game.bound + r * (2 * np.arange(start) + 1)
    cx, cy = [a.ravel() for a in np.meshgrid(ax, ax, indexing="ij")]
    examined, margin = 0, np.inf
    while cx.size:
        if exclude_band > 0:
            # the cell's largest |theta_1 - theta_2| is |cx - cy| + 2 r
            keep = np.abs(cx - cy) + 2 * r >= exclude_band
            cx, cy = cx[keep], cy[keep]
            if cx.size == 0:
                break
        examined += cx.size
        if examined > max_cells:
            return NonExistence(False, examined, margin, (float(cx[0]), float(cy[0])))
        # the best-response value max_d U(d, x) depends on the opponent's strategy x only (both
        # providers have the same utility function), so it is computed once per coordinate
        coords, inv = np.unique(np.concatenate([cx, cy]), return_inverse=True)
        best = np.concatenate([np.max(game.utility(dev[None, :], [coords[s:s + 2048, None]]), axis=1)
                               for s in range(0, coords.size, 2048)])
        # player 1 sits at cx and best-responds to cy; player 2 sits at cy and responds to cx
        best_vs_y, best_vs_x = best[inv[cx.size:]], best[inv[: cx.size]]
        u1 = game.utility(cx, [cy])
        u2 = game.utility(cy, [cx])
        lb = np.maximum(best_vs_y - u1, best_vs_x - u2) - L3 * r
        ok = lb > 0
        if np.any(ok):
            margin = min(margin, float(lb[ok].min()))
        cx, cy = cx[~ok], cy[~ok]
        if cx.size == 0:
            break
        if r / 2 < min_half_width:
            return NonExistence(False, examined, margin, (float(cx[0]), float(cy[0])))
        r /= 2
        cx = np.concatenate([cx - r, cx - r, cx + r, cx + r])
        cy = np.concatenate([cy - r, cy + r, cy - r, cy + r])
    return NonExistence(True, examined, margin, None)


def best_response(game: DataGame, other: float, n_grid: int = 200001) -> float:
    """A best response (on a grid of ``n_grid`` points) to the opponent's model ``other``."""
    dev = np.linspace(-game.bound, game.bound, n_grid)
    return float(dev[int(np.argmax(game.utility(dev, [np.full(1, other)])))])


def refine_equilibrium(game: DataGame, profile: Sequence[float], n_grid: int = 200001,
                       rounds: int = 20) -> tuple[float, float]:
    """Alternating best responses on a fine grid from ``profile`` until they stop moving.

    Returns the last profile (a candidate to certify with :func:`continuous_regret`).
    """
    a, b = (float(x) for x in profile)
    for _ in range(rounds):
        a2 = best_response(game, b, n_grid)
        b2 = best_response(game, a2, n_grid)
        if a2 == a and b2 == b:
            break
        a, b = a2, b2
    return a, b


def grid_equilibria(game: DataGame, n_grid: int) -> list[tuple[float, float]]:
    """Pure equilibria of the duopoly restricted to a grid of ``n_grid`` models (exact enumeration)."""
    from .finite import pure_nash_equilibria

    g = np.linspace(-game.bound, game.bound, n_grid)
    return [(float(g[e.profile[0]]), float(g[e.profile[1]])) for e in pure_nash_equilibria(duopoly_payoffs(game, g))]


def regime(game: DataGame, n_grid: int = 121, band: float = 0.1) -> str:
    """Equilibrium regime of the duopoly restricted to a grid (for phase diagrams).

    Returns ``"none"`` (no pure equilibrium on the grid), ``"homogeneous"`` (every grid PNE has
    ``|theta_1 - theta_2| < band``), ``"heterogeneous"`` (none has) or ``"both"``.  Grid-level
    only: the continuous certificates are :func:`continuous_regret` and
    :func:`certify_no_pure_equilibrium`.
    """
    eqs = grid_equilibria(game, n_grid)
    if not eqs:
        return "none"
    hom = [abs(a - b) < band for a, b in eqs]
    return "homogeneous" if all(hom) else "heterogeneous" if not any(hom) else "both"


def phase_diagram(w1s: Sequence[float], taus: Sequence[float], width: float = 1.0,
                  outside: float | None = 0.5, n_grid: int = 121) -> list[list[str]]:
    """:func:`regime` on the grid of source-1 weights ``w1s`` (rows) and temperatures ``taus``
    (columns), two sources at -1 and +1."""
    return [[regime(DataGame((w, 1.0 - w), (-1.0, 1.0), t, width, outside=outside), n_grid) for t in taus]
            for w in w1s]
