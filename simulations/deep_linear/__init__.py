"""Deep linear networks: deep matrix factorization by gradient descent beyond the edge of stability
(Ghosh, Kwon, Wang, Ravishankar & Qu, ICLR 2025), its Hessian at balanced minima, the balanced
scalar dynamics of one singular mode, their two-cycles and their period-doubling cascade.
"""

from .cascade import attractor_period, cycle_multiplier, feigenbaum_ratios, period_doubling_onsets
from .factorization import (
    balanced_hessian_spectrum,
    balanced_map,
    balanced_minimum,
    balancing_contraction,
    dmf_gradients,
    dmf_loss,
    end_to_end,
    gauss_newton_hessian,
    gradient_descent,
    mode_sharpness,
    paper_initialization,
    random_target,
    svs_gradient_descent,
    svs_values,
    two_period_orbit,
)

__all__ = [
    "attractor_period",
    "balanced_hessian_spectrum",
    "balanced_map",
    "balanced_minimum",
    "balancing_contraction",
    "cycle_multiplier",
    "dmf_gradients",
    "dmf_loss",
    "end_to_end",
    "feigenbaum_ratios",
    "gauss_newton_hessian",
    "gradient_descent",
    "mode_sharpness",
    "paper_initialization",
    "period_doubling_onsets",
    "random_target",
    "svs_gradient_descent",
    "svs_values",
    "two_period_orbit",
]
