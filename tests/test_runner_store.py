"""Runs are stored claim by claim; errors do not stop a run; interrupted runs resume."""

from __future__ import annotations

import json
import sqlite3

import pytest

import workbench
from workbench import api
from workbench.execute import run_claim
from workbench.store import Store, StoreError


def test_run_stores_every_claim_and_keeps_errors(tmp_path, toy_registry):
    s = api.run(db=tmp_path / "wb.sqlite", out=None, registry=toy_registry, progress=False)
    verdicts = {r["claim_id"]: r["verdict"] for r in s.results}
    assert verdicts == {
        "toy_paper.clt_rate": "VERIFIED",
        "toy_paper.sine_below_identity": "VERIFIED",
        "toy_paper.weak_check": "INCONCLUSIVE",  # its control is not refuted: no power
        "toy_paper.crashes": "ERROR",
    }
    assert not s.passed
    crash = next(r for r in s.results if r["claim_id"] == "toy_paper.crashes")
    assert "RuntimeError: solver failed" in crash["outcome"]["traceback"]
    run = Store(tmp_path / "wb.sqlite").run(s.run_id)
    assert run["status"] == "finished" and run["seed"] == 0 and run["profile"] == "quick"
    assert run["metadata"]["versions"]["numpy"] != "not installed" and run["metadata"]["host"]


def test_budget_turns_into_error(toy_registry):
    c = toy_registry.claims["toy_paper.clt_rate"]
    result = run_claim(c, budget=1e-3, params={"trials": 5000})
    assert result.outcome.verdict is workbench.Verdict.ERROR
    assert "budget" in result.outcome.decision.summary


def test_parameters_are_checked_before_running(toy_registry):
    c = toy_registry.claims["toy_paper.clt_rate"]
    with pytest.raises(ValueError, match="no parameter 'trails'"):
        run_claim(c, params={"trails": 10})
    with pytest.raises(ValueError, match=r"must lie in \[8"):
        run_claim(c, params={"trials": 2})


def test_interrupted_run_resumes(tmp_path, toy_registry, monkeypatch):
    db = tmp_path / "wb.sqlite"
    real = api.run_claim
    calls = []

    def interrupt_on_third(c, **kw):
        calls.append(c.id)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(c, **kw)

    monkeypatch.setattr(api, "run_claim", interrupt_on_third)
    s = api.run(db=db, out=None, registry=toy_registry, progress=False, seed=5)
    assert s.interrupted and len(s.results) == 2 and not s.passed
    assert Store(db).run(s.run_id)["status"] == "interrupted"
    monkeypatch.setattr(api, "run_claim", real)
    resumed = api.run(db=db, out=None, registry=toy_registry, progress=False, resume=True)
    assert resumed.run_id == s.run_id and len(resumed.results) == 4
    assert Store(db).run(s.run_id)["seed"] == 5
    with pytest.raises(api.UsageError, match="no unfinished run"):
        api.run(db=db, out=None, registry=toy_registry, progress=False, resume=True)


def test_history_and_previous_verdicts(tmp_path, toy_registry):
    db = tmp_path / "wb.sqlite"
    api.run(["sine_below_identity"], db=db, out=None, registry=toy_registry, progress=False)
    s2 = api.run(["sine_below_identity"], db=db, out=None, registry=toy_registry, progress=False, seed=1)
    store = Store(db)
    assert [h["seed"] for h in store.history("toy_paper.sine_below_identity")] == [0, 1]
    assert store.previous_verdicts(s2.run_id) == {"toy_paper.sine_below_identity": "VERIFIED"}


def test_corrupt_and_locked_databases_are_clear_errors(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a usable workbench database"):
        Store(bad)
    db = tmp_path / "wb.sqlite"
    Store(db).close()
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="locked"):
            Store(db, timeout=0.1).start_run(seed=0, profile="quick", jobs=1, backend="loky",
                                            selection=[], metadata={})
    finally:
        holder.rollback()
        holder.close()


def test_bad_options_raise_before_any_work(tmp_path, toy_registry):
    kw = {"db": tmp_path / "wb.sqlite", "out": None, "registry": toy_registry, "progress": False}
    for bad in ({"profile": "fast"}, {"jobs": 0}, {"seed": -1}, {"backend": "mpi"}):
        with pytest.raises(api.UsageError):
            api.run(**kw | bad)
    with pytest.raises(api.UsageError, match="did you mean"):
        api.run(["toy_papr"], **kw)
    assert not (tmp_path / "wb.sqlite").exists()


def test_results_json_is_written(tmp_path, toy_registry):
    s = api.run(["toy_paper.sine_below_identity"], db=tmp_path / "wb.sqlite", out=tmp_path / "out",
                pdf=False, registry=toy_registry, progress=False)
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["run"]["id"] == s.run_id
    (c,) = data["claims"]
    assert c["id"] == "toy_paper.sine_below_identity" and c["verdict"] == "VERIFIED"
    assert c["controls"][0]["verdict"] == "REFUTED" and c["reconstructed"] is False


