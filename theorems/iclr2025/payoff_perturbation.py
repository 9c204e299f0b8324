r"""Abe, Sakamoto, Ariu & Iwasaki, "Boosting Perturbed Gradient Ascent for Last-Iterate
Convergence in Games" (ICLR 2025).

Gradient Ascent with Boosting Payoff Perturbation (GABP, Algorithm 1) runs projected gradient
ascent on the payoff perturbed by $-\tfrac{\mu}{2}\|\pi_i - \hat\sigma^k_i\|^2$, whose anchor
$\hat\sigma^k = (k\sigma^k + \sigma^1)/(k+1)$ mixes the latest snapshot $\sigma^k$ (taken every
$T_\sigma$ steps) with the initial strategy.  Theorem 4.1 (full feedback) bounds the last-iterate
gap by $O(\ln T/T)$ and Theorem 4.3 (noisy feedback) by $O(\sqrt{\ln T}\,T^{-1/7})$, both with
explicit constants; the predecessor APGA (anchor $\sigma^k$ itself) has $\tilde O(1/\sqrt T)$ and
$\tilde O(T^{-1/10})$.  The theorems are read from the submission text of the same paper
(NeurIPS 2024, OpenReview TI7Vy90B9j), whose algorithm and rates are those of the ICLR version.

The checks are worst cases over a class of monotone games: the bilinear games
$v_1 = \lambda xy = -v_2$ on $[-R, R]^2$ with $0 < \lambda \le L$, started on the unit circle, where
Algorithm 1 has closed forms (full feedback: exact iterates; noisy feedback: exact mean and
variance, so the expectation of the theorem is computed, not sampled).  On this class GABP's
anchor bias is $\Theta(1/k)$ after $k$ phases, so the theorems' rates are attained and can be
fitted two-sidedly; APGA's worst case is $\Theta(k^{-1/2})$, which is what separates the two.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.games import (
    box_exit_log_probability,
    rotation_closed_form,
    rotation_expected_gap,
    rotation_noisy_moments,
)
from workbench import AllOf, Bound, NotChecked, Paper, Param, Rate, claim, factor_slope

PAPER = Paper(
    slug="payoff_perturbation",
    title="Boosting Perturbed Gradient Ascent for Last-Iterate Convergence in Games",
    authors=("Kenshi Abe", "Mitsuki Sakamoto", "Kaito Ariu", "Atsushi Iwasaki"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2410.02388",
    identifier="OpenReview Jrt9iWalFy",
    url="https://openreview.net/forum?id=Jrt9iWalFy",
    not_checked=(
        NotChecked(r"Theorem 4.3's rate $\tilde O(T^{-1/7})$ under noisy feedback, as distinct from the predecessor "
                   r"APGA's $T^{-1/10}$.",
                   "at the horizons that can be computed (T^(1/7) <= 8) the allowance for the theorem's logarithmic "
                   "factors (0.067) is wider than the gap between -1/7 and -1/10, so the worst-case fit cannot tell "
                   "GABP's rate from APGA's (a claimed -1/10 verifies too); the fit is kept as a supporting claim",
                   "headline"),
        NotChecked(r"GABP's last-iterate rates are faster than those proven for the earlier payoff-perturbed "
                   r"algorithms (APMD/APGA: $\tilde O(1/\sqrt T)$ with full feedback, $\tilde O(T^{-1/10})$ with "
                   r"noisy feedback)",
                   "a comparison of upper bounds over all monotone games, which no computation ranks; what can be "
                   "computed is checked: APGA's worst case over the class of the first claim decays like "
                   r"$T^{-1/2}$ (its near-miss control, refuted as $T^{-1}$); with noisy feedback the two exponents "
                   "differ by 3/70 = 0.043, less than a fit over the horizons computable here resolves",
                   role="headline"),
        NotChecked(r"Theorem 5.1: with full feedback each player's (dynamic) regret is $O((\ln T)^2)$",
                   "a poly-logarithmic bound whose constant is not in the main text: over any computable range "
                   "of T, ln T changes by a factor of about two, so no fit spans a decade of ln T and no power "
                   "of ln T can be told from another",
                   role="supporting"),
        NotChecked("Section 6: GABP performs competitively with or better than APGA, OGA and AOG on random payoff "
                   "games and the hard concave-convex game, with tuned step sizes",
                   "an empirical comparison that states no number to check against ('competitive or superior'), "
                   "run with hyper-parameters tuned per method rather than the theorems' schedules",
                   role="supporting"),
    ),
)

SUBMISSION = ("Theorem {n} as stated in the submission text of the same paper (NeurIPS 2024, OpenReview "
              "TI7Vy90B9j); the ICLR camera-ready could not be read, and its reviews describe the same "
              "algorithm and rates")

UPDATE = (r"$\pi^{t+1} = \Pi_{\mathcal X}\big(\pi^t + \eta_t[\hat g^t - \mu(\pi^t - \hat\sigma^{k})]\big)$, "
          r"$\hat\sigma^k = \frac{k\sigma^k + \sigma^1}{k+1}$, $\sigma^{k+1} = \pi^{t+1}$ every $T_\sigma$ steps")

CLASS = (r"the bilinear games $v_1 = \lambda xy = -v_2$ on $[-R, R]^2$ ($R = 3$) with coupling "
         r"$0 < \lambda \le L = 1$ (monotone, $L$-Lipschitz), started on the unit circle")

MU, L_LIP, RADIUS = 1.0, 1.0, 3.0
ETA = 0.2  # in (0, mu/(L+mu)^2) = (0, 1/4), as Theorem 4.1 requires


# --------------------------------------------------------------------------- Theorem 4.1
def theorem41_factor(T: int, eta: float = ETA, mu: float = MU) -> float:
    r"""$\Lambda(T) = 6\ln(3(T+1))/\ln(1+\eta\mu) + 1$, the horizon factor of Theorem 4.1."""
    return 6.0 * math.log(3.0 * (T + 1)) / math.log1p(eta * mu) + 1.0


def theorem41_interval(T: int, c: float = 1.0, eta: float = ETA, mu: float = MU) -> int:
    r"""$T_\sigma = c\max(1, 6\ln(3(T+1))/\ln(1+\eta\mu))$, rounded up to a whole number of steps."""
    return int(math.ceil(c * max(1.0, theorem41_factor(T, eta, mu) - 1.0)))


def theorem41_bound(t: int, T: int, c: float = 1.0, eta: float = ETA, mu: float = MU, L: float = L_LIP,
                    D: float = 2 * math.sqrt(2) * RADIUS) -> float:
    r"""$17cD^2\Lambda(T)(\mu + (1+\eta L)/\eta)/(t-1)$: Theorem 4.1's bound on $\mathrm{Gap}(\pi^t)$, $2 \le t \le T+1$."""
    return 17.0 * c * D**2 * theorem41_factor(T, eta, mu) / (t - 1) * (mu + (1.0 + eta * L) / eta)


