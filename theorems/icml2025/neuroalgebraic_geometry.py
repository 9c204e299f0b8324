r"""Marchetti, Shahverdi, Mereta, Trager & Kohn, "Position: Algebra Unveils Deep Learning -- An
Invitation to Neuroalgebraic Geometry" (ICML 2025, position track).

A position paper: it proposes a dictionary between invariants of neurovarieties (the Zariski
closures of the function spaces of polynomial networks) and learning (dimension <-> expressivity
and sample complexity; singularities <-> training dynamics).  It proves no new theorem; the
checkable content is the dimension theory it reviews (Kileel, Trager & Bruna, NeurIPS 2019;
Alexander & Hirschowitz 1995; Finkel et al. 2024; Shahverdi et al. 2025).  Only the abstract and
introduction could be read, so the exact wording of each dictionary entry is our reading
(``reconstructed``), except the Alexander-Hirschowitz theorem, a classical statement.

Dimensions are computed as Jacobian ranks of the parameter-to-coefficient map (through sample
Jacobians, see ``simulations.algebra.neurovariety``): exactly over GF(p) (a certified lower bound
on the dimension) and in float64 with the rank decided at the largest singular-value gap.
"""

from __future__ import annotations

import math

from simulations.algebra.neurovariety import (
    DEFAULT_PRIME,
    alexander_hirschowitz_dimension,
    ambient_dimension,
    bottleneck_dimension,
    expected_neurovariety_dimension,
    neurovariety_dimension,
    parameter_count,
    random_inputs,
    random_weights,
    rank_mod_p,
    sample_jacobian,
    switch_off_neuron,
)
from workbench import Identity, Paper, Param, claim

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
        ("the dimension, degree and singularities of a neurovariety speak to the sample "
         "complexity, expressivity and training dynamics of the network (the dictionary the "
         "position paper proposes)",
         "a research programme, not a theorem: the paper states no quantitative relation between "
         "these invariants and learning that a computation could test; the dimension theory it "
         "builds on is checked", "headline"),
    ),
)

# Architectures (widths, activation degree) off every known defective family: shallow cells
# where Alexander-Hirschowitz gives the expected count, and deep networks without width-one
# bottlenecks.  "extended" adds larger ones for the full profile.
NON_DEFECTIVE = {
    "panel": [((3, 4, 1), 4), ((3, 6, 1), 4), ((4, 8, 1), 4), ((4, 10, 1), 4), ((5, 6, 1), 3),
              ((5, 8, 1), 3), ((3, 3, 1), 3), ((3, 4, 1), 3), ((4, 5, 1), 3), ((6, 10, 1), 3),
              ((2, 2, 2), 2), ((3, 3, 3), 2), ((2, 3, 2), 3), ((3, 2, 3), 2), ((2, 2, 2, 2), 2),
              ((2, 3, 3, 1), 2), ((3, 3, 3, 3), 2), ((4, 4, 4, 4), 2), ((2, 4, 4, 2), 3),
              ((2, 2, 2, 2, 2), 2), ((2, 2, 2), 3), ((4, 4, 3, 4), 2)],
    "extended": [((5, 5, 5, 5), 2), ((3, 5, 5, 3), 3), ((6, 6, 6), 3), ((8, 8, 1), 4),
                 ((10, 10, 1), 3), ((6, 30, 1), 5), ((5, 5, 5, 5, 5), 2), ((4, 8, 8, 1), 3)],
}

SPORADIC = [((3, 5, 1), 4), ((4, 9, 1), 4), ((5, 14, 1), 4), ((5, 7, 1), 3)]
AH_NEIGHBOURS = [((3, 4, 1), 4), ((3, 6, 1), 4), ((4, 8, 1), 4), ((4, 10, 1), 4), ((5, 6, 1), 3),
                 ((5, 8, 1), 3)]
BOTTLENECKS = [((3, 1, 3, 1), 2), ((3, 1, 3, 2), 2), ((4, 1, 4, 3), 2), ((3, 1, 2, 1), 3)]


