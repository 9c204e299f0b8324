"""Evidence kinds and the one place where evidence becomes a verdict.

A claim returns one of the evidence classes below; :func:`decide` turns it into a
:class:`Decision` (verdict, error probability, summary, evidence table, counterexample).  Each
class documents its decision rule; the statistical ones state the probability that the rule
refutes a claim that is exactly true (their ``error_probability``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

import numpy as np
from scipy import stats


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
    """

    verdict: Verdict
    summary: str
    rows: list[dict[str, str]] = field(default_factory=list)
    error_probability: float | None = None
    counterexample: dict[str, Any] | None = None
    headline: dict[str, float] = field(default_factory=dict)
    figure: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value, "summary": self.summary, "rows": self.rows,
            "error_probability": self.error_probability, "counterexample": self.counterexample,
            "headline": self.headline, "figure": self.figure,
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
    if not why or not why.strip():
        raise EvidenceError(f"{kind} evidence needs `why`: the reason for its tolerance or level")


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


@dataclass
class Evidence:
    """Base class of all evidence kinds.

    Every kind takes the keyword ``finding``: a short name of what the measurement found when
    it classifies the instance (an equilibrium regime, "heterogeneous"; a phase), or None.  The
    report shows it, and a sweep over two parameters colours its phase diagram by it.
    """

    finding: str | None = field(default=None, kw_only=True)
    kind: ClassVar[str] = ""

    def decide(self) -> Decision:  # pragma: no cover - abstract
        raise NotImplementedError

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


# --------------------------------------------------------------------------- identity
@dataclass
class Identity(Evidence):
    """Computed values that must equal reference values.

    Rule: VERIFIED when ``|measured - reference| <= atol + rtol * |reference|`` elementwise
    (with ``normwise=True``: ``||measured - reference||_F <= atol + rtol * ||reference||_F``, the
    form of most matrix perturbation bounds); REFUTED otherwise, keeping the worst entry; ERROR
    on a NaN; EvidenceError on a shape mismatch.

    Args:
        measured, reference: arrays of one shape (scalars allowed).
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

    def decide(self) -> Decision:
        _require_reason(self.why, "identity")
        m = _as_array(self.measured, "measured")
        r = _as_array(self.reference, "reference")
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
        else:
            allowed = atol + rtol * np.abs(r)
            excess = (err - allowed).ravel()
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
        label = self.labels[worst] if self.labels else f"entry {worst}"
        if ok:
            return Decision(Verdict.VERIFIED,
                            f"all {m.size} entries agree (largest error {fmt(headline['max_abs_error'])}, {tol})",
                            rows, headline=headline)
        return Decision(Verdict.REFUTED,
                        f"{label}: measured {fmt(m.ravel()[worst])} against {fmt(r.ravel()[worst])}, "
                        f"error {fmt(err.ravel()[worst])} beyond {tol}",
                        rows, headline=headline,
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
    otherwise.

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

    def data(self) -> dict[str, Any]:
        exprs = self.exprs if isinstance(self.exprs, (list, tuple)) else [self.exprs]
        return {"exprs": [str(e) for e in exprs], "labels": self.labels, "why": self.why, "finding": self.finding}

    def decide(self) -> Decision:
        import sympy as sp

        _require_reason(self.why, "symbolic")
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
                return Decision(Verdict.REFUTED,
                                f"{label} is {value} at {subs}, not identically zero",
                                rows, counterexample={"expression": label, "at": subs, "value": value})
            undecided.append(label)
            rows.append({"quantity": label, "measured": str(simplified), "claimed": "0",
                         "tolerance": "exact", "reason": "sympy could not decide"})
        if undecided:
            return Decision(Verdict.INCONCLUSIVE,
                            f"sympy could neither prove nor refute: {', '.join(undecided)}", rows)
        return Decision(Verdict.VERIFIED, f"sympy proves all {len(exprs)} identities exactly", rows)

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


# --------------------------------------------------------------------------- bound
@dataclass
class Bound(Evidence):
    """Measured values that must satisfy a claimed bound on every instance.

    Rule: with ``relation="<="``, VERIFIED when ``measured <= bound + slack`` on every instance
    (``slack = atol + rtol * |bound|``); REFUTED otherwise, keeping the most violating instance
    (its index, label and values) as the counterexample; ``">="`` mirrors it.  ERROR on NaN.

    Args:
        measured, bound: arrays of one shape, one entry per instance.
        relation: ``"<="`` or ``">="``.
        rtol, atol: the stated slack, scalars or one per instance; ``why`` gives its reason
            (rounding, discretisation).
        quantity: what is bounded; ``instances``: optional label per instance.
        x: optional abscissa per instance (step index, size), used for the figure.
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
    kind = "bound"

    def decide(self) -> Decision:
        _require_reason(self.why, "bound")
        if self.relation not in ("<=", ">="):
            raise EvidenceError(f"bound relation must be '<=' or '>=', not {self.relation!r}")
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
        row = {"quantity": f"{self.quantity} (tightest instance)", "measured": fmt(m[worst]),
               "claimed": f"{self.relation} {fmt(b[worst])}", "tolerance": tol, "reason": self.why}
        rows = _per_instance_rows(self.instances, m, [f"{self.relation} {fmt(v)}" for v in b], tol, self.why, row)
        figure = {"type": "bound", "x": _tolist(self.x) if self.x is not None else list(range(m.size)),
                  "measured": m.tolist(), "bound": b.tolist(), "relation": self.relation,
                  "xlabel": self.xlabel, "ylabel": self.quantity} if m.size > 1 else None
        headline = {"instances": m.size, "violations": n_bad, "smallest_margin": margin}
        if n_bad == 0:
            return Decision(Verdict.VERIFIED,
                            f"all {m.size} instances satisfy the bound; smallest margin {fmt(margin)}",
                            rows, headline=headline, figure=figure)
        return Decision(Verdict.REFUTED,
                        f"{n_bad} of {m.size} instances violate the bound; worst is {label}: "
                        f"{fmt(m[worst])} against {self.relation} {fmt(b[worst])}",
                        rows, headline=headline, figure=figure,
                        counterexample={"instance": label, "index": worst, "measured": float(m[worst]),
                                        "bound": float(b[worst])})


