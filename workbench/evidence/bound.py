"""Bounds on every instance, with their tightness."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .core import (
    Decision,
    Evidence,
    EvidenceError,
    NoNearMiss,
    Verdict,
    _as_array,
    _finite,
    _per_instance_rows,
    _replace,
    _stronger_by_half,
    _tol_text,
    _tolist,
    fmt,
)


# --------------------------------------------------------------------------- bound
def _bound_tightness(m: np.ndarray, b: np.ndarray, relation: str) -> tuple[float | None, int, str]:
    """(tightness, index of the tightest instance, sentence) of measured ``m`` against bound ``b``.

    For positive bounds (and, for ``">="``, positive measured values) the tightness is the
    largest ratio measured/bound (``"<="``) or bound/measured (``">="``): 1 when an instance
    attains the bound, near 0 when every instance has a large slack.  Otherwise it is None and
    the sentence gives the smallest additive margin relative to the bound's size.
    """
    positive = b > 0
    if relation == "<=" and np.all(b >= 0) and np.any(positive):
        # Instances whose bound is exactly 0 hold (or are violations, decided by the rule); the
        # tightness is that of the others.
        ratio = np.where(positive, m / np.where(positive, b, 1.0), -np.inf)
        i = int(np.argmax(ratio))
        t = float(ratio[i])
        if t <= 0:
            return t, i, ("every measured value is at most 0: the evidence would verify any positive multiple "
                          "of the bound")
        return t, i, (f"tightness {fmt(t, 3)} (largest measured/bound): the evidence would also have verified "
                      f"a bound {fmt(t, 3)} times the claimed one")
    if relation == ">=" and np.all(b >= 0) and np.any(positive) and np.all(m[positive] > 0):
        ratio = np.where(positive, b / np.where(positive, m, 1.0), -np.inf)
        i = int(np.argmax(ratio))
        t = float(ratio[i])
        return t, i, (f"tightness {fmt(t, 3)} (largest bound/measured): the evidence would also have verified "
                      f"a bound {fmt(1 / t, 3)} times the claimed one")
    sign = 1.0 if relation == "<=" else -1.0
    margin = sign * (b - m)
    i = int(np.argmin(margin))
    scale = float(np.max(np.abs(b))) or float(np.max(np.abs(m))) or 1.0
    return None, i, (f"smallest margin {fmt(float(margin[i]), 3)} ({fmt(float(margin[i]) / scale, 3)} of the "
                     f"largest |bound| {fmt(scale, 3)}): the bound could be moved by that much toward the "
                     "stronger side and still verify")


@dataclass
class Bound(Evidence):
    """Measured values that must satisfy a claimed bound on every instance.

    Rule: with ``relation="<="``, VERIFIED when ``measured <= bound + slack`` on every instance
    (``slack = atol + rtol * |bound|``); REFUTED otherwise, keeping the most violating instance
    (its index, label and values) as the counterexample; ``">="`` mirrors it.  ERROR on NaN.
    With ``attained=a`` the claim is also that the bound is attained within the factor ``a``
    (a tight bound): VERIFIED needs the tightness (below) to be at least ``a``, and a bound that
    holds but is not attained is REFUTED.

    Sharpness: the tightness, the largest ratio measured/bound over the instances (bound/measured
    for ``">="``): how far the bound could be scaled toward the stronger side before an instance
    violates it.  Without positive bounds, the smallest margin relative to the bound's size.
    Default near miss: the bound moved by half its size toward the stronger side (``b/2`` for
    a positive upper bound, ``1.5 b`` for a positive lower bound); none when every bound is 0.

    Args:
        measured, bound: arrays of one shape, one entry per instance.
        relation: ``"<="`` or ``">="``.
        rtol, atol: the stated slack, scalars or one per instance; ``why`` gives its reason
            (rounding, discretisation).
        quantity: what is bounded; ``instances``: optional label per instance.
        x: optional abscissa per instance (step index, size), used for the figure.
        attained: optional factor in (0, 1]: the bound must be attained within it.
        found_by: how the instances were found (a tight family from the literature, an
            adversarial search: :meth:`workbench.Context.worst_case` gives the sentence).
    """

    measured: Any
    bound: Any
    relation: str = "<="
    rtol: float = 0.0
    atol: float = 0.0
    why: str = ""
    quantity: str = "value"
    instances: list[str] | None = None
    x: Any = None
    xlabel: str = "instance"
    attained: float | None = None
    found_by: str = ""
    kind = "bound"
    relations = ("<=", ">=")
    claimed_field = "bound"
    near_miss_default: ClassVar[str] = "the bound moved by half its size toward the stronger side (b/2 for a positive upper bound, 1.5 b for a positive lower bound)"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.attained is not None:
            a = _finite(self.attained, "attained", "bound")
            if not 0 < a <= 1:
                raise EvidenceError(f"bound evidence: attained is a factor in (0, 1], not {self.attained!r}")

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        b = _as_array(self.bound, "bound")
        if not np.any(b != 0):
            raise NoNearMiss("every bound is 0, so halving it changes nothing: declare a near miss")
        text = "the bound halved" if self.relation == "<=" else "the bound raised by half"
        return [(text, _replace(self, bound=_stronger_by_half(b, self.relation), attained=None))]

    def decide(self) -> Decision:
        m = _as_array(self.measured, "measured").ravel()
        b = _as_array(self.bound, "bound")
        b = np.broadcast_to(b, m.shape).ravel() if b.size in (1, m.size) else b.ravel()
        if b.shape != m.shape:
            raise EvidenceError(f"measured has {m.size} entries but bound has {b.size}")
        if m.size == 0:
            raise EvidenceError("bound evidence has no instances")
        if not (np.all(np.isfinite(m)) and np.all(np.isfinite(b))):
            bad = int(np.argmax(~(np.isfinite(m) & np.isfinite(b))))
            return Decision(Verdict.ERROR, f"non-finite value at instance {bad}")
        slack = (np.broadcast_to(np.asarray(self.atol, dtype=float), m.shape).ravel()
                 + np.broadcast_to(np.asarray(self.rtol, dtype=float), m.shape).ravel() * np.abs(b))
        sign = 1.0 if self.relation == "<=" else -1.0
        excess = sign * (m - b) - slack
        worst = int(np.argmax(excess))
        n_bad = int(np.sum(excess > 0))
        margin = float(-np.max(sign * (m - b))) + 0.0
        tol = _tol_text(self.rtol, self.atol)
        label = self.instances[worst] if self.instances else f"instance {worst}"
        tightness, tight_i, sentence = _bound_tightness(m, b, self.relation)
        # The row shown: the worst violation, else the tightest instance by the sharpness measure.
        shown = worst if n_bad or tightness is None else tight_i
        row = {"quantity": f"{self.quantity} ({'most violated' if n_bad else 'tightest'} instance)",
               "measured": fmt(m[shown]), "claimed": f"{self.relation} {fmt(b[shown])}", "tolerance": tol,
               "reason": self.why}
        rows = _per_instance_rows(self.instances, m, [f"{self.relation} {fmt(v)}" for v in b], tol, self.why, row)
        if self.found_by:
            rows.append({"quantity": "how the instances were found", "measured": self.found_by, "claimed": "",
                         "tolerance": "", "reason": ""})
        figure = {"type": "bound", "x": _tolist(self.x) if self.x is not None else list(range(m.size)),
                  "measured": m.tolist(), "bound": b.tolist(), "relation": self.relation,
                  "xlabel": self.xlabel, "ylabel": self.quantity} if m.size > 1 else None
        tight_label = self.instances[tight_i] if self.instances else f"instance {tight_i}"
        sharp = {"measure": "tightness", "value": tightness, "sentence": f"{sentence} (at {tight_label})"}
        headline = {"instances": m.size, "violations": n_bad, "smallest_margin": margin}
        if tightness is not None:
            headline["tightness"] = tightness
        kw = {"headline": headline, "figure": figure, "sharpness": sharp}
        found = f" ({self.found_by})" if self.found_by else ""
        if n_bad:
            return Decision(Verdict.REFUTED,
                            f"{n_bad} of {m.size} instances violate the bound; worst is {label}: "
                            f"{fmt(m[worst])} against {self.relation} {fmt(b[worst])}{found}",
                            rows, counterexample={"instance": label, "index": worst, "measured": float(m[worst]),
                                                  "bound": float(b[worst])}, **kw)
        if self.attained is not None:
            rows.append({"quantity": "attained within the factor", "measured": fmt(tightness) if tightness is not None
                         else "no positive bound", "claimed": f">= {fmt(self.attained)}", "tolerance": "",
                         "reason": "the claim is that the bound is tight"})
            if tightness is None or tightness < self.attained:
                return Decision(Verdict.REFUTED,
                                f"all {m.size} instances satisfy the bound, but it is not attained: tightness "
                                f"{fmt(tightness) if tightness is not None else 'undefined'} < {fmt(self.attained)}"
                                f"{found}", rows, **kw)
            return Decision(Verdict.VERIFIED,
                            f"all {m.size} instances satisfy the bound and it is attained within the factor "
                            f"{fmt(self.attained)} (tightness {fmt(tightness, 4)} at {tight_label}){found}", rows, **kw)
        return Decision(Verdict.VERIFIED,
                        f"all {m.size} instances satisfy the bound; smallest margin {fmt(margin)}"
                        + (f", tightness {fmt(tightness, 3)}" if tightness is not None else "") + found, rows, **kw)
