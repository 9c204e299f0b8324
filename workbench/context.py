"""What a claim receives: profile, parameters, a seeded generator and parallel helpers.

Random streams are keyed by identity, never by execution order: the generator of a claim is
derived from ``(root seed, claim id)``, that of trial ``i`` of a Monte Carlo loop from
``(root seed, claim id, loop label, i)``.  The same seed therefore gives the same numbers
whatever the number of workers, the joblib backend or the chunking.
"""

from __future__ import annotations

import hashlib
import os
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


_pinned_pid: int | None = None


def _pin_worker() -> None:
    """Limit BLAS to one thread in this worker process, once (a limit costs milliseconds)."""
    global _pinned_pid
    if _pinned_pid != os.getpid():
        threadpool_limits(limits=1)
        _pinned_pid = os.getpid()


def _run_chunk(func: Callable[..., Any], key: tuple, trials: range, args: tuple, kwargs: dict) -> list[Any]:
    """Trials ``trials`` of ``func``; trial i draws from the stream keyed by ``key + (i,)``.

    The streams are derived here, in the worker, so only the key and the range travel."""
    return [func(np.random.default_rng(seed_sequence(*key, i)), *args, **kwargs) for i in trials]


def _in_worker(chunk_func: Callable[..., list[Any]], *args: Any) -> list[Any]:
    _pin_worker()
    return chunk_func(*args)


def _map_chunk(func: Callable[..., Any], items: Sequence[Any]) -> list[Any]:
    return [func(item) for item in items]


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
        parts = _chunks(n, self.jobs, chunk)
        par = self._parallel(len(parts))
        if par is None:  # in this process: run_claim already limits BLAS to one thread
            return _run_chunk(func, key, range(n), args, kwargs)
        out = par(joblib.delayed(_in_worker)(_run_chunk, func, key, r, args, kwargs) for r in parts)
        return [x for part in out for x in part]

    def map(self, func: Callable[[Any], Any], items: Iterable[Any], chunk: int | None = None) -> list[Any]:
        """``[func(item) for item in items]`` computed in parallel, in order.

        For deterministic work (sweep points, exact solves); random work uses :meth:`trials`
        or derives its generator from the item through :meth:`generator`.
        """
        items = list(items)
        parts = _chunks(len(items), self.jobs, chunk)
        par = self._parallel(len(parts))
        if par is None:
            return _map_chunk(func, items)
        out = par(joblib.delayed(_in_worker)(_map_chunk, func, items[r.start : r.stop]) for r in parts)
        return [x for part in out for x in part]

