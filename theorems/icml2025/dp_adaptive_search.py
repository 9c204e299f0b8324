r"""Feng, Feng, Li, Song, Woodruff & Zhang, "On Differential Privacy for Adaptively Solving Search
Problems via Sketching" (ICML 2025, arXiv 2506.05503).

To answer $T$ adaptively chosen search queries (approximate nearest neighbour, regression) with a
randomised sketch, the answers of independent copies of the data structure are aggregated with
differential privacy with respect to the copies' random seeds; advanced composition then needs only
about $\sqrt T$ copies (times the number $s$ of candidate near neighbours) instead of $T$, and the
mechanism returns solutions, not only numerical estimates.

Checked, with a private aggregation of votes by the exponential mechanism (our reading of the
mechanism): its exact privacy loss on every pair of neighbouring vote histograms (one copy changed),
the number of copies that the privacy accounting plus correctness of all $T$ answers requires,
as a function of $T$, and a c-ANN structure of our own (Gaussian projections) against an adaptive
adversary of our own that repeats any query answered wrongly.  The paper's ANN and regression
structures, the sparse-neighbour assumption and the condition-number dependence are listed as not
checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.privacy import (
    ProjectedSearch,
    copies_needed,
    exact_privacy_loss,
    per_query_epsilon,
    private_vote,
    resubmission_attack,
    vote_aggregation_probabilities,
    vote_neighbours,
)
from workbench import Bound, Paper, Param, Proportion, Rate, claim

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
         "the bounds are asymptotic with unpublished constants."),
        (r"Correctness holds against every adaptive adversary choosing its queries from the previous answers.",
         "a statement over all adversaries; a computation can only run particular attacks."),
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


@claim(PAPER, source="Sec. on the DP framework (privacy with respect to the copies' random seeds); aggregation "
       "mechanism reconstructed", evidence="bound", reconstructed=True,
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


@claim(PAPER, source="Abstract: O~(sqrt(T)) copies answer T adaptive queries (c-ANN: O~(sqrt(T) s))", evidence="rate",
       reconstructed=True, params=_COPIES,
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


# --------------------------------------------------------------------------- adaptive attack on c-ANN
def attack_run(rng: np.random.Generator, X, copies: int, k: int, n_queries: int, c: float, epsilon0: float,
               private: bool) -> int:
    """One adversary against a freshly built structure; returns the number of wrong answers.

    private: m copies aggregated by the exponential mechanism on their votes; otherwise the
    answer of a single copy (a structure whose answer is a fixed function of its randomness).
    """
    search = ProjectedSearch(rng, X, copies if private else 1, k)
    if private:
        answer = lambda q: private_vote(rng, search.copy_answers(q), X.shape[0], epsilon0)  # noqa: E731
    else:
        answer = lambda q: int(search.copy_answers(q)[0])  # noqa: E731
    return resubmission_attack(rng, X, answer, n_queries, c)


def _adaptive(ctx, private: bool) -> Proportion:
    T, eps, delta, beta = ctx["queries"], ctx["epsilon"], ctx["delta"], ctx["failure"]
    X = ctx.generator("points").standard_normal((ctx["points"], ctx["dim"]))
    eps0 = per_query_epsilon(eps, T, delta)
    m = copies_needed(T, eps, delta, ctx["copy_accuracy"], ctx["points"], beta)
    wrong = ctx.trials(attack_run, ctx["runs"], X, m, ctx["k"], T, ctx["c"], eps0, private, label="attacks")
    clean = int(np.sum(np.asarray(wrong) == 0))
    return Proportion(clean, len(wrong), 1 - 2 * beta, relation=">=", level=0.95,
                      why=f"Wilson 95% interval over independent attacks (fresh structure and adversary each); the "
                          f"accounting promises 1 - beta = {1 - beta:g}, tested at 1 - 2 beta = {1 - 2 * beta:g} so that "
                          f"{ctx['runs']} runs can resolve it; m = {m} copies, eps0 = {eps0:.4f} per query",
                      event=f"all {T} adaptive queries answered with a {ctx['c']:g}-approximate nearest neighbour")


@claim(PAPER, source="Abstract: DP aggregation answers T adaptive c-ANN search queries with O~(sqrt(T)) copies, "
       "returning the point; data structure (JL projection) and adversary ours", evidence="proportion",
       reconstructed=True,
       params={"points": Param(20, low=2, high=10**5, doc="data points n (also the candidates of the vote)"),
               "dim": Param(16, low=1, high=10**4, doc="ambient dimension"),
               "k": Param(6, low=1, high=1000, doc="projected dimension of each copy"),
               "c": Param(1.2, low=1.0, high=10.0, doc="approximation factor of an acceptable answer"),
               "queries": Param(50, full=100, low=1, high=10**5, doc="adaptive queries T"),
               "epsilon": Param(1.0, low=0.01, high=10.0, doc="total privacy budget over the T queries"),
               "delta": Param(1e-6, low=1e-12, high=0.1, doc="delta of the composition"),
               "copy_accuracy": Param(0.7, low=0.5, high=1.0,
                                      doc="per-copy accuracy assumed by the accounting (measured >= 0.7 on hard queries)"),
               "failure": Param(0.05, low=1e-6, high=0.5, doc="allowed probability beta that some answer is wrong"),
               "runs": Param(40, full=150, low=5, high=10**5, doc="independent attacks")},
       statement=r"With $m$ copies from the privacy accounting ($\varepsilon_0$ per query by advanced composition of $T$ "
       r"queries; $m=\tilde O(\sqrt T)$) and the exponential mechanism on the copies' votes, an adversary choosing each "
       r"query from the previous answers gets $c$-approximate nearest neighbours for all $T$ queries with high probability.",
       method="n = 20 Gaussian points in R^16, copies = Gaussian projections to k = 6 with exact search; the adversary "
       "asks hard queries (between a point and its nearest neighbour, the neighbour 1.5x farther) and repeats any query "
       "answered wrongly; success = no wrong answer among T = 50.")
def private_aggregation_survives_adaptive_attack(ctx):
    """The privately aggregated copies answer every adaptive query correctly in (nearly) every attack."""
    return _adaptive(ctx, private=True)


@private_aggregation_survives_adaptive_attack.control("a single copy answering directly (no private aggregation)")
def single_copy(ctx):
    return _adaptive(ctx, private=False)
