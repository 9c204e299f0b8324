"""Unit tests of simulations.combinatorics.teaching (balls of graphs, non-clashing teaching maps)."""

from __future__ import annotations

import networkx as nx
import pytest

from simulations.combinatorics import (
    balls,
    is_non_clashing,
    positive_nctd,
    teaching_map_backtracking,
    teaching_map_ilp,
)


def test_balls_of_small_graphs_by_hand():
    # K3: three singletons and V
    assert set(balls(nx.complete_graph(3))) == {frozenset({0}), frozenset({1}), frozenset({2}), frozenset({0, 1, 2})}
    # P3 (0-1-2): {0},{1},{2},{0,1},{1,2},{0,1,2}
    assert len(balls(nx.path_graph(3))) == 6
    # C4: singletons, closed neighbourhoods (co-singletons) and V
    assert len(balls(nx.cycle_graph(4))) == 4 + 4 + 1
    # disconnected: balls stay inside components; edgeless -> singletons only
    assert set(balls(nx.empty_graph(3))) == {frozenset({0}), frozenset({1}), frozenset({2})}
    with pytest.raises(ValueError):
        balls(nx.empty_graph(0))


def test_bfs_balls_match_networkx_balls():
    from simulations.combinatorics import balls_by_bfs
    graphs = [nx.petersen_graph(), nx.path_graph(5), nx.disjoint_union(nx.cycle_graph(5), nx.star_graph(3)),
              nx.empty_graph(4), nx.complete_bipartite_graph(2, 3)]
    for g in graphs:
        assert set(balls_by_bfs(g.nodes, g.edges)) == set(balls(g))
    # by hand: path 0-1-2 has {0},{1},{2},{0,1},{1,2},{0,1,2}
    assert len(balls_by_bfs([0, 1, 2], [(0, 1), (1, 2)])) == 6


def test_clash_checker_by_hand():
    c = balls(nx.complete_graph(3))          # [{0},{1},{2},V]
    good = [frozenset({0}), frozenset({1}), frozenset({2}), frozenset({0, 1})]
    assert is_non_clashing(c, good)
    bad = good[:3] + [frozenset({0})]        # T(V) = {0} fits {0} and T({0}) fits V
    assert not is_non_clashing(c, bad)
    assert not is_non_clashing(c, [frozenset({1})] + good[1:])   # T(C) not inside C


def test_values_derived_from_the_definitions():
    # K_n (n >= 3): the balls are the singletons and V, and T(V) must leave every singleton -> 2.
    # C_2m: the balls of radius m - 1 are the sets V - {v}, so T(V) = V -> 2m.
    for n in range(3, 7):
        assert positive_nctd(nx.complete_graph(n))[0] == 2
    for m in range(2, 5):
        assert positive_nctd(nx.cycle_graph(2 * m))[0] == 2 * m
    assert positive_nctd(nx.cycle_graph(4), "backtracking")[0] == 4
    # edgeless graphs: singletons taught by themselves -> 1; one isolated vertex -> 0
    assert positive_nctd(nx.empty_graph(4))[0] == 1 and positive_nctd(nx.empty_graph(1))[0] == 0
    assert positive_nctd(nx.path_graph(4))[0] == 2
    assert positive_nctd(nx.cycle_graph(5))[0] == 3
    assert positive_nctd(nx.star_graph(4))[0] == 2


def test_infeasible_below_the_value_and_solvers_agree():
    c = balls(nx.cycle_graph(5))
    assert teaching_map_ilp(c, 2) is None and teaching_map_backtracking(c, 2) is None
    m = teaching_map_ilp(c, 3)
    assert m is not None and is_non_clashing(c, m)
    assert is_non_clashing(c, teaching_map_backtracking(c, 3))


def test_identity_map_is_always_non_clashing():
    for g in (nx.petersen_graph(), nx.path_graph(5), nx.complete_bipartite_graph(2, 3)):
        c = balls(g)
        assert is_non_clashing(c, list(c))


