"""Counterexample search for bound claims.

Hypothesis explores the claim's declared parameter space (every parameter with a numeric
range; the others stay at their profile values), steered by ``hypothesis.target`` towards the
most violated instance: the score is minus the bound's smallest margin.  The same search runs on
each negative control, which must be found violating.  The search is deterministic for a given
root seed (``hypothesis.seed``, no example database).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from threadpoolctl import threadpool_limits

from .context import Context
from .evidence import Verdict, decide
from .execute import time_limit
from .model import Claim
from .sweeps import point_stream


@dataclass
class Probe:
    """One evaluated instance: its parameters, the bound's smallest margin and the verdict."""

    params: dict[str, Any]
    margin: float
    verdict: str
    summary: str


@dataclass
class SearchOutcome:
    """The search on one function (the claim, or one control).

    Attributes:
        target: the claim id or the control id searched.
        evaluations: instances evaluated; errors: of those, how many raised.
        worst: the instance with the smallest margin (the counterexample when violated).
        violated: True when some instance was REFUTED.
    """

    target: str
    evaluations: int = 0
    errors: int = 0
    worst: Probe | None = None
    violated: bool = False
    failures: dict[str, int] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)

    def sentence(self) -> str:
        skipped = ""
        if self.errors:
            reasons = "; ".join(f"{n} x {reason}" for reason, n in sorted(self.failures.items(), key=lambda x: -x[1]))
            skipped = f" ({self.errors} of {self.evaluations} instances could not be evaluated: {reasons})"
        if self.warnings:
            skipped += " (warnings: " + "; ".join(f"{n} x {w}" for w, n in sorted(self.warnings.items(),
                                                                              key=lambda x: -x[1])) + ")"
        if self.worst is None:
            return f"{self.target}: no instance could be evaluated{skipped}"
        where = ", ".join(f"{k} = {v}" for k, v in self.worst.params.items())
        if self.violated:
            return f"{self.target}: violated at {where}: {self.worst.summary}{skipped}"
        return (f"{self.target}: no violation in {self.evaluations - self.errors} instances; smallest margin "
                f"{self.worst.margin:.4g} at {where}{skipped}")


@dataclass
class SearchSummary:
    claim_id: str
    space: dict[str, tuple[Any, Any]]
    claim: SearchOutcome
    controls: list[SearchOutcome] = field(default_factory=list)
    search_id: int | None = None

    @property
    def passed(self) -> bool:
        """The bound held everywhere searched and every control was found violating."""
        return not self.claim.violated and self.claim.errors < self.claim.evaluations \
            and all(c.violated for c in self.controls)


def search_space(claim: Claim) -> dict[str, tuple[Any, Any]]:
    """The numeric parameters the theorem's hypotheses allow, as name -> (low, high): each
    parameter's ``hypothesis`` range where declared, else its declared range (a sweep range may go
    beyond the hypotheses; a search for counterexamples must not).

    Raises:
        ValueError: when the claim is not a bound claim or declares no ranged parameter.
    """
    if claim.evidence != "bound":
        raise ValueError(f"counterexample search is for bound claims; {claim.id} has {claim.evidence} evidence")
    space = {n: p.search_range() for n, p in claim.params.items()
             if p.search_range() is not None and p.choices is None
             and isinstance(p.quick, (int, float)) and not isinstance(p.quick, bool)}
    if not space:
        raise ValueError(f"claim {claim.id} declares no parameter with a numeric range (Param(low=, high=)) to search")
    return space


def _strategies(claim: Claim, space: dict[str, tuple[Any, Any]]) -> Any:
    from hypothesis import strategies as st

    out = {}
    for name, (low, high) in space.items():
        if isinstance(claim.params[name].quick, int):
            out[name] = st.integers(int(math.ceil(low)), int(math.floor(high)))
        else:
            out[name] = st.floats(float(low), float(high), allow_nan=False, allow_infinity=False)
    return st.fixed_dictionaries(out)


PROBE_SECONDS = 20.0  # an instance that takes longer is skipped (counted with the errors)


def _probe(claim: Claim, func: Any, uid: str, params: dict[str, Any], profile: str, seed: int,
           overrides: dict[str, Any] | None = None) -> Probe:
    values = claim.parameters(profile, params) | (overrides or {})
    ctx = Context(uid, profile=profile, params=values, seed=seed, stream=point_stream(claim.id, params))
    with time_limit(min(claim.budget, PROBE_SECONDS)), threadpool_limits(limits=1):
        decision = decide(func(ctx), "bound")
    if decision.verdict is Verdict.ERROR:
        raise ArithmeticError(decision.summary)
    return Probe(params, float(decision.headline["smallest_margin"]), decision.verdict.value, decision.summary)


def _reason(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if type(exc).__name__ == "BudgetExceeded":
        text = f"took over {PROBE_SECONDS:g} s"
    return text if len(text) <= 120 else text[:117] + "..."


def search_function(claim: Claim, func: Any, uid: str, *, examples: int, profile: str, seed: int,
                    overrides: dict[str, Any] | None = None) -> SearchOutcome:
    """Search the claim's space for the instance of ``func`` (run with the parameter ``overrides``
    of a control) with the smallest bound margin.  Instances that fail are counted with their
    reasons; warnings they raise (overflow...) are counted, not printed."""
    import warnings

    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import seed as hypothesis_seed

    space = search_space(claim)
    outcome = SearchOutcome(uid)

    @hypothesis_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate, Phase.target],
              suppress_health_check=list(HealthCheck), derandomize=False)
    @given(_strategies(claim, space))
    def explore(params: dict[str, Any]) -> None:
        params = {name: params[name] for name in space}  # the claim's order, for the report
        outcome.evaluations += 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                probe = _probe(claim, func, uid, params, profile, seed, overrides)
            except Exception as exc:  # noqa: BLE001 - an instance the check cannot evaluate is counted, not fatal
                outcome.errors += 1
                reason = _reason(exc)
                outcome.failures[reason] = outcome.failures.get(reason, 0) + 1
                probe = None
        for w in caught:
            text = f"{w.category.__name__}: {str(w.message)[:80]}"
            outcome.warnings[text] = outcome.warnings.get(text, 0) + 1
        if probe is None:
            return
        target(-probe.margin if math.isfinite(probe.margin) else 0.0, label="violation")
        if probe.verdict == Verdict.REFUTED.value:
            outcome.violated = True
        worst = outcome.worst
        if worst is None or (probe.verdict == "REFUTED", -probe.margin) > (worst.verdict == "REFUTED", -worst.margin):
            outcome.worst = probe

    explore()
    return outcome


def run_search(claim: Claim, *, examples: int = 40, profile: str = "quick", seed: int = 0) -> SearchSummary:
    """Search the claim and each of its controls (see the module docstring)."""
    space = search_space(claim)
    main = search_function(claim, claim.func, claim.id, examples=examples, profile=profile, seed=seed)
    controls = [search_function(claim, c.func, c.id, examples=examples, profile=profile, seed=seed,
                                overrides={k: claim.params[k].coerce(k, v, check_range=False)
                                           for k, v in (c.params or {}).items()})
                for c in claim.controls]
    return SearchSummary(claim.id, space, main, controls)
