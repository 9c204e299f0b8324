"""Privacy audits: exact privacy loss of discrete mechanisms, and membership-inference audits.

An exact audit compares the output distributions of a mechanism on two neighbouring datasets:
pure DP holds with epsilon iff max_o |ln p(o)/p'(o)| <= epsilon, and (epsilon, delta)-DP iff the
hockey-stick divergence sum_o (p(o) - e^epsilon p'(o))_+ <= delta in both directions.

A membership-inference audit cannot see the distributions, only samples of an attack score on
outputs of the two worlds ("out": the neighbour without the target, "in": with it).  Any attack
on an (epsilon, delta)-DP mechanism has TPR <= e^epsilon FPR + delta (Kairouz, Oh & Viswanath,
ICML 2015, Thm 2.1); the audit measures TPR and FPR with Clopper-Pearson intervals (Jagielski,
Ullman & Oprea, NeurIPS 2020; Nasr et al., IEEE S&P 2021).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats


def _distributions(p, q) -> tuple[np.ndarray, np.ndarray]:
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError(f"need two 1-D probability vectors of one length, got {p.shape} and {q.shape}")
    for name, v in (("p", p), ("q", q)):
        if np.any(v < 0) or abs(v.sum() - 1) > 1e-9:
            raise ValueError(f"{name} is not a probability vector (negative entry or sum {v.sum()})")
    return p, q


def exact_privacy_loss(p, q) -> float:
    """max over outputs of |ln p(o) - ln q(o)|: the pure-DP epsilon of the pair (inf on unequal supports).

    Args:
        p, q: output distributions of the mechanism on two neighbouring datasets.
    Raises:
        ValueError: if p, q are not probability vectors of one length.
    """
    p, q = _distributions(p, q)
    both = (p > 0) & (q > 0)
    if np.any((p > 0) != (q > 0)):
        return math.inf
    return float(np.max(np.abs(np.log(p[both]) - np.log(q[both])))) if both.any() else 0.0


def hockey_stick_divergence(p, q, epsilon: float) -> float:
    """sum_o (p(o) - e^epsilon q(o))_+ : the smallest delta of (epsilon, delta) in the direction p vs q."""
    p, q = _distributions(p, q)
    return float(np.sum(np.maximum(p - math.exp(epsilon) * q, 0.0)))


def dp_tpr_bound(fpr: float, epsilon: float, delta: float) -> float:
    """Largest TPR an attack can have at false-positive rate ``fpr`` on an (epsilon, delta)-DP mechanism.

    min(1, e^epsilon fpr + delta, 1 - e^-epsilon (1 - fpr - delta)) (Kairouz et al. 2015, Thm 2.1:
    both constraints of the DP hypothesis-testing region).

    Raises:
        ValueError: on fpr outside [0, 1], negative epsilon or delta outside [0, 1].
    """
    if not (0 <= fpr <= 1 and epsilon >= 0 and 0 <= delta <= 1):
        raise ValueError("need fpr in [0, 1], epsilon >= 0 and delta in [0, 1]")
    return float(min(1.0, math.exp(epsilon) * fpr + delta, 1 - math.exp(-epsilon) * (1 - fpr - delta)))


def gaussian_tradeoff_tpr(fpr: float, mu: float) -> float:
    """Largest TPR any test can have at false-positive rate ``fpr`` between N(a, s^2 I) and N(b, s^2 I), ||a-b|| = mu s.

    Phi(Phi^-1(fpr) + mu): the power of the likelihood-ratio (Neyman-Pearson) test, i.e. the trade-off
    curve of mu-Gaussian differential privacy (Dong, Roth & Su, JRSS-B 2022, Def. 2.6 and eq. (2.3)).
    A Gaussian mechanism whose Rényi divergence of order q is at most eps has mu <= sqrt(2 eps / q).

    Args:
        fpr: false-positive rate in [0, 1].
        mu: mean shift in units of the noise's standard deviation, >= 0.
    Raises:
        ValueError: on fpr outside [0, 1] or a negative or non-finite mu.
    """
    if not (0 <= fpr <= 1 and math.isfinite(mu) and mu >= 0):
        raise ValueError(f"need fpr in [0, 1] and a finite mu >= 0, got fpr={fpr}, mu={mu}")
    return float(stats.norm.cdf(stats.norm.ppf(fpr) + mu))


@dataclass
class MembershipAudit:
    """Outcome of :func:`membership_inference_audit`.

    Attributes:
        threshold: score threshold of the attack ("member" when score > threshold).
        true_positives, n_in: attack hits on fresh "in" outputs, and their number.
        false_positives, n_out: attack hits on fresh "out" outputs, and their number.
        fpr_upper: Clopper-Pearson upper end of the false-positive rate at ``level``.
        tpr_interval: Clopper-Pearson interval of the true-positive rate at ``level``.
        epsilon_lower: ln((TPR_low - delta) / FPR_up), a lower confidence bound on the epsilon of any
            (epsilon, delta) guarantee the mechanism can have (-inf when TPR_low <= delta).
    """

    threshold: float
    true_positives: int
    n_in: int
    false_positives: int
    n_out: int
    fpr_upper: float
    tpr_interval: tuple[float, float]
    epsilon_lower: float


def membership_inference_audit(scores_out_calibration, scores_out, scores_in, target_fpr: float,
                               delta: float = 0.0, level: float = 0.95) -> MembershipAudit:
    """Threshold attack at a target false-positive rate, with exact confidence bounds.

    The threshold is the (1 - target_fpr) empirical quantile of a calibration sample of "out"
    scores; it is then applied to fresh samples of both worlds, so the counts are binomial.

    Args:
        scores_out_calibration: 1-D attack scores on outputs of the world without the target.
        scores_out, scores_in: fresh 1-D scores of the two worlds.
        target_fpr: in (0, 1).
        delta: the delta of the guarantee audited (for ``epsilon_lower``).
        level: confidence level of the Clopper-Pearson intervals.
    Raises:
        ValueError: on empty samples or a target_fpr outside (0, 1).
    """
    cal = np.asarray(scores_out_calibration, dtype=float).ravel()
    out = np.asarray(scores_out, dtype=float).ravel()
    inn = np.asarray(scores_in, dtype=float).ravel()
    if min(cal.size, out.size, inn.size) == 0:
        raise ValueError("the audit needs non-empty calibration, out and in samples")
    if not 0 < target_fpr < 1:
        raise ValueError(f"target_fpr must lie in (0, 1), got {target_fpr}")
    t = float(np.quantile(cal, 1 - target_fpr))
    tp, fp = int(np.sum(inn > t)), int(np.sum(out > t))
    tpr = _clopper_pearson(tp, inn.size, level)
    _, fpr_hi = _clopper_pearson(fp, out.size, level)
    eps_lo = math.log((tpr[0] - delta) / fpr_hi) if tpr[0] > delta else -math.inf
    return MembershipAudit(t, tp, inn.size, fp, out.size, fpr_hi, tpr, eps_lo)


def _clopper_pearson(successes: int, trials: int, level: float) -> tuple[float, float]:
    ci = stats.binomtest(successes, trials).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)
