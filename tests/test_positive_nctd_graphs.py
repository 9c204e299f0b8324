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
    with pytest.raises(ValueError):
        balls(nx.empty_graph(3))


def test_clash_checker_by_hand():
    c = balls(nx.complete_graph(3))          # [{0},{1},{2},V]
    good = [frozenset({0}), frozenset({1}), frozenset({2}), frozenset({0, 1})]
    assert is_non_clashing(c, good)
    bad = good[:3] + [frozenset({0})]        # T(V) = {0} fits {0} and T({0}) fits V
    assert not is_non_clashing(c, bad)
    assert not is_non_clashing(c, [frozenset({1})] + good[1:])   # T(C) not inside C


def test_values_from_the_literature_pilot():
    # Values derived from the definitions: K_n -> 2, C_2m -> 2m; small graphs cross-checked
    assert positive_nctd(nx.complete_graph(4))[0] == 2
    assert positive_nctd(nx.cycle_graph(6))[0] == 6
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
