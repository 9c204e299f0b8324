"""Running one claim and its controls: context, time limit, errors, decisions."""

from __future__ import annotations

import math
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from threadpoolctl import threadpool_limits

from .context import GLOBAL_RNG_MESSAGE, Context, GlobalRandomStateError, global_rng_fingerprint
from .evidence import Decision, Verdict, assess_near_miss, decide, final_verdict, is_sharp
from .model import Claim, Control

FULL_BUDGET_FACTOR = 10.0


class BudgetExceeded(Exception):
    """A claim ran past its time budget."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` in the main thread after ``seconds`` (no-op elsewhere)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise BudgetExceeded(f"time budget of {seconds:g} s exceeded")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Outcome:
    """The decided result of running one claim function or one control.

    Attributes:
        id: claim id, or ``claim:control`` for a control.
        decision: the engine's decision on the evidence (ERROR on exception, NaN, time limit).
        evidence: the raw evidence record (JSON-serialisable), None on error.
        seconds: wall-clock time of the function and the decision.
        traceback: the formatted traceback when the function raised.
    """

    id: str
    decision: Decision
    evidence: dict[str, Any] | None
    seconds: float
    traceback: str = ""

    @property
    def verdict(self) -> Verdict:
        return self.decision.verdict


@dataclass
class ClaimResult:
    """A claim's outcome, its controls' outcomes and the verdict the report shows."""

    claim: Claim
    params: dict[str, Any]
    outcome: Outcome
    controls: list[tuple[Control, Outcome]] = field(default_factory=list)
    verdict: Verdict = Verdict.ERROR
    note: str = ""
    seconds: float = 0.0
    profile: str = "quick"

    @property
    def expected(self) -> str:
        """The verdict the claim declares for this result's profile (VERIFIED unless declared)."""
        return self.claim.expected(self.profile)

    @property
    def passed(self) -> bool:
        """True when the claim is VERIFIED and every control REFUTED."""
        return self.verdict is Verdict.VERIFIED

    @property
    def grade(self) -> str | None:
        """``"sharp"`` or ``"slack"`` for a VERIFIED claim (see :func:`grade`), None otherwise."""
        return grade(self.verdict.value, self.outcome.decision.near_miss)


def grade(verdict: str, near_miss: dict[str, Any] | None) -> str | None:
    """How much a verified claim proves: ``"sharp"`` when its near miss is refuted (or no near
    miss applies: a symbolic proof, a declared reason), ``"slack"`` when the same evidence does
    not refute the near miss; None for a claim that is not VERIFIED."""
    if verdict != Verdict.VERIFIED.value:
        return None
    return "sharp" if is_sharp(near_miss) else "slack"


def no_near_miss(grade_: str | None, near_miss: dict[str, Any] | None) -> bool:
    """True for a claim graded sharp because it declares, with its reason, that no near miss
    applies (an existence statement, a direction without a size): counted with the sharp ones and
    said apart, since no wrong version of it was refuted."""
    return grade_ == "sharp" and (near_miss or {}).get("outcome") == "none"


def _evaluate(func: Any, ctx: Context, kind: str, uid: str, deadline: float, near_miss: Any = None,
              assess: bool = False) -> Outcome:
    """Run ``func(ctx)``, decide its evidence and, with ``assess``, its near miss (claims only)."""
    start = time.perf_counter()
    try:
        # One BLAS thread: claims are small dense problems, and parallelism is the runner's job.
        with time_limit(max(deadline - time.monotonic(), 1e-3)), threadpool_limits(limits=1), \
                mpmath_precision_kept():
            before = global_rng_fingerprint()
            evidence = func(ctx)
            if global_rng_fingerprint() != before:
                raise GlobalRandomStateError(f"the check {GLOBAL_RNG_MESSAGE}")
            decision = decide(evidence, kind)
            if assess and decision.verdict is not Verdict.ERROR:
                decision.near_miss = assess_near_miss(evidence, near_miss)
        record = {"kind": evidence.kind, **evidence.data()}
        tb = ""
    except Exception as exc:  # noqa: BLE001 - any failure of a check is an ERROR verdict
        record, tb = None, traceback.format_exc()
        decision = Decision(Verdict.ERROR, f"{type(exc).__name__}: {exc}")
    if decision.verdict is not Verdict.ERROR and any(
        isinstance(v, float) and math.isnan(v) for v in decision.headline.values()
    ):
        decision = Decision(Verdict.ERROR, "the evidence contains NaN", decision.rows)
    return Outcome(uid, decision, record, time.perf_counter() - start, tb)


