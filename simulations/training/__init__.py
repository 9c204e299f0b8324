"""Training dynamics in numpy: gradient propagation along residual paths, local losses, LoRA
loss landscapes and optimisation trajectories.

``highway``: backpropagation through residual-type sequential models, its decomposition over
paths and the Highway-BP iteration (Fagnou et al., ICLR 2025).
"""

from .highway import (
    KINDS,
    ResidualModel,
    absolute_backprop,
    Trace,
    backprop,
    cumsumprod_scan,
    fixed_point_iteration,
    forward,
    highway_bp,
    init_model,
    layer_forward,
    parameter_gradients,
    path_sum,
    path_sums_by_blocks,
    relative_error,
    residual_accumulation,
    rounding_allowance,
    total_loss,
)

__all__ = [
    "KINDS", "ResidualModel", "Trace", "absolute_backprop", "backprop", "cumsumprod_scan", "fixed_point_iteration", "forward",
    "highway_bp", "init_model", "layer_forward", "parameter_gradients", "path_sum", "path_sums_by_blocks", "relative_error",
    "residual_accumulation", "rounding_allowance", "total_loss",
]
