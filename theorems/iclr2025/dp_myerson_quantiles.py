r"""Yang, Xiao, Kumar & Morgenstern, "Differentially Private Mechanism Design via Quantile
Estimation" (ICLR 2025).

The paper releases a revenue-maximising (Myerson) single-item auction for independent,
non-identical bidders with pure $(\varepsilon, 0)$-differential privacy in the bidders' samples,
by reducing the problem to the private estimation of pre-specified quantiles; its revenue is
near optimal.  Only the abstract could be read: the pipeline checked here (exponential-mechanism
quantiles at levels $k/(K+1)$ with budget $\varepsilon/K$ each, the released quantiles taken as
each bidder's distribution, Myerson's auction for those) and its rate are our reconstruction.
The Myerson benchmark is classical (Myerson 1981).  Unbounded distributions are handled by a
privately chosen cap on a public geometric grid before the quantiles (our reconstruction); the
online extension is checked in a repeated posted-price setting of our own (a past bid moves
future expected utility by at most a factor $e^\varepsilon$).
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp
from scipy import stats

from simulations.auctions import (
    PiecewiseUniform,
    capped_privacy_audit,
    capped_private_quantiles,
    deviation_gains,
    expected_revenue,
    geometric_caps,
    myerson_revenue,
    privacy_audit,
    private_quantiles,
    quantile_auction,
    repeated_auction_audit,
)
from workbench import Bound, Identity, Paper, Param, Rate, claim, factor_slope

PAPER = Paper(
    slug="dp_myerson_quantiles",
    title="Differentially Private Mechanism Design via Quantile Estimation",
    authors=("Yuanyuan Yang", "Tao Xiao", "Bhuvesh Kumar", "Jamie Morgenstern"),
    venue="ICLR 2025",
    year=2025,
    identifier="ICLR 2025 (proceedings.iclr.cc); NSF PAR 10570667",
    url="https://proceedings.iclr.cc/paper_files/paper/2025",
    not_checked=(
        (r"The private mechanism is computable in polynomial time, with only a polylogarithmic overhead "
         r"over the non-private one (research notes' reading of the abstract)",
         "an asymptotic statement about running time over all input sizes; timings at a few finite sizes "
         "cannot establish it", "supporting"),
    ),
)


# --------------------------------------------------------------------------- benchmark
def _irregular_two_bidders() -> sp.Expr:
    """E[max(phibar_1, phibar_2)^+] for two iid 0.9 U[0,1] + 0.1 U[1,3] bidders, by sympy.

    Revenue curve R(q) = 3q - 20q^2 on [0, 1/10] and (10/9) q (1 - q) on [1/10, 1]; the hull
    has one ironed interval [a, b] found from the common-tangent equations.
    """
    q, a, b, t = sp.symbols("q a b t", real=True)
    r1, r2 = 3 * q - 20 * q**2, sp.Rational(10, 9) * (q - q**2)
    s1, s2 = sp.diff(r1, q).subs(q, a), sp.diff(r2, q).subs(q, b)
    sols = sp.solve([s1 - s2, r1.subs(q, a) + s1 * (b - a) - r2.subs(q, b)], [a, b], dict=True)
    (sol,) = [x for x in sols if 0 < x[a] < sp.Rational(1, 10) < x[b] < 1]
    s = s1.subs(a, sol[a])
    q_low = (1 - sp.Rational(9, 10) * t) / 2      # quantile where phibar = t on [b, 1]
    q_high = (3 - t) / 40                         # quantile where phibar = t on [0, a]
    return (sp.integrate(1 - (1 - q_low) ** 2, (t, 0, s))
            + sp.integrate(1 - (1 - q_high) ** 2, (t, s, 3)))


def _benchmark_cases():
    U, E = stats.uniform, stats.expon
    irregular = PiecewiseUniform([(0.0, 1.0), (1.0, 3.0)], [0.9, 0.1])
    e = sp.E
    return [
        ("one U[0,1]", [U(0, 1)], sp.Rational(1, 4)),
        ("two U[0,1]", [U(0, 1)] * 2, sp.Rational(5, 12)),
        ("three U[0,1]", [U(0, 1)] * 3, sp.Rational(17, 32)),
        ("U[0,1] and U[0,2]", [U(0, 1), U(0, 2)], sp.Rational(31, 48)),
        ("one Exp(1)", [E()], 1 / e),
        ("two Exp(1)", [E()] * 2, 2 / e - 1 / (2 * e**2)),
        ("one irregular 0.9U[0,1]+0.1U[1,3]", [irregular], sp.Rational(5, 18)),
        ("two irregular 0.9U[0,1]+0.1U[1,3]", [irregular] * 2, _irregular_two_bidders()),
    ]


def _benchmark(iron: bool) -> Identity:
    cases = _benchmark_cases()
    measured = [myerson_revenue(d, iron=iron) for _, d, _ in cases]
    reference = [float(sp.N(r, 30)) for _, _, r in cases]
    return Identity(measured, reference, atol=1e-6,
                    why="the issue's accuracy target; the quantile grid (4096 uniform cells plus a "
                        "geometric refinement to 1e-15) averages phibar over cells, an O(h^2) error "
                        "measured below 1e-7 on these cases",
                    quantity="optimal expected revenue", labels=[c[0] for c in cases])


@claim(PAPER, role="background", source="Myerson (1981), optimal auction with ironing: the revenue benchmark OPT of the paper",
       evidence="identity",
       statement=r"For independent values $V_i \sim F_i$, the optimal expected revenue is "
       r"$\mathrm{OPT} = \mathbb E[\max_i \bar\varphi_i(V_i)^+]$ with $\bar\varphi_i$ the ironed virtual "
       r"value (derivative of the concave hull of $R_i(q) = q F_i^{-1}(1-q)$); e.g. $5/12$ for two "
       r"$U[0,1]$ bidders, $31/48$ for $U[0,1]$ and $U[0,2]$, $2/e - 1/(2e^2)$ for two $\mathrm{Exp}(1)$.",
       method="myerson_revenue (quantile-grid hull, exact expectation of the max of the discrete "
       "ironed virtual values) against closed forms derived by hand and by sympy, including an "
       "irregular distribution whose ironing interval sympy finds from the common-tangent equations.")
def myerson_benchmark_exact(ctx):
    """The optimal-auction revenue used as the benchmark OPT agrees with exact closed forms.

    Regular (uniform, exponential) and irregular (a two-piece uniform mixture) bidders; the
    irregular two-bidder value comes from sympy's exact hull of the revenue curve.
    """
    return _benchmark(iron=True)


@myerson_benchmark_exact.control("ironing skipped: raw virtual values on the irregular distribution")
def no_ironing(ctx):
    return _benchmark(iron=False)


# --------------------------------------------------------------------------- privacy
def _audit_datasets(rng: np.random.Generator, domain: np.ndarray, n: int, k: int) -> list[np.ndarray]:
    """Random datasets on the domain grid plus two adversarial ones (all equal; two clusters)."""
    out = [rng.choice(domain, size=n) for _ in range(k)]
    out.append(np.full(n, domain[0]))
    out.append(np.where(np.arange(n) < n // 2, domain[0], domain[-1]))
    return out


def _audit(ctx, noise_factor: float) -> Bound:
    eps, K = ctx["epsilon"], ctx["n_quantiles"]
    domain = np.linspace(0.0, 1.0, ctx["domain_size"])
    datasets = _audit_datasets(ctx.rng, domain, ctx["n_samples"], ctx["n_datasets"])
    losses = ctx.map(_audit_one, [(d, domain, K, eps, noise_factor) for d in datasets])
    return Bound(losses, eps, relation="<=", atol=1e-9,
                 why="float64 log-sum-exp over at most N + 1 terms, summed over K quantiles: "
                     "rounding below 1e-12, allowance 1e-9",
                 quantity="worst privacy loss over all replace-one neighbours",
                 instances=[f"dataset {i}" for i in range(len(datasets))])


def _audit_one(item) -> float:
    data, domain, K, eps, noise_factor = item
    return privacy_audit(data, domain, K, eps, 0.0, 1.0, noise_factor)


@claim(PAPER, role="headline", source="Abstract (pure (epsilon, 0)-DP via private quantiles); mechanism "
       "reconstructed (exponential-mechanism quantiles, Smith 2011)", evidence="bound", reconstructed_from="the abstract",
       params={"epsilon": Param(1.0, full=1.0, low=0.01, high=10.0, doc="privacy budget"),
               "n_quantiles": Param(2, full=4, low=1, high=32, doc="quantiles released (K)"),
               "n_samples": Param(5, full=8, low=1, high=100, doc="samples per dataset (N)"),
               "domain_size": Param(12, full=32, low=2, high=256, doc="values of the data domain grid on [0, 1]"),
               "n_datasets": Param(2, full=8, low=1, high=100, doc="random datasets audited (plus 2 adversarial)")},
       statement=r"The release of the $K$ quantiles (each by the exponential mechanism with utility "
       r"$-|k - qN|$ and budget $\varepsilon/K$) is $(\varepsilon, 0)$-DP: for all neighbouring "
       r"datasets $D \sim D'$ (one sample replaced) and outputs $o$, "
       r"$\log p_D(o)/p_{D'}(o) \le \varepsilon$; the auction built from it inherits this.",
       method="Exact audit: the output density is a step function, so the supremum of the log-ratio "
       "is a maximum over the cells of merged breakpoints, summed over the K independent quantiles; "
       "every replace-one neighbour (any domain value) of each audited dataset, both directions.")
def quantile_release_is_pure_dp(ctx):
    """The private-quantile release has privacy loss at most epsilon on every neighbour pair.

    Pure DP is the paper's claim (abstract); the quantile mechanism is our reading of
    "private estimation of pre-specified quantiles".  The auction is post-processing.
    """
    return _audit(ctx, 0.5)


@quantile_release_is_pure_dp.control("half the required noise: exponent epsilon u instead of epsilon u / 2")
def half_noise(ctx):
    return _audit(ctx, 1.0)


# --------------------------------------------------------------------------- truthfulness
def auction_instance(rng: np.random.Generator, n_samples: int, n_quantiles: int, epsilon: float,
                     n_profiles: int, n_deviations: int, payment_rule: str) -> np.ndarray:
    """Worst of (deviation gain, -utility) over the bidders and value profiles of one learned auction.

    Two bidders with samples from U[0, 1] and U[0, 2] (range [0, 2]); values drawn uniformly in
    [0, 2.2] (including values above the range); deviations on a grid plus every breakpoint.
    """
    released = [private_quantiles(rng, rng.uniform(0.0, hi, n_samples), n_quantiles, epsilon, 0.0, 2.0)
                for hi in (1.0, 2.0)]
    auction = quantile_auction(released)
    values = rng.uniform(0.0, 2.2, size=(n_profiles, 2))
    gain, util = deviation_gains(auction, values, np.linspace(0.0, 2.2, n_deviations), payment_rule)
    return np.maximum(gain, -util).max(axis=1)


def _truthful(ctx, rule: str) -> Bound:
    runs = ctx.trials(auction_instance, ctx["n_auctions"], ctx["n_samples"], ctx["n_quantiles"],
                      ctx["epsilon"], ctx["n_profiles"], ctx["n_deviations"], rule, label="learned auctions")
    worst = np.concatenate(runs)
    return Bound(worst, 0.0, relation="<=", atol=1e-12,
                 why="utilities are differences of a value and a threshold bid read from the same "
                     "breakpoint array: exact up to one float64 rounding",
                 quantity="max(best deviation gain, -utility) per value profile",
                 instances=[f"profile {i}" for i in range(worst.size)])


@claim(PAPER, role="background", source="Abstract (the released mechanism is a Myerson auction); Myerson (1981)",
       evidence="bound", reconstructed_from="the abstract",
       params={"epsilon": Param(1.0, full=1.0, low=0.01, high=10.0, doc="privacy budget"),
               "n_quantiles": Param(8, full=16, low=1, high=64, doc="quantiles released per bidder (K)"),
               "n_samples": Param(100, full=400, low=10, high=10**5, doc="samples per bidder (N)"),
               "n_auctions": Param(4, full=16, low=1, high=200, doc="independently learned auctions"),
               "n_profiles": Param(6, full=20, low=1, high=1000, doc="value profiles per auction"),
               "n_deviations": Param(45, full=221, low=2, high=10**4, doc="grid of misreports tried")},
       statement=r"The auction released from the private quantiles (Myerson's auction for the released "
       r"distributions: highest positive ironed virtual value wins, pays its threshold bid) is dominant-"
       r"strategy incentive compatible and individually rational: for every bidder $i$, values $v$ and "
       r"misreport $b$, $u_i(b, v_{-i}) \le u_i(v_i, v_{-i})$ and $u_i(v_i, v_{-i}) \ge 0$.",
       method="For learned auctions (private quantiles of fresh samples, in parallel) and random value "
       "profiles, every bidder tries every misreport on a grid plus every breakpoint of its score "
       "(the only places its utility changes); the best gain and the truthful utility are exact.")
def released_auction_is_truthful(ctx):
    """No bidder gains by misreporting in the released auction, and truthful utility is >= 0.

    Myerson's auction with threshold payments is truthful for any distributions; checked on the
    auctions the private pipeline actually releases.
    """
    return _truthful(ctx, "threshold")


@released_auction_is_truthful.control("pay-your-bid payments instead of threshold payments")
def pay_your_bid(ctx):
    return _truthful(ctx, "pay_your_bid")


# --------------------------------------------------------------------------- revenue
def revenue_gap_trial(rng: np.random.Generator, sizes: np.ndarray, epsilon: float,
                      fixed_k: int = 0) -> np.ndarray:
    """OPT - expected revenue of the learned auction for each sample size N.

    K = ceil(sqrt N) quantiles, or ``fixed_k`` when positive (the broken control).
    Bidders U[0, 1] and U[0, 2] (range [0, 2]); the revenue of the learned auction under the
    true distributions is exact (Myerson's lemma), so the gap is non-negative by optimality.
    """
    dists = [stats.uniform(0, 1), stats.uniform(0, 2)]
    opt = float(sp.Rational(31, 48))
    out = []
    for n in sizes:
        K = fixed_k if fixed_k > 0 else int(np.ceil(np.sqrt(n)))
        released = [private_quantiles(rng, d.rvs(size=int(n), random_state=rng), K, epsilon, 0.0, 2.0)
                    for d in dists]
        out.append(opt - expected_revenue(quantile_auction(released), dists))
    return np.array(out)


def _revenue_rate(ctx, epsilon: float, fixed_k: int = 0) -> Rate:
    n_max, n_sizes = ctx["n_max"], ctx["n_sizes"]
    sizes = np.unique(np.round(np.logspace(np.log10(n_max / 10), np.log10(n_max), n_sizes)).astype(int))
    gaps = np.array(ctx.trials(revenue_gap_trial, ctx["repetitions"], sizes, epsilon, fixed_k,
                                label="samples"))
    return Rate(np.broadcast_to(sizes, gaps.shape).ravel(), np.maximum(gaps, 1e-12).ravel(),
                exponent=-0.5, relation="<=", tolerance=factor_slope(sizes, np.log(sizes)), max_halfwidth=0.35,
                why="reconstructed rate O~(N^(-1/2)) (sampling error and quantile error with K = sqrt N); "
                    "the allowance is the slope a ln N factor has over these sizes; half-width 0.35 "
                    "separates -1/2 from no decay",
                size_name="N (samples per bidder)", cost_name="OPT - revenue of the learned auction")


@claim(PAPER, expect="INCONCLUSIVE",
       expect_reason="the one-sided rate rule is fail-closed: the fitted interval straddles the claimed exponent plus its allowance, so the evidence neither supports nor contradicts the claim at this size", role="headline", source="Abstract (near-optimal revenue); rate and K = sqrt(N) reconstructed",
       evidence="rate", reconstructed_from="the abstract",
       params={"n_max": Param(1000, full=4000, low=100, high=10**5, doc="largest sample size per bidder; fit on [n_max/10, n_max]"),
               "n_sizes": Param(4, full=6, low=3, high=20, doc="log-spaced sample sizes"),
               "repetitions": Param(12, full=32, low=2, high=1000, doc="independent repetitions (trials)")},
       statement=r"At fixed $\varepsilon = 1$, the expected revenue of the released auction satisfies "
       r"$\mathrm{OPT} - \mathbb E[\mathrm{Rev}] = \tilde O(N^{-1/2})$ in the number $N$ of samples per "
       r"bidder, with $K = \lceil\sqrt N\rceil$ quantiles (our quantitative reading of "
       r"``near-optimal revenue''), for bidders $U[0,1]$ and $U[0,2]$ ($\mathrm{OPT} = 31/48$).",
       method="Independent repetitions in parallel; for each N the released auction's exact expected "
       "revenue under the true distributions (Myerson's lemma, piecewise closed form) is compared with "
       "OPT; the log-log slope of the gap in N is compared with -1/2 (with the ln N allowance).")
def revenue_gap_vanishes(ctx):
    """The revenue loss of the private auction against OPT shrinks at least like N^(-1/2).

    "Near-optimal revenue" is stated in the abstract; the rate and the choice K = ceil(sqrt N)
    are our reconstruction (sampling error N^(-1/2), quantile error K/(epsilon N)).
    """
    return _revenue_rate(ctx, 1.0)


@revenue_gap_vanishes.control("a fixed number of quantiles (K = 2) instead of K = ceil(sqrt N)")
def fixed_quantile_count(ctx):
    return _revenue_rate(ctx, 1.0, fixed_k=2)


# --------------------------------------------------------------------------- unbounded values
CAPS = dict(smallest=1.0 / 16.0, n_caps=20, ratio=float(np.sqrt(2.0)))  # public caps 1/16 .. 2^5.4


def _unbounded_datasets(rng: np.random.Generator, domain: np.ndarray, n: int, k: int) -> list[np.ndarray]:
    """Random datasets on the domain plus adversarial ones: all equal, and a staircase with one
    point on every other domain value (one point per scale of the cap grid)."""
    out = [rng.choice(domain, size=n) for _ in range(k)]
    out.append(np.full(n, domain[0]))
    out.append(domain[np.arange(n) * 2 % domain.size])
    return out


def _capped_audit_one(item) -> float:
    data, domain, K, eps, caps, compose = item
    return capped_privacy_audit(data, domain, K, eps, caps, 0.5, 0.5, compose)


def _capped_audit(ctx, compose: bool) -> Bound:
    eps, K = ctx["epsilon"], ctx["n_quantiles"]
    caps = geometric_caps(0.25, ctx["n_caps"])
    domain = np.concatenate([[0.0], geometric_caps(0.125, ctx["n_caps"] + 2)])  # values beyond every cap
    datasets = _unbounded_datasets(ctx.rng, domain, ctx["n_samples"], ctx["n_datasets"])
    losses = ctx.map(_capped_audit_one, [(d, domain, K, eps, caps, compose) for d in datasets])
    return Bound(losses, eps, relation="<=", atol=1e-9,
                 why="float64 log-sum-exp over at most N + 1 terms (caps: n_caps terms), summed over K + 1 "
                     "mechanisms: rounding below 1e-12, allowance 1e-9",
                 quantity="worst privacy loss of (cap, quantiles) over all replace-one neighbours",
                 instances=[f"dataset {i}" for i in range(len(datasets))])


@claim(PAPER, role="headline", source="Abstract (pure DP for bounded and unbounded value distributions); the unbounded "
       "pipeline (private cap on a geometric grid, then quantiles below it) is reconstructed",
       evidence="bound", reconstructed_from="the abstract",
       params={"epsilon": Param(1.0, full=1.0, low=0.01, high=10.0, doc="privacy budget"),
               "n_quantiles": Param(2, full=3, low=1, high=32, doc="quantiles released (K)"),
               "n_samples": Param(4, full=6, low=1, high=100, doc="samples per dataset (N)"),
               "n_caps": Param(5, full=7, low=1, high=40, doc="caps 0.25 x 2^j of the public grid"),
               "n_datasets": Param(1, full=4, low=1, high=100, doc="random datasets audited (plus 2 adversarial)")},
       statement=r"For values with unbounded support, the release of a cap $H$ (exponential mechanism over a "
       r"public geometric grid, utility $-|\#\{x_i > H\} - N/(2(K+1))|$, budget $\varepsilon/2$) followed by "
       r"the $K$ quantiles on $[0, H]$ (budget $\varepsilon/(2K)$ each) is $(\varepsilon, 0)$-DP: "
       r"$\log p_D(H, o)/p_{D'}(H, o) \le \varepsilon$ for all neighbouring datasets and outputs.",
       method="Exact audit: for each output cap H, the cap's log-ratio plus the supremum of the quantiles' "
       "log-ratio given H (step densities, merged breakpoints); maximum over H, every replace-one neighbour "
       "with any domain value (including values above every cap), both directions.")
def unbounded_release_is_pure_dp(ctx):
    """The capped private-quantile release for unbounded values has privacy loss at most epsilon.

    The abstract covers unbounded distributions; the truncation by a privately chosen cap is our
    reconstruction (the paper's exact device could not be read).
    """
    return _capped_audit(ctx, True)


@unbounded_release_is_pure_dp.control("no budget split: the cap and every quantile each spend the whole epsilon")
def no_composition(ctx):
    return _capped_audit(ctx, False)


def unbounded_gap_trial(rng: np.random.Generator, sizes: np.ndarray, epsilon: float,
                        fixed_cap: float = 0.0, k_exponent: float = 0.5) -> np.ndarray:
    """OPT - expected revenue of the learned auction for bidders Exp(1) and LogNormal(0, 0.5), for
    each sample size N, with K = ceil(N^k_exponent) quantiles (1/2 in the claim); the cap is
    private, or ``fixed_cap`` when positive."""
    dists = [stats.expon(), stats.lognorm(0.5)]
    opt = _unbounded_opt()
    caps = geometric_caps(CAPS["smallest"], CAPS["n_caps"], CAPS["ratio"])
    out = []
    for n in sizes:
        K = int(np.ceil(n ** k_exponent))
        released = []
        for d in dists:
            x = d.rvs(size=int(n), random_state=rng)
            if fixed_cap > 0:
                released.append(private_quantiles(rng, x, K, epsilon, 0.0, fixed_cap))
            else:
                released.append(capped_private_quantiles(rng, x, K, epsilon, caps, 0.2)[1])
        out.append(opt - expected_revenue(quantile_auction(released), dists))
    return np.array(out)


@functools.cache
def _unbounded_opt() -> float:
    """Exact Myerson revenue of the bidders Exp(1) and LogNormal(0, 0.5) (computed once)."""
    return myerson_revenue([stats.expon(), stats.lognorm(0.5)])


UNBOUNDED_HALFWIDTH = 0.1


def _unbounded_rate(ctx, fixed_cap: float = 0.0, k_exponent: float = 0.5, repetitions: int | None = None) -> Rate:
    n_max, n_sizes = ctx["n_max"], ctx["n_sizes"]
    sizes = np.unique(np.round(np.logspace(np.log10(n_max / 100), np.log10(n_max), n_sizes)).astype(int))
    gaps = np.array(ctx.trials(unbounded_gap_trial, repetitions or ctx["repetitions"], sizes, ctx["epsilon"],
                                fixed_cap, k_exponent, label="samples"))
    tol = factor_slope(sizes, np.log(sizes))
    return Rate(np.broadcast_to(sizes, gaps.shape).ravel(), np.maximum(gaps, 1e-12).ravel(),
                exponent=-0.5, relation="<=", tolerance=tol, max_halfwidth=UNBOUNDED_HALFWIDTH,
                why="reconstructed rate O~(N^(-1/2)) as for bounded values (the private cap costs a constant "
                    f"share of the budget); one ln N factor raises the slope fitted on [{sizes[0]}, {sizes[-1]}] "
                    f"by its least-squares slope over these sizes, {tol:.3f}; the half-width limit "
                    f"{UNBOUNDED_HALFWIDTH} makes the check separate -1/2 from any exponent above "
                    f"-1/2 + {tol:.3f} + {UNBOUNDED_HALFWIDTH} = {-0.5 + tol + UNBOUNDED_HALFWIDTH:.2f} "
                    "(such a rate is refuted or left inconclusive, never verified)",
                size_name="N (samples per bidder)", cost_name="OPT - revenue of the learned auction")


@claim(PAPER, role="headline", source="Abstract (near-optimal revenue, bounded and unbounded distributions); the cap, the rate "
       "and K = sqrt(N) are reconstructed", evidence="rate", reconstructed_from="the abstract",
       params={"epsilon": Param(4.0, full=4.0, low=0.1, high=10.0, doc="privacy budget"),
               "n_max": Param(10000, full=20000, low=1000, high=10**5,
                              doc="largest sample size per bidder; fit on [n_max/100, n_max]"),
               "n_sizes": Param(5, full=6, low=3, high=20, doc="log-spaced sample sizes"),
               "repetitions": Param(32, full=48, low=2, high=1000, doc="independent repetitions (trials)")},
       statement=r"For unbounded bidders $\mathrm{Exp}(1)$ and $\mathrm{LogNormal}(0, 0.5^2)$ and fixed "
       r"$\varepsilon = 4$, the auction released from privately capped quantiles ($K = \lceil\sqrt N\rceil$) "
       r"has $\mathrm{OPT} - \mathbb E[\mathrm{Rev}] = \tilde O(N^{-1/2})$ in the number $N$ of samples per "
       r"bidder (OPT: the exact Myerson revenue).",
       method="Independent repetitions in parallel; for each N (two decades) the released auction's exact expected "
       "revenue under the true distributions (Myerson's lemma) against OPT; log-log slope of the gap against -1/2, "
       "with an allowance of one ln N factor and a half-width limit of 0.1, so that a rate slower than about "
       "N^(-1/4) cannot pass.")
def unbounded_revenue_gap_vanishes(ctx):
    """With unbounded values, the private auction's revenue loss still shrinks like N^(-1/2).

    The cap adapts to the data privately; the rate is our reconstruction of "near-optimal".
    """
    return _unbounded_rate(ctx)


@unbounded_revenue_gap_vanishes.control(
    "too few quantiles, K = ceil(N^(1/6)) instead of ceil(sqrt N): the quantisation error of the released "
    "distributions then decays slower than N^(-1/2) (a genuinely slower rate, not a plateau)")
def slowly_growing_quantile_count(ctx):
    return _unbounded_rate(ctx, k_exponent=1.0 / 6.0)


@unbounded_revenue_gap_vanishes.control(
    "a fixed public cap H = 1 instead of a private, data-driven cap (the gap plateaus; a sixth of the "
    "repetitions suffice)")
def fixed_cap(ctx):
    return _unbounded_rate(ctx, fixed_cap=1.0, repetitions=max(2, ctx["repetitions"] // 6))


# --------------------------------------------------------------------------- repeated (online) auctions
def _repeated_one(item) -> float:
    data, domain, eps, values, noise_factor = item
    return repeated_auction_audit(data, domain, 0.5, eps, 0.0, 1.0, values, noise_factor)


def _repeated(ctx, noise_factor: float) -> Bound:
    eps, n = ctx["epsilon"], ctx["n_samples"]
    domain = np.linspace(0.0, 1.0, ctx["domain_size"])
    values = np.concatenate([np.geomspace(1e-3, 0.05, 8), np.linspace(0.1, 1.0, ctx["n_values"])])
    datasets = [ctx.rng.choice(domain, size=n) for _ in range(ctx["n_datasets"])]
    datasets += [np.full(n, domain[-1]), np.where(np.arange(n) < (n + 1) // 2, domain[1], domain[-1])]
    losses = ctx.map(_repeated_one, [(d, domain, eps, values, noise_factor) for d in datasets])
    return Bound(losses, eps, relation="<=", atol=1e-9,
                 why="closed-form integrals of a step density, float64: rounding below 1e-12, allowance 1e-9",
                 quantity="largest |log E_D'[u_v] / E_D[u_v]| over one changed past bid and future values v",
                 instances=[f"past bids {i}" for i in range(len(datasets))])


@claim(PAPER, role="supporting", source="Abstract (extension to multi-round online auctions with non-myopic bidders); the "
       "repeated posted-price round and the incentive bound are reconstructed", evidence="bound",
       reconstructed_from="the abstract",
       params={"epsilon": Param(1.0, full=1.0, low=0.01, high=10.0, doc="privacy budget of each round's release"),
               "n_samples": Param(5, full=8, low=1, high=100, doc="past bids the price is learned from (N)"),
               "domain_size": Param(12, full=32, low=2, high=256, doc="values a past bid may take on [0, 1]"),
               "n_values": Param(10, full=40, low=1, high=1000, doc="future values v on a grid of [0.1, 1]"),
               "n_datasets": Param(2, full=8, low=1, high=100, doc="random past-bid datasets (plus 2 adversarial)")},
       statement=r"In a repeated auction where each round's price is the private median of past bids "
       r"(exponential mechanism, budget $\varepsilon$), changing one past bid changes a bidder's expected "
       r"utility $\mathbb E[(v - P)^+]$ in a later round by at most a factor $e^{\varepsilon}$, for every "
       r"value $v$: a non-myopic bidder's gain from a past misreport is at most $(e^\varepsilon - 1)$ times "
       r"its future utility.",
       method="Exact: the price's step density gives E[(v - P)^+] in closed form on each cell; the largest "
       "|log ratio| over every replace-one neighbour of the past bids (any domain value) and a grid of future "
       "values (including values near 0, where the ratio approaches the density ratio).")
def past_bids_move_future_utility_little(ctx):
    """One misreported past bid moves a bidder's future expected utility by at most e^epsilon.

    The pure DP of each round's release (post-processing) is what makes the multi-round auction
    approximately truthful for non-myopic bidders; the repeated posted-price setting is ours.
    """
    return _repeated(ctx, 0.5)


@past_bids_move_future_utility_little.control("half the required noise in the price release (exponent epsilon u)")
def half_noise_price(ctx):
    return _repeated(ctx, 1.0)
