r"""Marchetti, Shahverdi, Mereta, Trager & Kohn, "Position: Algebra Unveils Deep Learning -- An
Invitation to Neuroalgebraic Geometry" (ICML 2025, position track).

A position paper: it proposes a dictionary between invariants of neurovarieties (the Zariski
closures of the function spaces of polynomial networks) and learning (dimension <-> expressivity
and sample complexity; singularities <-> training dynamics).  It proves no theorem of its own;
the checkable content is the dimension theory it reviews: Kileel, Trager & Bruna (NeurIPS 2019),
Alexander & Hirschowitz (1995) and Finkel, Rodriguez, Wu & Yahl (arXiv 2408.04569; Algebraic
Statistics 16 (2025)), who prove Kileel-Trager-Bruna's high activation degree conjecture with the
universal threshold $6m^2-6m+1$ and show that equi-width architectures have the expected dimension
for every activation degree.  Only the abstract and the opening of the introduction could be
read, so the statements are our reading of the reviewed theorems (``reconstructed_from``).

Dimensions are computed as Jacobian ranks of the parameter-to-coefficient map through sample
Jacobians (``simulations.algebra.neurovariety``): exactly over GF(p), a certified lower bound on
the dimension, against an upper bound from theory (the expected count, Alexander-Hirschowitz,
the bottleneck formula, or the composition bound of the first layer with its tail network); where
the two meet, the dimension is proved.  Architectures are enumerated from boxes of widths and
depths, never picked one by one.
"""

from __future__ import annotations

import math

from simulations.algebra.neurovariety import (
    DEFAULT_PRIME,
    activation_threshold_bound,
    alexander_hirschowitz_dimension,
    ambient_dimension,
    architectures,
    bottleneck_dimension,
    certified_rank,
    composition_upper_bound,
    expected_neurovariety_dimension,
    is_alexander_hirschowitz_defective,
    known_dimension,
    neurovariety_dimension,
    parameter_count,
    random_inputs,
    random_weights,
    rank_mod_p,
    sample_jacobian,
    switch_off_neuron,
)
from workbench import Identity, NotChecked, Paper, Param, claim

PAPER = Paper(
    slug="neuroalgebraic_geometry",
    title="Position: Algebra Unveils Deep Learning - An Invitation to Neuroalgebraic Geometry",
    authors=("Giovanni Luca Marchetti", "Vahid Shahverdi", "Stefano Mereta", "Matthew Trager",
             "Kathlén Kohn"),
    venue="ICML 2025",
    year=2025,
    arxiv="2501.18915",
    identifier="OpenReview mzc1KPkIMJ (ICML 2025 position track)",
    url="https://openreview.net/forum?id=mzc1KPkIMJ",
    not_checked=(
        NotChecked("the dimension, degree and singularities of a neurovariety speak to the sample "
                   "complexity, expressivity, training dynamics and implicit bias of the network (the "
                   "dictionary the position paper proposes)",
                   "a research programme, not a theorem: the paper states no quantitative relation "
                   "between these invariants and learning that a computation could test; the "
                   "dimension theory it builds on is checked",
                   role="headline"),
        NotChecked("the neurovariety is singular at the functions computed by subnetworks (Shahverdi, "
                   "Marchetti and Kohn, 2025, reviewed in the section on singularities)",
                   "singularity of the variety needs its equations (or its tangent cones), which no "
                   "computation here produces for these sizes; only the rank drop of the "
                   "parametrisation at subnetwork points is computed (a background claim)",
                   role="supporting"),
        NotChecked(r"the universal activation degree threshold $6m^2-6m+1$ is what the proof gives; "
                   "smaller thresholds hold for structured architectures (Finkel et al.)",
                   "the threshold is a sufficient condition: no computation can show that its "
                   "constant is needed (while preparing this check, the largest defective degree "
                   "found among the architectures of width <= 3 and depth <= 3 was r = 4, far "
                   "below 13 and 37, so a constant of 3 instead of 6 passes the same check); the "
                   "conclusion above the threshold is checked",
                   role="supporting"),
    ),
)


def _label(widths, degree):
    return f"({','.join(map(str, widths))}) r={degree}"


