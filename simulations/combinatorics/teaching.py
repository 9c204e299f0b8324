"""Positive non-clashing teaching maps for the balls of a graph.

Definitions (Chalopin, Chepoi, Mc Inerney & Ratel, COLT 2024; Ganian, Khazaliya, Mc Inerney &
Rocton, ICLR 2025): the concept class B(G) holds the distinct vertex sets of the balls
B(v, r) = {u : d(u, v) <= r}, 0 <= r <= ecc(v) (in a disconnected graph a ball stays inside the
component of its centre).  A positive teaching map assigns to each ball C a
set T(C) of its own vertices; it is non-clashing if for any two balls C != C' not both
T(C) is a subset of C' and T(C') is a subset of C.  NCTD+(B(G)) is the least k for which a
non-clashing positive map with all |T(C)| <= k exists.  Three exact solvers: a 0-1 integer
programme (HiGHS), a SAT encoding (CaDiCaL, python-sat) over undominated teaching sets, and a
backtracking search.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from scipy import optimize, sparse


def balls(graph: nx.Graph) -> list[frozenset]:
    """The distinct balls of a graph (networkx shortest paths), as frozensets, in a canonical order.

    Raises:
        ValueError: on a graph without vertices.
    """
    if graph.number_of_nodes() == 0:
        raise ValueError("the graph must have at least one vertex")
    out = set()
    for _, dist in nx.all_pairs_shortest_path_length(graph):
        for r in range(max(dist.values()) + 1):
            out.add(frozenset(u for u, du in dist.items() if du <= r))
    return sorted(out, key=lambda c: (len(c), sorted(map(str, c))))


def balls_by_bfs(vertices, edges) -> list[frozenset]:
    """The same balls from a plain vertex list and edge list, by breadth-first search written out here.

    Independent of networkx (the second exact solver uses it, so that a fault in one ball
    computation cannot pass unseen).
    """
    vertices = list(vertices)
    adjacency: dict = {v: [] for v in vertices}
    for a, b in edges:
        adjacency[a].append(b)
        adjacency[b].append(a)
    out = set()
    for centre in vertices:
        layer, seen = [centre], {centre}
        ball = {centre}
        out.add(frozenset(ball))
        while layer:
            nxt = []
            for v in layer:
                for w in adjacency[v]:
                    if w not in seen:
                        seen.add(w)
                        nxt.append(w)
            if not nxt:
                break
            ball |= set(nxt)
            out.add(frozenset(ball))
            layer = nxt
    return sorted(out, key=lambda c: (len(c), sorted(map(str, c))))


def is_non_clashing(concepts: list[frozenset], teaching: list[frozenset]) -> bool:
    """Independent O(|B|^2) check: T(C) within C for all C, and no pair with T(C) in C' and T(C') in C."""
    if any(not t <= c for c, t in zip(concepts, teaching, strict=True)):
        return False
    for i, j in itertools.combinations(range(len(concepts)), 2):
        if teaching[i] <= concepts[j] and teaching[j] <= concepts[i]:
            return False
    return True


def _candidates(concept: frozenset, k: int) -> list[frozenset]:
    items = sorted(concept, key=str)
    return [frozenset(s) for r in range(0, min(k, len(items)) + 1) for s in itertools.combinations(items, r)]


def teaching_map_ilp(concepts: list[frozenset], k: int, ignore_nested: bool = False) -> list[frozenset] | None:
    """A non-clashing positive teaching map with |T(C)| <= k, or None when none exists (HiGHS MILP).

    Variables z_{C,S} (S a subset of C, |S| <= k), one chosen per concept; for each unordered pair
    {C, C'}: sum_{S in C'} z_{C,S} + sum_{S' in C} z_{C',S'} <= 1 (not both teaching sets fit the other).

    Args:
        ignore_nested: drop the constraints of pairs with one ball inside the other (a broken
            solver, for controls).
    Raises:
        ValueError: on a solver failure other than infeasibility.
    """
    cands = [_candidates(c, k) for c in concepts]
    offset = np.cumsum([0] + [len(c) for c in cands])
    nvar = int(offset[-1])
    rows, cols, lo, hi = [], [], [], []
    r = 0
    for i, cs in enumerate(cands):                       # exactly one teaching set per concept
        rows += [r] * len(cs)
        cols += list(range(offset[i], offset[i + 1]))
        lo.append(1)
        hi.append(1)
        r += 1
    for i, j in itertools.combinations(range(len(concepts)), 2):
        if ignore_nested and (concepts[i] <= concepts[j] or concepts[j] <= concepts[i]):
            continue
        a = [offset[i] + s for s, S in enumerate(cands[i]) if S <= concepts[j]]
        b = [offset[j] + s for s, S in enumerate(cands[j]) if S <= concepts[i]]
        if a and b:
            rows += [r] * (len(a) + len(b))
            cols += a + b
            lo.append(-np.inf)
            hi.append(1)
            r += 1
    A = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(r, nvar))
    res = optimize.milp(np.zeros(nvar), constraints=optimize.LinearConstraint(A, lo, hi),
                        integrality=np.ones(nvar), bounds=optimize.Bounds(0, 1))
    if res.status == 2:
        return None
    if res.status != 0:
        raise ValueError(f"HiGHS MILP failed: {res.message}")
    x = np.round(res.x).astype(int)
    return [cands[i][int(np.argmax(x[offset[i]:offset[i + 1]]))] for i in range(len(concepts))]


def teaching_map_backtracking(concepts: list[frozenset], k: int) -> list[frozenset] | None:
    """Same question by depth-first search over teaching sets, largest concepts first, with pairwise pruning."""
    order = sorted(range(len(concepts)), key=lambda i: -len(concepts[i]))
    cands = {i: _candidates(concepts[i], k) for i in order}
    chosen: dict[int, frozenset] = {}

    def ok(i: int, s: frozenset) -> bool:
        return all(not (s <= concepts[j] and t <= concepts[i]) for j, t in chosen.items())

    def rec(pos: int) -> bool:
        if pos == len(order):
            return True
        i = order[pos]
        for s in cands[i]:
            if ok(i, s):
                chosen[i] = s
                if rec(pos + 1):
                    return True
                del chosen[i]
        return False

    return [chosen[i] for i in range(len(concepts))] if rec(0) else None


def positive_nctd(graph: nx.Graph, solver: str = "ilp", ignore_nested: bool = False) -> tuple[int, list[frozenset]]:
    """NCTD+ of the balls of a graph and an optimal map (smallest k with a map).

    The integer programme and the SAT encoding run on :func:`balls`, the backtracking search on :func:`balls_by_bfs`
    (two independent ball computations).  Each map found is re-checked with
    :func:`is_non_clashing` (unless ignore_nested).
    Args:
        solver: ``"ilp"``, ``"sat"`` or ``"backtracking"``.
    Raises:
        ValueError: on an unknown solver or a map failing the independent check.
    """
    concepts = balls(graph) if solver != "backtracking" else balls_by_bfs(graph.nodes, graph.edges)
    find = {"ilp": lambda k: teaching_map_ilp(concepts, k, ignore_nested),
            "sat": lambda k: teaching_map_sat(concepts, k),
            "backtracking": lambda k: teaching_map_backtracking(concepts, k)}.get(solver)
    if find is None:
        raise ValueError(f"unknown solver {solver!r}; use 'ilp', 'sat' or 'backtracking'")
    for k in range(0, graph.number_of_nodes() + 1):
        m = find(k)
        if m is not None:
            if not ignore_nested and not is_non_clashing(concepts, m):
                raise ValueError("the solver returned a clashing map")
            return k, m
    raise ValueError("no teaching map found up to k = n (impossible: T(C) = C is non-clashing)")


def undominated_candidates(concepts: list[frozenset], k: int, with_signatures: bool = False) -> list[list]:
    """For each concept, its candidate teaching sets (subsets of size <= k) with the dominated ones removed.

    A candidate S of C is dominated by a candidate S' of C when every other concept containing S'
    also contains S: a non-clashing map using S stays non-clashing with S' instead (a clash of C
    with C' needs T(C) inside C').  Removing dominated candidates (keeping one of each set of
    equal containment patterns) therefore leaves the answer of the decision problem unchanged;
    it removes, e.g., every candidate lying inside a proper sub-concept together with a smaller one.

    Returns:
        one list per concept (same order), each non-empty; with ``with_signatures`` its items are pairs
        (bit mask of the other concepts containing the candidate, candidate).
    """
    elements = sorted(set().union(*concepts), key=str)
    position = {e: i for i, e in enumerate(elements)}
    containing = [0] * len(elements)                     # bit b set: concept b contains the element
    for b, concept in enumerate(concepts):
        for e in concept:
            containing[position[e]] |= 1 << b
    everything = (1 << len(concepts)) - 1
    out = []
    for b, concept in enumerate(concepts):
        items = sorted(concept, key=str)
        masks = [containing[position[e]] for e in items]
        first: dict[int, tuple] = {}                     # signature -> its first candidate (as indices)
        base = everything & ~(1 << b)
        for r in range(0, min(k, len(items)) + 1):      # candidates in the order of _candidates
            if r == 2:                                   # the common case, with the first element's mask reused
                for i in range(len(items)):
                    prefix = base & masks[i]
                    for j in range(i + 1, len(items)):
                        signature = prefix & masks[j]
                        if signature not in first:
                            first[signature] = (i, j)
                continue
            for idx in itertools.combinations(range(len(items)), r):
                signature = base
                for i in idx:
                    signature &= masks[i]
                if signature not in first:
                    first[signature] = idx
        # fewest containing concepts first (stable: first occurrence), so a candidate is kept only when no
        # kept one has a signature inside its own; of equal signatures only the first is ever considered
        kept: list[tuple[int, frozenset]] = []
        for signature, idx in sorted(first.items(), key=lambda t: t[0].bit_count()):
            if not any(other & signature == other for other, _ in kept):
                kept.append((signature, frozenset(items[i] for i in idx)))
        out.append([s for _, s in kept] if not with_signatures else kept)
    return out


def teaching_map_sat(concepts: list[frozenset], k: int) -> list[frozenset] | None:
    """A non-clashing positive teaching map with |T(C)| <= k, or None when none exists (SAT, CaDiCaL).

    Exact decision procedure for concept classes of a few hundred concepts: one Boolean per
    undominated candidate (:func:`undominated_candidates`), at least one per concept, and for each
    unordered pair {C, C'} the clause "not (some chosen T(C) inside C' and some chosen T(C') inside
    C)" through two auxiliary variables.  Solved by CaDiCaL 1.5.3 (python-sat); an unsatisfiable
    answer is the solver's proof of infeasibility.

    Raises:
        ValueError: on k < 0.
    """
    from pysat.solvers import Cadical153

    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    cands = undominated_candidates(concepts, k, with_signatures=True)
    n_vars = 0
    ids: list[list[int]] = []
    clauses: list[list[int]] = []
    for cs in cands:
        ids.append(list(range(n_vars + 1, n_vars + len(cs) + 1)))
        n_vars += len(cs)
        clauses.append(list(ids[-1]))
    inside: dict[tuple[int, int], list[int]] = {}          # (b, b2): candidates of b lying inside b2
    for b, cs in enumerate(cands):
        for j, (signature, _) in enumerate(cs):
            while signature:
                low = signature & -signature
                inside.setdefault((b, low.bit_length() - 1), []).append(ids[b][j])
                signature ^= low
    for (b, b2), lits in inside.items():
        back = inside.get((b2, b))
        if b < b2 and back:
            n_vars += 2
            clauses += [[-a, n_vars - 1] for a in lits] + [[-c, n_vars] for c in back] + [[-(n_vars - 1), -n_vars]]
    with Cadical153(bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        model = {lit for lit in solver.get_model() if lit > 0}
    return [next(s for (_, s), v in zip(cs, vs, strict=True) if v in model) for cs, vs in zip(cands, ids, strict=True)]
