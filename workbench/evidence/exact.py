"""Exact evidence: identities of computed values, symbolic proofs (sympy) and solver certificates."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .bound import _bound_tightness
from .core import (
    Decision,
    Evidence,
    EvidenceError,
    NoNearMiss,
    Verdict,
    _as_array,
    _per_instance_rows,
    _replace,
    _stronger_by_half,
    _tol_text,
    count_phrase,
    fmt,
    fmt_pair,
)


# --------------------------------------------------------------------------- identity
@dataclass
class Identity(Evidence):
    """Computed values that must equal reference values.

    Rule: VERIFIED when ``|measured - reference| <= atol + rtol * |reference|`` elementwise
    (with ``normwise=True``: ``||measured - reference||_F <= atol + rtol * ||reference||_F``, the
    form of most matrix perturbation bounds); REFUTED otherwise, keeping the worst entry; ERROR
    on a NaN; EvidenceError on a shape mismatch.

    Sharpness: the tolerance relative to the values compared (the largest relative change of a
    reference the check could not see), beside the largest relative error found.  Default near
    miss: every reference times 1.01 (no default when every reference is 0).

    Args:
        measured, reference: arrays of one shape (scalars allowed; a scalar reference is compared
            with every measured value).
        rtol, atol: tolerances; ``why`` gives their reason (float error bound, precision).
        quantity: what is compared, for the report.
        labels: optional names of the entries.
    """

    measured: Any
    reference: Any
    rtol: float = 0.0
    atol: float = 0.0
    why: str = ""
    quantity: str = "value"
    labels: list[str] | None = None
    normwise: bool = False
    kind = "identity"
    claimed_field = "reference"
    near_miss_default: ClassVar[str] = "every reference value times 1.01"

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        r = _as_array(self.reference, "reference")
        if not np.any(r != 0):
            raise NoNearMiss("every reference value is 0, so scaling it changes nothing: declare a near miss")
        return [("every reference value times 1.01", _replace(self, reference=r * 1.01))]

    def decide(self) -> Decision:
        m = _as_array(self.measured, "measured")
        r = _as_array(self.reference, "reference")
        if r.ndim == 0 and m.ndim > 0:  # one reference value for every measured value
            r = np.full(m.shape, float(r))
        if m.shape != r.shape:
            raise EvidenceError(f"measured has shape {m.shape} but reference has shape {r.shape}")
        if not (np.all(np.isfinite(m)) and np.all(np.isfinite(r))):
            return Decision(Verdict.ERROR, "the measured or reference values contain NaN or inf")
        err = np.abs(m - r)
        atol, rtol = np.asarray(self.atol, dtype=float), np.asarray(self.rtol, dtype=float)
        if self.normwise and (atol.ndim or rtol.ndim):
            raise EvidenceError("a normwise identity takes scalar rtol and atol")
        if self.normwise:
            allowed = float(atol) + float(rtol) * float(np.linalg.norm(r.ravel()))
            norm_excess = float(np.linalg.norm(err.ravel())) - allowed
            # The entry reported is the largest; the decision is on the norm.
            excess = np.where(err.ravel() == err.max(), norm_excess, -np.inf) if err.size else err.ravel()
            rel_allowed = allowed / float(np.linalg.norm(r.ravel())) if np.any(r) else math.inf
        else:
            allowed = atol + rtol * np.abs(r)
            excess = (err - allowed).ravel()
            nz = np.abs(r).ravel() > 0
            rel = (np.broadcast_to(allowed, r.shape).ravel()[nz] / np.abs(r).ravel()[nz])
            # A scaling of the references shows first in the entry resolved most finely.
            rel_allowed = float(rel.min()) if rel.size else math.inf
        worst = int(np.argmax(excess)) if excess.size else 0
        ok = bool(np.all(excess <= 0))
        tol = _tol_text(self.rtol, self.atol) + (" (Frobenius norm)" if self.normwise else "")
        row = {
            "quantity": self.quantity, "measured": fmt(m.ravel()[worst]) if m.size else "",
            "claimed": fmt(r.ravel()[worst]) if r.size else "", "tolerance": tol, "reason": self.why,
        }
        rows = _per_instance_rows(self.labels, m, [fmt(v) for v in r.ravel()], tol, self.why, row)
        nonzero = np.abs(r).ravel() > 0
        rel = err.ravel()[nonzero] / np.abs(r).ravel()[nonzero]
        headline = {"max_abs_error": float(err.max()) if err.size else 0.0,
                    "max_rel_error": float(rel.max()) if rel.size else 0.0}
        if math.isfinite(rel_allowed):
            sentence = (f"the tolerance is {fmt(rel_allowed, 3)} of the values compared (at the entry resolved most "
                        f"finely): the check could not see the references scaled by less than that (largest "
                        f"relative error found {fmt(headline['max_rel_error'], 3)})")
        else:
            sentence = (f"every reference value is 0; the check could not see a deviation below the absolute "
                        f"tolerance {fmt(float(np.max(atol)), 3)}")
        sharp = {"measure": "relative tolerance", "value": rel_allowed if math.isfinite(rel_allowed) else None,
                 "sentence": sentence}
        label = self.labels[worst] if self.labels else f"entry {worst}"
        if ok:
            return Decision(Verdict.VERIFIED,
                            f"{count_phrase(m.size, 'entry', 'entries')} "
                            f"agree{'s' if m.size == 1 else ''} (largest error {fmt(headline['max_abs_error'])}, {tol})",
                            rows, headline=headline, sharpness=sharp)
        return Decision(Verdict.REFUTED,
                        f"{label}: measured {' against '.join(fmt_pair(m.ravel()[worst], r.ravel()[worst]))}, "
                        f"error {fmt(err.ravel()[worst])} beyond {tol}",
                        rows, headline=headline, sharpness=sharp,
                        counterexample={"entry": label, "measured": float(m.ravel()[worst]),
                                        "reference": float(r.ravel()[worst])})


# --------------------------------------------------------------------------- symbolic
@dataclass
class Symbolic(Evidence):
    """Sympy expressions that must simplify to zero (or relations that must be true).

    Rule: VERIFIED when sympy simplifies every expression to 0 (relations to ``True``);
    REFUTED when one is a nonzero constant (``False``) or, after simplification fails, a
    substitution of random rationals for its free symbols evaluates (at 60 digits) to more than
    1e-30 in absolute value (that substitution is kept as the counterexample); INCONCLUSIVE
    otherwise.  Sharpness: exact (no near miss is needed).

    Args:
        exprs: a sympy expression or a list of them.
        labels: names of the expressions, for the report.
        why: what the expressions encode (a reason is required for every kind).
        domain: optional dict symbol -> (low, high) rational sampling ranges for the
            counterexample search (default (-3, 3), or (1/10, 3) for positive symbols).
    """

    exprs: Any
    why: str = ""
    labels: list[str] | None = None
    domain: dict[Any, tuple[float, float]] | None = None
    kind = "symbolic"
    near_miss_default: ClassVar[str] = "none needed: a symbolic proof is exact"

    def data(self) -> dict[str, Any]:
        exprs = self.exprs if isinstance(self.exprs, (list, tuple)) else [self.exprs]
        return {"exprs": [str(e) for e in exprs], "labels": self.labels, "why": self.why, "finding": self.finding}

    def decide(self) -> Decision:
        import sympy as sp

        exprs = list(self.exprs) if isinstance(self.exprs, (list, tuple)) else [self.exprs]
        labels = self.labels or [f"expression {i + 1}" for i in range(len(exprs))]
        rows, undecided = [], []
        for label, e in zip(labels, exprs, strict=True):
            e = sp.sympify(e)
            simplified = sp.simplify(e)
            if simplified == 0 or simplified is sp.true:
                rows.append({"quantity": label, "measured": "0" if simplified == 0 else "True",
                             "claimed": "0" if simplified == 0 else "True", "tolerance": "exact",
                             "reason": "" if rows else self.why})
                continue
            if simplified is sp.false or (simplified.is_number and simplified != 0):
                return Decision(Verdict.REFUTED, f"{label} simplifies to {simplified}, not zero",
                                rows, counterexample={"expression": label, "value": str(simplified)})
            witness = self._witness(e, sp)
            if witness is not None:
                subs, value = witness
                at = ", ".join(f"{k} = {v}" for k, v in subs.items())
                return Decision(Verdict.REFUTED,
                                f"{label} is {value} at {at}, not identically zero",
                                rows, counterexample={"expression": label, "at": subs, "value": value})
            undecided.append(label)
            rows.append({"quantity": label, "measured": str(simplified), "claimed": "0",
                         "tolerance": "exact", "reason": "sympy could not decide"})
        if undecided:
            return Decision(Verdict.INCONCLUSIVE,
                            f"sympy could neither prove nor refute: {', '.join(undecided)}", rows)
        return Decision(Verdict.VERIFIED, f"sympy proves {count_phrase(len(exprs), 'identity', 'identities')} "
                        "exactly", rows,
                        sharpness={"measure": "exact", "value": None,
                                   "sentence": "exact: sympy proves the statement, so no weaker or stronger "
                                               "version of it passes by accident"})

    def _witness(self, e: Any, sp: Any) -> tuple[dict[str, str], str] | None:
        if isinstance(e, sp.logic.boolalg.Boolean) or not e.free_symbols:
            return None
        rng = np.random.default_rng(20250101)
        for _ in range(8):
            subs = {}
            for s in sorted(e.free_symbols, key=str):
                lo, hi = (self.domain or {}).get(s, (0.1, 3.0) if s.is_positive else (-3.0, 3.0))
                subs[s] = sp.Rational(int(rng.integers(0, 1000)), 1000) * sp.Rational(str(hi - lo)) + sp.Rational(str(lo))
            # Evaluate at 60 digits rather than simplify: simplification of a substituted
            # expression with logarithms and powers can take minutes.  A value above 1e-30 at
            # 60 digits is not a rounding artefact of an exact zero.
            try:
                value = sp.N(e.subs(subs), 60)
            except (ZeroDivisionError, TypeError, ValueError):
                continue
            if value.is_number and value.is_finite and abs(complex(value)) > 1e-30:
                return {str(k): str(v) for k, v in subs.items()}, str(sp.N(value, 12))
        return None


# --------------------------------------------------------------------------- certificate
OPTIMAL_STATUSES = ("optimal",)


@dataclass
class Certificate(Evidence):
    """Optimisation problems solved to a certificate (LP/SDP/MILP through cvxpy or HiGHS).

    One solve, or a family of them: ``status``, ``value`` and ``reference`` may be sequences of
    one length (a scalar is repeated).  Rule: ERROR unless every solver status is ``"optimal"``
    (an inaccurate, infeasible or unbounded status is a failure of the check, not a finding);
    then VERIFIED when every ``value`` stands in ``relation`` to its ``reference`` within
    ``atol + rtol * |reference|``, REFUTED otherwise (the worst solve is the counterexample).

    A solver reporting "optimal" has met its own stopping tolerances, nothing more, so every
    certificate carries the solver's own certified ``accuracy`` of its value (absolute: a duality
    gap with its residuals, see :func:`workbench.certify.solver_accuracy`); the true optimum is
    only known to lie in ``[value - accuracy, value + accuracy]``, and the rule is decided on that
    interval: VERIFIED when the whole interval satisfies the relation within the tolerance,
    REFUTED when none of it does, INCONCLUSIVE when the reference lies within the solver's
    accuracy of the value (the solver does not certify the difference).

    Sharpness: for ``"="``, the tolerance relative to the values compared; for ``"<="`` and
    ``">="``, the tightness as for :class:`Bound`.  Default near miss: for ``"="`` every reference
    times 1.01; one-sided, the reference moved by half its size toward the stronger side; none
    when every reference is 0.

    Args:
        status: the solver's status string(s) (``problem.status`` in cvxpy).
        value: optimal value(s) computed; ``reference``: the claimed value(s) or bound(s).
        relation: ``"="``, ``"<="`` or ``">="`` (value against reference).
        solver: solver name; ``duals``: optional dual values kept in the record.
        labels: optional name of each solve.
        accuracy: required: the solver's certified accuracy of each value (absolute; 0 for exact
            arithmetic); ``diagnostics``: what it comes from (primal and dual values, gap,
            residuals, smallest eigenvalue of a Gram matrix), shown in the report.
    """

    status: Any
    value: Any
    reference: Any
    relation: str = "="
    rtol: float = 1e-7
    atol: float = 0.0
    why: str = ""
    solver: str = ""
    quantity: str = "optimal value"
    duals: Any = None
    labels: list[str] | None = None
    accuracy: Any = None
    diagnostics: dict[str, Any] | None = None
    kind = "certificate"
    relations = ("=", "<=", ">=")
    claimed_field = "reference"
    near_miss_default: ClassVar[str] = "every reference times 1.01 for '='; one-sided, the reference moved by half its size toward the stronger side"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.accuracy is None:
            raise EvidenceError("a certificate needs the solver's own accuracy of its value (accuracy=): use "
                                "workbench.certify.cvxpy_certificate for a cvxpy problem, a PEPit result's .accuracy, "
                                "or accuracy=0.0 for exact arithmetic, with the reason in `why`")

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        r = _as_array(self.reference, "reference")
        if not np.any(r != 0):
            raise NoNearMiss("every reference is 0, so scaling it changes nothing: declare a near miss")
        if self.relation == "=":
            return [("every reference times 1.01", _replace(self, reference=r * 1.01))]
        text = "the reference halved" if self.relation == "<=" else "the reference raised by half"
        return [(text, _replace(self, reference=_stronger_by_half(r, self.relation)))]

    def decide(self) -> Decision:
        v = _as_array(self.value, "value").ravel()
        r = _as_array(self.reference, "reference").ravel()
        if r.size == 1 and v.size > 1:
            r = np.full(v.size, r[0])
        if v.size == 1 and r.size > 1:
            v = np.full(r.size, v[0])
        statuses = [str(self.status)] if isinstance(self.status, str) else [str(s) for s in np.ravel(self.status)]
        if len(statuses) == 1 and v.size > 1:
            statuses = statuses * v.size
        if len(statuses) != v.size or r.size != v.size or v.size == 0:
            raise EvidenceError(f"certificate needs one status, value and reference per solve; got {len(statuses)}, "
                                f"{v.size} and {r.size}")
        labels = self.labels if self.labels and len(self.labels) == v.size else None

        def name(i: int) -> str:
            return labels[i] if labels else (f"solve {i}" if v.size > 1 else "the solve")

        tol_text = f"rtol {fmt(self.rtol)}, atol {fmt(self.atol)}"
        solver = f", {self.solver}" if self.solver else ""
        bad = [i for i, s in enumerate(statuses) if s.lower() not in OPTIMAL_STATUSES]
        if bad:
            i = bad[0]
            return Decision(Verdict.ERROR, f"solver {self.solver or ''} returned status {statuses[i]!r} for {name(i)}, "
                            "not optimal", [{"quantity": self.quantity, "measured": fmt(v[i]),
                                             "claimed": f"{self.relation} {fmt(r[i])}", "tolerance": tol_text,
                                             "reason": self.why}])
        if not np.all(np.isfinite(v)):
            return Decision(Verdict.ERROR, f"solver returned a non-finite value {v[~np.isfinite(v)][0]}")
        allowed = self.atol + self.rtol * np.abs(r)
        acc = np.broadcast_to(_as_array(self.accuracy, "accuracy").ravel(), v.shape).astype(float)
        if not np.all(np.isfinite(acc)) or np.any(acc < 0):
            raise EvidenceError("certificate accuracy must be finite and >= 0 (the solver's certified error)")
        if self.relation == "=":
            excess, best = np.abs(v - r) + acc - allowed, np.abs(v - r) - acc - allowed
        elif self.relation == "<=":
            excess, best = v + acc - r - allowed, v - acc - r - allowed
        else:
            excess, best = r - v + acc - allowed, r - v - acc - allowed
        worst = int(np.argmax(excess))
        shown = [fmt_pair(a, b) if self.relation != "=" else (fmt(a), fmt(b)) for a, b in zip(v, r, strict=True)]
        row = {"quantity": self.quantity + (f" ({name(worst)})" if v.size > 1 else ""), "measured": shown[worst][0],
               "claimed": f"{self.relation} {shown[worst][1]}", "tolerance": tol_text, "reason": self.why}
        rows = _per_instance_rows(labels, v, [f"{self.relation} {fmt(x)}" for x in r], tol_text, self.why, row)
        if self.relation == "=":
            nz = np.abs(r) > 0
            rel = float(np.min(allowed[nz] / np.abs(r[nz]))) if np.any(nz) else None
            sharp = {"measure": "relative tolerance", "value": rel,
                     "sentence": (f"the tolerance is {fmt(rel, 3)} of the values compared: the check could not "
                                  "see the references scaled by less than that") if rel is not None else
                     f"every reference is 0; the check could not see a deviation below {fmt(float(np.max(allowed)), 3)}"}
        else:
            t, i, sentence = _bound_tightness(v, r, self.relation)
            sharp = {"measure": "tightness", "value": t, "sentence": f"{sentence} (at {name(i)})"}
        headline = {"value": float(v[worst]), "reference": float(r[worst])}
        if v.size > 1:
            headline["solves"] = v.size
        if np.any(acc > 0):
            headline["accuracy"] = float(acc[worst])
            rows.append({"quantity": "solver's certified accuracy", "measured": fmt(float(acc.max())), "claimed": "",
                         "tolerance": "", "reason": "; ".join(f"{k} {fmt(x) if isinstance(x, float) else x}"
                                                              for k, x in (self.diagnostics or {}).items())})
        n_bad = int(np.sum(best > 0))
        what = f"{self.quantity}" if v.size == 1 else f"{self.quantity} of all {v.size} solves"
        within = f" within the solver's accuracy {fmt(float(acc[worst]))}" if np.any(acc > 0) else ""
        if n_bad:
            i = int(np.argmax(best))
            return Decision(Verdict.REFUTED, f"certified {self.quantity} {fmt(v[i])} is not {self.relation} "
                            f"{fmt(r[i])}{within}" + (f" ({name(i)}; {n_bad} of {v.size} solves)" if v.size > 1 else ""),
                            rows, headline=headline, sharpness=sharp,
                            counterexample={"solve": name(i), "value": float(v[i]), "reference": float(r[i])})
        if np.any(excess > 0):
            return Decision(Verdict.INCONCLUSIVE, f"{name(worst)}: {fmt(v[worst])} against {self.relation} "
                            f"{fmt(r[worst])}: the difference is within the solver's accuracy "
                            f"{fmt(float(acc[worst]))}, which certifies neither answer", rows, headline=headline,
                            sharpness=sharp)
        return Decision(Verdict.VERIFIED, f"certified {what}: {shown[worst][0]} {self.relation} {shown[worst][1]} "
                        f"at the tightest{within} (status optimal{solver})", rows, headline=headline, sharpness=sharp)