POINTS = Param(2, full=3, low=1, high=8,
               doc="random parameter points per architecture; the largest GF(p) rank is kept")


def _rank_item(item):
    widths, degree, points, rng = item
    return certified_rank(widths, degree, rng, points=points)


def _certified_ranks(ctx, archs, label):
    """GF(p) ranks (certified lower bounds on the dimension) of ``(widths, degree)`` pairs."""
    items = [(w, r, ctx["points"], ctx.generator(label, _label(w, r))) for w, r in archs]
    return ctx.map(_rank_item, items)


def _proved_dimension(widths, degree, rng):
    """The dimension from a theorem (:func:`known_dimension`), else from the sandwich certified
    GF(p) rank = expected count; raises when neither proves it."""
    try:
        return known_dimension(widths, degree)
    except ValueError:
        expected = expected_neurovariety_dimension(widths, degree)
        if certified_rank(widths, degree, rng) == expected:
            return expected
    raise RuntimeError(f"no proof of the dimension of {_label(widths, degree)}")


def _identity(archs, ranks, reference, quantity, why, labels=None):
    return Identity([int(v) for v in ranks], [int(v) for v in reference], atol=0.0, why=why,
                    quantity=quantity, labels=labels or [_label(w, r) for w, r in archs])


RANK_WHY = ("integer ranks over GF(1000003): a rank is a certified lower bound on the dimension and "
            "the reference an upper bound proved by theory, so equality proves the dimension; no "
            "tolerance")


def _box(ctx):
    return architectures(range(1, ctx["max_width"] + 1), range(2, ctx["max_depth"] + 1))


# --------------------------------------------------------------------------- claim 1 (first reading)
def _off_defective_families(ctx):
    """Every architecture of the box with r in {2, 3} except the Alexander-Hirschowitz cells
    (bottlenecks are already out of the box)."""
    out = []
    for w in _box(ctx):
        for r in (2, 3):
            shallow_single = len(w) == 3 and w[-1] == 1
            if shallow_single and is_alexander_hirschowitz_defective(w[0], r, w[1]):
                continue
            out.append((w, r))
    return out


BOX = {
    "points": POINTS,
    "max_width": Param(3, full=4, low=2, high=5, doc="widths 1..max_width (inputs >= 2, hidden >= 2)"),
    "max_depth": Param(3, full=4, low=2, high=5, doc="depths h = 2..max_depth weight matrices"),
}


@claim(PAPER, role="headline", source="Sec. on dimension (dictionary: dimension and expressivity), reviewing "
                                      "Kileel, Trager & Bruna (NeurIPS 2019) and Finkel et al. (2024)",
       evidence="identity",
       reconstructed_from="our first reading of the abstract and of the reviewed literature: the "
                          "expected dimension off the two classical defective families",
       expect="REFUTED",
       expect_reason="the reading is false: deep networks below the activation degree threshold are "
                     "defective without a width-one bottleneck or an Alexander-Hirschowitz cell, e.g. "
                     "(3,3,3,1) with r = 2 (dimension 12, expected 15, proved by the deep-family "
                     "claim); the statements Finkel et al. prove are checked beside it",
       statement=r"For a polynomial network with widths $(d_0,\dots,d_h)$ and activation $z^r$ "
                 r"off the defective families (no width-one bottleneck, not an "
                 r"Alexander--Hirschowitz cell), the neurovariety has the expected dimension "
                 r"$\min\big(d_h + \sum_{i=1}^{h}(d_{i-1}-1)d_i,\; d_h\binom{d_0+D-1}{D}\big)$, "
                 r"$D=r^{h-1}$: the parameter count minus one rescaling symmetry per hidden neuron, "
                 r"capped by the ambient dimension.",
       method="Every architecture of a box (widths $1..$max_width, inputs $\\ge 2$, no hidden width "
              "1, depths $2..$max_depth) with $r\\in\\{2,3\\}$, less the Alexander--Hirschowitz cells: "
              "the GF(1000003) rank of the sample Jacobian at two random points against the expected "
              "count.  A rank below the count at both points is a defect unless both points are "
              "roots of a nonzero minor (probability below $10^{-6}$ by Schwartz--Zippel); the "
              "deep-family claim proves the first counterexamples exactly.",
       params=BOX)