# ------------------------------------------------------------------ the SAT solver over undominated teaching sets
def test_sat_solver_matches_the_integer_programme_on_all_small_graphs():
    from simulations.combinatorics import teaching_map_sat
    for g in nx.graph_atlas_g()[1:53]:                      # every graph with 1 to 5 vertices
        c = balls(g)
        k_ilp = positive_nctd(g, "ilp")[0]
        assert teaching_map_sat(c, k_ilp - 1) is None if k_ilp > 0 else True
        m = teaching_map_sat(c, k_ilp)
        assert m is not None and is_non_clashing(c, m) and max(map(len, m)) <= k_ilp
    # values derived by hand (test above): K_n -> 2, C_2m -> 2m, C_5 -> 3
    assert positive_nctd(nx.cycle_graph(6), "sat")[0] == 6
    assert positive_nctd(nx.cycle_graph(5), "sat")[0] == 3
    assert positive_nctd(nx.complete_graph(7), "sat")[0] == 2


def test_dominated_candidates_removed_by_hand():
    from simulations.combinatorics import undominated_candidates
    c = balls(nx.complete_graph(3))                          # [{0},{1},{2},V]
    kept = undominated_candidates(c, 2)
    assert kept[0] == [frozenset({0})]                       # {} lies in every ball, {0} only in {0} and V
    # for V: the singletons lie in one other ball each, the pairs in none: one pair stays (equal patterns)
    assert len(kept[3]) == 1 and len(kept[3][0]) == 2
    # P3 (0-1-2): for the ball {0, 1}, {0} lies in {0} and V, {1} in three other balls, {0, 1} in V only
    p = balls(nx.path_graph(3))
    assert undominated_candidates(p, 2)[p.index(frozenset({0, 1}))] == [frozenset({0, 1})]


# ------------------------------------------------------------------ 3-CNF side (independent of the graph side)
def test_formula_families_and_brute_force_against_pysat():
    import numpy as np
    from pysat.solvers import Minisat22

    from simulations.combinatorics.cnf import (
        random_3cnf,
        satisfying_assignment,
        three_variable_formulas,
    )
    # Boolean functions of 3 variables up to the hyperoctahedral group: 22 classes (OEIS A000616), the empty one
    # excluded here
    assert len(three_variable_formulas(up_to_symmetry=True)) == 21
    formulas = three_variable_formulas(up_to_symmetry=False)
    assert len(formulas) == 255
    assert [len(f) for f in formulas if satisfying_assignment(f, 3) is None] == [8]
    rng = np.random.default_rng(3)
    for _ in range(40):
        n = int(rng.integers(3, 7))
        f = random_3cnf(rng, n, int(rng.integers(1, 6 * n)))
        with Minisat22(bootstrap_with=[list(c) for c in f]) as s:
            assert s.solve() == (satisfying_assignment(f, n) is not None)
    from simulations.combinatorics.cnf import two_level_unsatisfiable_formulas
    assert len(two_level_unsatisfiable_formulas(up_to_symmetry=False)) == 16
    classes = two_level_unsatisfiable_formulas(up_to_symmetry=True)
    assert len(classes) == 4                                 # same variable in 4, 3, 2+2 (adjacent), 2+2 (diagonal)
    for f in two_level_unsatisfiable_formulas(up_to_symmetry=False):
        with Minisat22(bootstrap_with=[list(c) for c in f]) as s:
            assert not s.solve()
        for drop in range(8):                                # minimally unsatisfiable: any clause dropped -> sat
            with Minisat22(bootstrap_with=[list(c) for i, c in enumerate(f) if i != drop]) as s:
                assert s.solve()
    with pytest.raises(ValueError):
        satisfying_assignment([(1, 1, 2)], 3)
    with pytest.raises(ValueError):
        satisfying_assignment([(1, 2, 4)], 3)


