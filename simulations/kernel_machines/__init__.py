"""Kernel machines through their box-constrained duals (Zhang & Lai, "Joker", ICML 2025).

Losses and conjugates (:mod:`.losses`), kernels and random Fourier features (:mod:`.features`),
the primal and dual as cvxpy problems (:mod:`.convex`, imported on first use: cvxpy is slow to
import and the memory measurements run in fresh processes without it), the dual block coordinate
descent with trust region (:mod:`.dbcd`) and the memory footprints of it and of solvers with an
M x M matrix (:mod:`.memory`).
"""

from .dbcd import DBCDResult, dbcd_tr
from .features import (
    FourierFeatures,
    fourier_features,
    gaussian_kernel,
    kernel_factor,
    synthetic_data,
)
from .losses import LOSS_NAMES, Loss, dual_objective, duality_gap, make_loss, primal_objective

__all__ = [
    "DBCDResult", "FourierFeatures", "LOSS_NAMES", "Loss", "dbcd_tr", "dual_objective", "dual_problem",
    "duality_gap", "fourier_features", "gaussian_kernel", "kernel_factor", "make_loss", "primal_objective",
    "primal_problem", "solve", "synthetic_data",
]


def __getattr__(name: str):
    if name in ("dual_problem", "primal_problem", "solve"):
        from . import convex

        return getattr(convex, name)
    raise AttributeError(f"module 'simulations.kernel_machines' has no attribute {name!r}")
