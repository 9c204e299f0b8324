r"""Chakrabarti, Jiang, Woodruff & Yasuda, "Streaming Algorithms for $\ell_p$ Flows and $\ell_p$ Regression"
(ICLR 2025, OpenReview Kpjvm2mB0K).

Underdetermined $\ell_p$ regression $\mathrm{OPT}_p=\min\{\|x\|_p : Ax=b\}$, $A\in\mathbb R^{n\times d}$,
$n\ll d$, with the columns of $A$ arriving one by one and $b$ after them.  For $p\in[2,\infty]$ a
one-pass algorithm keeps a reweighted sparse instance on $\tilde O(\varepsilon^{-2}n)$ columns whose
cost is within $(1\pm\varepsilon)$ of $\mathrm{OPT}_p$; by the reviews it is online Lewis weight sampling
(Woodruff & Yasuda 2023) of the dual problem $\max\{b^\top y:\|A^\top y\|_q\le1\}$, $1/p+1/q=1$.

Checked, for the one-pass sampler (our reconstruction of the online weight rule), with the error
over every $b$ computed exactly (extreme eigenvalues for $p=2$; all cuts of a graph for
$p=\infty$): the smallest oversampling each pass needs and the columns kept at its 90% quantile,
fitted two-sidedly over a decade of accuracies (for $p=2$ and $p=\infty$; the accuracy measured
as the deviation $t$ of $\|A'^\top y\|_q^q$, which brackets the cost's $\varepsilon$ within
$1+O(\varepsilon)$ and is symmetric in the coins to first order), of row counts and of stream
lengths.  The accuracy and row fits run where the online weights are far from uniform (a coherent matrix
whose last $n$ columns carry half of every $\|A^\top y\|_2^2$; two clusters of vertices joined by two
bridge edges), so that uniform sampling with the same expected count, a near-miss control, fails by
keeping almost the whole stream; the flow exponent is also fitted on the cost of every demand
itself, the paper's own quantity.  The $p\in(1,2)$ extension is checked at one size (its $n^{q/2}$ law cannot be told from
$n^1$ by any exact computation here); the space lower bounds and the solution-output algorithms are
listed as not checked.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.streaming import (
    clustered_edge_stream,
    coherent_instance,
    cut_indicators,
    edge_weight_matrix,
    form_deviation,
    holder_conjugate,
    inverse_sqrt_gram,
    isolated_rows_instance,
    l2_cost_ratio_range,
    lewis_weights,
    linf_cost_ratio_range,
    lp_regression_cost_dual,
    online_lewis_sampling,
    pair_ids,
    random_edge_stream,
    ratio_error,
    sample_columns,
    sampling_probabilities,
    smallest_budget,
)
from workbench import (
    AllOf,
    Bound,
    NearMiss,
    NotChecked,
    Paper,
    Param,
    Proportion,
    Rate,
    claim,
    factor_slope,
)

_READ = ("the abstract (OpenReview Kpjvm2mB0K) and its reviews (reviewer 2: online Lewis weight sampling of "
         "Woodruff & Yasuda 2023 applied to the dual problem); the online weight rule and the reading 'every b' "
         "(b arrives after the columns; a flow sparsifier) are ours")

PAPER = Paper(
    slug="streaming_lp_regression",
    title="Streaming Algorithms for $\\ell_p$ Flows and $\\ell_p$ Regression",
    authors=("Amit Chakrabarti", "Jeffrey Jiang", "David P. Woodruff", "Taisuke Yasuda"),
    venue="ICLR 2025",
    year=2025,
    identifier="OpenReview Kpjvm2mB0K",
    url="https://openreview.net/forum?id=Kpjvm2mB0K",
    not_checked=(
        NotChecked(r"For $p=2$, $\Omega(n^2)$ bits of space are required in general, even to output a constant-factor "
                   r"solution.",
                   "a space lower bound over all streaming algorithms (communication complexity); no computation checks "
                   "it.", "headline"),
        NotChecked(r"For $p=1$, the cost cannot be estimated even to an $o(\sqrt n)$ factor in $\mathrm{poly}(n)$ space.",
                   "an impossibility result over all poly(n)-space algorithms; no computation checks it.", "headline"),
        NotChecked(r"Outputting a $(1+\varepsilon)$-approximate solution $\mathbf x$ requires $\Omega(d)$ space for $p>1$; "
                   r"$\kappa$-approximations require $\tilde\Omega(d/\kappa^{2q})$ space.",
                   "space lower bounds over all algorithms; no computation checks them.", "headline"),
        NotChecked(r"A $\kappa$-approximate solution can be output in space $\mathrm{poly}(n)\cdot\tilde O(d/\kappa^q)$ "
                   r"for $p>1$, and a $\sqrt n$-approximation in $\mathrm{poly}(n,\log d)$ space for $p=1$.",
                   "the solution-output algorithms could not be read (only the abstract and the reviews) and are not "
                   "implemented; their bounds carry an unspecified poly(n) factor, so no exponent could be fitted.",
                   "headline"),
        NotChecked(r"For $p\in(1,2)$ the sparse instance needs $\tilde O(\varepsilon^{-2}n^{q/2})$ columns: the growth "
                   r"$n^{q/2}$ in the number of rows.",
                   "no computation here can tell n^(q/2) from n^1.  The budget needs the worst case over every b, "
                   "max_y of ||A'^T y||_q^q / ||A^T y||_q^q and its minimum, non-convex for q > 2.  Local search "
                   "(multi-start) under-estimates the deviation and hence the budget, so an exponent fitted from it "
                   "could pass falsely.  A certified maximum exists for q = 4 only at n <= 3: a nonnegative ternary "
                   "quartic form is a sum of squares (Hilbert), so two SOS programmes per pass evaluation give the "
                   "exact range; from n = 4 on, nonnegative quartics need not be sums of squares (the SOS bound is "
                   "then only an upper bound, a certificate only where a local maximum happens to meet it, and at the "
                   "n = 20 a decade of sizes needs each programme has a 210 x 210 matrix and 8855 equations), and a "
                   "certified grid on the sphere S^3 at the 1e-3 accuracy a 2% budget "
                   "needs, with the triangle-inequality Lipschitz bound 2 q kappa (about 20) of the log-ratio, has "
                   "2 pi^2 / (1e-4)^3, about 2e13, points per evaluation.  On "
                   "n in {2, 3} the two laws differ by a factor 1.5 (0.41 in log budget), while the logarithm the O~ "
                   "hides has a local exponent of 1.14 there if it is ln n (0.26 if ln(2n/0.1)): as large as the "
                   "difference between the exponents 2 and 1; the sizes span a factor 1.5, not the decade a fitted "
                   "rate needs; and with a pass's log-budget scattering by about 0.8 at n = 2 (measured for q = 2), a "
                   "half-width of 0.3 would take about 700 passes of some twenty SOS solves each (0.15 s per solve here "
                   "for n = 3: about 35 minutes).  The law is also a worst case over "
                   "matrices whose binding family is not known here (on Gaussian columns the growth could be n^1 "
                   "without contradicting it).  The sampler is checked at one size for a fixed b (supporting "
                   "claim lewis_sampling_preserves_lp_cost_p_below_2).", "headline"),
        NotChecked(r"The sparse instance corresponds to $\tilde O(\varepsilon^{-2}n^2)$ bits of space in general and an "
                   r"$\tilde O(\varepsilon^{-2}n)$-space semi-streaming algorithm for $\ell_p$ flow sparsifiers.",
                   "bit-level space accounting with the logarithms hidden in the tilde; only the number of kept "
                   "columns (each n numbers, or one edge) is measured here.", "supporting"),
    ),
)

SUCCESS = 0.9      # "with high probability": the budget is the smallest reaching this success frequency
RATE_WHY = ("two-sided fit over all passes; allowance 0.05 for the lower-order terms: the stream length is "
            "proportional to the budget scale, so the online factor ln(d/(c n)) and the kept fraction are the same at "
            "every point; what remains is the start of the pass (the columns kept before the sketch has full rank, a "
            "relative O(1/c), a few percent of the budget at c >= 25) and the drift of the extreme-eigenvalue (or extreme-cut) "
            "fluctuations, together less than 10% across a decade, i.e. a slope change below ln(1.1)/ln(10) = 0.04; "
            "a half-width up to 0.2 is accepted as identifying the exponent (the fit must still refute the near "
            "misses 0.25 away to count as sharp)")


# --------------------------------------------------------------------------- one trial: the smallest budget
def _sparse_error(kept, scale, A, reference, p: float, graph, form: bool) -> float:
    """Error over every b of the sparse instance A[:, kept] * scale (reference: G^-1/2 for p = 2, W for p = inf).

    form=False: the cost's relative error max_b |OPT(A', b)/OPT(A, b) - 1|; form=True: the deviation of
    the dual norm's q-th power, max_y |N'(y)^q/N(y)^q - 1| (form_deviation).  graph = (pair ids, all
    pairs, cuts) for p = inf.
    """
    if p == 2:
        lo, hi = l2_cost_ratio_range(reference, A[:, kept] * scale)
    else:
        ids, all_pairs, cuts = graph
        sparse = edge_weight_matrix(reference.shape[0], all_pairs,
                                    np.bincount(ids[kept], scale, minlength=len(all_pairs)))
        lo, hi = linf_cost_ratio_range(reference, sparse, cuts)
    return form_deviation(lo, hi, holder_conjugate(p)) if form else ratio_error(lo, hi)


def budget_trial(rng: np.random.Generator, A, reference, p: float, target: float, start: float,
                 rescale_power: float | None, uniform_rows: bool, graph=None, form: bool = False) -> float:
    """The smallest oversampling c (to 2%) for which one pass with this trial's coins reaches the target for every b.

    target: eps for the cost's relative error (form=False), t for the deviation of the dual norm's q-th
    power (form=True).  uniform_rows: sample with pi = min(1, c n / d) instead of the online weights (a control).
    """
    u = rng.uniform(size=A.shape[1])
    q = holder_conjugate(p)
    ids = None if graph is None else graph[0]
    norms = None if ids is not None else np.einsum("ij,ij->j", A, A)

    def error(c: float) -> float:
        if uniform_rows:
            pi = min(1.0, c * A.shape[0] / A.shape[1])
            kept = np.nonzero(u < pi)[0]
            scale = np.full(kept.size, pi ** -(1.0 / q if rescale_power is None else rescale_power))
        else:
            kept, scale = online_lewis_sampling(u, A, c, q, rescale_power=rescale_power, column_ids=ids,
                                                squared_norms=norms)
        return _sparse_error(kept, scale, A, reference, p, graph, form) if kept.size else math.inf

    return smallest_budget(error, target, start)


def kept_trial(rng: np.random.Generator, A, p: float, c: float, rescale_power: float | None,
               uniform_rows: bool, ids=None) -> int:
    """Columns one pass keeps at oversampling c with the same coins as budget_trial (same stream label)."""
    u = rng.uniform(size=A.shape[1])
    if uniform_rows:
        return int(np.sum(u < min(1.0, c * A.shape[0] / A.shape[1])))
    kept, _ = online_lewis_sampling(u, A, c, holder_conjugate(p), rescale_power=rescale_power, column_ids=ids)
    return int(kept.size)


def _budget(ctx, label: str, A, reference, p: float, target: float, start: float, rescale_power,
            uniform_rows: bool, graph=None, form: bool = False, passes: int | None = None) -> tuple[list[float], float]:
    """(the budget of each of `passes` passes (default ctx['trials']), mean columns kept at their 90% quantile)."""
    passes = ctx["trials"] if passes is None else passes
    cs = ctx.trials(budget_trial, passes, A, reference, p, target, start, rescale_power, uniform_rows,
                    graph, form, label=label)
    c90 = float(np.quantile(cs, SUCCESS, method="inverted_cdf"))
    kept = ctx.trials(kept_trial, passes, A, p, c90, rescale_power, uniform_rows,
                      None if graph is None else graph[0], label=label)
    return [float(c) for c in cs], float(np.mean(kept))


# --------------------------------------------------------------------------- the fits
def _power(ctx, p: float) -> float | None:
    """The rescaling exponent: 1/q plus the declared offset (0: the unbiased rescaling pi^(-1/q))."""
    offset = ctx["rescale_offset"]
    return None if offset == 0 else 1.0 / holder_conjugate(p) + offset


def _point(ctx, p: float, n: int, level: float, d: int, rep: int, form: bool = False,
           passes_from: float | None = None) -> tuple[list[float], float]:
    """Budgets of the passes and the columns kept at their 90% quantile, on a fresh instance.

    level: delta = eps/(1 + eps) for the cost criterion (form=False); the deviation t for form=True.
    passes_from: None gives ctx['trials'] passes; a level L gives ctx['trials'] sqrt(level / L) passes (a pass
    costs O(d) = O(1/level^2), so the cheap large levels get more passes: for a fixed cost this weights the
    fit's two ends better).
    """
    if passes_from is not None:
        passes = round(ctx["trials"] * math.sqrt(level / passes_from))
    else:
        passes = None
    if form:
        target, start = float(level), 0.5 / level**2
    else:
        target, start = float(level / (1 - level)), 0.5 / level**2        # delta = eps / (1 + eps)
    g = ctx.generator("instance", rep, n, round(float(level), 6), d)
    label = f"passes {rep} {n} {level:.6f} {d}"
    if p == 2:
        coherent = ctx.params.get("instance", "gaussian") == "coherent"
        uniform = ctx.params.get("sampler", "online") == "uniform"
        A = coherent_instance(g, n, d, 2.0)[0] if coherent else g.standard_normal((n, d))
        return _budget(ctx, label, A, inverse_sqrt_gram(A), p, target, start, _power(ctx, p), uniform, form=form,
                       passes=passes)
    if ctx.params.get("graph", "uniform") == "clustered":
        B, pairs = clustered_edge_stream(g, n, d, ctx["bridges"])
    else:
        B, pairs = random_edge_stream(g, n, d)
    ids, all_pairs = pair_ids(n, pairs)
    W = edge_weight_matrix(n, all_pairs, np.bincount(ids, minlength=len(all_pairs)).astype(float))
    uniform = ctx.params.get("sampler", "online") == "uniform"
    return _budget(ctx, label, B, W, p, target, start, _power(ctx, p), uniform, (ids, all_pairs, cut_indicators(n)),
                   form, passes)


def _fit(ctx, p: float, axis: str) -> AllOf:
    """Budgets over one axis (accuracy, rows or stream length), the others fixed.

    The stream length is stream_factor * n / level^2 for the accuracy and row axes, so the online
    sampler's logarithmic factor ln(d / (c n)) is the same at every point of the fit.  On the accuracy
    axis the level is the deviation t of the dual norm's q-th power (form criterion); on the others
    delta = eps/(1 + eps) with the cost's error.
    """
    form = axis == "accuracy" and ctx.params.get("statistic", "deviation") == "deviation"
    passes_from = None
    if axis == "accuracy" and form:
        grid = [(ctx["n"], float(t)) for t in np.geomspace(ctx["min_deviation"], ctx["max_deviation"], ctx["points"])]
        points = [(n, t, round(ctx["stream_factor"] * n / t**2)) for n, t in grid]
        size_of, size_name = (lambda n, t, d: 1.0 / t), "1/t, t the deviation of ||A'^T y||_q^q"
        passes_from = ctx["min_deviation"]
    elif axis == "accuracy":                      # the cost's own error eps, delta = eps/(1 + eps)
        grid = [(ctx["n"], float(e / (1 + e))) for e in np.geomspace(ctx["min_epsilon"], ctx["max_epsilon"],
                                                                     ctx["points"])]
        points = [(n, dl, round(ctx["stream_factor"] * n / dl**2)) for n, dl in grid]
        size_of, size_name = (lambda n, dl, d: (1 - dl) / dl), "1/eps, eps the cost's relative error"
        passes_from = grid[0][1]
    elif axis == "rows":
        dl = ctx["epsilon"] / (1 + ctx["epsilon"])
        points = [(int(n), dl, round(ctx["stream_factor"] * n / dl**2)) for n in ctx["rows"]]
        size_of, size_name = (lambda n, dl, d: float(n)), "rows n"
    else:
        dl = ctx["epsilon"] / (1 + ctx["epsilon"])
        points = [(ctx["n"], dl, round(f * ctx["n"] / dl**2)) for f in ctx["stream_factors"]]
        size_of, size_name = (lambda n, dl, d: float(d)), "stream length d"
    sizes, budgets, kept, room, labels = [], [], [], [], []
    for rep in range(ctx["replicates"]):
        for n, dl, d in points:
            cs, m = _point(ctx, p, n, dl, d, rep, form, passes_from)
            sizes += [size_of(n, dl, d)] * len(cs)
            # on the row axis the budget is divided by the logarithm the O~ hides: matrix Chernoff's
            # ln(2 n / beta) for a two-sided bound in dimension n with failure probability beta
            budgets += [c / math.log(2 * n / (1 - SUCCESS)) for c in cs] if axis == "rows" else cs
            kept.append(m)
            room.append(ctx["sparse_fraction"] * d)
            labels.append(f"n={n}, t={dl:.3g}, d={d}" if form else f"n={n}, eps={dl / (1 - dl):.3g}, d={d}")
    what = f"{'rows' if p == 2 else 'vertices'} n"
    if axis == "length":
        allowance = factor_slope(sorted({s for s in sizes}), [math.log(s) for s in sorted({s for s in sizes})])
        rate = Rate(sizes, budgets, exponent=ctx["claimed_exponent"], relation="<=", tolerance=allowance,
                    why=f"allowance {allowance:.3f}: one factor ln d (the logarithm the O~ hides) fitted over these "
                        "stream lengths (factor_slope)", size_name=size_name,
                    cost_name=f"oversampling a pass needs ({what} = {ctx['n']}, eps = {ctx['epsilon']:g})")
    else:
        rate = Rate(sizes, budgets, exponent=ctx["claimed_exponent"], relation="=", tolerance=0.05,
                    max_halfwidth=0.2, why=ACCURACY_WHY if form else COST_WHY if axis == "accuracy" else RATE_WHY,
                    size_name=size_name,
                    cost_name=(f"oversampling a pass needs ({what} = {ctx['n']})" if axis == "accuracy" else
                               f"oversampling a pass needs / ln(2n/0.1) (eps = {ctx['epsilon']:g})"))
    sparse = Bound(kept, room, relation="<=", rtol=0.0, quantity="columns kept at the 90% budget c_0.9",
                   instances=labels,
                   why=f"a sparse instance: at most a fraction {ctx['sparse_fraction']:g} of the stream (the streams are "
                       "built long enough that O~(n/eps^2) columns are a few percent of them, so a sampler that must "
                       "keep most columns fails here whatever its exponents); counts are exact")
    # The sparse-instance fraction is our own level for "a small part of the stream", not a number of
    # the paper's (its column count enters through the fitted budget), so it has no near miss to refute.
    return AllOf([rate, sparse], labels=["oversampling needed", "sparse instance"],
                 near_misses=[None, NearMiss.none("the fraction of the stream kept is our sanity level for a sparse "
                                                  "instance, not a number the paper states")])


_COMMON = {
    "replicates": Param(1, full=2, low=1, high=20, doc="fresh instances per point"),
    "trials": Param(12, full=40, low=6, high=10**4, doc="passes per instance (coins)"),
    "rescale_offset": Param(0.0, low=-1.0, high=1.0,
                            doc="offset of the rescaling exponent from 1/q (0: the unbiased pi^(-1/q))"),
    "sparse_fraction": Param(0.25, low=0.01, high=1.0, doc="largest fraction of the stream a sparse instance keeps"),
}
_ACCURACY = {
    **_COMMON,
    "n": Param(16, low=2, high=64, doc="rows of A"),
    "stream_factor": Param(48.0, low=1.0, high=10**4, doc="stream length d in units of n/t^2"),
    "min_deviation": Param(0.025, low=0.002, high=0.5, doc="smallest deviation t of ||A'^T y||_q^q"),
    "max_deviation": Param(0.25, low=0.01, high=0.9, doc="largest deviation t"),
    "points": Param(4, full=5, low=3, high=20, doc="deviations on the grid (geometric in t)"),
    "trials": Param(8, full=24, low=4, high=10**4,
                    doc="passes at the smallest deviation; trials sqrt(t/t_min) at deviation t"),
    "claimed_exponent": Param(2.0, low=-4.0, high=4.0, doc="claimed exponent of the budget in 1/t"),
}
COST_WHY = (
    "two-sided fit over all passes; allowance 0.05, the one the first reading of the claim used before any run on "
    "this statistic (lower-order terms of an O(eps^-2) law across a decade: the stream length is proportional to the "
    "budget scale, so the online factor is the same at every point); the interval [1/(1+eps), 1/(1-eps)] of the cost "
    "ratio is asymmetric by a relative 2 eps, a finite-eps term this allowance does not cover, and the claim is kept "
    "as the paper's own quantity whatever that term does to it.  A half-width up to 0.2 is accepted as identifying "
    "the exponent")
ACCURACY_WHY = (
    "two-sided fit over all passes; allowance 0.05 for the lower-order terms, derived before the run: the stream "
    "length is proportional to the budget scale (d = F n/t^2, c ~ 1/t^2), so the online factor ln(d/(c n)), the kept "
    "fraction and the start of the pass (the first ~c n columns, kept whole) are the same fraction of the stream at "
    "every t, and the first block (16 columns) is a fraction O(t^2) of it; the q-th power of the sampled dual norm "
    "is linear in the coins, so its deviation is symmetric to first order, and its skewness (third cumulant of a "
    "sum of Bernoulli-weighted terms) moves the upper and the lower tail's quantile by about +-t/3 relative "
    "(Cornish-Fisher), which cancels to first order in the two-sided maximum and leaves a second-order shift of "
    "the budget below 8% at t = 0.25 and negligible at t = 0.025, a slope change below ln(1.08)/ln(10) = 0.035; the "
    "2% resolution of the budget search is a constant factor.  A half-width up to 0.2 is accepted as identifying "
    "the exponent (the fit must still refute the near misses 0.25 away to count as sharp)")
_ACCURACY_STATEMENT = (
    r" reaches $\|A'^\top y\|_q^q=(1\pm t)\|A^\top y\|_q^q$ for every $y$ (so a cost within "
    r"$[(1+t)^{-1/q},(1-t)^{-1/q}]\,\mathrm{OPT}$ for every $b$) with an oversampling $c=\Theta(t^{-2})$, keeping a "
    r"small part of the stream.  Cost within $(1\pm\varepsilon)$ for every $b$ follows from $t=1-(1+\varepsilon)^{-q}$ "
    r"and implies $t=(1-\varepsilon)^{-q}-1$, both $q\varepsilon(1+O(\varepsilon))$, so the budget for "
    r"$(1\pm\varepsilon)$ lies between the budgets at these two $t$ and has the same exponent: "
    r"$c=\Theta(\varepsilon^{-2})$.")
_ACCURACY_WHY_FORM = (
    "Why the deviation of the q-th power and not the cost's error is fitted: the cost ratio is the norm ratio to the "
    "power -1, so (1 +- eps) on the cost allows deviations (1 + eps)^-q - 1 and (1 - eps)^-q - 1 of the q-th power, "
    "which differ by a relative 3 eps (q = 2) and move the binding side from both tails to one across the decade "
    "(a tilt of the fit up to about 0.1 at n = 4: the former design, cost error at n = 4, fitted 2.26 [2.08, 2.44] "
    "at seed 4); the sandwich above ties the two exponents together.")
_ONE_PASS_METHOD = (
    "One pass of the online sampler (blocks growing by a quarter of the stream read; M inverted with a relative ridge "
    "1e-6); per pass, "
    "the smallest oversampling c (to 2%, with the pass's coins fixed) for which the sparse instance's cost is within "
    "(1 +- eps) of OPT for every b, computed exactly; the exponent is fitted to the budgets of all passes, and the "
    "columns kept at their 90% quantile c_0.9 (the budget reaching 90% success) are averaged over the same coins "
    "and compared with the stream length. A fresh instance per point.")
_ONE_PASS_FORM_METHOD = (
    "One pass of the online sampler (blocks growing by a quarter of the stream read; M inverted with a relative ridge "
    "1e-6; a column whose coin exceeds the bound min(1, c w(||a||^2 lambda_max(M^-1))) on its probability is dropped "
    "without its score, an exact shortcut); per pass, the smallest oversampling c (to 2%, with the pass's coins "
    "fixed) for which the deviation of ||A'^T y||_q^q from ||A^T y||_q^q is at most t for every y, computed exactly; "
    "8 passes at the smallest t (24 for flows) and trials sqrt(t/t_min) at t, since a pass costs O(1/t^2); the "
    "exponent is fitted to the budgets of all passes, and the columns kept at their 90% quantile c_0.9 are averaged "
    "over the same coins and compared with the stream length. A fresh instance per point.")


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: for p in [2, inf], a one-pass algorithm keeps O~(eps^-2 n) columns with cost within (1 +- eps); "
              "here p = 2, the exponent of eps",
       params={**_ACCURACY,
               "instance": Param("coherent", choices=("gaussian", "coherent"),
                                 doc="n planted coordinate columns (half of every ||A^T y||^2) at the end of a stream "
                                     "of diffuse Gaussian ones, or i.i.d. Gaussian columns (near-uniform weights)"),
               "sampler": Param("online", choices=("online", "uniform"),
                                doc="online leverage scores, or uniform probabilities c n/d (a control)")},
       statement=r"For $p=2$ ($q=2$) the one-pass sampler (keep column $j$ with probability $\pi_j=\min(1,c\,w_j)$, $w_j$ "
       r"its online leverage score against the kept, reweighted columns, and rescale it by $\pi_j^{-1/2}$)"
       + _ACCURACY_STATEMENT,
       method="A = [G/sqrt(d - n), I_n], d - n diffuse Gaussian columns followed by n coordinate columns that carry "
       "half of every ||A^T y||^2 (the coherent instance: the online weights are far from uniform, about n/d for the "
       "diffuse columns and near 1 for the planted ones, so the check exercises the scores and not only the "
       "central limit of an unbiased reweighting, which any sampler with the right rescaling obeys), n = 16, t from "
       "0.025 to 0.25, d = 48 n/t^2 (1.2 10^4 to 1.2 10^6 columns). " + _ONE_PASS_FORM_METHOD +
       " The deviation over every y is max(1 - lambda_min, lambda_max - 1), lambda the eigenvalues of "
       "G^(-1/2) A'A'^T G^(-1/2) (the cost ratio's range over b is [lambda_max^(-1/2), lambda_min^(-1/2)]). "
       "n = 16 rather than 4: the extreme eigenvalue of a larger matrix fluctuates less (Tracy-Widom), so one pass's "
       "budget scatters less (log-sd about 0.2 instead of 0.5), so about sixty passes identify the exponent. "
       + _ACCURACY_WHY_FORM)
def one_pass_budget_grows_as_inverse_square_accuracy(ctx):
    """The oversampling the one-pass l_2 sampler needs for a (1 +- t) sparsifier of every b grows as t^-2."""
    return _fit(ctx, 2.0, "accuracy")


one_pass_budget_grows_as_inverse_square_accuracy.control(
    "kept columns not rescaled (pi^0): the sparse Gram matrix undercounts the sampled part, so only keeping almost "
    "every column reaches the accuracy", name="l2_without_rescaling",
    params={"rescale_offset": -0.5, "points": 3, "min_deviation": 0.08, "trials": 4, "n": 8})
one_pass_budget_grows_as_inverse_square_accuracy.control(
    "uniform sampling with the same expected number of columns per unit of oversampling (pi = c n/d, no scores, "
    "rescaled by pi^(-1/2)): its oversampling still scales as t^-2 (the central limit holds for any unbiased "
    "reweighting, so the fit alone cannot tell the samplers apart), but it reaches the accuracy only once pi is "
    "near 1 for the planted columns, i.e. by keeping almost the whole stream, which the sparse-instance piece "
    "refutes (at most a quarter of the stream)", name="l2_uniform_sampling", near_miss=True,
    params={"sampler": "uniform", "points": 3, "min_deviation": 0.08, "trials": 4, "n": 8})
one_pass_budget_grows_as_inverse_square_accuracy.control(
    "rescaling by pi^(-0.48) instead of pi^(-1/2): a 4% error in the reweighting biases the quadratic form by a few "
    "percent, which the smallest deviations cannot absorb", name="l2_slightly_wrong_rescaling", near_miss=True,
    params={"rescale_offset": -0.02, "points": 3, "min_deviation": 0.05, "trials": 4, "n": 8})


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: O~(eps^-2 n) columns for p in [2, inf]; here the growth in n for p = 2",
       params={**_COMMON,
               "rows": Param((8, 16, 32, 80), full=(8, 12, 16, 24, 32, 48, 64, 96), doc="numbers of rows n"),
               "stream_factor": Param(16.0, low=1.0, high=10**4, doc="stream length d in units of n/delta^2"),
               "epsilon": Param(0.2, low=0.01, high=0.9, doc="target relative accuracy of the cost"),
               "claimed_exponent": Param(0.0, low=-2.0, high=2.0,
                                         doc="claimed exponent of the budget in n (0: O~(n) columns)"),
               "instance": Param("gaussian", choices=("gaussian", "coherent"),
                                 doc="i.i.d. Gaussian columns, or n planted coordinate columns among diffuse ones"),
               "sampler": Param("online", choices=("online", "uniform"),
                                doc="online leverage scores, or uniform probabilities c n/d")},
       statement=r"For $p=2$ and fixed $\varepsilon$, the oversampling the one-pass sampler needs for cost within "
       r"$(1\pm\varepsilon)$ for every $b$ grows with the number of rows $n$ only as the union bound's logarithm "
       r"$\ln(2n/\beta)$ ($\beta=0.1$): budget$/\ln(2n/\beta)\propto n^0$, so the columns kept, $c$ times the "
       r"online weights, are $\tilde O(\varepsilon^{-2}n)$.",
       method="A = n x d i.i.d. Gaussian, n from 8 to 80 (full: 8 to 96), eps = 0.2, d = 16 n/delta^2; each budget is "
       "divided by ln(2n/0.1), the logarithm of the two-sided matrix Chernoff bound 2n exp(-eps^2 m/(3n)) at failure "
       "probability 0.1 (the O~). " + _ONE_PASS_METHOD)
def one_pass_budget_flat_in_rows(ctx):
    """The one-pass l_2 sampler's oversampling does not grow with n, so its columns grow linearly in n."""
    return _fit(ctx, 2.0, "rows")


one_pass_budget_flat_in_rows.control(
    "uniform one-pass sampling (pi = c n/d, no scores) on the coherent instance (n planted coordinate columns "
    "among diffuse ones): it must keep almost every column to keep the planted ones",
    name="uniform_sampling_on_coherent_columns",
    params={"instance": "coherent", "sampler": "uniform", "rows": (8, 16, 24), "trials": 6})
one_pass_budget_flat_in_rows.control(
    "the claim with the budget growing as n^(1/4) ln(2n/beta) (the n^(q/2) columns of p = 5/3, q = 5/2)",
    near_miss=True,
    name="rows_exponent_of_p_below_two", params={"claimed_exponent": 0.25, "rows": (8, 16, 80), "trials": 6})


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: O~(eps^-2 n) columns for p in [2, inf]; here the growth in n for p = 2 where the scores matter",
       params={**one_pass_budget_flat_in_rows.params,
               "instance": Param("coherent", choices=("gaussian", "coherent"),
                                 doc="n planted coordinate columns (half of every ||A^T y||^2) at the end of a stream "
                                     "of diffuse Gaussian ones")},
       statement=r"On the coherent instance, for $p=2$ and fixed $\varepsilon$, the oversampling the one-pass sampler "
       r"needs for cost within $(1\pm\varepsilon)$ for every $b$ grows with the number of rows $n$ only as "
       r"$\ln(2n/\beta)$ ($\beta=0.1$): budget$/\ln(2n/\beta)\propto n^0$, so the columns kept are "
       r"$\tilde O(\varepsilon^{-2}n)$.",
       method="A = [G/sqrt(d - n), I_n]: diffuse Gaussian columns, then n coordinate columns carrying half of every "
       "||A^T y||^2 (online scores near 1 for these, about n/d for the rest; uniform sampling must keep the whole "
       "stream), n from 8 to 80 (full: 8 to 96), eps = 0.2, d = 16 n/delta^2, each budget divided by ln(2n/0.1) as "
       "in the Gaussian claim above. " + _ONE_PASS_METHOD + " The verdict depends on the seed: the fitted "
       "exponent was -0.064, -0.142, -0.124, -0.097 and -0.096 at seeds 0-4 (the quick profile), so the two-sided "
       "reading is verified (sharp) at seeds 0, 3 and 4 and refuted at seeds 1 and 2, always on the low side: on "
       "this instance the budget grows more slowly than ln(2n/beta) (the planted columns are kept whole, so only the "
       "diffuse half fluctuates), i.e. fewer columns than the reading, not more.")
