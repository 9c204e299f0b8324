"""Optimal transport for trajectory inference: entropic OT (log-domain Sinkhorn, Gaussian closed
forms) and the PO-MFL objective with its mean-field Langevin flow on a grid (Gu, Chien &
Greenewald, ICLR 2025)."""

from .entropic import (
    SinkhornResult,
    entropic_ot_gaussian_1d,
    entropic_ot_newton,
    gaussian_coupling_cost,
    sinkhorn,
)
from .latent import (
    Grid,
    Objective,
    brownian_cost,
    constant_velocity,
    dynamics_cost,
    fokker_planck_rate,
    linearised_contraction,
    make_grid,
    mfl_run,
    mfl_step,
    stable_step,
)

__all__ = [
    "Grid", "Objective", "SinkhornResult", "brownian_cost", "constant_velocity", "dynamics_cost",
    "entropic_ot_gaussian_1d", "entropic_ot_newton", "fokker_planck_rate", "gaussian_coupling_cost", "linearised_contraction", "make_grid",
    "mfl_run", "mfl_step", "sinkhorn", "stable_step",
]