def worst_gap_full(T: int, couplings: np.ndarray, anchor: str = "gabp", power: float = 1.0) -> float:
    r"""Largest $\mathrm{Gap}(\pi^{T+1})$ over the couplings and over the starting angle (exact:
    $z^{T+1} = Fz^1$, and $|x| + |y|$ is largest, $\sqrt2|z|$, at 45 degrees), with Theorem 4.1's
    parameters; checks that the iterates never reach the box's boundary."""
    F, radius = rotation_closed_form(couplings, eta=ETA, mu=MU, T=T, T_sigma=theorem41_interval(T),
                                     anchor=anchor, power=power)
    if radius.max() >= RADIUS:
        raise RuntimeError(f"an iterate may leave the box (radius bound {radius.max():.3g} >= {RADIUS})")
    return float(np.max(RADIUS * couplings * math.sqrt(2.0) * np.abs(F)))


FULL_WHY = ("no noise: the costs are exact.  Allowance for lower-order terms: the anchored iteration's "
            "gap behaves as C/(k + b) after k = T/T_sigma phases; with a generous offset b <= 10 phases the "
            "exponent fitted over these T moves by at most factor_slope(T, T/(T + 10 T_sigma(T))), "
            "computed from the schedule alone")


def _full_rate(ctx) -> Rate:
    sizes = np.unique(np.round(np.logspace(5, math.log10(ctx["T_max"]), ctx["n_horizons"])).astype(int))
    lam = np.logspace(-7, 0, ctx["n_couplings"]) * L_LIP
    costs = np.array([worst_gap_full(int(T), lam, ctx["anchor"], ctx["power"]) / theorem41_factor(int(T))
                      for T in sizes])
    tol = factor_slope(sizes, sizes / (sizes + 10.0 * np.array([theorem41_interval(int(T)) for T in sizes])))
    return Rate(sizes, costs, exponent=-1.0, relation="=", tolerance=abs(tol), max_halfwidth=0.1, why=FULL_WHY,
                size_name="T", cost_name="worst-case gap at T+1 / Lambda(T)")


