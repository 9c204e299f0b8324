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


def test_search_stays_inside_the_hypotheses_and_keeps_failure_reasons(tmp_path):
    """The sweep range of a may go beyond the theorem (a <= 1 here); the search explores the
    hypothesis range only. Failed instances keep their reasons, and warnings are counted, not
    printed."""
    reg = Registry()
    seen = []

    @claim(P, role="headline", source="Thm", evidence="bound", registry=reg, statement=r"$a x \le x$ for $a \le 1$",
           params={"a": Param(0.5, low=0.0, high=3.0, hypothesis=(0.0, 1.0), doc="slope")})
    def slope_at_most_one(ctx):
        """a x <= x on [0, 1] when a <= 1."""
        if ":" not in ctx.claim_id:  # the claim's own search, not its control's
            seen.append(ctx["a"])
        if 0.9 < ctx["a"] <= 1.0:
            raise ValueError("slopes above 0.9 are not simulated")
        np.exp(np.array([1000.0]))  # an overflow warning
        x = np.linspace(0, 1, 11)
        return Bound(ctx["a"] * x, x, why="exact")

    slope_at_most_one.control("slope 2, outside the hypothesis", params={"a": 2.0})
    s = api.search("slope_at_most_one", examples=25, db=tmp_path / "wb.sqlite", registry=reg)
    assert max(seen) <= 1.0 + 1e-12 and not s.claim.violated
    assert s.claim.errors > 0 and any("not simulated" in r for r in s.claim.failures)
    assert "could not be evaluated" in s.claim.sentence() and "not simulated" in s.claim.sentence()
    assert any("overflow" in w for w in s.claim.warnings)
    (ctl,) = s.controls
    assert ctl.violated  # the override a = 2 applies in the search of the control


def test_a_hypothesis_range_outside_the_parameter_range_is_refused():
    from workbench.model import ClaimDefinitionError

    with pytest.raises(ClaimDefinitionError, match="hypothesis range"):
        Param(0.5, low=0.0, high=1.0, hypothesis=(0.0, 2.0), doc="x")
