"""Streaming and sampling for l_p regression and l_p flows."""

from .lp_regression import (
    barbell_with_bridges,
    coherent_instance,
    holder_conjugate,
    incidence_matrix,
    isolated_rows_instance,
    lewis_weights,
    lp_regression_cost,
    lp_regression_cost_dual,
    sample_columns,
    sampling_probabilities,
    st_demand,
)
from .online_sampling import (
    clustered_edge_stream,
    cut_indicators,
    cut_weights,
    edge_weight_matrix,
    form_deviation,
    inverse_sqrt_gram,
    l2_cost_ratio_range,
    linf_cost_ratio_range,
    online_lewis_sampling,
    online_weights,
    pair_ids,
    random_edge_stream,
    ratio_error,
    smallest_budget,
)

__all__ = [
    "barbell_with_bridges", "clustered_edge_stream", "coherent_instance", "cut_indicators", "cut_weights", "edge_weight_matrix", "form_deviation",
    "holder_conjugate", "incidence_matrix", "inverse_sqrt_gram", "isolated_rows_instance", "l2_cost_ratio_range",
    "lewis_weights", "linf_cost_ratio_range", "lp_regression_cost", "lp_regression_cost_dual",
    "online_lewis_sampling", "online_weights", "pair_ids", "random_edge_stream", "ratio_error", "sample_columns",
    "sampling_probabilities", "smallest_budget", "st_demand",
]
