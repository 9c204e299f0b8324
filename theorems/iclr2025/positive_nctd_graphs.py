r"""Ganian, Khazaliya, Mc Inerney & Rocton, "The Computational Complexity of Positive Non-Clashing
Teaching in Graphs" (ICLR 2025, arXiv 2503.07665).

The concept class of a graph $G$ is its set of balls $\mathcal B(G)$; a positive teaching map gives
each ball $C$ a set $T(C)\subseteq C$, non-clashing when no two balls $C\ne C'$ have both
$T(C)\subseteq C'$ and $T(C')\subseteq C$; $\mathrm{NCTD}^+$ is the least possible $\max_C |T(C)|$.
The paper's results are complexity-theoretic: B-NCTD$^+$ is NP-hard already for $k=2$, has
near-tight running-time bounds under ETH, is FPT in the vertex integrity and not FPT for
feedback vertex number plus pathwidth.  None of these statements is checkable by computation: they
are listed as not checked.

Checked, at the level of instances: the values of $\mathrm{NCTD}^+$ on complete graphs and even
cycles derived from the definitions (our derivation), and the agreement of two independent exact
solvers (a 0-1 integer programme, a backtracking search) on every connected graph with at most
five vertices, each optimal map re-checked by an independent clash test.
"""

from __future__ import annotations

import networkx as nx

from simulations.combinatorics import positive_nctd
from workbench import Identity, Paper, Param, claim

PAPER = Paper(
    slug="positive_nctd_graphs",
    title="The Computational Complexity of Positive Non-Clashing Teaching in Graphs",
    authors=("Robert Ganian", "Liana Khazaliya", "Fionn Mc Inerney", "Mathis Rocton"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2503.07665",
    not_checked=(
        (r"Deciding $\mathrm{NCTD}^+(\mathcal B(G))\le k$ is NP-hard, even when restricted to instances with "
         r"$k=2$ in which all balls of $G$ are present.",
         "NP-hardness is a statement about all polynomial-time algorithms; no finite computation checks it "
         "(the exact solvers here are exponential by design).", "headline"),
        (r"Near-tight running-time upper and lower bounds for the problem on general graphs.",
         "the lower bounds are conditional (on a hypothesis such as ETH) and quantify over all algorithms; "
         "the matching upper-bound algorithm is not implemented and its running time is asymptotic.", "headline"),
        (r"The problem is fixed-parameter tractable when parameterised by the vertex integrity of $G$.",
         "FPT is an asymptotic statement (f(k) poly(n) for some computable f); the paper's algorithm was not "
         "readable and is not implemented.", "headline"),
        (r"No FPT algorithm exists when parameterised by the feedback vertex number plus the pathwidth of $G$, "
         r"even combined with $k$.",
         "a conditional lower bound (parameterised hardness) over all algorithms; not decidable by computation.", "headline"),
    ),
)


def _closed_forms(ctx, ignore_nested: bool) -> Identity:
    measured, reference, labels = [], [], []
    for n in range(3, ctx["max_complete"] + 1):
        measured.append(positive_nctd(nx.complete_graph(n), ignore_nested=ignore_nested)[0])
        reference.append(2)
        labels.append(f"K{n}")
    for m in range(2, ctx["max_half_cycle"] + 1):
        measured.append(positive_nctd(nx.cycle_graph(2 * m), ignore_nested=ignore_nested)[0])
        reference.append(2 * m)
        labels.append(f"C{2 * m}")
    return Identity(measured, reference, atol=0.0, why="integer teaching dimensions: exact agreement",
                    quantity="NCTD+ of the balls", labels=labels)


@claim(PAPER, role="background", source="Definitions (Sec. 2; Chalopin, Chepoi, Mc Inerney & Ratel, COLT 2024); the values are derived "
       "from them, not stated in the paper", evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       params={"max_complete": Param(6, full=8, low=3, high=12, doc="largest complete graph K_n"),
               "max_half_cycle": Param(4, full=5, low=2, high=7, doc="largest even cycle C_2m (value of m)")},
       statement=r"$\mathrm{NCTD}^+(\mathcal B(K_n))=2$ for $n\ge3$ (the balls are the singletons and $V$; $T(V)$ "
       r"must leave every singleton) and $\mathrm{NCTD}^+(\mathcal B(C_{2m}))=2m$ (the balls of radius $m-1$ "
       r"are the sets $V\setminus\{v\}$, so $T(V)=V$).",
       method="Exact: smallest k for which the 0-1 programme (HiGHS) has a non-clashing map with "
       "|T(C)| <= k, the map re-checked by an independent pairwise test; infeasibility at k - 1 "
       "certified by the solver.")
def nctd_closed_forms(ctx):
    """The exact solver reproduces NCTD+ = 2 on complete graphs and 2m on even cycles C_2m."""
    return _closed_forms(ctx, ignore_nested=False)


@nctd_closed_forms.control("clashes between nested balls ignored (the definition weakened)")
def nested_pairs_ignored(ctx):
    return _closed_forms(ctx, ignore_nested=True)


def _small_graphs(max_nodes: int) -> list[tuple[str, nx.Graph]]:
    return [(f"atlas G{i}", g) for i, g in enumerate(nx.graph_atlas_g())
            if 1 <= g.number_of_nodes() <= max_nodes and nx.is_connected(g)]


def _agreement(ctx, ignore_nested: bool) -> Identity:
    graphs = _small_graphs(ctx["max_nodes"])
    ilp = [positive_nctd(g, "ilp", ignore_nested=ignore_nested)[0] for _, g in graphs]
    search = [positive_nctd(g, "backtracking")[0] for _, g in graphs]
    return Identity(ilp, search, atol=0.0, why="integer teaching dimensions: exact agreement",
                    quantity="NCTD+ (integer programme vs backtracking)", labels=[n for n, _ in graphs])


@claim(PAPER, role="background", source="Problem B-NCTD+ (Sec. 2): instance-level check of the objects of the hardness theorems",
       evidence="identity", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       params={"max_nodes": Param(4, full=5, low=1, high=6, doc="largest number of vertices of the atlas graphs")},
       statement=r"On every connected graph with at most four (full profile: five) vertices, the least $k$ admitting a non-clashing "
       r"positive teaching map of $\mathcal B(G)$ is the same for a 0-1 integer programme and for an exhaustive "
       r"backtracking search.",
       method="All connected graphs of networkx's atlas up to the size limit (10 graphs up to 4 vertices, 31 up to 5); two "
       "independent exact solvers.")
def exact_solvers_agree(ctx):
    """Two exact solvers of B-NCTD+ agree on all small connected graphs."""
    return _agreement(ctx, ignore_nested=False)


@exact_solvers_agree.control("the integer programme without the constraints of nested balls")
def broken_programme(ctx):
    return _agreement(ctx, ignore_nested=True)
