"""Diffusion sampling: stochastic localization, the sequential DDPM sampler and autospeculative decoding."""

from .autospeculation import (
    autospeculative_sampler,
    reflection_coupling,
    sequential_sampler,
    speedups,
)
from .exact_law import (
    cdf_on,
    density_of_scaled_sum,
    gaussian_cdf,
    grid_for,
    scaled_sum_cdf,
    sequential_cdf,
    sequential_density,
)
from .localization import (
    TwoPointBatch,
    TwoPointProduct,
    chain_moments,
    ddpm_to_sl,
    random_two_point_product,
    sl_scale,
    sl_time,
    sl_to_ddpm,
)

__all__ = [
    "TwoPointBatch", "TwoPointProduct", "autospeculative_sampler", "cdf_on", "chain_moments", "ddpm_to_sl", "density_of_scaled_sum",
    "gaussian_cdf", "grid_for", "scaled_sum_cdf", "sequential_cdf", "random_two_point_product", "reflection_coupling", "sequential_density",
    "sequential_sampler", "sl_scale", "sl_time", "sl_to_ddpm", "speedups",
]
