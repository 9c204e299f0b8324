"""Benchmarks of the engine, measured side by side in one run so the ratios hold on a busy machine.

- Monte Carlo throughput with one worker, and the speed-up of two workers (target >= 1.8x on two
  cores);
- the engine's overhead: ``Context.trials`` against a bare joblib loop doing the same trials with
  the same chunks (target <= 10 %);
- a cached claim: its warm rerun (cache hit) against its cold run (target >= 20x faster);
- a dask LocalCluster against loky on the same workload;
- a full quick run (every registered claim and its declared sweeps, no cache, no report) with one
  worker and with two, side by side: wall-clock and CPU time of the whole process tree, the
  speed-up (target >= 1.7x on two cores), and whether every stored number is the same.

Timings are taken in interleaved rounds; throughputs use the best time, and ratios are the
median over rounds of the ratio within a round (both timings of a round see the same machine).
Nothing here asserts a time: the figures are printed, as a table and as JSON.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import joblib
import numpy as np
from threadpoolctl import threadpool_limits

from .context import Context, seed_sequence

TARGETS = {"speedup_2_jobs": (">=", 1.8), "engine_overhead": ("<=", 0.10), "cache_speedup": (">=", 20.0),
           "full_run_speedup": (">=", 1.7)}


def eigen_trial(rng: np.random.Generator, n: int) -> float:
    """The standard workload: the largest eigenvalue of a random symmetric n x n matrix."""
    a = rng.standard_normal((n, n))
    return float(np.linalg.eigvalsh(a + a.T)[-1])


def _bare_chunk(trials: range, n: int) -> list[float]:
    # joblib's loky backend already gives each of two workers on two cores one BLAS thread.
    return [eigen_trial(np.random.default_rng(seed_sequence(0, "bench", "trials", i)), n) for i in trials]


def _best(fn: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def _interleaved(fns: dict[str, Callable[[], Any]], repeats: int) -> dict[str, list[float]]:
    """``repeats`` timings of each function, measured in rounds (A, B, C, A, B, C, ...) so that
    a change of the machine's load affects the functions of one round alike."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def _paired_ratio(num: list[float], den: list[float]) -> float:
    """Median over rounds of ``num[i] / den[i]``: two timings of one round share the machine's
    state, so their ratio is steadier than a ratio of two separately taken minima."""
    return float(np.median(np.asarray(num) / np.asarray(den)))


