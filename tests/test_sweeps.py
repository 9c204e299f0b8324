"""Sweeps: grid checked before work, points stored, verdict changes found, figure drawn."""

from __future__ import annotations

import numpy as np
import pytest

from workbench import Bound, Identity, Paper, Param, api, claim, cli
from workbench.model import Registry
from workbench.store import Store
from workbench.sweeps import grid_points, transitions

P = Paper(slug="sweep_paper", title="T", authors=("A",), venue="V", year=2025, arxiv="0")


def build() -> Registry:
    reg = Registry()

    @claim(P, role="headline", source="Thm", evidence="bound", registry=reg, statement="$x^2 \\\\le c$ on $[0, 1]$",
           params={"c": Param(1.0, low=0.0, high=10.0, doc="the claimed bound"),
                   "n": Param(11, low=2, high=1000, doc="grid points")})
    def square_below_c(ctx):
        """x^2 stays below c on the unit interval (true exactly when c >= 1)."""
        x = np.linspace(0, 1, ctx["n"])
        return Bound(x**2, ctx["c"], why="exact", x=x)

    @square_below_c.control("c shrunk by half")
    def _(ctx):
        x = np.linspace(0, 1, ctx["n"])
        return Bound(x**2, ctx["c"] / 2, why="exact", x=x)

    return reg


def test_grid_product_and_transitions():
    grid = {"a": [1, 2], "b": ["x", "y", "z"]}
    assert grid_points(grid)[:3] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"}]
    verdicts = {(1, "x"): "V", (1, "y"): "V", (1, "z"): "R", (2, "x"): "V", (2, "y"): "V", (2, "z"): "V"}
    points = [({"a": a, "b": b}, v) for (a, b), v in verdicts.items()]
    assert transitions(grid, points) == ["a: R at 1 -> V at 2 (with b = z)", "b: V at y -> R at z (with a = 1)"]


def test_sweep_finds_where_the_hypothesis_stops_holding(tmp_path):
    reg = build()
    s = api.sweep("square_below_c", {"c": [0.5, 0.9, 1.0, 2.0], "n": [5, 21]}, db=tmp_path / "wb.sqlite",
                  out=tmp_path, registry=reg, progress=False)
    assert [p.claim_verdict for p in s.points] == ["REFUTED"] * 4 + ["VERIFIED"] * 4
    assert s.transitions == ["c: REFUTED at 0.9 -> VERIFIED at 1.0 (with n = 5)",
                             "c: REFUTED at 0.9 -> VERIFIED at 1.0 (with n = 21)"]
    stored = Store(tmp_path / "wb.sqlite").sweep(s.sweep_id)
    assert len(stored["points"]) == 8 and stored["grid"] == {"c": [0.5, 0.9, 1.0, 2.0], "n": [5, 21]}
    assert s.figure.exists()


@pytest.mark.parametrize("grid,message", [
    (["cc=1,2"], "has no parameter 'cc'; it declares: c (the claimed bound), n (grid points)"),
    (["c=1,abc"], "parameter 'c' takes a float, not 'abc'"),
    (["c=20"], "must lie in [0.0, 10.0]"),
    (["c"], "a grid is NAME=V1,V2"),
    (["c=1", "c=2"], "given twice"),
])
def test_bad_grids_fail_before_any_work(tmp_path, grid, message):
    with pytest.raises(api.UsageError) as exc:
        api.sweep("square_below_c", grid, db=tmp_path / "wb.sqlite", registry=build(), progress=False)
    assert message in str(exc.value)
    assert not (tmp_path / "wb.sqlite").exists()


def test_trials_needs_a_trials_parameter(tmp_path):
    with pytest.raises(api.UsageError, match="declares no 'trials' parameter"):
        api.sweep("square_below_c", ["c=1"], trials=10, db=tmp_path / "wb.sqlite", registry=build(), progress=False)


def test_sweep_of_a_registered_claim_in_parallel_matches_sequential(tmp_path):
    grid = ["lr=0.02,0.05"]
    kw = {"out": None, "progress": False, "seed": 4}
    claim_id = "soap_shampoo_adam.soap_is_adam_in_rotated_coordinates"
    one = api.sweep(claim_id, grid, db=tmp_path / "a.sqlite", jobs=1, **kw)
    two = api.sweep(claim_id, grid, db=tmp_path / "b.sqlite", jobs=2, **kw)
    assert [p.result.outcome.evidence for p in one.points] == [p.result.outcome.evidence for p in two.points]
    assert all(p.claim_verdict == "VERIFIED" for p in one.points)


def test_cli_sweep(tmp_path, capsys, monkeypatch):
    from workbench import registry

    reg = build()
    monkeypatch.setattr(registry, "load", lambda: reg)
    monkeypatch.setattr(api, "load", lambda: reg)
    code = cli.main(["sweep", "sweep_paper.square_below_c", "--grid", "c=0.5,2", "--db", str(tmp_path / "wb.sqlite"),
                     "--out", str(tmp_path), "-q"])
    assert code == 0
    out = capsys.readouterr().out
    assert "c: REFUTED at 0.5 -> VERIFIED at 2.0" in out and "sweep-1.pdf" in out
    code = cli.main(["sweep", "sweep_paper.square_below_c", "--grid", "d=1", "--db", str(tmp_path / "wb.sqlite")])
    assert code == 2


