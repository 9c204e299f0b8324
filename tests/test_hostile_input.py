"""Hostile and careless input: nothing already computed is lost, every mistake gets a message,
and no verdict comes from numbers nobody controls."""

from __future__ import annotations

import sqlite3
import textwrap
import threading

import mpmath
import numpy as np
import pytest

from workbench import Bound, Identity, Paper, Param, Proportion, api, claim, cli
from workbench.cache import CacheKey, ResultCache, package_versions
from workbench.evidence import EvidenceError, Verdict
from workbench.execute import run_claim
from workbench.model import Registry
from workbench.store import Store, StoreError

P = Paper(slug="hostile_input", title="T", authors=("A",), venue="V", year=2025, arxiv="0", not_checked=())


def _identity(ctx):
    """1 = 1."""
    return Identity(1.0, 1.0, rtol=1e-12, why="exact")


def _registry(func=_identity, **kw) -> Registry:
    reg = Registry()
    c = claim(P, role="headline", source="s", evidence=kw.pop("evidence", "identity"), statement="s", registry=reg,
              **kw)(func)
    c.control("a wrong reference")(lambda ctx: Identity(1.0, 2.0, rtol=1e-12, why="exact"))
    return reg


# ------------------------------------------------------------------ verdicts from nothing
def test_global_numpy_generator_is_an_error_in_the_claim_and_in_its_trials():
    def global_draw(ctx):
        """Draws from np.random."""
        return Identity(np.random.rand() * 0 + 1.0, 1.0, rtol=1e-12, why="exact")

    (c,) = _registry(global_draw).claims.values()
    result = run_claim(c)
    assert result.outcome.verdict is Verdict.ERROR and "global generator" in result.outcome.decision.summary

    def global_in_trials(ctx):
        """Draws from np.random inside trials."""
        values = ctx.trials(_global_trial, 8)
        return Identity(np.mean(values) * 0 + 1.0, 1.0, rtol=1e-12, why="exact")

    (c,) = _registry(global_in_trials).claims.values()
    for jobs in (1, 2):
        result = run_claim(c, jobs=jobs)
        assert result.outcome.verdict is Verdict.ERROR and "global generator" in result.outcome.decision.summary


def _global_trial(rng):
    return np.random.normal()


def test_evidence_fields_are_validated():
    with pytest.raises(EvidenceError, match="successes"):
        Proportion(11, 10, 0.5, why="x")
    with pytest.raises(EvidenceError, match="whole number"):
        Proportion(2.5, 10, 0.5, why="x")
    with pytest.raises(EvidenceError, match="level"):
        Proportion(5, 10, 0.5, level=1.5, why="x")
    with pytest.raises(EvidenceError, match="probability"):
        Proportion(5, 10, float("nan"), why="x")
    with pytest.raises(EvidenceError, match="attained"):
        Bound([1.0], [2.0], attained=2.0, why="x")


def _mp_digits(x):
    with mpmath.workdps(50):
        return mpmath.nstr(mpmath.sqrt(mpmath.mpf(x)), 45)


def test_a_fifty_digit_claim_gives_the_same_evidence_on_every_backend():
    def digits(ctx):
        """sqrt(2) and sqrt(3) to 45 digits, in mapped tasks."""
        values = ctx.map(_mp_digits, [2, 3, 5, 7, 11, 13])
        return Identity([len(v) for v in values], [46] * 6, why="exact digit counts")

    (c,) = _registry(digits).claims.values()
    before = mpmath.mp.prec
    records = [run_claim(c, jobs=2, backend=b).outcome.evidence for b in ("loky", "threading")]
    records.append(run_claim(c, jobs=1).outcome.evidence)
    assert records[0] == records[1] == records[2]
    assert mpmath.mp.prec == before  # no claim leaves its precision behind


def test_precision_set_by_a_claim_is_restored():
    def sets_precision(ctx):
        """Leaves mpmath at 80 digits."""
        mpmath.mp.dps = 80
        return Identity(1.0, 1.0, rtol=1e-12, why="exact")

    (c,) = _registry(sets_precision).claims.values()
    before = mpmath.mp.prec
    run_claim(c)
    assert mpmath.mp.prec == before


# ------------------------------------------------------------------ the store, the cache, the report
def test_a_cache_that_cannot_be_written_costs_no_result(tmp_path, monkeypatch, capsys):
    import joblib.memory

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(joblib.memory.MemorizedFunc, "call", refuse)
    summary = api.run(db=tmp_path / "wb.sqlite", out=None, registry=_registry(), progress=False)
    assert summary.passed and len(summary.results) == 1
    assert "cannot be written" in capsys.readouterr().err
    store = Store(tmp_path / "wb.sqlite")
    try:
        assert store.run(summary.run_id)["status"] == "finished"
    finally:
        store.close()


