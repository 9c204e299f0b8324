"""Games: finite normal-form games (exact pure equilibria) and monotone games with
payoff-perturbed gradient dynamics and their gap functions."""

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
    DataGame,
    NonExistence,
    best_response,
    certify_no_pure_equilibrium,
    continuous_regret,
    duopoly_payoffs,
    grid_equilibria,
    phase_diagram,
    refine_equilibrium,
    regime,
)

__all__ += [
    "DataGame", "NonExistence", "best_response", "certify_no_pure_equilibrium", "continuous_regret",
    "duopoly_payoffs", "grid_equilibria", "phase_diagram", "refine_equilibrium", "regime",
]

from .hetero_data import (  # noqa: E402
    RegimeCertificate,
    certify_regime,
    monopoly_optimum,
    refine_profile,
    regret_bounds,
    service_radius,
    sup_outside,
    zero_temperature_monopoly,
    zero_temperature_regime,
    zero_temperature_splits,
)

__all__ += [
    "RegimeCertificate", "certify_regime", "monopoly_optimum", "refine_profile", "regret_bounds",
    "service_radius", "sup_outside", "zero_temperature_monopoly", "zero_temperature_regime",
    "zero_temperature_splits",
]
