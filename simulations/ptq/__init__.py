"""Post-training quantization: uniform quantizers, exact optima over nested reconstruction spaces,
folding an output transform into de-quantization, and AdaRound reconstruction with or without
AdaQTransform (ICLR 2025, "From Decoupling to Adaptive Transformation: a Wider Optimization Space
for PTQ", OpenReview JElN0LJMKB)."""

from .finetune import Reconstruction, reconstruct
from .folding import fake_quant_output, fold, integer_layer, rounding_error_bound
from .quantizers import (
    mse_activation_step,
    mse_weight_steps,
    quantize_activations,
    rectified_sigmoid,
    rectified_sigmoid_grad,
    signed_grid,
    unsigned_grid,
    weight_integers,
)
from .spaces import SPACES, channel_errors, layer_optimum, rounding_candidates

__all__ = [
    "Reconstruction", "SPACES", "channel_errors", "fake_quant_output", "fold", "integer_layer", "layer_optimum",
    "mse_activation_step", "mse_weight_steps", "quantize_activations", "reconstruct", "rectified_sigmoid",
    "rectified_sigmoid_grad", "rounding_candidates", "rounding_error_bound", "signed_grid", "unsigned_grid",
    "weight_integers",
]
