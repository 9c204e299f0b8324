"""Rates: power laws fitted on a log-log scale, with one- and two-sided rules."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .core import (
    Decision,
    Evidence,
    EvidenceError,
    Verdict,
    _as_array,
    _finite,
    _level,
    _replace,
    fmt,
)


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


RATE_NEAR_MISS = 0.25  # the default near miss moves a claimed exponent by this much, or by half a smaller one


def rate_near_miss_shift(exponent: float) -> float:
    """How far the default near miss moves a claimed exponent: 0.25, or half the exponent when it
    is smaller than 0.5 in size (a quarter is no modest change of T^(-1/7)); 0.25 for 0."""
    e = abs(float(exponent))
    return RATE_NEAR_MISS if e == 0 else min(RATE_NEAR_MISS, e / 2)
RATE_FLOAT_ERROR = 1e-9  # float error of a fitted slope: an exact power law is fitted to about this


@dataclass
class Rate(Evidence):
    """Costs against sizes that must follow a claimed power law ``cost ~ size^exponent``.

    The exponent is the least-squares slope of ``log cost`` on ``log size`` (replicates at one
    size allowed), with a Student-t confidence interval ``[lo, hi]`` at ``level``; ``tol`` is the
    stated ``tolerance`` (an allowance for lower-order terms, with its reason in ``why``).  Rules:

    - ``relation="="``: REFUTED when the claimed exponent lies outside ``[lo - tol, hi + tol]``;
      else VERIFIED when the half-width is at most ``max_halfwidth``; else INCONCLUSIVE.
    - ``relation="<="`` (the cost decays at least as fast, or grows at most as fast, as
      ``size^exponent``): VERIFIED when ``hi <= exponent + tol``, REFUTED when
      ``lo > exponent + tol``, else INCONCLUSIVE.  A fit whose interval straddles the claimed
      exponent verifies nothing: a one-sided claim at exactly its true exponent is verified only
      through a stated tolerance, so one-sided rates are best fitted where the bound binds.
    - ``relation=">="`` mirrors ``"<="``.

    Sizes must span at least a decade, else INCONCLUSIVE (unless refuted).  Under the claimed law
    with Gaussian log-noise, the refutation probability is ``1 - level`` for ``"="`` and at most
    ``(1 - level) / 2`` for the one-sided relations.

    With ``constant=C`` (only for ``"="``: a one-sided bound with its constant is a
    :class:`Bound`), the claim is ``cost ~ C size^exponent``: at the claimed exponent, the
    t-interval of ``mean(log cost - exponent log size)`` must contain ``log C`` widened by
    ``log(1 + constant_rtol)`` (REFUTED when it does not).

    Sharpness: the exponents the fit cannot reject (``[lo - tol, hi + tol]`` for ``"="``; for
    ``"<="`` the strongest exponent still verified is ``hi - tol``) and the nearest refuted on each
    side; with a constant, the interval of constants.  Default near misses: the exponent moved by
    0.25 toward the stronger side (both sides for ``"="``), or by half of it when it is smaller than
    0.5 in size, and a claimed constant halved and doubled.

    Args:
        sizes, costs: positive arrays of one length (n >= 3).
        exponent: the claimed exponent (e.g. -0.5 for ``O(n^{-1/2})``).
        relation: ``"="``, ``"<="`` or ``">="``.
        tolerance: allowance for lower-order terms, with its reason in ``why``.
        max_halfwidth: widest interval half-width that still identifies the exponent (``"="``).
        constant, constant_rtol: a claimed constant and its relative allowance.
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
    constant: float | None = None
    constant_rtol: float = 0.0
    kind = "rate"
    relations = ("=", "<=", ">=")
    claimed_field = "exponent"
    near_miss_default: ClassVar[str] = "the exponent moved by 0.25 (or half of it, when smaller than 0.5 in size) toward the stronger side (both sides for '='); a claimed constant halved and doubled"

    def __post_init__(self) -> None:
        super().__post_init__()
        _finite(self.exponent, "exponent", "rate")
        if _finite(self.tolerance, "tolerance", "rate") < 0:
            raise EvidenceError(f"rate evidence: tolerance must be >= 0, not {self.tolerance!r}")
        if _finite(self.max_halfwidth, "max_halfwidth", "rate") <= 0:
            raise EvidenceError(f"rate evidence: max_halfwidth must be > 0, not {self.max_halfwidth!r}")
        _level(self.level, "rate")
        if self.constant is not None:
            if self.relation != "=":
                raise EvidenceError("a one-sided rate with a claimed constant is a bound (cost <= C size^exponent "
                                    "at every size): use Bound")
            if _finite(self.constant, "constant", "rate") <= 0:
                raise EvidenceError(f"rate evidence: constant must be > 0, not {self.constant!r}")
            if _finite(self.constant_rtol, "constant_rtol", "rate") < 0:
                raise EvidenceError("rate evidence: constant_rtol must be >= 0")

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        e = float(self.exponent)
        d = rate_near_miss_shift(e)
        moves = {"<=": [-d], ">=": [d], "=": [-d, d]}[self.relation]
        out: list[tuple[str, Evidence]] = [
            (f"exponent {fmt(e + s, 4)} instead of {fmt(e, 4)}", _replace(self, exponent=e + s, constant=None))
            for s in moves]
        if self.constant is not None:
            out += [(f"constant {fmt(self.constant * f, 4)} instead of {fmt(self.constant, 4)}",
                     _replace(self, constant=self.constant * f)) for f in (0.5, 2.0)]
        return out

    def _data(self) -> tuple[np.ndarray, np.ndarray]:
        s = _as_array(self.sizes, "sizes").ravel()
        c = _as_array(self.costs, "costs").ravel()
        if s.shape != c.shape or s.size < 3:
            raise EvidenceError(f"rate evidence needs >= 3 (size, cost) pairs of one length, got {s.size} and {c.size}")
        return s, c

    def fit(self) -> tuple[float, float, float, float]:
        """Return (slope, intercept, standard error of the slope, half-width at ``level``)."""
        s, c = self._data()
        x, y = np.log(s), np.log(c)
        n = x.size
        xc = x - x.mean()
        slope, intercept = _least_squares_line(x, y)
        residual = y - (intercept + slope * x)
        se = float(np.sqrt(residual @ residual / (n - 2) / (xc @ xc))) if n > 2 else float("inf")
        # Exact power laws (constant costs too) give a zero-width interval; floor it at the float
        # error of the fit (which the rules also allow: see RATE_FLOAT_ERROR).
        # imported here, not at the top: it takes seconds that `workbench --help` need not wait
        from scipy import stats
        half = max(float(stats.t.ppf(0.5 + self.level / 2, n - 2)) * se, RATE_FLOAT_ERROR)
        return slope, intercept, se, half

    def constant_interval(self) -> tuple[float, float, float]:
        """(estimate, low, high) of the constant ``C`` at the claimed exponent (t-interval of the
        mean of ``log cost - exponent log size``, at ``level``)."""
        s, c = self._data()
        z = np.log(c) - float(self.exponent) * np.log(s)
        from scipy import stats
        half = max(float(stats.t.ppf(0.5 + self.level / 2, z.size - 1)) * float(z.std(ddof=1)) / math.sqrt(z.size),
                   1e-9)
        return math.exp(z.mean()), math.exp(z.mean() - half), math.exp(z.mean() + half)

    def decide(self) -> Decision:
        s, c = self._data()
        if not (np.all(np.isfinite(c)) and np.all(np.isfinite(s))):
            return Decision(Verdict.ERROR, "non-finite size or cost")
        if np.any(s <= 0) or np.any(c <= 0):
            return Decision(Verdict.ERROR, "sizes and costs must be positive for a log-log fit")
        if np.unique(s).size < 2:
            raise EvidenceError("rate evidence needs at least two distinct sizes")
        slope, intercept, se, half = self.fit()
        lo, hi = slope - half, slope + half
        e, tol, rel = float(self.exponent), float(self.tolerance), self.relation
        # The rules allow the fit's float error (the floor of the half-width, on each side of an exact
        # fit) beside the stated tolerance, so an exact power law at the claimed exponent verifies.
        tol_rule = tol + 2 * RATE_FLOAT_ERROR
        two_sided = rel == "="
        alpha = (1 - self.level) if two_sided else (1 - self.level) / 2
        row = {"quantity": f"exponent of {self.cost_name} in {self.size_name}",
               "measured": f"{fmt(slope, 4)} [{fmt(lo, 4)}, {fmt(hi, 4)}]",
               "claimed": f"{rel} {fmt(e, 4)}",
               "tolerance": f"+-{fmt(tol)}" + (f"; half-width <= {fmt(self.max_halfwidth)}" if two_sided else ""),
               "reason": self.why}
        rows = [row]
        figure = {"type": "rate", "x": s.tolist(), "y": c.tolist(), "slope": slope,
                  "intercept": intercept, "claimed": e, "xlabel": self.size_name, "ylabel": self.cost_name}
        headline = {"slope": slope, "ci_low": lo, "ci_high": hi}
        sharp = self._sharpness(lo, hi)
        ci = f"{fmt(slope, 4)} with {self.level:.0%} interval [{fmt(lo, 4)}, {fmt(hi, 4)}]"
        allowance = f" (allowance {fmt(tol)})" if tol else ""
        if two_sided:
            refuted, supported = not lo - tol_rule <= e <= hi + tol_rule, half <= self.max_halfwidth
        elif rel == "<=":
            refuted, supported = lo > e + tol_rule, hi <= e + tol_rule
        else:
            refuted, supported = hi < e - tol_rule, lo >= e - tol_rule
        const_verdict, const_text = None, ""
        if self.constant is not None and not refuted:
            est, clo, chi = self.constant_interval()
            widen = 1.0 + float(self.constant_rtol)
            C = float(self.constant)
            rows.append({"quantity": f"constant of {self.cost_name} at the claimed exponent",
                         "measured": f"{fmt(est, 4)} [{fmt(clo, 4)}, {fmt(chi, 4)}]", "claimed": f"= {fmt(C, 4)}",
                         "tolerance": f"factor {fmt(widen)}", "reason": self.why})
            headline |= {"constant": est, "constant_low": clo, "constant_high": chi}
            sharp["constants"] = [clo / widen, chi * widen]
            sharp["sentence"] += (f"; at the claimed exponent it cannot reject constants in "
                                  f"[{fmt(clo / widen, 4)}, {fmt(chi * widen, 4)}]")
            const_verdict = clo / widen <= C <= chi * widen
            const_text = f"; constant {fmt(est, 4)} [{fmt(clo, 4)}, {fmt(chi, 4)}] against {fmt(C, 4)}"
        kw = {"rows": rows, "error_probability": alpha, "figure": figure, "headline": headline, "sharpness": sharp}
        if refuted:
            return Decision(Verdict.REFUTED, f"fitted exponent {ci} excludes the claimed {rel} {fmt(e, 4)}{allowance}",
                            **kw)
        if const_verdict is False:
            return Decision(Verdict.REFUTED, f"fitted exponent {ci} is consistent with {fmt(e, 4)}, but the constant "
                            f"excludes the claimed one{const_text}", **kw)
        if s.max() / s.min() < 10 * (1 - 1e-12):  # a grid spanning exactly a decade, up to rounding, is one
            return Decision(Verdict.INCONCLUSIVE,
                            f"sizes span less than a decade ({fmt(s.min())} to {fmt(s.max())}): exponent not identifiable",
                            **kw)
        if not supported:
            if two_sided:
                return Decision(Verdict.INCONCLUSIVE,
                                f"fitted exponent {ci} is consistent with the claim but too wide "
                                f"(half-width {fmt(half, 3)} > {fmt(self.max_halfwidth)})", **kw)
            return Decision(Verdict.INCONCLUSIVE,
                            f"fitted exponent {ci} straddles the claimed {rel} {fmt(e, 4)}{allowance}: the evidence "
                            "neither supports nor contradicts it", **kw)
        bound_text = (f" plus its allowance {fmt(tol)}, i.e. {rel} {fmt(e + tol if rel == '<=' else e - tol, 4)}"
                      if tol and not two_sided else allowance)
        return Decision(Verdict.VERIFIED, f"fitted exponent {ci} is consistent with the claimed "
                        f"{rel} {fmt(e, 4)}{bound_text}{const_text}", **kw)

    def _sharpness(self, lo: float, hi: float) -> dict[str, Any]:
        tol, rel = float(self.tolerance), self.relation
        if rel == "=":
            a, b = lo - tol, hi + tol
            return {"measure": "exponents not rejected", "value": (b - a) / 2, "range": [a, b],
                    "sentence": (f"the fit cannot reject exponents in [{fmt(a, 3)}, {fmt(b, 3)}] (half-width "
                                 f"{fmt((b - a) / 2, 3)}); it refutes claimed exponents below {fmt(a, 3)} or above "
                                 f"{fmt(b, 3)}")}
        if rel == "<=":
            strongest, refuted_below = hi - tol, lo - tol
            return {"measure": "strongest exponent verified", "value": strongest, "range": [lo - tol, hi - tol],
                    "relation": "<=",
                    "sentence": (f"the evidence would verify any claimed exponent >= {fmt(strongest, 3)} "
                                 f"(<= form) and refute one below {fmt(refuted_below, 3)}")}
        strongest, refuted_above = lo + tol, hi + tol
        return {"measure": "strongest exponent verified", "value": strongest, "range": [lo + tol, hi + tol],
                "relation": ">=",
                "sentence": (f"the evidence would verify any claimed exponent <= {fmt(strongest, 3)} (>= form) "
                             f"and refute one above {fmt(refuted_above, 3)}")}