@claim(PAPER, role="headline", source="Theorem 4.1", evidence="rate",
       reconstructed_from=SUBMISSION.format(n="4.1"),
       params={"T_max": Param(10**7, full=10**8, low=10**6, high=10**9, doc="largest horizon T (steps); T from 1e5"),
               "n_horizons": Param(7, full=13, low=3, high=40, doc="log-spaced horizons"),
               "n_couplings": Param(128, full=256, low=8, high=4096,
                                    doc="log-spaced couplings lambda in [1e-7, 1] over which the worst case is taken"),
               "anchor": Param("gabp", choices=("gabp", "apga", "frozen"), doc="anchor rule (gabp: Algorithm 1)"),
               "power": Param(1.0, low=0.1, high=4.0, doc="exponent p of the anchor weight (k+1)^(-p) (1 in GABP)")},
       statement=r"Theorem 4.1 (full feedback): GABP (" + UPDATE + r") with $\eta \in (0, \mu/(L+\mu)^2)$, "
       r"$\mu > 0$ and $T_\sigma = c\max(1, 6\ln(3(T+1))/\ln(1+\eta\mu))$, $c \ge 1$, satisfies for every "
       r"$t \in \{2, \dots, T+1\}$: $\mathrm{Gap}(\pi^t) \le 17cD^2\,\Lambda(T)\,(\mu + (1+\eta L)/\eta)/(t-1)$ "
       r"with $\Lambda(T) = 6\ln(3(T+1))/\ln(1+\eta\mu) + 1$: an $O(\ln T/T)$ last-iterate rate.  Checked "
       r"sharply: on " + CLASS + r", with $\eta = 0.2$, $\mu = 1$, $c = 1$, the worst case of "
       r"$\mathrm{Gap}(\pi^{T+1})/\Lambda(T)$ decays as $T^{-1}$ (two-sided: the bound's rate is attained).",
       method="Exact iterates by the phase-by-phase closed form (a unit test compares it with the step-by-step "
       "algorithm); the worst case over 128 log-spaced couplings and, exactly, over the starting angle; the "
       "log-log slope over T in [1e5, 1e7] is compared with -1 on both sides.  Near-miss controls: APGA's "
       r"anchor (the predecessor, worst case $T^{-1/2}$) and an anchor weight $(k+1)^{-3/4}$ (worst case $T^{-3/4}$).")
def gabp_full_feedback_worst_case_rate(ctx):
    """GABP's worst-case last-iterate gap over a class of monotone games decays like ln T / T.

    Theorem 4.1's rate, with the paper's step size condition and anchor interval; the horizon
    factor Lambda(T) of the theorem is divided out, so the fitted exponent is the theorem's 1/T.
    """
    return _full_rate(ctx)


gabp_full_feedback_worst_case_rate.control(
    "APGA, the predecessor: the anchor is the latest snapshot (worst case over the class ~ 1/sqrt(T))",
    params={"anchor": "apga"}, near_miss=True)
gabp_full_feedback_worst_case_rate.control(
    "the initial strategy's weight in the anchor is (k+1) to the power -3/4 instead of 1/(k+1): an anchor bias "
    "of order k to the -3/4",
    params={"power": 0.75}, near_miss=True)
gabp_full_feedback_worst_case_rate.control(
    "the anchor is never refreshed (frozen at the initial strategy): the gap stalls", params={"anchor": "frozen"})


