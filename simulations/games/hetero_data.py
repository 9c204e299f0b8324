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

import functools
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
                                exclude_band: float = 0.0, within_band: float = 0.0) -> NonExistence:
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
        if within_band > 0:
            # the cell's smallest |theta_1 - theta_2| is max(|cx - cy| - 2 r, 0)
            keep = np.abs(cx - cy) - 2 * r < within_band
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


def zero_temperature_regime(weights: Sequence[float], centers: Sequence[float], width: float,
                            outside: float) -> str:
    r"""Equilibrium regime of the two-source duopoly predicted by its zero-temperature limit.

    As $\tau \to 0$ the logit choice becomes a best choice: each source goes to the provider
    with the smallest loss when that loss is below the outside option's $c$ (ties split
    equally), and to no one otherwise.  With $0 < c < \ell_\text{far} = 1 - e^{-(\mu_1 -
    \mu_2)^2 / (2 s^2)}$ (a source is not served by a model sitting on the other source's
    optimum), a provider can hold a source alone only by being strictly closer to it, so in the
    limit game (our derivation, for the reconstruction):

    - the specialised profile $(\mu_1, \mu_2)$ is an equilibrium iff $w_\min \ge w_\max / 2$
      (the provider of the small source gets $w_\min$; joining the other gets $w_\max / 2$);
    - the shared profile $(\mu_\max, \mu_\max)$ is an equilibrium iff $w_\max / 2 \ge w_\min$;
    - no other profile is (a model serving both sources from between them loses each source
      to a rival sitting closer to it, and a shared model between them is beaten by moving
      towards the heavier source when $w_\max > 1/2$; at $w_1 = w_2$ the shared midpoint is a
      tie, hence an equilibrium when it serves both sources).

    Returns:
        ``"heterogeneous"`` when $w_\max < 2 w_\min$, ``"homogeneous"`` when
        $w_\max > 2 w_\min$, ``"both"`` at the degenerate points $w_\max = 2 w_\min$ and
        $w_1 = w_2$ (the latter when the midpoint's loss is below $c$).

    Raises:
        ValueError: unless there are two sources with positive weights summing to 1, a positive
            width, and ``0 < outside < l_far`` (the hypothesis of the reduction).
    """
    w = np.asarray(weights, dtype=float)
    if w.shape != (2,) or len(centers) != 2 or np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
        raise ValueError("the zero-temperature prediction covers two sources with positive weights summing to 1")
    if not width > 0:
        raise ValueError("width must be positive")
    far = 1.0 - np.exp(-((centers[0] - centers[1]) ** 2) / (2.0 * width**2))
    if not 0.0 < outside < far:
        raise ValueError(f"the reduction needs 0 < outside option ({outside}) < far-source loss ({far:.6g})")
    hi, lo = float(w.max()), float(w.min())
    mid = 1.0 - np.exp(-((centers[0] - centers[1]) ** 2) / (8.0 * width**2))
    if abs(hi - 2.0 * lo) <= 1e-12 or (abs(hi - 0.5) <= 1e-12 and mid < outside):
        return "both"
    return "heterogeneous" if hi < 2.0 * lo else "homogeneous"


@dataclass(frozen=True)
class RegimeCertificate:
    """Result of :func:`certify_regime`.

    Attributes:
        regime: ``"heterogeneous"``, ``"homogeneous"``, ``"both"``, ``"none"`` or
            ``"uncertified"`` (some part could be neither certified present nor absent).
        homogeneous, heterogeneous: for each kind, ``"present"`` (an equilibrium of that kind
            certified by its continuous regret), ``"absent"`` (a branch and bound proved that
            no profile of that kind is an equilibrium) or ``"unknown"``.
        profiles: the certified equilibria, ``(theta_1, theta_2, regret upper bound)``.
        cells: cells examined by the branch and bounds.
        undecided: for each ``"unknown"`` kind, why the branch and bound stopped without a
            certificate (work limit ``max_cells`` reached, or a cell shrank to the minimum
            half-width: a near-equilibrium the grid search did not certify), with the cell.
    """

    regime: str
    homogeneous: str
    heterogeneous: str
    profiles: tuple[tuple[float, float, float], ...]
    cells: int
    undecided: tuple[str, ...] = ()