# --------------------------------------------------------------------------- rate
def _least_squares_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and intercept of the least-squares line of ``y`` on ``x``."""
    xc = x - x.mean()
    slope = float(xc @ (y - y.mean()) / (xc @ xc))
    return slope, float(y.mean() - slope * x.mean())


def factor_slope(sizes: Any, factors: Any) -> float:
    """The exponent a :class:`Rate` fit gives a known factor over ``sizes``.

    The least-squares slope of ``log factor`` on ``log size``: the allowance that a factor an
    O-tilde statement hides (``ln N``, a ``chi^2 = ln^2(...)`` of an algorithm's parameters, a
    lower-order correction) adds to an exponent fitted over exactly these sizes.  For example
    ``factor_slope(n, np.log(n))`` is the largest exponent an ``O(log n)`` cost without a
    negative offset shows there (``a + b ln n`` with ``a >= 0`` has a smaller local slope).

    Args:
        sizes, factors: positive arrays of one shape, at least two distinct sizes.

    Raises:
        ValueError: on non-positive values, mismatched shapes or fewer than two distinct sizes.
    """
    s = np.asarray(sizes, dtype=float).ravel()
    f = np.asarray(factors, dtype=float).ravel()
    if s.shape != f.shape or np.unique(s).size < 2 or np.any(s <= 0) or np.any(f <= 0):
        raise ValueError("factor_slope needs positive sizes and factors of one shape, with at least two "
                         "distinct sizes")
    return _least_squares_line(np.log(s), np.log(f))[0]


@dataclass
class Rate(Evidence):
    """Costs against sizes that must follow a claimed power law ``cost ~ size^exponent``.

    The exponent is the least-squares slope of ``log cost`` on ``log size`` (replicates at one
    size allowed), with a Student-t confidence interval at ``level``.  Rule, for
    ``relation="="``: REFUTED when the claimed exponent lies outside the interval widened by
    ``tolerance`` on each side; else VERIFIED when the interval's half-width is at most
    ``max_halfwidth``; else INCONCLUSIVE.  For ``relation="<="`` (cost decays at least as fast
    / grows at most as fast): REFUTED when the lower end exceeds ``exponent + tolerance``;
    VERIFIED when not refuted and narrow enough.  Sizes must span at least a decade, else
    INCONCLUSIVE.  Under the claimed law with Gaussian log-noise, the refutation probability is
    ``1 - level`` for ``"="`` and ``(1 - level) / 2`` for ``"<="``.

    Args:
        sizes, costs: positive arrays of one length (n >= 3).
        exponent: the claimed exponent (e.g. -0.5 for ``O(n^{-1/2})``).
        tolerance: allowance for lower-order terms, with its reason in ``why``.
        max_halfwidth: widest interval half-width that still identifies the exponent.
    """

    sizes: Any
    costs: Any
    exponent: float
    relation: str = "="
    tolerance: float = 0.0
    max_halfwidth: float = 0.1
    level: float = 0.95
    why: str = ""
    size_name: str = "n"
    cost_name: str = "cost"
    kind = "rate"

    def fit(self) -> tuple[float, float, float, float]:
        """Return (slope, intercept, standard error of the slope, half-width at ``level``)."""
        x = np.log(_as_array(self.sizes, "sizes").ravel())
        y = np.log(_as_array(self.costs, "costs").ravel())
        n = x.size
        xc = x - x.mean()
        slope, intercept = _least_squares_line(x, y)
        residual = y - (intercept + slope * x)
        se = float(np.sqrt(residual @ residual / (n - 2) / (xc @ xc))) if n > 2 else float("inf")
        # Exact power laws (constant costs too) give a zero-width interval; floor it at the float
        # error of the fit.
        half = max(float(stats.t.ppf(0.5 + self.level / 2, n - 2)) * se, 1e-9)
        return slope, intercept, se, half

    def decide(self) -> Decision:
        _require_reason(self.why, "rate")
        if self.relation not in ("=", "<="):
            raise EvidenceError(f"rate relation must be '=' or '<=', not {self.relation!r}")
        s = _as_array(self.sizes, "sizes").ravel()
        c = _as_array(self.costs, "costs").ravel()
        if s.shape != c.shape or s.size < 3:
            raise EvidenceError(f"rate evidence needs >= 3 (size, cost) pairs of one length, got {s.size} and {c.size}")
        if not (np.all(np.isfinite(c)) and np.all(np.isfinite(s))):
            return Decision(Verdict.ERROR, "non-finite size or cost")
        if np.any(s <= 0) or np.any(c <= 0):
            return Decision(Verdict.ERROR, "sizes and costs must be positive for a log-log fit")
        slope, intercept, se, half = self.fit()
        lo, hi = slope - half, slope + half
        two_sided = self.relation == "="
        alpha = (1 - self.level) if two_sided else (1 - self.level) / 2
        row = {"quantity": f"exponent of {self.cost_name} in {self.size_name}",
               "measured": f"{fmt(slope, 4)} [{fmt(lo, 4)}, {fmt(hi, 4)}]",
               "claimed": f"{self.relation} {fmt(self.exponent, 4)}",
               "tolerance": f"+-{fmt(self.tolerance)}; half-width <= {fmt(self.max_halfwidth)}",
               "reason": self.why}
        figure = {"type": "rate", "x": s.tolist(), "y": c.tolist(), "slope": slope,
                  "intercept": intercept, "claimed": self.exponent,
                  "xlabel": self.size_name, "ylabel": self.cost_name}
        headline = {"slope": slope, "ci_low": lo, "ci_high": hi}
        kw = {"rows": [row], "error_probability": alpha, "figure": figure, "headline": headline}
        ci = f"{fmt(slope, 4)} with {self.level:.0%} interval [{fmt(lo, 4)}, {fmt(hi, 4)}]"
        refuted = (not lo - self.tolerance <= self.exponent <= hi + self.tolerance) if two_sided \
            else lo > self.exponent + self.tolerance
        if refuted:
            return Decision(Verdict.REFUTED,
                            f"fitted exponent {ci} excludes the claimed {fmt(self.exponent, 4)} "
                            f"(allowance {fmt(self.tolerance)})", **kw)
        if s.max() / s.min() < 10:
            return Decision(Verdict.INCONCLUSIVE,
                            f"sizes span less than a decade ({fmt(s.min())} to {fmt(s.max())}): exponent not identifiable", **kw)
        if half > self.max_halfwidth:
            return Decision(Verdict.INCONCLUSIVE,
                            f"fitted exponent {ci} is consistent with the claim but too wide "
                            f"(half-width {fmt(half, 3)} > {fmt(self.max_halfwidth)})", **kw)
        allowance = (f" plus its allowance {fmt(self.tolerance)}, i.e. {self.relation} "
                     f"{fmt(self.exponent + self.tolerance, 4)}" if self.tolerance else "")
        return Decision(Verdict.VERIFIED, f"fitted exponent {ci} is consistent with the claimed "
                        f"{self.relation} {fmt(self.exponent, 4)}{allowance}", **kw)


# --------------------------------------------------------------------------- proportion
def proportion_interval(successes: int, trials: int, level: float = 0.95,
                        method: str = "wilson") -> tuple[float, float]:
    """Two-sided confidence interval for a binomial proportion (scipy's ``binomtest``).

    Args:
        method: ``"wilson"`` (score interval) or ``"clopper-pearson"`` (exact).
    Raises:
        ValueError: on an unknown method or counts out of range.
    """
    if not 0 <= successes <= trials or trials < 1:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    scipy_method = {"wilson": "wilson", "clopper-pearson": "exact"}.get(method)
    if scipy_method is None:
        raise ValueError(f"interval method must be 'wilson' or 'clopper-pearson', not {method!r}")
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence_level=level, method=scipy_method)
    return float(ci.low), float(ci.high)


@dataclass
class Proportion(Evidence):
    """Successes out of trials against a claimed probability.

    Rule (interval at ``level``, Wilson or Clopper-Pearson): for ``relation=">="``, VERIFIED
    when the lower end is at least ``probability``, REFUTED when the upper end is below it,
    INCONCLUSIVE otherwise; ``"<="`` mirrors it; for ``"="``, REFUTED when ``probability`` is
    outside the interval, VERIFIED when inside and the half-width is at most ``max_halfwidth``.
    A true claim is refuted with probability at most ``(1 - level) / 2`` (one-sided) or
    ``1 - level`` (``"="``).

    ``values`` (optional, one number per trial, e.g. each trial's approximation ratio, named by
    ``value_name``) are shown as a table of trials in the report (up to 60; one row when they are
    all equal) and do not change the decision.
    """

    successes: int
    trials: int
    probability: float
    relation: str = ">="
    level: float = 0.95
    method: str = "wilson"
    max_halfwidth: float = 0.05
    why: str = ""
    event: str = "success"
    values: Any = None
    value_name: str = "value"
    kind = "proportion"

    def decide(self) -> Decision:
        _require_reason(self.why, "proportion")
        if self.relation not in (">=", "<=", "="):
            raise EvidenceError(f"proportion relation must be '>=', '<=' or '=', not {self.relation!r}")
        k, n, p = int(self.successes), int(self.trials), float(self.probability)
        lo, hi = proportion_interval(k, n, self.level, self.method)
        alpha = (1 - self.level) if self.relation == "=" else (1 - self.level) / 2
        row = {"quantity": f"P({self.event})", "measured": f"{k}/{n} = {fmt(k / n, 4)} [{fmt(lo, 4)}, {fmt(hi, 4)}]",
               "claimed": f"{self.relation} {fmt(p, 4)}", "tolerance": f"{self.level:.0%} {self.method} interval",
               "reason": self.why}
        rows = [row]
        headline = {"estimate": k / n, "ci_low": lo, "ci_high": hi, "claimed": float(p)}
        if self.values is not None:
            values = _as_array(self.values, "values").ravel()
            if values.size != n:
                raise EvidenceError(f"proportion values need one number per trial ({n}), got {values.size}")
            headline |= {"smallest_value": float(values.min()), "largest_value": float(values.max())}
            if np.all(values == values[0]):
                rows.append({"quantity": f"every trial: {self.value_name}", "measured": fmt(values[0]),
                             "claimed": "", "tolerance": "", "reason": ""})
            elif n <= TABLE_MAX:
                rows += [{"quantity": f"trial {i}: {self.value_name}", "measured": fmt(v), "claimed": "",
                          "tolerance": "", "reason": ""} for i, v in enumerate(values)]
        kw = {"rows": rows, "error_probability": alpha, "headline": headline}
        ci = f"{k}/{n} with {self.level:.0%} interval [{fmt(lo, 4)}, {fmt(hi, 4)}]"
        if self.relation == "=":
            if not lo <= p <= hi:
                return Decision(Verdict.REFUTED, f"{ci} excludes {fmt(p, 4)}", **kw)
            if (hi - lo) / 2 > self.max_halfwidth:
                return Decision(Verdict.INCONCLUSIVE, f"{ci} contains {fmt(p, 4)} but is too wide", **kw)
            return Decision(Verdict.VERIFIED, f"{ci} contains {fmt(p, 4)}", **kw)
        good, bad = (lo >= p, hi < p) if self.relation == ">=" else (hi <= p, lo > p)
        if bad:
            return Decision(Verdict.REFUTED, f"{ci} lies on the wrong side of {fmt(p, 4)}", **kw)
        if good:
            return Decision(Verdict.VERIFIED, f"{ci} lies {self.relation} {fmt(p, 4)}", **kw)
        return Decision(Verdict.INCONCLUSIVE, f"{ci} straddles {fmt(p, 4)}", **kw)


# --------------------------------------------------------------------------- certificate
OPTIMAL_STATUSES = ("optimal",)


@dataclass
class Certificate(Evidence):
    """An optimisation problem solved to a certificate (LP/SDP/MILP through cvxpy or HiGHS).

    Rule: ERROR unless the solver status is ``"optimal"`` (an inaccurate, infeasible or
    unbounded status is a failure of the check, not a finding); then VERIFIED when ``value``
    stands in ``relation`` to ``reference`` within ``atol + rtol * |reference|``, REFUTED
    otherwise.

    Args:
        status: the solver's status string (``problem.status`` in cvxpy).
        value: optimal value computed; ``reference``: the claimed value or bound.
        relation: ``"="``, ``"<="`` or ``">="`` (value against reference).
        solver: solver name; ``duals``: optional dual values kept in the record.
    """

    status: str
    value: float
    reference: float
    relation: str = "="
    rtol: float = 1e-7
    atol: float = 0.0
    why: str = ""
    solver: str = ""
    quantity: str = "optimal value"
    duals: Any = None
    kind = "certificate"

    def decide(self) -> Decision:
        _require_reason(self.why, "certificate")
        if self.relation not in ("=", "<=", ">="):
            raise EvidenceError(f"certificate relation must be '=', '<=' or '>=', not {self.relation!r}")
        status = str(self.status).lower()
        tol = self.atol + self.rtol * abs(self.reference)
        row = {"quantity": self.quantity, "measured": fmt(self.value), "claimed": f"{self.relation} {fmt(self.reference)}",
               "tolerance": f"rtol {fmt(self.rtol)}, atol {fmt(self.atol)}", "reason": self.why}
        if status not in OPTIMAL_STATUSES:
            return Decision(Verdict.ERROR, f"solver {self.solver or ''} returned status {self.status!r}, not optimal", [row])
        v, r = float(self.value), float(self.reference)
        if not math.isfinite(v):
            return Decision(Verdict.ERROR, f"solver returned a non-finite value {v}", [row])
        ok = {"=": abs(v - r) <= tol, "<=": v <= r + tol, ">=": v >= r - tol}[self.relation]
        headline = {"value": v, "reference": r}
        if ok:
            return Decision(Verdict.VERIFIED, f"certified {self.quantity} {fmt(v)} {self.relation} {fmt(r)} "
                            f"(status optimal, {self.solver})", [row], headline=headline)
        return Decision(Verdict.REFUTED, f"certified {self.quantity} {fmt(v)} is not {self.relation} {fmt(r)}",
                        [row], headline=headline, counterexample={"value": v, "reference": r})


# --------------------------------------------------------------------------- comparison
@dataclass
class Comparison(Evidence):
    """Paired samples of a method and a baseline, and the claimed direction of the difference.

    The difference ``d = method - baseline`` per pair gets a Student-t interval at ``level``
    (or a percentile bootstrap with ``bootstrap=True``, resampled with a fixed generator).
    Rule, ``direction="less"`` (the method's value is smaller, e.g. a loss): VERIFIED when the
    upper end is below ``-margin``, REFUTED when the lower end is above 0, INCONCLUSIVE
    otherwise; ``"greater"`` mirrors it.  A method exactly equal to the baseline is wrongly
    verified with probability at most ``(1 - level) / 2``.
    """

    method: Any
    baseline: Any
    direction: str = "less"
    margin: float = 0.0
    level: float = 0.95
    bootstrap: bool = False
    why: str = ""
    quantity: str = "value"
    kind = "comparison"

    def decide(self) -> Decision:
        _require_reason(self.why, "comparison")
        if self.direction not in ("less", "greater"):
            raise EvidenceError(f"comparison direction must be 'less' or 'greater', not {self.direction!r}")
        a = _as_array(self.method, "method").ravel()
        b = _as_array(self.baseline, "baseline").ravel()
        if a.shape != b.shape or a.size < 2:
            raise EvidenceError(f"comparison needs >= 2 pairs of equal length, got {a.size} and {b.size}")
        d = a - b
        if not np.all(np.isfinite(d)):
            return Decision(Verdict.ERROR, "non-finite paired difference")
        mean = float(d.mean())
        if self.bootstrap:
            rng = np.random.default_rng(0)
            boots = rng.choice(d, size=(4000, d.size), replace=True).mean(axis=1)
            lo, hi = (float(q) for q in np.quantile(boots, [(1 - self.level) / 2, (1 + self.level) / 2]))
        else:
            sd = float(d.std(ddof=1))
            half = float(stats.t.ppf(0.5 + self.level / 2, d.size - 1)) * sd / math.sqrt(d.size)
            lo, hi = mean - half, mean + half
        sign = 1.0 if self.direction == "less" else -1.0
        # Work with e = sign * d: the claim is e < -margin.
        e_lo, e_hi = sorted((sign * lo, sign * hi))
        row = {"quantity": f"mean difference of {self.quantity} (method - baseline)",
               "measured": f"{fmt(mean)} [{fmt(lo)}, {fmt(hi)}]",
               "claimed": f"{'<' if sign > 0 else '>'} {fmt(-sign * self.margin)}",
               "tolerance": f"{self.level:.0%} {'bootstrap' if self.bootstrap else 't'} interval", "reason": self.why}
        kw = {"rows": [row], "error_probability": (1 - self.level) / 2,
              "headline": {"mean_difference": mean, "ci_low": lo, "ci_high": hi}}
        ci = f"mean difference {fmt(mean)} with {self.level:.0%} interval [{fmt(lo)}, {fmt(hi)}] over {d.size} pairs"
        if e_hi < -self.margin:
            return Decision(Verdict.VERIFIED, f"{ci}: the method is {self.direction} than the baseline", **kw)
        if e_lo > 0:
            return Decision(Verdict.REFUTED, f"{ci}: the method is not {self.direction} than the baseline", **kw)
        return Decision(Verdict.INCONCLUSIVE, f"{ci} does not separate method and baseline", **kw)


KINDS: dict[str, type[Evidence]] = {
    cls.kind: cls for cls in (Identity, Symbolic, Bound, Rate, Proportion, Certificate, Comparison)
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
    return evidence.decide()


def final_verdict(claim_verdict: Verdict, control_verdicts: list[Verdict], reconstructed: bool) -> tuple[Verdict, str]:
    """Combine a claim's verdict with its controls' into the verdict the report shows.

    A claim counts as VERIFIED only when its own verdict is VERIFIED and every control is
    REFUTED (the proof that the check has power); a control that is not refuted caps it at
    INCONCLUSIVE.  A refuted reconstructed statement makes the verdict INCONCLUSIVE (the failure
    may be the reconstruction's).

    Returns:
        (verdict, note) where note explains any capping.
    """
    if claim_verdict is Verdict.ERROR:
        return Verdict.ERROR, "the check itself failed"
    if claim_verdict is Verdict.REFUTED:
        if reconstructed:
            return Verdict.INCONCLUSIVE, "the reconstructed statement was refuted; the paper's exact statement may differ"
        return Verdict.REFUTED, ""
    if claim_verdict is Verdict.VERIFIED:
        if not control_verdicts:
            return Verdict.INCONCLUSIVE, "no negative control: the check's power is not shown"
        weak = [v for v in control_verdicts if v is not Verdict.REFUTED]
        if weak:
            return Verdict.INCONCLUSIVE, "a negative control was not refuted: the check has no power"
        return Verdict.VERIFIED, ""
    return Verdict.INCONCLUSIVE, ""
