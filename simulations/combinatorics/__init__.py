"""Combinatorics: decision-tree pruning (replacement, raising) and teaching sets of balls in graphs."""

from .decision_trees import (
    DPResult,
    Tree,
    antichain_count,
    brute_force_raising,
    brute_force_replacement,
    caterpillar_tree,
    clique_raising_instance,
    greedy_replacement,
    interval_count,
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

__all__ = [
    "DPResult", "Tree", "antichain_count", "brute_force_raising", "brute_force_replacement",
    "caterpillar_tree", "clique_raising_instance", "greedy_replacement", "interval_count", "nested_errors", "optimal_replacement_dp", "predict", "raising_box_dp",
    "raising_neighbours", "random_examples", "random_tree", "replacement_errors", "to_nested",
]
from .teaching import (  # noqa: E402
    balls,
    balls_by_bfs,
    is_non_clashing,
    positive_nctd,
    teaching_map_backtracking,
    teaching_map_ilp,
    teaching_map_sat,
    undominated_candidates,
)
from .teaching_reduction import (  # noqa: E402
    assignment_from_map,
    predicted_order,
    reduction_sets,
    sat_reduction_graph,
    teaching_map_from_assignment,
)

__all__ += ["balls", "balls_by_bfs", "is_non_clashing", "positive_nctd", "teaching_map_backtracking", "teaching_map_ilp",
            "teaching_map_sat", "undominated_candidates", "assignment_from_map", "predicted_order", "reduction_sets",
            "sat_reduction_graph", "teaching_map_from_assignment"]
