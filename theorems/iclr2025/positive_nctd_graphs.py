r"""Ganian, Khazaliya, Mc Inerney & Rocton, "The Computational Complexity of Positive Non-Clashing
Teaching in Graphs" (ICLR 2025, arXiv 2503.07665).

The concept class of a graph $G$ is its set of balls $\mathcal B(G)$; a positive teaching map gives
each ball $C$ a set $T(C)\subseteq C$, non-clashing when no two balls $C\ne C'$ have both
$T(C)\subseteq C'$ and $T(C')\subseteq C$; $\mathrm{NCTD}^+$ is the least possible $\max_C |T(C)|$.
The paper's results are complexity-theoretic: STRICT NON-CLASH (all balls present) is NP-hard
already for $k=2$ (by a reduction from 3-SAT to split graphs of diameter 2), has near-tight
running-time bounds under ETH, and NON-CLASH is FPT in the vertex integrity and W[1]-hard for
feedback vertex number plus pathwidth plus $k$.  The constructions behind them could not be read
here, so these four results are listed as not checked, each with its reason.

Checked: the paper's remark that $k=1$ is the trivial case ($\mathrm{NCTD}^+\le1$ iff $G$ is
edgeless) on every graph with at most six vertices, connected or not, by an exact 0-1 programme;
and, as background, that this programme agrees with an independent backtracking search over
independently computed balls.
"""

from __future__ import annotations

import networkx as nx

from simulations.combinatorics import balls, is_non_clashing, positive_nctd, teaching_map_ilp
from workbench import Identity, NearMiss, NotChecked, Paper, Param, claim

_REVIEWS = ("the abstract (arXiv 2503.07665v1 HTML opening) and two consolidated reviews stored in a public review "
            "collection (they cite Theorem 1, its reduction from 3-SAT to split graphs of diameter 2, and the remark "
            "that k = 1 is solvable by testing whether G is edgeless)")

