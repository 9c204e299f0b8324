"""Games: finite normal-form games (exact pure equilibria), monotone games with payoff-perturbed
gradient dynamics, and the Heterogeneous Data Game with certificates of its pure equilibria."""

from .finite import PureEquilibrium, max_regret, pure_nash_equilibria, regrets
from .monotone import (
    ANCHOR_RULES,
    NoisyMoments,
    StrategySet,
    TwoPlayerGame,
    anchor_weight,
    bilinear_zero_sum,
    box_bilinear,
    box_exit_log_probability,
    folded_normal_mean,
    perturbed_gradient_ascent,
    project_simplex,
    rotation_closed_form,
    rotation_expected_gap,
    rotation_noisy_moments,
)

__all__ = [
    "ANCHOR_RULES", "NoisyMoments", "PureEquilibrium", "StrategySet", "TwoPlayerGame", "anchor_weight",
    "bilinear_zero_sum", "box_bilinear", "box_exit_log_probability", "folded_normal_mean", "max_regret",
    "perturbed_gradient_ascent", "project_simplex", "pure_nash_equilibria", "regrets", "rotation_closed_form",
    "rotation_expected_gap", "rotation_noisy_moments",
]

from .hetero_data import (  # noqa: E402
    CellSearch,
    DataMarket,
    LocalMaxCertificate,
    best_deviation,
    best_response_dynamics,
    certify_homogeneous_pne,
    certify_local_maximum,
    certify_no_symmetric_point_prop,
    certify_no_symmetric_point_prox,
    certify_profile,
    certify_share_below,
    concavity_radius,
    homogeneous_status,
    homogeneous_threshold,
    prop_share,
    prop_share_gradient,
    proportional_allocation,
    prox_allocation_gains,
    prox_best_response_at_truth,
    prox_share,
    share_hessian,
    split_weights,
    symmetric_duopoly_note,
)

__all__ += [
    "CellSearch", "DataMarket", "LocalMaxCertificate", "best_deviation", "best_response_dynamics",
    "certify_homogeneous_pne", "certify_no_symmetric_point_prop", "certify_no_symmetric_point_prox",
    "certify_profile", "certify_share_below", "concavity_radius", "certify_local_maximum", "prop_share_gradient", "homogeneous_status", "homogeneous_threshold",
    "prop_share", "proportional_allocation", "prox_allocation_gains", "prox_best_response_at_truth",
    "prox_share", "share_hessian", "split_weights", "symmetric_duopoly_note",
]
