"""Evidence kinds and the one place where evidence becomes a verdict.

A claim returns one of the evidence classes below; :func:`decide` turns it into a
:class:`Decision` (verdict, error probability, summary, evidence table, counterexample,
sharpness).  Each class documents its decision rule; the statistical ones state the probability
that the rule refutes a claim that is exactly true (their ``error_probability``).

Every rule is fail-closed: VERIFIED only when the evidence supports the claim, REFUTED when it
contradicts it, INCONCLUSIVE otherwise.  Beside the verdict, every decision says how much it
proves:

- its **sharpness**, decided from the evidence alone: the strongest version of the claim that
  the same evidence would still verify (kind by kind, documented with each rule);
- its **near miss** (:func:`assess_near_miss`): the same evidence decided again against a version
  of the claim that is wrong by a stated, modest amount in the stronger direction.  A verified
  claim whose near miss is not refuted is *slack*: the check cannot tell the claim from a wrong
  one.  Defaults per kind are documented with each class; a claim may declare its own
  (:class:`NearMiss`).
"""

from .bound import Bound
from .core import Decision, Evidence, EvidenceError, NearMiss, NoNearMiss, Verdict, fmt
from .exact import OPTIMAL_STATUSES, Certificate, Identity, Symbolic
from .rate import RATE_FLOAT_ERROR, RATE_NEAR_MISS, Rate, factor_slope
from .statistical import Comparison, Proportion, proportion_interval
from .verdicts import (
    KINDS,
    NEAR_MISS_OUTCOMES,
    SHARP_OUTCOMES,
    AllOf,
    assess_near_miss,
    decide,
    describe_near_miss,
    final_verdict,
    is_sharp,
    sharpness_label,
)

__all__ = [
    "KINDS", "NEAR_MISS_OUTCOMES", "OPTIMAL_STATUSES", "RATE_FLOAT_ERROR", "RATE_NEAR_MISS", "SHARP_OUTCOMES",
    "AllOf", "Bound", "Certificate", "Comparison", "Decision", "Evidence", "EvidenceError", "Identity", "NearMiss",
    "NoNearMiss", "Proportion", "Rate", "Symbolic", "Verdict", "assess_near_miss", "decide", "describe_near_miss",
    "factor_slope", "final_verdict", "fmt", "is_sharp", "proportion_interval", "sharpness_label",
]
