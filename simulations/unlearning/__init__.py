"""Machine unlearning: ERM with output perturbation, warm-started unlearning, robust (trimmed-mean) GD."""

from .erm import (
    deletion_capacity,
    erm_sensitivity_bound,
    gradient_descent,
    iterations_to_reach,
    logistic_data,
    logistic_erm,
    logistic_gradient,
    logistic_gradient_bound,
    logistic_objective,
    logistic_smoothness,
    noisy_excess_population_risk,
    ridge_data,
    ridge_erm,
    ridge_gradient,
    ridge_gradient_bound,
    ridge_per_sample_gradients,
    ridge_smoothness,
    ridge_unlearning_excess,
    robust_gradient_descent,
    sphere_ridge_data,
    trimmed_mean,
    unlearning_distance_bound,
    unlearning_noise,
    warm_start_unlearning,
)

__all__ = [
    "deletion_capacity", "noisy_excess_population_risk", "ridge_unlearning_excess", "sphere_ridge_data",
    "erm_sensitivity_bound", "gradient_descent", "iterations_to_reach", "logistic_data", "logistic_erm", "logistic_gradient",
    "logistic_gradient_bound", "logistic_objective", "logistic_smoothness", "ridge_data", "ridge_erm",
    "ridge_gradient", "ridge_gradient_bound", "ridge_per_sample_gradients", "ridge_smoothness", "robust_gradient_descent", "trimmed_mean", "unlearning_distance_bound",
    "unlearning_noise", "warm_start_unlearning",
]
