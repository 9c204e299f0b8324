"""Training dynamics in numpy: gradient propagation along residual paths, local losses, LoRA
loss landscapes and optimisation trajectories.

``highway``: backpropagation through residual-type sequential models, its decomposition over
paths and the Highway-BP iteration (Fagnou et al., ICLR 2025).
``lora``: the LoRA objective with weight decay, certified second-order stationary points, the
restricted strong convexity and smoothness constants, and tight instances of spurious points
(Kim, Kim & Ryu, ICML 2025).
``trajectories``: trajectory maps and the oscillation of successive gradient-descent updates on
quadratics (Singh et al., ICLR 2025).
``local_loss``: local-loss training with a BP-modified offset in the linear-Gaussian model, its exact
stationary excess loss and a Monte Carlo of the algorithm (Ren & Li, ICLR 2025).
"""

from .highway import (
    KINDS,
    ResidualModel,
    Trace,
    absolute_backprop,
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

from .lora import (  # noqa: E402
    CriticalPoint,
    DoubleWellLoss,
    LandscapeConstants,
    QuadraticLoss,
    SpuriousInstance,
    balanced_factors,
    certify,
    distance_bound,
    feasibility,
    find_critical_point,
    gradient_descent,
    lora_hessian,
    lora_value_grad,
    nuclear_prox_solve,
    optimality_residual,
    quadratic_constants,
    random_quadratic,
    random_rotation,
    rank_one_rayleigh_max,
    ratio_bound_terms,
    reachable_along,
    regularised_value,
    smallest_feasible_q,
    spurious_instance,
    t_min,
)

__all__ += [
    "CriticalPoint", "DoubleWellLoss", "LandscapeConstants", "QuadraticLoss", "SpuriousInstance",
    "balanced_factors", "certify", "distance_bound", "feasibility", "find_critical_point", "gradient_descent",
    "lora_hessian", "lora_value_grad", "nuclear_prox_solve", "optimality_residual", "quadratic_constants",
    "random_quadratic", "random_rotation", "rank_one_rayleigh_max", "ratio_bound_terms", "reachable_along",
    "regularised_value", "smallest_feasible_q", "spurious_instance", "t_min",
]

from .trajectories import (  # noqa: E402
    gd_updates,
    limit_sign,
    mean_directional_similarity,
    oscillation_threshold,
    random_walk_mds,
    steps_to_resolve,
    successive_cosine_closed_form,
    successive_cosines,
    trajectory_map,
)

__all__ += [
    "gd_updates", "limit_sign", "mean_directional_similarity", "oscillation_threshold", "random_walk_mds",
    "steps_to_resolve", "successive_cosine_closed_form", "successive_cosines", "trajectory_map",
]

from .local_loss import (  # noqa: E402
    LocalLossModel,
    LocalNet,
    bias_term,
    block_gradients,
    excess_loss,
    global_loss,
    init_local_net,
    offset_variance,
    optimal_alpha,
    random_model,
    simulate_excess,
    stationary_mean_offset,
    teacher_regression,
    train_local,
    white_variance,
)

__all__ += [
    "LocalLossModel", "LocalNet", "bias_term", "block_gradients", "excess_loss", "global_loss", "init_local_net",
    "offset_variance", "optimal_alpha", "random_model", "simulate_excess", "stationary_mean_offset",
    "teacher_regression", "train_local", "white_variance",
]
