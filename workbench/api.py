"""The Python API: run a selection of claims, store it, write the report; sweep one claim."""

from __future__ import annotations

import os
import platform
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import joblib

from .cache import SOLVERS, CacheKey, ResultCache, package_versions
from .counterexamples import SearchSummary
from .evidence import Verdict
from .execute import (
    ClaimResult,
    has_error,
    no_near_miss,
    result_from_record,
    result_record,
    run_claim,
)
from .model import PROFILES, Claim, Registry
from .registry import SelectionError, find_claim, load, select
from .schedule import PhaseClock, claim_task, longest_first, parallel_unordered, quiet_highs_banner
from .store import Store
from .sweeps import SweepSummary, grid_points, parse_grid, run_sweep, run_sweeps

DEFAULT_DB = Path("reports/workbench.sqlite")
DEFAULT_OUT = Path("reports")
BACKENDS = ("loky", "threading", "sequential", "dask", "dask-local")
SCHEDULER_ENV = "WORKBENCH_SCHEDULER"
CONNECT_TIMEOUT = 10.0  # seconds to reach a dask scheduler
VERSIONED = ("workbench", "numpy", "scipy", "sympy", "mpmath", "cvxpy", "qiskit", "qiskit-aer",
             "joblib", "jinja2", "matplotlib", *SOLVERS)


class UsageError(ValueError):
    """Bad input to a run: unknown selector, profile, jobs, seed, unwritable output."""


@dataclass
class RunSummary:
    """What :func:`run` did.

    Attributes:
        run_id: the run's id in the database.
        db: the database path.
        results: rows of this run as read back from the database (all of it, resumed or not).
        report: paths written by the report (``tex``, ``pdf``, ``json``, ``macros``), or empty.
        interrupted: True when the run was stopped by Ctrl-C (what finished is stored).
        messages: notes for the user (e.g. how to get the PDF without TeX).
        resumed: for ``resume=True``, what was resumed (the run, its options, what was left).
        timings: wall-clock and CPU seconds of each phase (``claims``, ``sweeps``, ``figures``,
            ``pdf``): ``{phase: {"wall": s, "cpu": s}}``, CPU counting the worker processes' work.
    """

    run_id: int
    db: Path
    results: list[dict[str, Any]]
    report: dict[str, Path] = field(default_factory=dict)
    interrupted: bool = False
    messages: list[str] = field(default_factory=list)
    resumed: str | None = None
    timings: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when every claim of the run reached its declared outcome: VERIFIED with its controls
        refuted, unless the claim declares (with a reason) that it is an honest INCONCLUSIVE or a
        REFUTED finding, such as a first reading of the paper that the data contradict."""
        return not self.interrupted and all(r["verdict"] == r.get("expect", Verdict.VERIFIED.value)
                                            for r in self.results)

    @property
    def unexpected(self) -> list[dict[str, Any]]:
        """The claims whose verdict is not their declared outcome."""
        return [r for r in self.results if r["verdict"] != r.get("expect", Verdict.VERIFIED.value)]


def git_revision(folder: Path) -> str | None:
    """The short git revision of the checkout holding ``folder`` (``+modified`` when it has
    uncommitted changes), or None outside a git checkout."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=folder, timeout=5).stdout.strip() or None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, cwd=folder, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{rev}+modified" if rev and dirty else rev


def paper_packages(claims: list[Claim]) -> dict[str, dict[str, str | None]]:
    """The packages the claims' paper modules come from (``theorems`` included): for each, the
    distribution and version that provide it and the git revision of its checkout."""
    import importlib
    import sys

    from .cache import _top_level_distributions, _version

    out: dict[str, dict[str, str | None]] = {}
    for top in sorted({c.module.split(".")[0] for c in claims}):
        module = sys.modules.get(top) or importlib.import_module(top)
        where = getattr(module, "__file__", None) or next(iter(getattr(module, "__path__", [])), None)
        dists = _top_level_distributions().get(top, ())
        out[top] = {"distribution": dists[0] if dists else None, "version": _version(dists[0]) if dists else None,
                    "git_revision": git_revision(Path(where).resolve().parent) if where else None}
    return out


