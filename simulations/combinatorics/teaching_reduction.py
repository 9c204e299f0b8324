r"""A reduction from 3-SAT to STRICT NON-CLASH with k = 2 (positive teaching of all balls of a graph).

Ganian, Khazaliya, Mc Inerney & Rocton (ICLR 2025, Theorem 1) prove that deciding
NCTD+(B(G)) <= 2 is NP-hard, by a reduction from 3-SAT to split graphs of diameter 2.  Their
gadget could not be read; the reduction below is our own and also produces split graphs of
diameter 2.

The graph.  A clique K, an independent set I, one universal vertex z in K, and two vertices
u0, w0 in I adjacent to z only.  Every other vertex c of K has a set E_c of neighbours in I
(besides z):

- variable v, with h_v, t_v, f_v in I and one vertex o_{v,j} in I per clause j containing v
  (O_v the set of them): X_v with E = {h, t, f} + O_v, G1_v with E = {t, f} + O_v, and, when v
  occurs, G2_v with E = {h} + O_v;
- clause j with literals l_1, l_2, l_3 on variables v_1, v_2, v_3: its three groups
  g_a = {h_{v_a}, s_a, o_{v_a,j}} with s_a = f_{v_a} for a positive literal and t_{v_a} for a
  negative one; C_j with E = g_1 + g_2 + g_3, D_{j,a} with E = {o_{v_a,j}} + (g_b + g_c minus
  their o's) for {a, b, c} = {1, 2, 3}, and Do_j with E = {o_{v_1,j}, o_{v_2,j}, o_{v_3,j}}.

Size: 5n + n_occ + 8m + 3 vertices for n variables (n_occ of them occurring) and m clauses.

Why it works (our argument; the module's tests and the claim check it exhaustively on small
formulas).  The balls are the singletons, V (radius 2), N[u] = {u} + S_u + {z} for u in I, and
N[c] = K + E_c for c in K.  With k = 2 every ball of two or more vertices needs two examples
(one example w clashes with the singleton {w}).  Take c in K other than z.  A pair {a, b} of
E_c lies in V and in the K-balls N[c'] with {a, b} inside E_c' (in no N[u], which holds one vertex
of I).  Any other pair of N[c] holds a vertex of K: a pair {c'', a} with c'' in K and a in E_c lies
in V, in every N[c'] with a in E_c', and possibly in N[a], and a pair inside K lies in V and in
every K-ball; either way it lies in a superset of the balls that hold {a, b}, for any b in E_c.
So {a, b} dominates it and (see ``undominated_candidates``) it suffices to consider pairs inside
E_c; two K-balls then clash iff both their pairs lie in E_c and E_c' together.
- X_v: every pair of E_{X_v} other than {h, t} and {h, f} lies in G1_v or G2_v (a proper
  sub-ball), so T(N[X_v]) is {h_v, t_v} (v true) or {h_v, f_v} (v false).
- C_j: every pair across two groups lies in a D_{j,a} or in Do_j, and {h, s} of a group lies
  in a D; so T(N[C_j]) is {h, o} or {s, o} of one group a, a pair inside E_{X_{v_a}}.  It
  clashes with X_{v_a} iff T(N[X_{v_a}]) lies in E_{C_j}, i.e. is {h, s_a}: iff the literal
  l_a is false.  So a teaching map of size 2 gives a satisfying assignment.
- Conversely, a satisfying assignment gives the map of :func:`teaching_map_from_assignment`,
  non-clashing for the following reasons.  A singleton never clashes with a ball taught by two
  vertices.  T(V) = {u0, w0} lies in no other ball.  T(N[u]) = {u, z} for u in I: every other
  ball of two or more vertices is taught by two vertices of I, and N[u] holds one.  For c in K
  (c != z), call T(N[c]) inside E_c private when every c' != c with T(N[c]) inside E_c' has
  T(N[c']) outside E_c; then N[c] clashes with no K-ball.  With l_a = l_{v_a} the literals of
  clause j and o_a = o_{v_a,j}:
  - T(N[X_v]) = {h_v, t_v} (v true): the other sets E holding it are C_j and D_{j,b} for the
    clauses j where v occurs negated.  T(N[C_j]) is a pair of a true literal, on a variable other
    than v, so outside E_{X_v}; T(N[D_{j,b}]) holds o_b of another variable.  The same for
    {h_v, f_v} (v false) and the positive occurrences.
  - T(N[G1_v]) = {t_v, f_v}: only E_{X_v} holds it too (a clause holds one of t_v, f_v), and
    T(N[X_v]) holds h_v, outside E_{G1_v}.
  - T(N[G2_v]) = two occurrence vertices of v in different clauses, held only by E_{X_v} and
    E_{G1_v}, whose pairs hold t_v or f_v, outside E_{G2_v}.  When v occurs once, in clause j,
    it is {h_v, o_{v,j}}, held only by E_{X_v} and E_{C_j}, whose pairs hold t or f.
  - T(N[C_j]) = {s_a, o_a} for a true literal l_a: held only by E_{X_{v_a}} (its pair {h, s_a}
    would mean l_a false) and E_{G1_{v_a}} (its pair holds the vertex of t, f that is not s_a).
    D_{j,a} lacks s_a, the other D's lack o_a, and Do_j lacks s_a.
  - T(N[D_{j,a}]) = {o_a, h_{v_{a+1}}}: held only by E_{C_j}, whose pair {s, o_b} would need
    b = a and s_a in E_{D_{j,a}}, which it is not.
  - T(N[Do_j]) = {o_1, o_2}: held only by E_{C_j}, whose pair holds an s, outside E_{Do_j}.
"""

