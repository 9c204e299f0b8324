r"""The Heterogeneous Data Game: ML providers choose linear models, data sources choose providers.

Xu, Wang & Li, "Heterogeneous Data Game: Characterizing the Model Competition Across Multiple
Data Sources" (ICML 2025).  Data source $k = 1..K$ has mass $w_k$, ground-truth parameter
$\theta_k \in \mathbb R^D$ and covariance $\Sigma_k \succ 0$; provider $n = 1..N$ picks a model
$\hat\theta_n \in \mathbb R^D$ whose loss on source $k$ is the squared Mahalanobis distance
$\ell_k(\hat\theta_n) = (\hat\theta_n - \theta_k)^\top\Sigma_k(\hat\theta_n - \theta_k)$ (the
excess mean squared error of a linear model).  Each source splits its mass over the providers by
a choice model, and a provider's utility is its market share $u_n = \sum_k w_k g_{n,k}$:

* PROX (proximity): source $k$ goes to the provider(s) with the smallest loss, ties split
  equally;
* PROP (probability): $g_{n,k} = e^{-\ell_k(\hat\theta_n)/t} / \sum_m e^{-\ell_k(\hat\theta_m)/t}$
  at temperature $t > 0$.

The functions certify statements about pure Nash equilibria (PNE) on the continuum $\mathbb R^D$:
branch and bound over square cells with local Lipschitz bounds (a provider's share is smooth
under PROP; under PROX a deviation that is strictly closer to a set of sources than every point of
a cell captures them against every rival in the cell), a concavity certificate on a ball around
the weighted optimum, and boxes outside of which every model is worse than a reference model for
every source.  For the duopoly a symmetric constant-sum structure reduces every question to one
set: see :func:`symmetric_duopoly_note`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize


# --------------------------------------------------------------------------- the market
@dataclass(frozen=True)
class DataMarket:
    r"""Data sources of the Heterogeneous Data Game.

    Attributes:
        weights: source masses $w_k > 0$ summing to 1, shape ``(K,)``.
        truths: ground truths $\theta_k$, shape ``(K, D)``.
        covariances: $\Sigma_k$, symmetric positive definite, shape ``(K, D, D)``.

    Raises:
        ValueError: on mismatched shapes, weights that are not positive or do not sum to 1, or
            covariances that are not symmetric positive definite.
    """

    weights: Any
    truths: Any
    covariances: Any
    _eig: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        w = np.asarray(self.weights, dtype=float)
        th = np.asarray(self.truths, dtype=float)
        S = np.asarray(self.covariances, dtype=float)
        if th.ndim != 2 or w.shape != (th.shape[0],) or S.shape != (th.shape[0], th.shape[1], th.shape[1]):
            raise ValueError(f"need weights (K,), truths (K, D), covariances (K, D, D); got {w.shape}, {th.shape}, "
                             f"{S.shape}")
        if np.any(w <= 0) or abs(w.sum() - 1.0) > 1e-12:
            raise ValueError(f"weights must be positive and sum to 1, got {w}")
        if not np.allclose(S, np.swapaxes(S, 1, 2), atol=1e-12):
            raise ValueError("covariances must be symmetric")
        eig = np.linalg.eigvalsh(S)
        if np.any(eig <= 0):
            raise ValueError("covariances must be positive definite")
        for name, val in (("weights", w), ("truths", th), ("covariances", S)):
            object.__setattr__(self, name, val)
        object.__setattr__(self, "_eig", eig)

    @property
    def K(self) -> int:
        """Number of sources."""
        return self.truths.shape[0]

    @property
    def D(self) -> int:
        """Dimension of the models."""
        return self.truths.shape[1]

    @property
    def smallest_eigenvalues(self) -> np.ndarray:
        r"""$\lambda_{\min}(\Sigma_k)$, shape ``(K,)``."""
        return self._eig[:, 0]

    @property
    def largest_eigenvalues(self) -> np.ndarray:
        r"""$\lambda_{\max}(\Sigma_k) = \|\Sigma_k\|_2$, shape ``(K,)``."""
        return self._eig[:, -1]

    def with_weights(self, weights: Any) -> DataMarket:
        """The same sources with other masses."""
        return DataMarket(weights, self.truths, self.covariances)

    def losses(self, theta: Any) -> np.ndarray:
        r"""$\ell_k(\theta)$ for models of shape ``(..., D)``: shape ``(..., K)``."""
        d = np.asarray(theta, dtype=float)[..., None, :] - self.truths
        return np.einsum("...ki,kij,...kj->...k", d, self.covariances, d)

    def loss_gradients(self, theta: Any) -> np.ndarray:
        r"""$\nabla\ell_k(\theta) = 2\Sigma_k(\theta - \theta_k)$: shape ``(..., K, D)``."""
        d = np.asarray(theta, dtype=float)[..., None, :] - self.truths
        return 2.0 * np.einsum("kij,...kj->...ki", self.covariances, d)

    def weighted_optimum(self, q: Any = None) -> np.ndarray:
        r"""$\bar\theta(q) = \arg\min_\theta \sum_k q_k\ell_k(\theta) = (\sum_k q_k\Sigma_k)^{-1}\sum_k q_k\Sigma_k\theta_k$.

        Args:
            q: non-negative weights, shape ``(K,)`` (default: the source masses, giving the
                monopoly model $\hat\theta^M$ of the paper).
        """
        q = self.weights if q is None else np.asarray(q, dtype=float)
        A = np.einsum("k,kij->ij", q, self.covariances)
        return np.linalg.solve(A, np.einsum("k,kij,kj->i", q, self.covariances, self.truths))

    def simplex_coordinates(self, theta: Any) -> tuple[np.ndarray, float]:
        r"""The $q$ in the simplex with $\bar\theta(q)$ closest to ``theta``, and the distance.

        $\bar\theta(q) = \theta$ iff $\sum_k q_k\Sigma_k(\theta - \theta_k) = 0$: a non-negative
        least-squares problem in $q$ (with $\sum q = 1$), solved with scipy; the returned distance
        is $|\bar\theta(q) - \theta|$ for the solution (0 when $\theta$ lies in
        $\vartheta = \{\bar\theta(q)\}$, the set that contains every equilibrium strategy by the
        paper's Proposition 4.1).
        """
        from scipy.optimize import nnls

        th = np.asarray(theta, dtype=float)
        G = np.einsum("kij,kj->ik", self.covariances, th[None, :] - self.truths)  # (D, K)
        scale = max(1.0, float(np.abs(G).max()))
        A = np.vstack([G / scale, 1e3 * np.ones((1, self.K))])
        b = np.r_[np.zeros(self.D), 1e3]
        q, _ = nnls(A, b)
        q = q / q.sum()
        return q, float(np.linalg.norm(self.weighted_optimum(q) - th))

    @classmethod
    def random(cls, rng: np.random.Generator, K: int, D: int, weights: Any = None, spread: float = 1.0,
               ridge: float = 0.2) -> DataMarket:
        r"""A random market: $\theta_k \sim \mathcal N(0, \text{spread}^2 I)$,
        $\Sigma_k = B_kB_k^\top/D + \text{ridge}\,I$ with Gaussian $B_k$, weights Dirichlet(1) unless given."""
        if K < 1 or D < 1:
            raise ValueError(f"need K >= 1 and D >= 1, got {K}, {D}")
        th = spread * rng.standard_normal((K, D))
        B = rng.standard_normal((K, D, D))
        S = np.einsum("kij,klj->kil", B, B) / D + ridge * np.eye(D)
        w = rng.dirichlet(np.ones(K)) if weights is None else np.asarray(weights, dtype=float)
        return cls(w, th, S)


def split_weights(w1: float, rest: Any) -> np.ndarray:
    """Masses ``(w1, (1 - w1) r_2, ..., (1 - w1) r_K)`` for a split ``rest`` of the others (summing to 1)."""
    r = np.asarray(rest, dtype=float)
    if not 0 < w1 < 1 or np.any(r <= 0) or abs(r.sum() - 1) > 1e-12:
        raise ValueError("need 0 < w1 < 1 and a positive split of the rest summing to 1")
    return np.r_[w1, (1 - w1) * r]


# --------------------------------------------------------------------------- choice models
def prop_share(market: DataMarket, own: Any, rivals: Any, temperature: float) -> np.ndarray:
    r"""Market share under PROP of a provider at ``own`` against rivals at ``rivals``.

    $u = \sum_k w_k / (1 + \sum_r e^{(\ell_k(\text{own}) - \ell_k(r))/t})$.

    Args:
        own: shape ``(..., D)``; rivals: shape ``(..., R, D)`` (broadcast against ``own``'s
            leading axes) with ``R >= 1``; temperature: $t > 0$.

    Returns:
        Shares, shape of the broadcast leading axes.
    """
    if not temperature > 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    lo = market.losses(own)[..., None, :]  # (..., 1, K)
    lr = market.losses(rivals)  # (..., R, K)
    with np.errstate(over="ignore"):
        den = 1.0 + np.sum(np.exp((lo - lr) / temperature), axis=-2)
    return np.sum(market.weights / den, axis=-1)


def prox_share(market: DataMarket, own: Any, rivals: Any) -> np.ndarray:
    r"""Market share under PROX: each source goes to the provider(s) of smallest loss, ties split.

    Args:
        own: shape ``(..., D)``; rivals: shape ``(..., R, D)``.
    """
    lo = market.losses(own)  # (..., K)
    lr = market.losses(rivals)  # (..., R, K)
    best = lr.min(axis=-2)
    ties = np.sum(lr == lo[..., None, :], axis=-2)
    share = np.where(lo < best, 1.0, np.where(lo == best, 1.0 / (1.0 + ties), 0.0))
    return np.sum(market.weights * share, axis=-1)


def symmetric_duopoly_note() -> str:
    """The reduction the duopoly certificates rest on (a fact about symmetric constant-sum games).

    Both choice models give shares with ``u_1(a, b) + u_2(a, b) = 1`` and ``u_2(a, b) =
    u_1(b, a)``, and copying the rival gives 1/2.  At a PNE each provider can copy, so both
    shares are at least 1/2, hence exactly 1/2; so ``(a, b)`` is a PNE iff
    ``BR(a) <= 1/2`` and ``BR(b) <= 1/2`` with ``BR(b) = sup_x u_1(x, b)``, and then ``(b, b)``
    is a PNE too.  The PNE set is ``B x B`` with ``B = {b : BR(b) <= 1/2}``: no PNE iff ``B`` is
    empty, and every PNE is ``(M, M)`` iff ``B = {M}``.
    """
    return symmetric_duopoly_note.__doc__.split("\n\n")[1].strip()


# --------------------------------------------------------------------------- cells
def _box(market: DataMarket, levels: np.ndarray) -> tuple[np.ndarray, float]:
    r"""(centre, half-width) of a box outside which $\ell_k > $ ``levels[k]`` for every source."""
    centre = 0.5 * (market.truths.min(axis=0) + market.truths.max(axis=0))
    off = np.abs(market.truths - centre).max(axis=1)
    half = float(np.max(off + np.sqrt(np.maximum(levels, 0.0) / market.smallest_eigenvalues))) * 1.001 + 1e-9
    return centre, half


def _initial_cells(centre: np.ndarray, half: float, per_side: int) -> tuple[np.ndarray, float]:
    r = half / per_side
    ax = -half + r * (2 * np.arange(per_side) + 1)
    grids = np.meshgrid(*([ax] * centre.size), indexing="ij")
    return centre + np.stack([g.ravel() for g in grids], axis=1), r


def _split(cells: np.ndarray, r: float) -> tuple[np.ndarray, float]:
    D = cells.shape[1]
    signs = np.array(np.meshgrid(*([[-1.0, 1.0]] * D), indexing="ij")).reshape(D, -1).T  # (2^D, D)
    return (cells[:, None, :] + 0.5 * r * signs[None]).reshape(-1, D), r / 2


def _gradient_bounds(market: DataMarket, cells: np.ndarray, r: float) -> np.ndarray:
    r"""Upper bounds of $|\nabla\ell_k|$ over each cell: $|\nabla\ell_k(c)| + 2\|\Sigma_k\| r\sqrt D$, shape ``(n, K)``."""
    g = np.linalg.norm(market.loss_gradients(cells), axis=-1)
    return g + 2.0 * market.largest_eigenvalues * r * np.sqrt(market.D)


@dataclass(frozen=True)
class CellSearch:
    """Outcome of a branch and bound over cells.

    Attributes:
        certified: every cell (and the outside of the box) got its certificate.
        cells: cells examined.
        margin: the smallest certified margin (a lower bound of a gain, or of a gap to a value).
        stuck: centre of a cell that could not be certified (None when certified).
        box: (centre, half-width) of the box searched.
        excluded: (centre, radius) of a ball left out of the search, or None.
        violated: True when the search stopped at a cell whose centre itself violates the
            statement (``stuck`` is then a counterexample, not merely an undecided cell).
    """

    certified: bool
    cells: int
    margin: float
    stuck: tuple[float, ...] | None
    box: tuple[tuple[float, ...], float]
    excluded: tuple[tuple[float, ...], float] | None = None
    violated: bool = False


def _branch_and_bound(market: DataMarket, centre: np.ndarray, half: float, certify, *,
                      exclude: tuple[np.ndarray, float] | None, per_side: int, min_half_width: float,
                      max_cells: int, chunk: int = 4096, violated=None) -> CellSearch:
    """Generic driver: ``certify(cells, r) -> margins`` (certified where > 0); uncertified cells split.

    ``violated(cells) -> mask`` (optional) marks cells whose centre itself contradicts the
    statement: the search then stops there at once with that centre as a counterexample.
    """
    cells, r = _initial_cells(centre, half, per_side)
    examined, margin = 0, np.inf
    box = (tuple(float(v) for v in centre), float(half))
    excl = None if exclude is None else (tuple(float(v) for v in exclude[0]), float(exclude[1]))
    while cells.size:
        if exclude is not None:
            far = np.linalg.norm(cells - exclude[0], axis=1) + r * np.sqrt(market.D) >= exclude[1]
            cells = cells[far]
            if not cells.size:
                break
        examined += cells.shape[0]
        if examined > max_cells:
            return CellSearch(False, examined, margin, tuple(float(v) for v in cells[0]), box, excl)
        m = np.concatenate([certify(cells[s:s + chunk], r) for s in range(0, cells.shape[0], chunk)])
        ok = m > 0
        if np.any(ok):
            margin = min(margin, float(m[ok].min()))
        cells, m = cells[~ok], m[~ok]
        if not cells.size:
            break
        if violated is not None:
            bad = violated(cells)
            if np.any(bad):
                return CellSearch(False, examined, margin, tuple(float(v) for v in cells[np.argmax(bad)]), box, excl,
                                  violated=True)
        if r / 2 < min_half_width:
            return CellSearch(False, examined, margin, tuple(float(v) for v in cells[np.argmin(m)]), box, excl)
        cells, r = _split(cells, r)
    return CellSearch(True, examined, margin, None, box, excl)


# --------------------------------------------------------------------------- deviation candidates
def _candidate_offsets(D: int, n_dirs: int = 16, steps: Any = None) -> np.ndarray:
    """Offsets ``s d`` for unit directions d (evenly spread in 2-D) and geometric steps."""
    steps = np.geomspace(1e-7, 2.0, 24) if steps is None else np.asarray(steps, dtype=float)
    if D == 1:
        dirs = np.array([[-1.0], [1.0]])
    elif D == 2:
        ang = 2 * np.pi * np.arange(n_dirs) / n_dirs
        dirs = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    else:
        dirs = np.concatenate([np.eye(D), -np.eye(D)])
    return (steps[:, None, None] * dirs[None]).reshape(-1, D)


def _global_candidates(market: DataMarket, centre: np.ndarray, half: float, per_side: int = 15) -> np.ndarray:
    pts, _ = _initial_cells(centre, half, per_side)
    return np.concatenate([pts, market.truths, market.weighted_optimum()[None]])


# --------------------------------------------------------------------------- PROP certificates
LOGISTIC_CURVATURE = 1.0 / (6.0 * np.sqrt(3.0))  # max |p(1-p)(1-2p)| over p in [0, 1]


def prop_share_gradient(market: DataMarket, own: Any, rivals: Any, temperature: float) -> tuple[np.ndarray, np.ndarray]:
    r"""PROP share of a provider at ``own`` (shape ``(..., D)``) against ``rivals`` (``(R, D)``) and its gradient.

    With $p_k = 1/(1 + \sum_r e^{(\ell_k(a) - \ell_k(r))/t})$, $u = \sum_k w_kp_k$ and
    $\nabla u = -\sum_k w_kp_k(1 - p_k)\nabla\ell_k(a)/t$.

    Returns:
        ``(u, grad)`` of shapes ``(...)`` and ``(..., D)``.
    """
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    lo = market.losses(own)
    with np.errstate(over="ignore"):
        p = 1.0 / (1.0 + np.sum(np.exp((lo[..., None, :] - market.losses(riv)) / temperature), axis=-2))
    grad = -np.einsum("...k,...ki->...i", market.weights * p * (1 - p), market.loss_gradients(own)) / temperature
    return np.sum(market.weights * p, axis=-1), grad


def _logistic_slope(x: np.ndarray, spread: np.ndarray) -> np.ndarray:
    r"""$\max p(1-p)$ for $p = 1/(1 + e^{y})$ over $|y - x| \le$ ``spread``: $e^{-m}/(1 + e^{-m})^2$
    with $m = \max(|x| - \text{spread}, 0)$ (at most 1/4, tiny on the logistic's plateaus)."""
    m = np.maximum(np.abs(x) - spread, 0.0)
    e = np.exp(-np.minimum(m, 700.0))
    return e / (1.0 + e) ** 2


def _prop_share_upper(market: DataMarket, cells: np.ndarray, r: float, rivals: np.ndarray,
                      temperature: float) -> np.ndarray:
    r"""Upper bound of the PROP share over each cell (centre $c$, $\rho = r\sqrt D$).

    The share is $\sum_k w_k\psi(x_k)$, $x_k = (\ell_k(a) - c_k)/t$, $c_k = -t\log\sum_r
    e^{-\ell_k(r)/t}$; over the cell $|x_k - x_k(c)| \le X_k = (|\nabla\ell_k(c)|\rho +
    \|\Sigma_k\|\rho^2)/t$ and $|\nabla\ell_k| \le G_k$, so $p(1-p) \le q_k$ (:func:`_logistic_slope`).
    The bound is the smaller of $u(c) + \sum_k w_kq_kG_k\rho/t$ and
    $u(c) + |\nabla u(c)|\rho + \tfrac12 H\rho^2$ with
    $H = \sum_k w_k[\min(q_k, \max|\psi''|)G_k^2/t^2 + 2q_k\|\Sigma_k\|/t]$ bounding the Hessian."""
    t = temperature
    u, g = prop_share_gradient(market, cells, rivals, t)
    rho = r * np.sqrt(market.D)
    lr = market.losses(rivals)  # (R, K)
    low = lr.min(axis=0)
    ck = low - t * np.log(np.sum(np.exp(-(lr - low) / t), axis=0))
    here = market.losses(cells)
    grad0 = np.linalg.norm(market.loss_gradients(cells), axis=-1)
    X = (grad0 * rho + market.largest_eigenvalues * rho**2) / t
    q = _logistic_slope((here - ck) / t, X)
    G = _gradient_bounds(market, cells, r)
    first = (market.weights * q * G).sum(axis=-1) / t * rho
    H = (market.weights * (np.minimum(q, LOGISTIC_CURVATURE) * G**2 / t**2
                           + 2 * q * market.largest_eigenvalues / t)).sum(axis=-1)
    second = np.linalg.norm(g, axis=-1) * rho + 0.5 * H * rho**2
    return u + np.minimum(first, second)


def certify_share_below(market: DataMarket, rivals: Any, temperature: float, value: float, *,
                        exclude: tuple[Any, float] | None = None, per_side: int = 16,
                        min_half_width: float = 1e-9, max_cells: int = 2_000_000) -> CellSearch:
    r"""Prove $u(a) = $ PROP share against ``rivals`` $<$ ``value`` for every model $a \in \mathbb R^D$ (outside a ball).

    Branch and bound in $a$: a cell is certified when the upper bound of :func:`_prop_share_upper`
    is below ``value``.  Outside the box every source's loss exceeds each rival's by $\Delta$ with
    $1/(1 + R e^{\Delta/t}) <$ ``value``, so the share is below ``value`` there.

    Args:
        rivals: the other providers' models, shape ``(R, D)``.
        value: the share to stay below (e.g. the current share plus a tolerance).
        exclude: ``(centre, radius)`` of a ball not examined (handled by another certificate).

    Returns:
        A :class:`CellSearch`; ``margin`` is the smallest certified ``value - upper bound``; it
        stops at the first cell centre whose share reaches ``value`` (``violated``).
    """
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    R = riv.shape[0]
    delta = temperature * (np.log(max(1.0 / (R * value), 1.0)) + np.log(2.0))
    levels = market.losses(riv).max(axis=0) + delta
    centre, half = _box(market, levels)

    def certify(cells: np.ndarray, r: float) -> np.ndarray:
        return value - _prop_share_upper(market, cells, r, riv, temperature)

    def violated(cells: np.ndarray) -> np.ndarray:
        return prop_share(market, cells, riv[None], temperature) >= value

    ex = None if exclude is None else (np.asarray(exclude[0], dtype=float), float(exclude[1]))
    return _branch_and_bound(market, centre, half, certify, exclude=ex, per_side=per_side,
                             min_half_width=min_half_width, max_cells=max_cells, violated=violated)


def _interval_extrema(p_lo: np.ndarray, p_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(min of p(1-p), max of p(1-p)(1-2p)) for p in [p_lo, p_hi] (elementwise)."""
    q = lambda p: p * (1 - p)  # noqa: E731
    c = lambda p: p * (1 - p) * (1 - 2 * p)  # noqa: E731
    qmin = np.minimum(q(p_lo), q(p_hi))
    cmax = np.maximum(c(p_lo), c(p_hi))
    crit = (3 - np.sqrt(3)) / 6  # where p(1-p)(1-2p) is largest
    inside = (p_lo <= crit) & (crit <= p_hi)
    return qmin, np.where(inside, np.maximum(cmax, c(crit)), cmax)


def share_hessian(market: DataMarket, model: Any, rivals: Any, temperature: float) -> np.ndarray:
    r"""Hessian of a provider's PROP share at ``model``: $\sum_k w_k[\psi''g_kg_k^\top/t^2 - p_k(1-p_k)2\Sigma_k/t]$
    with $\psi'' = p(1-p)(1-2p)$ (see :func:`concavity_radius`), shape ``(D, D)``."""
    a0 = np.asarray(model, dtype=float)
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    with np.errstate(over="ignore"):
        p = 1.0 / (1.0 + np.sum(np.exp((market.losses(a0)[None] - market.losses(riv)) / temperature), axis=0))
    g = market.loss_gradients(a0)
    return (np.einsum("k,ki,kj->ij", market.weights * p * (1 - p) * (1 - 2 * p), g, g) / temperature**2
            - np.einsum("k,kij->ij", market.weights * p * (1 - p), 2 * market.covariances) / temperature)


def concavity_radius(market: DataMarket, centre: Any, rivals: Any, temperature: float, *, start: float = 1.0,
                     halvings: int = 60) -> float:
    r"""Radius $\rho$ of a ball around ``centre`` $a_0$ on which a deviator's PROP share is concave.

    Against rivals the share is $\sum_k w_k\psi(x_k)$ with $x_k = (\ell_k(a) - c_k)/t$,
    $c_k = -t\log\sum_r e^{-\ell_k(r)/t}$, $\psi(x) = 1/(1 + e^x)$: $\psi' = -p(1-p)$,
    $\psi'' = p(1-p)(1-2p)$ and $|\psi^{(3)}| \le 1/8$, with $p = \psi(x)$; the Hessian is
    $H(a) = \sum_k w_k[\psi''(x_k)g_kg_k^\top/t^2 + \psi'(x_k)2\Sigma_k/t]$, $g_k = \nabla\ell_k(a)$.
    On $|a - a_0| \le \rho$: $|x_k - x_k(a_0)| \le X_k = (|g_k(a_0)|\rho + \|\Sigma_k\|\rho^2)/t$ and
    $|g_k| \le G_k = |g_k(a_0)| + 2\|\Sigma_k\|\rho$.  Two bounds on $\lambda_{\max}(H(a))$, the ball
    being concave when either is negative:

    * $\sum_k w_k[\max\psi''\,G_k^2/t^2 - \min p(1-p)\,2\lambda_{\min}(\Sigma_k)/t]$ (extrema of the
      logistic factors over the interval of $x_k$);
    * $\lambda_{\max}(H(a_0)) + \sum_k w_k[(X_kG_k^2/8 + |\psi''(x_k(a_0))|\,2\|\Sigma_k\|\rho\,
      (|g_k(a_0)| + G_k))/t^2 + \max|\psi''|\,X_k\,2\|\Sigma_k\|/t]$ (the Hessian at the centre
      plus a bound on its variation).

    The radius is halved from ``start`` until one bound is negative.

    Returns:
        The radius, or 0.0 when none of ``halvings`` radii works (the share is not strictly
        concave at ``centre``).
    """
    a0 = np.asarray(centre, dtype=float)
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    t = temperature
    lr = market.losses(riv)  # (R, K)
    m = lr.min(axis=0)
    c = m - t * np.log(np.sum(np.exp(-(lr - m) / t), axis=0))
    x0 = (market.losses(a0) - c) / t
    g0 = np.linalg.norm(market.loss_gradients(a0), axis=-1)
    big, small = market.largest_eigenvalues, market.smallest_eigenvalues
    p0 = 1 / (1 + np.exp(np.minimum(x0, 700)))
    d2 = p0 * (1 - p0) * (1 - 2 * p0)
    lam0 = float(np.linalg.eigvalsh(share_hessian(market, a0, riv, t))[-1])
    rho = float(start)
    for _ in range(halvings):
        X = (g0 * rho + big * rho**2) / t
        G = g0 + 2 * big * rho
        p_lo, p_hi = 1 / (1 + np.exp(np.minimum(x0 + X, 700))), 1 / (1 + np.exp(np.minimum(x0 - X, 700)))
        qmin, cmax = _interval_extrema(p_lo, p_hi)
        coarse = np.sum(market.weights * (np.maximum(cmax, 0) * G**2 / t**2 - qmin * 2 * small / t))
        drift = np.sum(market.weights * ((X * G**2 / 8 + np.abs(d2) * 2 * big * rho * (g0 + G)) / t**2
                                         + LOGISTIC_CURVATURE * X * 2 * big / t))
        if coarse < 0 or lam0 + drift < 0:
            return rho
        rho /= 2
    return 0.0


@dataclass(frozen=True)
class LocalMaxCertificate:
    """Certificate that no model gives a provider more than its current share plus a tolerance.

    Attributes:
        certified: the whole certificate holds.
        share: the provider's share at its model.
        regret_bound: certified upper bound on the best deviation gain (inf when not certified).
        ball_radius: radius of the ball around the model on which the share is concave.
        search: the branch and bound outside the ball (None when no ball was found).
    """

    certified: bool
    share: float
    regret_bound: float
    ball_radius: float
    search: CellSearch | None


def certify_local_maximum(market: DataMarket, model: Any, rivals: Any, temperature: float, epsilon: float, *,
                          max_cells: int = 2_000_000) -> LocalMaxCertificate:
    r"""Prove that a provider at ``model`` gains at most ``epsilon`` by any deviation (PROP).

    On the concave ball of :func:`concavity_radius` the share is at most
    $u(a_0) + |\nabla u(a_0)|\rho$ (tangent plane); outside it :func:`certify_share_below` proves
    it below $u(a_0) + \epsilon - m$ with $m > 0$ its smallest certified margin.  So the certified
    regret bound is $\max(|\nabla u(a_0)|\rho, \epsilon - m)$, and the certificate fails when
    $|\nabla u(a_0)|\rho > \epsilon$ (the model is not a critical point to that accuracy).
    """
    a0 = np.asarray(model, dtype=float)
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    u, g = prop_share_gradient(market, a0, riv, temperature)
    u = float(u)
    rho = concavity_radius(market, a0, riv, temperature)
    ball = float(np.linalg.norm(g)) * rho
    if rho == 0.0 or ball > epsilon:
        return LocalMaxCertificate(False, u, np.inf, rho, None)
    search = certify_share_below(market, riv, temperature, u + epsilon, exclude=(a0, rho), max_cells=max_cells)
    bound = max(ball, epsilon - search.margin) if search.certified else np.inf
    return LocalMaxCertificate(search.certified, u, bound, rho, search)


def certify_homogeneous_pne(market: DataMarket, n_providers: int, temperature: float, *, epsilon: float = 1e-12,
                            max_cells: int = 2_000_000) -> LocalMaxCertificate:
    r"""Prove that $(\hat\theta^M, \dots, \hat\theta^M)$ is an ``epsilon``-PNE of the PROP game with N providers.

    One deviator against $N - 1$ rivals at $M$ (:func:`certify_local_maximum`); $\nabla u(M) = 0$
    in exact arithmetic ($M$ minimises $\sum_k w_k\ell_k$), so ``epsilon`` only covers rounding.
    """
    M = market.weighted_optimum()
    return certify_local_maximum(market, M, np.repeat(M[None], n_providers - 1, axis=0), temperature, epsilon,
                                 max_cells=max_cells)


def best_deviation(market: DataMarket, rivals: Any, temperature: float, *, starts: int = 3,
                   per_side: int = 31) -> tuple[np.ndarray, float]:
    """A best response under PROP found numerically (grid, then L-BFGS-B from the best grid points).

    Returns:
        ``(model, share)``: the share is evaluated exactly at the returned model (a lower
        bound on the best response value).
    """
    riv = np.atleast_2d(np.asarray(rivals, dtype=float))
    R = riv.shape[0]
    levels = market.losses(riv).max(axis=0) + temperature * np.log(2.0 * max(R, 1))
    centre, half = _box(market, levels)
    cand = np.concatenate([_global_candidates(market, centre, half, per_side), riv])
    vals = prop_share(market, cand, riv[None], temperature)
    best_x, best_v = cand[int(np.argmax(vals))], float(vals.max())
    for i in np.argsort(vals)[::-1][:starts]:
        x = _local_best_response(market, cand[i], riv, temperature)
        v = float(prop_share(market, x, riv, temperature))
        if v > best_v:
            best_x, best_v = x, v
    return best_x, best_v


def _local_best_response(market: DataMarket, start: np.ndarray, rivals: np.ndarray, temperature: float) -> np.ndarray:
    def neg(a: np.ndarray) -> tuple[float, np.ndarray]:
        u, g = prop_share_gradient(market, a, rivals, temperature)
        return -float(u), -g

    res = minimize(neg, start, jac=True, method="L-BFGS-B", options={"ftol": 1e-16, "gtol": 1e-13, "maxiter": 500})
    return np.asarray(res.x, dtype=float)


def homogeneous_status(market: DataMarket, n_providers: int, temperature: float, *, epsilon: float = 1e-12,
                       max_cells: int = 300_000) -> tuple[str, float]:
    r"""Decide whether N providers at the weighted optimum M form a PNE under PROP, with proof.

    Returns:
        ``("pne", regret bound)`` when :func:`certify_homogeneous_pne` holds at ``epsilon``;
        ``("deviation", gain)`` when a deviation gains more than ``epsilon`` over $1/N$ (evaluated
        exactly at a witness found by the certificate's search, by a numerical best response, or
        by local ascent from M along the Hessian's top eigenvector); ``("undecided", nan)``
        otherwise.
    """
    N = n_providers
    M = market.weighted_optimum()
    rivals = np.repeat(M[None], N - 1, axis=0)
    cert = certify_homogeneous_pne(market, N, temperature, epsilon=epsilon, max_cells=max_cells)
    if cert.certified:
        return "pne", cert.regret_bound
    starts = [best_deviation(market, rivals, temperature)[0]]
    if cert.search is not None and cert.search.stuck is not None:
        starts.append(np.asarray(cert.search.stuck))
    lam, vec = np.linalg.eigh(share_hessian(market, M, rivals, temperature))
    if lam[-1] > 0:
        starts += [M + sign * step * vec[:, -1] for step in np.geomspace(1e-6, 1e-1, 6) for sign in (-1, 1)]
    gain = -np.inf
    for x in starts:
        y = _local_best_response(market, x, rivals, temperature)
        gain = max(gain, float(prop_share(market, x, rivals, temperature)), float(prop_share(market, y, rivals,
                                                                                        temperature)))
    gain -= 1.0 / N
    if gain > epsilon:
        return "deviation", gain
    return "undecided", float("nan")


def homogeneous_threshold(market: DataMarket, n_providers: int, t_low: float, t_high: float, *,
                          iterations: int = 20, epsilon: float = 1e-12, width: float = 0.01) -> tuple[float, float]:
    r"""Bracket $[t_-, t_+]$ of the temperature at which the homogeneous profile at M becomes a PNE.

    Bisection in $\log t$ on :func:`homogeneous_status`: every step is decided by a certificate
    (a PNE at the upper end, a witness deviation at the lower end), so the returned bracket is
    certified on both sides (assuming a single threshold, which the claims then check on both
    sides at other temperatures).  Very close to the threshold the margins vanish and a step may
    be undecided; the bisection then stops with the bracket reached so far.

    Raises:
        ValueError: when ``t_low`` is not certified to have a profitable deviation or ``t_high``
            not certified to be a PNE.
        RuntimeError: when the bracket is still wider than ``width`` (relative) when it stops.
    """
    def status(t: float) -> str:
        return homogeneous_status(market, n_providers, t, epsilon=epsilon)[0]

    if status(t_low) != "deviation" or status(t_high) != "pne":
        raise ValueError(f"the bracket [{t_low}, {t_high}] is not certified to contain the threshold")
    lo, hi = np.log(t_low), np.log(t_high)
    for _ in range(iterations):
        mid = 0.5 * (lo + hi)
        decided = status(float(np.exp(mid)))
        if decided == "undecided":
            break
        if decided == "pne":
            hi = mid
        else:
            lo = mid
    if np.exp(hi - lo) - 1 > width:
        raise RuntimeError(f"the threshold is bracketed only to [{np.exp(lo):.6g}, {np.exp(hi):.6g}]")
    return float(np.exp(lo)), float(np.exp(hi))


def _offset_norms(market: DataMarket, offsets: np.ndarray) -> np.ndarray:
    r"""$|\Sigma_k\delta|$ for every offset $\delta$: shape ``(C, K)``."""
    return np.linalg.norm(np.einsum("kij,cj->cki", market.covariances, offsets), axis=-1)


def certify_no_symmetric_point_prop(market: DataMarket, temperature: float, *,
                                    exclude: tuple[Any, float] | None = None, per_side: int = 16,
                                    min_half_width: float = 1e-9, max_cells: int = 2_000_000) -> CellSearch:
    r"""Prove that every $b$ (outside a ball) has a deviation with PROP duopoly share $> 1/2$.

    By :func:`symmetric_duopoly_note` this proves that the duopoly has no PNE outside
    ``exclude`` x ``exclude``.  The deviator's share is $u_1(a, b) = \sum_k w_k\sigma(y_k)$ with
    $y_k = (\ell_k(b) - \ell_k(a))/t$ and $\sigma' = p(1-p)$.  Branch and bound in $b$ with two
    kinds of witness for a cell of centre $c$ and $\rho = r\sqrt D$:

    * a fixed model $a$ (a grid of the box, the truths, $M$, and numerical best responses to $M$ and
      to each truth): $|y_k(b) - y_k(c)| \le Y_k = (|\nabla\ell_k(c)|\rho + \|\Sigma_k\|\rho^2)/t$
      on the cell, so it is certified when $u_1(a, c) - 1/2 > \sum_k w_kq_kY_k$ with $q_k$ the
      largest logistic slope over $y_k(c) \pm Y_k$;
    * a translated model $a = b + \delta$ (16 directions, geometric steps):
      $\ell_k(b) - \ell_k(b + \delta) = -\nabla\ell_k(b)\cdot\delta - \delta^\top\Sigma_k\delta$ is
      affine in $b$ with slope $2|\Sigma_k\delta|$, so $Y_k = 2|\Sigma_k\delta|\rho/t$ (this covers the
      neighbourhood of $M$, where the gain is small but so is the needed step).

    Outside the box every source prefers $M$ to $b$, so $a = M$ gains there.
    """
    t = temperature
    M = market.weighted_optimum()
    centre, half = _box(market, market.losses(M))
    # numerical best responses to M and to each truth join the fixed witnesses: near M, below the
    # threshold, the only gain is a far deviation in a small region a grid can miss
    found = [best_deviation(market, b[None], t)[0] for b in np.concatenate([M[None], market.truths])]
    glob = np.concatenate([_global_candidates(market, centre, half), np.array(found)])
    glob_loss = market.losses(glob)  # (G, K)
    offsets = _candidate_offsets(market.D)
    slope = 2.0 * _offset_norms(market, offsets)  # (C, K)

    def lower(y: np.ndarray, spread: np.ndarray) -> np.ndarray:
        gain = (market.weights / (1.0 + np.exp(np.clip(-y, -700, 700)))).sum(axis=-1) - 0.5
        return gain - (market.weights * _logistic_slope(y, spread) * spread).sum(axis=-1)

    def certify(cells: np.ndarray, r: float) -> np.ndarray:
        rho = r * np.sqrt(market.D)
        here = market.losses(cells)  # (n, K)
        Y = (np.linalg.norm(market.loss_gradients(cells), axis=-1) * rho + market.largest_eigenvalues * rho**2) / t
        fixed = lower((here[:, None, :] - glob_loss[None]) / t, Y[:, None, :]).max(axis=1)
        moved_loss = market.losses(cells[:, None, :] + offsets[None])  # (n, C, K)
        moved = lower((here[:, None, :] - moved_loss) / t, (slope * rho / t)[None]).max(axis=1)
        return np.maximum(fixed, moved)

    ex = None if exclude is None else (np.asarray(exclude[0], dtype=float), float(exclude[1]))
    return _branch_and_bound(market, centre, half, certify, exclude=ex, per_side=per_side,
                             min_half_width=min_half_width, max_cells=max_cells, chunk=256)


# --------------------------------------------------------------------------- PROX certificates
def certify_no_symmetric_point_prox(market: DataMarket, *, exclude: tuple[Any, float] | None = None,
                                    per_side: int = 16, min_half_width: float = 1e-9,
                                    max_cells: int = 2_000_000) -> CellSearch:
    r"""Prove that every $b$ (outside a ball) has a PROX deviation capturing mass $> 1/2$ strictly.

    A deviation $a$ captures source $k$ from $b$ when $\ell_k(a) < \ell_k(b)$; a cell (centre $c$,
    half-width $r$) is certified by a witness capturing a set of mass $> 1/2$ from every $b$ in it
    (ties can only add):

    * a fixed model $a$: $\min_{\text{cell}}\ell_k \ge \ell_k(c) - |\nabla\ell_k(c)|\,r\sqrt D$ (the
      quadratic part is non-negative), so $\ell_k(a)$ below that captures $k$;
    * a translated model $a = b + \delta$: $\ell_k(b) - \ell_k(b + \delta)$ is affine in $b$ with
      gradient $-2\Sigma_k\delta$, so it is positive on the cell when its value at $c$ exceeds
      $2|\Sigma_k\delta|\,r\sqrt D$.

    Outside the box $M$ captures every source.  With :func:`symmetric_duopoly_note` this proves
    there is no PNE (outside the ball).
    """
    M = market.weighted_optimum()
    centre, half = _box(market, market.losses(M))
    glob = _global_candidates(market, centre, half)
    offsets = _candidate_offsets(market.D)
    glob_loss = market.losses(glob)  # (G, K)
    slope = 2.0 * _offset_norms(market, offsets)  # (C, K)

    def certify(cells: np.ndarray, r: float) -> np.ndarray:
        rs = r * np.sqrt(market.D)
        here = market.losses(cells)  # (n, K)
        lower = here - np.linalg.norm(market.loss_gradients(cells), axis=-1) * rs
        fixed = ((glob_loss[None] < lower[:, None, :]) * market.weights).sum(axis=-1).max(axis=1)
        drop = here[:, None, :] - market.losses(cells[:, None, :] + offsets[None]) - slope[None] * rs
        moved = ((drop > 0) * market.weights).sum(axis=-1).max(axis=1)
        return np.maximum(fixed, moved) - 0.5

    ex = None if exclude is None else (np.asarray(exclude[0], dtype=float), float(exclude[1]))
    return _branch_and_bound(market, centre, half, certify, exclude=ex, per_side=per_side,
                             min_half_width=min_half_width, max_cells=max_cells, chunk=512)


def prox_best_response_at_truth(market: DataMarket, k: int) -> float:
    r"""Upper bound on $\mathrm{BR}(\theta_k)$ in the PROX duopoly: $\max(1/2, 1 - w_k)$.

    Every $a \ne \theta_k$ has $\ell_k(a) > 0 = \ell_k(\theta_k)$ ($\Sigma_k \succ 0$) and loses
    source $k$; $a = \theta_k$ ties everywhere (share 1/2).  So $(\theta_k, \theta_k)$ is a PNE
    when $w_k \ge 1/2$.
    """
    return max(0.5, 1.0 - float(market.weights[k]))


# --------------------------------------------------------------------------- N providers
def best_response_dynamics(market: DataMarket, profile: Any, temperature: float, *, rounds: int = 100,
                           tol: float = 1e-12) -> np.ndarray:
    """Round-robin local best responses under PROP from ``profile`` (shape ``(N, D)``).

    Each provider in turn moves to a local maximiser of its share (L-BFGS-B with the exact
    gradient) started from its current model; stops when no model moves by more than ``tol``.
    Only proposes a profile: an equilibrium is certified separately (:func:`certify_profile`).
    """
    prof = np.array(profile, dtype=float)
    for _ in range(rounds):
        moved = 0.0
        for n in range(prof.shape[0]):
            x = _local_best_response(market, prof[n], np.delete(prof, n, axis=0), temperature)
            moved = max(moved, float(np.linalg.norm(x - prof[n])))
            prof[n] = x
        if moved < tol:
            break
    return prof


def certify_profile(market: DataMarket, profile: Any, temperature: float, epsilon: float, *,
                    max_cells: int = 2_000_000) -> list[LocalMaxCertificate]:
    r"""Certify each provider of ``profile`` (shape ``(N, D)``) against every deviation (PROP).

    The profile is an ``epsilon``-PNE iff every returned certificate holds.
    """
    prof = np.asarray(profile, dtype=float)
    return [certify_local_maximum(market, prof[n], np.delete(prof, n, axis=0), temperature, epsilon,
                                  max_cells=max_cells) for n in range(prof.shape[0])]


def proportional_allocation(weights: Any, n_providers: int) -> np.ndarray:
    """Provider counts per source in proportion to the weights (largest remainders), shape ``(K,)``."""
    w = np.asarray(weights, dtype=float)
    raw = w * n_providers
    counts = np.floor(raw).astype(int)
    for i in np.argsort(-(raw - counts))[: n_providers - counts.sum()]:
        counts[i] += 1
    return counts


def prox_allocation_gains(market: DataMarket, counts: Any) -> np.ndarray:
    r"""Best PROX deviation gain of each provider when ``counts[k]`` providers sit at $\theta_k$.

    A provider of source $k$ can join another truth $\theta_j$ (sharing source $j$), or move to a
    model off the truths: an occupied source is served at loss 0 by its occupants, so such a model
    captures at most the deviator's own source, and that only when it was alone there and the
    model is closer to $\theta_k$ than every rival (then its share is unchanged).  So the best
    deviation is among the other truths and a model next to $\theta_k$ (both evaluated with
    :func:`prox_share`) when every other source is occupied.  Returns the best gain of a
    provider of each occupied source (0 when it cannot do better than staying, negative when every
    move loses), shape ``(K,)``, NaN for unoccupied sources.
    """
    counts = np.asarray(counts, dtype=int)
    if np.any(counts < 0):
        raise ValueError(f"provider counts must be non-negative, got {counts}")
    profile = np.repeat(market.truths, counts, axis=0)
    owner = np.repeat(np.arange(market.K), counts)
    gains = np.full(market.K, np.nan)
    for k in range(market.K):
        if counts[k] == 0:
            continue
        n = int(np.flatnonzero(owner == k)[0])
        riv = np.delete(profile, n, axis=0)
        now = float(prox_share(market, profile[n], riv))
        beside = market.truths[k] + 1e-9 * np.ones(market.D)
        cand = np.concatenate([np.delete(market.truths, k, axis=0), beside[None]])
        gains[k] = float(prox_share(market, cand, np.broadcast_to(riv, (cand.shape[0],) + riv.shape)).max()) - now
    return gains