def run_metadata(jobs: int, backend: str, claims: list[Claim] | None = None) -> dict[str, Any]:
    """Versions of the numerical packages and solvers, of every distribution the claims import
    from, the packages their papers come from (version, git revision), the engine's git revision,
    host and Python of this run."""
    from .cache import reached_distributions

    versions = package_versions(VERSIONED)
    for c in claims or []:
        versions |= reached_distributions(c)
    return {"versions": versions, "git_revision": git_revision(Path(__file__).resolve().parent),
            "paper_packages": paper_packages(claims or []), "host": socket.gethostname(),
            "python": platform.python_version(), "platform": platform.platform(), "jobs": jobs,
            "backend": backend, "cpus": os.cpu_count()}


def check_options(profile: str, jobs: int, seed: int, backend: str) -> None:
    """Raise :class:`UsageError` when a run option is out of range."""
    if profile not in PROFILES:
        raise UsageError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise UsageError(f"jobs must be a whole number >= 1, not {jobs!r}")
    if not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise UsageError(f"seed must be a whole number in [0, 2^63), not {seed!r}")
    if backend not in BACKENDS:
        raise UsageError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")


def check_writable(folder: Path) -> None:
    """Raise :class:`UsageError` unless ``folder`` exists or can be created, and is writable."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".workbench-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"cannot write to {folder}: {exc.strerror or exc}; choose another folder with --out") from None


def check_db(db: str | Path) -> Path:
    """The database path given on the command line, checked before any work: its folder must exist
    (the default database's folder, ``reports/``, is created), so that a mistyped ``--db`` is an
    error rather than a fresh database in a new folder.  (The Python API creates the folder of
    the path it is given.)

    Raises:
        UsageError: when the folder does not exist, or the path is a folder.
    """
    path = Path(db)
    if path.is_dir():
        raise UsageError(f"--db {path} is a folder, not a database file; give a file such as "
                         f"{path / 'workbench.sqlite'}")
    folder = path.parent
    if not folder.is_dir():
        if path == DEFAULT_DB:
            folder.mkdir(parents=True, exist_ok=True)
        else:
            raise UsageError(f"the folder of the database {path} does not exist ({folder}); create it "
                             f"(mkdir -p {folder}) or give another --db")
    return path


def _cache_warning() -> Any:
    """A function printing a cache warning on stderr (the run goes on without the cache entry)."""
    from rich.console import Console

    console = Console(stderr=True, soft_wrap=True)

    def warn(message: str) -> None:
        console.print(f"[yellow]workbench: warning:[/] {message}", highlight=False, markup=True)

    return warn


SCHEDULER_SCHEMES = ("tcp", "tls", "ucx", "inproc", "ws", "wss")


def check_scheduler(address: str) -> None:
    """Raise :class:`UsageError` unless ``address`` looks like a dask scheduler address
    (``tcp://HOST:PORT``; not the dashboard's ``http://`` address)."""
    import re

    m = re.fullmatch(r"([a-z]+)://([^/\s:]+|\[[0-9a-fA-F:]+\])(?::(\d+))?/?", address)
    if m is None or m.group(1) not in SCHEDULER_SCHEMES:
        hint = (" (that is the dashboard's address; the scheduler's is tcp://HOST:8786)"
                if address.startswith(("http://", "https://")) else "")
        raise UsageError(f"{address!r} is not a dask scheduler address: give tcp://HOST:PORT{hint}")


def resolve_backend(backend: str, scheduler: str | None) -> tuple[str, str | None]:
    """The backend and scheduler a run uses: a scheduler (given, or from ``WORKBENCH_SCHEDULER``)
    turns the default loky backend into dask.

    Raises:
        UsageError: for the dask backend without a scheduler address.
    """
    scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if scheduler:
        check_scheduler(scheduler)
    if scheduler and backend == "loky":
        backend = "dask"
    if backend == "dask" and not scheduler:
        raise UsageError(f"the dask backend needs a scheduler address: --scheduler tcp://HOST:PORT or {SCHEDULER_ENV}")
    return backend, scheduler


@contextmanager
def parallel_backend(backend: str, scheduler: str | None, jobs: int) -> Iterator[tuple[str, int]]:
    """Set up the joblib backend of a run; yield (joblib backend name, number of workers).

    ``dask`` connects to ``scheduler``; ``dask-local`` starts a LocalCluster of ``jobs``
    single-threaded worker processes on this machine.  joblib then sends every task there;
    the number of workers only sets the chunking, which never changes a number.

    Raises:
        UsageError: when dask is not installed or the scheduler cannot be reached.
    """
    if backend not in ("dask", "dask-local"):
        yield backend, jobs
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("the dask backends need dask.distributed: pip install 'workbench[dask]'") from None
    cluster = None
    try:
        if backend == "dask-local":
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise UsageError(f"cannot reach the dask scheduler {scheduler}: {exc}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        with joblib.parallel_config(backend="dask"):
            yield "dask", workers
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run(selectors: list[str] | None = None, *, keyword: str | None = None, profile: str = "quick",
        seed: int = 0, jobs: int = 1, backend: str = "loky", db: str | Path = DEFAULT_DB,
        out: str | Path | None = DEFAULT_OUT, pdf: bool = True, resume: bool = False,
        progress: bool = True, registry: Registry | None = None, cache: bool | None = None,
        scheduler: str | None = None, sweeps: bool = False) -> RunSummary:
    """Run the selected claims with their controls, store each at once, and write the report.

    Args:
        selectors: paper slugs, claim ids or globs (see :func:`workbench.registry.select`);
            None runs every registered claim.
        keyword: a ``-k`` expression over claim ids and paper slugs.
        profile: ``"quick"`` (seconds per claim) or ``"full"`` (larger sizes, more trials).
        seed: the root seed (>= 0); the same seed gives the same evidence for any ``jobs``.
        jobs: joblib workers for Monte Carlo trials and maps (>= 1).
        db: the SQLite results database.
        out: folder for the report; None writes no report.
        pdf: build the PDF with latexmk (when TeX is installed).
        resume: finish the latest unfinished run in ``db`` (its selection, seed, profile, cache
            choice and declared sweeps) instead of starting a new one; what is resumed is said on
            stderr and in ``RunSummary.resumed``.
        progress: show a progress bar and one line per finished claim on stderr.
        registry: where to find claims (default: every installed paper module).
        cache: reuse a claim's stored result when nothing it depends on changed (its code and
            the simulations code it calls, parameters, seed, profile, package versions); the
            cache lives in ``cache/`` beside the database.  Default: on, or for ``resume`` the
            choice of the run resumed (``False`` turns it off for the rest of a resumed run).
        scheduler: address of a dask scheduler (``tcp://host:8786``; default: the environment
            variable ``WORKBENCH_SCHEDULER``); trials then run on that cluster.  With
            ``backend="dask-local"`` a LocalCluster of ``jobs`` processes is started here.
        sweeps: after the claims, run the sweeps the selected claims declare (``claim(...,
            sweeps=...)``), through the cache; the report draws them.

    Raises:
        UsageError: on bad options, unknown selectors or an unwritable output folder, before
            any claim runs.
        workbench.store.StoreError: when the database is locked, corrupt or cannot be created.
    """
    backend, scheduler = resolve_backend(backend, scheduler)
    check_options(profile, jobs, seed, backend)
    if out is not None:
        check_writable(Path(out))
    reg = registry or load()
    claims: list[Claim] = []
    if not resume:
        try:
            claims = select(selectors, keyword, reg)
        except SelectionError as exc:
            raise UsageError(str(exc)) from None
    store = Store(db)
    resumed = None
    try:
        if resume:
            previous = store.unfinished_run()
            if previous is None:
                raise UsageError(f"{db} has no unfinished run to resume")
            run_id, seed, profile = previous["id"], previous["seed"], previous["profile"]
            unknown = [cid for cid in previous["selection"] if cid not in reg.claims]
            if unknown:
                raise UsageError(f"the run to resume names claims that no longer exist: {', '.join(unknown)}")
            done = store.done_claims(run_id)
            claims = [reg.claims[cid] for cid in previous["selection"] if cid not in done]
            # The interrupted run's own choices: results from the cache only if it took them so,
            # and the sweeps it declared it would run.
            was_cached = previous["metadata"].get("cache", True)
            cache = was_cached if cache is None else (cache and was_cached)
            sweeps = sweeps or bool(previous["metadata"].get("sweeps", False))
            resumed = (f"resuming run {run_id} (started {previous['started']}, seed {seed}, {profile} profile, "
                       f"cache {'on' if cache else 'off'}{' as that run had it' if cache == was_cached else ''}"
                       f"{', then its declared sweeps' if sweeps else ''}): {len(done)} of "
                       f"{len(previous['selection'])} claims are stored, {len(claims)} to run")
            if progress:
                _console().print(resumed, highlight=False, markup=False)
        else:
            cache = True if cache is None else cache
            run_id = store.start_run(seed=seed, profile=profile, jobs=jobs, backend=backend,
                                     selection=[c.id for c in claims],
                                     metadata=run_metadata(jobs, backend, claims)
                                     | {"scheduler": scheduler, "cache": cache, "sweeps": sweeps})
        # Without the cache a run reads nothing from it, but its fresh results replace stale entries.
        results = ResultCache(Path(db).parent / "cache", warn=_cache_warning(), read=cache)
        clock = PhaseClock()
        try:
            with parallel_backend(backend, scheduler, jobs) as (backend_name, workers):
                with clock.phase("claims"):
                    interrupted = _execute(store, run_id, claims, profile=profile, seed=seed, jobs=workers,
                                           backend=backend_name, progress=progress, cache=results,
                                           in_registry=registry is None, clock=clock)
                if sweeps and not interrupted:
                    with clock.phase("sweeps"):
                        interrupted = _declared_sweeps(
                            store, [reg.claims[cid] for cid in store.run(run_id)["selection"]], profile=profile,
                            seed=seed, jobs=workers, backend=backend_name, progress=progress, cache=results,
                            in_registry=registry is None, clock=clock)
        except BaseException:
            # Whatever stopped the run, what finished is stored: mark it resumable, never 'running'.
            store.finish_run(run_id, "interrupted", timings=clock.phases)
            raise
        store.finish_run(run_id, "interrupted" if interrupted else "finished", timings=clock.phases)
        summary = RunSummary(run_id, Path(db), store.results(run_id), interrupted=interrupted, resumed=resumed,
                             timings=clock.phases)
        if interrupted:
            summary.messages.append(f"interrupted: finished claims are stored; `workbench run --resume --db {db}` "
                                    "completes the run")
        if out is not None:
            from .report import write_report

            try:
                summary.report, notes = write_report(store, run_id, Path(out), pdf=pdf, registry=reg, jobs=jobs,
                                                     progress=progress, clock=clock)
                summary.messages.extend(notes)
            except OSError as exc:
                summary.messages.append(
                    f"cannot write the report to {out}: {exc.strerror or exc} ({getattr(exc, 'filename', '') or ''}); "
                    f"every result is stored in {db}: `workbench report --run {run_id} --db {db} --out DIR` "
                    "writes it elsewhere")
        return summary
    finally:
        store.close()


def _execute(store: Store, run_id: int, claims: list[Claim], *, profile: str, seed: int, jobs: int,
             backend: str, progress: bool, cache: ResultCache | None = None, in_registry: bool = True,
             clock: PhaseClock | None = None) -> bool:
    """Run the claims, committing each as it finishes; return True when interrupted by Ctrl-C.

    Results from the cache are taken first.  With ``jobs > 1`` on loky, the claims to run are
    scheduled across the workers, longest expected first, each whole in one worker (see
    :mod:`workbench.schedule`); otherwise they run one by one here, with their trials spread over
    the workers.  Either way every number is the same.
    """
    clock = clock or PhaseClock()
    bar = _progress(progress)
    with bar:
        task = bar.add_task("claims", total=len(claims))
        todo: list[tuple[Claim, Any, str]] = []
        for c in claims:
            key, why = None, "cache off"
            if cache is not None:
                key = CacheKey.of(c, profile, seed, c.parameters(profile))
                record, why = cache.lookup(key)
                if record is not None:
                    _record(store, run_id, result_from_record(c, record), "cache", bar, task)
                    continue
            todo.append((c, key, why))
        parallel = jobs > 1 and backend == "loky" and in_registry and len(todo) > 1
        quiet_highs_banner()
        if not parallel:
            if jobs > 1 and backend == "loky" and todo:
                # Start the worker processes now, so their start-up is not charged to a claim's budget.
                joblib.Parallel(n_jobs=jobs, backend="loky")(joblib.delayed(abs)(i) for i in range(jobs))
            for c, key, why in todo:
                bar.update(task, description=c.id)
                try:
                    result = run_claim(c, profile=profile, seed=seed, jobs=jobs, backend=backend)
                except KeyboardInterrupt:
                    return True
                _finish(store, run_id, result, key, why, cache, bar, task)
            return False
        by_id = {c.id: (c, key, why) for c, key, why in todo}
        order = longest_first([c for c, _, _ in todo], store.last_seconds(list(by_id)))
        tasks = [(claim_task, ((c.id, c.module), profile, seed), {}) for c in order]
        bar.update(task, description=f"claims on {jobs} workers")
        done: set[str] = set()
        try:
            for i, (record, cpu) in parallel_unordered(tasks, jobs, backend):
                c, key, why = by_id[order[i].id]
                clock.add_cpu("claims", cpu)
                _finish(store, run_id, result_from_record(c, record), key, why, cache, bar, task)
                done.add(c.id)
        except KeyboardInterrupt:
            return True
        except Exception as exc:  # noqa: BLE001 - a worker died or could not import a module: go on here
            rest = [c for c in order if c.id not in done]
            bar.console.print(f"[yellow]workbench: warning:[/] the worker processes failed ({type(exc).__name__}: "
                              f"{exc}); the {len(rest)} claims left run in this process", highlight=False)
            for c in rest:
                _, key, why = by_id[c.id]
                bar.update(task, description=c.id)
                try:
                    result = run_claim(c, profile=profile, seed=seed, jobs=1, backend=backend)
                except KeyboardInterrupt:
                    return True
                _finish(store, run_id, result, key, why, cache, bar, task)
    return False


def _record(store: Store, run_id: int, result: ClaimResult, provenance: str, bar: Any, task: Any) -> None:
    store.record(run_id, result, provenance)
    bar.console.print(_line(result, provenance), highlight=False)
    bar.advance(task)


def _finish(store: Store, run_id: int, result: ClaimResult, key: Any, why: str, cache: ResultCache | None,
            bar: Any, task: Any) -> None:
    """Store a claim that ran (and cache it unless it ended in ERROR: a failure may be passing)."""
    if cache is not None and key is not None and not has_error(result):
        cache.store(key, result_record(result))
    _record(store, run_id, result, "ran (cache off)" if cache is None or not cache.read else f"ran: {why}", bar,
            task)


def _declared_sweeps(store: Store, claims: list[Claim], *, profile: str, seed: int, jobs: int, backend: str,
                     progress: bool, cache: ResultCache | None, in_registry: bool,
                     clock: PhaseClock | None = None) -> bool:
    """Run every sweep the claims declare, all their points in one pool of workers, storing each
    point as it finishes; return True when interrupted by Ctrl-C."""
    grids = [(c, g) for c in claims for g in c.sweeps]
    if not grids:
        return False
    bar = _progress(progress)

    def done(summary: SweepSummary) -> None:
        counts: dict[str, int] = {}
        for pt in summary.points:
            counts[pt.claim_verdict] = counts.get(pt.claim_verdict, 0) + 1
        bar.console.print(f"sweep {summary.claim_id} over {', '.join(summary.grid)}: "
                          + ", ".join(f"{n} {v.lower()}" for v, n in sorted(counts.items()))
                          + (f"; {len(summary.transitions)} verdict change(s)" if summary.transitions else ""),
                          highlight=False)

    with bar:
        task = bar.add_task(f"{len(grids)} declared sweeps", total=sum(len(grid_points(g)) for _, g in grids))
        try:
            run_sweeps(grids, store=store, profile=profile, seed=seed, backend=backend,
                       jobs=jobs if backend != "sequential" else 1, progress=lambda *_: bar.advance(task),
                       in_registry=in_registry, metadata=run_metadata(jobs, backend) | {"declared": True},
                       cache=cache, done=done, cpu=(lambda s: clock.add_cpu("sweeps", s)) if clock else None)
        except KeyboardInterrupt:
            return True
    return False


def _run_cached(c: Claim, cache: ResultCache | None, **kw: Any) -> tuple[ClaimResult, str]:
    """Run ``c`` or take its result from the cache; say which, and why it ran."""
    if cache is None:
        return run_claim(c, **kw), "ran (cache off)"
    key = CacheKey.of(c, kw["profile"], kw["seed"], c.parameters(kw["profile"]))
    record, why = cache.lookup(key)
    if record is not None:
        return result_from_record(c, record), "cache"
    result = run_claim(c, **kw)
    if not has_error(result):  # a failure may be passing: never cache it
        cache.store(key, result_record(result))
    return result, "ran (cache off)" if not cache.read else f"ran: {why}"


def _line(result: ClaimResult, provenance: str = "") -> str:
    colour = {"VERIFIED": "green", "REFUTED": "red", "INCONCLUSIVE": "yellow", "ERROR": "magenta"}
    v = result.verdict.value
    none = no_near_miss(result.grade, result.outcome.decision.near_miss)
    grade = f" ({result.grade}{': no near miss' if none else ''})" if result.grade else ""
    ctl = ", ".join(o.verdict.value.lower() for _, o in result.controls)
    source = "from the cache" if provenance == "cache" else f"{result.seconds:.1f} s"
    why = f"  [dim]{provenance}[/]" if provenance.startswith("ran:") else ""
    return (f"[{colour[v]}]{v + grade:<16}[/] {result.claim.id}  ({source}; controls: {ctl or 'none'})"
            + (f"  [dim]{result.note}[/]" if result.note else "") + why)


def _console() -> Any:
    """The console for progress and notices: stderr, long lines kept whole."""
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)


def _progress(enabled: bool) -> Any:
    from .progress import progress_bar

    return progress_bar(enabled)


def sweep(claim_id: str, grid: dict[str, list[Any]] | list[str], *, profile: str = "quick", seed: int = 0,
          jobs: int = 1, backend: str = "loky", scheduler: str | None = None, trials: int | None = None,
          db: str | Path = DEFAULT_DB, out: str | Path | None = DEFAULT_OUT, progress: bool = True,
          registry: Registry | None = None, cache: bool = True) -> SweepSummary:
    """Run one claim at every point of a grid of its declared parameters; store and draw it.

    Args:
        claim_id: a claim id (or a claim name unique across papers).
        grid: parameter name -> values, or ``["NAME=V1,V2", ...]`` strings; names must be
            parameters the claim declares, values are converted to their types and checked
            against their ranges.
        trials: sets the claim's ``trials`` parameter at every point (it must declare one).
        profile, seed, jobs, backend, scheduler, db: as for :func:`run`; grid points run in
            parallel, each with streams keyed by its parameters.
        out: folder for the figure (``sweeps/sweep-<id>.pdf``); None draws nothing.
        cache: take unchanged points from the result cache beside ``db`` (as :func:`run` does).

    Returns:
        A :class:`workbench.sweeps.SweepSummary`: points in grid order and where the verdict
        changes.

    Raises:
        UsageError: on an unknown claim, a parameter it does not declare, a bad value or bad
            options, before any work starts.
    """
    backend, scheduler = resolve_backend(backend, scheduler)
    check_options(profile, jobs, seed, backend)
    reg = registry or load()
    try:
        c = find_claim(claim_id, reg)
        specs = grid if isinstance(grid, list) else [f"{k}={','.join(map(str, v))}" for k, v in grid.items()]
        parsed = parse_grid(c, specs)
        if trials is not None:
            if "trials" not in c.params:
                raise ValueError(f"claim {c.id} declares no 'trials' parameter; use --grid with one of "
                                 f"{', '.join(c.params) or 'its parameters (it has none)'}")
            parsed.setdefault("trials", [c.params["trials"].coerce("trials", trials)])
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if out is not None:
        check_writable(Path(out))
    store = Store(db)
    try:
        total = len(grid_points(parsed))
        bar = _progress(progress)
        with bar, parallel_backend(backend, scheduler, jobs) as (backend_name, workers):
            task = bar.add_task(f"sweep {c.id}", total=total)

            def advance(i: int, params: dict[str, Any], result: ClaimResult) -> None:
                bar.advance(task)

            summary = run_sweep(c, parsed, store=store, profile=profile, seed=seed, backend=backend_name,
                                jobs=workers if backend_name != "sequential" else 1, progress=advance,
                                in_registry=registry is None,
                                metadata=run_metadata(workers, backend_name, [c]) | {"scheduler": scheduler},
                                cache=ResultCache(Path(db).parent / "cache", warn=_cache_warning(), read=cache))
        if out is not None:
            from .report import sweep_figure

            folder = Path(out) / "sweeps"
            folder.mkdir(parents=True, exist_ok=True)
            summary.figure = sweep_figure(store.sweep(summary.sweep_id), folder / f"sweep-{summary.sweep_id}.pdf")
        return summary
    finally:
        store.close()


def search(claim_id: str, *, examples: int = 40, profile: str = "quick", seed: int = 0,
           db: str | Path = DEFAULT_DB, registry: Registry | None = None) -> SearchSummary:
    """Look for a violation of a bound claim over its declared parameter space, and store it.

    Hypothesis explores every parameter declared with ``low``/``high`` (see
    :mod:`workbench.counterexamples`), ``examples`` instances for the claim and as many for each control.
    A bound that holds reports its smallest margin; each control must be found violating.

    Raises:
        UsageError: for an unknown claim, a claim without bound evidence or without a ranged
            parameter, or ``examples < 1``, before any work starts.
    """
    from .counterexamples import run_search, search_space

    check_options(profile, 1, seed, "loky")
    if examples < 1:
        raise UsageError(f"examples must be >= 1, not {examples}")
    reg = registry or load()
    try:
        c = find_claim(claim_id, reg)
        search_space(c)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    summary = run_search(c, examples=examples, profile=profile, seed=seed)
    store = Store(db)
    try:
        summary.search_id = store.record_search(summary, seed=seed, profile=profile, examples=examples)
    finally:
        store.close()
    return summary
