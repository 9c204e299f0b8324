"""Statistical evidence: binomial proportions and paired comparisons."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from .core import (
    TABLE_MAX,
    Decision,
    Evidence,
    EvidenceError,
    NoNearMiss,
    Verdict,
    _as_array,
    _finite,
    _level,
    _replace,
    fmt,
)


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
    # imported here, not at the top: it takes seconds that `workbench --help` need not wait
    from scipy import stats
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence_level=level, method=scipy_method)
    return float(ci.low), float(ci.high)


def _whole(value: Any, name: str, kind: str) -> int:
    try:
        as_float = float(value)
    except (TypeError, ValueError):
        raise EvidenceError(f"{kind} evidence: {name} must be a whole number, not {value!r}") from None
    if not math.isfinite(as_float) or not as_float.is_integer():
        raise EvidenceError(f"{kind} evidence: {name} must be a whole number, not {value!r}")
    return int(as_float)


@dataclass
class Proportion(Evidence):
    """Successes out of trials against a claimed probability.

    Rule (interval at ``level``, Wilson or Clopper-Pearson): for ``relation=">="``, VERIFIED
    when the lower end is at least ``probability``, REFUTED when the upper end is below it,
    INCONCLUSIVE otherwise; ``"<="`` mirrors it; for ``"="``, REFUTED when ``probability`` is
    outside the interval, VERIFIED when inside and the half-width is at most ``max_halfwidth``.
    A true claim is refuted with probability at most ``(1 - level) / 2`` (one-sided) or
    ``1 - level`` (``"="``).

    Sharpness: the largest probability a ``">="`` claim could state and still be verified (the
    interval's lower end; the upper end for ``"<="``; the interval for ``"="``).  Default near
    miss: ``p -> (1 + p) / 2`` for ``">="``, ``p -> p / 2`` for ``"<="``, and for ``"="`` the
    farther of the two.

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
    relations = (">=", "<=", "=")
    claimed_field = "probability"
    near_miss_default: ClassVar[str] = "p -> (1 + p)/2 for '>=', p/2 for '<=', the farther of the two for '='"

    def __post_init__(self) -> None:
        super().__post_init__()
        n = _whole(self.trials, "trials", "proportion")
        k = _whole(self.successes, "successes", "proportion")
        if n < 1 or not 0 <= k <= n:
            raise EvidenceError(f"proportion evidence needs 0 <= successes <= trials and trials >= 1, got {k}/{n}")
        p = _finite(self.probability, "probability", "proportion")
        if not 0 <= p <= 1:
            raise EvidenceError(f"proportion evidence: probability must lie in [0, 1], not {self.probability!r}")
        _level(self.level, "proportion")
        if self.method not in ("wilson", "clopper-pearson"):
            raise EvidenceError(f"proportion method must be 'wilson' or 'clopper-pearson', not {self.method!r}")

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        p = float(self.probability)
        if self.relation == ">=":
            q = (1 + p) / 2
        elif self.relation == "<=":
            q = p / 2
        else:
            q = (1 + p) / 2 if p < 0.5 else p / 2
        return [(f"probability {fmt(q, 4)} instead of {fmt(p, 4)}", _replace(self, probability=q))]

    def decide(self) -> Decision:
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
        if self.relation == ">=":
            sharp = {"measure": "largest probability verified", "value": lo,
                     "sentence": f"the evidence would also have verified P({self.event}) >= {fmt(lo, 3)}"}
        elif self.relation == "<=":
            sharp = {"measure": "smallest probability verified", "value": hi,
                     "sentence": f"the evidence would also have verified P({self.event}) <= {fmt(hi, 3)}"}
        else:
            sharp = {"measure": "probabilities not rejected", "value": (hi - lo) / 2, "range": [lo, hi],
                     "sentence": f"the evidence cannot reject any probability in [{fmt(lo, 3)}, {fmt(hi, 3)}]"}
        kw = {"rows": rows, "error_probability": alpha, "headline": headline, "sharpness": sharp}
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


# --------------------------------------------------------------------------- comparison
@dataclass
class Comparison(Evidence):
    """Paired samples of a method and a baseline, and the claimed direction of the difference.

    The difference ``d = method - baseline`` per pair gets a Student-t interval at ``level``
    (or a percentile bootstrap with ``bootstrap=True``, resampled with a fixed generator).
    Rule, ``direction="less"`` (the method's value is smaller by more than ``margin``, e.g. a
    loss): VERIFIED when the interval's upper end is below ``-margin``, REFUTED when its lower
    end is above ``-margin`` (the data contradict a difference of that size), INCONCLUSIVE
    otherwise; ``"greater"`` mirrors it.  A method whose mean difference is exactly the margin is
    wrongly verified, and one that truly beats it wrongly refuted, with probability at most
    ``(1 - level) / 2``.  When every paired difference is the same number, neither interval
    exists; the sign test decides about the median difference instead (every pair on one side has
    probability at most ``0.5^n`` when the median is on the other), INCONCLUSIVE when ``0.5^n``
    exceeds ``(1 - level) / 2``.

    Sharpness: the interval of the effect, and the largest margin the evidence would still
    verify.  Default near miss: the margin doubled (none when the margin is 0: the claim is a
    direction only; declare a near miss, e.g. a margin the paper's effect size implies).
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
    claimed_field = "margin"
    near_miss_default: ClassVar[str] = "the margin doubled (none for a margin of 0)"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.direction not in ("less", "greater"):
            raise EvidenceError(f"comparison direction must be 'less' or 'greater', not {self.direction!r}")
        if _finite(self.margin, "margin", "comparison") < 0:
            raise EvidenceError(f"comparison evidence: margin must be >= 0, not {self.margin!r}")
        _level(self.level, "comparison")

    def default_near_misses(self) -> list[tuple[str, Evidence]]:
        if not self.margin:
            raise NoNearMiss("the claim is a direction with margin 0, which has no size to move: declare a near "
                             "miss (a margin the paper's effect implies)")
        return [(f"margin {fmt(2 * self.margin, 4)} instead of {fmt(self.margin, 4)}",
                 _replace(self, margin=2 * float(self.margin)))]

    def decide(self) -> Decision:
        a = _as_array(self.method, "method").ravel()
        b = _as_array(self.baseline, "baseline").ravel()
        if a.shape != b.shape or a.size < 2:
            raise EvidenceError(f"comparison needs >= 2 pairs of equal length, got {a.size} and {b.size}")
        d = a - b
        if not np.all(np.isfinite(d)):
            return Decision(Verdict.ERROR, "non-finite paired difference")
        mean = float(d.mean())
        sign = 1.0 if self.direction == "less" else -1.0
        if np.all(d == d[0]):
            # No spread: a t or bootstrap interval would have zero width.  The sign test still says
            # something about the median difference: every pair on one side of the margin has
            # probability at most 0.5^n when the median is on the other side.
            alpha = (1 - self.level) / 2
            p_sign = 0.5 ** d.size
            claimed_side = sign * mean < -self.margin
            row = {"quantity": f"paired difference of {self.quantity} (method - baseline)",
                   "measured": f"{fmt(mean)} in every one of {d.size} pairs", "claimed": f"{'<' if sign > 0 else '>'} "
                   f"{fmt(-sign * self.margin + 0.0)}", "tolerance": f"sign test, 0.5^{d.size} = {fmt(p_sign, 3)}",
                   "reason": self.why}
            kw = {"headline": {"mean_difference": mean}, "error_probability": alpha,
                  "sharpness": {"measure": "effect interval", "value": None,
                                "sentence": f"every paired difference is {fmt(mean)}: no interval for the mean, the "
                                            "sign test speaks of the median only"}}
            text = (f"all {d.size} paired differences equal {fmt(mean)} (no spread: the sign test, which bounds the "
                    f"chance of every pair falling on one side by 0.5^{d.size} = {fmt(p_sign, 3)})")
            if p_sign > alpha:
                return Decision(Verdict.INCONCLUSIVE, f"{text}: too few pairs to decide at level {self.level:.0%}",
                                [row], **kw)
            verdict = Verdict.VERIFIED if claimed_side else Verdict.REFUTED
            return Decision(verdict, f"{text}: the median difference is {'' if claimed_side else 'not '}"
                            f"{self.direction} than {fmt(-sign * self.margin + 0.0)}", [row], **kw)
        if self.bootstrap:
            rng = np.random.default_rng(0)
            boots = rng.choice(d, size=(4000, d.size), replace=True).mean(axis=1)
            lo, hi = (float(q) for q in np.quantile(boots, [(1 - self.level) / 2, (1 + self.level) / 2]))
        else:
            sd = float(d.std(ddof=1))
            from scipy import stats
            half = float(stats.t.ppf(0.5 + self.level / 2, d.size - 1)) * sd / math.sqrt(d.size)
            lo, hi = mean - half, mean + half
        # Work with e = sign * d: the claim is e < -margin.
        e_lo, e_hi = sorted((sign * lo, sign * hi))
        row = {"quantity": f"mean difference of {self.quantity} (method - baseline)",
               "measured": f"{fmt(mean)} [{fmt(lo)}, {fmt(hi)}]",
               "claimed": f"{'<' if sign > 0 else '>'} {fmt(-sign * self.margin + 0.0)}",
               "tolerance": f"{self.level:.0%} {'bootstrap' if self.bootstrap else 't'} interval", "reason": self.why}
        largest = -e_hi  # the largest margin m with e_hi < -m
        effect = f"the effect lies in [{fmt(lo, 3)}, {fmt(hi, 3)}]"
        if largest > 0:
            sentence = f"{effect}; the evidence would verify any margin below {fmt(largest, 3)}"
        elif e_lo > 0:
            sentence = f"{effect}, wholly on the other side of 0 from the claimed direction"
        else:
            sentence = f"{effect}, which does not exclude 0"
        sharp = {"measure": "largest margin verified", "value": largest, "range": [lo, hi], "sentence": sentence}
        kw = {"rows": [row], "error_probability": (1 - self.level) / 2,
              "headline": {"mean_difference": mean, "ci_low": lo, "ci_high": hi}, "sharpness": sharp}
        ci = f"mean difference {fmt(mean)} with {self.level:.0%} interval [{fmt(lo)}, {fmt(hi)}] over {d.size} pairs"
        by = f" by more than {fmt(self.margin)}" if self.margin else ""
        if e_hi < -self.margin:
            return Decision(Verdict.VERIFIED, f"{ci}: the method is {self.direction} than the baseline{by}", **kw)
        if e_lo > -self.margin:
            return Decision(Verdict.REFUTED, f"{ci}: the method is not {self.direction} than the baseline{by}", **kw)
        return Decision(Verdict.INCONCLUSIVE, f"{ci} does not separate method and baseline{by}", **kw)