# --------------------------------------------------------------------------- Theorem 4.3
KAPPA = MU / 2.0
THETA = (3.0 * MU**2 + 8.0 * L_LIP**2) / (2.0 * MU)
NOISE_STD = 0.1  # per coordinate, as in the paper's experiments (N(0, 0.1^2 I))


def theorem43_steps(T_sigma: int, kappa: float = KAPPA, theta: float = THETA) -> np.ndarray:
    r"""Theorem 4.3's step sizes $\eta_\tau = 1/(\kappa\tau + 2\theta)$, $\tau = 1..T_\sigma$ (restarted every phase)."""
    return 1.0 / (kappa * np.arange(1, T_sigma + 1) + 2.0 * theta)


def theorem43_log_factor(T: int, D: float = 2 * math.sqrt(2) * RADIUS, noise_var: float = NOISE_STD**2) -> float:
    r"""$\sqrt{(D^2 + C^2\ln(\kappa T/2\theta + 1)/(\kappa\theta))/\kappa} + 1$, the factor of Theorem 4.3 that grows with T."""
    return math.sqrt((D**2 + noise_var / (KAPPA * THETA) * math.log(KAPPA * T / (2 * THETA) + 1)) / KAPPA) + 1.0


def theorem43_bound(T: int, c: float = 1.0, D: float = 2 * math.sqrt(2) * RADIUS) -> float:
    r"""Theorem 4.3's bound on $\mathbb E[\mathrm{Gap}(\pi^{T+1})]$ for the class (with $\zeta = \sqrt2 LR$,
    the largest $\|V\|$ on the box, and $C^2 = $ the noise variance of one player)."""
    zeta = math.sqrt(2.0) * L_LIP * RADIUS
    return (26.0 * c * (D * (MU + L_LIP) + zeta) * math.sqrt((D + 1) * (D + THETA) + KAPPA) / T ** (1 / 7)
            * theorem43_log_factor(T, D))


def worst_expected_gap_noisy(K: int, couplings: np.ndarray, interval_exponent: float = 6 / 7,
                             anchor: str = "gabp", n_angles: int = 17) -> float:
    r"""Largest $\mathbb E[\mathrm{Gap}(\pi^{T+1})]$ at $T = K^7$ over couplings and starting angles.

    Exact moments (:func:`simulations.games.rotation_noisy_moments`) with Theorem 4.3's schedule:
    $T_\sigma = T^{6/7} = K^6$ (or ``T**interval_exponent``) and $\eta_\tau = 1/(\kappa\tau + 2\theta)$.
    Checks that the probability of ever leaving the box is below $10^{-30}$ (the moments are then
    those of the projected algorithm up to that probability times the largest gap).
    """
    T = K**7
    T_sigma = int(round(T**interval_exponent))
    mo = rotation_noisy_moments(couplings, etas=theorem43_steps(T_sigma), mu=MU, T=T, T_sigma=T_sigma,
                                noise_std=NOISE_STD, anchor=anchor)
    logp = box_exit_log_probability(mo.mean_radius, mo.sd_max, RADIUS, T)
    if np.max(logp) > math.log(1e-30):
        raise RuntimeError(f"the box may be left with probability up to {math.exp(np.max(logp)):.3g}")
    angles = np.linspace(0.0, math.pi / 4, n_angles)  # |x|+|y| is symmetric about 45 degrees
    means = mo.mean_factor[:, None] * np.exp(1j * angles)[None]
    gaps = rotation_expected_gap(means, mo.variance[:, None], couplings[:, None], RADIUS)
    return float(gaps.max())


NOISY_WHY = ("exact expectations (no Monte Carlo).  Allowance for lower-order terms: after K = T^(1/7) "
             "phases the anchor bias behaves as C/(K + b); with b <= 3 (the paper's phase index starts at 1, "
             "the weight is 1/(k+1), and the restarted step size contracts the first phases only partly) the "
             "fitted exponent moves by at most factor_slope(T, K/(K + 3)), computed from the horizons alone")


