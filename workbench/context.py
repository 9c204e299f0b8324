"""What a claim receives: profile, parameters, a seeded generator and parallel helpers.

Random streams are keyed by identity, never by execution order: the generator of a claim is
derived from ``(root seed, claim id)``, that of trial ``i`` of a Monte Carlo loop from
``(root seed, claim id, loop label, i)``.  The same seed therefore gives the same numbers
whatever the number of workers, the joblib backend or the chunking.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import joblib
import numpy as np
from threadpoolctl import threadpool_limits


def key_words(*parts: Any) -> tuple[int, ...]:
    """Stable 32-bit words identifying ``parts`` (strings or integers), for ``spawn_key``."""
    words: list[int] = []
    for part in parts:
        if isinstance(part, (int, np.integer)) and int(part) >= 0:
            words.append(int(part))
        else:
            digest = hashlib.blake2b(str(part).encode(), digest_size=8).digest()
            words.extend(int.from_bytes(digest[i : i + 4], "little") for i in (0, 4))
    return tuple(words)


def seed_sequence(root_seed: int, *key: Any) -> np.random.SeedSequence:
    """The ``SeedSequence`` of the entity named by ``key`` under ``root_seed``.

    Args:
        root_seed: the run's seed, a non-negative integer.
        key: identity of the entity: claim id, then loop label, grid index, trial index...
    """
    return np.random.SeedSequence(entropy=int(root_seed), spawn_key=key_words(*key))


PARALLEL_MIN_SECONDS = 0.5
"""Work that would take less than this in the claim's own process is not sent to workers."""

_pinned_pid: int | None = None


def _pin_worker() -> None:
    """Limit BLAS to one thread in this worker process, once (a limit costs milliseconds)."""
    global _pinned_pid
    if _pinned_pid != os.getpid():
        threadpool_limits(limits=1)
        _pinned_pid = os.getpid()


GLOBAL_RNG_MESSAGE = ("drew from numpy's global generator (np.random.rand, np.random.normal, scipy's rvs without "
                      "random_state ...), whose numbers no seed of the run controls: draw from ctx.rng, "
                      "ctx.generator(...) or the generator ctx.trials hands each trial")


class GlobalRandomStateError(RuntimeError):
    """A check used numpy's global random state: its numbers would differ from run to run."""


def global_rng_fingerprint() -> int:
    """A hash of numpy's global random state (to detect that something drew from it)."""
    name, keys, pos, has_gauss, cached = np.random.get_state()
    return hash((name, keys.tobytes(), pos, has_gauss, cached))


def _run_chunk(func: Callable[..., Any], key: tuple, trials: range, args: tuple, kwargs: dict) -> list[Any]:
    """Trials ``trials`` of ``func``; trial i draws from the stream keyed by ``key + (i,)``.

    The streams are derived here, in the worker, so only the key and the range travel.

    Raises:
        GlobalRandomStateError: when a trial drew from numpy's global generator.
    """
    before = global_rng_fingerprint()
    out = [func(np.random.default_rng(seed_sequence(*key, i)), *args, **kwargs) for i in trials]
    if global_rng_fingerprint() != before:
        raise GlobalRandomStateError(f"a trial {GLOBAL_RNG_MESSAGE}")
    return out


def _in_worker(chunk_func: Callable[..., list[Any]], *args: Any) -> list[Any]:
    _pin_worker()
    return chunk_func(*args)


def _map_chunk(func: Callable[..., Any], items: Sequence[Any]) -> list[Any]:
    before = global_rng_fingerprint()
    out = [func(item) for item in items]
    if global_rng_fingerprint() != before:
        raise GlobalRandomStateError(f"a mapped task {GLOBAL_RNG_MESSAGE}")
    return out


