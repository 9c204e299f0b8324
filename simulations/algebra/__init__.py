"""Matrix algebra behind the checks: iterations on matrices, their derivatives, generators.

``idempotent``: McWeeny purification ``K <- 3K^2 - 2K^3`` (Jensen & Vicary, ICML 2025).
"""

from .idempotent import (
    MCWEENY_COEFFS,
    IterationResult,
    frechet_eigenvalue_error_bound,
    idempotency_error,
    idempotent_from_basis,
    iterate_map,
    linear_map_matrix,
    matrix_polynomial,
    mcweeny_frechet,
    mcweeny_frechet_matrix,
    mcweeny_scalar,
    mcweeny_scalar_derivative,
    mcweeny_step,
    polynomial_frechet,
    polynomial_frechet_matrix,
    quadratic_ratios,
    random_eigenbasis,
    random_idempotent,
    random_orthogonal_projector,
    relaxed_mcweeny_step,
    similar_diagonal,
    spectral_projector,
    symbolic_idempotent,
    symmetric_perturbation,
    unvec,
    vec,
)

__all__ = [
    "MCWEENY_COEFFS", "IterationResult", "frechet_eigenvalue_error_bound",
    "idempotency_error", "idempotent_from_basis",
    "iterate_map", "linear_map_matrix", "matrix_polynomial", "mcweeny_frechet",
    "mcweeny_frechet_matrix", "mcweeny_scalar", "mcweeny_scalar_derivative", "mcweeny_step",
    "polynomial_frechet", "polynomial_frechet_matrix", "quadratic_ratios", "random_eigenbasis", "random_idempotent",
    "random_orthogonal_projector", "relaxed_mcweeny_step", "similar_diagonal",
    "spectral_projector", "symbolic_idempotent", "symmetric_perturbation", "unvec", "vec",
]

# Neurovarieties of polynomial networks (Kileel, Trager & Bruna 2019; Marchetti et al., ICML 2025).
from .neurovariety import (  # noqa: E402
    AH_SPORADIC,
    DEFAULT_PRIME,
    DimensionResult,
    NumericalRank,
    activation_threshold_bound,
    alexander_hirschowitz_dimension,
    ambient_dimension,
    architectures,
    bottleneck_dimension,
    certified_rank,
    coefficient_jacobian,
    coefficient_map,
    composition_upper_bound,
    expected_neurovariety_dimension,
    first_bottleneck,
    is_alexander_hirschowitz_defective,
    is_equi_width,
    known_dimension,
    linear_network_dimension,
    monomial_exponents,
    network_forward,
    neurovariety_dimension,
    numerical_rank,
    output_degree,
    parameter_count,
    random_inputs,
    random_weights,
    rank_mod_p,
    rank_rational,
    sample_jacobian,
    switch_off_neuron,
    vandermonde,
)

__all__ += [
    "AH_SPORADIC", "DEFAULT_PRIME", "DimensionResult", "NumericalRank", "activation_threshold_bound",
    "alexander_hirschowitz_dimension", "ambient_dimension", "architectures", "bottleneck_dimension",
    "certified_rank", "coefficient_jacobian", "coefficient_map", "composition_upper_bound",
    "expected_neurovariety_dimension", "first_bottleneck", "is_alexander_hirschowitz_defective",
    "is_equi_width", "known_dimension", "linear_network_dimension", "monomial_exponents",
    "network_forward", "neurovariety_dimension", "numerical_rank", "output_degree",
    "parameter_count", "random_inputs", "random_weights", "rank_mod_p", "rank_rational",
    "sample_jacobian", "switch_off_neuron", "vandermonde",
]

# Cauchy-Schwarz regularizers (Taner, Wang & Studer, ICLR 2025).
from .cauchy_schwarz import (  # noqa: E402
    REGULARIZERS,
    binary_gradient,
    binary_regularizer,
    cs_value,
    eigenvector_gradient,
    eigenvector_regularizer,
    fixed_scale_gradient,
    fixed_scale_penalty,
    lagrange_sum_of_squares,
    one_sided_gradient,
    one_sided_regularizer,
    orthogonal_gradient,
    orthogonal_regularizer,
    symbolic_pair,
    symbolic_regularizer,
    ternary_gradient,
    ternary_regularizer,
)

__all__ += [
    "REGULARIZERS", "binary_gradient", "binary_regularizer", "cs_value", "eigenvector_gradient",
    "eigenvector_regularizer", "fixed_scale_gradient", "fixed_scale_penalty",
    "lagrange_sum_of_squares", "one_sided_gradient", "one_sided_regularizer",
    "orthogonal_gradient", "orthogonal_regularizer", "symbolic_pair", "symbolic_regularizer",
    "ternary_gradient", "ternary_regularizer",
]