def expected_dimension_off_defective_families(ctx):
    """Our first reading of the dimension section: off the Alexander-Hirschowitz cells and the
    width-one bottlenecks, every architecture attains the expected dimension.  Decided on a whole
    box of small architectures, it is refuted by the deep networks with low activation degree
    that the literature's threshold theorems leave out."""
    archs = _off_defective_families(ctx)
    ranks = _certified_ranks(ctx, archs, "box")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank of the sample Jacobian against the expected dimension", RANK_WHY)


@expected_dimension_off_defective_families.control(
    "the naive count without the rescaling symmetries, min(sum d_{i-1} d_i, ambient)")
def naive_parameter_count(ctx):
    archs = _off_defective_families(ctx)
    ranks = _certified_ranks(ctx, archs, "box")
    return _identity(archs, ranks, [min(parameter_count(w), ambient_dimension(w, r)) for w, r in archs],
                     "GF(p) rank against the raw parameter count capped by the ambient dimension",
                     "integer ranks against an integer formula: no tolerance")


# --------------------------------------------------------------------------- equi-width (Finkel et al.)
def _equi_width(ctx, last=None):
    """(d, ..., d) for d = 2..max_width and depth 2..max_depth, r = 2..4; with ``last``, the output
    width replaced by ``last`` (no longer equi-width)."""
    out = []
    for h in range(2, ctx["max_depth"] + 1):
        for d in range(2, ctx["max_width"] + 1):
            w = (d,) * h + ((d,) if last is None else (last,))
            out += [(w, r) for r in (2, 3, 4)]
    return out


EQUI = {
    "points": POINTS,
    "max_width": Param(4, full=5, low=2, high=6, doc="equi-width d = 2..max_width"),
    "max_depth": Param(4, full=5, low=2, high=6, doc="depths h = 2..max_depth"),
}


@claim(PAPER, role="background", source="Sec. on dimension, reviewing Finkel, Rodriguez, Wu & Yahl (arXiv "
                                      "2408.04569): equi-width architectures have activation degree "
                                      "threshold one",
       evidence="identity",
       reconstructed_from="the abstract of Finkel et al. ('polynomial neural networks with equi-width "
                          "architectures are maximally expressive by showing their activation degree "
                          "threshold is one'); equi-width read as d_0 = d_1 = ... = d_h",
       statement=r"For an equi-width architecture $(d,d,\dots,d)$ and every activation degree $r\ge 2$ "
                 r"the neurovariety has the expected dimension "
                 r"$\min\big(d + h\,d(d-1),\; d\binom{d+D-1}{D}\big)$, $D=r^{h-1}$.",
       method="Every equi-width architecture with $d=2..$max_width and $h=2..$max_depth, "
              "$r=2,3,4$: the GF(1000003) rank (a certified lower bound) equals the expected count "
              "(an upper bound), which proves the dimension.",
       params=EQUI)
def equi_width_expected_dimension(ctx):
    """Finkel et al.'s equi-width theorem on a whole box of equi-width architectures: the exact
    rank meets the expected count in every case (no defect at any activation degree)."""
    archs = _equi_width(ctx)
    ranks = _certified_ranks(ctx, archs, "equi-width")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank against the expected dimension", RANK_WHY)


@equi_width_expected_dimension.control(
    "the output width changed to 1: (d, ..., d, 1) is no longer equi-width (the same widths otherwise)",
    near_miss=True)
def single_output(ctx):
    archs = _equi_width(ctx, last=1)
    ranks = _certified_ranks(ctx, archs, "single output")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank of (d, ..., d, 1) against the expected dimension", RANK_WHY)


@equi_width_expected_dimension.control("the naive count without the rescaling symmetries")
def equi_width_naive_count(ctx):
    archs = _equi_width(ctx)
    ranks = _certified_ranks(ctx, archs, "equi-width")
    return _identity(archs, ranks, [min(parameter_count(w), ambient_dimension(w, r)) for w, r in archs],
                     "GF(p) rank against the raw parameter count capped by the ambient dimension",
                     "integer ranks against an integer formula: no tolerance")


