"""Composition of DP mechanisms and private aggregation of votes from independent copies.

Sources: Dwork, Rothblum & Vadhan (FOCS 2010), advanced composition: T mechanisms each
(eps0, 0)-DP compose to (sqrt(2 T ln(1/delta)) eps0 + T eps0 (e^eps0 - 1), delta)-DP; Hassidim,
Kaplan, Mansour, Matias & Stemmer (NeurIPS 2020) and Feng, Feng, Li, Song, Woodruff & Zhang
(ICML 2025), for answering T adaptive queries with about sqrt(T) copies of a randomised data
structure by aggregating the copies' answers privately (privacy with respect to the copies'
random seeds: neighbouring collections differ in one copy, which moves at most one vote).
The aggregation here is the exponential mechanism on the vote counts (our reading).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

from .mechanisms import exponential_mechanism_probabilities


def advanced_composition(epsilon0: float, n_queries: int, delta: float) -> float:
    """epsilon of the T-fold composition of (epsilon0, 0)-DP mechanisms at slack delta (DRV 2010)."""
    if not (epsilon0 >= 0 and n_queries >= 1 and 0 < delta < 1):
        raise ValueError("need epsilon0 >= 0, n_queries >= 1 and delta in (0, 1)")
    return math.sqrt(2 * n_queries * math.log(1 / delta)) * epsilon0 + n_queries * epsilon0 * math.expm1(epsilon0)


def per_query_epsilon(epsilon: float, n_queries: int, delta: float, composition: str = "advanced") -> float:
    """Largest per-query epsilon0 whose T-fold composition is epsilon-DP.

    Args:
        composition: ``"advanced"`` (DRV 2010, solved by Brent's method) or ``"basic"`` (epsilon / T).
    Raises:
        ValueError: on bad arguments or an unknown composition.
    """
    if not (epsilon > 0 and n_queries >= 1):
        raise ValueError("need epsilon > 0 and n_queries >= 1")
    if composition == "basic":
        return epsilon / n_queries
    if composition != "advanced":
        raise ValueError(f"unknown composition {composition!r}; use 'advanced' or 'basic'")
    return float(optimize.brentq(lambda e: advanced_composition(e, n_queries, delta) - epsilon, 0.0, epsilon,
                                 xtol=1e-15, rtol=1e-13))


def vote_aggregation_probabilities(votes, epsilon0: float, sensitivity_factor: float = 2.0) -> np.ndarray:
    """Output distribution of the private aggregation of vote counts: P(c) proportional to exp(eps0 votes_c / factor).

    factor = 2 is the exponential mechanism with sensitivity 1 (one copy moves one vote), which is
    (eps0, 0)-DP; factor = 1 omits the 2 of the exponential mechanism (a broken calibration).
    """
    if not sensitivity_factor > 0:
        raise ValueError("the sensitivity factor must be positive")
    return exponential_mechanism_probabilities(np.asarray(votes, dtype=float), epsilon0, sensitivity_factor / 2.0)


def vote_neighbours(votes) -> list[np.ndarray]:
    """All histograms reachable by moving one vote from one candidate to another (one copy changed)."""
    v = np.asarray(votes, dtype=np.int64)
    out = []
    for a in np.nonzero(v > 0)[0]:
        for b in range(v.size):
            if b != a:
                w = v.copy()
                w[a] -= 1
                w[b] += 1
                out.append(w)
    return out


def correct_answer_probability(n_copies: int, epsilon0: float, copy_accuracy: float, n_candidates: int) -> float:
    """P(the aggregation returns the correct candidate) when each copy votes correctly with probability
    ``copy_accuracy`` independently and every wrong vote goes to one rival (the worst case).

    Exact: sum over the binomial number k of correct votes of the exponential mechanism's
    probability of the correct candidate with votes (k, m - k, 0, ..., 0).
    """
    if not (n_copies >= 1 and 0 <= copy_accuracy <= 1 and n_candidates >= 2):
        raise ValueError("need n_copies >= 1, copy_accuracy in [0, 1], n_candidates >= 2")
    k = np.arange(n_copies + 1)
    weights = stats.binom.pmf(k, n_copies, copy_accuracy)
    # softmax of (eps0 k/2, eps0 (m-k)/2, 0, ..., 0) at the first entry, in log space
    a, b = epsilon0 * k / 2, epsilon0 * (n_copies - k) / 2
    log_den = np.logaddexp(np.logaddexp(a, b), math.log(n_candidates - 2) if n_candidates > 2 else -np.inf)
    return float(np.sum(weights * np.exp(a - log_den)))


def copies_needed(n_queries: int, epsilon: float, delta: float, copy_accuracy: float, n_candidates: int,
                  failure: float, composition: str = "advanced", max_copies: int = 10**7) -> int:
    """Smallest number of copies m such that T queries, each answered by the eps0-private aggregation
    (eps0 from the composition of T queries into (epsilon, delta)), are all correct except with
    probability <= failure (union bound: T (1 - P(correct)) <= failure).

    Raises:
        ValueError: when max_copies copies do not suffice.
    """
    eps0 = per_query_epsilon(epsilon, n_queries, delta, composition)

    def ok(m: int) -> bool:
        return n_queries * (1 - correct_answer_probability(m, eps0, copy_accuracy, n_candidates)) <= failure

    hi = 1
    while not ok(hi):
        hi *= 2
        if hi > max_copies:
            raise ValueError(f"more than {max_copies} copies needed")
    lo = hi // 2
    while hi - lo > 1:                      # P(correct) increases with m
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


# ----------------------------------------------------------------------------- adaptive c-ANN search
def ann_failure_probability(n_copies: int, epsilon0: float, copy_success: float, n_valid: int, n_points: int,
                            split: bool = True) -> float:
    """P(the private aggregation of the copies' answers to one c-ANN query returns no valid answer).

    Model (our reading of Feng et al., ICML 2025, under their sparse-neighbour assumption): the
    query has ``n_valid`` = s valid answers (c-approximate near neighbours) among ``n_points``
    data points; each copy independently finds one with probability ``copy_success`` (an LSH
    structure checks its candidates' true distances, so a copy returns a valid point or nothing)
    and votes for it; the answer is drawn by the exponential mechanism on the vote counts
    (sensitivity 1: changing one copy's randomness moves at most one vote), P(point) prop. to
    exp(eps0 votes / 2).  The V ~ Binomial(k, p) valid votes are split as evenly as possible among
    the s valid answers (``split=True``; by convexity the split that minimises the valid mass)
    or all given to one of them (``split=False``).  Exact sum over V (terms below 1e-300 dropped).

    Args:
        n_copies: k >= 1; epsilon0 > 0; copy_success in (0, 1]; 1 <= n_valid < n_points.
    Raises:
        ValueError: on arguments outside these ranges.
    """
    k, s, n = int(n_copies), int(n_valid), int(n_points)
    if not (k >= 1 and epsilon0 > 0 and 0 < copy_success <= 1 and 1 <= s < n):
        raise ValueError(f"need k >= 1, eps0 > 0, copy_success in (0, 1] and 1 <= s < n_points; got k={k}, "
                         f"eps0={epsilon0}, p={copy_success}, s={s}, n={n}")
    mean, sd = k * copy_success, math.sqrt(k * copy_success * (1 - copy_success))
    lo, hi = max(0, int(mean - 40 * sd) - 1), min(k, int(mean + 40 * sd) + 1)
    v = np.arange(lo, hi + 1)
    log_w = stats.binom.logpmf(v, k, copy_success)
    half = epsilon0 / 2
    if split:
        base, extra = v // s, v % s
        with np.errstate(divide="ignore"):
            log_valid = np.logaddexp(np.log(s - extra) + half * base,
                                     np.where(extra > 0, np.log(np.maximum(extra, 1)) + half * (base + 1), -np.inf))
    else:
        log_valid = np.logaddexp(half * v, math.log(s - 1) if s > 1 else -np.inf)
    log_invalid = math.log(n - s)
    log_fail = log_invalid - np.logaddexp(log_valid, log_invalid)
    return float(np.sum(np.exp(log_w + log_fail)))


def ann_copies_needed(n_queries: int, epsilon: float, delta: float, copy_success: float, n_valid: int,
                      n_points: int, failure: float, composition: str = "advanced", split: bool = True,
                      max_copies: int = 10**9) -> int:
    """Smallest number of copies k for which T privately aggregated c-ANN answers are all valid
    except with probability <= failure (union bound T P(fail) <= failure), the per-query budget
    eps0 coming from the composition of T queries into (epsilon, delta).

    P(fail) is :func:`ann_failure_probability`; it decreases in k, so the answer is found by
    doubling and bisection.
    Raises:
        ValueError: when max_copies copies do not suffice.
    """
    eps0 = per_query_epsilon(epsilon, n_queries, delta, composition)

    def ok(k: int) -> bool:
        return n_queries * ann_failure_probability(k, eps0, copy_success, n_valid, n_points, split) <= failure

    hi = 1
    while not ok(hi):
        hi *= 2
        if hi > max_copies:
            raise ValueError(f"more than {max_copies} copies needed")
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi
