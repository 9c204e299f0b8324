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
against $T$ and $s$; this recovers advanced composition and the model's even split, so it is
background.  The regression structure, and the transfer from privacy to correctness under every
adaptive adversary (the headline) are not checked.  One adaptive attack is run on a concrete structure (a
Gaussian Johnson-Lindenstrauss projection answering nearest-neighbour queries): it breaks plain
majority voting of $k$ copies within a number of queries linear in $k$, and the exponential-mechanism
aggregation delays it (for $T$ queries at a per-query budget whose $T$-fold composition is about 150,
not at $2T$).
"""

from __future__ import annotations

import math

import numpy as np

from simulations.privacy import (
    AttackRun,
    ann_copies_needed,
    copy_error_probability,
    exact_privacy_loss,
    invalid_radius_limit,
    predicted_attack_probes,
    private_epsilon0,
    run_attack,
    vote_aggregation_probabilities,
    vote_neighbours,
)
from workbench import (
    AllOf,
    Bound,
    Identity,
    NearMiss,
    NotChecked,
    Paper,
    Param,
    Proportion,
    Rate,
    claim,
)

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
        NotChecked(r"The main $c$-ANN result: $\tilde O(\sqrt T\, s)$ copies, privately aggregated, answer $T$ "
                   r"queries correctly against every adaptive adversary choosing queries from the previous answers.",
                   "a statement over all adaptive adversaries (privacy turned into correctness by a transfer "
                   "theorem); computations can run particular attacks only, and the count itself follows from "
                   "composition arithmetic, checked as background (the copy-count claim: advanced composition and the "
                   "even split of the valid votes).  One attack is run here (claims below, on a concrete "
                   "JL nearest-neighbour structure): it breaks plain voting within about 16 queries per copy, and the "
                   r"exponential mechanism delays it (the same copies withstand $T$ queries and are broken within $2T$), "
                   r"but only at a per-query $\varepsilon_0$ whose $T$-fold composition is about 150: at the "
                   r"theorem's $\varepsilon = 1$ ($\delta = 10^{-6}$) the copies "
                   r"prescribed for $T$ queries (about $3.8\cdot10^4$ for $T = 5\cdot10^4$) are more than this attack "
                   r"breaks in $T$ queries, and the $T$ at which plain voting with $k(T)$ copies first breaks within $T$ "
                   r"queries lies between $10^7$ and $3\cdot10^7$ ($k$ about $10^6$: some $10^{13}$ operations per run), "
                   "out of reach here.", role="headline"),
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


# --------------------------------------------------------------------------- background: the copy count of our model
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


@claim(PAPER, source="Background: the copy count of the abstract's O~(sqrt(T) s) from advanced composition "
       "(Dwork, Rothblum & Vadhan 2010) and our voting model", evidence="all", role="background",
       reconstructed_from=_READ + "; the voting model (valid answer or nothing per copy, exponential mechanism, valid "
       "votes split among the s answers) is our reading",
       params=_COPIES,
       statement=r"In our voting model, with per-query budget $\varepsilon_0$ from advanced composition of $T$ "
       r"queries into $(\varepsilon,\delta)$, the number of copies for which all $T$ privately aggregated answers to "
       r"queries fixed in advance are valid with probability $1-\beta$ grows as $T^{1/2}$ in $T$ and linearly in $s$, "
       r"the number of valid answers per query, up to the logarithm of the union bound.  The $\sqrt T$ is advanced "
       r"composition ($\varepsilon_0 \propto T^{-1/2}$) and the linear $s$ is the model's even split of the valid "
       r"votes among the $s$ answers: this is the arithmetic behind the abstract's $\tilde O(\sqrt T\, s)$ count, "
       r"not its correctness against adaptive adversaries (not checked, see the paper's list), and no adaptive query "
       r"is made.",
       method="For T from 10^2 to 10^5 (s = 4) and s from 1 to 16 (T = 1000): the smallest k with "
       "T P(invalid answer) <= beta, P exact (binomial valid votes split as evenly as possible among the s answers, "
       "the worst split for the mechanism; N - s unvoted points); two-sided log-log fits of k over ln((N-s)T/(s beta)).  "
       "The count is close to the closed form 2 s ln((N-s)T/(s beta))/(p eps0) of the model, so the fit recovers the "
       "exponents of that closed form: a consistency check of the model, shown as background.")
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
       evidence="bound", role="background", reconstructed_from=_READ + "; voting model ours (as above)",
       near_miss=NearMiss.none("an existence statement (a regime where the private aggregation needs fewer copies "
                               "than T fresh ones); the claim states no constant"),
       params={**{k: v for k, v in _COPIES.items() if k in ("epsilon", "delta", "copy_success", "points", "failure")},
               "regime": Param(((1_000_000, 1), (10_000_000, 2), (10_000_000, 4)),
                               doc="(T, s) pairs beyond the crossover k(T, s) = T")},
       statement=r"For enough queries the private aggregation needs fewer copies than the $T$ fresh copies of "
       r"the naive method: $k(T,s) < T$ once $T$ exceeds a crossover $T^*(s)$ of order $s^2$ up to logarithms "
       r"(here about $3\cdot10^5$ for $s=1$ and $3\cdot10^6$ for $s=4$).",
       method="Exact copy counts at T = 10^6 (s = 1) and 10^7 (s = 2, 4) against T; the control evaluates "
       "T = 10^4 and 10^5, below the crossover like every T of the earlier check (T <= 2560).  Background: the "
       "counts are the arithmetic of our voting model and of advanced composition (as for sqrt_t_s_copies_suffice), "
       "not a run against adversaries.")
def private_aggregation_beats_fresh_copies(ctx):
    """Beyond the crossover, the private aggregation uses fewer copies than one fresh copy per query."""
    return _wins(ctx, 1.0)


@private_aggregation_beats_fresh_copies.control("T a hundred times smaller (10^4 and 10^5), below the crossover")
def below_crossover(ctx):
    return _wins(ctx, 1e-2)


# --------------------------------------------------------------------------- the adaptive attack on a concrete structure
_ATTACK_SOURCE = ("adaptively chosen queries break the independence a randomised sketch relies on (Hardt & Woodruff, "
                  "STOC 2013; Cherapanamjeri & Nelson, NeurIPS 2020), the motivation for aggregating copies privately")
_STRUCTURE = (r"$k$ independent copies of a Gaussian Johnson-Lindenstrauss nearest-neighbour structure ($m$ rows, "
              r"entries $N(0,1/m)$, answer $\arg\min_i \|\Pi(q-x_i)\|$) over the data $\{0, e_1\}$")
_ATTACK_METHOD = (r"The adversary alternates probes $q = e_1/2 + e_i$ (equidistant from both points: either answer is "
                  r"valid), reading the aggregated answer as a sign $b_i$, with test queries "
                  r"$q^* = \lambda \sum_{i\le n} b_i e_i/\sqrt n$, $\lambda = 1/2$, whose only 2-approximate near "
                  r"neighbour is 0 ($\lambda < 1/\sqrt{c^2-1} = 0.577$ for $c = 2$); a run stops at the first invalid "
                  r"answer.  A copy answers $e_1$ exactly when $\langle q, w\rangle > \|c\|^2/2$ with $c = \Pi e_1$, "
                  r"$w = \Pi^\top c$, and the coordinates of $w$ are drawn as the queries reach them (independent "
                  r"$N(0, \|c\|^2/m)$ given $c$; unit tests check the runs against explicit projection matrices).")
_ATTACK = {
    "rows": Param(4, low=1, high=64, doc="rows m of each projection"),
    "radius": Param(0.5, low=0.01, high=0.57, doc="norm lambda of the test queries (below 1/sqrt(c^2-1) = 0.577, c = 2)"),
}


def _run(ctx, copies, queries, label, seeds, **kwargs) -> list[AttackRun]:
    if not ctx["radius"] < invalid_radius_limit(2.0):
        raise ValueError(f"radius {ctx['radius']} must stay below 1/sqrt(c^2 - 1) = {invalid_radius_limit(2.0):.3f} "
                         "so that the test queries have a single 2-approximate near neighbour")
    return ctx.trials(run_attack, seeds, int(copies), ctx["rows"], int(queries), label=label, radius=ctx["radius"],
                      **kwargs)


def _attack_budget(ctx, copies: int) -> int:
    """Queries allowed to one run: four times the heuristic number of probes, each followed by a test."""
    return int(round(2 * 4 * predicted_attack_probes(copies, ctx["rows"], ctx["radius"])))


@claim(PAPER, source="Background: " + _ATTACK_SOURCE + "; our structure and attack", evidence="proportion",
       role="background",
       params={**_ATTACK, "copies": Param(41, low=1, high=10**4, doc="copies k (odd)"),
               "seeds": Param(80, full=200, low=1, high=10**5, doc="independent runs (copies and signs)")},
       statement=r"Plain majority voting of " + _STRUCTURE + r" answers a query sequence fixed in advance correctly: "
       r"the probe/test sequence of the attack below with its signs drawn by fair coins, for as many queries as the "
       r"attack's budget, has every test answered by the valid point in at least 95\% of runs.",
       method=_ATTACK_METHOD + r"  Here the signs $b_i$ are fair coins independent of the answers, so every test query "
       r"is fixed in advance; one copy then errs with probability $\frac12 P(F_{1,m} > m/(4\lambda^2)) = 0.058$ "
       r"($m = 4$), and the majority of 41 copies with probability below $10^{-14}$ per query.  The near miss "
       r"(97.5\%) cannot be refuted by any number of runs, since the true probability is 1 up to $10^{-10}$: this is "
       "the premise of the attack, shown beside its control (the same rule with the signs read from the answers).")
def plain_voting_answers_fixed_queries(ctx):
    """Plain majority voting answers the attack's query rule correctly when the signs do not depend on the answers."""
    return _fixed(ctx, adaptive=False)


