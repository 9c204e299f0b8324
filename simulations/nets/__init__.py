"""Small numpy networks with exact gradients, used by the checks.

``relu``: ReLU MLPs, their linear regions along segments and their local complexity (co-area and
Crofton estimators; Patel & Montufar, ICML 2025).
"""

from .relu import (
    ReLUNet,
    SegmentWalk,
    coarea_local_complexity,
    crofton_constant,
    crofton_counts,
    directional_slopes,
    first_layer_gaussian_lc,
    forward,
    gradient_jump_bound,
    init_relu_net,
    mean_and_standard_error,
    output_gradient,
    preactivation_gradients,
    random_segments,
    regression_task,
    restrict_to_subspace,
    smooth_total_variation,
    squared_loss_gradients,
    train_adam,
    walk_segment,
)

__all__ = [
    "ReLUNet", "SegmentWalk", "coarea_local_complexity", "crofton_constant", "crofton_counts",
    "directional_slopes", "first_layer_gaussian_lc", "forward", "gradient_jump_bound",
    "init_relu_net", "mean_and_standard_error", "output_gradient", "preactivation_gradients",
    "random_segments", "regression_task", "restrict_to_subspace", "smooth_total_variation",
    "squared_loss_gradients", "train_adam", "walk_segment",
]

# Bregman proximity operators and Bregman neural-operator layers (Mezidi et al., ICML 2025).
from .bregman import (  # noqa: E402
    bregman_divergence,
    bregman_layer,
    bregman_prox_numeric,
    classical_layer,
    fourier_operator,
    random_fourier_multiplier,
)

__all__ += [
    "bregman_divergence", "bregman_layer", "bregman_prox_numeric", "classical_layer",
    "fourier_operator", "random_fourier_multiplier",
]

# A one-layer Fourier neural operator with exact gradients (Cisneros-Velarde et al., ICML 2025).
from .operators import (  # noqa: E402
    FNO1,
    LiftedFNO,
    fno_forward,
    init_fno,
    lift,
    lifted_forward,
    lifted_gradient_descent,
    lifted_hessian_norms,
    loss_gradient,
    output_hessian_norm,
    output_hessian_norm_closed_form,
    output_hvp,
    output_scale,
    relative_kernel_change,
    sample_lifted_fno,
    tangent_kernel,
)

__all__ += [
    "FNO1", "LiftedFNO", "fno_forward", "init_fno", "lift", "lifted_forward",
    "lifted_gradient_descent", "lifted_hessian_norms", "loss_gradient", "output_hessian_norm",
    "output_hessian_norm_closed_form", "output_hvp", "output_scale", "relative_kernel_change",
    "sample_lifted_fno", "tangent_kernel",
]

# A small DeepONet with exact gradients, Hessian-vector products and Hessian block norms
# (Cisneros-Velarde et al., ICML 2025).
from .deeponet import (  # noqa: E402
    DeepONet,
    cross_block_limit,
    deeponet_forward,
    hessian_block_norms,
    hessian_block_norms_batch,
    init_deeponet,
)
from .deeponet import loss_gradient as deeponet_loss_gradient  # noqa: E402
from .deeponet import output_gradient as deeponet_output_gradient  # noqa: E402
from .deeponet import output_hessian_norm as deeponet_output_hessian_norm  # noqa: E402
from .deeponet import output_hvp as deeponet_output_hvp  # noqa: E402
from .deeponet import tangent_kernel as deeponet_tangent_kernel  # noqa: E402

__all__ += [
    "DeepONet", "cross_block_limit", "deeponet_forward", "deeponet_loss_gradient",
    "deeponet_output_gradient", "deeponet_output_hessian_norm", "deeponet_output_hvp",
    "deeponet_tangent_kernel", "hessian_block_norms", "hessian_block_norms_batch",
    "init_deeponet",
]
