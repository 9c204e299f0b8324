r"""Ene, Epasto, Mirrokni, Nguyen, Nguyen, Woodruff & Zhong, "Maximum Coverage in Turnstile Streams
with Applications to Fingerprinting Measures" (ICML 2025, arXiv 2504.18394).

The first one-pass turnstile algorithm for maximum coverage (insertions and deletions of
(item, set) incidences): a linear sketch giving a $(1-1/e-\varepsilon)$-approximation with
$\tilde O(d/\varepsilon^3)$ space and polylog update time; and an estimator of the complement
$n^p-F_p$ of the $p$-th frequency moment (for $p=2$ the number of ordered pairs of users told
apart, a fingerprinting risk measure).

Checked, with a simplified sketch of the same type (geometric item subsampling with exact
integer counters per level; our reconstruction, a stand-in for the paper's sketch): the
approximation guarantee on the classical greedy-tight instance (greedy covers only
$1-(1-1/k)^k$ of the optimum there, so the claimed factor $1-1/e-\varepsilon$ is close to what
any greedy attains) fed as an adversarial turnstile stream, against the exact optimum by
enumeration.  The sketch's linearity and a tuple-sampling complement estimator (our stand-in) are
background.  The paper's own sketch and estimator could not be read; the space and update-time
bounds, the fingerprinting reductions and the 210x speed-up are listed as not checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.sketches import (
    LevelSketch,
    complement_moment,
    coverage,
    greedy_tight_instance,
    incidence_stream,
    max_coverage_exhaustive,
    planted_coverage_instance,
    required_samples,
    sketch_max_coverage,
    tuple_sampling_complement,
)
from workbench import Bound, Identity, NotChecked, Paper, Param, Proportion, claim

_READ = ("arXiv 2504.18394 abstract; sciencestack and papernotes.org summaries ((1 - 1/e - eps)-approximation, "
         "O~(d/eps^3) space, polylog update time, a linear sketch of the n x d incidence matrix)")

PAPER = Paper(
    slug="turnstile_max_coverage",
    title="Maximum Coverage in Turnstile Streams with Applications to Fingerprinting Measures",
    authors=("Alina Ene", "Alessandro Epasto", "Vahab Mirrokni", "Hoai-An Nguyen", "Huy L. Nguyen",
             "David P. Woodruff", "Peilin Zhong"),
    venue="ICML 2025",
    year=2025,
    arxiv="2504.18394",
    not_checked=(
        NotChecked(r"The turnstile maximum-coverage algorithm uses $\tilde O(d/\varepsilon^3)$ space and "
                   r"$\mathrm{poly}\log n$ update time.",
                   "an O~ upper bound with unpublished constants and polylogarithmic factors for a sketch that could "
                   "not be read.  Counting the counters of a sketch sized by our own rule would fit our rule; the "
                   "smallest sketch that succeeds is set by how hard the instance is, and on every family we could "
                   "build (greedy-tight, planted) a sketch of a few hundred counters already reaches the guarantee, "
                   "so no computation here tells d/eps^3 from d/eps^2 or d/eps.", role="headline"),
        NotChecked(r"Turnstile streaming algorithms for targeted and general fingerprinting (which features pose the "
                   r"greatest re-identification risk).",
                   "the reductions from fingerprinting to coverage were not readable from the abstract and summaries "
                   "and are not implemented.", role="headline"),
        NotChecked(r"An estimator of the complement $n^p-F_p$ of the $p$-th frequency moment for $p\ge2$ in "
                   r"turnstile streams.",
                   "the paper's estimator could not be read; the tuple-sampling estimator checked here (users drawn "
                   "directly, Chebyshev's sample size) is our stand-in and is marked background.",
                   role="supporting"),
        NotChecked(r"Empirically, a speed-up of up to $210\times$ over prior work (Gulyás, Ács and Castelluccia 2016).",
                   "an empirical wall-clock comparison on the paper's datasets and implementations, not available here.",
                   role="supporting"),
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


@claim(PAPER, source="Abstract: a linear-sketch approach for turnstile streams (a property of our stand-in sketch)",
       evidence="identity", role="background", params=_INSTANCE,
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
                   target: float, ignore_deletions: bool, random_choice: bool = False) -> int:
    """One hash seed: the number of items covered by the k sets chosen on the sketch.

    random_choice: k sets drawn at random instead of greedy on the sketch (a broken algorithm).
    """
    if random_choice:
        return coverage(sets, rng.choice(n_sets, size=k, replace=False))
    sketch = LevelSketch(n_sets, levels, int(rng.integers(2**62)), ignore_deletions)
    sketch.update(*stream)
    chosen, _ = sketch_max_coverage(sketch, k, target)
    return coverage(sets, chosen)


def _tight_instance(ctx):
    """The greedy-tight family with small decoys, streamed with fake incidences on the decoys."""
    rng = ctx.generator("tight instance")
    k = ctx["k"]
    sets, n_items, _ = greedy_tight_instance(k, k**k * ctx["block_units"], n_decoys=ctx["decoys"],
                                             decoy_size=ctx["decoy_size"], rng=rng)
    decoy = np.array([len(s) == ctx["decoy_size"] for s in sets])
    # An adversarial stream: every decoy gets 2 n/k fake incidences, inserted and later deleted.
    stream = incidence_stream(rng, sets, n_items, 2 * n_items // k, decoy)
    return sets, n_items, stream


def _approximation(ctx, ignore_deletions: bool, random_choice: bool = False) -> Bound:
    sets, n_items, stream = _tight_instance(ctx)
    d, k, eps = len(sets), ctx["k"], ctx["epsilon"]
    opt, _ = max_coverage_exhaustive(sets, n_items, k)
    target = SAMPLE_CONSTANT * k * math.log(d) / eps**2
    covered = np.array([coverage_trial(ctx.generator("seeds", i), sets, stream, d, k, ctx["levels"], target,
                                       ignore_deletions, random_choice) for i in range(ctx["trials"])], dtype=float)
    return Bound(covered / opt, 1 - 1 / math.e - eps, relation=">=", rtol=0.0,
                 why=f"exact coverage counts over OPT = {opt} (enumeration of all {math.comb(d, k)} k-subsets): no "
                     "rounding",
                 quantity="coverage / OPT of the sketch's k sets", instances=[f"hash seed {i}" for i in range(covered.size)],
                 found_by=f"the greedy-tight family (k = {k}: exact greedy covers {1 - (1 - 1 / k) ** k:.4f} OPT) with "
                          f"{ctx['decoys']} decoys padded by fake incidences in the stream; {covered.size} hash seeds")


@claim(PAPER, source="Abstract and main theorem: (1 - 1/e - eps)-approximation in one pass over a turnstile stream",
       evidence="bound", role="headline",
       reconstructed_from=_READ + "; the sketch is our stand-in of the same type (geometric subsampling of items, "
       "exact counters per level, greedy on the finest level with >= 4 k ln(d)/eps^2 covered items)",
       params={"k": Param(4, low=2, high=6, doc="sets to choose"),
               "block_units": Param(20, full=40, low=1, high=1000, doc="size of each optimal set in units of k^k"),
               "decoys": Param(8, low=0, high=100, doc="small decoy sets"),
               "decoy_size": Param(50, low=1, high=10**6, doc="items of each decoy"),
               "epsilon": Param(0.1, low=0.01, high=0.5, doc="approximation slack"),
               "levels": Param(8, low=1, high=40, doc="subsampling levels of the sketch (rates 2^-l)"),
               "trials": Param(20, full=80, low=2, high=10**5, doc="hash seeds")},
       statement=r"The $k$ sets chosen from the sketch of a turnstile stream cover at least "
       r"$(1-1/e-\varepsilon)\,\mathrm{OPT}$ items of the final incidence matrix (checked for every hash seed drawn).",
       method="The classical greedy-tight instance (k = 4 optimal blocks of 5120 items, greedy sets beating them by one "
       "item at every step) plus 8 small decoys padded by 2n/k fake incidences each, inserted then deleted; exact OPT "
       "by enumeration; the sketch reads the finest level with >= 4 k ln(d)/eps^2 covered items (here a quarter of the "
       "items).")
def sketch_greedy_approximation(ctx):
    """Greedy on the turnstile sketch achieves (1 - 1/e - eps) OPT on the greedy-tight instance for every seed."""
    return _approximation(ctx, ignore_deletions=False)


@sketch_greedy_approximation.control("the insertion-only predecessor: a sketch that ignores deletions (the fake "
                                     "incidences make the decoys look largest)", near_miss=True)
def insertion_only_sketch(ctx):
    return _approximation(ctx, ignore_deletions=True)


@sketch_greedy_approximation.control("k sets drawn at random instead of greedy on the sketch")
def random_sets(ctx):
    return _approximation(ctx, ignore_deletions=False, random_choice=True)


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


@claim(PAPER, source="Abstract: a new estimator of the complement n^p - F_p for p >= 2 (our stand-in estimator)",
       evidence="proportion", role="background",
       params={"users": Param(100_000, low=100, high=10**9, doc="users n"),
               "singletons": Param(500, low=1, high=10**6, doc="users in singleton classes (the rest share one class)"),
               "epsilon": Param(0.1, low=0.01, high=0.5, doc="relative accuracy"),
               "trials": Param(200, full=1000, low=20, high=10**5, doc="independent estimates")},
       statement=r"Sampling $S=\lceil 4/(\varepsilon^2 q)\rceil$ uniform pairs of users, $q=C_2/n^2$, and scaling the "
       r"fraction of pairs in different classes by $n^2$ estimates $C_2=n^2-F_2$ within relative error "
       r"$\varepsilon$ with probability at least $3/4$, even when $C_2\ll n^2$.",
       method="Class sizes (n - t, 1, ..., 1) with C_2/n^2 = 0.01; user pairs drawn as l1 samples of the class-size "
       "vector (directly, not through a turnstile sampler); success frequency over independent estimates.  Chebyshev's "
       "sample size is conservative, so the success rate is far above 3/4 and the near miss is not refuted.")
def complement_estimator_accuracy(ctx):
    """The pair-sampling estimate of the number of distinguishable user pairs is accurate with Chebyshev's sample size."""
    return _complement(ctx, 1.0)


@complement_estimator_accuracy.control("a tenth of the required samples")
def too_few_samples(ctx):
    return _complement(ctx, 0.1)
