r"""Feng, Feng, Li, Song, Woodruff & Zhang, "On Differential Privacy for Adaptively Solving Search
Problems via Sketching" (ICML 2025, arXiv 2506.05503).

To answer $T$ adaptively chosen search queries (approximate nearest neighbour, regression) with a
randomised sketch, the answers of independent copies of the data structure are aggregated with
differential privacy with respect to the copies' random seeds; advanced composition then needs
about $\sqrt T$ copies instead of $T$, and for $c$-approximate nearest-neighbour ($c$-ANN) queries
with at most $s$ valid answers $\tilde O(\sqrt T\,s)$ copies, returning a point, not a number.

Only the abstract and summaries could be read.  The model checked (our reading): a query has $s$
valid answers among the $N$ data points; each copy (an LSH structure, which verifies its
candidates' distances) returns one valid answer with probability $p$ or nothing; the copies'
votes are aggregated by the exponential mechanism (sensitivity 1 per copy), the per-query budget
coming from advanced composition over the $T$ queries; the valid votes split among the $s$
answers.  The number of copies for which all $T$ answers are valid is computed exactly and fitted
against $T$ and $s$.  The regression structure, the transfer from privacy to correctness under
every adaptive adversary, and the attack that breaks non-private voting are not checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.privacy import (
    ann_copies_needed,
    exact_privacy_loss,
    vote_aggregation_probabilities,
    vote_neighbours,
)
from workbench import AllOf, Bound, NearMiss, NotChecked, Paper, Param, Rate, claim

_READ = ("arXiv 2506.05503 abstract; papernotes.org summary (O~(sqrt(T) s) copies for T adaptive c-ANN queries "
         "under a sparse nearest-neighbour assumption); deep-paper.org summary (privacy with respect to the copies' "
         "random seeds)")

PAPER = Paper(
    slug="dp_adaptive_search",
    title="On Differential Privacy for Adaptively Solving Search Problems via Sketching",
    authors=("Shiyuan Feng", "Ying Feng", "George Z. Li", "Zhao Song", "David P. Woodruff", "Lichen Zhang"),
    venue="ICML 2025",
    year=2025,
    arxiv="2506.05503",
    not_checked=(
        NotChecked(r"Regression with arbitrary turnstile updates: a data structure returning the solution vector to "
                   r"$T$ adaptive queries with memory and time depending on the condition number.",
                   "the structure and its condition-number dependence could not be read (abstract only), and its "
                   "bounds are asymptotic with unpublished constants.", role="headline"),
        NotChecked(r"Private aggregation of $\tilde O(\sqrt T s)$ copies answers correctly against every adaptive "
                   r"adversary choosing queries from the previous answers.",
                   "a statement over all adversaries (privacy turned into correctness by a transfer theorem); "
                   "computations can run particular attacks only.  An attack that breaks non-private voting on a "
                   "concrete LSH structure was not built here, so the checked part is the number of copies under "
                   "per-query correctness of each copy.", role="headline"),
        NotChecked(r"The memory and query time of the $c$-ANN data structure (LSH parameters).",
                   "the paper's LSH construction and its parameters could not be read.", role="supporting"),
    ),
)


# --------------------------------------------------------------------------- background: the aggregation's privacy
def _audit(ctx, sensitivity_factor: float) -> Bound:
    rng = ctx.generator("histograms")
    eps0, m, c = ctx["epsilon0"], ctx["copies"], ctx["candidates"]
    losses, labels = [], []
    for i in range(ctx["histograms"]):
        # random vote histograms, from concentrated (one leading candidate) to nearly uniform
        lead = rng.uniform(0.0, 1.0)
        probs = np.full(c, (1 - lead) / c)
        probs[0] += lead
        votes = rng.multinomial(m, probs)
        p = vote_aggregation_probabilities(votes, eps0, sensitivity_factor)
        losses.append(max(exact_privacy_loss(p, vote_aggregation_probabilities(w, eps0, sensitivity_factor))
                          for w in vote_neighbours(votes)))
        labels.append(f"histogram {i}")
    return Bound(losses, eps0, relation="<=", atol=1e-12,
                 why="log-softmax differences of float64 values of size <= eps0 m / 2: rounding below 1e-12",
                 quantity="max over neighbours and outputs of |ln p(o) - ln p'(o)|", instances=labels)


@claim(PAPER, source="Background: the exponential mechanism (McSherry & Talwar 2007) as the copies' aggregation",
       evidence="bound", role="background",
       params={"epsilon0": Param(0.5, low=0.001, high=10.0, doc="per-query privacy parameter"),
               "copies": Param(30, full=60, low=1, high=10**4, doc="copies m of the data structure (votes)"),
               "candidates": Param(8, full=12, low=2, high=1000, doc="candidate answers"),
               "histograms": Param(20, full=100, low=1, high=10**5, doc="random vote histograms audited")},
       statement=r"Releasing candidate $c$ with probability $\propto \exp(\varepsilon_0 v_c/2)$, $v_c$ the number of "
       r"copies voting for $c$, is $(\varepsilon_0,0)$-DP with respect to the copies: changing one copy (moving one "
       r"vote) changes the log-probability of every output by at most $\varepsilon_0$.",
       method="Exact audit: the output distribution is discrete, so the privacy loss is the maximum absolute "
       "log-ratio over all outputs and all histograms reachable by moving one vote.")
def vote_aggregation_is_private(ctx):
    """The exponential-mechanism aggregation of the copies' votes has exact privacy loss at most eps0."""
    return _audit(ctx, 2.0)


