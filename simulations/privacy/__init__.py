"""Differential privacy: mechanisms and calibration, Rényi divergences, exact and statistical audits."""

from .audit import (
    MembershipAudit,
    dp_tpr_bound,
    exact_privacy_loss,
    gaussian_tradeoff_tpr,
    hockey_stick_divergence,
    membership_inference_audit,
)
from .mechanisms import (
    exponential_mechanism,
    exponential_mechanism_probabilities,
    gaussian_delta,
    gaussian_mechanism,
    gaussian_mechanism_sigma,
    laplace_mechanism,
    laplace_scale,
    randomized_response_probabilities,
)
from .renyi import gaussian_sigma_for_renyi, renyi_divergence_gaussians, renyi_to_dp

__all__ = [
    "MembershipAudit", "dp_tpr_bound", "gaussian_tradeoff_tpr", "exact_privacy_loss", "hockey_stick_divergence",
    "membership_inference_audit", "exponential_mechanism", "exponential_mechanism_probabilities",
    "gaussian_delta", "gaussian_mechanism", "gaussian_mechanism_sigma", "laplace_mechanism", "laplace_scale",
    "randomized_response_probabilities", "gaussian_sigma_for_renyi", "renyi_divergence_gaussians", "renyi_to_dp",
]
from .composition import (  # noqa: E402
    advanced_composition,
    ann_copies_needed,
    ann_failure_probability,
    copies_needed,
    correct_answer_probability,
    per_query_epsilon,
    vote_aggregation_probabilities,
    vote_neighbours,
)

__all__ += [
    "ann_copies_needed", "ann_failure_probability",
    "advanced_composition", "copies_needed", "correct_answer_probability", "per_query_epsilon",
    "vote_aggregation_probabilities", "vote_neighbours",
]
from .adaptive_ann import (  # noqa: E402
    AttackRun,
    copy_error_probability,
    invalid_radius_limit,
    predicted_attack_probes,
    private_epsilon0,
    run_attack,
)

__all__ += ["AttackRun", "copy_error_probability", "invalid_radius_limit", "predicted_attack_probes",
            "private_epsilon0", "run_attack"]