def _chunks(n: int, jobs: int, chunk: int | None) -> list[range]:
    size = chunk or max(1, -(-n // (4 * max(jobs, 1))))
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


class Context:
    """The argument a claim function receives.

    Attributes:
        claim_id: the id of the claim (or ``claim:control``) being run.
        stream: the identity its random streams are keyed by: the claim's id, also for its
            controls, so that a control checks the same random instance as its claim.
        profile: ``"quick"`` or ``"full"``.
        params: parameter values for this run (profile values with any overrides).
        seed: the run's root seed.
        jobs: number of joblib workers for :meth:`trials` and :meth:`map`.
        backend: joblib backend name (``"loky"`` by default).
        rng: a ``numpy.random.Generator`` owned by this claim.
    """

    def __init__(self, claim_id: str, *, profile: str = "quick", params: dict[str, Any] | None = None,
                 seed: int = 0, jobs: int = 1, backend: str = "loky", stream: str | None = None) -> None:
        self.claim_id = claim_id
        self.stream = stream or claim_id
        self.profile = profile
        self.params = dict(params or {})
        self.seed = int(seed)
        self.jobs = int(jobs)
        self.backend = backend
        self.rng = np.random.default_rng(seed_sequence(self.seed, self.stream))

    @property
    def quick(self) -> bool:
        return self.profile == "quick"

    def __getitem__(self, name: str) -> Any:
        try:
            return self.params[name]
        except KeyError:
            raise KeyError(f"claim {self.claim_id} declares no parameter {name!r}") from None

    def generator(self, *key: Any) -> np.random.Generator:
        """A generator keyed by ``key`` inside this claim (e.g. ``ctx.generator("grid", 3)``)."""
        return np.random.default_rng(seed_sequence(self.seed, self.stream, *key))

    def _parallel(self, n_tasks: int) -> joblib.Parallel | None:
        if self.jobs == 1 or n_tasks <= 1:
            return None
        if self.backend == "dask":
            # The dask backend is configured by the runner (joblib.parallel_config); naming it
            # again here would hand joblib's nesting level to dask's submit as a task argument.
            return joblib.Parallel(n_jobs=self.jobs)
        return joblib.Parallel(n_jobs=self.jobs, backend=self.backend)

    def trials(self, func: Callable[..., Any], n: int, *args: Any, label: str = "trials",
               chunk: int | None = None, **kwargs: Any) -> list[Any]:
        """Run ``n`` Monte Carlo trials ``func(rng, *args, **kwargs)`` in parallel.

        Trial ``i`` draws from its own generator keyed by ``(stream, label, i)``, so the list
        returned (in trial order) is the same for any ``jobs``, backend or ``chunk``.  Trials are
        batched into chunks (by default four per worker) so task overhead stays small, and
        BLAS is pinned to one thread in each worker.

        Args:
            func: a picklable function of a ``numpy.random.Generator`` (module level, not a lambda,
                when ``jobs > 1``).
            n: number of trials, >= 1.
            label: names this loop, so two loops of one claim draw different streams.
            chunk: trials per task; default ``ceil(n / (4 jobs))``.
        """
        if n < 1:
            raise ValueError(f"the number of trials must be at least 1, not {n}")
        key = (self.seed, self.stream, label)
        return self._spread(lambda r: _run_chunk(func, key, r, args, kwargs), _chunks(n, self.jobs, chunk),
                            lambda r: joblib.delayed(_in_worker)(_run_chunk, func, key, r, args, kwargs))

    def _spread(self, here: Callable[[range], list[Any]], parts: list[range],
                task: Callable[[range], Any]) -> list[Any]:
        """Run ``parts`` in this process or on the workers, and concatenate in order.

        A probe (an eighth of the first part, at least one item) runs here and is timed: when the
        rest would take less than :data:`PARALLEL_MIN_SECONDS` here, it runs here too, since
        starting tasks on workers (which may first have to import heavy packages) would cost more
        than it saves; otherwise the rest goes to the workers (the probe is small, so little of the
        work is done serially).  The numbers are the same either way: every item's randomness is
        keyed by its identity.
        """
        par = self._parallel(len(parts))
        if par is None:  # in this process: run_claim already limits BLAS to one thread
            return here(range(parts[0].start, parts[-1].stop))
        if self.backend == "dask":  # a cluster was asked for: every part goes there
            out = par(task(r) for r in parts)
            return [x for part in out for x in part]
        head = parts[0]
        probe = range(head.start, head.start + max(1, len(head) // 8))
        start = time.perf_counter()
        first = here(probe)
        rest = ([range(probe.stop, head.stop)] if probe.stop < head.stop else []) + parts[1:]
        if not rest:
            return first
        left = rest[-1].stop - probe.stop
        if (time.perf_counter() - start) / len(probe) * left < PARALLEL_MIN_SECONDS:
            return first + here(range(probe.stop, rest[-1].stop))
        out = par(task(r) for r in rest)
        return first + [x for part in out for x in part]

    def worst_case(self, func: Callable[[dict[str, Any]], Any], space: dict[str, tuple], *, evaluations: int = 200,
                   relation: str = "<=", label: str = "worst case") -> WorstCase:
        """Search an instance space for the instance where a claimed bound binds.

        A "for all instances" bound is then decided on the worst instance found, not on
        random ones: differential evolution (scipy) maximises how close ``measured`` comes to
        ``bound`` (the ratio measured/bound for positive bounds, else the excess), seeded from
        this claim's stream, with every instance it evaluates recorded.  The search is the same
        for any number of workers (its population is evaluated through :meth:`map`).

        Args:
            func: ``func(params) -> (measured, bound)`` for one instance; module level (not a
                lambda) when ``jobs > 1``.
            space: parameter name -> ``(low, high)`` or ``(low, high, flags)`` with flags
                ``"log"`` (searched on a log scale), ``"int"`` (rounded) or ``"log int"``.
            evaluations: about how many instances to evaluate (>= 10).
            relation: ``"<="`` (maximise measured/bound) or ``">="`` (maximise bound/measured).
            label: names this search, so two searches of one claim draw different streams.

        Returns:
            A :class:`WorstCase`: hand ``.measured``, ``.bound``, ``.instances``, ``.x`` and
            ``found_by=.method`` to :class:`workbench.Bound`.

        Raises:
            ValueError: on an empty or malformed space, or fewer than 10 evaluations.
        """
        return worst_case(self, func, space, evaluations=evaluations, relation=relation, label=label)

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int | None = None) -> list[Any]:
        """``[func(item) for item in items]`` computed in parallel, in order.

        For deterministic work (sweep points, exact solves); random work uses :meth:`trials`
        or derives its generator from the item through :meth:`generator`.
        """
        items = list(items)
        if not items:
            return []
        return self._spread(lambda r: _map_chunk(func, items[r.start : r.stop]), _chunks(len(items), self.jobs, chunk),
                            lambda r: joblib.delayed(_in_worker)(_map_chunk, func, items[r.start : r.stop]))



class SearchOrder(np.ndarray):
    """Evaluation indices of a search: an abscissa whose order is not a trend, so a
    :class:`workbench.Bound` drawn along it shows points, never a line."""

    def __new__(cls, n: int) -> SearchOrder:
        return np.arange(n).view(cls)


class WorstCase:
    """The instances an adversarial search evaluated, for a :class:`workbench.Bound`.

    Attributes:
        measured, bound: arrays, one entry per evaluated instance (in evaluation order).
        params: the parameters of each instance (dicts).
        instances: a label per instance (``"a=0.31, n=12"``).
        x: the evaluation index of each instance (a :class:`SearchOrder`: the report's figure draws
            the instances along it as points, not as a trend).
        worst: the parameters of the tightest instance.
        method: a sentence saying how the instances were found (for ``Bound(found_by=...)``; the
            bound's sharpness names the tightest instance).
    """

    def __init__(self, params: list[dict[str, Any]], measured: list[float], bound: list[float], method: str,
                 relation: str) -> None:
        self.params = params
        self.measured = np.asarray(measured, dtype=float)
        self.bound = np.asarray(bound, dtype=float)
        self.instances = [", ".join(f"{k}={_short(v)}" for k, v in p.items()) for p in params]
        self.x = SearchOrder(len(params))
        score = _tightness_score(self.measured, self.bound, relation)
        self.worst = params[int(np.argmax(score))] if params else {}
        self.method = method


def _short(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def _tightness_score(measured: np.ndarray, bound: np.ndarray, relation: str) -> np.ndarray:
    """How close each instance comes to violating the bound: measured/bound for positive bounds
    ("<="; bound/measured for ">="), else the signed excess over the bound."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if relation == "<=":
            score = np.where(bound > 0, measured / bound, measured - bound)
        else:
            score = np.where((bound > 0) & (measured > 0), bound / measured, bound - measured)
    return np.where(np.isfinite(score), score, np.inf)


def _worst_case_eval(func: Callable[[dict[str, Any]], Any], params: dict[str, Any]) -> tuple[float, float]:
    measured, bound = func(params)
    return float(measured), float(bound)


def worst_case(ctx: Context, func: Callable[[dict[str, Any]], Any], space: dict[str, tuple], *,
               evaluations: int = 200, relation: str = "<=", label: str = "worst case") -> WorstCase:
    """Search ``space`` for the instance where the bound ``measured <= bound`` binds (see
    :meth:`Context.worst_case`)."""
    from scipy.optimize import differential_evolution

    if relation not in ("<=", ">="):
        raise ValueError(f"worst_case relation must be '<=' or '>=', not {relation!r}")
    if not space:
        raise ValueError("worst_case needs a space of at least one parameter: {name: (low, high)}")
    names, lows, highs, logs, ints = [], [], [], [], []
    for name, spec in space.items():
        if len(spec) not in (2, 3):
            raise ValueError(f"worst_case space entry {name!r} must be (low, high) or (low, high, 'log'|'int'|'log int')")
        low, high = float(spec[0]), float(spec[1])
        flags = spec[2].split() if len(spec) == 3 else []
        if not (math.isfinite(low) and math.isfinite(high) and low < high) or set(flags) - {"log", "int"}:
            raise ValueError(f"worst_case space entry {name!r}: need finite low < high and flags 'log'/'int', got {spec}")
        if "log" in flags and low <= 0:
            raise ValueError(f"worst_case space entry {name!r}: a log axis needs low > 0, got {low}")
        names.append(name)
        logs.append("log" in flags)
        ints.append("int" in flags)
        lows.append(math.log(low) if "log" in flags else low)
        highs.append(math.log(high) if "log" in flags else high)
    if evaluations < 10:
        raise ValueError(f"worst_case needs at least 10 evaluations, not {evaluations}")

    def decode(z: np.ndarray) -> dict[str, Any]:
        out = {}
        for i, name in enumerate(names):
            v = math.exp(z[i]) if logs[i] else float(z[i])
            out[name] = int(round(v)) if ints[i] else v
        return out

    seen: list[dict[str, Any]] = []
    measured: list[float] = []
    bounds: list[float] = []

    def mapper(_objective: Any, population: Any) -> list[float]:
        # Our own map (in place of differential evolution's): every instance is recorded, and
        # 'deferred' updating makes the search the same for any number of workers.
        pts = [decode(np.asarray(z, dtype=float)) for z in population]
        values = ctx.map(functools.partial(_worst_case_eval, func), pts) if ctx.jobs > 1 else \
            [_worst_case_eval(func, p) for p in pts]
        scores = []
        for p, (m, b) in zip(pts, values, strict=True):
            seen.append(p)
            measured.append(m)
            bounds.append(b)
            scores.append(-float(_tightness_score(np.array([m]), np.array([b]), relation)[0]))
        return [s if math.isfinite(s) else 1e300 for s in scores]

    dims = len(names)
    popsize = 8
    maxiter = max(1, evaluations // (popsize * dims) - 1)
    differential_evolution(lambda z: 0.0, list(zip(lows, highs, strict=True)), maxiter=maxiter, popsize=popsize,
                           rng=ctx.generator("worst case", label), polish=False, updating="deferred",
                           workers=mapper, tol=0.0, init="sobol" if dims > 1 else "latinhypercube")
    method = (f"adversarial search: differential evolution (scipy) over "
              f"{', '.join(f'{n} in [{_short(space[n][0])}, {_short(space[n][1])}]' for n in names)}, "
              f"{len(seen)} instances, seeded from the claim's stream")
    return WorstCase(seen, measured, bounds, method, relation)
