"""The verdicts, the decision record, the evidence base class and near misses (shared by every kind)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np


class Verdict(StrEnum):
    VERIFIED = "VERIFIED"
    REFUTED = "REFUTED"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


class EvidenceError(ValueError):
    """The evidence a claim returned is malformed (wrong shapes, missing reason...)."""


@dataclass
class Decision:
    """What the engine concluded from one piece of evidence.

    Attributes:
        verdict: VERIFIED, REFUTED, INCONCLUSIVE or ERROR.
        summary: one sentence saying why, with the deciding numbers.
        rows: the evidence table: dicts with ``quantity, measured, claimed, tolerance, reason``.
        error_probability: probability that this rule refutes a true claim (None when exact).
        counterexample: the violating instance, for REFUTED bound/identity/symbolic evidence.
        headline: named numbers worth quoting (exported as LaTeX macros).
        figure: data for the report's figure (kind-specific), or None.
        sharpness: the strongest version of the claim the evidence would still verify:
            ``{"measure": name, "value": number or None, "sentence": plain words, ...}``.
        near_miss: the outcome of :func:`assess_near_miss` (claims only; None for controls).
    """

    verdict: Verdict
    summary: str
    rows: list[dict[str, str]] = field(default_factory=list)
    error_probability: float | None = None
    counterexample: dict[str, Any] | None = None
    headline: dict[str, float] = field(default_factory=dict)
    figure: dict[str, Any] | None = None
    sharpness: dict[str, Any] | None = None
    near_miss: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value, "summary": self.summary, "rows": self.rows,
            "error_probability": self.error_probability, "counterexample": self.counterexample,
            "headline": self.headline, "figure": self.figure, "sharpness": self.sharpness,
            "near_miss": self.near_miss,
        }


def fmt(x: Any, digits: int = 6) -> str:
    """Compact human formatting of a number (or pass-through of anything else)."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x) or math.isinf(x):
            return str(x)
        if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e6):
            return f"{x:.{digits - 2}g}"
        return f"{x:.{digits}g}"
    return str(x)


PAIR_DIGITS = 9  # at most this many significant digits to tell two printed values apart


def fmt_pair(a: Any, b: Any, digits: int = 6) -> tuple[str, str]:
    """``a`` and ``b`` formatted so that a difference shows: with up to :data:`PAIR_DIGITS`
    significant digits, and beyond that ``a`` with its difference from ``b`` spelled out
    (``"15.1187 (1.2e-12 below)"``): a margin smaller than the printed precision must not read as
    equality (``15.1187 <= 15.1187``)."""
    try:
        x, y = float(a), float(b)
    except (TypeError, ValueError):
        return fmt(a, digits), fmt(b, digits)
    for d in range(digits, PAIR_DIGITS + 1):
        sa, sb = fmt(x, d), fmt(y, d)
        if sa != sb or x == y:
            return sa, sb
    return f"{fmt(x, digits)} ({fmt(abs(x - y), 2)} {'below' if x < y else 'above'})", fmt(y, digits)


def count_phrase(n: int, noun: str, plural: str | None = None) -> str:
    """``"all 3 instances"``, or ``"the single instance"`` when there is one."""
    return f"the single {noun}" if n == 1 else f"all {n} {plural or noun + 's'}"


def _tol_text(rtol: Any, atol: Any) -> str:
    """'rtol a, atol b', with the largest entry of an array tolerance."""
    def one(t: Any) -> str:
        arr = np.asarray(t, dtype=float)
        return fmt(float(arr)) if arr.ndim == 0 else f"up to {fmt(float(arr.max()))} (per entry)"
    return f"rtol {one(rtol)}, atol {one(atol)}"


