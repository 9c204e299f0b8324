"""Streaming and sampling for l_p regression and l_p flows."""

from .lp_regression import (
    barbell_with_bridges,
    coherent_instance,
    holder_conjugate,
    incidence_matrix,
    lewis_weights,
    lp_regression_cost,
    sample_columns,
    sampling_probabilities,
    st_demand,
)

__all__ = [
    "barbell_with_bridges", "coherent_instance", "holder_conjugate", "incidence_matrix", "lewis_weights",
    "lp_regression_cost", "sample_columns", "sampling_probabilities", "st_demand",
]