# ------------------------------------------------------------------ the reduction
def test_reduction_graph_by_hand_for_one_clause():
    from simulations.combinatorics import predicted_order, sat_reduction_graph
    g = sat_reduction_graph([(1, -2, 3)], 3)
    # I: h, t, f of 3 variables + 3 occurrence vertices + u0, w0 = 14; K: X, G1, G2 of 3 variables + C, three D,
    # Do + z = 15
    assert g.number_of_nodes() == 29 == predicted_order([(1, -2, 3)], 3)
    assert nx.diameter(g) == 2
    clause = set(g[("C", 0)]) - {n for n in g if n[0] in ("X", "G1", "G2", "C", "D", "Do", "z")}
    assert clause == {("h", 1), ("f", 1), ("o", 1, 0), ("h", 2), ("t", 2), ("o", 2, 0), ("h", 3), ("f", 3),
                      ("o", 3, 0)}
    # an unused variable has no G2 and no occurrence vertex
    assert predicted_order([(1, 2, 3)], 4) == 5 * 4 + 3 + 8 + 3


def test_reduction_both_directions_on_small_formulas():
    from simulations.combinatorics import (
        assignment_from_map,
        sat_reduction_graph,
        teaching_map_from_assignment,
        teaching_map_ilp,
        teaching_map_sat,
    )
    from simulations.combinatorics.cnf import evaluates_true
    f_sat = [(1, 2, 3), (-1, -2, 3)]
    g = sat_reduction_graph(f_sat, 3)
    c = balls(g)
    m = teaching_map_sat(c, 2)
    assert m is not None and is_non_clashing(c, m)
    assert evaluates_true(f_sat, assignment_from_map(f_sat, 3, c, m))
    assert teaching_map_ilp(c, 2) is not None                 # the HiGHS programme agrees on this graph
    for a in [(True, False, False), (False, False, True)]:     # satisfying assignments, checked by hand
        t = teaching_map_from_assignment(f_sat, 3, a, c)
        assert is_non_clashing(c, t) and max(map(len, t)) == 2
    with pytest.raises(ValueError):                            # (F, F, F) falsifies the first clause
        teaching_map_from_assignment(f_sat, 3, (False, False, False), c)
    # all 8 clauses on 3 variables: unsatisfiable, and no teaching map of size 2
    f_unsat = [tuple(s * v for s, v in zip(signs, (1, 2, 3), strict=True))
               for signs in __import__("itertools").product((1, -1), repeat=3)]
    assert teaching_map_sat(balls(sat_reduction_graph(f_unsat, 3)), 2) is None


def test_the_argument_admissible_pairs_of_the_gadgets():
    # The argument's two steps, checked on a graph: I-pairs of N[X_v] outside every proper sub-ball are exactly
    # {h, t} and {h, f}; those of N[C_j] exactly {h, o} and {s, o} of each of its three groups.
    import itertools

    from simulations.combinatorics import reduction_sets, sat_reduction_graph
    f = [(1, -2, 3), (-1, 2, 3), (1, 2, -3)]
    g = sat_reduction_graph(f, 3)
    c = balls(g)
    clique = {v for v in g if v[0] in ("X", "G1", "G2", "C", "D", "Do", "z")}
    sets = reduction_sets(f, 3)

    def free_pairs(centre):
        ball = frozenset(g[centre]) | {centre}
        subs = [b for b in c if b < ball]
        return {frozenset(p) for p in itertools.combinations(sorted(ball - clique), 2)
                if not any(set(p) <= b for b in subs)}

    for v in (1, 2, 3):
        assert free_pairs(("X", v)) == {frozenset({("h", v), ("t", v)}), frozenset({("h", v), ("f", v)})}
    expected = set()
    for lit in f[0]:
        h, s, o = ("h", abs(lit)), ("f" if lit > 0 else "t", abs(lit)), ("o", abs(lit), 0)
        expected |= {frozenset({h, o}), frozenset({s, o})}
    assert free_pairs(("C", 0)) == expected
    assert set(sets) | {("z",)} == clique


# ------------------------------------------------------------------ the family's relabellings and generators
def _models(formula, n):
    # every satisfying assignment, enumerated by Minisat with blocking clauses (independent of cnf.py)
    from pysat.solvers import Minisat22
    out = []
    with Minisat22(bootstrap_with=[list(c) for c in formula]) as s:
        while s.solve():
            model = s.get_model()
            full = {abs(x): x > 0 for x in model}
            out.append(tuple(full.get(v, False) for v in range(1, n + 1)))
            s.add_clause([-v if full.get(v, False) else v for v in range(1, n + 1)])
    return sorted(out)


