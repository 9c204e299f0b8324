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