def one_pass_budget_flat_in_rows_on_coherent_columns(ctx):
    """The same row fit on the coherent instance, where the online scores are far from uniform."""
    return _fit(ctx, 2.0, "rows")


one_pass_budget_flat_in_rows_on_coherent_columns.control(
    "uniform one-pass sampling with the same expected number of columns per unit of oversampling (pi = c n/d, no "
    "scores) on the same instance: it must keep almost every column to keep the planted ones, which the "
    "sparse-instance piece refutes", near_miss=True,
    name="rows_uniform_sampling_same_count",
    params={"sampler": "uniform", "rows": (8, 16, 24), "trials": 6})


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: the goal is space much less than the stream length d; O~(eps^-2 n) columns for p = 2",
       params={**_COMMON,
               "n": Param(8, low=2, high=64, doc="rows of A"),
               "epsilon": Param(0.25, low=0.01, high=0.9, doc="target relative accuracy of the cost"),
               "stream_factors": Param((16.0, 24.0, 40.0, 64.0, 100.0, 160.0, 256.0),
                                       full=(16.0, 24.0, 40.0, 64.0, 100.0, 160.0, 256.0, 400.0, 640.0),
                                       doc="stream lengths d in units of n/delta^2"),
               "trials": Param(16, full=40, low=8, high=10**4, doc="passes per instance (coins)"),
               "claimed_exponent": Param(0.0, low=-2.0, high=2.0, doc="claimed exponent of the budget in d")},
       statement=r"For $p=2$ at fixed $n$ and $\varepsilon$, the oversampling the one-pass sampler needs for cost "
       r"within $(1\pm\varepsilon)$ for every $b$ does not grow with the stream length $d$ beyond the logarithm the "
       r"$\tilde O$ hides, and the instance stays sparse: its columns do not grow with $d$ but logarithmically.",
       method="A = 8 x d i.i.d. Gaussian, eps = 0.25, d from 16 to 256 n/delta^2 (3.2 10^3 to 5.1 10^4). "
       + _ONE_PASS_METHOD)