# --------------------------------------------------------------------------- high degree (Finkel et al.)
def _threshold_archs(ctx, degree=None):
    """Every bottleneck-free architecture of largest width m = 2..max_width (depth 2..max_depth),
    at r = 6m^2 - 6m + 2 (the first degree above the bound), or at ``degree``."""
    out = []
    for w in architectures(range(1, ctx["max_width"] + 1), range(2, ctx["max_depth"] + 1)):
        r = activation_threshold_bound(w) + 1 if degree is None else degree
        out.append((w, r))
    return out


THRESHOLD = {
    "points": POINTS,
    "max_width": Param(3, full=3, low=2, high=3, doc="largest width m = 2..max_width"),
    "max_depth": Param(3, full=4, low=2, high=5, doc="depths h = 2..max_depth"),
}


@claim(PAPER, role="background", source="Sec. on dimension, reviewing Finkel, Rodriguez, Wu & Yahl (arXiv "
                                      "2408.04569): the activation degree threshold exists and is at "
                                      "most 6m^2 - 6m + 1 (the high activation degree conjecture of "
                                      "Kileel, Trager & Bruna)",
       evidence="identity",
       reconstructed_from="the abstract of Finkel et al. and the summary at "
                          "https://www.sciencestack.ai/paper/2408.04569 (the bound "
                          "ActThr(d) <= 6m^2 - 6m + 1, m the largest width)",
       statement=r"For every architecture without a hidden layer of width one, with largest width "
                 r"$m$, and every activation degree $r > 6m^2-6m+1$, the neurovariety has the "
                 r"expected dimension $d_h + \sum_{i=1}^{h}(d_{i-1}-1)d_i$ (capped by the ambient "
                 r"dimension).",
       method="Every bottleneck-free architecture with widths in $1..m$, $m\\le$ max_width, and depth "
              "$2..$max_depth, at $r = 6m^2-6m+2$ (14 for $m=2$, 38 for $m=3$; output degree up to "
              "$38^{3}$): the GF(1000003) rank from as many samples as the dimension needs equals the "
              "expected count.  The constant of the threshold is not probed (see not checked).",
       params=THRESHOLD)
def expected_dimension_above_threshold(ctx):
    """Above Finkel et al.'s universal threshold every bottleneck-free architecture of the box has
    the expected dimension, including the deep networks that are defective at r = 2 (e.g.
    (2,2,2,2,1) and (3,3,3,1))."""
    archs = _threshold_archs(ctx)
    ranks = _certified_ranks(ctx, archs, "threshold")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank above the activation degree threshold against the expected dimension",
                     RANK_WHY)


@expected_dimension_above_threshold.control(
    "the same architectures at r = 2, below the threshold: the deep defects come back")
def below_threshold(ctx):
    archs = _threshold_archs(ctx, degree=2)
    ranks = _certified_ranks(ctx, archs, "below threshold")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank at r = 2 against the expected dimension", RANK_WHY)


@expected_dimension_above_threshold.control("the naive count without the rescaling symmetries")
def threshold_naive_count(ctx):
    archs = _threshold_archs(ctx)
    ranks = _certified_ranks(ctx, archs, "threshold")
    return _identity(archs, ranks, [min(parameter_count(w), ambient_dimension(w, r)) for w, r in archs],
                     "GF(p) rank against the raw parameter count", "integer ranks against an integer "
                     "formula: no tolerance")


# --------------------------------------------------------------------------- deep defective family
def _deep_family(ctx):
    return [((n, n, m, 1), 2) for n in range(2, ctx["max_inputs"] + 1) for m in range(2, n + 2)]


def _family_bound(widths, degree):
    n, _, m, _ = widths
    return composition_upper_bound(widths, degree, alexander_hirschowitz_dimension(n, 2, m))