@vote_aggregation_is_private.control("the exponential mechanism without its factor 1/2 (noise calibrated to half the sensitivity)")
def half_noise(ctx):
    return _audit(ctx, 1.0)


# --------------------------------------------------------------------------- headline: O~(sqrt(T) s) copies
def _log_factor(queries, valid, points, failure):
    """ln((N - s) T / (s beta)): the union bound's logarithm that the O~ hides."""
    return math.log((points - valid) * queries / (valid * failure))


def _copies(ctx, composition: str, split: bool) -> AllOf:
    eps, delta, p, n, beta = ctx["epsilon"], ctx["delta"], ctx["copy_success"], ctx["points"], ctx["failure"]
    t_grid = [int(t) for t in np.geomspace(ctx["min_queries"], ctx["max_queries"], ctx["t_values"]).round()]
    s_grid = [int(s) for s in ctx["valid_answers"]]
    s0, t0 = ctx["fixed_valid"], ctx["fixed_queries"]
    k_t = [ann_copies_needed(t, eps, delta, p, s0, n, beta, composition, split) for t in t_grid]
    k_s = [ann_copies_needed(t0, eps, delta, p, s, n, beta, composition, split) for s in s_grid]
    why = ("exact copy counts (binomial sums, bisection on k) divided by the union bound's logarithm "
           "ln((N - s) T/(s beta)) that the O~ hides; allowance 0.02: the binomial fluctuation of the valid votes "
           "adds a relative term ~ sqrt((1 - p)/(p k)) < 1% at the smallest k, and integer rounding < 1e-3, which move "
           "a slope fitted over a decade or more by less than 0.02")
    return AllOf([
        Rate(t_grid, [k / _log_factor(t, s0, n, beta) for k, t in zip(k_t, t_grid, strict=True)], exponent=0.5,
             relation="=", tolerance=0.02, max_halfwidth=0.05, why=why, size_name="queries T",
             cost_name=f"copies / log factor (s = {s0})"),
        Rate(s_grid, [k / _log_factor(t0, s, n, beta) for k, s in zip(k_s, s_grid, strict=True)], exponent=1.0,
             relation="=", tolerance=0.02, max_halfwidth=0.05, why=why, size_name="valid answers s",
             cost_name=f"copies / log factor (T = {t0})"),
    ], labels=["growth in T", "growth in s"])


_COPIES = {
    "epsilon": Param(1.0, low=0.01, high=10.0, doc="total privacy budget over the T queries"),
    "delta": Param(1e-6, low=1e-12, high=0.1, doc="delta of the composition"),
    "copy_success": Param(0.9, low=0.01, high=1.0, doc="probability p that one copy finds a valid answer"),
    "points": Param(10_000, low=10, high=10**9, doc="data points N (candidate answers)"),
    "failure": Param(0.05, low=1e-6, high=0.5, doc="allowed probability that some answer is invalid"),
    "min_queries": Param(100, low=1, high=10**6, doc="smallest number of queries T"),
    "max_queries": Param(100_000, full=1_000_000, low=100, high=10**8, doc="largest number of queries T"),
    "t_values": Param(5, full=7, low=3, high=30, doc="values of T (geometric)"),
    "valid_answers": Param((1, 2, 4, 8, 16), full=(1, 2, 4, 8, 16, 32), doc="numbers s of valid answers"),
    "fixed_valid": Param(4, low=1, high=1000, doc="s while T varies"),
    "fixed_queries": Param(1000, low=1, high=10**8, doc="T while s varies"),
}