def _fixed(ctx, adaptive: bool) -> Proportion:
    k = ctx["copies"]
    runs = _run(ctx, k, _attack_budget(ctx, k), "fixed", ctx["seeds"], adaptive=adaptive)
    ok = sum(r.wrong_at is None for r in runs)
    p_copy = copy_error_probability(ctx["rows"], ctx["radius"])
    return Proportion(ok, len(runs), 0.95, relation=">=", method="clopper-pearson",
                      why=f"independent runs; exact binomial interval (one copy errs on a fixed test w.p. {p_copy:.3f})",
                      event="every test answered validly")


@plain_voting_answers_fixed_queries.control("the same query rule with the signs read from the answers (the attack)")
def signs_from_answers(ctx):
    return _fixed(ctx, adaptive=True)


@claim(PAPER, source="Background: " + _ATTACK_SOURCE + "; our structure and attack", evidence="all",
       role="background",
       params={**_ATTACK,
               "copies_grid": Param((41, 81, 161, 321, 641, 1281), full=(41, 81, 161, 321, 641, 1281, 2561),
                                    doc="numbers of copies k (odd)"),
               "seeds": Param(12, full=16, low=2, high=1000, doc="runs per k")},
       statement=r"Against plain majority voting of " + _STRUCTURE + r" with $m = 4$ rows (fixed; the dependence on "
       r"$m$ is not claimed), the adaptive probe/test adversary obtains an invalid answer (not a $2$-approximate near "
       r"neighbour) in every run, after a number of queries growing linearly in $k$.",
       method=_ATTACK_METHOD + r"  For each $k$, 12 independent runs (16 in the full profile), each with a budget of "
       r"four times the heuristic count $(\pi/(4\lambda))^2\,2mk$ (an order of magnitude only, not claimed).  Two "
       r"pieces: the number of runs that reach their budget without an invalid answer (censored runs) must be 0 for "
       r"every $k$, so an attack that does not break cannot pass through counts that stop at a budget proportional "
       r"to $k$; and a two-sided log-log fit of the mean number of queries to the first invalid answer against $k$ "
       r"($k$ = 41 to 1281, to 2561 in the full profile).  Controls: copies sharing one seed, whose majority is one "
       r"copy's answer, so the count does not grow with $k$; and the same query rule with the signs drawn by fair "
       r"coins (no adaptivity), which never breaks plain voting, so every run is censored.")
