"""The set-up scripts: every step says what it does while it runs, and a failure shows why."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def step(tmp_path, command: str, heartbeat: str = "1") -> subprocess.CompletedProcess:
    script = f'source "{ROOT}/scripts/setup-lib.sh"; wb_step "downloading things" "{tmp_path}/step.log" {command}'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "WB_HEARTBEAT": heartbeat})


def test_a_long_step_says_what_it_is_doing_while_it_runs(tmp_path):
    proc = step(tmp_path, "bash -c 'for i in 1 2 3 4 5 6; do echo \"fetching part $i\"; sleep 0.5; done'", "0.7")
    lines = proc.stderr.splitlines()
    assert proc.returncode == 0 and lines[0] == "workbench setup: downloading things ..."
    progress = [line for line in lines[1:-1] if "downloading things:" in line]
    assert progress and any("(fetching part" in line for line in progress)  # the last line of its log
    assert lines[-1].startswith("workbench setup:   downloading things: done in ")


def test_a_failing_step_shows_the_end_of_its_log(tmp_path):
    proc = step(tmp_path, "bash -c 'echo resolving; echo \"error: no matching distribution\"; exit 3'", "30")
    assert proc.returncode == 3
    assert "failed (status 3)" in proc.stderr and "error: no matching distribution" in proc.stderr


def test_the_install_uses_uv_with_pip_as_the_fallback():
    text = (ROOT / "scripts" / "setup.sh").read_text()
    assert '"$uv" pip install --python "$WB_VENV/bin/python" -e "$WB_ROOT[test,dask,lint]"' in text
    assert 'installing the packages with pip' in text and "WB_INSTALLER" in text
    assert "xdist" in (ROOT / "pyproject.toml").read_text() and "-n" in (ROOT / "scripts" / "test").read_text()
