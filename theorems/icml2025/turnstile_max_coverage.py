r"""Ene, Epasto, Mirrokni, Nguyen, Nguyen, Woodruff & Zhong, "Maximum Coverage in Turnstile Streams
with Applications to Fingerprinting Measures" (ICML 2025, arXiv 2504.18394).

The first one-pass turnstile algorithm for maximum coverage (insertions and deletions of
(item, set) incidences): a linear sketch giving a $(1-1/e-\varepsilon)$-approximation with
$\tilde O(d/\varepsilon^3)$ space and polylog update time; and an estimator of the complement
$n^p-F_p$ of the $p$-th frequency moment (for $p=2$ the number of ordered pairs of users told
apart, a fingerprinting risk measure).

Checked, with a simplified sketch of the same type (geometric item subsampling with exact
integer counters per level; our reconstruction): its linearity under deletions and the
approximation guarantee against the exact optimum of a mixed-integer programme; for the
complement, a tuple-sampling estimator (our reading) with Chebyshev's sample size.  The paper's
own estimator could not be read; the space bound (our sketch stores every level, so its space is
not the paper's), the asymptotic bounds and the 210x speed-up are listed as not checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.sketches import (
    LevelSketch,
    complement_moment,
    coverage,
    incidence_stream,
    max_coverage_milp,
    planted_coverage_instance,
    required_samples,
    sketch_max_coverage,
    tuple_sampling_complement,
)
from workbench import Identity, Paper, Param, Proportion, claim

PAPER = Paper(
    slug="turnstile_max_coverage",
    title="Maximum Coverage in Turnstile Streams with Applications to Fingerprinting Measures",
    authors=("Alina Ene", "Alessandro Epasto", "Vahab Mirrokni", "Hoai-An Nguyen", "Huy L. Nguyen",
             "David P. Woodruff", "Peilin Zhong"),
    venue="ICML 2025",
    year=2025,
    arxiv="2504.18394",
    not_checked=(
        (r"The turnstile maximum-coverage algorithm uses $\tilde O(d/\varepsilon^3)$ space and "
         r"$\mathrm{poly}\log n$ update time.",
         "asymptotic bounds with hidden polylogarithmic factors and unpublished constants, for the paper's own "
         "sketch (not readable).  Our stand-in sketch stores every subsampling level with exact counters, so its "
         "space is linear in n; a space check would need fixed-size per-level sparse recovery, not implemented.", "headline"),
        (r"Turnstile streaming algorithms for targeted and general fingerprinting (which features pose the "
         r"greatest re-identification risk).",
         "the reductions from fingerprinting to coverage were not readable from the abstract and are not "
         "implemented.", "headline"),
        (r"Empirically, a speed-up of up to $210\times$ over prior work (Gulyás, Ács and Castelluccia 2016).",
         "an empirical wall-clock comparison on the paper's datasets and implementations, not available here.", "headline"),
    ),
)

SAMPLE_CONSTANT = 4.0    # the sketch reads the finest level with >= c k ln(d) / eps^2 covered items; fixed in advance

_INSTANCE = {
    "n_items": Param(4000, full=8000, low=100, high=10**6, doc="items of the universe"),
    "n_sets": Param(20, full=30, low=3, high=1000, doc="sets d"),
    "k": Param(4, full=5, low=1, high=50, doc="sets to choose"),
    "epsilon": Param(0.2, low=0.01, high=0.5, doc="approximation slack"),
    "levels": Param(6, low=1, high=40, doc="subsampling levels of the sketch (rates 2^-l)"),
}


def _instance(ctx):
    rng = ctx.generator("instance")
    n, d, k = ctx["n_items"], ctx["n_sets"], ctx["k"]
    sets, decoy = planted_coverage_instance(rng, n, d, k, decoy_fraction=0.3)
    # An adversarial stream: every decoy set gets 2n/k fake incidences, inserted then deleted.
    stream = incidence_stream(rng, sets, n, 2 * n // k, decoy)
    return sets, stream


def _final(sets):
    items = np.concatenate(sets)
    owners = np.concatenate([np.full(len(s), j) for j, s in enumerate(sets)])
    return items, owners, np.ones(items.size, dtype=np.int64)


# --------------------------------------------------------------------------- linearity
def _linearity(ctx, ignore_deletions: bool) -> Identity:
    sets, (items, owners, deltas) = _instance(ctx)
    seed = int(ctx.generator("hash").integers(2**62))
    streamed = LevelSketch(ctx["n_sets"], ctx["levels"], seed, ignore_deletions)
    for chunk in np.array_split(np.arange(items.size), 7):          # incremental updates
        streamed.update(items[chunk], owners[chunk], deltas[chunk])
    direct = LevelSketch(ctx["n_sets"], ctx["levels"], seed, ignore_deletions)
    direct.update(*_final(sets))
    labels = [f"level {lv}: {what}" for lv in range(ctx["levels"]) for what in ("counters", "sum", "checksum")]
    return Identity(streamed.summary().ravel().astype(float), direct.summary().ravel().astype(float), atol=0.0,
                    why="integer counters (exact below 2^53)", quantity="sketch state", labels=labels)


@claim(PAPER, role="background", source="Abstract: a linear-sketch approach for turnstile streams", evidence="identity",
       reconstructed_from="the abstract", params=_INSTANCE,
       statement=r"The sketch is a linear function of the stream: after any sequence of insertions and "
       r"deletions of incidences it equals the sketch of the final incidence matrix.",
       method="The adversarial stream (fake incidences on the decoy sets, inserted and later deleted) fed in "
       "seven batches, against the final incidences fed at once; counters, sums and checksums per level.")
def sketch_is_linear(ctx):
    """The level sketch after a turnstile stream equals the sketch of the final incidence matrix."""
    return _linearity(ctx, ignore_deletions=False)


@sketch_is_linear.control("a sketch that ignores deletions (counts insertions only)")
def ignores_deletions(ctx):
    return _linearity(ctx, ignore_deletions=True)


# --------------------------------------------------------------------------- approximation
def coverage_trial(rng: np.random.Generator, sets, stream, n_sets: int, k: int, levels: int,
                   target: float, ignore_deletions: bool) -> int:
    """One hash seed: the number of items covered by the k sets greedy chooses on the sketch."""
    sketch = LevelSketch(n_sets, levels, int(rng.integers(2**62)), ignore_deletions)
    sketch.update(*stream)
    chosen, _ = sketch_max_coverage(sketch, k, target)
    return coverage(sets, chosen)


def _approximation(ctx, ignore_deletions: bool) -> Proportion:
    sets, stream = _instance(ctx)
    n, d, k, eps = ctx["n_items"], ctx["n_sets"], ctx["k"], ctx["epsilon"]
    opt, _ = max_coverage_milp(sets, n, k)
    threshold = (1 - 1 / math.e - eps) * opt
    target = SAMPLE_CONSTANT * k * math.log(d) / eps**2
    covered = np.array([coverage_trial(ctx.generator("seeds", i), sets, stream, d, k, ctx["levels"], target,
                                       ignore_deletions) for i in range(ctx["trials"])], dtype=float)
    return Proportion(int(np.sum(covered >= threshold)), covered.size, 0.9, relation=">=", level=0.95,
                      values=covered / opt, value_name="approximation ratio (coverage / OPT)",
                      why=f"Wilson 95% interval over hash seeds; OPT = {opt} from the HiGHS MILP (optimal); "
                          "0.9 is the 'high probability' tested",
                      event=f"coverage >= (1 - 1/e - {eps}) OPT")


@claim(PAPER, role="headline", source="Abstract: (1 - 1/e - eps)-approximation in one pass over a turnstile stream",
       evidence="proportion", reconstructed_from="the abstract",
       params={**_INSTANCE, "trials": Param(40, full=80, low=10, high=10**5, doc="hash seeds")},
       statement=r"With high probability the $k$ sets chosen from the sketch cover at least "
       r"$(1-1/e-\varepsilon)\,\mathrm{OPT}$ items of the final incidence matrix.",
       method="Planted instance (k disjoint sets covering everything, small decoys padded by fake incidences "
       "in the stream); exact OPT by MILP; greedy on the finest level with >= 4 k ln(d)/eps^2 covered items.")
def sketch_greedy_approximation(ctx):
    """Greedy on the turnstile sketch achieves (1 - 1/e - eps) OPT for most hash seeds."""
    return _approximation(ctx, ignore_deletions=False)


@sketch_greedy_approximation.control("a sketch that ignores deletions (fake incidences inflate the decoys)")
def insertion_only_sketch(ctx):
    return _approximation(ctx, ignore_deletions=True)


# --------------------------------------------------------------------------- complement of F_2
def complement_trial(rng: np.random.Generator, sizes, p: int, samples: int, truth: float, eps: float) -> bool:
    return abs(tuple_sampling_complement(rng, sizes, p, samples) / truth - 1) <= eps


def _complement(ctx, sample_factor: float) -> Proportion:
    n, t, eps, p = ctx["users"], ctx["singletons"], ctx["epsilon"], 2
    sizes = np.array([n - t] + [1] * t)
    truth = complement_moment(sizes, p)
    samples = max(1, int(sample_factor * required_samples(eps, truth / n**p)))
    ok = ctx.trials(complement_trial, ctx["trials"], sizes, p, samples, truth, eps, label="estimates")
    return Proportion(int(np.sum(ok)), len(ok), 0.75, relation=">=", level=0.95,
                      why=f"Chebyshev: relative variance (1 - q)/(S q) <= eps^2/4 at S = 4/(eps^2 q) = {samples} "
                          f"(q = C_2/n^2 = {truth / n**2:.4g}); Wilson 95% interval",
                      event=f"|C_2 estimate / C_2 - 1| <= {eps}")


@claim(PAPER, role="headline", source="Abstract: a new estimator of the complement n^p - F_p for p >= 2 (estimator reconstructed)",
       evidence="proportion", reconstructed_from="the abstract",
       params={"users": Param(100_000, low=100, high=10**9, doc="users n"),
               "singletons": Param(500, low=1, high=10**6, doc="users in singleton classes (the rest share one class)"),
               "epsilon": Param(0.1, low=0.01, high=0.5, doc="relative accuracy"),
               "trials": Param(200, full=1000, low=20, high=10**5, doc="independent estimates")},
       statement=r"Sampling $S=\lceil 4/(\varepsilon^2 q)\rceil$ uniform pairs of users, $q=C_2/n^2$, and scaling the "
       r"fraction of pairs in different classes by $n^2$ estimates $C_2=n^2-F_2$ within relative error "
       r"$\varepsilon$ with probability at least $3/4$, even when $C_2\ll n^2$.",
       method="Class sizes (n - t, 1, ..., 1) with C_2/n^2 = 0.01; user pairs drawn as l1 samples of the class-size "
       "vector; success frequency over independent estimates.")
def complement_estimator_accuracy(ctx):
    """The pair-sampling estimate of the number of distinguishable user pairs is accurate with Chebyshev's sample size."""
    return _complement(ctx, 1.0)


@complement_estimator_accuracy.control("a tenth of the required samples")
def too_few_samples(ctx):
    return _complement(ctx, 0.1)