from __future__ import annotations

import itertools

import networkx as nx

from .cnf import validate_cnf

UNIVERSAL = ("z",)
OUTSIDE = (("u0",), ("w0",))


def reduction_sets(clauses, n_variables: int) -> dict[tuple, frozenset]:
    """The split graph of the reduction as a map: vertex of K (besides z) -> its neighbours in I (besides z).

    Args:
        clauses: a 3-CNF (tuples of three DIMACS literals on distinct variables 1..n_variables).
    Raises:
        ValueError: on a malformed formula (see ``cnf.validate_cnf``).
    """
    clauses = validate_cnf(clauses, n_variables)
    occurrences: dict[int, list[int]] = {v: [] for v in range(1, n_variables + 1)}
    for j, clause in enumerate(clauses):
        for lit in clause:
            occurrences[abs(lit)].append(j)
    sets: dict[tuple, frozenset] = {}
    for v in range(1, n_variables + 1):
        occ = [("o", v, j) for j in occurrences[v]]
        sets[("X", v)] = frozenset([("h", v), ("t", v), ("f", v), *occ])
        sets[("G1", v)] = frozenset([("t", v), ("f", v), *occ])
        if occ:
            sets[("G2", v)] = frozenset([("h", v), *occ])
    for j, clause in enumerate(clauses):
        groups = [(("h", abs(lit)), ("f" if lit > 0 else "t", abs(lit)), ("o", abs(lit), j)) for lit in clause]
        sets[("C", j)] = frozenset(u for g in groups for u in g)
        for a, g in enumerate(groups):
            sets[("D", j, a)] = frozenset([g[2], *(u for b, g2 in enumerate(groups) if b != a for u in g2[:2])])
        sets[("Do", j)] = frozenset(g[2] for g in groups)
    return sets


def sat_reduction_graph(clauses, n_variables: int, omit_edges=(), omit_vertices=(), extra_edges=()) -> nx.Graph:
    """The graph of the reduction: NCTD+(B(G)) <= 2 iff the formula is satisfiable.

    Args:
        clauses: a 3-CNF over variables 1..n_variables.
        omit_edges: edges (pairs of vertex names) to leave out (broken gadgets, for controls).
        omit_vertices: vertices to leave out (broken gadgets, for controls); absent names are ignored.
        extra_edges: edges between existing vertices to add (broken gadgets, for controls).
    Returns:
        a split graph (clique: z and the keys of :func:`reduction_sets`; independent set: the rest)
        of diameter 2 with 5 n + n_occ + 8 m + 3 vertices.
    Raises:
        ValueError: on a malformed formula, an omitted edge that is not in the graph or an extra edge
            with an end outside it.
    """
    sets = reduction_sets(clauses, n_variables)
    independent = set(OUTSIDE).union(*sets.values())
    independent |= {(kind, v) for v in range(1, n_variables + 1) for kind in ("h", "t", "f")}
    clique = [*sets, UNIVERSAL]
    graph = nx.Graph()
    graph.add_nodes_from(sorted(independent) + clique)
    graph.add_edges_from(itertools.combinations(clique, 2))
    graph.add_edges_from((c, u) for c, e in sets.items() for u in e)
    graph.add_edges_from((UNIVERSAL, u) for u in independent)
    for a, b in omit_edges:
        if not graph.has_edge(a, b):
            raise ValueError(f"edge {a}-{b} is not in the reduction graph")
        graph.remove_edge(a, b)
    graph.remove_nodes_from([v for v in omit_vertices if v in graph])
    for a, b in extra_edges:
        if a not in graph or b not in graph:
            raise ValueError(f"extra edge {a}-{b}: both ends must be vertices of the reduction graph")
        graph.add_edge(a, b)
    return graph


