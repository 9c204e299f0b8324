"""Mirror descent on wide shallow univariate networks (Liang & Montufar, ICLR 2025): separable
potentials, the networks, their training, and the infinite-width limits (kernel interpolant, the
function-space variational problem, the Bregman projection of scaled potentials).
"""

from .networks import (
    POTENTIALS,
    MirrorRun,
    Potential,
    abs_kernel_interpolant,
    bregman_limit,
    init_network,
    kernel_interpolant,
    mirror_descent,
    network_output,
    relu_kernel,
    variational_solution,
)

__all__ = ["POTENTIALS", "MirrorRun", "Potential", "abs_kernel_interpolant", "bregman_limit", "init_network",
           "kernel_interpolant", "mirror_descent", "network_output", "relu_kernel", "variational_solution"]
