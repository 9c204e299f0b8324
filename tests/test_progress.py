"""Progress in a log: a line per unfinished task every interval, nothing when disabled."""

import io
import time

from rich.console import Console

from workbench.progress import LogProgress


def _log_console(buffer):
    return Console(file=buffer, force_terminal=False, width=200)


def test_a_log_gets_a_line_every_interval():
    buffer = io.StringIO()
    with LogProgress(console=_log_console(buffer), interval=0.05) as bar:
        task = bar.add_task("sweeps", total=10)
        bar.advance(task, 3)
        time.sleep(0.3)
    lines = [line for line in buffer.getvalue().splitlines() if "sweeps: 3/10" in line]
    assert len(lines) >= 2


def test_a_disabled_bar_prints_nothing():
    buffer = io.StringIO()
    with LogProgress(console=_log_console(buffer), interval=0.05, disable=True) as bar:
        bar.add_task("claims", total=5)
        time.sleep(0.2)
    assert buffer.getvalue() == ""