def run_claim(claim: Claim, *, profile: str = "quick", seed: int = 0, jobs: int = 1,
              backend: str = "loky", params: dict[str, Any] | None = None,
              budget: float | None = None, stream: str | None = None) -> ClaimResult:
    """Run ``claim`` and all its controls with one parameter set and decide its verdict.

    Args:
        claim: a registered claim.
        profile: ``"quick"`` or ``"full"`` (chooses parameter values and the budget).
        seed: the run's root seed; the claim's streams are keyed by its id under it.
        jobs: joblib workers for the claim's trials and maps.
        params: overrides of the claim's declared parameters.
        budget: time limit in seconds for claim and controls together (default: the claim's
            budget, times ten in the full profile).
        stream: the identity random streams are keyed by (default: the claim's id; a sweep
            keys each grid point by its parameters).

    Raises:
        ValueError: on an unknown parameter or a value out of its declared range (before
            anything runs).
    """
    values = claim.parameters(profile, params)
    limit = budget if budget is not None else claim.budget * (FULL_BUDGET_FACTOR if profile == "full" else 1.0)
    if backend == "threading" and uses_mpmath(claim):
        # mpmath's working precision is one process-wide setting: threads of one claim would change
        # each other's.  Such a claim runs its trials and maps in this thread (the same numbers).
        jobs = 1
    start = time.perf_counter()
    deadline = time.monotonic() + limit

    def ctx(uid: str, overrides: dict[str, Any] | None = None) -> Context:
        # Controls draw the claim's own streams: the same instance, one hypothesis broken.
        return Context(uid, profile=profile, params=values | (overrides or {}), seed=seed, jobs=jobs,
                       backend=backend, stream=stream or claim.id)

    outcome = _evaluate(claim.func, ctx(claim.id), claim.evidence, claim.id, deadline, claim.near_miss, assess=True)
    controls = [(c, _evaluate(c.func, ctx(c.id, _overrides(claim, c)), claim.evidence, c.id, deadline))
                for c in claim.controls]
    verdict, note = final_verdict(outcome.verdict, [o.verdict for _, o in controls], claim.reconstructed)
    return ClaimResult(claim, values, outcome, controls, verdict, note, time.perf_counter() - start, profile)


def uses_mpmath(claim: Claim) -> bool:
    """True when the claim's code, or code it reaches, imports mpmath (anywhere in its source)."""
    from .cache import reach

    return any(name.split(".")[0] == "mpmath" for name in reach(claim).imports)


@contextmanager
def mpmath_precision_kept() -> Iterator[None]:
    """Restore mpmath's process-wide precision afterwards, whatever the code inside sets."""
    mpmath = sys.modules.get("mpmath")
    prec = mpmath.mp.prec if mpmath is not None else None
    try:
        yield
    finally:
        mpmath = sys.modules.get("mpmath")
        if mpmath is not None:
            mpmath.mp.prec = prec if prec is not None else 53


def _overrides(claim: Claim, control: Control) -> dict[str, Any]:
    """A parameter control's overrides, converted to the parameters' types (ranges not applied)."""
    return {name: claim.params[name].coerce(name, raw, check_range=False) for name, raw in (control.params or {}).items()}


def result_record(result: ClaimResult) -> dict[str, Any]:
    """A picklable record of ``result`` (outcomes by id, no function objects), for the cache."""
    return {"params": result.params, "outcome": result.outcome, "verdict": result.verdict,
            "note": result.note, "seconds": result.seconds, "profile": result.profile,
            "controls": [(ctl.id, o) for ctl, o in result.controls]}


def has_error(result: ClaimResult) -> bool:
    """True when the claim or one of its controls ended in ERROR (such results are never cached)."""
    return any(o.verdict is Verdict.ERROR for o in [result.outcome, *(o for _, o in result.controls)])


def result_from_record(claim: Claim, record: dict[str, Any]) -> ClaimResult:
    """Rebuild a :class:`ClaimResult` of ``claim`` from :func:`result_record`'s output."""
    by_id = {c.id: c for c in claim.controls}
    controls = [(by_id[cid], o) for cid, o in record["controls"] if cid in by_id]
    return ClaimResult(claim, record["params"], record["outcome"], controls, record["verdict"],
                       record["note"], record["seconds"], record.get("profile", "quick"))
