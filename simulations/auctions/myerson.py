r"""Myerson's optimal single-item auction: ironed virtual values, the auction, its revenue.

Bidders have independent values $V_i \sim F_i$.  In quantile space ($q = 1 - F_i(v)$, the
probability of a value at least $v$) bidder $i$'s revenue curve is $R_i(q) = q\,F_i^{-1}(1-q)$;
its virtual value is $\varphi_i = R_i'(q)$ and its *ironed* virtual value $\bar\varphi_i$ is the
derivative of the concave hull $\bar R_i$ (Myerson 1981; Bulow & Roberts 1989).  The
optimal auction gives the item to the highest positive ironed virtual value and charges the
winner its threshold bid; its expected revenue is $\mathbb E[\max_i \bar\varphi_i(q_i)^+]$ with
independent uniform quantiles $q_i$.

Continuous distributions (scipy.stats frozen distributions with ``isf`` and ``cdf``) are handled
on a quantile grid that is uniform plus geometrically refined towards $q = 0$ (the top of the
value range, where unbounded distributions live); the ironed virtual value is then the slope of
the hull over each grid cell, i.e. the exact average of $\bar\varphi$ over the cell.  Discrete
distributions (support points and probabilities) are handled exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def _upper_hull(q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Indices of the upper concave hull of points (q, r), q strictly increasing (monotone chain)."""
    hull: list[int] = []
    for k in range(q.size):
        while len(hull) >= 2:
            i, j = hull[-2], hull[-1]
            # drop j if it lies on or below the chord from i to k
            if (r[j] - r[i]) * (q[k] - q[i]) <= (r[k] - r[i]) * (q[j] - q[i]):
                hull.pop()
            else:
                break
        hull.append(k)
    return np.array(hull)


@dataclass(frozen=True)
class IronedCurve:
    """Piecewise-constant ironed virtual value of one bidder in quantile space.

    Attributes:
        q: quantile breakpoints ``0 = q[0] < ... < q[-1] = 1``, shape ``(m + 1,)``.
        phi: ironed virtual value on ``(q[j], q[j + 1])``, non-increasing, shape ``(m,)``.
        v: value at each breakpoint, ``v[j] = F^{-1}(1 - q[j])`` (``v[0]`` may be inf).
    """

    q: np.ndarray
    phi: np.ndarray
    v: np.ndarray


def _curve_from_points(q: np.ndarray, v: np.ndarray, iron: bool = True) -> IronedCurve:
    r = q * np.where(np.isfinite(v), v, 0.0)
    r[q == 0] = 0.0
    hull = _upper_hull(q, r) if iron else np.arange(q.size)
    slopes = np.diff(r[hull]) / np.diff(q[hull])
    # expand the hull slopes back to every cell of the grid
    cell = np.searchsorted(q[hull], q[:-1], side="right") - 1
    return IronedCurve(q, slopes[cell], v)


def quantile_grid(n_uniform: int = 4096, decades: int = 15, per_decade: int = 64) -> np.ndarray:
    """Quantile grid: ``n_uniform`` uniform cells on [0, 1] plus a geometric grid down to 1e-``decades``.

    Raises:
        ValueError: for non-positive sizes.
    """
    if n_uniform < 1 or decades < 0 or per_decade < 1:
        raise ValueError("grid sizes must be positive")
    geo = np.logspace(-decades, np.log10(1.0 / n_uniform), decades * per_decade + 1)
    return np.unique(np.concatenate([[0.0], geo, np.linspace(0.0, 1.0, n_uniform + 1)]))


def ironed_curve(dist, grid: np.ndarray | None = None, iron: bool = True) -> IronedCurve:
    """Ironed virtual value of a continuous distribution on a quantile grid.

    Args:
        dist: a frozen scipy.stats distribution with values >= 0 (needs ``isf``).
        grid: increasing quantiles from 0 to 1 (default :func:`quantile_grid`).
        iron: False skips the concave hull (raw virtual values; wrong for irregular
            distributions, kept for negative controls).

    Returns:
        The :class:`IronedCurve`; ``phi`` on each cell is the slope of the concave hull of
        $R(q) = q F^{-1}(1 - q)$, i.e. the average of $\\bar\\varphi$ over the cell.

    Raises:
        ValueError: when the distribution puts mass below 0 or the grid is malformed.
    """
    q = quantile_grid() if grid is None else np.asarray(grid, dtype=float)
    if q[0] != 0.0 or q[-1] != 1.0 or np.any(np.diff(q) <= 0):
        raise ValueError("the quantile grid must increase strictly from 0 to 1")
    v = dist.isf(q)
    if np.nanmin(v) < -1e-12:
        raise ValueError("values must be non-negative")
    return _curve_from_points(q, np.maximum(v, 0.0), iron)


