"""Shared fixtures: a toy registry of claims with known outcomes, kept out of the global one."""

from __future__ import annotations

import numpy as np
import pytest

from workbench import Bound, Identity, Paper, Param, Rate, claim
from workbench.model import Registry

TOY = Paper(slug="toy_paper", title="A toy paper on $x^2$ & co_1", authors=("A. Author",),
            venue="ICML 2025", year=2025, arxiv="2401.00001")


def mean_abs(rng: np.random.Generator, n: int) -> float:
    return float(abs(rng.normal(size=n).mean()))


def build_toy_registry() -> Registry:
    reg = Registry()

    @claim(TOY, role="headline", source="Theorem 1", evidence="rate", registry=reg,
           statement=r"$\mathbb{E}|\bar X_n| = \sqrt{2/(\pi n)}$",
           params={"trials": Param(64, full=400, low=8, high=10_000, doc="Monte Carlo trials per size")})
    def clt_rate(ctx):
        """The mean absolute error of a Gaussian sample mean decays as $n^{-1/2}$."""
        sizes = [4, 16, 64, 256]
        costs = [np.mean(ctx.trials(mean_abs, ctx["trials"], n, label=f"n={n}")) for n in sizes]
        return Rate(sizes, costs, exponent=-0.5, tolerance=0.0, max_halfwidth=0.2,
                    why="Monte Carlo error at 64 trials per size")

    @clt_rate.control("claimed exponent -1 instead of -1/2")
    def _(ctx):
        sizes = [4, 16, 64, 256]
        costs = [np.mean(ctx.trials(mean_abs, ctx["trials"], n, label=f"n={n}")) for n in sizes]
        return Rate(sizes, costs, exponent=-1.0, why="Monte Carlo error at 64 trials per size")

    @claim(TOY, role="headline", source="Prop. 2", evidence="bound", registry=reg, statement=r"$\sin x \le x$ for $x \ge 0$")
    def sine_below_identity(ctx):
        """Sine lies below the identity on the half-line."""
        x = np.linspace(0, 10, 101)
        return Bound(np.sin(x), x, why="exact comparison of floats", x=x)

    @sine_below_identity.control("negative arguments")
    def _(ctx):
        x = np.linspace(-10, 0, 101)
        return Bound(np.sin(x), x, why="exact comparison of floats", x=x)

    @claim(TOY, role="headline", source="Prop. 3", evidence="identity", registry=reg, statement=r"$1 = 1$")
    def weak_check(ctx):
        """A check whose control cannot fail: it has no power."""
        return Identity(1.0, 1.0, why="exact")

    @weak_check.control("nothing really broken")
    def _(ctx):
        return Identity(1.0, 1.0, why="exact")

    @claim(TOY, role="headline", source="Prop. 4", evidence="identity", registry=reg, statement=r"$0 = 0$")
    def crashes(ctx):
        """A check that raises."""
        raise RuntimeError("solver failed & gave up_here")

    @crashes.control("n/a")
    def _(ctx):
        return Identity(0.0, 1.0, why="exact")

    return reg


@pytest.fixture
def toy_registry() -> Registry:
    return build_toy_registry()