def one_pass_budget_independent_of_stream_length(ctx):
    """The one-pass l_2 sampler's oversampling does not grow with the stream length."""
    return _fit(ctx, 2.0, "length")


one_pass_budget_independent_of_stream_length.control(
    "kept columns not rescaled (pi^0): only keeping almost the whole stream reaches the accuracy",
    name="length_without_rescaling", params={"rescale_offset": -0.5, "stream_factors": (16.0, 64.0, 256.0),
                                             "trials": 8})
one_pass_budget_independent_of_stream_length.control(
    "rescaling by pi^(-0.48) instead of pi^(-1/2): the bias grows as the late columns' probabilities fall with d",
    name="length_slightly_wrong_rescaling", near_miss=True,
    params={"rescale_offset": -0.02, "stream_factors": (16.0, 64.0, 256.0), "trials": 8})


# --------------------------------------------------------------------------- p = inf: flows on graphs
_FLOW = {**_ACCURACY, "n": Param(10, low=4, high=16, doc="vertices (all 2^(n-1) - 1 cuts are enumerated)"),
         "stream_factor": Param(16.0, low=1.0, high=10**4, doc="stream length d in units of n/t^2"),
         "trials": Param(24, full=60, low=4, high=10**4,
                         doc="passes at the smallest deviation; trials sqrt(t/t_min) at deviation t"),
         "sparse_fraction": Param(0.4, low=0.01, high=1.0,
                                  doc="largest fraction of the stream a sparse instance keeps"),
         "graph": Param("clustered", choices=("clustered", "uniform"),
                        doc="two dense clusters of n/2 vertices joined by `bridges` edges, or edges uniform over "
                            "all pairs (near-uniform weights)"),
         "bridges": Param(2, low=1, high=8, doc="edges between the two clusters (whatever the stream length)"),
         "sampler": Param("online", choices=("online", "uniform"),
                          doc="online l_1 Lewis weights, or uniform probabilities c n/d (a control)")}