@claim(PAPER, role="background",
       source="Our derivation: the first layer composed with its tail network (Kileel, Trager & Bruna's "
              "expected count follows the same recursion), for the defects below the threshold",
       evidence="identity",
       statement=r"For $(n,n,m,1)$ with $r=2$, $n\ge 2$, $2\le m\le n+1$: $\dim V = \min\big(E,\ "
                 r"\mathrm{AH}(n,2,m) + n(n-1)\big)$ with $E$ the expected count (capped by the "
                 r"ambient dimension) and $\mathrm{AH}(n,2,m)$ the dimension of the quadrics of rank "
                 r"$\le m$ ($nm-\binom m2$ for $m\le n$, $\binom{n+1}2$ for $m\ge n$); so "
                 r"$(n,n,m,1)$ is defective exactly when $\mathrm{AH}(n,2,m)+n(n-1)<E$, e.g. "
                 r"$\dim V(3,3,3,1)=12<15$.",
       method="Upper bound: the network is the tail network $(n,m,1)$ (quadrics of rank $\\le m$, "
              "Alexander--Hirschowitz) evaluated at $(W_1x)^{2}$, and rescaling the rows of $W_1$ "
              "against the tail's first columns is an $n$-dimensional symmetry, so "
              "$\\dim V\\le \\dim V(n,m,1)+n(n-1)$.  Lower bound: the GF(1000003) rank.  Every "
              "$n=2..$max_inputs, $m=2..n+1$.",
       params={"points": POINTS,
               "max_inputs": Param(4, full=5, low=2, high=6, doc="input widths n = 2..max_inputs")})
def deep_quadratic_defects(ctx):
    """Exact dimensions of the deep quadratic family (n, n, m, 1) below the threshold: the certified
    rank meets the composition bound, which lies below the expected count whenever the tail
    network fills its space of quadrics with parameters to spare."""
    archs = _deep_family(ctx)
    ranks = _certified_ranks(ctx, archs, "deep family")
    return _identity(archs, ranks, [_family_bound(w, r) for w, r in archs],
                     "GF(p) rank against the composition bound", RANK_WHY,
                     labels=[f"{_label(w, r)}: expected {expected_neurovariety_dimension(w, r)}"
                             for w, r in archs])


@deep_quadratic_defects.control("the expected count (Kileel, Trager & Bruna's naive bound) as the value")
def expected_count_on_family(ctx):
    archs = _deep_family(ctx)
    ranks = _certified_ranks(ctx, archs, "deep family")
    return _identity(archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
                     "GF(p) rank against the expected dimension", RANK_WHY)


# --------------------------------------------------------------------------- Alexander-Hirschowitz
# A float rank is only a decision when the singular values show a clear gap: below this many
# decades the check stops with an error instead of reporting a rank.
MIN_GAP_DECADES = 3.0

SPORADIC = [((3, 5, 1), 4), ((4, 9, 1), 4), ((5, 14, 1), 4), ((5, 7, 1), 3)]
AH_NEIGHBOURS = [((3, 4, 1), 4), ((3, 6, 1), 4), ((4, 8, 1), 4), ((4, 10, 1), 4), ((5, 6, 1), 3),
                 ((5, 8, 1), 3)]


def _ah_catalogue(max_inputs):
    cells = [((d0, d1, 1), 2) for d0 in range(3, max_inputs + 1) for d1 in range(1, d0 + 2)]
    return cells + SPORADIC + AH_NEIGHBOURS


def _dimension_pair(item):
    """Exact GF(p) and float generic ranks of one architecture."""
    widths, degree, points, rng = item
    mod = neurovariety_dimension(widths, degree, "modular", rng=rng, points=points)
    num = neurovariety_dimension(widths, degree, "numeric", rng=rng, points=points)
    if not (mod.vandermonde_full and num.vandermonde_full):
        raise RuntimeError(f"monomial Vandermonde not of full rank for {widths}: add samples")
    if num.gap_decades < MIN_GAP_DECADES:
        raise RuntimeError(f"float rank of {widths}, r={degree} undecidable: singular-value gap "
                           f"{num.gap_decades:.1f} decades")
    return mod.dimension, num.dimension, num.gap_decades


def _ah_evidence(ctx, reference):
    archs = _ah_catalogue(ctx["max_inputs"])
    items = [(w, r, ctx["points"], ctx.generator("AH", _label(w, r))) for w, r in archs]
    measured, ref, labels = [], [], []
    for (w, r), (mod, num, gap) in zip(archs, ctx.map(_dimension_pair, items), strict=True):
        measured += [mod, num]
        ref += [reference(w, r)] * 2
        labels += [f"{_label(w, r)}: exact rank over GF({DEFAULT_PRIME})",
                   f"{_label(w, r)}: float rank (singular-value gap {gap:.1f} decades)"]
    return Identity(measured, ref, atol=0.0, labels=labels,
                    why="ranks are integers computed exactly (GF(p)) or decided at a singular-value "
                        "gap: no tolerance",
                    quantity="generic Jacobian rank against the Alexander-Hirschowitz dimension")


