"""Benchmarks of the engine, measured side by side in one run so the ratios hold on a busy machine.

- Monte Carlo throughput with one worker, and the speed-up of two workers (target >= 1.8x on two
  cores);
- the engine's overhead: ``Context.trials`` against a bare joblib loop doing the same trials with
  the same chunks (target <= 10 %);
- a cached claim: its warm rerun (cache hit) against its cold run (target >= 20x faster);
- a dask LocalCluster against loky on the same workload.

Timings are taken in interleaved rounds; throughputs use the best time, and ratios are the
median over rounds of the ratio within a round (both timings of a round see the same machine).
Nothing here asserts a time: the figures are printed, as a table and as JSON.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import joblib
import numpy as np
from threadpoolctl import threadpool_limits

from .context import Context, seed_sequence

TARGETS = {"speedup_2_jobs": (">=", 1.8), "engine_overhead": ("<=", 0.10), "cache_speedup": (">=", 20.0)}


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


def run_benchmarks(*, trials: int = 8000, size: int = 64, repeats: int = 7,
                   cached_claim: str = "gd_generalized_smoothness.one_step_descent") -> dict[str, Any]:
    """All four measurements; returns a JSON-ready dict with the targets and whether each is met."""
    import os

    results: dict[str, Any] = {"cpus": os.cpu_count()}
    with threadpool_limits(limits=1):  # as run_claim does: one BLAS thread in this process too
        results["monte_carlo"] = monte_carlo(trials, size, repeats)
    results["cache"] = cache_warm_cold(cached_claim, repeats)
    results["dask"] = dask_against_loky(trials, size, repeats)
    flat = {**results["monte_carlo"], **results["cache"]}
    results["targets"] = {
        name: {"value": flat[name], "target": f"{rel} {bound}",
               "met": flat[name] >= bound if rel == ">=" else flat[name] <= bound}
        for name, (rel, bound) in TARGETS.items()
    }
    return results