def _catalogue(panel):
    arch = list(NON_DEFECTIVE["panel"])
    if panel == "extended":
        arch += NON_DEFECTIVE["extended"]
    return arch


def _label(widths, degree):
    return f"({','.join(map(str, widths))}) r={degree}"


# A float rank is only a decision when the singular values show a clear gap: below this many
# decades the check stops with an error instead of reporting a rank.
MIN_GAP_DECADES = 3.0


def _dimension_pair(item):
    """Exact GF(p), float and (small cases) exact rational generic ranks of one architecture."""
    widths, degree, points, rational_entries, rng = item
    mod = neurovariety_dimension(widths, degree, "modular", rng=rng, points=points)
    num = neurovariety_dimension(widths, degree, "numeric", rng=rng, points=points)
    rat = None
    if ambient_dimension(widths, degree) * parameter_count(widths) <= rational_entries:
        rat = neurovariety_dimension(widths, degree, "rational", rng=rng, points=points)
    if not all(r.vandermonde_full for r in (mod, num, rat) if r is not None):
        raise RuntimeError(f"monomial Vandermonde not of full rank for {widths}: add samples")
    if num.gap_decades < MIN_GAP_DECADES:
        raise RuntimeError(f"float rank of {widths}, r={degree} undecidable: singular-value gap "
                           f"{num.gap_decades:.1f} decades")
    return mod.dimension, num.dimension, num.gap_decades, rat.dimension if rat else None


def _ranks(ctx, archs):
    items = [(w, r, ctx["points"], ctx["rational_entries"], ctx.generator("architecture", _label(w, r)))
             for w, r in archs]
    return ctx.map(_dimension_pair, items)


def _rank_evidence(archs, ranks, reference, quantity, why):
    measured, ref, labels = [], [], []
    for (w, r), (mod, num, gap, rat), truth in zip(archs, ranks, reference, strict=True):
        measured += [mod, num]
        ref += [truth, truth]
        labels += [f"{_label(w, r)}: exact rank over GF({DEFAULT_PRIME})",
                   f"{_label(w, r)}: float rank (singular-value gap {gap:.1f} decades)"]
        if rat is not None:
            measured.append(rat)
            ref.append(truth)
            labels.append(f"{_label(w, r)}: exact rank over Q")
    return Identity(measured, ref, atol=0.0, why=why, quantity=quantity, labels=labels)


POINTS = Param(2, full=3, low=1, high=8,
               doc="random parameter points per architecture; the largest Jacobian rank is kept")
RATIONAL = Param(800, full=2000, low=0, high=20000,
                 doc="exact rational ranks are also computed where ambient dimension x parameter "
                     "count is at most this (pure-Python Bareiss elimination)")


# --------------------------------------------------------------------------- claim 1
@claim(PAPER, role="headline", source="Sec. on dimension (dictionary: dimension and expressivity), reviewing "
                     "Kileel, Trager & Bruna (NeurIPS 2019) and Finkel et al. (2024)",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"For a polynomial network with widths $(d_0,\dots,d_h)$ and activation $z^r$ "
                 r"off the defective families (no width-one bottleneck, not an "
                 r"Alexander--Hirschowitz cell), the neurovariety has the expected dimension "
                 r"$\min\big(d_h + \sum_{i=1}^{h}(d_{i-1}-1)d_i,\; d_h\binom{d_0+D-1}{D}\big)$, "
                 r"$D=r^{h-1}$: the parameter count minus one rescaling symmetry per hidden neuron, "
                 r"capped by the ambient dimension.",
       method="For each architecture of a catalogue, the Jacobian rank of the "
              "parameter-to-coefficient map (sample Jacobian with a full-rank monomial "
              "Vandermonde) at random points, exactly over GF(1000003) and in float64 (rank at "
              "the largest singular-value gap), compared entry by entry with the expected count. "
              "The exact rank is a lower bound and the expected count an upper bound, so "
              "equality proves the dimension.",
       params={"points": POINTS, "rational_entries": RATIONAL,
               "panel": Param("panel", full="extended", choices=("panel", "extended"),
                              doc="architecture catalogue: 20 small ones, or 8 larger added")})