def _noisy_rate(ctx) -> Rate:
    Ks = np.arange(2, ctx["K_max"] + 1)
    lam = np.logspace(-3, 0, ctx["n_couplings"]) * L_LIP
    sizes = Ks.astype(float) ** 7
    costs = np.array([worst_expected_gap_noisy(int(K), lam, ctx["interval_exponent"], ctx["anchor"])
                      for K in Ks]) / np.array([theorem43_log_factor(int(T)) for T in sizes])
    tol = abs(factor_slope(sizes, Ks / (Ks + 3.0)))
    return Rate(sizes, costs, exponent=-1.0 / 7.0, relation="=", tolerance=tol, max_halfwidth=0.05, why=NOISY_WHY,
                size_name="T", cost_name="worst-case expected gap at T+1 / log factor")


@claim(PAPER, role="supporting", source="Theorem 4.3", evidence="rate",
       reconstructed_from=SUBMISSION.format(n="4.3"),
       params={"K_max": Param(6, full=8, low=3, high=10, doc="horizons T = K^7 for K = 2..K_max"),
               "n_couplings": Param(48, full=96, low=4, high=1024,
                                    doc="log-spaced couplings lambda in [1e-3, 1] over which the worst case is taken"),
               "interval_exponent": Param(6 / 7, low=0.5, high=1.0, doc="anchor interval T_sigma = T^e (6/7 in the theorem)"),
               "anchor": Param("gabp", choices=("gabp", "apga", "frozen"), doc="anchor rule (gabp: Algorithm 1)")},
       statement=r"Theorem 4.3 (noisy feedback, zero-mean noise of variance at most $C^2$, $\|V\| \le \zeta$): "
       r"GABP with $T_\sigma = c\max(T^{6/7}, 1)$ and the step size $\eta_t = 1/(\kappa(t - T_\sigma(k(t)-1)) + "
       r"2\theta)$, $\kappa = \mu/2$, $\theta = (3\mu^2 + 8L^2)/(2\mu)$, satisfies $\mathbb E[\mathrm{Gap}"
       r"(\pi^{T+1})] \le 26c(D(\mu+L)+\zeta)\sqrt{(D+1)(D+\theta)+\kappa}\;T^{-1/7}\,\big(\sqrt{(D^2 + "
       r"C^2\ln(\kappa T/2\theta+1)/(\kappa\theta))/\kappa} + 1\big)$: an $\tilde O(T^{-1/7})$ rate.  Checked "
       r"sharply: on " + CLASS + r", with Gaussian noise $\mathcal N(0, 0.1^2)$ per coordinate, $\mu = 1$, "
       r"$c = 1$, the worst case of $\mathbb E[\mathrm{Gap}(\pi^{T+1})]$ divided by the factor growing with $T$ "
       r"decays as $T^{-1/7}$ (two-sided) over $T = K^7$.",
       method=r"For $T = K^7$ the anchor interval $T^{6/7} = K^6$ is a whole number and $T+1$ starts phase $K+1$.  The "
       "iterate is a circular complex Gaussian whose mean and variance are propagated exactly phase by phase "
       "(a unit test compares them with Monte Carlo runs of the step-by-step algorithm); the expected gap is "
       "the folded-normal mean, maximised over 48 couplings and 17 starting angles; the box is left with "
       r"probability below 1e-30 (checked).  Near-miss control: the anchor interval $T^{5/7}$ instead of $T^{6/7}$ "
       r"($K^2$ phases: worst case $T^{-2/7}$).  Slack, and why: at the horizons that can be computed "
       r"($T^{1/7} \le 8$) the allowance for the theorem's logarithmic factors (0.067) is wider than the gap between "
       r"$-1/7$ and $-1/10$, so a claimed $T^{-1/10}$ verifies too; the headline rate is listed as not checked.")
def gabp_noisy_feedback_worst_case_rate(ctx):
    """GABP's worst-case expected last-iterate gap under noisy feedback decays like $T^{-1/7}$.

    Theorem 4.3's schedule (anchor interval $T^{6/7}$, step size restarted in each phase); the
    expectation is exact, so the fit has no sampling error and no between-game variance.
    """
    return _noisy_rate(ctx)


gabp_noisy_feedback_worst_case_rate.control(
    "anchor interval T to the 5/7 instead of the theorem's 6/7: K squared phases, worst case ~ T to the -2/7",
    params={"interval_exponent": 5 / 7}, near_miss=True)
