"""Games: finite normal-form games (exact pure equilibria) and monotone games with
payoff-perturbed gradient dynamics and their gap functions."""

from .finite import PureEquilibrium, max_regret, pure_nash_equilibria, regrets
from .monotone import (
    StrategySet,
    TwoPlayerGame,
    bilinear_zero_sum,
    expanding_rotation,
    hard_concave_convex,
    monotonicity_violation,
    nash_conv,
    perturbed_gradient_ascent,
    project_simplex,
)

__all__ = [
    "PureEquilibrium", "StrategySet", "TwoPlayerGame", "bilinear_zero_sum", "expanding_rotation",
    "hard_concave_convex", "max_regret", "monotonicity_violation", "nash_conv",
    "perturbed_gradient_ascent", "project_simplex", "pure_nash_equilibria", "regrets",
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