PAPER = Paper(
    slug="positive_nctd_graphs",
    title="The Computational Complexity of Positive Non-Clashing Teaching in Graphs",
    authors=("Robert Ganian", "Liana Khazaliya", "Fionn Mc Inerney", "Mathis Rocton"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2503.07665",
    not_checked=(
        NotChecked(r"Theorem 1: deciding $\mathrm{NCTD}^+(\mathcal B(G))\le k$ is NP-hard, even for $k=2$ and with all "
                   r"balls of $G$ present (by a reduction from 3-SAT to split graphs of diameter 2).",
                   "a hardness reduction is checkable only once built: the gadget graph of the reduction (lines 68-84 "
                   "and Lemmas 2-3 of the paper) could not be read from any public source reachable here (only the "
                   "abstract and reviews), and a reduction of our own would check our construction, not the paper's; "
                   "NP-hardness itself quantifies over all polynomial-time algorithms.", "headline"),
        NotChecked(r"Near-tight running-time bounds on general graphs: no $2^{o(|V(G)|\cdot d\cdot k)}$ algorithm under "
                   r"ETH (Theorem 4) and a $2^{O(|V(G)|\cdot d\cdot k\cdot\log|V(G)|)}$ algorithm (Proposition 5), "
                   r"$d$ the diameter.",
                   "the lower bound is conditional on ETH and quantifies over all algorithms; the upper bound is an "
                   "asymptotic running time with an unstated constant in the exponent, which no finite timing fits.",
                   "headline"),
        NotChecked(r"Theorem 17: NON-CLASH is fixed-parameter tractable parameterized by the vertex integrity $p$ of $G$ "
                   r"(time $2^{2^{O(p^3)}}|V(G)|^{O(1)}$).",
                   "FPT is an asymptotic statement with a triple-exponential f(p); the kernelization (blueprints, "
                   "twin-block equivalence) could not be read and is not implemented.", "headline"),
        NotChecked(r"Theorem 18: NON-CLASH is W[1]-hard parameterized by the feedback vertex number plus the pathwidth "
                   r"of $G$ plus $k$ (by a reduction from NAE-INTEGER-3-SAT).",
                   "a parameterized lower bound over all algorithms; its reduction could not be read, so it cannot be "
                   "built and verified on small instances here.", "headline"),
    ),
)


def _graphs(max_nodes: int) -> list[tuple[str, nx.Graph]]:
    return [(f"atlas G{i}", g) for i, g in enumerate(nx.graph_atlas_g())
            if 1 <= g.number_of_nodes() <= max_nodes]


def _trivial_case(ctx, ignore_nested: bool = False, edges_allowed: int = 0) -> Identity:
    measured, reference, labels = [], [], []
    for name, g in _graphs(ctx["max_nodes"]):
        concepts = balls(g)
        found = teaching_map_ilp(concepts, 1, ignore_nested=ignore_nested)     # NCTD+ <= 1 iff a map of size 1
        if found is not None and not ignore_nested and not is_non_clashing(concepts, found):
            raise ValueError(f"{name}: the programme returned a clashing map")
        measured.append(int(found is not None))
        reference.append(int(g.number_of_edges() <= edges_allowed))
        labels.append(f"{name} (n={g.number_of_nodes()}, m={g.number_of_edges()})")
    return Identity(measured, reference, atol=0.0, why="yes/no answers: exact agreement",
                    quantity="NCTD+ <= 1 (0-1 programme) against 'G has no edge'", labels=labels)


@claim(PAPER, role="supporting", evidence="identity", reconstructed_from=_REVIEWS,
       source="Remark after Theorem 1 (as the reviews report it): k = 1 is trivially solvable by testing whether G is "
              "edgeless",
       near_miss=NearMiss.none("an equivalence of yes/no answers: no number to move; the near-miss control allows "
                               "one edge"),
       params={"max_nodes": Param(6, full=7, low=1, high=7, doc="largest number of vertices of the atlas graphs")},
       statement=r"$\mathrm{NCTD}^+(\mathcal B(G))\le1$ if and only if $G$ has no edge (connected or not): an edge "
       r"$uv$ makes the ball $B(u,1)\supseteq\{u,v\}$ need two examples, since a single example $w$ would clash "
       r"with the singleton $\{w\}$.",
       method="Every graph of networkx's atlas with 1 to 6 vertices (full: 7), connected or not (208 graphs; full "
       "1252): whether a non-clashing positive map with teaching sets of size at most 1 exists, by a 0-1 programme "
       "(HiGHS; infeasibility certified by the solver, each map found re-checked by an independent pairwise test); "
       "against the edge count.")
def k_one_iff_edgeless(ctx):
    """NCTD+ of the balls is at most 1 exactly for the edgeless graphs."""
    return _trivial_case(ctx)


@k_one_iff_edgeless.control("at most one edge instead of none: the single edge K_2 already needs 2 examples",
                            near_miss=True)
def one_edge_allowed(ctx):
    return _trivial_case(ctx, edges_allowed=1)


@k_one_iff_edgeless.control("the 0-1 programme without the constraints between nested balls (the definition "
                            "weakened: a ball may then be taught by one vertex)")
def nested_pairs_ignored(ctx):
    return _trivial_case(ctx, ignore_nested=True)


def _agreement(ctx, ignore_nested: bool) -> Identity:
    graphs = _graphs(ctx["max_nodes"])
    ilp = [positive_nctd(g, "ilp", ignore_nested=ignore_nested)[0] for _, g in graphs]
    search = [positive_nctd(g, "backtracking")[0] for _, g in graphs]
    return Identity(ilp, search, atol=0.0, why="integer teaching dimensions: exact agreement",
                    quantity="NCTD+ (integer programme vs backtracking)", labels=[n for n, _ in graphs])


@claim(PAPER, role="background", source="Problem B-NCTD+ (Sec. 2): the exact solver every other check here relies on",
       evidence="identity", reconstructed_from="the definitions (Chalopin, Chepoi, Mc Inerney & Ratel, COLT 2024)",
       params={"max_nodes": Param(5, low=1, high=6, doc="largest number of vertices of the atlas graphs (the "
                                                        "backtracking search is exponential: C_6 alone takes minutes)")},
       statement=r"On every graph with at most five vertices, the least $k$ admitting a non-clashing "
       r"positive teaching map of $\mathcal B(G)$ is the same for a 0-1 integer programme over balls from networkx's "
       r"shortest paths and for a backtracking search over balls from a breadth-first search written independently.",
       method="All 52 graphs of networkx's atlas with 1 to 5 vertices, connected or not; two independent exact solvers "
       "on two independent ball computations.")
def exact_solvers_agree(ctx):
    """Two exact solvers of B-NCTD+, on independently computed balls, agree on all small graphs."""
    return _agreement(ctx, ignore_nested=False)


@exact_solvers_agree.control("the integer programme without the constraints of nested balls")
def broken_programme(ctx):
    return _agreement(ctx, ignore_nested=True)