def test_stored_evidence_is_bit_identical_for_one_and_two_workers(tmp_path, toy_registry):
    runs = [api.run(["clt_rate"], db=tmp_path / f"wb{j}.sqlite", out=None, registry=toy_registry,
                    progress=False, jobs=j, seed=42) for j in (1, 2)]
    ev = [[(r["outcome"]["evidence"], [c["evidence"] for c in r["controls"]]) for r in s.results] for s in runs]
    assert ev[0] == ev[1]
    assert ev[0][0][0]["costs"]  # the Monte Carlo costs themselves, not only the verdict


def test_resume_says_what_it_resumes_and_keeps_the_cache_choice(tmp_path, toy_registry, monkeypatch, capsys):
    db = tmp_path / "wb.sqlite"
    api.run(db=db, out=None, registry=toy_registry, progress=False)  # fills the cache
    real = api.run_claim
    calls = []

    def interrupt_on_second(c, **kw):
        calls.append(c.id)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(c, **kw)

    monkeypatch.setattr(api, "run_claim", interrupt_on_second)
    s = api.run(db=db, out=None, registry=toy_registry, progress=False, cache=False, seed=0)
    assert s.interrupted
    monkeypatch.setattr(api, "run_claim", real)
    resumed = api.run(db=db, out=None, registry=toy_registry, progress=True, resume=True)
    assert resumed.run_id == s.run_id
    assert resumed.resumed.startswith(f"resuming run {s.run_id} (") and "cache off as that run had it" in resumed.resumed
    assert "1 of 4 claims are stored, 3 to run" in resumed.resumed
    assert resumed.resumed in capsys.readouterr().err  # said before the work starts
    # every claim of the --no-cache run ran; none came from the cache the first run filled
    assert all(r["provenance"] != "cache" for r in resumed.results)


def test_resume_takes_no_selection(tmp_path, toy_registry, monkeypatch, capsys):
    from workbench import cli, registry

    monkeypatch.setattr(registry, "load", lambda: toy_registry)
    monkeypatch.setattr(api, "load", lambda: toy_registry)
    assert cli.main(["run", "toy_paper", "--resume", "--db", str(tmp_path / "wb.sqlite"), "-q"]) == 2
    assert "give no papers" in capsys.readouterr().err


def test_claims_are_scheduled_across_workers_with_the_same_numbers(tmp_path, monkeypatch):
    """With two workers, whole claims run on the workers (longest expected first) and every stored
    number is bit-identical to a run with one worker; the report keeps the selection's order."""
    from workbench import schedule

    selection = ["dro_dsgdc.dual_reformulation", "dro_dsgdc.eta_block_smoothness",
                 "dro_dsgdc.partially_affine_variance", "dro_dsgdc.eta_noise_variance"]
    scheduled = []
    real = schedule.parallel_unordered

    def spy(tasks, jobs, backend):
        scheduled.append((len(tasks), jobs))
        yield from real(tasks, jobs, backend)

    monkeypatch.setattr(api, "parallel_unordered", spy)
    runs = [api.run(selection, db=tmp_path / f"wb{j}.sqlite", out=None, progress=False, jobs=j, seed=7,
                    cache=False) for j in (1, 2)]
    assert scheduled == [(4, 2)]
    stored = [[(r["claim_id"], r["verdict"], r["outcome"]["evidence"], [c["evidence"] for c in r["controls"]])
               for r in s.results] for s in runs]
    assert stored[0] == stored[1]
    assert [r[0] for r in stored[1]] == selection
    assert runs[1].timings["claims"]["cpu"] > 0 and runs[1].timings["claims"]["wall"] > 0
    assert Store(tmp_path / "wb2.sqlite").run(runs[1].run_id)["metadata"]["timings"]["claims"]["cpu"] > 0


@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed:UserWarning")
def test_when_the_workers_fail_the_claims_left_run_here(tmp_path, monkeypatch):
    from workbench import schedule

    selection = ["dro_dsgdc.dual_reformulation", "dro_dsgdc.eta_block_smoothness", "dro_dsgdc.eta_noise_variance"]
    real = schedule.parallel_unordered

    def one_then_die(tasks, jobs, backend):
        for n, item in enumerate(real(tasks, jobs, backend)):
            if n == 1:
                raise RuntimeError("a worker process died")
            yield item

    monkeypatch.setattr(api, "parallel_unordered", one_then_die)
    s = api.run(selection, db=tmp_path / "wb.sqlite", out=None, progress=False, jobs=2, cache=False)
    assert sorted(r["claim_id"] for r in s.results) == sorted(selection) and s.passed