@claim(PAPER, role="background", source="Alexander-Hirschowitz theorem (J. Algebraic Geom. 4, 1995), the shallow "
                                        "case of the neurovariety dimension reviewed in the paper's "
                                        "dimension section",
       evidence="identity",
       statement=r"The shallow network $x\mapsto\sum_{i=1}^{d_1} a_i (w_i^\top x)^r$ on "
                 r"$\mathbb{R}^{d_0}$ has neurovariety the affine cone over the $d_1$-th secant of "
                 r"the Veronese $\nu_r(\mathbb{P}^{d_0-1})$, of dimension "
                 r"$\min(d_0d_1, \binom{d_0+r-1}{r})$ except for $r=2$, $2\le d_1\le d_0-1$ "
                 r"(dimension $d_0d_1-\binom{d_1}{2}$) and $(d_0,r,d_1)\in\{(3,4,5),(4,4,9),"
                 r"(5,4,14),(5,3,7)\}$ (one less).",
       method="Exact GF(p) and float Jacobian ranks on every quadratic cell $d_0\\le$ max_inputs, "
              "$1\\le d_1\\le d_0+1$, the four sporadic cases and their generic neighbours, compared "
              "entry by entry with the classical formula.",
       params={"points": POINTS,
               "max_inputs": Param(6, full=8, low=3, high=10,
                                   doc="largest input dimension d_0 of the quadratic cells")})
def classical_defective_cases(ctx):
    """Alexander-Hirschowitz: the dimension of the shallow single-output neurovariety is the
    expected count except on the quadrics (r = 2, 2 <= d_1 <= d_0 - 1) and four sporadic cases,
    where it is smaller.  The computed ranks must equal these classical values in every cell."""
    return _ah_evidence(ctx, lambda w, r: alexander_hirschowitz_dimension(w[0], r, w[1]))


@classical_defective_cases.control(
    "the defective cells scored with the naive expected count (parameters minus symmetries, "
    "capped by the ambient dimension) instead of the classical formula")
def naive_count_on_defective_cells(ctx):
    return _ah_evidence(ctx, expected_neurovariety_dimension)


# --------------------------------------------------------------------------- bottlenecks
BOTTLENECKS = [((3, 1, 3, 1), 2), ((3, 1, 3, 2), 2), ((4, 1, 4, 3), 2), ((3, 1, 2, 1), 3),
               ((3, 3, 1, 2), 2), ((3, 2, 1, 3), 2), ((4, 3, 1, 2), 2), ((2, 3, 1, 2), 3),
               ((3, 4, 1, 3, 2), 2), ((4, 2, 1, 2, 2), 3)]


def _bottleneck_evidence(ctx, reference, quantity):
    archs = BOTTLENECKS
    ranks = _certified_ranks(ctx, archs, "bottleneck")
    return _identity(archs, ranks, [reference(w, r) for w, r in archs], quantity, RANK_WHY)


@claim(PAPER, role="background",
       source="Our derivation for the width-one bottlenecks that Kileel, Trager & Bruna and Finkel et "
              "al. exclude",
       evidence="identity",
       statement=r"If the first hidden layer of width one is layer $k$, the network computes "
                 r"$v\,q(x)^{r^{h-k}}$ with $q$ in the neurovariety of the prefix $(d_0,\dots,d_{k-1},1)$ "
                 r"and $v\in\mathbb{R}^{d_h}$, so $\dim V = \dim V(d_0,\dots,d_{k-1},1) + d_h - 1$ "
                 r"($= d_0 + d_h - 1$ only when $k = 1$).",
       method="GF(1000003) ranks on bottlenecks in the first, second and third hidden layer against "
              "the formula, with the prefix's dimension from the Alexander--Hirschowitz theorem "
              "(prefixes $(d_0,d_1,1)$) or the linear forms ($k=1$).",
       params={"points": POINTS})
