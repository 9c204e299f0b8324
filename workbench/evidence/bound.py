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
    count_phrase,
    fmt,
    fmt_pair,
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
        quantity: what is bounded; ``instances``: optional label per instance.  LaTeX math in
            ``$...$`` (in ``quantity``, ``xlabel``, ``instances``, ``series``, ``why``) is typeset
            the same way in the report's tables (by LaTeX) and in its figure labels (by
            matplotlib's mathtext, LaTeX's math subset); text outside ``$`` is plain, and a bare
            token such as ``x_k`` or ``n^{-1/2}`` is set as math too.
        x: optional abscissa per instance (step index, size), used for the figure.
        series: optional family label per instance (a test function, a method, a width): the
            figure draws each family in its own colour, named in its legend.
        sequence: whether the instances of a family are a sequence along ``x`` (a trajectory,
            sizes in order), drawn joined by lines; default: when ``x`` is given and increases
            within every family.  Independent instances (a search's evaluations, random draws)
            are drawn as points: against ``x`` as the ratio measured/bound (the bound is 1), or
            without ``x`` as measured against bound beside the line ``measured = bound``.
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
    series: list[str] | None = None
    sequence: bool | None = None
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
        if self.series is not None:
            n = np.size(self.measured)
            if isinstance(self.series, str) or len(self.series) != n:
                raise EvidenceError(f"bound evidence: series needs one label per instance ({n}), not {self.series!r:.80}")
            self.series = [str(s) for s in self.series]

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
        pairs = [fmt_pair(mi, bi) for mi, bi in zip(m, b, strict=True)]  # digits enough to show the margin
        row = {"quantity": f"{self.quantity} ({'most violated' if n_bad else 'tightest'} instance)",
               "measured": pairs[shown][0], "claimed": f"{self.relation} {pairs[shown][1]}", "tolerance": tol,
               "reason": self.why}
        rows = _per_instance_rows(self.instances, np.array([float(mi) for mi in m]),
                                  [f"{self.relation} {pb}" for _, pb in pairs], tol, self.why, row)
        if rows[0] is not row:  # one row per instance
            for r, (pm, _) in zip(rows, pairs, strict=True):
                r["measured"] = pm
        if self.found_by:
            rows.append({"quantity": "how the instances were found", "measured": self.found_by, "claimed": "",
                         "tolerance": "", "reason": ""})
        figure = self._figure(m, b) if m.size > 1 else None
        tight_label = self.instances[tight_i] if self.instances else f"instance {tight_i}"
        sharp = {"measure": "tightness", "value": tightness, "sentence": f"{sentence} (at {tight_label})"}
        headline = {"instances": m.size, "violations": n_bad, "smallest_margin": margin}
        if tightness is not None:
            headline["tightness"] = tightness
        kw = {"headline": headline, "figure": figure, "sharpness": sharp}
        found = f" ({self.found_by})" if self.found_by else ""
        every = count_phrase(m.size, "instance")
        satisfy = "satisfies" if m.size == 1 else "satisfy"
        if n_bad:
            violate = ("the single instance violates" if m.size == 1 else
                       f"{n_bad} of {m.size} instances violate" if n_bad > 1 else f"1 of {m.size} instances violates")
            return Decision(Verdict.REFUTED,
                            f"{violate} the bound; worst is {label}: "
                            f"{pairs[worst][0]} against {self.relation} {pairs[worst][1]}{found}",
                            rows, counterexample={"instance": label, "index": worst, "measured": float(m[worst]),
                                                  "bound": float(b[worst])}, **kw)
        if self.attained is not None:
            rows.append({"quantity": "attained within the factor", "measured": fmt(tightness) if tightness is not None
                         else "no positive bound", "claimed": f">= {fmt(self.attained)}", "tolerance": "",
                         "reason": "the claim is that the bound is tight"})
            if tightness is None or tightness < self.attained:
                return Decision(Verdict.REFUTED,
                                f"{every} {satisfy} the bound, but it is not attained: tightness "
                                f"{fmt(tightness) if tightness is not None else 'undefined'} < {fmt(self.attained)}"
                                f"{found}", rows, **kw)
            return Decision(Verdict.VERIFIED,
                            f"{every} {satisfy} the bound and it is attained within the factor "
                            f"{fmt(self.attained)} (tightness {fmt(tightness, 4)} at {tight_label}){found}", rows, **kw)
        return Decision(Verdict.VERIFIED,
                        f"{every} {satisfy} the bound; {'margin' if m.size == 1 else 'smallest margin'} {fmt(margin)}"
                        + (f", tightness {fmt(tightness, 3)}" if tightness is not None else "") + found, rows, **kw)

    def _figure(self, m: np.ndarray, b: np.ndarray) -> dict[str, Any]:
        """The figure's data: values, families, and whether each family is a sequence along x."""
        from ..context import SearchOrder

        x = _tolist(self.x) if self.x is not None else None
        series = self.series or [""] * m.size
        sequence = self.sequence
        if sequence is None:
            sequence = x is not None and not isinstance(self.x, SearchOrder) and all(
                np.all(np.diff([xi for xi, s in zip(x, series, strict=True) if s == name]) > 0)
                for name in dict.fromkeys(series))
        return {"type": "bound", "x": x if x is not None else list(range(m.size)), "has_x": x is not None,
                "measured": m.tolist(), "bound": b.tolist(), "relation": self.relation, "xlabel": self.xlabel,
                "ylabel": self.quantity, "series": self.series, "sequence": bool(sequence)}