def adaptive_attack_breaks_plain_voting(ctx):
    """Plain voting of k JL copies returns an invalid answer in every run, after a number of queries linear in k."""
    return _attack_rate(ctx, shared_seed=False)


@adaptive_attack_breaks_plain_voting.control(r"the $k$ copies share one random seed (one projection copied $k$ times)")
def shared_seed(ctx):
    return _attack_rate(ctx, shared_seed=True)


@adaptive_attack_breaks_plain_voting.control(r"the signs drawn by fair coins instead of read from the answers (a query "
                                             r"sequence fixed in advance; $k$ = 41 to 321 to keep the censored runs "
                                             r"short)")
def signs_by_coins(ctx):
    return _attack_rate(ctx, shared_seed=False, adaptive=False, grid=(41, 81, 161, 321))


def _attack_rate(ctx, shared_seed: bool, adaptive: bool = True, grid=None) -> AllOf:
    grid = [int(k) for k in (grid or ctx["copies_grid"])]
    means, censored = [], []
    for k in grid:
        budget = _attack_budget(ctx, k)
        # identical copies vote unanimously, so their majority is the answer of one copy
        runs = _run(ctx, 1 if shared_seed else k, budget, f"attack k={k}", ctx["seeds"], adaptive=adaptive)
        censored.append(sum(r.wrong_at is None for r in runs))
        # a censored run is entered at its budget; the first piece refutes the claim whenever there is one
        means.append(float(np.mean([budget if r.wrong_at is None else r.wrong_at for r in runs])))
    return AllOf([
        Identity(censored, [0] * len(grid), atol=0, why="integer counts of runs: exact",
                 quantity="runs without an invalid answer within the budget", labels=[f"k={k}" for k in grid]),
        Rate(grid, means, exponent=1.0, relation="=", tolerance=0.1, max_halfwidth=0.1,
             why="allowance 0.1 for lower-order terms in k, set before the runs: a run stops at the first test whose "
             "fooled fraction, which fluctuates by O(k^-1/2) about its mean, crosses 1/2, and one copy's correlation "
             "with the majority is sqrt(2/(pi k))(1 + O(1/k)); a relative correction a k^-1/2 to the mean count moves "
             "the least-squares slope over k = 41 to 1281 (6 sizes, doubling) by about 0.034 a (0.030 a to 2561), so 0.1 admits "
             "|a| up to about 3; float32 running sums and even query counts move it by far less",
             size_name="copies k", cost_name="mean queries to the first invalid answer"),
    ], labels=["every run breaks within its budget", "linear growth in k"],
       near_misses=[NearMiss.none("a count of censored runs that must be 0 has no number to move"), None])