_CLUSTERED_METHOD = (
    "The stream: two clusters of 5 vertices, d - 2 edges drawn uniformly among the 20 pairs inside a cluster and 2 "
    "bridge edges (0-5 and 1-6) at random positions, so the cut between the clusters carries 2 edges whatever d: the "
    "online l_1 weights of the bridges are near 1 (kept with probability 1 from c >= 2) while the cluster edges' are "
    "about n/d, so the check exercises the weights and not only the central limit of an unbiased reweighting, "
    "which any sampler with the right rescaling obeys (on edges uniform over all pairs every weight is about n/d "
    "and uniform sampling passes). ")


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: p = inf (max flow) among p in [2, inf]; an O~(eps^-2 n) semi-streaming l_p flow sparsifier "
              "on edge-insertion graph streams; here the exponent of eps",
       params=_FLOW,
       statement=r"For $p=\infty$ ($q=1$) on an edge stream (A the incidence matrix: the minimum-congestion flow of "
       r"every demand $b$), the one-pass sampler with online $\ell_1$ Lewis weights ($\pi_j=\min(1,c\,w_j)$, "
       r"rescaling $\pi_j^{-1}$)" + _ACCURACY_STATEMENT + r"  Here $\|B^\top y\|_1$ integrates cut weights, so the "
       r"deviation is that of every cut's weight: a $(1\pm t)$ cut sparsifier.",
       method=_CLUSTERED_METHOD + "Streams of d = 16 n/t^2 edges on n = 10 vertices (2.6 10^3 to 2.6 10^5 edges); t from "
       "0.025 to 0.25 (budgets c from about 6 to 600); the l_1 weights keep more edges than the l_2 scores, so "
       "'sparse' means at most 40% of the stream here. " + _ONE_PASS_FORM_METHOD + " The deviation over every y is exact: "
       "max |w'(S)/w(S) - 1| over the 511 cuts S, since ||B^T y||_1 integrates the cut weights of the level sets of y. "
       "n = 10 rather than 6: the largest of more cut deviations scatters less, so one pass's budget does too; the "
       "edges' scores are computed once per vertex pair (45 pairs), which makes nearly two hundred passes cheap. "
       + "Why the deviation of the cut weights and not the cost's error is fitted: (1 +- eps) on the cost allows cut "
       "deviations eps/(1+eps) below and eps/(1-eps) above, a relative 2 eps apart, which moves the binding side from "
       "both tails to one across the decade and tilts the fit (the former design, cost error on 6 vertices with 16 "
       "passes per accuracy, fitted about 2.13 and could not exclude 2.25).")
