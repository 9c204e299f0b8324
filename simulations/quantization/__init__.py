"""Quantization: rate-distortion bit allocation, companded and uniform scalar quantizers, a small model."""

from .allocation import (
    convex_bit_allocation,
    greedy_integer_allocation,
    model_distortion,
    reverse_water_filling,
    weighted_am_gm,
)
from .scalar import (
    PANTER_DITE_GAUSSIAN,
    PANTER_DITE_LAPLACE,
    bennett_constant_laplace,
    companded_mse,
    companded_quantizer,
    laplace_compressor,
    laplace_expander,
    laplace_quantizer_mse,
    quantize,
    uniform_quantizer,
)

__all__ = [
    "PANTER_DITE_GAUSSIAN", "PANTER_DITE_LAPLACE", "bennett_constant_laplace", "companded_mse", "companded_quantizer",
    "convex_bit_allocation", "greedy_integer_allocation", "laplace_compressor", "laplace_expander",
    "laplace_quantizer_mse", "model_distortion", "quantize", "reverse_water_filling", "uniform_quantizer",
    "weighted_am_gm",
]