PHASES = Paper(slug="phase_paper", title="Phases", authors=("A",), venue="V", year=2025,
               not_checked=(("Deciding the phase is NP-hard.", "hardness is not a computation on instances",
                             "headline"),))


def _unit_square(params):
    """The unit square whose corners the claim checks."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1, 1, 0, 0], [0, 0, 1, 1, 0])
    return fig


def phase_registry() -> Registry:
    reg = Registry()

    @claim(PHASES, role="headline", source="Prop. 1", evidence="identity", registry=reg, statement="the phase of $(a, b)$",
           params={"a": Param(0.0, low=-1.0, high=1.0, doc="first coordinate"),
                   "b": Param(0.0, low=-1.0, high=1.0, doc="second coordinate")},
           sweeps=({"a": [-0.5, 0.5], "b": [-0.5, 0.5]}, {"a": [-1, 0, 1]}), diagram=_unit_square)
    def phase_by_sign(ctx):
        """The phase is the sign pattern of the point."""
        a, b = ctx["a"], ctx["b"]
        return Identity(float(a * b >= 0), 1.0, why="exact", finding="same signs" if a * b >= 0 else "opposite signs")

    @phase_by_sign.control("the sign of b flipped")
    def _(ctx):
        return Identity(float(-ctx["a"] * ctx["b"] > 0), 1.0, why="exact")

    return reg


def test_declared_grids_are_checked_when_the_claim_is_defined():
    from workbench.model import ClaimDefinitionError

    with pytest.raises(ClaimDefinitionError, match="not a declared parameter"):
        claim(P, role="headline", source="s", evidence="bound", statement="s", registry=Registry(), sweeps=({"z": [1]},),
              params={"c": Param(1.0)})(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError, match=r"must lie in \[0.0, 1.0\]"):
        claim(P, role="headline", source="s", evidence="bound", statement="s", registry=Registry(), sweeps=({"c": [2.0]},),
              params={"c": Param(1.0, low=0.0, high=1.0)})(lambda ctx: None)
    with pytest.raises(ClaimDefinitionError, match="not_checked entry"):
        Paper(slug="x", title="T", authors=("A",), venue="V", year=2025, not_checked=(("only a statement",),))


def test_run_with_declared_sweeps_draws_findings_diagram_and_unchecked_statements(tmp_path, monkeypatch):
    reg = phase_registry()
    kw = {"db": tmp_path / "wb.sqlite", "out": tmp_path / "out", "registry": reg, "progress": False}
    summary = api.run(sweeps=True, pdf=False, **kw)
    store = Store(tmp_path / "wb.sqlite")
    sweeps = store.latest_sweeps(["phase_paper.phase_by_sign"])
    assert [sw["grid"] for sw in sweeps] == [{"a": [-0.5, 0.5], "b": [-0.5, 0.5]}, {"a": [-1.0, 0.0, 1.0]}]
    assert [p["evidence"]["finding"] for p in sweeps[0]["points"]] == \
        ["same signs", "opposite signs", "opposite signs", "same signs"]
    assert [p["claim_verdict"] for p in sweeps[1]["points"]] == ["VERIFIED"] * 3
    tex = summary.report["tex"].read_text()
    assert "Deciding the phase is NP-hard." in tex and "hardness is not a computation" in tex
    assert "diagram-phase-paper-phase-by-sign.pdf" in tex and "The unit square whose corners" in tex
    assert tex.count("sweep-") == 2 and "Finding:" in tex
    # The second run takes every point from the cache: nothing runs, the stored evidence is the same.
    from workbench import sweeps as sweeps_module

    monkeypatch.setattr(sweeps_module, "_run_point", lambda *a: pytest.fail("a cached point ran again"))
    api.run(sweeps=True, pdf=False, **kw)
    again = store.latest_sweeps(["phase_paper.phase_by_sign"])
    assert [sw["id"] for sw in again] != [sw["id"] for sw in sweeps]
    assert [p["evidence"] for sw in again for p in sw["points"]] == [p["evidence"] for sw in sweeps for p in sw["points"]]


def test_a_report_of_an_earlier_run_shows_the_sweeps_of_that_run(tmp_path):
    """`workbench report --run N` reproduces run N: a sweep stored after the run is not in it."""
    reg = build()
    db = tmp_path / "wb.sqlite"
    first = api.sweep("square_below_c", {"c": [0.5, 2.0]}, db=db, out=None, registry=reg, progress=False)
    run = api.run(["square_below_c"], db=db, out=None, registry=reg, progress=False)
    later = api.sweep("square_below_c", {"c": [0.5, 2.0]}, db=db, out=None, registry=reg, progress=False)
    assert later.sweep_id > first.sweep_id
    from workbench.report import write_report

    store = Store(db)
    try:
        paths, _ = write_report(store, run.run_id, tmp_path / "again", pdf=False, registry=reg)
        tex = paths["tex"].read_text()
        assert f"Sweep {first.sweep_id} " in tex and f"Sweep {later.sweep_id} " not in tex
        newer = api.run(["square_below_c"], db=db, out=None, registry=reg, progress=False)
        paths, _ = write_report(store, newer.run_id, tmp_path / "newer", pdf=False, registry=reg)
        assert f"Sweep {later.sweep_id} " in paths["tex"].read_text()
    finally:
        store.close()