def discrete_ironed_curve(values: Sequence[float], probs: Sequence[float]) -> IronedCurve:
    """Exact ironed virtual values of a discrete distribution (Elkind 2007's discrete Myerson).

    Args:
        values: support points, strictly increasing, >= 0; probs: their probabilities (> 0,
            summing to 1).

    Returns:
        The :class:`IronedCurve` with one cell per support point, from the highest value
        (quantile cell ``(0, p_K)``) to the lowest; ``v[j + 1]`` is the support point of cell
        ``j`` (``v[0] = inf``).

    Raises:
        ValueError: on unsorted values, negative values or probabilities not summing to 1.
    """
    vals = np.asarray(values, dtype=float)
    p = np.asarray(probs, dtype=float)
    if vals.ndim != 1 or vals.shape != p.shape or vals.size == 0:
        raise ValueError("values and probs must be 1-d arrays of one length")
    if np.any(np.diff(vals) <= 0) or vals[0] < 0:
        raise ValueError("values must be strictly increasing and non-negative")
    if np.any(p <= 0) or abs(p.sum() - 1.0) > 1e-9:
        raise ValueError("probabilities must be positive and sum to 1")
    # quantile of value v_k is P(V >= v_k); cells from the top value down
    q = np.concatenate([[0.0], np.cumsum(p[::-1])])
    q[-1] = 1.0
    top = vals[::-1]
    r = np.concatenate([[0.0], q[1:] * top])
    hull = _upper_hull(q, r)
    slopes = np.diff(r[hull]) / np.diff(q[hull])
    cell = np.searchsorted(q[hull], q[:-1], side="right") - 1
    # v[j + 1] is the support point of cell j: its bids start there
    return IronedCurve(q, slopes[cell], np.concatenate([[np.inf], top]))


def expected_max_positive(curves: Sequence[IronedCurve]) -> float:
    r"""$\mathbb E[\max_i \bar\varphi_i(q_i)^+]$ for independent uniform quantiles, exactly.

    Each $\bar\varphi_i(q_i)$ is a discrete random variable (value ``phi[j]`` with probability
    ``q[j+1] - q[j]``); the expectation is $\int_0^\infty 1 - \prod_i P(\bar\varphi_i \le t)\,dt$,
    a finite sum over the merged support.
    """
    levels = np.unique(np.concatenate([c.phi[c.phi > 0] for c in curves] + [[0.0]]))
    cdf = np.ones(levels.size)
    for c in curves:
        order = np.argsort(c.phi)
        cum = np.cumsum(np.diff(c.q)[order])
        idx = np.searchsorted(c.phi[order], levels, side="right")
        cdf *= np.where(idx > 0, cum[np.maximum(idx - 1, 0)], 0.0)
    # P(max <= t) is constant = cdf[k] on [levels[k], levels[k+1])
    return float(np.sum((1.0 - cdf[:-1]) * np.diff(levels)))


def myerson_revenue(distributions: Sequence, grid: np.ndarray | None = None, iron: bool = True) -> float:
    """Expected revenue of Myerson's optimal auction for independent bidders.

    Args:
        distributions: frozen scipy.stats distributions (values >= 0), one per bidder; or
            ``(values, probs)`` pairs for discrete distributions.
        grid: quantile grid for the continuous ones (default :func:`quantile_grid`, accurate
            to about 1e-7 for the smooth distributions tested: uniform, exponential,
            mixtures).
        iron: False uses raw virtual values (not the optimal auction's value when a
            distribution is irregular; for negative controls).

    Returns:
        $\\mathbb E[\\max_i \\bar\\varphi_i^+]$ (Myerson 1981).

    Raises:
        ValueError: with no bidders or a malformed distribution.
    """
    if len(distributions) == 0:
        raise ValueError("need at least one bidder")
    return expected_max_positive([_curve(d, grid, iron) for d in distributions])


def _curve(d, grid=None, iron=True) -> IronedCurve:
    if isinstance(d, tuple):
        return discrete_ironed_curve(*d)
    return ironed_curve(d, grid, iron)


