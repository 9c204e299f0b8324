"""Optimisers and their preconditioners, as plain numpy functions.

``preconditioners``: Shampoo statistics and inverse roots, Adafactor's factored second moment,
Adam, and SOAP (Vyas et al., ICLR 2025).  ``matrix_regression``: a stochastic matrix
least-squares test problem and its rotated form.
``generalized_smoothness``: gradient descent under ell-smoothness with the step size of
Tyurin (ICML 2025), closed-form step sizes and test problems with certified ell.
"""

from .generalized_smoothness import (
    Problem,
    Smoothness,
    Trajectory,
    affine_power_smoothness,
    affine_smoothness,
    constant_smoothness,
    descent_guarantee_quad,
    double_well_antiderivative,
    double_well_certificate,
    double_well_problem,
    exponential_problem,
    exponential_smoothness,
    gradient_descent,
    logistic_sum_problem,
    neg_log_problem,
    one_step_mp,
    power_smoothness,
    scaled_smoothness,
    step_size_mpquad,
    step_size_quad,
    step_size_symbolic,
)
from .matrix_regression import (
    regression_batches,
    regression_gradient,
    rotate_batches,
    train_adam,
    train_published_soap,
    train_soap,
)
from .preconditioners import (
    AdamState,
    SOAPState,
    adafactor_factors,
    adafactor_in_basis_update,
    adafactor_second_moment,
    adam_in_basis_update,
    adam_init,
    adam_rounding_bound,
    adam_step,
    eigenbasis,
    least_squares_scale,
    matrix_power_psd,
    random_orthogonal,
    refresh_eigenbasis_power_qr,
    rotate,
    sample_gradients,
    shampoo_statistics,
    shampoo_update,
    soap_init,
    soap_step,
    unrotate,
)

__all__ = [
    "Problem", "Smoothness", "Trajectory", "affine_power_smoothness", "affine_smoothness",
    "constant_smoothness", "descent_guarantee_quad", "double_well_antiderivative",
    "double_well_certificate", "double_well_problem", "exponential_problem",
    "exponential_smoothness", "gradient_descent", "logistic_sum_problem", "neg_log_problem",
    "one_step_mp", "power_smoothness", "scaled_smoothness", "step_size_mpquad", "step_size_quad",
    "step_size_symbolic",
    "AdamState", "SOAPState", "adafactor_factors", "adafactor_in_basis_update",
    "adafactor_second_moment", "adam_in_basis_update", "adam_init", "adam_rounding_bound", "adam_step", "eigenbasis",
    "least_squares_scale", "matrix_power_psd", "random_orthogonal", "refresh_eigenbasis_power_qr",
    "regression_batches", "regression_gradient", "rotate", "rotate_batches", "sample_gradients",
    "shampoo_statistics", "shampoo_update", "soap_init", "soap_step", "train_adam", "train_published_soap",
    "train_soap",
    "unrotate",
]

# (L0, L1)-smooth gradient methods (Vankov et al., ICLR 2025) and performance estimation (PEPit).
from .l0l1 import (  # noqa: E402
    L0L1Problem,
    MethodRun,
    complexity_bound,
    cosh_problem,
    double_well_l0l1_problem,
    exp_square_problem,
    function_upper_bound,
    gradient_difference_bound,
    l0l1_decrease,
    l0l1_step_size,
    quartic_problem,
    run_method,
    sample_pair_inequalities,
)
from .pep import PEPResult, gradient_step, pep_worst_case  # noqa: E402

__all__ += [
    "L0L1Problem", "MethodRun", "complexity_bound", "cosh_problem", "double_well_l0l1_problem",
    "exp_square_problem", "function_upper_bound", "gradient_difference_bound", "l0l1_decrease",
    "l0l1_step_size", "quartic_problem", "run_method", "sample_pair_inequalities",
    "PEPResult", "gradient_step", "pep_worst_case",
]

# Nonlinearly preconditioned gradient methods (Oikonomidis et al., ICML 2025).
from .nonlinear_precond import (  # noqa: E402
    Reference,
    SmoothProblem,
    anisotropic_upper_bound,
    clipping_reference,
    cosh_reference,
    preconditioned_gd,
    quadratic_reference,
)

# Subset-Norm and Subspace-Momentum (Nguyen & Nguyen, ICML 2025).
from .subset_norm import (  # noqa: E402
    adagrad_coordinate_reference,
    adagrad_norm_reference,
    subset_norm_run,
    subspace_momentum_run,
)

__all__ += [
    "Reference", "SmoothProblem", "anisotropic_upper_bound", "clipping_reference", "cosh_reference",
    "preconditioned_gd", "quadratic_reference", "adagrad_coordinate_reference",
    "adagrad_norm_reference", "subset_norm_run", "subspace_momentum_run",
]

# chi-square DRO through its dual and D-SGD-C (Zhang et al., ICLR 2025); asynchronous bundle method.
from .async_bundle import abm_run, delayed_gradient_descent, distributed_logistic  # noqa: E402
from .dro import dsgdc_run, dual_derivatives, dual_minimum, primal_problem, primal_value  # noqa: E402

__all__ += [
    "abm_run", "delayed_gradient_descent", "distributed_logistic", "dsgdc_run", "dual_derivatives",
    "dual_minimum", "primal_problem", "primal_value",
]

from .rates import tightest_best_iterate  # noqa: E402

__all__ += ["tightest_best_iterate"]