def one_pass_flow_budget_grows_as_inverse_square_accuracy(ctx):
    """The one-pass l_1-Lewis edge sampler needs t^-2 oversampling for a (1 +- t) cut sparsifier (every demand)."""
    return _fit(ctx, math.inf, "accuracy")


one_pass_flow_budget_grows_as_inverse_square_accuracy.control(
    "kept edges rescaled by pi^(-1/2) (the l_2 rescaling) instead of pi^(-1): the cuts of the sparse graph are "
    "undercounted", name="flow_with_l2_rescaling",
    params={"rescale_offset": -0.5, "points": 3, "min_deviation": 0.08, "trials": 6})
one_pass_flow_budget_grows_as_inverse_square_accuracy.control(
    "uniform edge sampling with the same expected number of edges per unit of oversampling (pi = c n/d, no weights, "
    "rescaled by pi^(-1)): it keeps a bridge only with probability c n/d, so the cut between the clusters is lost "
    "or inflated unless pi is near 1, i.e. unless almost the whole stream is kept, which the sparse-instance piece "
    "refutes (at most 40% of the stream); its oversampling still scales as d/n ~ t^-2, so the fit alone cannot "
    "tell the samplers apart", name="flow_uniform_sampling", near_miss=True,
    params={"sampler": "uniform", "points": 3, "min_deviation": 0.08, "trials": 6})
