r"""Feng, Feng, Li, Song, Woodruff & Zhang, "On Differential Privacy for Adaptively Solving Search
Problems via Sketching" (ICML 2025, arXiv 2506.05503).

To answer $T$ adaptively chosen search queries (approximate nearest neighbour, regression) with a
randomised sketch, the answers of independent copies of the data structure are aggregated with
differential privacy with respect to the copies' random seeds; advanced composition then needs only
about $\sqrt T$ copies (times the number $s$ of candidate near neighbours) instead of $T$, and the
mechanism returns solutions, not only numerical estimates.

Checked, with a private aggregation of votes by the exponential mechanism (our reading of the
mechanism): its exact privacy loss on every pair of neighbouring vote histograms (one copy changed),
and the number of copies that the privacy accounting plus correctness of all $T$ answers requires,
as a function of $T$.  Robustness against adaptive adversaries, the paper's ANN and regression
structures, the sparse-neighbour assumption and the condition-number dependence are listed as not
checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.privacy import (
    copies_needed,
    exact_privacy_loss,
    vote_aggregation_probabilities,
    vote_neighbours,
)
from workbench import Bound, Paper, Param, Rate, claim

PAPER = Paper(
    slug="dp_adaptive_search",
    title="On Differential Privacy for Adaptively Solving Search Problems via Sketching",
    authors=("Shiyuan Feng", "Ying Feng", "George Z. Li", "Zhao Song", "David P. Woodruff", "Lichen Zhang"),
    venue="ICML 2025",
    year=2025,
    arxiv="2506.05503",
    not_checked=(
        (r"Algorithms for $c$-approximate nearest-neighbour queries and for regression with arbitrary "
         r"turnstile updates that return the solution point or vector to $T$ adaptive queries, with memory and "
         r"time depending on the number of $c$-approximate near neighbours and on the condition number.",
         "the paper's data structures and their parameter dependence were not readable (only the abstract); "
         "the bounds are asymptotic with unpublished constants.", "headline"),
        (r"With $\tilde O(\sqrt T)$ copies and private aggregation, correctness holds against every adaptive "
         r"adversary choosing its queries from the previous answers.",
         "a statement over all adversaries; a computation can only run particular attacks, and no attack we could "
         "build in the time breaks non-private aggregation (a plurality vote of the copies) while sparing the private "
         "one, so a run of it would not show that privacy is what protects the answers.", "headline"),
    ),
)


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


@claim(PAPER, role="background", source="Sec. on the DP framework (privacy with respect to the copies' random seeds); aggregation "
       "mechanism reconstructed", evidence="bound", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
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


def _copies(ctx, composition: str) -> Rate:
    sizes = [int(t) for t in np.geomspace(ctx["min_queries"], ctx["max_queries"], ctx["points"]).round()]
    beta = ctx["failure"]
    m = [copies_needed(t, ctx["epsilon"], ctx["delta"], ctx["copy_accuracy"], ctx["candidates"], beta, composition)
         for t in sizes]
    costs = [mi / math.log(ti / beta) for mi, ti in zip(m, sizes, strict=True)]
    return Rate(sizes, costs, exponent=0.5, relation="<=", tolerance=0.0, max_halfwidth=0.1,
                why="exact copy counts (binomial sums, bisection on m); the ln(T/beta) factor of the union bound "
                    "is divided out, so the remaining exponent is the polynomial growth in T",
                size_name="queries T", cost_name="copies / ln(T/beta)")


_COPIES = {
    "epsilon": Param(1.0, low=0.01, high=10.0, doc="total privacy budget over the T queries"),
    "delta": Param(1e-6, low=1e-12, high=0.1, doc="delta of the composition"),
    "copy_accuracy": Param(0.9, low=0.5, high=1.0, doc="probability that one copy answers a query correctly"),
    "candidates": Param(10, low=2, high=10**4, doc="candidate answers per query"),
    "failure": Param(0.05, low=1e-6, high=0.5, doc="allowed probability that some answer is wrong"),
    "min_queries": Param(10, low=1, high=10**6, doc="smallest number of queries T"),
    "max_queries": Param(2560, full=10240, low=100, high=10**7, doc="largest number of queries T"),
    "points": Param(5, full=6, low=3, high=30, doc="values of T (geometric)"),
}


@claim(PAPER, role="headline", source="Abstract: O~(sqrt(T)) copies answer T adaptive queries (c-ANN: O~(sqrt(T) s))", evidence="rate",
       reconstructed_from="the abstract", params=_COPIES,
       statement=r"With per-query budget $\varepsilon_0$ from advanced composition of $T$ queries into "
       r"$(\varepsilon,\delta)$, the number of copies for which all $T$ privately aggregated answers are correct "
       r"with probability $1-\beta$ grows as $\tilde O(\sqrt T)$.",
       method="For T from 10 to 2560: the smallest m with T (1 - P(correct answer)) <= beta, P computed exactly "
       "(binomial votes, worst-case rival, exponential mechanism); log-log slope of m / ln(T/beta) against T.")
def sqrt_t_copies_suffice(ctx):
    """The copies needed for T private, correct answers grow like sqrt(T) up to logarithms."""
    return _copies(ctx, "advanced")


@sqrt_t_copies_suffice.control("basic composition (eps0 = eps / T) instead of advanced composition")
def basic_composition(ctx):
    return _copies(ctx, "basic")
