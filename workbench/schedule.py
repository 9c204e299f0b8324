"""Scheduling whole claims (and sweep points) across worker processes, and timing the phases.

A run with ``jobs > 1`` on the loky backend hands each claim, whole, to one of ``jobs`` worker
processes, longest expected first (its time in the latest stored run, else its budget), and
stores each result as it arrives.  A claim in a worker runs its trials and maps in that worker
(``jobs=1`` inside): its random streams are keyed by identity, so every number is the same as
with one worker, or with the claim's trials spread over workers instead.  A claim of a private
registry (which worker processes cannot import) runs in this process.

:class:`PhaseClock` measures each phase of a run (claims, sweeps, figures, PDF): wall-clock
time, and CPU time of this process plus the CPU time the worker processes report for the tasks
they ran for it.
"""

from __future__ import annotations

import importlib
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .model import Claim

# loky prints "A worker stopped while some jobs were given to the executor" when it replaces a
# worker that exited (idle timeout, or a task that forked a process of its own); the run loses
# nothing.  A worker that dies with a task raises an error instead, which the runner reports.
warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given", category=UserWarning)


def find_registered(ref: Claim | tuple[str, str]) -> Claim:
    """The claim named by ``(claim id, module)`` (importing the module: in a worker process), or
    the claim itself."""
    if not isinstance(ref, tuple):
        return ref
    claim_id, module = ref
    importlib.import_module(module)
    from .model import REGISTRY

    return REGISTRY.claims[claim_id]


def claim_task(ref: Claim | tuple[str, str], profile: str, seed: int, params: dict[str, Any] | None = None,
               stream: str | None = None) -> tuple[dict[str, Any], float]:
    """Run one claim with its controls in this process (a worker), with one worker inside.

    Returns:
        (the picklable result record of :func:`workbench.execute.result_record`, the CPU seconds
        this process spent on it).
    """
    from .execute import result_record, run_claim

    cpu = time.process_time()
    result = run_claim(find_registered(ref), profile=profile, seed=seed, jobs=1, params=params, stream=stream)
    return result_record(result), time.process_time() - cpu


def longest_first(claims: list[Claim], seconds: dict[str, float]) -> list[Claim]:
    """``claims`` ordered by expected time, longest first (the expected time of a claim never run
    is its budget): the longest tasks start first, so the workers finish close together."""
    return sorted(claims, key=lambda c: -seconds.get(c.id, float(c.budget)))


def parallel_unordered(tasks: list[Any], jobs: int, backend: str) -> Iterator[tuple[int, Any]]:
    """Run joblib ``delayed`` tasks on ``jobs`` workers; yield ``(index, result)`` as each finishes.

    ``backend``: ``"loky"`` or ``"threading"`` (named here), or ``"dask"`` (configured by the
    runner with ``joblib.parallel_config``).  One task per dispatch: claims differ in length by
    orders of magnitude, and a batch would tie a short one to a long one.
    """
    import joblib

    named = {"backend": backend} if backend in ("loky", "threading") else {}
    indexed = [joblib.delayed(_indexed)(i, t) for i, t in enumerate(tasks)]
    yield from joblib.Parallel(n_jobs=jobs, return_as="generator_unordered", batch_size=1, **named)(indexed)


def _indexed(i: int, task: tuple[Callable[..., Any], tuple, dict]) -> tuple[int, Any]:
    quiet_highs_banner()
    func, args, kwargs = task
    return i, func(*args, **kwargs)


_BANNER_DONE = False


def quiet_highs_banner() -> None:
    """HiGHS writes its copyright banner to the process's standard output (file descriptor 1, past
    Python) the first time a solver object is made in a process, whatever its options.  Making that
    first object here, with descriptor 1 pointed at /dev/null, keeps the banner out of the run's log
    between claim lines; later solves in the worker print nothing.  A no-op without highspy."""
    global _BANNER_DONE
    if _BANNER_DONE:
        return
    _BANNER_DONE = True
    try:
        import highspy
    except ImportError:
        return
    import os
    import sys

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


class PhaseClock:
    """Wall-clock and CPU seconds of the phases of a run.

    ``with clock.phase("claims"):`` times a phase (CPU: this process's, all threads);
    ``clock.add_cpu("claims", s)`` adds CPU seconds that worker processes report for it.
    """

    def __init__(self) -> None:
        self.phases: dict[str, dict[str, float]] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            entry = self.phases.setdefault(name, {"wall": 0.0, "cpu": 0.0})
            entry["wall"] += time.perf_counter() - wall
            entry["cpu"] += time.process_time() - cpu

    def add_cpu(self, name: str, seconds: float) -> None:
        self.phases.setdefault(name, {"wall": 0.0, "cpu": 0.0})["cpu"] += float(seconds)

    def sentence(self) -> str:
        """See :func:`timings_sentence`."""
        return timings_sentence(self.phases)


def timings_sentence(phases: dict[str, dict[str, float]]) -> str:
    """``claims 95.0 s (CPU 180.0 s, 190 %); sweeps ...``: each phase's wall-clock time, CPU time
    and CPU use (CPU seconds per wall-clock second, up to 100 % per worker)."""
    parts = []
    for name, t in phases.items():
        use = f", {100 * t['cpu'] / t['wall']:.0f} %" if t["wall"] >= 1 else ""
        parts.append(f"{name} {t['wall']:.1f} s (CPU {t['cpu']:.1f} s{use})")
    return "; ".join(parts)
