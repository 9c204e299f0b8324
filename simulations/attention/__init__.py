"""Attention heads and their training dynamics (Qi et al., "Taming Transformer Without Using Learning
Rate Warmup", ICLR 2025): the logit Jacobian and its rank, spectral energy concentration, attention
entropy and its lower bound, and the AdamW^2 learning-rate rule.
"""

from .model import attention_forward, attention_loss_grads, teacher_task, train_attention
from .spectral import (
    adamw2_step,
    entropy_lower_bound,
    logit_jacobian,
    logit_jacobian_by_basis,
    power_iteration_sigma,
    row_entropies,
    softmax_rows,
    spectral_energy_concentration,
)

__all__ = ["adamw2_step", "attention_forward", "attention_loss_grads", "entropy_lower_bound", "logit_jacobian",
           "logit_jacobian_by_basis", "power_iteration_sigma", "row_entropies", "softmax_rows",
           "spectral_energy_concentration", "teacher_task", "train_attention"]