def _as_array(x: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise EvidenceError(f"{name} must be numeric: {exc}") from None
    return arr


def _require_reason(why: str, kind: str) -> None:
    if not isinstance(why, str) or not why.strip():
        raise EvidenceError(f"{kind} evidence needs `why`: the reason for its tolerance or level (where the "
                            "tolerance comes from: rounding, the interval's level, a discretisation error)")


def _finite(value: Any, name: str, kind: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise EvidenceError(f"{kind} evidence: {name} must be a number, not {value!r}") from None
    if not math.isfinite(v):
        raise EvidenceError(f"{kind} evidence: {name} must be finite, not {value!r}")
    return v


def _level(value: Any, kind: str) -> float:
    v = _finite(value, "level", kind)
    if not 0 < v < 1:
        raise EvidenceError(f"{kind} evidence: level must lie in (0, 1), not {value!r}")
    return v


TABLE_MAX = 60  # labelled instances up to this count are all shown in the evidence table


def _per_instance_rows(labels: list[str] | None, measured: np.ndarray, claimed: list[str], tol: str,
                       why: str, fallback: dict[str, str]) -> list[dict[str, str]]:
    """One row per labelled instance (a results table), or the single deciding row."""
    if not labels or len(labels) != measured.size or measured.size > TABLE_MAX:
        return [fallback]
    return [{"quantity": str(lab), "measured": fmt(v), "claimed": c, "tolerance": tol if i == 0 else "",
             "reason": why if i == 0 else ""}
            for i, (lab, v, c) in enumerate(zip(labels, measured.ravel(), claimed, strict=True))]


def _tolist(x: np.ndarray) -> list:
    return np.asarray(x, dtype=float).ravel().tolist()


class NoNearMiss(Exception):
    """The default near miss of a piece of evidence cannot be derived (a claimed value of 0...)."""


@dataclass(frozen=True)
class NearMiss:
    """A version of a claim wrong by a stated, modest amount in the stronger direction.

    The engine decides the claim's own evidence again with its claimed number changed: the
    claimed ``field`` (default: the kind's claimed number: ``bound`` of a :class:`Bound`,
    ``exponent`` of a :class:`Rate`, ``probability`` of a :class:`Proportion`, ``reference`` of an
    :class:`Identity` or :class:`Certificate`, ``margin`` of a :class:`Comparison`) is multiplied
    by ``scale``, shifted by ``shift`` or replaced by ``to``.  The near miss must come out
    REFUTED for the claim's verdict to count as sharp.

    Args:
        scale, shift, to: exactly one of them (``to`` may be an array of the field's shape).
        why: the reason for this near miss (required): why it is the modest wrong version that
            matters for this claim, e.g. "the paper's constant is 4/3; its predecessor's is 2".
        field: the evidence field to change, when not the kind's default (e.g. ``"constant"``).
        description: the near miss in words (default: made from the change).

    Use :meth:`none` when the claim states no number that a near miss could move (an existence
    statement): the report then shows the reason instead of a near miss.

    Raises:
        EvidenceError: without ``why``, or without exactly one of scale/shift/to.
    """

    scale: float | None = None
    shift: float | None = None
    to: Any = None
    why: str = ""
    field: str | None = None
    description: str = ""
    absent: bool = False

    def __post_init__(self) -> None:
        if not self.why or not self.why.strip():
            raise EvidenceError("a declared near miss needs `why`: why this wrong version of the claim is the one "
                                "the check must refute")
        given = sum(v is not None for v in (self.scale, self.shift, self.to))
        if self.absent:
            if given:
                raise EvidenceError("NearMiss.none(why) takes no scale, shift or to")
        elif given != 1:
            raise EvidenceError("a near miss changes the claimed number in one way: give exactly one of "
                                "scale=, shift= or to=")

    @classmethod
    def none(cls, why: str) -> NearMiss:
        """No near miss applies (the claim states no number to move); ``why`` says so."""
        return cls(why=why, absent=True)

    def as_dict(self) -> dict[str, Any]:
        to = self.to.tolist() if isinstance(self.to, np.ndarray) else self.to
        return {"scale": self.scale, "shift": self.shift, "to": to, "why": self.why, "field": self.field,
                "description": self.description, "absent": self.absent}

    def apply(self, evidence: Evidence) -> list[tuple[str, Evidence]]:
        """The near-miss version(s) of ``evidence``: ``[(description, evidence)]``.

        Raises:
            EvidenceError: when the evidence has no such field.
        """
        name = self.field or evidence.claimed_field
        if not name or not hasattr(evidence, name):
            raise EvidenceError(f"{evidence.kind} evidence has no claimed number {name!r} for a near miss")
        old = getattr(evidence, name)
        if old is None:
            raise EvidenceError(f"the near miss changes {name!r}, which this {evidence.kind} evidence does not claim")
        if self.scale is not None:
            new, text = np.asarray(old, dtype=float) * self.scale, f"{name} times {fmt(self.scale)}"
        elif self.shift is not None:
            new, text = np.asarray(old, dtype=float) + self.shift, f"{name} {'+' if self.shift >= 0 else '-'} {fmt(abs(self.shift))}"
        else:
            new, text = self.to, f"{name} {fmt(self.to) if np.ndim(self.to) == 0 else 'replaced'}"
        if np.ndim(new) == 0:
            new = float(new)
        if np.ndim(new) == 0 and np.ndim(old) == 0:
            text += f" ({fmt(float(old), 4)} -> {fmt(float(new), 4)})"
        return [(self.description or text, _replace(evidence, **{name: new}))]


def _replace(evidence: Evidence, **changes: Any) -> Evidence:
    return dataclasses.replace(evidence, **changes)


@dataclass
class Evidence:
    """Base class of all evidence kinds.

    Every kind takes the keyword ``finding``: a short name of what the measurement found when
    it classifies the instance (an equilibrium regime, "heterogeneous"; a phase), or None.  The
    report shows it, and a sweep over two parameters colours its phase diagram by it.

    Evidence is checked when it is made: a missing ``why`` or a non-finite claimed value raises
    :class:`EvidenceError` at once.

    Text fields (``quantity``, ``why``, labels, ``xlabel``...) may write math as LaTeX in
    ``$...$``: the report typesets it the same way in its tables (LaTeX) and its figure labels
    (matplotlib's mathtext, LaTeX's math subset; a label it cannot parse is drawn as plain
    text).  A formula written without ``$`` (``x_k``, ``n^{-1/2}``) is set as math too.
    """

    finding: str | None = field(default=None, kw_only=True)
    kind: ClassVar[str] = ""
    claimed_field: ClassVar[str | None] = None  # the number a near miss moves by default
    near_miss_default: ClassVar[str] = ""  # the default near miss, in words
    relations: ClassVar[tuple[str, ...]] = ()  # the relations a kind with a ``relation`` field accepts

    def __post_init__(self) -> None:
        if hasattr(self, "why"):
            _require_reason(self.why, self.kind)
        if self.relations and getattr(self, "relation", None) not in self.relations:
            allowed = ", ".join(repr(r) for r in self.relations)
            raise EvidenceError(f"{self.kind} relation must be one of {allowed}, not {getattr(self, 'relation', None)!r}")

    def decide(self) -> Decision:  # pragma: no cover - abstract
        raise NotImplementedError

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        """The kind's default near misses ``[(description, evidence)]``.

        Raises:
            NoNearMiss: when none can be derived from the evidence (say why).
        """
        raise NoNearMiss(f"{self.kind} evidence has no default near miss")

    def data(self) -> dict[str, Any]:
        """A JSON-serialisable record of the raw evidence."""
        out = {}
        for k, v in vars(self).items():
            if isinstance(v, np.ndarray):
                v = v.tolist()
            elif isinstance(v, (np.floating, np.integer)):
                v = v.item()
            out[k] = v if _jsonable(v) else repr(v)
        return out


def _jsonable(v: Any) -> bool:
    import json

    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def _stronger_by_half(values: Any, relation: str) -> np.ndarray:
    """Values moved by half their size toward the stronger side of ``relation``: a claimed
    upper bound halved (b - |b|/2), a lower bound raised by half (b + |b|/2)."""
    b = np.asarray(values, dtype=float)
    return b - 0.5 * np.abs(b) if relation == "<=" else b + 0.5 * np.abs(b)