def bottleneck_dimension_formula(ctx):
    """A width-one layer collapses the network to a power of the prefix network's output times a
    vector; the dimension is the prefix's plus d_h - 1, not d_0 + d_h - 1 when the bottleneck
    is deeper than the first hidden layer."""
    return _bottleneck_evidence(ctx, bottleneck_dimension,
                                "GF(p) rank against dim V(prefix) + d_h - 1")


@bottleneck_dimension_formula.control("the first-layer formula d_0 + d_h - 1 for every bottleneck")
def first_layer_formula(ctx):
    return _bottleneck_evidence(ctx, lambda w, r: w[0] + w[-1] - 1, "GF(p) rank against d_0 + d_h - 1")


# --------------------------------------------------------------------------- sample rank (background)
# Architectures whose dimension a theorem gives (Alexander-Hirschowitz, equi-width, the deep
# family's exact value for (3,3,3,1)).
SAMPLE_ARCHS = [((3, 2, 1), 2), ((3, 5, 1), 4), ((2, 3, 2), 3), ((4, 4, 4, 4), 2),
                ((3, 3, 3), 2)]


def _sample_ranks(item):
    """Exact GF(p) ranks of the sample Jacobian at n = 1..n_max inputs (max over points)."""
    widths, degree, n_max, points, repeated, rng = item
    best = [0] * n_max
    for _ in range(points):
        W = random_weights(widths, rng, modulus=DEFAULT_PRIME)
        X = random_inputs(widths[0], n_max, rng, modulus=DEFAULT_PRIME)
        if repeated:
            X[:] = X[0]
        for n in range(1, n_max + 1):
            G = sample_jacobian(W, X[:n], degree, modulus=DEFAULT_PRIME)
            best[n - 1] = max(best[n - 1], rank_mod_p(G, DEFAULT_PRIME))
    return best


def _sample_evidence(ctx, repeated):
    measured, reference, labels = [], [], []
    items, dims = [], []
    for w, r in SAMPLE_ARCHS:
        dim = _proved_dimension(w, r, ctx.generator("proof", _label(w, r)))
        n_max = math.ceil(dim / w[-1]) + ctx["extra_samples"]
        dims.append(dim)
        items.append((w, r, n_max, ctx["points"], repeated, ctx.generator("samples", _label(w, r))))
    for (w, r, *_), dim, ranks in zip(items, dims, ctx.map(_sample_ranks, items), strict=True):
        for n, rank in enumerate(ranks, start=1):
            measured.append(rank)
            reference.append(min(n * w[-1], dim))
            labels.append(f"{_label(w, r)}, N={n} inputs")
    return Identity(measured, reference, atol=0.0,
                    why="exact integer ranks over GF(p) against an integer formula: no tolerance",
                    quantity="rank of the N-input evaluation Jacobian against min(N d_h, dim V)",
                    labels=labels)


@claim(PAPER, role="background", source="Sec. on dimension (dictionary: dimension and sample complexity); a "
                                        "general fact about evaluating a family of polynomials at "
                                        "generic points",
       evidence="identity",
       reconstructed_from="our reading of the dictionary entry 'dimension and sample complexity' (abstract)",
       statement=r"At $N$ generic inputs the Jacobian of the evaluation map "
                 r"$\theta\mapsto(p_\theta(x_1),\dots,p_\theta(x_N))$ has rank "
                 r"$\min(N d_h, \dim V)$: the dimension of the neurovariety is the number of "
                 r"generic (scalar) samples beyond which the parameters stop being locally "
                 r"free to fit them.",
       method="Exact GF(p) ranks of the evaluation Jacobian at $N = 1..\\lceil\\dim V/d_h\\rceil$ "
              "+ extra inputs on five architectures whose dimension is proved (Alexander-Hirschowitz, "
              "equi-width, or a certified rank equal to the expected count).",
       params={"points": POINTS,
               "extra_samples": Param(3, full=6, low=1, high=20,
                                      doc="inputs beyond dim V / d_h")})
