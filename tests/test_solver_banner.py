"""HiGHS's banner stays out of a run's log (it is written past Python, once per process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("highspy")

SOLVE = ("import cvxpy as cp; x = cp.Variable(2, integer=True); "
         "cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0.5]).solve(solver='HIGHS'); print('solved')")


def _stdout(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def test_the_banner_is_printed_without_the_guard_and_not_with_it():
    assert "Running HiGHS" in _stdout(SOLVE)  # the library's behaviour this guards against
    quiet = _stdout("from workbench.schedule import quiet_highs_banner; quiet_highs_banner(); " + SOLVE)
    assert "Running HiGHS" not in quiet and "solved" in quiet