one_pass_flow_budget_grows_as_inverse_square_accuracy.control(
    "rescaling by pi^(-0.96) instead of pi^(-1): a 4% error in the reweighting", near_miss=True,
    name="flow_slightly_wrong_rescaling",
    params={"rescale_offset": -0.04, "points": 3, "min_deviation": 0.05, "trials": 6})


_FLOW_COST = {**_FLOW,
              "statistic": Param("cost", choices=("cost", "deviation"),
                                 doc="the cost's relative error over every demand (the paper's quantity)"),
              "min_epsilon": Param(0.025, low=0.002, high=0.5, doc="smallest relative error eps of the cost"),
              "max_epsilon": Param(0.25, low=0.01, high=0.9, doc="largest eps"),
              "trials": Param(24, full=60, low=4, high=10**4,
                              doc="passes at the smallest eps; trials sqrt(delta/delta_min) at delta = eps/(1+eps)")}
_FLOW_COST_STATEMENT = (
    r"For $p=\infty$ on an edge stream, the one-pass sampler with online $\ell_1$ Lewis weights "
    r"($\pi_j=\min(1,c\,w_j)$, rescaling $\pi_j^{-1}$) reaches a cost within $(1\pm\varepsilon)$ of "
    r"$\mathrm{OPT}_\infty$ for every demand $b$ with an oversampling $c=\Theta(\varepsilon^{-2})$, fitted over "
    r"$\varepsilon\in[0.025,0.25]$, keeping a small part of the stream.")