# --------------------------------------------------------------------------- background: private aggregation delays it
def _withstand(ctx, aggregation: str, noise: float) -> Proportion:
    k, t = ctx["copies"], ctx["queries"]
    eps0 = private_epsilon0(k, t, ctx["calibration_accuracy"], ctx["failure"])
    runs = _run(ctx, k, t, "withstand", ctx["seeds"], aggregation=aggregation, epsilon0=eps0 / noise)
    ok = sum(r.wrong_at is None for r in runs)
    return Proportion(ok, len(runs), 0.5, relation=">=", method="clopper-pearson",
                      why="independent runs (copies, mechanism noise); exact binomial interval",
                      event=f"all {t} answers valid", values=[r.wrong_at or 0 for r in runs],
                      value_name="queries to the first invalid answer (0: none)")


@claim(PAPER, source="Background: an illustration of the abstract's motivation (privately aggregated copies against "
       "an adaptive attack); our structure, attack and calibration, not a result the paper states",
       evidence="proportion", role="background",
       reconstructed_from=_READ + "; the aggregation (exponential mechanism on the copies' votes) is our reading; the "
       "structure and the attack are ours",
       params={**_ATTACK,
               "copies": Param(1281, low=1, high=10**5, doc="copies k (odd)"),
               "queries": Param(50_572, low=2, high=10**7,
                                doc="queries T: twice the heuristic query count (2 x 12,643 probes, each with its test)"),
               "calibration_accuracy": Param(0.75, low=0.5, high=1.0,
                                             doc="fraction of correct copies at which the mechanism must still answer "
                                             "correctly (w.p. 1 - failure/T)"),
               "failure": Param(0.05, low=1e-6, high=0.5, doc="failure probability beta of the calibration"),
               "seeds": Param(10, full=40, low=1, high=10**4, doc="independent runs")},
       statement=r"The exponential-mechanism aggregation of the votes of " + _STRUCTURE + r" ($k=1281$, $m=4$), with "
       r"per-query $\varepsilon_0$ the smallest that answers correctly w.p. $1-\beta/T$ whenever $3/4$ of the copies "
       r"are correct ($\beta=0.05$, $T=50{,}572$, so $\varepsilon_0 = 0.044$), keeps all $T$ answers of the adaptive "
       r"attack valid in at least half of the runs, while plain voting of the same copies is broken within $T$ "
       r"queries.  The $T$-fold advanced composition of this $\varepsilon_0$ ($\delta = 10^{-6}$) is about 150: no "
       r"meaningful privacy guarantee, outside the paper's transfer theorem.  The noise delays the attack and does "
       r"not stop it: the same copies are broken within $2T$ queries ($\varepsilon_0 = 0.046$ calibrated for $2T$), "
       r"so the copies must grow with $T$.",
       method=r"The attack of the claim above, for $T$ = 50,572 queries (about 2.5 times the queries plain voting of "
       r"these copies withstands).  $\varepsilon_0$ from an exact binomial sum; its composition (about 150) is far "
       r"outside a meaningful privacy guarantee: at $\varepsilon = 1$ the copies prescribed for this $T$ (about "
       r"$3.8\cdot10^4$) exceed what this attack can break within $T$ queries, so the regime where the prescribed "
       r"copies matter ($T$ above $10^7$) is out of reach; what is shown is that the mechanism's noise, at a level set "
       r"by correctness alone, hides the majority's signs from this attack for $T$ queries.  The claimed 1/2 is a bar "
       r"of ours, set before the runs and far below the calibration's $1-\beta$; the engine's near miss (3/4) is not "
       r"refuted by these runs, so the verdict is slack in the probability.  The controls move the other numbers: "
       r"plain voting (the same copies and queries, gross), the noise halved ($\varepsilon_0$ doubled), half the "
       r"copies for the same $T$, and the same copies for $2T$ queries (8 runs; the statement's last sentence), each "
       r"expected refuted.")
def private_aggregation_withstands_adaptive_attack(ctx):
    """The exponential mechanism over the copies' votes withstands the attack that breaks plain voting."""
    return _withstand(ctx, "private", 1.0)


@private_aggregation_withstands_adaptive_attack.control("plain majority voting of the same copies")
def plain_voting(ctx):
    return _withstand(ctx, "plain", 1.0)


@private_aggregation_withstands_adaptive_attack.control(r"the mechanism's noise halved ($\varepsilon_0$ doubled)", near_miss=True)
def noise_halved(ctx):
    return _withstand(ctx, "private", 0.5)


private_aggregation_withstands_adaptive_attack.control(
    r"half the copies (641) for the same $T$, $\varepsilon_0$ calibrated for them in the same way", params={"copies": 641},
    near_miss=True)


private_aggregation_withstands_adaptive_attack.control(
    r"the same copies for $2T$ = 101,144 queries, $\varepsilon_0$ calibrated for $2T$ in the same way (8 runs)",
    params={"queries": 101_144, "seeds": 8}, near_miss=True)
