"""Parameter sweeps: one claim over a grid of its declared parameters.

Every grid point runs the claim and its controls with its own random streams, keyed by the
claim id and the point's parameter values (never by the order of execution), in parallel
through joblib (loky, or dask with a scheduler).  Every point is stored as it finishes; the
sweep reports where along each axis the claim's verdict changes: where a theorem's hypothesis
stops holding.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .execute import (
    ClaimResult,
    has_error,
    result_from_record,
    result_record,
    uses_mpmath,
)
from .model import Claim

HEADLINE_PRIORITY = ("slope", "smallest_margin", "max_rel_error", "max_abs_error", "estimate",
                     "mean_difference", "value")


def parse_grid(claim: Claim, specs: list[str]) -> dict[str, list[Any]]:
    """Parse ``NAME=V1,V2,...`` strings into a grid of values checked against the claim's params.

    Raises:
        ValueError: on a malformed spec, an undeclared name, a repeated name or a bad value;
            the message says what the claim accepts.
    """
    grid: dict[str, list[Any]] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise ValueError(f"a grid is NAME=V1,V2,... , not {spec!r}")
        if name in grid:
            raise ValueError(f"grid parameter {name!r} is given twice")
        if name not in claim.params:
            known = ", ".join(f"{n} ({p.doc})" if p.doc else n for n, p in claim.params.items()) or "none"
            raise ValueError(f"claim {claim.id} has no parameter {name!r}; it declares: {known}")
        grid[name] = [claim.params[name].coerce(name, v.strip()) for v in values.split(",") if v.strip()]
    if not grid:
        raise ValueError("a sweep needs at least one --grid NAME=V1,V2,...")
    return grid


def grid_points(grid: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The Cartesian product of ``grid`` as a list of parameter dicts, first axis slowest."""
    names = list(grid)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*grid.values())]


def point_stream(claim_id: str, params: dict[str, Any]) -> str:
    """The identity a grid point's random streams are keyed by."""
    return f"{claim_id}@{json.dumps(params, sort_keys=True, default=str)}"


def _run_point(claim_ref: Claim | tuple[str, str], params: dict[str, Any], profile: str,
               seed: int) -> tuple[dict[str, Any], float]:
    """One grid point, in this process (a worker finds the claim by module and id); returns the
    result record and the CPU seconds spent."""
    from .schedule import claim_task, find_registered

    claim = find_registered(claim_ref)
    return claim_task(claim, profile, seed, params=params, stream=point_stream(claim.id, params))


@dataclass
class SweepPoint:
    index: int
    params: dict[str, Any]
    result: ClaimResult

    @property
    def claim_verdict(self) -> str:
        return self.result.outcome.verdict.value


@dataclass
class SweepSummary:
    """What :func:`sweep` did: the stored sweep's id, its points in grid order, the changes."""

    sweep_id: int
    claim_id: str
    grid: dict[str, list[Any]]
    points: list[SweepPoint]
    transitions: list[str] = field(default_factory=list)
    figure: Path | None = None


def transitions(grid: dict[str, list[Any]], points: list[tuple[dict[str, Any], str]]) -> list[str]:
    """Where the claim's verdict changes between neighbouring values of one axis.

    Args:
        grid: the axes; points: (parameters, verdict) of each grid point.
    Returns:
        Sentences such as ``"n: VERIFIED at 8 -> REFUTED at 16 (with lr = 0.1)"``.
    """
    names = list(grid)
    verdicts = {tuple(params[n] for n in names): verdict for params, verdict in points}
    out = []
    for axis, name in enumerate(names):
        others = [grid[n] for i, n in enumerate(names) if i != axis]
        for rest in itertools.product(*others):
            for a, b in itertools.pairwise(grid[name]):
                ka = rest[:axis] + (a,) + rest[axis:]
                kb = rest[:axis] + (b,) + rest[axis:]
                if verdicts.get(ka) != verdicts.get(kb):
                    where = ", ".join(f"{n} = {v}" for n, v in zip([n for n in names if n != name], rest, strict=True))
                    out.append(f"{name}: {verdicts.get(ka)} at {a} -> {verdicts.get(kb)} at {b}"
                               + (f" (with {where})" if where else ""))
    return out


def headline_key(points: list[dict[str, Any]]) -> str | None:
    """The headline number every point has, by :data:`HEADLINE_PRIORITY`."""
    for key in HEADLINE_PRIORITY:
        if points and all(isinstance((p.get("headline") or {}).get(key), (int, float)) for p in points):
            return key
    return None


