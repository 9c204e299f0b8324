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
    online_leverage_sampling,
    sample_columns,
    sampling_probabilities,
    st_demand,
)

__all__ = [
    "barbell_with_bridges", "coherent_instance", "holder_conjugate", "incidence_matrix", "isolated_rows_instance", "lp_regression_cost_dual", "lewis_weights",
    "lp_regression_cost", "online_leverage_sampling", "sample_columns", "sampling_probabilities", "st_demand",
]