def expected_dimension_off_defective_families(ctx):
    """The expected dimension (parameters minus rescaling symmetries, capped by the ambient
    dimension) is attained by the neurovariety for a catalogue of shallow and deep architectures
    that avoid the Alexander-Hirschowitz cells and width-one bottlenecks (KTB 2019 Conjecture /
    Finkel et al. 2024 for such architectures).  The exact ranks certify the equality."""
    archs = _catalogue(ctx["panel"])
    ranks = _ranks(ctx, archs)
    return _rank_evidence(
        archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
        "generic Jacobian rank of the coefficient map against the expected dimension",
        "ranks are integers computed exactly (GF(p) elimination) or decided at a singular-value "
        "gap: no tolerance")


@expected_dimension_off_defective_families.control(
    "the naive count without the rescaling symmetries, min(sum d_{i-1} d_i, ambient)")
def naive_parameter_count(ctx):
    archs = _catalogue(ctx["panel"])
    ranks = _ranks(ctx, archs)
    return _rank_evidence(
        archs, ranks, [min(parameter_count(w), ambient_dimension(w, r)) for w, r in archs],
        "generic Jacobian rank against the raw parameter count capped by the ambient dimension",
        "integer ranks against an integer formula: no tolerance")


def _duplicate_neuron_rank(item):
    """Exact GF(p) rank at one non-generic point: hidden neurons 1 and 2 of layer 1 share their
    incoming weights."""
    widths, degree, rng = item
    W = random_weights(widths, rng, modulus=DEFAULT_PRIME)
    W[0][1] = W[0][0]
    res = neurovariety_dimension(widths, degree, "modular", rng=rng, weights=W)
    return res.dimension


@expected_dimension_off_defective_families.control(
    "the rank decided at one non-generic parameter point (two hidden neurons with equal "
    "incoming weights) instead of the maximum over random points")
def rank_at_non_generic_point(ctx):
    archs = _catalogue(ctx["panel"])
    items = [(w, r, ctx.generator("architecture", _label(w, r))) for w, r in archs]
    ranks = ctx.map(_duplicate_neuron_rank, items)
    return Identity(ranks, [expected_neurovariety_dimension(w, r) for w, r in archs], atol=0.0,
                    why="exact integer ranks: no tolerance",
                    quantity="Jacobian rank over GF(p) at a point with a duplicated neuron",
                    labels=[_label(w, r) for w, r in archs])


# --------------------------------------------------------------------------- claim 2
def _defective_catalogue(max_inputs):
    cells = [((d0, d1, 1), 2) for d0 in range(3, max_inputs + 1) for d1 in range(1, d0 + 2)]
    return cells + SPORADIC + AH_NEIGHBOURS + BOTTLENECKS


def _classical_dimension(widths, degree):
    if 1 in widths[1:-1]:
        return bottleneck_dimension(widths, degree)
    d0, d1, _ = widths
    return alexander_hirschowitz_dimension(d0, degree, d1)


@claim(PAPER, role="background", source="Alexander-Hirschowitz theorem (J. Algebraic Geom. 4, 1995), the shallow "
                     "case of the neurovariety dimension reviewed in the paper's dimension section",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"The shallow network $x\mapsto\sum_{i=1}^{d_1} a_i (w_i^\top x)^r$ on "
                 r"$\mathbb{R}^{d_0}$ has neurovariety the affine cone over the $d_1$-th secant of "
                 r"the Veronese $\nu_r(\mathbb{P}^{d_0-1})$, of dimension "
                 r"$\min(d_0d_1, \binom{d_0+r-1}{r})$ except for $r=2$, $2\le d_1\le d_0-1$ "
                 r"(dimension $d_0d_1-\binom{d_1}{2}$) and $(d_0,r,d_1)\in\{(3,4,5),(4,4,9),"
                 r"(5,4,14),(5,3,7)\}$ (one less); with a width-one hidden layer the dimension is "
                 r"$d_0+d_h-1$.",
       method="Exact GF(p) and float Jacobian ranks on every quadratic cell $d_0\\le$ max_inputs, "
              "$1\\le d_1\\le d_0+1$, the four sporadic cases, their generic neighbours and four "
              "bottleneck architectures, compared entry by entry with the classical formula.",
       params={"points": POINTS, "rational_entries": RATIONAL,
               "max_inputs": Param(6, full=8, low=3, high=10,
                                   doc="largest input dimension d_0 of the quadratic cells")})
