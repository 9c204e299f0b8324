r"""Allouah, Kazdan, Guerraoui & Koyejo, "The Utility and Complexity of In- and
Out-of-Distribution Machine Unlearning" (ICLR 2025, arXiv 2412.09119).

Approximate unlearning is certified in the $(q, \varepsilon)$-Rényi sense: the unlearned model's
distribution is within Rényi divergence $\varepsilon$ of order $q$ of the model retrained without
the forget set, and its utility is its excess empirical risk on the retain set.  For
in-distribution forget data, ERM with output perturbation (Algorithm 1, "unlearning via noisy
minimizer approximation": bring the model within a radius $\Delta$ of the retain minimiser by
gradient steps warm-started at the trained model, then add Gaussian noise) achieves the
certificate and the utility; for out-of-distribution forget data the warm start can be farther
from the target than a fresh start (unlearning costs more than retraining, even for one sample),
and robust training by gradient descent with coordinate-wise trimmed-mean aggregation
(Algorithm 2) amortises it without compromising utility.

The full text could not be read (see /work/notes/privacy-research.md of the team, and each
claim's ``reconstructed_from``): the constants are our reconstruction on ridge regression over
the domain $\|x\|\le 1$, $|y|\le y_{\max}$ (minimiser norm $\le y_{\max}/\mu$, per-sample
gradients $\le G = y_{\max}(1+1/\mu)$, smoothness $\beta = 1+\mu$), the utility radius
$\Delta^2 = 2\alpha/(\beta(1 + dq/(2\varepsilon)))$ and noise $\sigma = \Delta\sqrt{q/(2\varepsilon)}$.
Certificates are checked on the neighbouring datasets where the sensitivity bound binds (found by
an adversarial search); utility in two parts, the unlearning error on those same datasets and the
total on isotropic data where the noise's cost $\sigma^2\operatorname{tr}H/2$ meets its bound
$\beta d\sigma^2/2$; the membership audit against the Gaussian trade-off curve.  For Algorithm 2 the
headline is what robust training changes (the trained model's distance and the unlearning time);
the release step's certificate, which holds from any start, is background.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from simulations.privacy import (
    gaussian_tradeoff_tpr,
    membership_inference_audit,
    renyi_divergence_gaussians,
)
from simulations.unlearning import (
    aligned_ridge_instance,
    apriori_unlearning_steps,
    coordinate_ridge_instance,
    deletion_capacity,
    iterations_to_reach,
    noise_for_radius,
    ridge_data,
    ridge_domain_constants,
    ridge_erm,
    ridge_gradient,
    ridge_gradient_bound,
    ridge_noisy_excess_risk,
    ridge_smoothness,
    ridge_unlearning_excess,
    robust_noisy_unlearning,
    sphere_ridge_data,
    utility_radius,
    warm_start_unlearning,
)
from workbench import AllOf, Bound, NearMiss, NotChecked, Paper, Param, Proportion, Rate, claim

_READ = ("arXiv 2412.09119 abstract; sciencestack summary (Rényi certification, ERM with output perturbation, "
         "trimmed-mean robust GD); paperhub.cn/paper/HVFMooKrHX (OpenReview review quoting eq. (12) and the "
         "retain-set utility); acmrep2026.k117.org (algorithm names)")

PAPER = Paper(
    slug="unlearning_in_out_distribution",
    title="The Utility and Complexity of In- and Out-of-Distribution Machine Unlearning",
    authors=("Youssef Allouah", "Joshua Kazdan", "Rachid Guerraoui", "Sanmi Koyejo"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2412.09119",
    url="https://arxiv.org/abs/2412.09119",
    not_checked=(
        NotChecked(r"Empirical risk minimisation with output perturbation achieves \emph{tight} "
                   r"unlearning-utility-complexity trade-offs for in-distribution forget data.",
                   "tightness is a lower bound over all certified unlearning algorithms, which no run of particular "
                   "mechanisms can establish; the upper-bound side (certificate and utility of Algorithm 1) is checked.",
                   role="headline"),
        NotChecked(r"A separation from unlearning ``for free'' via differential privacy: DP learners cannot reach the "
                   r"deletion capacity of unlearning.",
                   "a lower bound on every differentially private learner; computations can only run particular "
                   "learners.", role="headline"),
        NotChecked(r"For in-distribution forget data the deletion capacity of ERM with output perturbation is "
                   r"dimension-free, with near-linear time and space.",
                   "the capacity follows from the certificate, the utility and the iteration count "
                   "$T=\\lceil\\log(2fG/(\\mu n\\Delta))/\\log(1/(1-\\mu/\\beta))\\rceil$ by arithmetic; counting it "
                   "with our reconstructed constants would only re-derive our own formula (an earlier claim here did, "
                   "and is kept as background). The certificate and the utility at that T are checked on worst-case "
                   "instances.", role="headline"),
        NotChecked(r"Algorithm 2's interpolation-error bound and its constant-factor deletion capacity for "
                   r"out-of-distribution data.",
                   "the bound's exact form and constants could not be read, so neither it nor an a-priori unlearning "
                   "step count derived from it can be computed; the headline robust_noisy_gd_unlearning checks, in "
                   "its place, the trained model's distance against our own trimmed-mean lemma (a bound from the "
                   "retain gradients only) and the unlearning time to the a-posteriori stopping rule; the release "
                   "step's certificate and utility hold for any start and are the background claim "
                   "robust_stopping_rule_certificate.",
                   role="supporting"),
    ),
)

_CERT = {
    "order": Param(10.0, low=1.01, high=1000.0, doc="Rényi order q of the certificate"),
    "renyi_epsilon": Param(1.0, low=1e-3, high=100.0, doc="Rényi budget epsilon (nats)"),
}


# --------------------------------------------------------------------------- Algorithm 1, certificate
def _aligned_unlearning(params: dict, n: int, dim: int, order: float, renyi_epsilon: float,
                        forget_label: float | None = None, sensitivity_factor: float = 2.0):
    """Algorithm 1 on the aligned neighbouring datasets ``params`` (see :func:`algorithm1_divergence`):
    (X, y, forget, keep, mu, beta, Delta, unlearned model).  The a-priori step count uses the
    sensitivity constant ``sensitivity_factor`` (2: the method's) on the domain's gradient bound."""
    mu, f, steps = float(params["mu"]), int(params["n_forget"]), int(params["steps"])
    X, y, forget = aligned_ridge_instance(n, dim, f, float(params["axis_fraction"]))
    if forget_label is not None:
        y[forget] = forget_label
    domain = ridge_domain_constants(1.0, 1.0, mu)
    beta = domain["smoothness"]
    contraction = 1 - mu / beta
    start = 2 * f * domain["gradient"] / (mu * n)
    radius = start * contraction**steps * min(float(params["radius_ratio"]), 0.999999 / contraction)
    alpha = beta * radius**2 * (1 + dim * order / (2 * renyi_epsilon)) / 2
    radius = utility_radius(alpha, beta, dim, order, renyi_epsilon)          # the mechanism's own Delta
    steps = apriori_unlearning_steps(n, f, domain["gradient"] * sensitivity_factor / 2, mu, beta, radius)
    keep = np.setdiff1d(np.arange(n), forget)
    unlearned = warm_start_unlearning(X, y, mu, ridge_erm(X, y, mu), forget, steps, beta, loss="ridge")
    return X, y, forget, keep, mu, beta, radius, unlearned


def algorithm1_divergence(params: dict, n: int, dim: int, order: float, renyi_epsilon: float,
                          noise_factor: float, forget_label: float | None) -> tuple[float, float]:
    """(D_q(unlearned || retrained), eps) of Algorithm 1 on the aligned neighbouring datasets ``params``.

    The mechanism uses the domain constants only (|y| <= 1): the a-priori number T of
    warm-started gradient steps for the radius Delta, then noise Delta sqrt(q/(2 eps)) (times
    ``noise_factor``).  The search names the utility budget through T and the ratio
    ``radius_ratio`` = Delta / ((1 - mu/beta)^T 2 f G/(mu n)) in [1, 1/(1 - mu/beta)): every
    alpha > 0 is one such pair (alpha = beta Delta^2 (1 + d q/(2 eps)) / 2), and the ratio near 1
    is where the a-priori step count is tight.  ``forget_label`` replaces the forget points' labels
    (an out-of-distribution forget set the domain constants do not cover).
    """
    X, y, forget, keep, mu, beta, radius, unlearned = _aligned_unlearning(params, n, dim, order, renyi_epsilon,
                                                                          forget_label=forget_label)
    sigma = noise_factor * noise_for_radius(radius, order, renyi_epsilon)
    return renyi_divergence_gaussians(unlearned, ridge_erm(X[keep], y[keep], mu), sigma, order=order), renyi_epsilon


_SEARCH = {
    "n": Param(200, low=20, high=10**5, doc="training points of the aligned instance"),
    "d": Param(3, low=2, high=1000, doc="dimension (the instance uses two coordinates)"),
    "evaluations": Param(60, full=300, low=10, high=10**5, doc="instances evaluated by the adversarial search"),
    "noise_factor": Param(1.0, low=1e-6, high=100.0, doc="released noise as a multiple of the calibrated sigma"),
}
_SPACE = {"mu": (0.05, 100.0, "log"), "axis_fraction": (0.05, 0.98), "n_forget": (1, 8, "int"),
          "steps": (0, 4, "int"), "radius_ratio": (1.0, 30.0, "log")}


_GRID = [{"mu": mu, "axis_fraction": p, "n_forget": f, "steps": t, "radius_ratio": r}
         for mu in (0.1, 1.0, 10.0, 100.0) for p in (0.1, 0.5, 0.9, 0.98) for f in (1, 8) for t in (0, 1, 3)
         for r in (1.0, 1.5)]


def _aligned_bound(ctx, func, label: str, quantity: str, why: str) -> Bound:
    """``func(params) -> (measured, bound)`` on the grid of aligned instances and then on an adversarial
    search of the same space, as one Bound."""
    grid = [func(params) for params in _GRID]
    found = ctx.worst_case(func, _SPACE, evaluations=ctx["evaluations"], label=label)
    labels = [", ".join(f"{k}={v:g}" for k, v in params.items()) for params in _GRID] + found.instances
    return Bound(np.concatenate([[m for m, _ in grid], found.measured]),
                 np.concatenate([[b for _, b in grid], found.bound]), relation="<=", rtol=1e-9,
                 why=why, quantity=quantity, instances=labels,
                 found_by=f"a grid of {len(_GRID)} aligned instances (mu, share on e_1, f, T, Delta ratio) and then "
                          f"{found.method.split('; tightest instance')[0]}")


def _certificate(ctx, forget_label: float | None) -> Bound:
    func = functools.partial(algorithm1_divergence, n=ctx["n"], dim=ctx["d"], order=ctx["order"],
                             renyi_epsilon=ctx["renyi_epsilon"], noise_factor=ctx["noise_factor"],
                             forget_label=forget_label)
    return _aligned_bound(ctx, func, "aligned neighbours", "exact Rényi divergence D_q(unlearned || retrained)",
                          "the divergence is q||a-b||^2/(2 sigma^2) of minimisers from a linear solve (relative error "
                          "~1e-15): rounding far below 1e-9")


@claim(PAPER, source="Algorithm 1 (unlearning via noisy minimizer approximation), in-distribution certificate",
       evidence="bound", role="headline",
       reconstructed_from=_READ + "; the sensitivity bound, step count and noise are our reconstruction",
       params={**_SEARCH, **_CERT},
       statement=r"For ridge regression on the domain $\|x\|\le1$, $|y|\le1$ ($\mu$-strongly convex, "
       r"$\beta=1+\mu$ smooth, per-sample gradients at any minimiser $\le G=1+1/\mu$), unlearning $f$ points by "
       r"$T=\lceil\log\frac{2fG}{\mu n\Delta}/\log\frac{1}{1-\mu/\beta}\rceil^+$ gradient steps of size $1/\beta$ "
       r"from $\hat\theta_S$, then $\mathcal N(0,\sigma^2I)$ with $\sigma=\Delta\sqrt{q/(2\varepsilon)}$, is "
       r"$(q,\varepsilon)$-Rényi unlearning (the Rényi divergence of order $q$ between the released model and "
       r"$\hat\theta_{S\setminus S_f}+\mathcal N(0,\sigma^2I)$ is at most $\varepsilon$), for every utility budget "
       r"$\alpha$ (which fixes $\Delta$).",
       method="Exact Gaussian divergence on the neighbouring datasets where the sensitivity bound binds (retain "
       "gradients all pointing one way along e_1, the forget points' the other way; points on e_2 raise the "
       "smoothness): a grid of 192 such instances, then differential evolution over mu, the share of points on e_1, f "
       "and the budget alpha (through the step count T it implies and Delta's ratio to the contracted bound) "
       "maximising D_q/eps.  The bound binds at T = 0 (tightness 0.94); after warm steps the contraction bound "
       "(1 - mu/beta)^T is looser on these instances.")
def in_distribution_unlearning_certified(ctx):
    """Algorithm 1 meets its Rényi certificate on the worst neighbouring datasets a search finds.

    The certificate rests on ||theta_S - theta_{S minus S_f}|| <= 2 f G / (mu n) (cf. Chaudhuri,
    Monteleoni & Sarwate 2011 for f = 1) contracted by (1 - mu/beta) per gradient step; the
    aligned instances make both nearly tight.
    """
    return _certificate(ctx, forget_label=None)


@in_distribution_unlearning_certified.control("out-of-distribution forget points (label -100, outside |y| <= 1) with "
                                              "the in-distribution constants")
def ood_forget_points(ctx):
    return _certificate(ctx, forget_label=-100.0)


in_distribution_unlearning_certified.control("noise 0.8 times the calibrated sigma (a constant 20% too small)",
                                             params={"noise_factor": 0.8}, near_miss=True)


# --------------------------------------------------------------------------- Algorithm 1, utility
def algorithm1_excess_risk(params: dict, X, y, order_of_forgetting, order: float, renyi_epsilon: float,
                           noise_factor: float, calibration_dim: int) -> tuple[float, float]:
    """(expected excess retain risk of Algorithm 1's output, alpha) on the isotropic instance (X, y).

    The forget set is the first f indices of ``order_of_forgetting``; ``calibration_dim`` is the
    dimension the noise budget is computed with (the true dimension, or a wrong one in a control).
    """
    mu, f, alpha = float(params["mu"]), int(params["n_forget"]), float(params["alpha"])
    n, dim = X.shape
    forget = np.asarray(order_of_forgetting[:f])
    keep = np.setdiff1d(np.arange(n), forget)
    domain = ridge_domain_constants(1.0, 1.0, mu)
    beta = domain["smoothness"]
    radius = utility_radius(alpha, beta, calibration_dim, order, renyi_epsilon)
    steps = apriori_unlearning_steps(n, f, domain["gradient"], mu, beta, radius)
    unlearned = warm_start_unlearning(X, y, mu, ridge_erm(X, y, mu), forget, steps, beta, loss="ridge")
    sigma = noise_factor * noise_for_radius(radius, order, renyi_epsilon)
    return ridge_noisy_excess_risk(X[keep], y[keep], mu, unlearned, sigma), alpha


def algorithm1_unlearning_error(params: dict, n: int, dim: int, order: float, renyi_epsilon: float,
                                sensitivity_factor: float) -> tuple[float, float]:
    """(e^T H e / 2, beta Delta^2 / 2): the unlearning-error term of Algorithm 1's excess retain risk and its bound.

    e = unlearned - retain minimiser after the a-priori number of warm-started steps, H the retain
    Hessian, beta = 1 + mu the domain smoothness, on the aligned neighbouring datasets ``params``
    (parametrised as in :func:`algorithm1_divergence`, where the a-priori distance bound binds).
    ``sensitivity_factor`` is the constant c of the distance bound c f G/(mu n) the step count is
    computed with (2 for the method; the instance itself is always parametrised with 2).
    """
    X, y, forget, keep, mu, beta, radius, unlearned = _aligned_unlearning(params, n, dim, order, renyi_epsilon,
                                                                          sensitivity_factor=sensitivity_factor)
    # sigma = 0: the exact excess risk of the unlearned model itself, e^T H e / 2 (H the retain Hessian)
    return ridge_noisy_excess_risk(X[keep], y[keep], mu, unlearned, 0.0), beta * radius**2 / 2


def _unlearning_error(ctx) -> Bound:
    func = functools.partial(algorithm1_unlearning_error, n=ctx["n"], dim=ctx["d"], order=ctx["order"],
                             renyi_epsilon=ctx["renyi_epsilon"], sensitivity_factor=ctx["sensitivity_factor"])
    return _aligned_bound(ctx, func, "aligned unlearning error",
                          "unlearning-error term e^T H e/2 of the excess retain risk",
                          "e^T H e/2 of minimisers from linear solves (relative error ~1e-15, condition numbers <= "
                          "(1 + mu)/mu <= 21): rounding far below 1e-9")


def _utility(ctx) -> Bound:
    n, dim = ctx["n"], ctx["d"]
    rng = ctx.generator("isotropic data")
    X, y = coordinate_ridge_instance(rng, n, dim)
    func = functools.partial(algorithm1_excess_risk, X=X, y=y, order_of_forgetting=rng.permutation(n),
                             order=ctx["order"], renyi_epsilon=ctx["renyi_epsilon"], noise_factor=ctx["noise_factor"],
                             calibration_dim=ctx["calibration_dim"] or dim)
    found = ctx.worst_case(func, {"mu": (0.05, 100.0, "log"), "n_forget": (1, 24, "int"), "alpha": (1e-6, 1.0, "log")},
                           evaluations=ctx["evaluations"], label="isotropic utility")
    return Bound(found.measured, found.bound, relation="<=", rtol=1e-9,
                 why="the expected excess risk e^T H e/2 + sigma^2 tr(H)/2 is exact for a quadratic risk; float64 "
                     "rounding of the solves is far below 1e-9 relative",
                 quantity="expected excess empirical risk on the retain set", instances=found.instances, x=found.x,
                 xlabel="instance evaluated by the search", found_by=found.method)


@claim(PAPER, source="Algorithm 1, utility of in-distribution unlearning (excess empirical risk on the retain set)",
       evidence="all", role="headline",
       reconstructed_from=_READ + "; the utility radius Delta is our reconstruction of eq. (12)",
       params={**_SEARCH, **_CERT,
               "n": Param(240, low=20, high=10**5, doc="training points (a multiple of d: isotropic design)"),
               "d": Param(8, low=1, high=1000, doc="dimension"),
               "calibration_dim": Param(0, low=0, high=1000, doc="dimension used for the noise budget (0: the true d)"),
               "sensitivity_factor": Param(2.0, low=2.0, high=2.0,
                                           doc="constant c of the distance bound c f G/(mu n) behind the a-priori "
                                               "step count (2 = the method; other values only in controls)")},
       statement=r"The unlearned model of Algorithm 1 is $\alpha$-accurate: "
       r"$\mathbb E\,F_{S\setminus S_f}(U(S,S_f)) - \min F_{S\setminus S_f} \le \alpha$ with "
       r"$\Delta^2 = 2\alpha/(\beta(1+dq/(2\varepsilon)))$, for every $\alpha$, $\mu$ and forget-set size $f$.",
       method="The excess risk is e^T H e/2 (the unlearning error e = unlearned - retain minimiser) plus "
       "sigma^2 tr(H)/2 (the noise), bounded by beta Delta^2/2 and beta d sigma^2/2; with d q/(2 eps) = 40 the noise "
       "part is 40/41 of alpha, so a check of the total alone is dominated by the noise term (a step count from a "
       "quarter of the sensitivity constant leaves it at tightness 0.966).  Two pieces, each where its own bound "
       "binds: (1) the unlearning-error term against beta Delta^2/2 on the aligned neighbouring datasets of the "
       "certificate claim (n = 240, d = 8; a grid of 192 instances, then differential evolution over mu, the share "
       "on e_1, f and the budget through T and Delta's ratio), where the a-priori distance bound 2 f G/(mu n) "
       "(1 - mu/beta)^T and the curvature bound e^T H e <= beta ||e||^2 are both nearly equalities; (2) the total "
       "expected excess risk against alpha on isotropic data $x = \\pm e_{i \\bmod d}$ ($X^T X/n = I/d$, so the "
       "noise costs $\\sigma^2 \\operatorname{tr}(H)/2$, close to its bound $\\beta d \\sigma^2/2$ for "
       "large $\\mu$; differential evolution over $\\mu$, $f$ and $\\alpha$).  Piece (2) checks the noise "
       "term's trace inequality plus a negligible distance term; piece (1) is the one that sees the step count "
       "(near-miss control: the sensitivity constant 2 halved).")
def in_distribution_unlearning_accurate(ctx):
    """Algorithm 1's unlearned model stays within the utility budget alpha on the retain set."""
    return AllOf([_unlearning_error(ctx), _utility(ctx)],
                 labels=["unlearning-error term e^T H e/2 <= beta Delta^2/2 (aligned instances)",
                         "expected excess risk <= alpha (isotropic instances; dominated by the noise term)"])


in_distribution_unlearning_accurate.control("noise calibrated as if d = 1 (the dimension factor of the noise's "
                                            "cost dropped)", params={"calibration_dim": 1})
in_distribution_unlearning_accurate.control("noise 1.25 times the calibrated sigma (a constant 25% too large)",
                                            params={"noise_factor": 1.25}, near_miss=True)
in_distribution_unlearning_accurate.control("a-priori step count from the sensitivity constant 1 instead of 2 "
                                            "(half the distance bound)", params={"sensitivity_factor": 1.0},
                                            near_miss=True)
in_distribution_unlearning_accurate.control("a-priori step count from the sensitivity constant 1/2 instead of 2 "
                                            "(a quarter of the distance bound)", params={"sensitivity_factor": 0.5})


# --------------------------------------------------------------------------- membership audit
def _audit(ctx, noise_factor: float, forget_label: float | None) -> Proportion:
    n, dim, mu, q, eps = ctx["n"], ctx["d"], ctx["mu"], ctx["order"], ctx["renyi_epsilon"]
    X, y, forget = aligned_ridge_instance(n, dim, 1, ctx["axis_fraction"])
    domain = ridge_domain_constants(1.0, 1.0, mu)
    if forget_label is not None:
        y[forget] = forget_label
    keep = np.setdiff1d(np.arange(n), forget)
    retrained, unlearned = ridge_erm(X[keep], y[keep], mu), ridge_erm(X, y, mu)   # T = 0: output perturbation
    sigma = noise_factor * noise_for_radius(2 * domain["gradient"] / (mu * n), q, eps)
    m = ctx["n_samples"]
    rng = ctx.generator("audit samples")
    # The attack knows both means (the strongest threshold test, Neyman-Pearson): score <o - retrained, dir>.
    direction = (unlearned - retrained) / max(np.linalg.norm(unlearned - retrained), 1e-300)
    score = lambda mean, k: (mean - retrained + sigma * rng.standard_normal((k, dim))) @ direction  # noqa: E731
    audit = membership_inference_audit(score(retrained, m), score(retrained, m), score(unlearned, m),
                                       ctx["target_fpr"])
    shift = math.sqrt(2 * eps / q)      # ||a - b|| / sigma of the released Gaussians allowed by D_q <= eps
    return Proportion(audit.true_positives, audit.n_in, gaussian_tradeoff_tpr(audit.fpr_upper, shift),
                      relation="<=", method="clopper-pearson", level=0.95,
                      why=f"Gaussians with D_q <= eps have ||a-b||/sigma <= sqrt(2 eps/q) = {shift:.4f}, and no test "
                          f"between them beats the likelihood-ratio test's power Phi(Phi^-1(FPR) + sqrt(2 eps/q)); FPR "
                          f"replaced by its 95% Clopper-Pearson upper end ({audit.fpr_upper:.5f}: the curve "
                          f"increases in FPR), TPR by its 95% Clopper-Pearson interval",
                      event="attack flags the unlearned output as a member")


_AUDIT = {**_CERT,
          "n": Param(200, low=20, high=10**5, doc="training points"),
          "d": Param(3, low=2, high=1000, doc="dimension"),
          "mu": Param(100.0, low=1e-3, high=1e4, doc="strong convexity (large: the sensitivity bound nearly binds)"),
          "axis_fraction": Param(0.98, low=0.05, high=0.99, doc="share of points on e_1 (aligned instance)"),
          "n_samples": Param(1_000_000, full=4_000_000, low=100, high=10**8,
                             doc="outputs drawn per world (the Monte Carlo intervals must be narrow against the "
                                 "bound's margin on this instance, about 9e-4 in TPR: see the method)"),
          "target_fpr": Param(0.01, low=1e-4, high=0.5, doc="false-positive rate of the attack"),
          "noise_factor": Param(1.0, low=1e-6, high=100.0,
                                doc="released noise as a multiple of the calibrated sigma (1 = the mechanism)")}


@claim(PAPER, source="Definition of (q, epsilon)-Rényi unlearning (certification analogous to DP), read as a "
       "membership-inference guarantee through the Gaussian trade-off curve (Dong, Roth & Su 2022, Gaussian DP)",
       evidence="proportion", role="supporting",
       reconstructed_from=_READ, params=_AUDIT,
       sweeps=({"noise_factor": [0.1, 0.2, 0.3, 0.5, 0.7, 1.0]},),
       statement=r"For Algorithm 1's Gaussian release certified $(q,\varepsilon)$-Rényi, a membership-inference "
       r"attack that tries to tell the unlearned model from the retrained one has, at every false-positive rate "
       r"$\alpha$, true-positive rate $\le\Phi\big(\Phi^{-1}(\alpha)+\sqrt{2\varepsilon/q}\big)$: the "
       r"likelihood-ratio test's power between $\mathcal N(a,\sigma^2I)$ and $\mathcal N(b,\sigma^2I)$ with "
       r"$\|a-b\|/\sigma=\sqrt{2\varepsilon/q}$, the largest shift the certificate allows.",
       method="Black-box audit of output perturbation (T = 0) on the aligned instance where the sensitivity bound "
       "nearly binds (mu = 100, 98% of the points on e_1: the released means are 0.971 of the calibrated radius "
       "apart).  The attack is the likelihood-ratio test along the worst-case direction (the difference of the two "
       "means, known to the attacker), its threshold calibrated on retrained outputs at FPR 1%, applied to fresh "
       "samples of both worlds; its TPR is compared with the Gaussian trade-off curve at the FPR's upper confidence "
       "end.  Sample size, derived before the run: at the calibrated noise the true TPR lies (1 - 0.971) sqrt(2 eps/q) "
       "phi(Phi^-1(0.01) + sqrt(2 eps/q)) ~ 9e-4 below the curve; 10^6 outputs per world make the two Clopper-Pearson "
       "intervals' half-widths (about 3.4e-4 in TPR, and 2e-4 in FPR, which moves the curve by 5e-4) small "
       "against it.  Noise 0.8 times the calibrated sigma raises the TPR to about 0.037 against the bound 0.030 "
       "(near-miss control), half the noise to about 0.07.")
def unlearned_model_passes_membership_audit(ctx):
    """The unlearned model withstands the likelihood-ratio membership-inference attack, up to the Gaussian trade-off curve."""
    return _audit(ctx, ctx["noise_factor"], None)


unlearned_model_passes_membership_audit.control("noise 0.8 times the calibrated sigma (a constant 20% too small)",
                                                params={"noise_factor": 0.8}, near_miss=True)
unlearned_model_passes_membership_audit.control("noise at half the calibrated sigma", params={"noise_factor": 0.5})
unlearned_model_passes_membership_audit.control("noise at 1/10 of the calibrated sigma", params={"noise_factor": 0.1})


@unlearned_model_passes_membership_audit.control(
    "the canary out of distribution (label -100, outside |y| <= 1), noise from the in-distribution constants")
def ood_canary(ctx):
    return _audit(ctx, ctx["noise_factor"], -100.0)


# --------------------------------------------------------------------------- OOD: slower than retraining
_DATA = {
    "n": Param(200, full=400, low=20, high=10**5, doc="training points"),
    "d": Param(5, full=10, low=1, high=1000, doc="dimension of the ridge-regression parameter"),
    "mu": Param(0.05, full=0.05, low=1e-4, high=10.0, doc="l2 regularisation = strong convexity mu"),
    "label_noise": Param(0.3, full=0.3, low=0.0, high=10.0, doc="standard deviation of the label noise"),
}


def _instance(ctx):
    """The Gaussian-design ridge instance of the out-of-distribution claims."""
    X, y = ridge_data(ctx.generator("data"), ctx["n"], ctx["d"], ctx["label_noise"])
    return X, y, float(np.max(np.abs(y)))


def _warm_and_cold(ctx, scales) -> tuple[list[int], list[int]]:
    """Gradient steps (size 1/beta) to come within the tolerance of the retain minimiser, from the
    trained model (warm) and from 0 (retraining), when point 0's label is ``scale`` times the label range."""
    X, y, y_range = _instance(ctx)
    mu, n = ctx["mu"], ctx["n"]
    keep = np.arange(1, n)
    warm, cold = [], []
    for scale in scales:
        yc = y.copy()
        yc[0] = scale * y_range
        Xr, yr = X[keep], yc[keep]
        step = 1 / ridge_smoothness(Xr, mu)
        start, target = ridge_erm(X, yc, mu), ridge_erm(Xr, yr, mu)
        update = lambda t, Xr=Xr, yr=yr, step=step: t - step * ridge_gradient(Xr, yr, mu, t)  # noqa: E731
        tol = ctx["relative_tolerance"] * np.linalg.norm(target)
        warm.append(iterations_to_reach(update, start, target, tol))
        cold.append(iterations_to_reach(update, np.zeros(X.shape[1]), target, tol))
    return warm, cold


@claim(PAPER, source="Abstract and Sec. on out-of-distribution forget data: unlearning time can exceed retraining, "
       "even for a single sample", evidence="bound", role="headline",
       reconstructed_from="arXiv 2412.09119 abstract; the OOD forget data as label offsets follows the paper's "
       "Figure 1 (acmrep2026.k117.org extraction)",
       near_miss=NearMiss.none("an existence statement: it claims no constant, only that some out-of-distribution "
                               "point makes warm-started unlearning slower than retraining"),
       params={**_DATA, "relative_tolerance": Param(1e-3, low=1e-10, high=0.5, doc="accuracy r / ||target|| to reach"),
               "ood_scales": Param((1000.0, 10000.0, 100000.0),
                                   doc="forget-point labels, in multiples of the data's label range")},
       statement=r"There are ridge instances with one out-of-distribution forget point $z_o$ where gradient descent "
       r"warm-started at $\hat\theta_D$ needs more iterations to come within $r$ of $\hat\theta_{D\setminus\{o\}}$ "
       r"than gradient descent started from $\theta_0 = 0$ (retraining).",
       method="Exact iteration counts (step 1/beta) on ridge regression with the forget point's label shifted to "
       "10^3, 10^4 and 10^5 times the data's label range; the bound is T_cold + 1.")
def ood_unlearning_slower_than_retraining(ctx):
    """Warm-started unlearning of one label outlier takes more steps than retraining from scratch."""
    warm, cold = _warm_and_cold(ctx, ctx["ood_scales"])
    return Bound(warm, np.asarray(cold) + 1, relation=">=", why="iteration counts are integers: no slack",
                 quantity="iterations of warm-started GD", instances=[f"label x{s:g}" for s in ctx["ood_scales"]])


ood_unlearning_slower_than_retraining.control("an in-distribution forget point (label 0.5 or 0.1 times the range)",
                                              params={"ood_scales": (0.5, -0.5, 0.1)})
ood_unlearning_slower_than_retraining.control("a mildly out-of-distribution point (label 5 times the range: it moves "
                                              "the model by less than a tenth of the model's norm)",
                                              params={"ood_scales": (5.0, -5.0)}, near_miss=True)


# --------------------------------------------------------------------------- Algorithm 2
def algorithm2_instance(params: dict, X, y, n_outliers: int, mu: float, trim: int, alpha: float, order: float,
                        renyi_epsilon: float, train_steps: int, noise_factor: float,
                        start_offset: float = 0.0) -> dict[str, float]:
    """Algorithm 2 on the Gaussian-design instance (X, y) modified by ``params``; the outliers are the first f points.

    ``params`` may hold (each optional):
      * ``magnitude``: the outliers' labels become magnitude times the label range of ``y`` (alternately
        x1 and x0.9, so that no two coincide);
      * ``weak_scale``: the last feature of every point is multiplied by it, so that the retain
        Hessian's smallest curvature approaches mu (the case where strong convexity is an equality);
      * ``alpha``: the utility budget (else the given one);
      * ``x{k}_{j}`` and ``label{k}`` for outlier k: its position (direction (x{k}_0, ..., x{k}_{d-1}),
        norm the data's largest) and its label, sign(label{k}) 10^|label{k}| times the label range.
    Returns the dict of :func:`simulations.unlearning.robust_noisy_unlearning`.
    """
    X, y = X.copy(), y.copy()
    n, dim = X.shape
    y_range = float(np.max(np.abs(y)))
    if "magnitude" in params:
        y[:n_outliers] = float(params["magnitude"]) * y_range * np.where(np.arange(n_outliers) % 2 == 0, 1.0, 0.9)
    if "weak_scale" in params:
        X[:, -1] *= float(params["weak_scale"])
    radius = float(np.max(np.linalg.norm(X, axis=1)))
    for k in range(n_outliers):
        if f"label{k}" in params:
            v = np.array([float(params[f"x{k}_{j}"]) for j in range(dim)])
            X[k] = radius * v / max(float(np.linalg.norm(v)), 1e-12)
            lab = float(params[f"label{k}"])
            y[k] = np.sign(lab) * 10 ** abs(lab) * y_range
    return robust_noisy_unlearning(X, y, np.arange(n_outliers), mu, trim, float(params.get("alpha", alpha)), order,
                                   renyi_epsilon, train_steps, noise_factor=noise_factor,
                                   start_offset=start_offset)


class _Algorithm2Runs:
    """``(measured, bound)`` of one Algorithm 2 instance for an adversarial search, remembering each run.

    ``target`` is "certificate" (D_q, eps), "distance" (distance of the start of unlearning to the
    retain minimiser, its trimmed-mean bound) or "time" (unlearning steps, retraining steps).  The
    runs made in this process are kept, so the pieces the search does not maximise are read
    without running the instance again (runs made in worker processes are redone here).
    """

    def __init__(self, target: str, **common) -> None:
        self.target, self.common, self.runs = target, common, {}

    def run(self, params: dict) -> dict[str, float]:
        key = tuple(sorted(params.items()))
        if key not in self.runs:
            self.runs[key] = algorithm2_instance(params, **self.common)
        return self.runs[key]

    def __call__(self, params: dict) -> tuple[float, float]:
        out = self.run(params)
        if self.target == "certificate":
            return out["divergence"], self.common["renyi_epsilon"]
        if self.target == "distance":
            return out["start_distance"], out["start_distance_bound"]
        return float(out["unlearning_steps"]), float(out["retraining_steps"])


def _common(ctx, X, y, trim: int) -> dict:
    return {"X": X, "y": y, "n_outliers": ctx["n_outliers"], "mu": ctx["mu"], "trim": trim, "alpha": ctx["alpha"],
            "order": ctx["order"], "renyi_epsilon": ctx["renyi_epsilon"], "train_steps": ctx["train_steps"],
            "noise_factor": ctx["noise_factor"], "start_offset": ctx["start_offset"]}


def _robust_time(ctx, trim: int) -> AllOf:
    """Unlearning steps against retraining steps, and the trained model's distance against its trimmed-mean
    bound, on the Gaussian design over outlier labels and placements."""
    X, y, _ = _instance(ctx)
    f, dim = ctx["n_outliers"], ctx["d"]
    by_time = _Algorithm2Runs("time", **_common(ctx, X, y, trim))
    by_distance = _Algorithm2Runs("distance", **_common(ctx, X, y, trim))
    # the outliers' positions and labels that make unlearning slowest against retraining, resp. the trained
    # model farthest from the retain minimiser against the bound
    placement = {f"x{k}_{j}": (-1.0, 1.0) for k in range(f) for j in range(dim)} | \
        {f"label{k}": (-4.0, 4.0) for k in range(f)}
    slow = ctx.worst_case(by_time, placement, evaluations=ctx["evaluations"], label="outlier placement (time)")
    far = ctx.worst_case(by_distance, placement, evaluations=ctx["evaluations"], label="outlier placement (distance)")
    scaled = [{"magnitude": s} for s in ctx["ood_scales"]]
    instances = scaled + slow.params + far.params
    runs = [by_time.run(p) if i < len(scaled) + len(slow.params) else by_distance.run(p)
            for i, p in enumerate(instances)]
    labels = ([f"outliers x{s:g}" for s in ctx["ood_scales"]]
              + [f"{kind} placement {i + 1} (labels {', '.join(f'{p[k]:+.2f}' for k in p if k.startswith('label'))} "
                 f"in signed log10 of the range)" for kind, found in (("time", slow), ("distance", far))
                 for i, p in enumerate(found.params)])
    found_by = ("the Gaussian design with outlier labels 1 to 10^4 times the range, then "
                + slow.method.replace("adversarial search", "a search of the outliers' positions and labels")
                + " (maximising unlearning/retraining steps), then the same search maximising the distance ratio")
    residual = max(r["training_residual"] for r in runs)
    return AllOf([
        Bound([r["unlearning_steps"] for r in runs], [r["retraining_steps"] for r in runs], relation="<=",
              quantity="unlearning steps (vs retraining steps)", instances=labels, found_by=found_by,
              why="iteration counts are integers: no slack"),
        Bound([r["start_distance"] for r in runs], [r["start_distance_bound"] for r in runs], relation="<=",
              rtol=1e-9, atol=residual / ctx["mu"],
              quantity="distance of the trained model to the retain minimiser", instances=labels, found_by=found_by,
              why=f"the bound holds at a fixed point of trimmed-mean GD; training stops at a residual trimmed-mean "
                  f"gradient of norm <= {residual:.1e}, which moves the distance by at most residual/mu "
                  f"(H >= mu I); float64 rounding of the solves far below 1e-9"),
    ], labels=["unlearning steps <= retraining steps", "trained model's distance <= trimmed-mean bound"])


_ALGORITHM2 = {**_DATA, **_CERT,
               "alpha": Param(1e-4, low=1e-8, high=1.0, doc="utility budget alpha"),
               "n_outliers": Param(2, low=1, high=20, doc="out-of-distribution forget points f"),
               "trim": Param(2, low=0, high=20, doc="entries trimmed at each end per coordinate (>= f)"),
               "train_steps": Param(200, full=800, low=50, high=10**5,
                                   doc="steps of trimmed-mean training (contraction <= 1 - mu/beta ~ 0.85 per "
                                       "step here: 200 steps reach float64 accuracy)"),
               "ood_scales": Param((1.0, 10.0, 100.0, 1000.0, 10000.0),
                                   doc="outlier labels, in multiples of the data's label range"),
               "evaluations": Param(60, full=240, low=10, high=10**5,
                                    doc="instances evaluated by the adversarial search"),
               "noise_factor": Param(1.0, low=1e-6, high=100.0, doc="released noise as a multiple of the calibrated "
                                     "sigma (1 = the method)"),
               "start_offset": Param(0.0, low=0.0, high=0.0, doc="amount added to every coordinate of the trained "
                                     "model before unlearning (0 = the method; other values only in controls)")}


@claim(PAPER, source="Algorithm 2 (unlearning via robust training and noisy minimizer approximation): for "
       "out-of-distribution forget data, robust training amortises the unlearning time (no more than retraining)",
       evidence="all", role="headline",
       reconstructed_from=_READ + "; robust training as gradient descent with coordinate-wise trimmed means "
       "(sciencestack summary); the stopping rule (gradient norm <= mu Delta) is ours, the paper's a-priori step "
       "count could not be read",
       params=_ALGORITHM2,
       statement=r"Train by gradient descent with coordinate-wise trimmed-mean aggregation (trim $\ge f$).  To unlearn "
       r"$f$ out-of-distribution points, descend on the retain risk from the trained model until "
       r"$\|\nabla F_{S\setminus S_f}\|\le\mu\Delta$.  On the Gaussian-design retain data, wherever the $f$ "
       r"outliers sit and whatever their labels, this takes no more gradient steps than the same descent from "
       r"$0$ (retraining); and the trained model is within "
       r"$\max_{|g_j|\le \mathrm{dev}_j}\|H^{-1}g\|$ of the retain minimiser, a bound computed from the retain "
       r"points' gradients at the trained model only ($\mathrm{dev}_j$: the larger distance of the means of the "
       r"$n-2\,\mathrm{trim}$ largest and smallest retain values of coordinate $j$ from their mean; $H$ the retain "
       r"Hessian), whatever the outliers' magnitude.",
       method="Ridge regression (n = 200, d = 5, mu = 0.05, alpha = 1e-4) with two forget points; exact step counts "
       "(step 1/beta of the retain risk) to the same gradient threshold mu Delta, from the trimmed-mean model and from "
       "0.  Instances: the Gaussian design with outlier labels 1 to 10^4 times the label range, then a search of "
       "both outliers' positions (norm the data's largest) and signed log labels (up to 10^4 times the range) "
       "maximising the ratio of unlearning to retraining steps, and the same search maximising the ratio of the trained "
       "model's distance to its bound.  The distance bound is our lemma standing in for the paper's interpolation-"
       "error bound (which could not be read): with trim >= f the trimmed mean lies between the means of the "
       "n - 2 trim smallest and largest retain values, so at the fixed point of trimmed-mean GD the retain gradient "
       "lies in the box |g_j| <= dev_j and the distance is ||H^-1 g||.  This is the part of Algorithm 2 that depends on the "
       "robust training: with plain ERM training (trim 0), with trim f - 1, or from a start far from the model "
       "(every coordinate offset by 1000), unlearning takes longer than retraining.  The certificate and the "
       "utility of the released model do not depend on the training (the stopping rule certifies the distance "
       "a posteriori from any start); they are the background claim robust_stopping_rule_certificate.  Scope: "
       "on other retain data the statement can fail by a step (a search of the retain geometry with seed 1 finds "
       "unlearning in 10 steps against 9 for retraining, at weak_scale 0.75, although the trained model starts 20 "
       "times closer than 0: the step count to a gradient threshold depends on the direction of the start's "
       "error, not only on its size).  The paper's own interpolation-error bound could not be read; the distance "
       "piece checks our lemma in its place (a stand-in, not the paper's constant).")
def robust_noisy_gd_unlearning(ctx):
    """Robust (trimmed-mean) training makes unlearning out-of-distribution points no slower than retraining."""
    return _robust_time(ctx, ctx["trim"])


robust_noisy_gd_unlearning.control("no trimming (trim 0: plain ERM training)", params={"trim": 0})
robust_noisy_gd_unlearning.control("trim one less than the number of outliers (trim 1 for f = 2)",
                                   params={"trim": 1}, near_miss=True)
robust_noisy_gd_unlearning.control("a garbage start: the trained model offset by 1000 in every coordinate",
                                   params={"start_offset": 1000.0})


def _stopping_certificate(ctx) -> AllOf:
    """Divergence and expected excess risk of the released model over the retain geometry and outlier magnitudes."""
    X, y, _ = _instance(ctx)
    by_geometry = _Algorithm2Runs("certificate", **_common(ctx, X, y, ctx["trim"]))
    # the retain geometry where strong convexity is nearly an equality and the stop lands on the threshold
    geometry = ctx.worst_case(by_geometry,
                              {"weak_scale": (1e-3, 1.0, "log"), "alpha": (1e-8, 0.1, "log"),
                               "magnitude": (1.0, 1e4, "log")},
                              evaluations=ctx["evaluations"], label="retain geometry")
    scaled = [{"magnitude": s} for s in ctx["ood_scales"]]
    instances = scaled + geometry.params
    runs = [by_geometry.run(p) for p in instances]
    labels = [f"outliers x{s:g}" for s in ctx["ood_scales"]] + [f"geometry: {i}" for i in geometry.instances]
    method = ("the Gaussian design with outlier labels 1 to 10^4 times the range, then "
              + geometry.method.replace("adversarial search", "a search of the retain geometry")
              + " (maximising D_q/eps)")
    return AllOf([
        Bound([r["divergence"] for r in runs], ctx["renyi_epsilon"], relation="<=", rtol=1e-9,
              quantity="exact Rényi divergence D_q", instances=labels, found_by=method,
              why="closed-form Gaussian divergence of float64 minimisers (linear solves, relative error ~1e-13 "
                  "for the condition numbers searched, <= 1/mu = 20): rounding far below 1e-9"),
        Bound([r["excess_risk"] for r in runs], [float(p.get("alpha", ctx["alpha"])) for p in instances],
              relation="<=", rtol=1e-9, quantity="expected excess retain risk", instances=labels, found_by=method,
              why="exact for a quadratic risk: rounding far below 1e-9"),
    ], labels=["Rényi divergence <= eps (strong convexity + stopping rule)",
               "expected excess risk <= alpha (distance term + Gaussian noise term)"])


@claim(PAPER, source="Algorithm 2's release step: the a-posteriori stopping rule certified by strong convexity, "
       "then the Gaussian mechanism (our construction; the paper's a-priori step count could not be read)",
       evidence="all", role="background",
       reconstructed_from=_READ + "; the stopping rule and the constants are ours",
       params=_ALGORITHM2,
       statement=r"For a $\mu$-strongly convex quadratic retain risk, any $\theta_U$ with "
       r"$\|\nabla F_{S\setminus S_f}(\theta_U)\|\le\mu\Delta$ is within $\Delta$ of the retain minimiser "
       r"$\theta^*$ (strong convexity), so releasing $\theta_U+\mathcal N(0,\sigma^2I)$ with "
       r"$\sigma=\Delta\sqrt{q/(2\varepsilon)}$ has Rényi divergence "
       r"$D_q=q\|\theta_U-\theta^*\|^2/(2\sigma^2)\le\varepsilon$ from $\theta^*+\mathcal N(0,\sigma^2I)$ (the "
       r"Gaussian mechanism), and expected excess retain risk "
       r"$\le\beta\Delta^2/2+\beta d\sigma^2/2=\alpha$, whatever the start of the descent.",
       method="The descent of Algorithm 2 (from the trimmed-mean model) on the Gaussian design with outlier labels 1 "
       "to 10^4 times the range, then a search of the retain geometry (the last feature scaled down, the budget "
       "alpha, the outliers' magnitude) maximising D_q/eps.  D_q/eps is the square of the product of two ratios, "
       "mu ||theta_U - theta*|| / ||grad F|| (strong convexity, at most mu/lambda_min(H)) and ||grad F||/(mu Delta) "
       "(the stopping rule); where the retain data barely excite one direction both approach 1, so the bound "
       "binds.  This holds by construction for any start (the trained model offset by 1000 in every coordinate "
       "passes it too), so it says nothing about robust training: it is the release step's certificate, not "
       "Algorithm 2's out-of-distribution result.  The utility piece is dominated by the noise term "
       "beta d sigma^2/2, which is d q/(2 eps) = 25 times the distance term beta Delta^2/2 here (1/26 of alpha): a "
       "descent stopped at twice the threshold still passes it (tightness 0.82), so it checks the Gaussian noise's "
       "cost sigma^2 tr(H)/2 <= beta d sigma^2/2, not the unlearning error.")
def robust_stopping_rule_certificate(ctx):
    """The a-posteriori stopping rule and the Gaussian mechanism give the Rényi certificate and the utility."""
    return _stopping_certificate(ctx)


robust_stopping_rule_certificate.control("noise 0.8 times the calibrated sigma (a constant 20% too small)",
                                         params={"noise_factor": 0.8}, near_miss=True)


# --------------------------------------------------------------------------- deletion capacity
_CAPACITY = {
    "sizes": Param((250, 500, 1000, 2000, 4000, 8000), doc="training-set sizes n (span >= 1 decade)"),
    "d": Param(5, low=1, high=1000, doc="dimension"),
    "mu": Param(0.1, low=1e-4, high=10.0, doc="l2 regularisation = strong convexity mu (at the smallest n)"),
    "label_noise": Param(0.5, low=0.0, high=10.0, doc="half-width of the uniform label noise"),
    "order": Param(2.0, low=1.01, high=1000.0, doc="Rényi order q of the certificate"),
    "renyi_epsilon": Param(1.0, low=1e-3, high=100.0, doc="Rényi budget epsilon (nats)"),
    "steps": Param(2, low=0, high=1000, doc="warm-started gradient steps T before the noise"),
    "alpha": Param(0.2, low=1e-4, high=10.0, doc="excess population risk allowed after unlearning"),
    "n_sets": Param(2, full=4, low=1, high=100, doc="random forget orders; the worst one counts"),
}


def _capacities(ctx, vanishing_mu: bool) -> Rate:
    sizes, d, mu0 = ctx["sizes"], ctx["d"], ctx["mu"]
    caps = []
    for n in sizes:
        mu = mu0 * sizes[0] / n if vanishing_mu else mu0
        rng = ctx.generator("capacity", n)
        X, y, theta_star = sphere_ridge_data(rng, n, d, ctx["label_noise"])
        G = ridge_gradient_bound(ridge_erm(X, y, mu), 1.0, float(np.max(np.abs(y))))
        orders = [rng.permutation(n) for _ in range(ctx["n_sets"])]

        def excess(f, X=X, y=y, mu=mu, G=G, theta_star=theta_star, orders=orders):
            return max(ridge_unlearning_excess(X, y, mu, order[:f], ctx["steps"], G, ctx["order"],
                                               ctx["renyi_epsilon"], 1.0 / d, theta_star) for order in orders)
        cap = deletion_capacity(excess, ctx["alpha"], n // 2)
        if cap >= n // 2:
            # censored at the search cap: the true capacity is unknown and f* = n/2 would give slope 1
            # by construction (hypothesis of the check: the risk budget binds below n/2 deletions)
            raise ValueError(f"deletion capacity censored at the search cap n/2 = {n // 2} for n = {n}: the risk "
                             f"budget alpha = {ctx['alpha']} does not bind; lower alpha or the noise's reach "
                             f"(fewer warm steps, smaller mu) so that f* < n/2")
        if cap < 1:
            raise ValueError(f"deletion capacity 0 at n = {n}: a single deletion already exceeds alpha = "
                             f"{ctx['alpha']}; no rate in n can be fitted (raise alpha)")
        caps.append(cap)
    return Rate(sizes, caps, 1.0, relation="=", tolerance=0.1, max_halfwidth=0.1,
                why="f* is an integer (rounding <= 1/f* ~ 15% at the smallest n) and G carries the data's "
                    "largest label and ||theta_D||, which vary by a few percent with n: 0.1 allowance on the exponent",
                size_name="training points n", cost_name="deletion capacity f*")


@claim(PAPER, source="Summary (sciencestack): noisy ERM with output perturbation has a deletion capacity that grows "
       "linearly in n for in-distribution forget data; rate and mechanism reconstructed", evidence="rate",
       role="background",
       reconstructed_from="sciencestack summary (dimension-free deletion capacity); the rate follows from our own noise "
       "formula sigma proportional to f G/(mu n), so this is a consistency check of our reconstruction",
       params=_CAPACITY,
       statement=r"For $\mu$-strongly convex ERM with per-sample gradients bounded by $G$, the $(q,\varepsilon)$-Rényi "
       r"certified unlearning of $f$ points (output perturbation with $\sigma\propto fG/(\mu n)$) keeps the excess "
       r"population risk below a fixed $\alpha$ for every $f\le f^*(n)$ with $f^*(n)=\Theta(n)$: the deletion capacity "
       r"is linear in the number of training points.",
       method="Ridge regression on the unit sphere (E xx^T = I/d) with bounded label noise; for each n the largest f "
       "whose exact expected excess population risk (noise integrated in closed form, worst of random forget sets) "
       "is <= alpha, by bisection; log-log slope of f* against n = 250...8000.")
def deletion_capacity_linear_in_n(ctx):
    """The number of deletions the certified mechanism absorbs before exceeding the risk budget grows like n."""
    return _capacities(ctx, vanishing_mu=False)


@deletion_capacity_linear_in_n.control("strong convexity vanishing like 1/n (mu_n = mu * n_0 / n, as for an "
                                       "unregularised sum objective): the minimiser's sensitivity no longer shrinks with n")
def vanishing_strong_convexity(ctx):
    return _capacities(ctx, vanishing_mu=True)
