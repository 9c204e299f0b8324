"""The command line: exit codes, clear errors, nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from workbench import api, cli, registry


@pytest.fixture
def toy(monkeypatch, toy_registry):
    monkeypatch.setattr(registry, "load", lambda: toy_registry)
    monkeypatch.setattr(api, "load", lambda: toy_registry)
    return toy_registry


def test_list_json(toy, capsys):
    assert cli.main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in data][:2] == ["toy_paper.clt_rate", "toy_paper.sine_below_identity"]
    assert data[0]["params"]["trials"]["quick"] == 64 and data[0]["controls"]


def test_run_exit_codes(toy, tmp_path):
    db, out = str(tmp_path / "wb.sqlite"), str(tmp_path / "out")
    assert cli.main(["run", "sine_below_identity", "--db", db, "--out", out, "--no-pdf", "-q"]) == 0
    assert cli.main(["run", "toy_paper", "--db", db, "--no-report", "-q"]) == 1
    assert cli.main(["run", "-k", "sine and not rate", "--db", db, "--no-report", "-q"]) == 0


def exit_code(argv):
    try:
        return cli.main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        return exc.code


@pytest.mark.parametrize("argv,message", [
    (["run", "toy_papr"], "did you mean toy_paper"),
    (["run", "--profile", "fast"], "invalid choice"),
    (["run", "--jobs", "0"], "jobs must be >= 1"),
    (["run", "--jobs", "two"], "whole number"),
    (["run", "--seed", "-3"], "seed must lie in"),
    (["run", "--out", "/proc/forbidden/report"], "cannot write to /proc/forbidden/report"),
    (["show", "nothing_like_it"], "no paper or claim matches"),
    (["report", "--db", "/nonexistent/wb.sqlite"], "no database at"),
    (["run", "--bogus"], "usage: workbench run"),  # the subcommand's own usage, not the general one
])
def test_usage_errors_exit_2(toy, tmp_path, capsys, argv, message):
    if argv[0] == "run":
        argv = argv + ["--db", str(tmp_path / "wb.sqlite"), "-q"]
    assert exit_code(argv) == 2
    assert message in capsys.readouterr().err


def test_unrelated_names_get_no_suggestion_and_a_missing_run_names_the_runs(toy, tmp_path, capsys):
    assert exit_code(["list", "no_such_thing_at_all"]) == 2
    err = capsys.readouterr().err
    assert "did you mean" not in err and "`workbench list` shows them all" in err
    db = str(tmp_path / "wb.sqlite")
    assert cli.main(["run", "sine_below_identity", "--db", db, "--no-report", "-q"]) == 0
    assert exit_code(["report", "--run", "99", "--db", db, "--out", str(tmp_path / "out")]) == 2
    assert "has no run 99; its runs are 1" in capsys.readouterr().err


def test_corrupt_database_exit_2_and_file_kept(toy, tmp_path, capsys):
    db = tmp_path / "wb.sqlite"
    db.write_bytes(b"garbage" * 200)
    assert cli.main(["run", "sine_below_identity", "--db", str(db), "--no-report", "-q"]) == 2
    assert "not a usable workbench database" in capsys.readouterr().err
    assert db.read_bytes() == b"garbage" * 200


def test_show_and_report_again(toy, tmp_path, capsys):
    db, out = str(tmp_path / "wb.sqlite"), tmp_path / "out"
    cli.main(["run", "sine_below_identity", "--db", db, "--no-report", "-q"])
    capsys.readouterr()
    assert cli.main(["show", "toy_paper.sine_below_identity", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "VERIFIED" in text and "negative arguments" in text and "history" in text
    assert cli.main(["report", "--db", db, "--out", str(out), "--no-pdf"]) == 0
    assert (out / "report.tex").exists() and (out / "claims.tex").exists()


def test_installed_entry_point_lists_the_papers(tmp_path):
    env = dict(os.environ, COLUMNS="200")
    proc = subprocess.run([sys.executable, "-m", "workbench.cli", "list", "--json"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    slugs = {c["paper"] for c in json.loads(proc.stdout)}
    assert {"soap_shampoo_adam", "idempotent_projection", "gd_generalized_smoothness"} <= slugs


def test_list_shows_statements_not_checked(monkeypatch, capsys):
    # tests/ is on sys.path under pytest's default import mode
    from test_sweeps import phase_registry

    reg = phase_registry()
    monkeypatch.setattr(registry, "load", lambda: reg)
    assert cli.main(["list"]) == 0
    assert "not checked (headline): Deciding the phase is NP-hard." in capsys.readouterr().out
    assert cli.main(["list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["sweeps"][1] == {"a": [-1.0, 0.0, 1.0]}


def test_new_paper_writes_a_module_that_runs_sharply_and_a_test_beside_its_package(tmp_path, monkeypatch, capsys):
    pkg = tmp_path / "my-papers" / "my_papers"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    assert cli.main(["new-paper", "template_paper", "--dir", str(pkg)]) == 0
    test_file = tmp_path / "my-papers" / "tests" / "test_template_paper.py"
    assert test_file.exists() and "import my_papers.template_paper" in test_file.read_text()
    monkeypatch.syspath_prepend(str(tmp_path / "my-papers"))
    import importlib

    from workbench import REGISTRY
    from workbench.conformance import documentation_problems
    from workbench.execute import run_claim

    importlib.import_module("my_papers.template_paper")
    try:
        claim = REGISTRY.claims["template_paper.sample_mean_error"]
        result = run_claim(claim)
        assert result.verdict.value == "VERIFIED" and result.grade == "sharp"
        assert any("REPLACE" in p for p in documentation_problems(claim))  # placeholders must be filled
    finally:
        for cid in [c for c in REGISTRY.claims if c.startswith("template_paper.")]:
            REGISTRY.remove(cid)
    assert cli.main(["new-paper", "template_paper", "--dir", str(pkg)]) == 2  # nothing overwritten
    assert "exists" in capsys.readouterr().err


def test_a_database_in_a_missing_folder_is_an_error(toy, tmp_path, capsys):
    missing = tmp_path / "no" / "such" / "dir"
    assert cli.main(["run", "sine_below_identity", "--db", str(missing / "wb.sqlite"), "-q", "--no-pdf"]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "mkdir -p" in err
    assert not (tmp_path / "no").exists() and not (tmp_path / "reports").exists()
    assert cli.main(["sweep", "clt_rate", "--grid", "trials=8", "-q", "--db", str(missing / "wb.sqlite")]) == 2


def test_the_report_goes_beside_its_database(toy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results").mkdir()
    assert cli.main(["run", "sine_below_identity", "--db", "results/wb.sqlite", "-q", "--no-pdf"]) == 0
    assert (tmp_path / "results" / "report.tex").exists() and not (tmp_path / "reports").exists()
    # the default database's folder is created where the command runs
    assert cli.main(["run", "sine_below_identity", "-q", "--no-pdf"]) == 0
    assert (tmp_path / "reports" / "workbench.sqlite").exists() and (tmp_path / "reports" / "report.tex").exists()


def test_a_run_says_how_long_each_phase_took(toy, tmp_path, capsys):
    db, out = str(tmp_path / "wb.sqlite"), str(tmp_path / "out")
    assert cli.main(["run", "sine_below_identity", "--db", db, "--out", out, "--no-pdf", "-q"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("time: ")]
    assert line and "claims " in line[0] and "figures " in line[0] and "(CPU " in line[0]
