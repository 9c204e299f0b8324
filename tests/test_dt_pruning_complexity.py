"""Unit tests of simulations.combinatorics.decision_trees on hand-built trees."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.combinatorics import (
    Tree,
    antichain_count,
    brute_force_raising,
    brute_force_replacement,
    greedy_replacement,
    nested_errors,
    optimal_replacement_dp,
    predict,
    raising_box_dp,
    raising_neighbours,
    random_examples,
    random_tree,
    replacement_errors,
    to_nested,
)


def _hand_tree() -> Tree:
    # node 0: x0 <= 0 ? node 1 : node 2 ; node 1: x1 <= 0 ? leaf3(0) : leaf4(1) ; node 2: leaf(1)
    # arrays in preorder: 0, 1, 3->idx2, 4->idx3, 2->idx4
    return Tree(feature=np.array([0, 1, -1, -1, -1]), threshold=np.array([0, 0, 0, 0, 0]),
                left=np.array([1, 2, -1, -1, -1]), right=np.array([4, 3, -1, -1, -1]),
                label=np.array([0, 0, 0, 1, 1]))


X = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [0, 1]])
Y = np.array([1, 1, 0, 0, 1, 0])


def test_predict_and_errors_by_hand():
    np.testing.assert_array_equal(predict(_hand_tree(), X), [0, 1, 1, 1, 0, 1])
    # mistakes: rows 0, 2, 3, 4, 5 -> 5 errors
    assert replacement_errors(_hand_tree(), X, Y, []) == 5
    # replace node 1 (rows 0,1,4,5 with labels 1,1,1,0 -> majority 1, 1 error); node 2 leaf 1 on rows 2,3 -> 2 errors
    assert replacement_errors(_hand_tree(), X, Y, [1]) == 3
    # replace the root: labels 1,1,0,0,1,0 -> 3 errors
    assert replacement_errors(_hand_tree(), X, Y, [0]) == 3
    assert nested_errors(to_nested(_hand_tree()), X, Y) == 5


def test_replacement_dp_hand_values():
    res = optimal_replacement_dp(_hand_tree(), X, Y, 2)
    np.testing.assert_array_equal(res.best, [5, 3, 3])
    np.testing.assert_array_equal(brute_force_replacement(_hand_tree(), X, Y, 2), [5, 3, 3])


def test_raising_hand_values():
    t = to_nested(_hand_tree())
    # raising at the root gives subtree(1) or leaf(1); raising at node 1 gives leaf(0) or leaf(1) below the root
    assert len(raising_neighbours(t)) == 4
    # leaf(1) everywhere: errors = number of zeros = 3; subtree(1) for all rows: predictions 0,1,0,1,0,1 -> 3 errors
    np.testing.assert_array_equal(brute_force_raising(_hand_tree(), X, Y, 2), [5, 3, 3])
    np.testing.assert_array_equal(raising_box_dp(_hand_tree(), X, Y, 2, domain=2).best, [5, 3, 3])


def test_antichain_counts_follow_the_recursion():
    # complete trees of height h: a(h) = a(h-1)^2 + 1 with a(0) = 1: 2, 5, 26, 677
    rng = np.random.default_rng(0)
    assert [antichain_count(random_tree(rng, h, 2, 4)) for h in range(1, 5)] == [2, 5, 26, 677]


@pytest.mark.parametrize("h", [2, 3, 5, 7])
def test_replacement_work_on_complete_trees(h):
    rng = np.random.default_rng(h)
    tree = random_tree(rng, h, 3, 8)
    Xr, yr = random_examples(rng, tree, 30, 3, 8)
    n = tree.n_nodes
    assert optimal_replacement_dp(tree, Xr, yr, len(tree.inner_nodes())).operations == (n * n - 1) // 8


def test_greedy_is_never_better_than_the_optimum():
    rng = np.random.default_rng(3)
    for _ in range(20):
        tree = random_tree(rng, 3, 2, 4, leaf_probability=0.2)
        Xr, yr = random_examples(rng, random_tree(rng, 3, 2, 4), 30, 2, 4)
        assert np.all(greedy_replacement(tree, Xr, yr, 3) >= optimal_replacement_dp(tree, Xr, yr, 3).best)


def test_box_dp_state_count_within_box_bound():
    rng = np.random.default_rng(4)
    tree = random_tree(rng, 3, 2, 5)
    Xr, yr = random_examples(rng, tree, 40, 2, 5)
    res = raising_box_dp(tree, Xr, yr, 2, domain=5)
    assert res.states <= tree.n_nodes * (5 * 6 // 2) ** 2


def test_bad_inputs():
    with pytest.raises(ValueError):
        random_tree(np.random.default_rng(0), 2, 0, 4)
    with pytest.raises(ValueError):
        optimal_replacement_dp(_hand_tree(), X, Y, -1)


# ----------------------------------------------------------------------------- state space and the reduction
def test_interval_count_closed_form():
    from simulations.combinatorics import interval_count
    # D = 3: intervals [0,0],[1,1],[2,2],[0,1],[1,2],[0,2] -> 6 per feature
    assert interval_count(3, 1) == 6 and interval_count(3, 2) == 36 and interval_count(4, 3) == 1000
    assert interval_count(5, 2) <= 5 ** 4
    with pytest.raises(ValueError):
        interval_count(0, 1)


def test_caterpillar_structure_and_boxes_by_hand():
    from simulations.combinatorics import caterpillar_tree
    t = caterpillar_tree(2, 1)
    # two spine tests x0 <= 0 (continue left, then continue right) and the bottom leaf
    assert t.n_nodes == 5 and t.inner_nodes() == [0, 2]
    assert (t.left[0], t.right[0]) == (2, 1) and (t.left[2], t.right[2]) == (3, 4)
    X, y = np.array([[0], [1]]), np.array([0, 1])
    res = raising_box_dp(t, X, y, 2, 2)
    # boxes reaching the bottom: none of the tests kept ([0,1]), the first ([0,0]), the second ([1,1]),
    # both (empty: not a state) -> 3 = D(D+1)/2
    assert res.extra["boxes_per_node"][4] == 3
    t3 = caterpillar_tree(3, 2)
    assert t3.n_nodes == 2 * (2 * 2 * 2) + 1


def test_clique_reduction_by_hand():
    from simulations.combinatorics import clique_raising_instance
    # triangle: three raisings delete every test: 0 errors = m - 3; two raisings keep one test: 2 errors = m - 1
    tree, X, y = clique_raising_instance([(0, 1), (1, 2), (0, 2)], 3)
    assert tree.n_nodes == 7 and X.shape == (3, 3) and y.tolist() == [1, 1, 1]
    np.testing.assert_array_equal(brute_force_raising(tree, X, y, 3), [3, 3, 2, 0])
    # path 0-1-2: deleting {0, 1} or {1, 2} frees one edge; the two edges need all three tests gone
    tree, X, y = clique_raising_instance([(0, 1), (1, 2)], 3)
    np.testing.assert_array_equal(brute_force_raising(tree, X, y, 3), [2, 2, 1, 0])
    with pytest.raises(ValueError):
        clique_raising_instance([(0, 0)], 2)