def classical_defective_cases(ctx):
    """Alexander-Hirschowitz: the dimension of the shallow single-output neurovariety is the
    expected count except on the quadrics (r = 2, 2 <= d_1 <= d_0 - 1) and four sporadic cases,
    where it is smaller; a width-one bottleneck collapses the dimension to d_0 + d_h - 1.  The
    computed ranks must equal these classical values in every cell (defective or not)."""
    archs = _defective_catalogue(ctx["max_inputs"])
    ranks = _ranks(ctx, archs)
    return _rank_evidence(
        archs, ranks, [_classical_dimension(w, r) for w, r in archs],
        "generic Jacobian rank against the Alexander-Hirschowitz / bottleneck dimension",
        "ranks are integers computed exactly (GF(p)) or decided at a singular-value gap: no "
        "tolerance")


@classical_defective_cases.control(
    "the defective cells scored with the naive expected count (parameters minus symmetries, "
    "capped by the ambient dimension) instead of the classical formula")
def naive_count_on_defective_cells(ctx):
    archs = _defective_catalogue(ctx["max_inputs"])
    ranks = _ranks(ctx, archs)
    return _rank_evidence(
        archs, ranks, [expected_neurovariety_dimension(w, r) for w, r in archs],
        "generic Jacobian rank against the naive expected dimension",
        "integer ranks against an integer formula: no tolerance")


# --------------------------------------------------------------------------- claim 3
# Architectures whose dimension is known by theory: AH for the shallow ones, the expected count
# (an upper bound, attained as certified by claim 1) for the deep ones.
SAMPLE_ARCHS = [((3, 2, 1), 2), ((3, 5, 1), 4), ((2, 3, 2), 3), ((4, 4, 4, 4), 2),
                ((3, 3, 3), 2)]


def _known_dimension(widths, degree):
    """Dimension from theory: Alexander-Hirschowitz for shallow single-output networks, else the
    expected count, only for architectures of the first claim's panel (where it is certified)."""
    widths = tuple(widths)
    if len(widths) == 3 and widths[-1] == 1:
        return alexander_hirschowitz_dimension(widths[0], degree, widths[1])
    if (widths, degree) not in NON_DEFECTIVE["panel"]:
        raise ValueError(f"no certified dimension for {_label(widths, degree)}")
    return expected_neurovariety_dimension(widths, degree)


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
    items = []
    for w, r in SAMPLE_ARCHS:
        dim = _known_dimension(w, r)
        n_max = math.ceil(dim / w[-1]) + ctx["extra_samples"]
        items.append((w, r, n_max, ctx["points"], repeated, ctx.generator("samples", _label(w, r))))
    for (w, r, *_), ranks in zip(items, ctx.map(_sample_ranks, items), strict=True):
        dim = _known_dimension(w, r)
        for n, rank in enumerate(ranks, start=1):
            measured.append(rank)
            reference.append(min(n * w[-1], dim))
            labels.append(f"{_label(w, r)}, N={n} inputs")
    return Identity(measured, reference, atol=0.0,
                    why="exact integer ranks over GF(p) against an integer formula: no tolerance",
                    quantity="rank of the N-input evaluation Jacobian against min(N d_h, dim V)",
                    labels=labels)


@claim(PAPER, role="background", source="Sec. on dimension (dictionary: dimension and sample complexity)",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"At $N$ generic inputs the Jacobian of the evaluation map "
                 r"$\theta\mapsto(p_\theta(x_1),\dots,p_\theta(x_N))$ has rank "
                 r"$\min(N d_h, \dim V)$: the dimension of the neurovariety is the number of "
                 r"generic (scalar) samples beyond which the parameters stop being locally "
                 r"free to fit them.",
       method="Exact GF(p) ranks of the evaluation Jacobian at $N = 1..\\lceil\\dim V/d_h\\rceil$ "
              "+ extra inputs on five architectures whose dimension is known by theory "
              "(Alexander-Hirschowitz, or the expected count certified in the first claim).",
       params={"points": POINTS,
               "extra_samples": Param(3, full=6, low=1, high=20,
                                      doc="inputs beyond dim V / d_h")})