class PiecewiseUniform:
    """Mixture of uniform distributions on disjoint intervals, optionally with an exponential
    tail, with ``cdf``, ``sf`` and ``isf``.

    Args:
        intervals: ``[(a_1, b_1), ...]`` increasing and disjoint, ``a_1 >= 0``.
        weights: mixture weights of the intervals (positive; with the tail's weight they sum
            to 1).
        tail: optional ``(start, scale, weight)``: mass ``weight`` on ``[start, inf)`` with
            density proportional to ``exp(-(x - start) / scale)`` (``start`` at or above the last
            interval's end), an unbounded distribution.

    A gap between intervals makes the distribution irregular (its revenue curve jumps), the
    textbook case for ironing; a jump up of the density makes the virtual value jump, a corner
    of the revenue curve.

    Raises:
        ValueError: on overlapping or unsorted intervals, bad weights or a bad tail.
    """

    def __init__(self, intervals: Sequence[tuple[float, float]], weights: Sequence[float],
                 tail: tuple[float, float, float] | None = None) -> None:
        iv = np.asarray(intervals, dtype=float)
        w = np.asarray(weights, dtype=float)
        if iv.ndim != 2 or iv.shape[1] != 2 or iv.shape[0] != w.size:
            raise ValueError("need one (a, b) interval per weight")
        if np.any(iv[:, 1] <= iv[:, 0]) or np.any(iv[1:, 0] < iv[:-1, 1]) or iv[0, 0] < 0:
            raise ValueError("intervals must be non-empty, sorted, disjoint and non-negative")
        t_start, t_scale, t_weight = tail if tail is not None else (iv[-1, 1], 1.0, 0.0)
        if tail is not None and (t_start < iv[-1, 1] or not t_scale > 0 or not t_weight > 0):
            raise ValueError("the tail must start at or above the last interval, with positive scale and weight")
        if np.any(w <= 0) or abs(w.sum() + t_weight - 1) > 1e-12:
            raise ValueError("weights must be positive and sum to 1 (with the tail's weight)")
        self.iv, self.w = iv, w
        self.cum = np.concatenate([[0.0], np.cumsum(w)])
        self.tail = (float(t_start), float(t_scale), float(t_weight))

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        frac = np.clip((x[..., None] - self.iv[:, 0]) / (self.iv[:, 1] - self.iv[:, 0]), 0.0, 1.0)
        body = np.sum(frac * self.w, axis=-1)
        start, scale, weight = self.tail
        if weight == 0:
            return body
        return body + weight * -np.expm1(-np.maximum(x - start, 0.0) / scale)

    def sf(self, x):
        return 1.0 - self.cdf(x)

    def isf(self, q):
        p = 1.0 - np.asarray(q, dtype=float)
        k = np.clip(np.searchsorted(self.cum, p, side="right") - 1, 0, self.w.size - 1)
        frac = np.clip((p - self.cum[k]) / self.w[k], 0.0, 1.0)
        body = self.iv[k, 0] + frac * (self.iv[k, 1] - self.iv[k, 0])
        start, scale, weight = self.tail
        if weight == 0:
            return body
        q = np.asarray(q, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            tail = start - scale * np.log(np.clip(q / weight, 0.0, 1.0))
        return np.where(q < weight, tail, body)


# --------------------------------------------------------------------------- the auction
@dataclass(frozen=True)
class VirtualValueAuction:
    r"""A single-item auction ranking bids by per-bidder non-decreasing step functions.

    Bidder $i$'s bid $b$ gets the score ``levels[i][k]`` where ``k`` is the last breakpoint
    ``breaks[i][k] <= b`` (score $-\infty$ below ``breaks[i][0]``).  The highest *positive*
    score wins, ties going to the lower index; the winner pays its threshold bid (the smallest
    bid with which it would still win), the others pay 0.  Monotone allocation plus threshold
    payments make the auction dominant-strategy truthful and individually rational (Myerson
    1981).

    Attributes:
        breaks: per bidder, increasing bid breakpoints.
        levels: per bidder, non-decreasing scores on ``[breaks[k], breaks[k+1])``.
    """

    breaks: tuple[np.ndarray, ...]
    levels: tuple[np.ndarray, ...]

    def score(self, i: int, b: float) -> float:
        k = int(np.searchsorted(self.breaks[i], b, side="right")) - 1
        return -np.inf if k < 0 else float(self.levels[i][k])

    def winner(self, bids: Sequence[float]) -> int | None:
        """Index of the winner or None (no positive score)."""
        best, who = 0.0, None
        for i, b in enumerate(bids):
            s = self.score(i, b)
            if s > best:
                best, who = s, i
        return who

    def threshold(self, i: int, bids: Sequence[float]) -> float:
        """Smallest bid of bidder ``i`` that wins against the others' ``bids`` (inf if none)."""
        need_gt = max([0.0] + [self.score(j, b) for j, b in enumerate(bids) if j < i])
        need_ge = max([-np.inf] + [self.score(j, b) for j, b in enumerate(bids) if j > i])
        ok = (self.levels[i] > need_gt) & (self.levels[i] >= need_ge)
        if not np.any(ok):
            return np.inf
        return float(self.breaks[i][int(np.argmax(ok))])

    def outcome(self, bids: Sequence[float], payment_rule: str = "threshold") -> tuple[int | None, float]:
        """``(winner, payment)`` for the bid profile.

        ``payment_rule="threshold"`` is Myerson's; ``"pay_your_bid"`` charges the winner its
        bid (a first-price rule, not truthful) and exists for negative controls.

        Raises:
            ValueError: on an unknown payment rule.
        """
        if payment_rule not in ("threshold", "pay_your_bid"):
            raise ValueError(f"unknown payment rule {payment_rule!r}")
        w = self.winner(bids)
        if w is None:
            return None, 0.0
        return w, float(bids[w]) if payment_rule == "pay_your_bid" else self.threshold(w, bids)


def auction_from_curves(curves: Sequence[IronedCurve]) -> VirtualValueAuction:
    """The Myerson auction for bidders with the given ironed curves.

    A bid ``b`` scores the ironed virtual value of the cell whose value interval contains it
    (for a discrete distribution: the largest support point ``<= b``).
    """
    breaks, levels = [], []
    for c in curves:
        # cells run from high values (q near 0) to low; reverse to increasing values
        lo = c.v[1:][::-1]
        lv = c.phi[::-1]
        # cells of zero value-width share a breakpoint with the next one: keep the last of a run
        keep = np.append(lo[1:] != lo[:-1], True)
        breaks.append(lo[keep])
        levels.append(np.maximum.accumulate(lv[keep]))
    return VirtualValueAuction(tuple(breaks), tuple(levels))


def expected_revenue(auction: VirtualValueAuction, distributions: Sequence) -> float:
    r"""Exact expected revenue of ``auction`` when values follow ``distributions`` (continuous).

    By Myerson's lemma the expected payment of bidder $i$ is $\mathbb E[\varphi_i(V_i)
    x_i(V)]$, and $\int_a^b \varphi f\,dv = a(1 - F(a)) - b(1 - F(b))$; on each score cell the
    winning probability is a product of the others' CDFs at their score thresholds.

    Args:
        auction: a :class:`VirtualValueAuction`.
        distributions: frozen scipy.stats distributions, one per bidder.
    """
    total = 0.0
    for i, di in enumerate(distributions):
        c = auction.levels[i]
        br = np.append(auction.breaks[i], np.inf)
        win = np.ones(c.size)
        for j, dj in enumerate(distributions):
            if j == i:
                continue
            lv = auction.levels[j]
            # P(score_j < c) for j < i (ties lost to j), P(score_j <= c) for j > i
            first = np.searchsorted(lv, c, side="left" if j < i else "right")
            cdf_at = np.append(dj.cdf(auction.breaks[j]), 1.0)
            win *= cdf_at[first]
        a, b = br[:-1], br[1:]
        ta = a * di.sf(a)
        tb = np.where(np.isfinite(b), np.nan_to_num(b, posinf=0.0) * di.sf(np.nan_to_num(b, posinf=0.0)), 0.0)
        total += float(np.sum(np.where(c > 0, (ta - tb) * win, 0.0)))
    return float(total)


def _utility(auction: VirtualValueAuction, profile: np.ndarray, i: int, value: float, bid: float,
             payment_rule: str) -> float:
    """Bidder ``i``'s utility when it bids ``bid`` with true ``value``, the others bidding ``profile``."""
    bids = profile.copy()
    bids[i] = bid
    w, pay = auction.outcome(bids, payment_rule)
    return (value - pay) if w == i else 0.0


def deviation_gains(auction: VirtualValueAuction, values: np.ndarray, deviations: np.ndarray,
                    payment_rule: str = "threshold") -> tuple[np.ndarray, np.ndarray]:
    """Best gain from misreporting and truthful utility, for every bidder and value profile.

    Args:
        auction: the auction; values: true value profiles, shape ``(P, n)``.
        deviations: candidate bids tried by every bidder, shape ``(D,)``; the bidder's score
            breakpoints are added to them (the utility of a bid changes only there).
        payment_rule: ``"threshold"`` or ``"pay_your_bid"``.

    Returns:
        ``(gain, utility)``, both of shape ``(P, n)``: ``gain = max_b u(b) - u(v)`` over the
        candidate bids (<= 0 for a truthful auction) and ``utility = u(v)`` (>= 0 for an
        individually rational one), with ``u(b) = (v - payment) [wins]``.
    """
    values = np.atleast_2d(np.asarray(values, dtype=float))
    P, n = values.shape
    gain, util = np.empty((P, n)), np.empty((P, n))
    for p in range(P):
        for i in range(n):
            v = values[p, i]
            cands = np.unique(np.concatenate([deviations, auction.breaks[i],
                                              np.nextafter(auction.breaks[i], -np.inf)]))
            truthful = _utility(auction, values[p], i, v, v, payment_rule)
            util[p, i] = truthful
            gain[p, i] = max(_utility(auction, values[p], i, v, b, payment_rule) for b in cands) - truthful
    return gain, util
