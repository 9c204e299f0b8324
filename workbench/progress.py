"""Progress bars for the long phases of a run, on a terminal and in a log.

On a terminal, rich draws a live bar.  When standard error is not a terminal (a CI log, a file,
a pipe), rich draws nothing until the end, so :class:`LogProgress` prints a plain line for every
unfinished task every ``interval`` seconds instead: no phase of a run stays silent in a log.
"""

from __future__ import annotations

import threading
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

HEARTBEAT_SECONDS = 10.0


class LogProgress(Progress):
    """A rich :class:`~rich.progress.Progress` that, on a console that is not a terminal, prints
    ``description: done/total (elapsed s)`` for each unfinished task every ``interval`` seconds."""

    def __init__(self, *columns: Any, interval: float = HEARTBEAT_SECONDS, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self._interval = interval
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        super().start()
        if not self.disable and not self.console.is_terminal:
            self._stopped.clear()
            self._thread = threading.Thread(target=self._beat, name="workbench-progress", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join(timeout=1.0)
            self._thread = None
        super().stop()

    def _beat(self) -> None:
        while not self._stopped.wait(self._interval):
            for task in self.tasks:
                if task.finished or not task.visible:
                    continue
                total = f"/{task.total:.0f}" if task.total else ""
                self.console.print(f"  {task.description}: {task.completed:.0f}{total} "
                                   f"({task.elapsed or 0.0:.0f} s)", highlight=False, markup=False)


def progress_bar(enabled: bool, interval: float = HEARTBEAT_SECONDS) -> LogProgress:
    """A progress bar on standard error (description, bar, done/total, elapsed time), transient on
    a terminal and a line every ``interval`` seconds in a log; nothing at all when not ``enabled``."""
    console = Console(stderr=True, quiet=not enabled, soft_wrap=True)  # long lines stay whole in logs
    return LogProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=console, transient=True, disable=not enabled, interval=interval)