@claim(PAPER, role="headline", evidence="all", reconstructed_from=_READ,
       source="Abstract: p = inf (max flow); cost within (1 +- eps) with O~(eps^-2 n) kept edges; here the exponent of "
              "eps on the paper's own quantity (the cost of every demand), the first reading of the flow claim",
       params=_FLOW_COST, statement=_FLOW_COST_STATEMENT,
       method=_CLUSTERED_METHOD + "Streams of d = 16 n/delta^2 edges on n = 10 vertices, delta = eps/(1+eps), eps from "
       "0.025 to 0.25; per pass the smallest oversampling (to 2%) for which the cost ratio OPT'/OPT lies in "
       "[1 - eps, 1 + eps] for every demand b, computed exactly from the range [1/max_S w'(S)/w(S), 1/min_S w'(S)/w(S)] "
       "over the 511 cuts; 24 passes at the smallest eps and 24 sqrt(delta/delta_min) at delta; the budgets are "
       "fitted against 1/eps.  This is the flow claim's first reading, on the paper's own quantity; the claim beside "
       "it fits the deviation of the cut weights, which brackets the cost between the budgets at t = eps/(1+eps) and "
       "eps/(1-eps).  The size must be 1/eps and not 1/delta = 1 + 1/eps: over this decade a budget exactly "
       "proportional to eps^-2 has slope 2.18 against 1/delta, so a fit against 1/delta would refute the exponent 2 "
       "that holds.  In this design no logarithm of the O~ changes along the fit (d = 16 n/delta^2 keeps the online "
       "factor ln(d/(c n)) fixed, and n and the failure probability are fixed), so the fit has no allowance for one.  "
       "On edges uniform over all 45 pairs (the instance of the first reading; every weight about n/d) the same fit "
       "against 1/eps gave 1.95 to 2.01 at seeds 0-4, sharp at each; it is not a claim here because uniform sampling "
       "passes it too.")
def one_pass_flow_cost_budget_grows_as_inverse_square_accuracy(ctx):
    """The one-pass l_1-Lewis edge sampler's oversampling for cost within (1 +- eps) of every demand grows as eps^-2."""
    return _fit(ctx, math.inf, "accuracy")


one_pass_flow_cost_budget_grows_as_inverse_square_accuracy.control(
    "kept edges rescaled by pi^(-1/2) (the l_2 rescaling) instead of pi^(-1): the cuts of the sparse graph, hence the "
    "flow costs, are off by a factor no small oversampling removes", name="flow_cost_with_l2_rescaling",
    params={"rescale_offset": -0.5, "points": 3, "min_epsilon": 0.08, "trials": 6})