def predicted_order(clauses, n_variables: int) -> int:
    """5 n + n_occ + 8 m + 3: the number of vertices of the reduction graph (n_occ variables occur)."""
    clauses = validate_cnf(clauses, n_variables)
    n_occ = len({abs(lit) for clause in clauses for lit in clause})
    return 5 * n_variables + n_occ + 8 * len(clauses) + 3


def teaching_map_from_assignment(clauses, n_variables: int, assignment, concepts: list[frozenset]) -> list[frozenset]:
    """The teaching map of size 2 that a satisfying assignment gives, for the given list of balls.

    Each ball is recognised from its vertex set (the singletons, V, N[u] for u in I, N[c] for c in
    K); the map is built by the rules in the module docstring, without any search.
    Args:
        assignment: a bool per variable (index v - 1), satisfying the formula.
        concepts: the balls of :func:`sat_reduction_graph` (any order), as frozensets.
    Raises:
        ValueError: when the assignment does not satisfy the formula or a ball is not recognised.
    """
    clauses = validate_cnf(clauses, n_variables)
    sets = reduction_sets(clauses, n_variables)
    clique = frozenset([*sets, UNIVERSAL])
    by_neighbourhood = {clique | e: c for c, e in sets.items()}
    everything = clique.union(*sets.values(), OUTSIDE, ((kind, v) for v in range(1, n_variables + 1)
                                                        for kind in ("h", "t", "f")))
    pair: dict[tuple, frozenset] = {}
    for v in range(1, n_variables + 1):
        pair[("X", v)] = frozenset([("h", v), ("t", v) if assignment[v - 1] else ("f", v)])
        pair[("G1", v)] = frozenset([("t", v), ("f", v)])
        occ = sorted(u for u in sets[("X", v)] if u[0] == "o")
        if occ:
            pair[("G2", v)] = frozenset(occ[:2]) if len(occ) >= 2 else frozenset([("h", v), occ[0]])
    for j, clause in enumerate(clauses):
        true = [a for a, lit in enumerate(clause) if bool(assignment[abs(lit) - 1]) == (lit > 0)]
        if not true:
            raise ValueError(f"the assignment does not satisfy clause {j} {clause}")
        lit = clause[true[0]]
        pair[("C", j)] = frozenset([("f" if lit > 0 else "t", abs(lit)), ("o", abs(lit), j)])
        o = [("o", abs(lit), j) for lit in clause]
        for a in range(3):
            pair[("D", j, a)] = frozenset([o[a], ("h", abs(clause[(a + 1) % 3]))])
        pair[("Do", j)] = frozenset(o[:2])
    out = []
    for ball in concepts:
        if len(ball) == 1:
            out.append(ball)
        elif ball == everything:
            out.append(frozenset(OUTSIDE))
        elif ball in by_neighbourhood:
            out.append(pair[by_neighbourhood[ball]])
        else:
            independent = [u for u in ball if u not in clique]
            if len(independent) != 1:
                raise ValueError(f"ball {sorted(ball)} is not a ball of the reduction graph")
            out.append(frozenset([independent[0], UNIVERSAL]))
    return out


def assignment_from_map(clauses, n_variables: int, concepts: list[frozenset], teaching: list[frozenset]) -> tuple:
    """The assignment read off a teaching map: v is true iff t_v is in the teaching set of N[X_v].

    Raises:
        ValueError: when some N[X_v] is not among the concepts.
    """
    sets = reduction_sets(clauses, n_variables)
    clique = frozenset([*sets, UNIVERSAL])
    index = {c: i for i, c in enumerate(concepts)}
    out = []
    for v in range(1, n_variables + 1):
        ball = clique | sets[("X", v)]
        if ball not in index:
            raise ValueError(f"the ball N[X_{v}] is not among the concepts")
        out.append(("t", v) in teaching[index[ball]])
    return tuple(out)