@claim(PAPER, source="Abstract and main ANN theorem: O~(sqrt(T) s) copies answer T adaptive c-ANN queries",
       evidence="all", role="headline",
       reconstructed_from=_READ + "; the voting model (valid answer or nothing per copy, exponential mechanism, valid "
       "votes split among the s answers) is our reading",
       params=_COPIES,
       statement=r"With per-query budget $\varepsilon_0$ from advanced composition of $T$ queries into "
       r"$(\varepsilon,\delta)$, the number of copies for which all $T$ privately aggregated $c$-ANN answers are "
       r"valid with probability $1-\beta$ is $\tilde O(\sqrt T\, s)$, $s$ the number of valid answers per query: it "
       r"grows as $T^{1/2}$ in $T$ and linearly in $s$, up to the logarithm of the union bound.",
       method="For T from 10^2 to 10^5 (s = 4) and s from 1 to 16 (T = 1000): the smallest k with "
       "T P(invalid answer) <= beta, P exact (binomial valid votes split as evenly as possible among the s answers, "
       "the worst split for the mechanism; N - s unvoted points); two-sided log-log fits of k over ln((N-s)T/(s beta)).")
def sqrt_t_s_copies_suffice(ctx):
    """The copies needed for T private, valid c-ANN answers grow like sqrt(T) s up to logarithms."""
    return _copies(ctx, "advanced", split=True)


@sqrt_t_s_copies_suffice.control("basic composition (eps0 = eps / T) instead of advanced composition")
def basic_composition(ctx):
    return _copies(ctx, "basic", split=True)


@sqrt_t_s_copies_suffice.control("every copy returns the same valid answer (no split among the s answers: the "
                                 "numerical-estimation setting of earlier work)", near_miss=True)
def no_split(ctx):
    return _copies(ctx, "advanced", split=False)


# --------------------------------------------------------------------------- supporting: where the method wins
def _wins(ctx, scale: float) -> Bound:
    points = [(int(t * scale), int(s)) for t, s in ctx["regime"]]
    k = [ann_copies_needed(t, ctx["epsilon"], ctx["delta"], ctx["copy_success"], s, ctx["points"], ctx["failure"])
         for t, s in points]
    return Bound(k, [t for t, _ in points], relation="<=", why="exact integer copy counts: no slack",
                 quantity="copies needed (vs T fresh copies)", instances=[f"T={t:g}, s={s}" for t, s in points])


@claim(PAPER, source="Abstract: O~(sqrt(T)) copies instead of the T fresh copies of the naive method",
       evidence="bound", role="supporting", reconstructed_from=_READ + "; voting model ours (as above)",
       near_miss=NearMiss.none("an existence statement (a regime where the private aggregation needs fewer copies "
                               "than T fresh ones); the claim states no constant"),
       params={**{k: v for k, v in _COPIES.items() if k in ("epsilon", "delta", "copy_success", "points", "failure")},
               "regime": Param(((1_000_000, 1), (10_000_000, 2), (10_000_000, 4)),
                               doc="(T, s) pairs beyond the crossover k(T, s) = T")},
       statement=r"For enough queries the private aggregation needs fewer copies than the $T$ fresh copies of "
       r"the naive method: $k(T,s) < T$ once $T$ exceeds a crossover $T^*(s)$ of order $s^2$ up to logarithms "
       r"(here about $3\cdot10^5$ for $s=1$ and $3\cdot10^6$ for $s=4$).",
       method="Exact copy counts at T = 10^6 (s = 1) and 10^7 (s = 2, 4) against T; the control evaluates "
       "T = 10^4 and 10^5, below the crossover like every T of the earlier check (T <= 2560).")
def private_aggregation_beats_fresh_copies(ctx):
    """Beyond the crossover, the private aggregation uses fewer copies than one fresh copy per query."""
    return _wins(ctx, 1.0)


@private_aggregation_beats_fresh_copies.control("T a hundred times smaller (10^4 and 10^5), below the crossover")
def below_crossover(ctx):
    return _wins(ctx, 1e-2)