one_pass_flow_cost_budget_grows_as_inverse_square_accuracy.control(
    "uniform edge sampling with the same expected number of edges per unit of oversampling (pi = c n/d): the cut "
    "between the clusters, and the cost of a demand across it, is kept within 1 +- eps only when pi is near 1 for "
    "both bridges, i.e. with almost the whole stream, which the sparse-instance piece refutes",
    name="flow_cost_uniform_sampling", near_miss=True,
    params={"sampler": "uniform", "points": 3, "min_epsilon": 0.08, "trials": 6})


# --------------------------------------------------------------------------- p in (1, 2), one size
BUDGET_SLACK = 0.25   # the column budget is (1 + slack) C eps^-2 ln(n) n^(q/2), fixed in advance
OVERSAMPLING_CONSTANT = 3.0


def p_between_trial(rng: np.random.Generator, A, b, p: float, probabilities, optimum: float, epsilon: float,
                    max_columns: float, rescale_power: float | None) -> bool:
    """One sparsification for 1 < p < 2: (1 +- eps) cost (Hölder dual) on at most max_columns columns?"""
    As, kept = sample_columns(rng, A, probabilities, holder_conjugate(p), rescale_power)
    cost = lp_regression_cost_dual(As, b, p) if kept.size else math.inf
    return bool(abs(cost / optimum - 1) <= epsilon and kept.size <= max_columns)


def _p_between(ctx, uniform: bool = False, rescale_power: float | None = None) -> Proportion:
    n, d, eps, p = ctx["n"], ctx["d"], ctx["epsilon"], ctx["p"]
    q = holder_conjugate(p)
    A, b = isolated_rows_instance(ctx.generator("p in (1,2) instance"), n, d, ctx["isolated_rows"], 4)
    optimum = lp_regression_cost_dual(A, b, p)
    oversampling = OVERSAMPLING_CONSTANT * math.log(n) / eps**2 * n ** (q / 2 - 1)
    pi = sampling_probabilities(lewis_weights(A, q), oversampling)
    if uniform:
        pi = np.full(d, pi.sum() / d)                # same expected number of columns
    # E[kept] = sum pi <= C eps^-2 ln(n) n^(q/2) (the Lewis weights sum to n); the slack covers the
    # fluctuation: Chernoff P(kept > (1 + s) mean) <= exp(-s^2 mean / (2 + s)) < 1e-3 for mean >= 250
    expected_max = OVERSAMPLING_CONSTANT * math.log(n) / eps**2 * n ** (q / 2)
    max_columns = (1 + BUDGET_SLACK) * expected_max
    ok = ctx.trials(p_between_trial, ctx["trials"], A, b, p, pi, optimum, eps, max_columns, rescale_power,
                    label="samples")
    return Proportion(int(np.sum(ok)), len(ok), SUCCESS, relation=">=", level=0.95,
                      why="Wilson 95% interval on the success frequency; 0.9 is the 'with high probability' tested; "
                          f"C = 3 and the budget slack {BUDGET_SLACK:g} over the largest expected sample size fixed in "
                          f"advance; expected kept columns {pi.sum():.0f} of {d}",
                      event=f"(1 +- {eps}) cost on <= (1 + {BUDGET_SLACK:g}) C eps^-2 ln(n) n^(q/2) = "
                            f"{max_columns:.0f} of {d} columns")


@claim(PAPER, role="supporting", evidence="proportion",
       source="Abstract: 'This extends to p in (1, 2) with O~(eps^2 n^{q/2}) columns' (eps^2 read as eps^-2); "
              "offline one-shot Lewis sampling, one size",
       reconstructed_from="the abstract; the sampler (one-shot l_q Lewis weight sampling, offline) and C = 3 are ours",
       near_miss=NearMiss.none("the paper states no constant and no failure probability (C = 3, 0.9 and the 25% "
                               "budget slack are ours), and the n^(q/2) growth is listed as not checked"),
       params={"n": Param(10, full=10, low=2, high=200, doc="rows of A (constraints; more than isolated_rows)"),
               "d": Param(40_000, full=80_000, low=100, high=10**6, doc="columns of A (stream length)"),
               "p": Param(1.5, low=1.34, high=1.95,
                          doc="the norm p in (4/3, 2) (q = p/(p-1) in (2, 4), where the Lewis fixed point contracts)"),
               "epsilon": Param(0.2, low=0.01, high=0.9, doc="target relative accuracy of the cost"),
               "isolated_rows": Param(3, low=1, high=100, doc="rows carried by only 4 columns each"),
               "trials": Param(40, full=200, low=10, high=10**5, doc="independent samplings")},
       statement=r"For $p\in(1,2)$ ($q=p/(p-1)>2$), keeping column $j$ with probability $\min(1, C\varepsilon^{-2}\ln(n)\,"
       r"n^{q/2-1}w_j)$, $w$ the $\ell_q$ Lewis weights (which sum to $n$), and rescaling it by $\pi_j^{-1/q}$ gives with "
       r"high probability an instance on $O(\varepsilon^{-2}n^{q/2}\log n)$ columns with cost within "
       r"$(1\pm\varepsilon)\,\mathrm{OPT}_p$ for a given $b$.",
       method="p = 1.5 (q = 3), n = 10, d = 40000 (about 10% of the columns kept at eps = 0.2), the last 3 rows each "
       "carried by 4 columns only; OPT_p of the full and of the sparse instance through the Hölder dual (n-dimensional "
       "BFGS, checked against cvxpy in the unit tests); C = 3; budget 1.25 C eps^-2 ln(n) n^(q/2) columns.")
def lewis_sampling_preserves_lp_cost_p_below_2(ctx):
    """l_q-Lewis-weight sampling with n^{q/2} columns preserves the l_p cost for p in (1, 2) at one size."""
    return _p_between(ctx)


@lewis_sampling_preserves_lp_cost_p_below_2.control("uniform instead of Lewis-weight sampling (same expected count): "
                                                    "the isolated rows' columns are missed")
def uniform_sampling_p_below_2(ctx):
    return _p_between(ctx, uniform=True)


@lewis_sampling_preserves_lp_cost_p_below_2.control("kept columns rescaled by pi^(-1/2) (the q = 2 rescaling) instead "
                                                    "of pi^(-1/q): ||A'^T y||_q is biased upwards and the cost down",
                                                    near_miss=True)
def wrong_rescaling_p_below_2(ctx):
    return _p_between(ctx, rescale_power=0.5)