def test_cache_write_failure_is_a_warning(tmp_path):
    messages = []
    cache = ResultCache(tmp_path / "cache", warn=messages.append)
    (c,) = _registry().claims.values()
    key = CacheKey.of(c, "quick", 0, {})

    def boom(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    cache._entry.call = boom
    assert cache.store(key, {"x": 1}) is False
    assert messages and "cannot be written" in messages[0]
    assert cache.lookup(key)[0] is None


def test_a_run_stopped_by_an_unexpected_failure_is_not_left_running(tmp_path, monkeypatch):
    def fail(self, *args, **kwargs):
        raise RuntimeError("disk vanished")

    monkeypatch.setattr(Store, "record", fail)
    with pytest.raises(RuntimeError, match="disk vanished"):
        api.run(db=tmp_path / "wb.sqlite", out=None, registry=_registry(), progress=False, cache=False)
    monkeypatch.undo()
    store = Store(tmp_path / "wb.sqlite")
    try:
        assert store.run()["status"] == "interrupted"
    finally:
        store.close()


def test_an_unwritable_report_folder_keeps_the_results(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "figures").write_text("a file where the figures folder should be")
    summary = api.run(db=tmp_path / "wb.sqlite", out=out, registry=_registry(), progress=False)
    assert len(summary.results) == 1 and summary.results[0]["verdict"] == "VERIFIED"
    assert any("cannot write the report" in m and "workbench report --run" in m for m in summary.messages)


def test_db_naming_a_folder_or_an_unopenable_file_is_a_clear_error(tmp_path, monkeypatch, capsys):
    assert cli.main(["run", "soap_shampoo_adam", "--db", str(tmp_path), "--no-report", "-q"]) == 2
    assert "is a folder, not a database file" in capsys.readouterr().err

    def unopenable(*args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite3, "connect", unopenable)
    with pytest.raises(StoreError, match="cannot create or open the database"):
        Store(tmp_path / "ro" / "wb.sqlite")


@pytest.mark.parametrize("address, hint", [("not-a-url", "tcp://HOST:PORT"), ("http://127.0.0.1:8787", "dashboard")])
def test_scheduler_addresses_are_checked_before_work(address, hint, capsys, tmp_path):
    code = cli.main(["run", "soap_shampoo_adam", "--scheduler", address, "--db", str(tmp_path / "wb.sqlite"),
                     "--no-report", "-q"])
    assert code == 2 and hint in capsys.readouterr().err


def test_a_nan_grid_value_is_refused(tmp_path):
    reg = _registry(lambda ctx: Identity(1.0, 1.0, rtol=1e-12, why="exact"),
                    params={"c": Param(1.0, low=0.0, high=2.0, doc="a constant")})
    (c,) = reg.claims.values()
    with pytest.raises(api.UsageError, match="finite"):
        api.sweep(c.id, {"c": [float("nan")]}, db=tmp_path / "wb.sqlite", out=None, registry=reg, progress=False)


def _thread_name(ctx):
    """Reports the thread it runs in."""
    return Identity(1.0, 1.0, rtol=1e-12, why="exact", finding=threading.current_thread().name)


def test_sweeps_run_on_the_chosen_backend(tmp_path, monkeypatch):
    # This test module imports mpmath, which would keep its claims off threads: not the point here.
    monkeypatch.setattr("workbench.sweeps.uses_mpmath", lambda claim: False)
    reg = _registry(_thread_name, params={"c": Param(1.0, low=0.0, high=2.0, doc="a constant")})
    (c,) = reg.claims.values()
    summary = api.sweep(c.id, {"c": [0.5, 1.0, 1.5, 2.0]}, jobs=2, backend="threading", db=tmp_path / "wb.sqlite",
                        out=None, registry=reg, progress=False, cache=False)
    names = {p.result.outcome.evidence["finding"] for p in summary.points}
    assert names and "MainThread" not in names


def test_solvers_are_in_the_provenance_and_the_cache_key():
    versions = package_versions()
    assert {"clarabel", "scs", "highspy", "PEPit"} <= set(versions)
    (c,) = _registry().claims.values()
    assert "clarabel" in CacheKey.of(c, "quick", 0, {}).versions
    assert "clarabel" in api.run_metadata(1, "loky")["versions"]


# ------------------------------------------------------------------ broken paper packages
def test_a_broken_paper_module_is_skipped_and_the_others_load(tmp_path, monkeypatch):
    pkg = tmp_path / "wbhostile_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (tmp_path / "wbhostile_shared.py").write_text("from workbench.model import Registry\nREG = Registry()\n")
    good = textwrap.dedent('''
        from workbench import Identity, Paper, claim
        from wbhostile_shared import REG
        P = Paper(slug="{slug}", title="T", authors=("A",), venue="V", year=2025, arxiv="0", not_checked=())

        @claim(P, role="headline", source="s", evidence="identity", statement="s", registry=REG)
        def {name}(ctx):
            """1 = 1."""
            return Identity(1.0, 1.0, rtol=1e-12, why="exact")
    ''')
    (pkg / "a_good.py").write_text(good.format(slug="good_paper", name="one"))
    (pkg / "b_broken.py").write_text(good.format(slug="broken_paper", name="two") + "\nraise RuntimeError('oops')\n")
    (pkg / "c_duplicate.py").write_text(good.format(slug="good_paper", name="three").replace('title="T"', 'title="U"'))
    (pkg / "d_syntax.py").write_text("def (:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import wbhostile_shared

    from workbench.registry import import_tree

    errors = import_tree("wbhostile_pkg", registry=wbhostile_shared.REG)
    assert list(wbhostile_shared.REG.claims) == ["good_paper.one"]
    assert list(wbhostile_shared.REG.papers) == ["good_paper"]
    text = "\n".join(errors)
    assert "b_broken" in text and "oops" in text
    assert "c_duplicate" in text and "slug" in text
    assert "d_syntax" in text and "SyntaxError" in text


def test_provenance_names_the_paper_packages_and_what_the_claims_import():
    from workbench.registry import load

    claims = [c for c in load().claims.values() if c.paper.slug == "nonlinear_precond_gd"]
    meta = api.run_metadata(1, "loky", claims)
    assert meta["versions"]["PEPit"] != "not installed"
    assert meta["paper_packages"]["theorems"]["distribution"] == "workbench"
    assert "git_revision" in meta["paper_packages"]["theorems"]