def sample_rank_saturates_at_dimension(ctx):
    """The rank of the N-sample Jacobian grows like N d_h until it saturates at dim V, including on
    the defective shallow quadric (3,2,1), r = 2, where it saturates at 5 and not at the
    parameter count 6: a fact about generic evaluation, the background of the dictionary entry."""
    return _sample_evidence(ctx, repeated=False)


@sample_rank_saturates_at_dimension.control(
    "non-generic inputs: all N sample points equal (x_s = x_1)")
def repeated_inputs(ctx):
    return _sample_evidence(ctx, repeated=True)


# --------------------------------------------------------------------------- subnetworks (background)
# (architecture, activation degree); the first neuron of the last hidden layer is switched off.
SINGULAR_ARCHS = [((3, 2, 1), 2), ((3, 3, 1), 3), ((4, 3, 1), 3), ((3, 5, 1), 4), ((5, 7, 1), 3),
                  ((2, 3, 2), 3), ((4, 4, 4, 4), 2)]


def _sub_architecture(widths):
    """Widths with one neuron removed from the last hidden layer."""
    w = list(widths)
    w[-2] -= 1
    return tuple(w)


def _subnetwork_rank(item):
    widths, degree, points, off, rng = item
    best = 0
    h = len(widths) - 1
    for _ in range(points):
        W = random_weights(widths, rng, modulus=DEFAULT_PRIME)
        if off:
            W = switch_off_neuron(W, h - 1, 0)
        best = max(best, certified_rank(widths, degree, rng, weights=W))
    return best


def _subnetwork_evidence(ctx, off):
    archs = SINGULAR_ARCHS
    items = [(w, r, ctx["points"], off, ctx.generator("subnetwork", _label(w, r))) for w, r in archs]
    ranks = ctx.map(_subnetwork_rank, items)
    full = [_proved_dimension(w, r, ctx.generator("proof", _label(w, r))) for w, r in archs]
    sub = [_proved_dimension(_sub_architecture(w), r, ctx.generator("proof", _label(_sub_architecture(w), r)))
           for w, r in archs]
    predicted = [min(s + w[-1], f) for (w, _), f, s in zip(archs, full, sub, strict=True)]
    labels = [f"{_label(w, r)}: dim V = {f}, dim V_sub = {s}"
              for (w, r), f, s in zip(archs, full, sub, strict=True)]
    return Identity(ranks, predicted, atol=0.0,
                    why="exact integer ranks over GF(p) against an integer formula: no tolerance",
                    quantity="Jacobian rank at a subnetwork point against min(dim V_sub + d_h, dim V)",
                    labels=labels)


@claim(PAPER, role="background", source="Sec. on singularities (dictionary: singularities and training "
                                        "dynamics), reviewing Shahverdi, Marchetti & Kohn (2025)",
       evidence="identity",
       reconstructed_from="our reading of 'singularities arise from subnetworks' (abstract and "
                          "introduction): a rank drop of the parametrisation, not the singular locus",
       statement=r"At a subnetwork point (a neuron of the last hidden layer switched off: zero "
                 r"outgoing weights, generic other weights) the Jacobian of the "
                 r"parameter-to-coefficient map has rank $\min(\dim V_{\mathrm{sub}} + d_h, "
                 r"\dim V)$, where $V_{\mathrm{sub}}$ is the neurovariety without that neuron: "
                 r"the parametrisation is critical there exactly when "
                 r"$\dim V - \dim V_{\mathrm{sub}} > d_h$.",
       method="Exact GF(p) Jacobian rank, maximised over random points of the subnetwork locus, "
              "against the formula with $\\dim V$, $\\dim V_{\\mathrm{sub}}$ proved (Alexander-Hirschowitz, "
              "equi-width, or a certified rank equal to the expected count).",
       params={"points": POINTS})
def subnetwork_rank_formula(ctx):
    """Our reading of "singularities arise from subnetworks": switching off a hidden neuron leaves
    the tangent directions of the smaller network plus the dead neuron's output weights, so the
    rank drops below dim V whenever removing the neuron costs more than d_h dimensions."""
    return _subnetwork_evidence(ctx, off=True)


@subnetwork_rank_formula.control("generic parameters: no neuron switched off")
def generic_parameters(ctx):
    return _subnetwork_evidence(ctx, off=False)
