"""Several pieces of evidence, the one ``decide`` entry point, near-miss assessment and the final verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .bound import Bound
from .core import (
    Decision,
    Evidence,
    EvidenceError,
    NearMiss,
    NoNearMiss,
    Verdict,
    fmt,
)
from .exact import Certificate, Identity, Symbolic
from .rate import Rate
from .statistical import Comparison, Proportion


# --------------------------------------------------------------------------- several pieces
@dataclass
class AllOf(Evidence):
    """Several pieces of evidence for one claim, all of which must verify.

    For a claim checked two ways (a worst case over a function class by PEPit and trajectories
    of concrete functions; an exact value and a Monte Carlo rate).  Rule: ERROR when a piece is an
    ERROR, REFUTED when a piece is REFUTED, VERIFIED when every piece is VERIFIED, INCONCLUSIVE
    otherwise.  The table lists every piece's rows under its label.

    Sharpness: each piece's.  Near miss: each piece is decided against its own near misses (the
    piece's entry in ``near_misses``, else the claim's declared :class:`NearMiss`, else the
    piece's default), one claimed number at a time with the other pieces unchanged; the claim is
    sharp only when every piece with a number to move refutes its near misses (a piece without
    one, exact or declared none, neither helps nor blocks).

    Args:
        parts: the pieces of evidence (any kinds, at least one).
        labels: a name per piece (default "piece 1", ...).
        near_misses: optional, one :class:`NearMiss` or None per piece (None: the claim's or the
            kind's), e.g. ``NearMiss.none("a limit has no number to move")`` for one piece.
    """

    parts: list[Any]
    labels: list[str] | None = None
    near_misses: list[Any] | None = None
    kind = "all"
    near_miss_default: ClassVar[str] = "each piece's own near misses, one at a time; sharp when every piece refutes its own"

    def __post_init__(self) -> None:
        parts = list(self.parts) if isinstance(self.parts, (list, tuple)) else [self.parts]
        if not parts or not all(isinstance(p, Evidence) for p in parts):
            raise EvidenceError("AllOf takes a non-empty list of evidence objects (Identity, Bound, Rate, ...)")
        if self.labels is not None and len(self.labels) != len(parts):
            raise EvidenceError(f"AllOf has {len(parts)} pieces but {len(self.labels)} labels")
        if self.near_misses is not None:
            if len(self.near_misses) != len(parts) or not all(n is None or isinstance(n, NearMiss)
                                                              for n in self.near_misses):
                raise EvidenceError(f"AllOf near_misses needs one NearMiss or None per piece ({len(parts)})")
        self.parts = parts

    @property
    def names(self) -> list[str]:
        return list(self.labels) if self.labels else [f"piece {i + 1}" for i in range(len(self.parts))]

    def data(self) -> dict[str, Any]:
        return {"parts": [{"kind": p.kind, **p.data()} for p in self.parts], "labels": self.names,
                "near_misses": [n.as_dict() if n is not None else None for n in self.near_misses]
                if self.near_misses else None, "finding": self.finding}

    def decide(self) -> Decision:
        decisions = [decide(p) for p in self.parts]
        rows, headline, figures, parts_sharp = [], {}, [], []
        for name, d in zip(self.names, decisions, strict=True):
            rows.append({"quantity": f"{name}: {d.verdict.value.lower()}", "measured": "", "claimed": "",
                         "tolerance": "", "reason": d.summary})
            rows += d.rows
            headline |= {f"{name} {k}": v for k, v in d.headline.items()}
            if d.figure:
                figures.append(d.figure | {"title": name})
            if d.sharpness:
                parts_sharp.append({"label": name, **d.sharpness})
        sharp = {"measure": "per piece", "value": None, "parts": parts_sharp,
                 "sentence": "; ".join(f"{p['label']}: {p['sentence']}" for p in parts_sharp)}
        verdicts = [d.verdict for d in decisions]
        probs = [d.error_probability for d in decisions if d.error_probability is not None]
        kw = {"rows": rows, "headline": headline, "sharpness": sharp,
              "figure": {"type": "parts", "parts": figures} if figures else None,
              "error_probability": min(1.0, sum(probs)) if probs else None}
        listing = ", ".join(f"{n} {v.value.lower()}" for n, v in zip(self.names, verdicts, strict=True))
        for verdict in (Verdict.ERROR, Verdict.REFUTED):
            if verdict in verdicts:
                i = verdicts.index(verdict)
                return Decision(verdict, f"{self.names[i]}: {decisions[i].summary} ({listing})",
                                counterexample=decisions[i].counterexample, **kw)
        if all(v is Verdict.VERIFIED for v in verdicts):
            return Decision(Verdict.VERIFIED, f"all {len(verdicts)} pieces of evidence verify ({listing})", **kw)
        i = next(j for j, v in enumerate(verdicts) if v is not Verdict.VERIFIED)
        return Decision(Verdict.INCONCLUSIVE, f"not every piece of evidence verifies ({listing}); "
                        f"{self.names[i]}: {decisions[i].summary}", **kw)


KINDS: dict[str, type[Evidence]] = {
    cls.kind: cls for cls in (Identity, Symbolic, Bound, Rate, Proportion, Certificate, Comparison, AllOf)
}


def decide(evidence: Any, expected_kind: str | None = None) -> Decision:
    """Turn a claim's return value into a decision.

    Raises:
        EvidenceError: when the return value is not evidence, or not of ``expected_kind``.
    """
    if isinstance(evidence, Verdict) or isinstance(evidence, str):
        raise EvidenceError("a claim must return evidence (Identity, Bound, Rate, ...), not a verdict")
    if not isinstance(evidence, Evidence):
        raise EvidenceError(f"a claim must return an Evidence object, not {type(evidence).__name__}")
    if expected_kind is not None and evidence.kind != expected_kind:
        raise EvidenceError(f"the claim declares {expected_kind!r} evidence but returned {evidence.kind!r}")
    decision = evidence.decide()
    if decision.sharpness is not None:
        decision.sharpness["short"] = sharpness_label(decision.sharpness)
    return decision


def sharpness_label(sharpness: dict[str, Any]) -> str:
    """A few words for a summary table: ``"tightness 0.31"``, ``"exponent in [-0.53, -0.47]"``..."""
    measure, value, span = sharpness.get("measure"), sharpness.get("value"), sharpness.get("range")
    if measure == "tightness":
        return f"tightness {fmt(value, 2)}" if value is not None else "margin (no positive bound)"
    if measure == "strongest exponent verified":  # one-sided: the claimed exponents the evidence would verify
        sign = ">=" if sharpness.get("relation", "<=") == "<=" else "<="
        return f"verifies claimed exponents {sign} {fmt(value, 3)}"
    if measure == "exponents not rejected":
        low, high = fmt(span[0], 3), fmt(span[1], 3)
        return f"exponent {low} (exact fit)" if low == high else f"exponent in [{low}, {high}]"
    if measure == "largest probability verified":
        return f"P >= {fmt(value, 3)}"
    if measure == "smallest probability verified":
        return f"P <= {fmt(value, 3)}"
    if measure == "probabilities not rejected":
        return f"P in [{fmt(span[0], 3)}, {fmt(span[1], 3)}]"
    if measure == "relative tolerance":
        return f"rel. tolerance {fmt(value, 2)}" if value is not None else "absolute tolerance"
    if measure == "largest margin verified":
        return f"effect in [{fmt(span[0], 3)}, {fmt(span[1], 3)}]"
    if measure == "per piece":
        return "; ".join(p.get("short") or sharpness_label(p) for p in sharpness.get("parts", []))
    return str(measure or "")


# --------------------------------------------------------------------------- near misses
NEAR_MISS_OUTCOMES = ("refuted", "verified", "inconclusive", "error", "exact", "none", "underivable")
SHARP_OUTCOMES = ("refuted", "exact", "none")


def assess_near_miss(evidence: Evidence, declared: NearMiss | None = None) -> dict[str, Any]:
    """Decide ``evidence`` again against the claim's near miss; say whether the check is sharp.

    Args:
        evidence: the claim's own evidence (already decided).
        declared: the claim's declared near miss, or None for the kind's default.

    Returns:
        ``{"outcome", "sentence", "cases": [{"description", "verdict", "summary"}], "why"}``
        where ``outcome`` is ``"refuted"`` (every near miss refuted: the check is sharp),
        ``"verified"`` or ``"inconclusive"`` (the check cannot tell the claim from its near miss:
        slack), ``"error"``, ``"exact"`` (symbolic proof), ``"none"`` (declared: no number to
        move) or ``"underivable"`` (no default and none declared: slack until one is declared).
    """
    if isinstance(evidence, Symbolic):
        return {"outcome": "exact", "cases": [], "why": "",
                "sentence": "no near miss is needed: sympy's proof is exact"}
    if declared is not None and declared.absent:
        return {"outcome": "none", "cases": [], "why": declared.why,
                "sentence": f"no near miss applies: {declared.why}"}
    if isinstance(evidence, AllOf):
        return _assess_pieces(evidence, declared)
    try:
        cases = declared.apply(evidence) if declared is not None else evidence.default_near_misses()
    except NoNearMiss as exc:
        return {"outcome": "underivable", "cases": [], "why": str(exc),
                "sentence": f"no near miss could be derived ({exc}), so the check's sharpness is not shown"}
    except EvidenceError as exc:
        return {"outcome": "error", "cases": [], "why": str(exc), "sentence": f"the near miss could not be built: {exc}"}
    decided = []
    for description, ev in cases:
        try:
            d = ev.decide()
            decided.append({"description": description, "verdict": d.verdict.value, "summary": d.summary})
        except EvidenceError as exc:
            decided.append({"description": description, "verdict": Verdict.ERROR.value, "summary": str(exc)})
    verdicts = [c["verdict"] for c in decided]
    if all(v == "REFUTED" for v in verdicts):
        outcome = "refuted"
    elif "ERROR" in verdicts:
        outcome = "error"
    elif "VERIFIED" in verdicts:
        outcome = "verified"
    else:
        outcome = "inconclusive"
    why = declared.why if declared is not None else ""
    sentence = {
        "refuted": "the same evidence refutes the near miss: the check tells the claim from it",
        "verified": "the same evidence also verifies the near miss: the check cannot tell the claim from this wrong "
                    "version of it",
        "inconclusive": "the same evidence does not refute the near miss: the check cannot tell the claim from this "
                        "wrong version of it",
        "error": "deciding the near miss failed",
    }[outcome]
    return {"outcome": outcome, "cases": decided, "why": why, "sentence": sentence}


def _assess_pieces(evidence: AllOf, declared: NearMiss | None) -> dict[str, Any]:
    # Each near miss moves one piece's claimed number with the other pieces as they are, so the
    # claim tells itself from every near miss only when every piece refutes its own.  A piece with
    # no number to move (exact, none declared, none derivable) neither helps nor blocks.
    own = evidence.near_misses or [None] * len(evidence.parts)
    pieces = [assess_near_miss(p, mine if mine is not None else declared) for p, mine in zip(evidence.parts, own,
                                                                                               strict=True)]
    outcomes = [p["outcome"] for p in pieces]
    cases = [c | {"description": f"{name}: {c['description']}"}
             for name, p in zip(evidence.names, pieces, strict=True) for c in p["cases"]]
    listing = "; ".join(f"{name}: {p['outcome']}" for name, p in zip(evidence.names, pieces, strict=True))
    why = declared.why if declared else ""
    neutral = ("exact", "none", "underivable")
    blocking = [o for o in outcomes if o not in SHARP_OUTCOMES and o not in neutral]
    if blocking:
        outcome = "verified" if "verified" in blocking else ("error" if "error" in blocking else "inconclusive")
        return {"outcome": outcome, "cases": cases, "why": why,
                "sentence": f"not every piece tells the claim from its near miss ({listing})"}
    if all(o == "underivable" for o in outcomes):
        return {"outcome": "underivable", "cases": cases, "why": why,
                "sentence": f"no piece has a near miss that could be derived ({listing}): declare one"}
    return {"outcome": "refuted" if "refuted" in outcomes else outcomes[0], "cases": cases, "why": why,
            "sentence": f"every piece with a number to move refutes its near miss ({listing})"}


def describe_near_miss(kind: str, declared: NearMiss | None) -> str:
    """The near miss a claim of evidence ``kind`` is decided against, in words."""
    if declared is None:
        return f"default: {KINDS[kind].near_miss_default}"
    if declared.absent:
        return f"none: {declared.why}"
    change = declared.description or (f"{declared.field or KINDS[kind].claimed_field} " + (
        f"times {fmt(declared.scale)}" if declared.scale is not None else
        f"{'+' if declared.shift >= 0 else '-'} {fmt(abs(declared.shift))}" if declared.shift is not None else
        f"replaced by {fmt(declared.to) if np.ndim(declared.to) == 0 else 'given values'}"))
    return f"declared: {change} ({declared.why})"


def is_sharp(near_miss: dict[str, Any] | None) -> bool:
    """True when a near-miss outcome shows the check sharp (refuted, exact, or declared none)."""
    return bool(near_miss) and near_miss.get("outcome") in SHARP_OUTCOMES


# --------------------------------------------------------------------------- final verdict
def final_verdict(claim_verdict: Verdict, control_verdicts: list[Verdict], reconstructed: bool) -> tuple[Verdict, str]:
    """Combine a claim's verdict with its controls' into the verdict the report shows.

    A claim counts as VERIFIED only when its own verdict is VERIFIED and every control is
    REFUTED (the proof that the check has power); a control that is not refuted caps it at
    INCONCLUSIVE.  A refuted reconstructed statement stays REFUTED, with a note that the
    statement refuted is our reading of the paper (the paper's exact statement may differ): it
    is shown and counted as such, never folded into INCONCLUSIVE.

    Returns:
        (verdict, note) where note explains any capping.
    """
    if claim_verdict is Verdict.ERROR:
        return Verdict.ERROR, "the check itself failed"
    if claim_verdict is Verdict.REFUTED:
        if reconstructed:
            return Verdict.REFUTED, ("reconstructed statement refuted: the counterexample refutes our reading of the "
                                     "paper, whose exact statement may differ")
        return Verdict.REFUTED, ""
    if claim_verdict is Verdict.VERIFIED:
        if not control_verdicts:
            return Verdict.INCONCLUSIVE, "no negative control: the check's power is not shown"
        weak = [v for v in control_verdicts if v is not Verdict.REFUTED]
        if weak:
            return Verdict.INCONCLUSIVE, "a negative control was not refuted: the check has no power"
        return Verdict.VERIFIED, ""
    return Verdict.INCONCLUSIVE, ""
