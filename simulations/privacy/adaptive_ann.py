"""A concrete randomised nearest-neighbour structure, its copies' aggregation, and an adaptive attack.

The structure: a Gaussian Johnson-Lindenstrauss projection Pi (m x d, entries N(0, 1/m)) of the
data set {x0 = 0, x1 = e_1}; a query q is answered by the data point nearest to q after
projection, argmin_i ||Pi (q - x_i)||.  For a query fixed in advance the projection preserves the
two distances well, so one copy answers a c-approximate near neighbour with high probability
(:func:`copy_error_probability`).  k independent copies are aggregated either by a plain majority
vote or by the exponential mechanism on the vote counts (Feng, Feng, Li, Song, Woodruff & Zhang,
ICML 2025, privacy with respect to the copies' random seeds).

Algebra used throughout: ||Pi q||^2 - ||Pi (q - e_1)||^2 = 2 <q, w> - ||c||^2 with c = Pi e_1 and
w = Pi^T c, so a copy answers x1 exactly when <q, w> > ||c||^2 / 2.  Given c, the coordinates
w_i = <Pi_{:, i}, c> (i >= 2) are independent N(0, ||c||^2 / m) (the columns of Pi are independent),
which is how :func:`run_attack` draws them, one coordinate at a time as the queries reach it.

The adversary (in the spirit of the attacks on linear sketches of Hardt & Woodruff, STOC 2013, and
Cherapanamjeri & Nelson, NeurIPS 2020): it probes q = e_1/2 + e_i, which is equidistant from both
points (both answers are valid), reads the aggregated answer as a sign b_i (+1 for x1), and after
each probe asks the test query q* = lambda sum_i b_i e_i / sqrt(n), whose only valid answer is x0
when lambda < 1/sqrt(c^2 - 1).  The signs correlate with the sum of the copies' sign(w_i), so q*
moves into the region where most copies answer x1: plain voting returns the invalid point after
about (pi / (4 lambda))^2 m k probes (:func:`predicted_attack_probes`).  With the signs drawn
at random instead (``adaptive=False``), the same rule is a fixed query sequence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats


def copy_error_probability(rows: int, radius: float) -> float:
    """P(one copy answers x1 to the query radius * u, u a unit vector orthogonal to e_1 fixed in advance).

    A copy errs iff radius <w, u> > ||c||^2 / 2 with <w, u> | c ~ N(0, ||c||^2 / m) and
    ||c||^2 ~ chi^2_m / m, i.e. iff Z > chi_m / (2 radius): probability
    (1/2) P(F(1, m) > m / (4 radius^2)).

    Args:
        rows: m >= 1, the projection's number of rows; radius > 0.
    Raises:
        ValueError: on rows < 1 or radius <= 0.
    """
    if not (int(rows) == rows and rows >= 1 and radius > 0):
        raise ValueError(f"need an integer rows >= 1 and radius > 0; got rows={rows}, radius={radius}")
    return float(0.5 * stats.f.sf(rows / (4 * radius**2), 1, rows))


def invalid_radius_limit(approximation: float) -> float:
    """Largest radius lambda for which x1 = e_1 is not a c-approximate near neighbour of lambda u (u orthogonal
    to e_1): ||q - x1||^2 = 1 + lambda^2 > c^2 lambda^2 = c^2 ||q - x0||^2 iff lambda < 1/sqrt(c^2 - 1)."""
    if not approximation > 1:
        raise ValueError(f"the approximation factor c must exceed 1, not {approximation}")
    return 1.0 / math.sqrt(approximation**2 - 1)


def predicted_attack_probes(copies: int, rows: int, radius: float) -> float:
    """Heuristic number of probes after which plain voting answers the test query wrongly.

    With b_i = sign(sum_j sign(w_ji)) (majority of k), E[w_ji b_i] ~ (||c_j|| / sqrt m) sqrt(2/pi)
    sqrt(2/(pi k)) for large k, so after n probes the median copy has
    radius <w_j, q*/radius> ~ radius sqrt(n) (2/pi) / sqrt(m k) (taking ||c_j|| = 1), which exceeds
    1/2 once n > (pi / (4 radius))^2 m k.  Only an order of magnitude (it ignores the spread of
    ||c_j|| and of the accumulated noise); the check fits the measured counts, not this number.
    """
    return (math.pi / (4 * radius)) ** 2 * rows * copies


@dataclass(frozen=True)
class AttackRun:
    """Outcome of one run: ``wrong_at`` is the number of queries asked up to and including the first
    invalid answer (None if every answer was valid); ``queries`` the number asked in all; ``x1_votes``
    (with ``trace``) the number of copies answering x1 to each query, in order."""

    wrong_at: int | None
    queries: int
    x1_votes: np.ndarray | None = None


def _says_x1(rng: np.random.Generator, x1_votes: np.ndarray, copies: int, aggregation: str,
             epsilon0: float) -> np.ndarray:
    """Whether the aggregation answers x1, for an array of vote counts (one draw of the mechanism each)."""
    if aggregation == "plain":
        return 2 * x1_votes > copies                       # copies odd: no ties
    # exponential mechanism on the vote counts, sensitivity 1: P(x1) = 1 / (1 + exp(eps0 (v0 - v1) / 2))
    margin = np.minimum(epsilon0 * (copies - 2 * x1_votes) / 2, 700.0)
    return rng.random(x1_votes.shape) < 1.0 / (1.0 + np.exp(margin))


def run_attack(rng: np.random.Generator, copies: int, rows: int, max_queries: int, *, radius: float = 0.5,
               aggregation: str = "plain", epsilon0: float = 0.0, adaptive: bool = True,
               projections: np.ndarray | None = None, trace: bool = False, block: int = 256) -> AttackRun:
    """Run the probe/test adversary against k aggregated JL nearest-neighbour copies.

    Queries alternate: probe 1, test 1, probe 2, test 2, ... (see the module docstring); the run
    stops at the first invalid answer to a test query or after ``max_queries`` queries.  The
    probes' answers do not depend on earlier answers, so they are drawn ``block`` at a time, and
    the test queries' votes follow from the running sums of b_i w_i (same answers as a query-by-
    query loop; the order of the random draws depends on ``block``).

    Args:
        rng: the copies' randomness, the mechanism's noise and (``adaptive=False``) the signs.
        copies: k >= 1, odd (plain majority without ties).
        rows: m >= 1 rows of each projection.
        max_queries: budget T >= 2.
        radius: lambda of the test queries; the test query's only valid answer is x0 when
            lambda < 1/sqrt(c^2 - 1) (:func:`invalid_radius_limit`).
        aggregation: ``"plain"`` (majority) or ``"private"`` (exponential mechanism at ``epsilon0``).
        adaptive: signs from the answers (the attack) or independent fair coins (a fixed sequence).
        projections: optional explicit projections, shape (k, m, d) with d > max_queries / 2; the
            copies are then these literal matrices (used to test the coordinate-wise draws).
        trace: also return the number of copies answering x1 to every query.
        block: probes drawn at once (>= 1).
    Raises:
        ValueError: on an even or non-positive number of copies, bad sizes, or an unknown aggregation.
    """
    k, m, budget, block = int(copies), int(rows), int(max_queries), int(block)
    if not (k >= 1 and k % 2 == 1 and m >= 1 and budget >= 2 and radius > 0 and block >= 1):
        raise ValueError(f"need an odd number of copies >= 1, rows >= 1, max_queries >= 2, radius > 0 and block >= 1; "
                         f"got copies={copies}, rows={rows}, max_queries={max_queries}, radius={radius}")
    if aggregation not in ("plain", "private"):
        raise ValueError(f"unknown aggregation {aggregation!r}; use 'plain' or 'private'")
    if aggregation == "private" and not epsilon0 > 0:
        raise ValueError("the private aggregation needs epsilon0 > 0")
    if projections is not None:
        projections = np.asarray(projections, dtype=float)
        if projections.ndim != 3 or projections.shape[:2] != (k, m) or projections.shape[2] <= budget // 2:
            raise ValueError(f"projections must have shape ({k}, {m}, d) with d > {budget // 2}")
        c = projections[:, :, 0]
    else:
        c = rng.standard_normal((k, m)) / math.sqrt(m)
    half_c2 = 0.5 * np.einsum("km,km->k", c, c)
    scale = np.sqrt(2 * half_c2 / m)                       # sd of w_ji given c_j
    scale32 = scale.astype(np.float32)
    threshold = (half_c2 / radius).astype(np.float64 if projections is not None else np.float32)
    acc = np.zeros(k, dtype=threshold.dtype)               # sum_i b_i w_ji
    votes: list[np.ndarray] = []
    probes, done = budget // 2, 0
    while done < probes:
        size = min(block, probes - done)
        idx = np.arange(done + 1, done + size + 1)          # probe coordinates e_i
        if projections is not None:
            w = np.einsum("kmb,km->bk", projections[:, :, idx], c)
        else:   # float32: a relative rounding ~1e-5 of the running sums flips only copies that close to their
                # threshold, a chance of order 1e-5 per copy and test, far below the runs' sampling error
            w = rng.standard_normal((size, k), dtype=np.float32)
            w *= scale32
        v1 = np.count_nonzero(w > 0, axis=1)                # probe e_1/2 + e_i: a copy says x1 iff w_i > 0
        said = _says_x1(rng, v1, k, aggregation, epsilon0)
        b = np.where(said if adaptive else rng.random(size) < 0.5, 1.0, -1.0).astype(w.dtype)
        w *= b[:, None]
        sums = np.cumsum(w, axis=0, out=w)                  # running sums after each probe of the block
        sums += acc
        # test radius * u_i: a copy says x1 iff radius sums_i / sqrt(i) > ||c||^2 / 2
        t1 = np.count_nonzero(sums > np.sqrt(idx)[:, None] * threshold[None, :], axis=1)
        wrong = np.nonzero(_says_x1(rng, t1, k, aggregation, epsilon0))[0]
        if trace:
            votes.append(np.column_stack([v1, t1]).ravel())
        if wrong.size:
            n = done + int(wrong[0]) + 1
            trail = np.concatenate(votes)[: 2 * n] if trace else None
            return AttackRun(2 * n, 2 * n, trail)
        acc = sums[-1].copy()
        done += size
    return AttackRun(None, 2 * probes, np.concatenate(votes) if trace else None)


def private_epsilon0(copies: int, queries: int, copy_accuracy: float, failure: float) -> float:
    """Smallest per-query epsilon0 at which the exponential mechanism over k copies answers T queries fixed
    in advance all correctly except with probability <= failure (union bound, every wrong vote for the
    one rival; exact binomial sum of :func:`simulations.privacy.correct_answer_probability`).

    Raises:
        ValueError: when no epsilon0 up to 50 suffices (too few copies).
    """
    from scipy import optimize

    from .composition import correct_answer_probability

    def excess(e0: float) -> float:
        return queries * (1 - correct_answer_probability(copies, e0, copy_accuracy, 2)) - failure

    if excess(50.0) > 0:
        raise ValueError(f"{copies} copies cannot answer {queries} queries with failure {failure} at any epsilon0")
    return float(optimize.brentq(excess, 1e-9, 50.0, xtol=1e-12))
