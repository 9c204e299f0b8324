"""Quantum subroutines for nonconvex optimisation, as qiskit circuits and exact emulators.

``jordan``: Jordan's gradient-estimation circuit (phase oracle and binary oracle with phase
kickback), its numpy reference and Aer simulation, with oracle queries counted on the circuit.
``emulator``: the exact product (Fejer-kernel) law of the circuit's output, boosting by the
median, and exact samplers for registers far beyond statevector sizes.
``amplitude``: canonical quantum amplitude (mean) estimation as a circuit.
``noise``: the largest oracle noise PGD tolerates (trap adversaries, bisection on the success
rate with Wilson intervals).
``smoothing``: perturbed SGD on the Gaussian smoothing with quantum (amplitude estimation over
any integer grid) or classical (sample mean) estimation of the stochastic gradient's mean.
``smoothing_noise``: the largest oracle noise (zeroth or first order) that smoothed SGD tolerates
from a strict saddle.
``sosp``: perturbed gradient descent and perturbed accelerated gradient descent driven by
counted gradient oracles (first order, finite differences, emulated Jordan), and the exact
second-order stationarity test.
"""

from .amplitude import (
    amplitude_estimation_circuit,
    classical_median_abs_error,
    count_state_preparation_calls,
    estimate_distribution,
    median_abs_error,
    qae_distributions,
)
from .diagrams import jordan_circuit_diagram
from .emulator import (
    boosting_runs,
    emulated_probabilities,
    exact_median_success,
    fejer_kernel,
    linear_phases,
    median_gradient_estimate,
    median_success,
    register_distribution,
    sample_median_outcomes,
    sample_outcomes,
    single_run_success,
    worst_case_success,
    worst_case_tails,
)
from .jordan import (
    JordanResult,
    aer_probabilities,
    aer_statevector,
    binary_oracle_unitary,
    cosine_noise,
    count_oracle_queries,
    grid_points,
    input_register_probabilities,
    jordan_circuit,
    jordan_gradient,
    kickback_circuit,
    mode_estimate,
    numpy_probabilities,
    oracle_phases,
    phase_scale,
    register_marginals,
    rounded_oracle_values,
    signed_outcome,
)
from .noise import (
    Bisection,
    bisect_threshold,
    curvature_grid_width,
    escape_trial,
    measure_threshold,
    noise_per_bin,
    pgd_log_factor,
    success_count,
    zeroth_order_noise,
)
from .smoothing import (
    SGDRun,
    SmoothedMeanEstimator,
    hoeffding_samples,
    median_runs,
    qae_grid_size,
    qae_median_estimates,
    ramp_hitting_factor,
    smoothed_moments,
    smoothed_sgd,
    smoothing_parameters,
)
from .smoothing_noise import sgd_noise_parameters, sgd_noise_threshold
from .sosp import (
    GradientOracle,
    RampSaddle,
    Run,
    is_sosp,
    pagd_parameters,
    perturbed_agd,
    perturbed_gd,
    pgd_parameters,
    quantum_oracle,
    run_to_sosp,
)

__all__ = [
    "amplitude_estimation_circuit", "classical_median_abs_error", "count_state_preparation_calls",
    "estimate_distribution", "median_abs_error", "qae_distributions",
    "boosting_runs", "emulated_probabilities", "exact_median_success", "fejer_kernel",
    "linear_phases", "median_gradient_estimate", "median_success", "register_distribution",
    "sample_median_outcomes", "sample_outcomes", "single_run_success", "worst_case_success",
    "worst_case_tails",
    "JordanResult", "aer_probabilities", "aer_statevector", "binary_oracle_unitary",
    "cosine_noise", "count_oracle_queries", "grid_points", "input_register_probabilities",
    "jordan_circuit", "jordan_gradient", "kickback_circuit", "mode_estimate",
    "numpy_probabilities", "oracle_phases", "phase_scale", "register_marginals",
    "rounded_oracle_values", "signed_outcome",
    "GradientOracle", "RampSaddle", "Run", "is_sosp", "pagd_parameters", "perturbed_agd",
    "perturbed_gd", "pgd_parameters", "quantum_oracle", "run_to_sosp",
    "Bisection", "bisect_threshold", "curvature_grid_width", "escape_trial", "measure_threshold",
    "jordan_circuit_diagram", "noise_per_bin", "pgd_log_factor", "success_count", "zeroth_order_noise",
    "SGDRun", "SmoothedMeanEstimator", "hoeffding_samples", "median_runs", "ramp_hitting_factor",
    "qae_grid_size", "qae_median_estimates", "smoothed_moments", "smoothed_sgd", "smoothing_parameters",
    "sgd_noise_parameters", "sgd_noise_threshold",
]
