"""Positive non-clashing teaching maps for the balls of a graph.

Definitions (Chalopin, Chepoi, Mc Inerney & Ratel, COLT 2024; Ganian, Khazaliya, Mc Inerney &
Rocton, ICLR 2025): the concept class B(G) holds the distinct vertex sets of the balls
B(v, r) = {u : d(u, v) <= r}, 0 <= r <= ecc(v) (in a disconnected graph a ball stays inside the
component of its centre).  A positive teaching map assigns to each ball C a
set T(C) of its own vertices; it is non-clashing if for any two balls C != C' not both
T(C) is a subset of C' and T(C') is a subset of C.  NCTD+(B(G)) is the least k for which a
non-clashing positive map with all |T(C)| <= k exists.  Two exact solvers: a 0-1 integer
programme (HiGHS) and a backtracking search.
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

    The integer programme runs on :func:`balls`, the backtracking search on :func:`balls_by_bfs`
    (two independent ball computations).  Each map found is re-checked with
    :func:`is_non_clashing` (unless ignore_nested).
    Args:
        solver: ``"ilp"`` or ``"backtracking"``.
    Raises:
        ValueError: on an unknown solver or a map failing the independent check.
    """
    concepts = balls(graph) if solver == "ilp" else balls_by_bfs(graph.nodes, graph.edges)
    find = {"ilp": lambda k: teaching_map_ilp(concepts, k, ignore_nested),
            "backtracking": lambda k: teaching_map_backtracking(concepts, k)}.get(solver)
    if find is None:
        raise ValueError(f"unknown solver {solver!r}; use 'ilp' or 'backtracking'")
    for k in range(0, graph.number_of_nodes() + 1):
        m = find(k)
        if m is not None:
            if not ignore_nested and not is_non_clashing(concepts, m):
                raise ValueError("the solver returned a clashing map")
            return k, m
    raise ValueError("no teaching map found up to k = n (impossible: T(C) = C is non-clashing)")
