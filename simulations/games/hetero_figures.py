"""Illustrations of the Heterogeneous Data Game (reconstruction) for the report.

Plain matplotlib functions of a parameter dict; no computation that a check relies on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .hetero_data import DataGame


def duopoly_deviation_diagram(params: dict[str, Any]):
    """Why the dominance threshold is $w_{\\max} = 2 w_{\\min}$: a provider's market share against a
    rival sitting on source 1's optimum.

    Left: the two sources' losses $\\ell_j(\\theta)$ and the outside option's loss $c$.  Right:
    the share $U(\\theta, \\mu_1)$ of the second provider as a function of its model, with the
    zero-temperature values $w_2$ (keep source 2) and $w_1 / 2$ (join on source 1).

    Args:
        params: ``tau``, ``w1`` and ``outside`` (as the claim declares them).

    Returns:
        A matplotlib Figure.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tau, w1, c = float(params["tau"]), float(params["w1"]), float(params["outside"])
    game = DataGame((w1, 1.0 - w1), (-1.0, 1.0), tau, 1.0, outside=c)
    theta = np.linspace(-game.bound, game.bound, 1201)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(7.0, 2.6))
    loss = game.loss(theta)
    ax1.plot(theta, loss[:, 0], label=r"$\ell_1$ (source 1)")
    ax1.plot(theta, loss[:, 1], label=r"$\ell_2$ (source 2)")
    ax1.axhline(c, color="0.4", ls="--", lw=1, label="outside option $c$")
    ax1.set_xlabel(r"model $\theta$")
    ax1.set_ylabel("loss")
    ax1.legend(fontsize=7, frameon=False, loc="lower center")
    share = game.utility(theta, [np.array(-1.0)])
    ax2.plot(theta, share, color="k", lw=1.2, label=r"$U(\theta, \mu_1)$")
    ax2.axhline(1.0 - w1, color="C1", ls=":", lw=1, label=r"$w_2$")
    ax2.axhline(w1 / 2.0, color="C0", ls=":", lw=1, label=r"$w_1/2$")
    ax2.set_xlabel(r"second provider's model $\theta$")
    ax2.set_ylabel("market share")
    ax2.set_title(rf"$\tau = {tau:g}$, $w_1 = {w1:g}$, $c = {c:g}$", fontsize=8)
    ax2.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    return fig