def sample_rank_saturates_at_dimension(ctx):
    """Our reading of the dictionary entry "dimension <-> sample complexity": the rank of the
    N-sample Jacobian grows like N d_h until it saturates at dim V, including on the defective
    shallow quadric (3,2,1), r = 2, where it saturates at 5 and not at the parameter count 6."""
    return _sample_evidence(ctx, repeated=False)


@sample_rank_saturates_at_dimension.control(
    "non-generic inputs: all N sample points equal (x_s = x_1)")
def repeated_inputs(ctx):
    return _sample_evidence(ctx, repeated=True)


# --------------------------------------------------------------------------- claim 4
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
        best = max(best, neurovariety_dimension(widths, degree, "modular", rng=rng,
                                                weights=W).dimension)
    return best


def _subnetwork_evidence(ctx, off):
    archs = SINGULAR_ARCHS
    items = [(w, r, ctx["points"], off, ctx.generator("subnetwork", _label(w, r)))
             for w, r in archs]
    ranks = ctx.map(_subnetwork_rank, items)
    predicted = [min(_known_dimension(_sub_architecture(w), r) + w[-1], _known_dimension(w, r))
                 for w, r in archs]
    labels = [f"{_label(w, r)}: dim V = {_known_dimension(w, r)}, "
              f"dim V_sub = {_known_dimension(_sub_architecture(w), r)}" for w, r in archs]
    return Identity(ranks, predicted, atol=0.0,
                    why="exact integer ranks over GF(p) against an integer formula: no tolerance",
                    quantity="Jacobian rank at a subnetwork point against "
                             "min(dim V_sub + d_h, dim V)",
                    labels=labels)


@claim(PAPER, role="supporting", source="Sec. on singularities (dictionary: singularities and training dynamics), "
                     "reviewing Shahverdi, Marchetti & Kohn (2025): singular points arise from "
                     "subnetworks",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"At a subnetwork point (a neuron of the last hidden layer switched off: zero "
                 r"outgoing weights, generic other weights) the Jacobian of the "
                 r"parameter-to-coefficient map has rank $\min(\dim V_{\mathrm{sub}} + d_h, "
                 r"\dim V)$, where $V_{\mathrm{sub}}$ is the neurovariety without that neuron: "
                 r"the tangent directions are those of $V_{\mathrm{sub}}$ plus the $d_h$ "
                 r"output weights of the dead neuron.  The parametrisation is critical there "
                 r"(rank $<\dim V$) exactly when $\dim V - \dim V_{\mathrm{sub}} > d_h$.",
       method="Exact GF(p) Jacobian rank, maximised over random points of the subnetwork locus, "
              "against the formula with $\\dim V$, $\\dim V_{\\mathrm{sub}}$ from theory "
              "(Alexander-Hirschowitz for shallow networks, the expected count certified in the "
              "first claim for deep ones) on seven architectures, six of them with a rank drop.",
       params={"points": POINTS})
def subnetwork_rank_formula(ctx):
    """Our reading of "singularities arise from subnetworks": switching off a hidden neuron
    leaves the tangent directions of the smaller network plus the dead neuron's output
    weights, so the rank drops below dim V (a critical point of the parametrisation) whenever
    removing the neuron costs more than d_h dimensions; (2,3,2), r = 3 is a case without a drop
    (6 + 2 = 8 = dim V), and the defective (3,3,3,1), r = 2 (no theoretical dimension) is left out."""
    return _subnetwork_evidence(ctx, off=True)


@subnetwork_rank_formula.control("generic parameters: no neuron switched off")
def generic_parameters(ctx):
    return _subnetwork_evidence(ctx, off=False)
