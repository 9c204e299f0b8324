"""Counterexample search: a true bound holds over the space, a broken control is found violating."""

from __future__ import annotations

import numpy as np
import pytest

from workbench import Bound, Identity, Paper, Param, api, claim
from workbench.model import Registry

P = Paper(slug="search_paper", title="T", authors=("A",), venue="V", year=2025, arxiv="0")


def build() -> Registry:
    reg = Registry()

    @claim(P, role="headline", source="Thm", evidence="bound", registry=reg, statement=r"$\sin(a x) \le a x$ for $x \ge 0$",
           params={"a": Param(1.0, low=0.01, high=50.0, doc="frequency"),
                   "n": Param(50, low=2, high=400, doc="grid points")})
    def sine_below_line(ctx):
        """sin(ax) <= ax on [0, 3] for every a > 0."""
        x = np.linspace(0, 3, ctx["n"])
        return Bound(np.sin(ctx["a"] * x), ctx["a"] * x, why="exact", x=x)

    @sine_below_line.control("the line lowered to 0.9 a x")
    def _(ctx):
        x = np.linspace(0, 3, ctx["n"])
        # Violated where sin(a x) > 0.9 a x, i.e. for small a x: the search must find such a point.
        return Bound(np.sin(ctx["a"] * x), 0.9 * ctx["a"] * x, why="exact", x=x)

    @claim(P, role="headline", source="Thm", evidence="identity", registry=reg, statement="$1=1$")
    def not_a_bound(ctx):
        """Not a bound."""
        return Identity(1.0, 1.0, why="x")

    return reg


def test_search_holds_and_finds_the_control_violating(tmp_path):
    s = api.search("search_paper.sine_below_line", examples=30, db=tmp_path / "wb.sqlite", registry=build())
    assert not s.claim.violated and s.claim.evaluations == 30 and s.claim.worst.margin >= 0
    (ctl,) = s.controls
    assert ctl.violated and ctl.worst.verdict == "REFUTED"
    assert s.passed and s.search_id == 1


def test_search_is_deterministic_for_a_seed(tmp_path):
    reg = build()
    a = api.search("sine_below_line", examples=15, seed=3, db=tmp_path / "a.sqlite", registry=reg)
    b = api.search("sine_below_line", examples=15, seed=3, db=tmp_path / "b.sqlite", registry=reg)
    assert a.claim.worst == b.claim.worst


def test_search_refuses_non_bound_claims(tmp_path):
    with pytest.raises(api.UsageError, match="for bound claims"):
        api.search("not_a_bound", db=tmp_path / "wb.sqlite", registry=build())