gabp_noisy_feedback_worst_case_rate.control(
    "the anchor is never refreshed (frozen at the initial strategy): the expected gap stalls",
    params={"anchor": "frozen"})


# --------------------------------------------------------------------------- explicit constants
def _theorem41_instance(p: dict) -> tuple[float, float]:
    T = int(p["T"])
    return worst_gap_full(T, np.array([p["coupling"]]), p.get("anchor", "gabp")), theorem41_bound(T + 1, T)


def _theorem43_instance(p: dict) -> tuple[float, float]:
    K = int(p["K"])
    return worst_expected_gap_noisy(K, np.array([p["coupling"]]), anchor=p.get("anchor", "gabp")), theorem43_bound(K**7)


class _WithAnchor:
    """A picklable instance function with the anchor rule fixed."""

    def __init__(self, func, anchor: str) -> None:
        self.func, self.anchor = func, anchor

    def __call__(self, p: dict) -> tuple[float, float]:
        return self.func(p | {"anchor": self.anchor})


@claim(PAPER, role="supporting", source="Theorems 4.1 and 4.3 (their explicit constants)", evidence="all",
       reconstructed_from=SUBMISSION.format(n="4.1 and 4.3"),
       params={"evaluations": Param(40, full=160, low=10, high=2000, doc="instances evaluated by each adversarial search"),
               "T_max": Param(10**6, full=10**7, low=10**3, high=10**8, doc="largest horizon searched for Theorem 4.1"),
               "anchor": Param("gabp", choices=("gabp", "apga", "frozen"), doc="anchor rule (gabp: Algorithm 1)")},
       statement=r"The explicit bounds of Theorems 4.1 and 4.3 (statements above) hold on " + CLASS + r": "
       r"$\mathrm{Gap}(\pi^{T+1}) \le 17cD^2\Lambda(T)(\mu + (1+\eta L)/\eta)/T$ and $\mathbb E[\mathrm{Gap}"
       r"(\pi^{T+1})] \le$ the bound of Theorem 4.3, with $D = 2\sqrt2R$, $\zeta = \sqrt2LR$, $C^2 = 0.01$.",
       method="Adversarial searches (differential evolution) over the coupling and the horizon for the instance "
       "closest to each bound.  The constants are proof constants: the tightest instances come within about "
       "1e-3 (Theorem 4.1) and 1e-4 (Theorem 4.3) of the bounds, so this check cannot tell them from much "
       "smaller ones; the rates, which it can, are checked sharply by the two claims above.")
def explicit_bounds_hold(ctx):
    """The explicit bounds of Theorems 4.1 and 4.3 hold on the worst instances found in the class.

    Slack by design: the paper's constants (17 c D^2 ..., 26 c ...) come from the proofs.
    """
    f41 = _WithAnchor(_theorem41_instance, ctx["anchor"])
    f43 = _WithAnchor(_theorem43_instance, ctx["anchor"])
    w41 = ctx.worst_case(f41, {"coupling": (1e-6, 1.0, "log"), "T": (10, ctx["T_max"], "log int")},
                         evaluations=ctx["evaluations"], label="theorem 4.1")
    w43 = ctx.worst_case(f43, {"coupling": (1e-3, 1.0, "log"), "K": (2, 6, "int")},
                         evaluations=ctx["evaluations"], label="theorem 4.3")
    why = "exact values (closed forms); float rounding is far below the bounds"
    return AllOf([Bound(w41.measured, w41.bound, relation="<=", rtol=1e-9, why=why, instances=w41.instances,
                        quantity="worst gap at T+1 over starting angles", found_by=w41.method),
                  Bound(w43.measured, w43.bound, relation="<=", rtol=1e-9, why=why, instances=w43.instances,
                        quantity="worst expected gap at T+1 over starting angles", found_by=w43.method)],
                 labels=["Theorem 4.1", "Theorem 4.3"])


explicit_bounds_hold.control("the anchor is never refreshed (frozen): the gap stalls above the 1/T bound",
                             params={"anchor": "frozen", "T_max": 10**8})