def monte_carlo(trials: int, size: int, repeats: int) -> dict[str, float]:
    """Throughput with 1 and 2 workers, and the engine's overhead against bare joblib.

    Throughputs use each function's best time; the speed-up and the overhead are medians of the
    per-round ratios."""
    one = Context("bench", seed=0, jobs=1)
    two = Context("bench", seed=0, jobs=2)
    two.trials(eigen_trial, 8, size)  # start the loky workers before timing
    chunk = -(-trials // 8)  # the engine's default: four chunks per worker

    def bare() -> list[float]:
        parts = [range(i, min(i + chunk, trials)) for i in range(0, trials, chunk)]
        out = joblib.Parallel(n_jobs=2)(joblib.delayed(_bare_chunk)(p, size) for p in parts)
        return [x for p in out for x in p]

    t = _interleaved({"one": lambda: one.trials(eigen_trial, trials, size),
                      "two": lambda: two.trials(eigen_trial, trials, size), "bare": bare}, repeats)
    best = {name: min(v) for name, v in t.items()}
    same = bare() == two.trials(eigen_trial, trials, size)
    return {"trials": trials, "matrix_size": size, "seconds_1_job": best["one"], "seconds_2_jobs": best["two"],
            "trials_per_second_1_job": trials / best["one"], "trials_per_second_2_jobs": trials / best["two"],
            "speedup_2_jobs": _paired_ratio(t["one"], t["two"]), "seconds_bare_joblib": best["bare"],
            "speedup_bare_joblib": _paired_ratio(t["one"], t["bare"]),
            "engine_overhead": _paired_ratio(t["two"], t["bare"]) - 1, "same_numbers_as_bare_joblib": bool(same)}


def dask_against_loky(trials: int, size: int, repeats: int) -> dict[str, float]:
    """The same trials on a 2-process dask LocalCluster and on loky with 2 workers."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        return {"dask": "not installed"}
    loky = Context("bench", seed=0, jobs=2)
    loky.trials(eigen_trial, 8, size)
    t_loky = _best(lambda: loky.trials(eigen_trial, trials, size), repeats)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster), joblib.parallel_config(backend="dask"):
        ctx = Context("bench", seed=0, jobs=2, backend="dask")
        ctx.trials(eigen_trial, 8, size)
        t_dask = _best(lambda: ctx.trials(eigen_trial, trials, size), repeats)
        dask_numbers = ctx.trials(eigen_trial, trials, size)
    same = dask_numbers == loky.trials(eigen_trial, trials, size)
    return {"seconds_loky": t_loky, "seconds_dask_local": t_dask, "dask_over_loky": t_dask / t_loky,
            "same_numbers": bool(same)}


def cache_warm_cold(claim_id: str, repeats: int) -> dict[str, Any]:
    """A registered claim run cold (cache empty) against its warm rerun (cache hit)."""
    from .api import _run_cached
    from .cache import ResultCache
    from .registry import load

    claim = load().claims[claim_id]
    with tempfile.TemporaryDirectory() as folder:
        cache = ResultCache(Path(folder))
        kw = {"profile": "quick", "seed": 0, "jobs": 1, "backend": "loky"}
        start = time.perf_counter()
        _, first = _run_cached(claim, cache, **kw)
        cold = time.perf_counter() - start
        warm = _best(lambda: _run_cached(claim, cache, **kw), repeats)
        _, second = _run_cached(claim, cache, **kw)
    return {"claim": claim_id, "seconds_cold": cold, "seconds_warm": warm, "cache_speedup": cold / warm,
            "cold_provenance": first, "warm_provenance": second}


def timed_run(jobs: int, db: Path, selectors: list[str] | None = None, sweeps: bool = True) -> dict[str, Any]:
    """``workbench run`` in a child process (no cache, no report) on a fresh database ``db``.

    Returns the wall-clock seconds, the CPU seconds of the child and of every process it started
    and waited for (``os.wait4``: the loky workers included), their ratio, the phases' timings
    the run stored (claims, sweeps) and the run's id.
    """
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "workbench.cli", "run", *(selectors or []), "--jobs", str(jobs), "--no-cache",
           "--no-report", "--quiet", "--db", str(db)] + (["--sweeps"] if sweeps else [])
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read()
    if proc.returncode not in (0, 1):  # 1: some claim not as declared; the timing still stands
        raise RuntimeError(f"the timed run failed (exit {proc.returncode}): {stderr[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    from .store import Store

    store = Store(db)
    try:
        run = store.run()
    finally:
        store.close()
    return {"jobs": jobs, "seconds": wall, "cpu_seconds": cpu, "cpu_use": cpu / wall, "run_id": run["id"],
            "phases": run["metadata"].get("timings", {}), "claims": len(run["selection"]), "exit": proc.returncode}


def stored_numbers(db: Path) -> list[Any]:
    """Every number a run stored (each claim's and control's evidence, every sweep point's), in a
    fixed order, to compare two runs."""
    from .store import Store

    store = Store(db)
    try:
        run = store.run()
        claims = sorted((r["claim_id"], r["outcome"]["evidence"], [c["evidence"] for c in r["controls"]])
                        for r in store.results(run["id"]))
        sweeps = [(s["claim_id"], s["grid"], [(p["idx"], p["evidence"]) for p in s["points"]])
                  for s in store.latest_sweeps(sorted({c[0] for c in claims}))]
    finally:
        store.close()
    return [json.dumps(claims, sort_keys=True, default=str), json.dumps(sorted(sweeps, key=str), default=str)]


def full_run(selectors: list[str] | None = None, rounds: int = 1, sweeps: bool = True) -> dict[str, Any]:
    """A full quick run with one worker and with two, side by side (``rounds`` interleaved
    rounds; the speed-up is the median of the per-round ratios): wall-clock and CPU seconds of
    the whole run, CPU use (CPU seconds per wall-clock second: up to the number of workers), the
    speed-up, and whether both runs stored the same numbers."""
    times: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    same = True
    with tempfile.TemporaryDirectory() as folder:
        for r in range(rounds):
            dbs = {j: Path(folder) / f"round{r}-jobs{j}.sqlite" for j in (1, 2)}
            for jobs in (1, 2):
                times[jobs].append(timed_run(jobs, dbs[jobs], selectors, sweeps))
            same = same and stored_numbers(dbs[1]) == stored_numbers(dbs[2])
    best = {j: min(t, key=lambda x: x["seconds"]) for j, t in times.items()}
    return {"selection": selectors or "every registered claim", "sweeps": sweeps, "rounds": rounds,
            "seconds_1_job": best[1]["seconds"], "seconds_2_jobs": best[2]["seconds"],
            "cpu_seconds_1_job": best[1]["cpu_seconds"], "cpu_seconds_2_jobs": best[2]["cpu_seconds"],
            "cpu_use_1_job": best[1]["cpu_use"], "cpu_use_2_jobs": best[2]["cpu_use"],
            "full_run_speedup": _paired_ratio([t["seconds"] for t in times[1]], [t["seconds"] for t in times[2]]),
            "phases_1_job": best[1]["phases"], "phases_2_jobs": best[2]["phases"], "claims": best[1]["claims"],
            "same_numbers": bool(same)}


def run_benchmarks(*, trials: int = 8000, size: int = 64, repeats: int = 7,
                   cached_claim: str = "gd_generalized_smoothness.one_step_descent", full: bool = True,
                   full_selectors: list[str] | None = None, full_rounds: int = 1) -> dict[str, Any]:
    """All the measurements (the full runs unless ``full=False``); returns a JSON-ready dict with
    the targets and whether each is met."""
    import os

    results: dict[str, Any] = {"cpus": os.cpu_count()}
    with threadpool_limits(limits=1):  # as run_claim does: one BLAS thread in this process too
        results["monte_carlo"] = monte_carlo(trials, size, repeats)
    results["cache"] = cache_warm_cold(cached_claim, repeats)
    results["dask"] = dask_against_loky(trials, size, repeats)
    if full:
        results["full_run"] = full_run(full_selectors, full_rounds)
    flat = {**results["monte_carlo"], **results["cache"], **results.get("full_run", {})}
    results["targets"] = {
        name: {"value": flat[name], "target": f"{rel} {bound}",
               "met": flat[name] >= bound if rel == ">=" else flat[name] <= bound}
        for name, (rel, bound) in TARGETS.items() if name in flat
    }
    return results
