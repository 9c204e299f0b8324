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