def run_sweep(claim: Claim, grid: dict[str, list[Any]], *, store: Any, profile: str, seed: int, jobs: int,
              progress: Any = None, in_registry: bool = True, metadata: dict[str, Any] | None = None,
              cache: Any = None, backend: str = "loky") -> SweepSummary:
    """Run ``claim`` at every grid point (in parallel when ``jobs > 1``), storing each point.

    Points run on the run's joblib ``backend`` (``"loky"``, ``"threading"``; ``"dask"`` when the
    runner has configured joblib for a cluster).

    ``in_registry`` says whether worker processes can find the claim by importing its module
    (claims of a private Registry run in this process).  With ``cache`` (a
    :class:`workbench.cache.ResultCache`), points whose code, parameters, seed and profile are
    unchanged are taken from it and only the others run.
    """
    return run_sweeps([(claim, grid)], store=store, profile=profile, seed=seed, jobs=jobs, backend=backend,
                      progress=progress, in_registry=in_registry, metadata=metadata, cache=cache)[0]


def run_sweeps(sweeps: list[tuple[Claim, dict[str, list[Any]]]], *, store: Any, profile: str, seed: int, jobs: int,
               progress: Any = None, in_registry: bool = True, metadata: dict[str, Any] | None = None,
               cache: Any = None, backend: str = "loky", done: Any = None,
               cpu: Any = None) -> list[SweepSummary]:
    """Run several sweeps with all their points in one pool of ``jobs`` workers (see
    :func:`run_sweep`): a sweep of few points does not leave workers idle.

    Each point is stored as it finishes (points of a sweep finish in any order; each keeps its
    index in the grid).  ``progress(i, params, result)`` is called per point, ``done(summary)``
    when a sweep is complete, ``cpu(seconds)`` with the CPU time each point took in a worker.
    Points run longest expected first (the claim's latest stored time).
    """
    from .cache import CacheKey

    plans = []
    tasks: list[tuple[int, int]] = []
    for s_i, (claim, grid) in enumerate(sweeps):
        points = grid_points(grid)
        sweep_id = store.start_sweep(claim.id, grid=grid, seed=seed, profile=profile, metadata=metadata or {})
        keys = [CacheKey.of(claim, profile, seed, claim.parameters(profile, p), stream=point_stream(claim.id, p))
                for p in points] if cache is not None else [None] * len(points)
        plan = {"claim": claim, "grid": grid, "points": points, "id": sweep_id, "keys": keys,
                "results": [None] * len(points), "left": len(points)}
        plans.append(plan)
        for i, key in enumerate(keys):
            record = cache.lookup(key)[0] if key is not None else None
            if record is None:
                tasks.append((s_i, i))
            else:
                _point_done(plan, i, result_from_record(claim, record), store, None, progress, done)
    if any(backend == "threading" and uses_mpmath(p["claim"]) for p in plans):
        jobs = 1  # mpmath's precision is process-wide: such points never run on threads
    processes = jobs > 1 and backend != "threading"
    seconds = store.last_seconds([p["claim"].id for p in plans]) if hasattr(store, "last_seconds") else {}
    tasks.sort(key=lambda t: -seconds.get(plans[t[0]]["claim"].id, float(plans[t[0]]["claim"].budget)))

    def ref(claim: Claim) -> Claim | tuple[str, str]:
        return (claim.id, claim.module) if in_registry and processes else claim

    if jobs > 1 and len(tasks) > 1:
        from .schedule import parallel_unordered

        fresh = parallel_unordered([(_run_point, (ref(plans[s_i]["claim"]), plans[s_i]["points"][i], profile, seed), {})
                                    for s_i, i in tasks], jobs, backend)
    else:
        fresh = ((n, _run_point(plans[s_i]["claim"], plans[s_i]["points"][i], profile, seed))
                 for n, (s_i, i) in enumerate(tasks))
    for n, (record, seconds_cpu) in fresh:
        s_i, i = tasks[n]
        plan = plans[s_i]
        if cpu is not None:
            cpu(seconds_cpu)
        _point_done(plan, i, result_from_record(plan["claim"], record), store, cache, progress, done)
    return [p["summary"] for p in plans]


def _point_done(plan: dict[str, Any], i: int, result: ClaimResult, store: Any, cache: Any, progress: Any,
                done: Any) -> None:
    """Store point ``i`` of a sweep (caching it when it ran and did not fail); finish the sweep
    when it was the last."""
    params, key = plan["points"][i], plan["keys"][i]
    if cache is not None and key is not None and not has_error(result):
        cache.store(key, result_record(result))
    store.record_point(plan["id"], i, params, result)
    plan["results"][i] = result
    plan["left"] -= 1
    if progress is not None:
        progress(i, params, result)
    if plan["left"] == 0:
        store.finish_sweep(plan["id"])
        points = [SweepPoint(j, p, r) for j, (p, r) in enumerate(zip(plan["points"], plan["results"], strict=True))]
        plan["summary"] = SweepSummary(plan["id"], plan["claim"].id, plan["grid"], points,
                                       transitions(plan["grid"], [(pt.params, pt.claim_verdict) for pt in points]))
        if done is not None:
            done(plan["summary"])