def test_relabel_maps_models_by_the_stated_rule():
    import numpy as np

    from simulations.combinatorics.cnf import random_relabelling, relabel, three_variable_formulas
    # by hand: x1 -> not x3, x2 -> x1, x3 -> x2; clause 1 listed first, clause 0's literals reversed
    assert relabel([(1, -2, 3), (-1, 2, 3)], 3, [3, 1, 2], [-1, 1, 1], [1, 0], [(2, 1, 0), (0, 1, 2)]) == (
        (3, 1, 2), (2, -1, -3))
    rng = np.random.default_rng(5)
    for f in three_variable_formulas(up_to_symmetry=False)[::7]:
        perm, signs = rng.permutation(3) + 1, rng.choice([-1, 1], 3)
        g = relabel(f, 3, perm, signs)
        # b[perm[v] - 1] = a[v - 1] xor (signs[v - 1] = -1)
        image = sorted(tuple(next(a[v] != (signs[v] == -1) for v in range(3) if perm[v] == w + 1) for w in range(3))
                       for a in _models(f, 3))
        assert _models(g, 3) == image
        h = random_relabelling(rng, f, 3)
        assert len(_models(h, 3)) == len(_models(f, 3)) and len(h) == len(f)
        assert {frozenset(map(abs, c)) for c in h} <= {frozenset({1, 2, 3})}
    with pytest.raises(ValueError):
        relabel([(1, 2, 3)], 3, [1, 1, 2], [1, 1, 1])
    with pytest.raises(ValueError):
        relabel([(1, 2, 3)], 3, [1, 2, 3], [1, 0, 1])


def test_sparse_clauses_and_critical_formulas_against_minisat():
    import numpy as np

    from simulations.combinatorics.cnf import (
        all_clauses_on_three_variables,
        critical_3cnf,
        with_sparse_clauses,
    )
    rng = np.random.default_rng(2)
    n, f = with_sparse_clauses(rng, all_clauses_on_three_variables(), 3, 2)
    assert n == 7 and len(f) == 10 and _models(f, n) == []
    occurrences = [sum(abs(lit) == v for c in f for lit in c) for v in range(4, 8)]
    assert occurrences == [1, 1, 1, 1]
    assert all(sum(abs(lit) <= 3 for lit in c) == 1 for c in f[8:])
    for n in (4, 5, 6):
        for _ in range(6):
            sigma, f = critical_3cnf(rng, n)
            assert _models(f, n) == [sigma]
            for j, c in enumerate(f):
                true = [lit for lit in c if sigma[abs(lit) - 1] == (lit > 0)]
                assert len(true) in (1, 3)
                if len(true) == 1:               # deleting the only true literal leaves no model
                    g = [[lit for lit in c2 if not (i == j and lit == true[0])] for i, c2 in enumerate(f)]
                    assert _models(g, n) == []
            assert sum(len([lit for lit in c if sigma[abs(lit) - 1] == (lit > 0)]) == 1 for c in f) > len(f) / 2
    with pytest.raises(ValueError):
        critical_3cnf(rng, 3)


def test_controls_break_the_reduction_as_described():
    # the controls' mutations act on the formula as their descriptions say: "occurrence dropped" deletes a literal,
    # "forces true" / "forces false" fix a variable (graph side: SAT solver; formula side: Minisat)
    from simulations.combinatorics import sat_reduction_graph, teaching_map_sat
    f = ((1, 2, 3), (-1, 2, -3), (1, -2, 3), (-1, -2, 4))
    n = 4
    for v in range(1, n + 1):
        for value, kind in ((True, "f"), (False, "t")):
            g = sat_reduction_graph(f, n, extra_edges=((("G2", v), (kind, v)),))
            expected = bool(_models(list(f) + [(v if value else -v,) * 1], n))
            assert (teaching_map_sat(balls(g), 2) is not None) == expected
    for j, c in enumerate(f):
        for lit in c:
            g = sat_reduction_graph(f, n, omit_vertices=(("o", abs(lit), j),))
            deleted = [[x for x in c2 if not (i == j and x == lit)] for i, c2 in enumerate(f)]
            assert (teaching_map_sat(balls(g), 2) is not None) == bool(_models(deleted, n))