@functools.lru_cache(maxsize=256)
def certify_regime(game: DataGame, n_grid: int = 201, n_dev: int = 400001, n_dev_cells: int = 401,
                   max_cells: int = 1_000_000, band: float = 0.1, eps: float = 1e-4) -> RegimeCertificate:
    r"""Certified equilibrium regime of a duopoly on the continuous square.

    A profile is *homogeneous* when $|\theta_1 - \theta_2| < $ ``band``, else *heterogeneous*.
    For each kind: the exact pure equilibria of the grid game (``n_grid`` models) seed a
    best-response refinement; a refined profile of that kind whose continuous regret bound
    (:func:`continuous_regret`, ``n_dev`` deviations) is at most ``eps`` makes the kind
    *present*; otherwise the branch and bound of :func:`certify_no_pure_equilibrium`
    restricted to the profiles of that kind (``n_dev_cells`` deviations per cell, at most
    ``max_cells`` cells) may prove it *absent*.

    Deterministic; results are cached (the game is hashable).

    Raises:
        ValueError: for ``band <= 0`` or ``eps <= 0``.
    """
    if not band > 0 or not eps > 0:
        raise ValueError("band and eps must be positive")
    eqs = grid_equilibria(game, n_grid)
    status = {"homogeneous": "unknown", "heterogeneous": "unknown"}
    profiles = []
    for kind in status:
        for cand in [e for e in eqs if (abs(e[0] - e[1]) < band) == (kind == "homogeneous")][:2]:
            prof = refine_equilibrium(game, cand, n_grid=n_dev // 20 * 2 + 1)
            if (abs(prof[0] - prof[1]) < band) != (kind == "homogeneous"):
                continue
            _, upper = continuous_regret(game, prof, n_dev)
            if upper <= eps:
                status[kind] = "present"
                profiles.append((prof[0], prof[1], upper))
                break
    cells = 0
    undecided = []
    for kind in status:
        if status[kind] == "present":
            continue
        res = certify_no_pure_equilibrium(game, n_dev=n_dev_cells, max_cells=max_cells,
                                          exclude_band=band if kind == "heterogeneous" else 0.0,
                                          within_band=band if kind == "homogeneous" else 0.0)
        cells += res.cells
        if res.certified:
            status[kind] = "absent"
        else:
            where = f"({res.uncertified[0]:.5f}, {res.uncertified[1]:.5f})"
            undecided.append(
                f"{kind}: no grid equilibrium of this kind certified, and the branch and bound stopped "
                + (f"at its work limit after {res.cells} cells (max_cells = {max_cells}) at cell {where}"
                   if res.cells > max_cells else
                   f"at the minimum cell size without a certificate at cell {where} (a near-equilibrium)"))
    hom, het = status["homogeneous"], status["heterogeneous"]
    if "unknown" in (hom, het):
        regime = "uncertified"
    elif hom == het == "present":
        regime = "both"
    elif hom == het == "absent":
        regime = "none"
    else:
        regime = "homogeneous" if hom == "present" else "heterogeneous"
    return RegimeCertificate(regime, hom, het, tuple(profiles), cells, tuple(undecided))


# --------------------------------------------------------------------------- monopoly and n providers
def monopoly_optimum(game: DataGame, n_grid: int = 400001) -> tuple[float, float, float]:
    r"""Best model of a single provider (monopoly) on the continuous interval, certified.

    The monopolist's market share is $U(\theta) = \sum_j w_j e^{-\ell_j(\theta)/\tau} /
    (e^{-c/\tau} + e^{-\ell_j(\theta)/\tau})$ (it needs an outside option: without one every
    source is served whatever the model and $U \equiv 1$).

    Returns:
        ``(theta_hat, value_lower, value_upper)``: the grid maximiser, its utility (a lower
        bound on the maximum) and the grid maximum plus the Lipschitz margin $L h / 2$ (an upper
        bound on $\sup_\theta U$).

    Raises:
        ValueError: without an outside option.
    """
    if game.outside is None:
        raise ValueError("a monopoly needs an outside option (otherwise its market share is always 1)")
    dev = np.linspace(-game.bound, game.bound, n_grid)
    u = game.utility(dev, [])
    i = int(np.argmax(u))
    return float(dev[i]), float(u[i]), float(u[i]) + game.lipschitz() * (dev[1] - dev[0]) / 2.0


def sup_outside(game: DataGame, lo: float, hi: float, n_grid: int = 400001) -> float:
    """Certified upper bound on the monopolist's utility over ``[-bound, bound]`` minus ``(lo, hi)``.

    Grid maximum over the complement plus the Lipschitz margin ``L h / 2`` (the grid contains
    the interval's ends, so every point of the complement is within h/2 of a grid point of it).
    """
    if game.outside is None:
        raise ValueError("a monopoly needs an outside option")
    parts = [np.linspace(-game.bound, lo, n_grid) if lo > -game.bound else np.empty(0),
             np.linspace(hi, game.bound, n_grid) if hi < game.bound else np.empty(0)]
    best, h = -np.inf, 0.0
    for p in parts:
        if p.size > 1:
            best = max(best, float(np.max(game.utility(p, []))))
            h = max(h, p[1] - p[0])
    return best + game.lipschitz() * h / 2.0


def zero_temperature_splits(weights: Sequence[float], n: int) -> list[int]:
    r"""Numbers $k$ of providers on source 1 (the rest on source 2) that the zero-temperature
    limit predicts as pure equilibria of the $n$-provider, two-source game.

    In the limit (outside option $0 < c < \ell_\text{far}$, as in
    :func:`zero_temperature_regime`) the $k$ providers on a source share it equally, so the
    split is an equilibrium iff nobody gains by moving to the other source:
    $w_1 / k \ge w_2 / (n - k + 1)$ for $k \ge 1$ and $w_2 / (n - k) \ge w_1 / (k + 1)$ for
    $k \le n - 1$.  ``k = n`` (or 0) is the homogeneous profile.

    Raises:
        ValueError: for ``n < 1`` or weights that are not two positive numbers summing to 1.
    """
    w = np.asarray(weights, dtype=float)
    if n < 1 or w.shape != (2,) or np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
        raise ValueError("need n >= 1 and two positive weights summing to 1")
    out = []
    for k in range(n + 1):
        stay1 = k == 0 or w[0] / k >= w[1] / (n - k + 1) - 1e-12
        stay2 = k == n or w[1] / (n - k) >= w[0] / (k + 1) - 1e-12
        if stay1 and stay2:
            out.append(k)
    return out


def regret_bounds(game: DataGame, profile: Sequence[float], n_grid: int = 400001) -> tuple[float, float]:
    """Certified bounds on the largest regret of an ``n``-provider profile (any ``n >= 1``).

    As :func:`continuous_regret`: each provider deviates over a grid of ``n_grid`` models with
    the others fixed; ``upper = lower + L h / 2``.
    """
    dev = np.linspace(-game.bound, game.bound, n_grid)
    t = [float(x) for x in profile]
    lo = 0.0
    for i in range(len(t)):
        others = [np.array(x) for j, x in enumerate(t) if j != i]
        base = float(game.utility(np.array(t[i]), others))
        lo = max(lo, float(np.max(game.utility(dev, others))) - base)
    return lo, lo + game.lipschitz() * (dev[1] - dev[0]) / 2.0


def refine_profile(game: DataGame, profile: Sequence[float], n_grid: int = 40001,
                   rounds: int = 30, keep_sides: bool = False) -> tuple[float, ...]:
    """Round-robin best responses on a grid of ``n_grid`` models from ``profile`` until no
    provider moves (or ``rounds`` rounds); returns the last profile.

    With ``keep_sides`` each provider best-responds only among the models on its starting side
    of 0 (``theta < 0`` or ``theta > 0``; a provider starting at 0 is unrestricted), so the
    number of providers on each source's side is kept: the best profile of that split the
    dynamics finds.

    Raises:
        ValueError: for ``n_grid < 2``.
    """
    if n_grid < 2:
        raise ValueError(f"need n_grid >= 2, got {n_grid}")
    dev = np.linspace(-game.bound, game.bound, n_grid)
    t = [float(x) for x in profile]
    allowed = [dev[dev < 0] if (keep_sides and x < 0) else dev[dev > 0] if (keep_sides and x > 0) else dev
               for x in t]
    for _ in range(rounds):
        moved = False
        for i in range(len(t)):
            others = [np.array(x) for j, x in enumerate(t) if j != i]
            b = float(allowed[i][int(np.argmax(game.utility(allowed[i], others)))])
            moved |= b != t[i]
            t[i] = b
        if not moved:
            break
    return tuple(t)


def service_radius(width: float, outside: float) -> float:
    r"""Distance $r_c$ within which a model serves a source in the zero-temperature limit:
    $\ell(\theta) < c \iff |\theta - \mu| < r_c = s \sqrt{-2 \ln(1 - c)}$ (for $0 < c < 1$)."""
    if not 0.0 < outside < 1.0 or not width > 0:
        raise ValueError("need 0 < outside < 1 and width > 0")
    return float(width * np.sqrt(-2.0 * np.log1p(-outside)))


def zero_temperature_monopoly(weights: Sequence[float], centers: Sequence[float], width: float,
                              outside: float) -> tuple[str, float, float]:
    r"""Where the zero-temperature limit puts a monopolist's model, for two sources.

    In the limit the monopolist serves exactly the sources within the service radius $r_c$
    (:func:`service_radius`) of its model, so its share is the total weight of those sources:
    it picks a model serving both sources when the two service intervals overlap
    ($|\mu_1 - \mu_2| < 2 r_c$, i.e. the midpoint's loss is below $c$), and otherwise a model
    serving the heavier source alone (our derivation, for the reconstruction).

    Returns:
        ``(label, lo, hi)``: ``"serves both sources"`` with the overlap interval, or
        ``"serves source 1 only"`` / ``"serves source 2 only"`` with the heavier source's
        service interval.

    Raises:
        ValueError: for weights that are not two positive numbers summing to 1, equal weights
            without overlap (a tie), or ``outside`` outside ``(0, 1)``.
    """
    w = np.asarray(weights, dtype=float)
    if w.shape != (2,) or len(centers) != 2 or np.any(w <= 0) or abs(w.sum() - 1) > 1e-12:
        raise ValueError("need two positive weights summing to 1 and two centers")
    r = service_radius(width, outside)
    a, b = sorted(float(x) for x in centers)
    if b - a < 2 * r:
        return "serves both sources", b - r, a + r
    if abs(w[0] - w[1]) <= 1e-12:
        raise ValueError("equal weights without overlap: the limit does not single out a source")
    j = int(np.argmax(w))
    return f"serves source {j + 1} only", float(centers[j]) - r, float(centers[j]) + r
