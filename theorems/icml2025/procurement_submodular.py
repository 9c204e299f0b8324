r"""Deng, Karbasi, Mirrokni, Paes Leme, Velegkas & Zuo, "Procurement Auctions via Approximately
Optimal Submodular Optimization" (ICML 2025).

An auctioneer buys services from sellers with private costs; a set $S$ of sellers is worth a
known monotone submodular $f(S)$ and the goal is the welfare $f(S) - c(S)$.  The paper gives an
improved analysis of distorted greedy (Harshaw et al. 2019): a continuum of bi-criteria
guarantees; it turns such algorithms into mechanisms that are incentive compatible (IC),
individually rational (IR) for the sellers, have non-negative surplus (NAS) for the auctioneer
and keep the approximation, offline and online; and it shows that a bi-criteria $(1/2, 1)$
algorithm can be run as a descending auction under adversarial price schedules.  Only the
abstract, the ICML poster summary and the opening of the paper could be read, so the curve of the
continuum, the payment construction and the two $(1/2, 1)$ rules are our readings; every check is
run where its bound binds: the greedy-tight coverage family with costs (on which the curve
$1 - e^{-\beta}$ is attained, so no stronger continuum holds for distorted greedy), sellers without
competition (NAS), the two-seller instance of the $(1/2, 1)$ rule, and adversarial searches.
"""

from __future__ import annotations

import functools

import numpy as np

from simulations.auctions.procurement import (
    auctioneer_surplus,
    best_benchmark,
    bicriteria_alpha,
    cost_blind_greedy,
    descending_auction,
    distorted_greedy,
    greedy_tight_instance,
    least_efficient_first,
    online_posted_prices,
    threshold_payment,
    two_seller_instance,
    weighted_coverage,
)
from workbench import Bound, NearMiss, NotChecked, Paper, Param, claim

ABSTRACT = "the abstract (ICML 2025 camera-ready and arXiv 2411.13513v1)"
POSTER = ("the ICML 2025 poster summary, https://dev.icml.cc/virtual/2025/poster/44284 (\"this algorithm "
          "satisfies a continuum of bi-criteria approximation guarantees, which we later leverage in mechanism "
          "design\"; \"preserve the allocation behavior of the original algorithm while carefully constructing "
          "payments\")")

PAPER = Paper(
    slug="procurement_submodular",
    title="Procurement Auctions via Approximately Optimal Submodular Optimization",
    authors=("Yuan Deng", "Amin Karbasi", "Vahab Mirrokni", "Renato Paes Leme", "Grigoris Velegkas",
             "Song Zuo"),
    venue="ICML 2025",
    year=2025,
    arxiv="2411.13513",
    identifier="OpenReview js3gePctLu; PMLR 267",
    url="https://openreview.net/forum?id=js3gePctLu",
    not_checked=(
        NotChecked(r"The frameworks turn any submodular optimization algorithm (of the required kind) into a "
                   r"mechanism that is IC, IR, NAS and keeps its approximation guarantee, offline and online",
                   "a statement over all algorithms; it is checked here for two instantiations (distorted greedy "
                   "with threshold payments offline, the half-marginal posted price online), and the framework's "
                   "own construction could not be read", "headline"),
        NotChecked(r"A bi-criteria $(\alpha, 1)$ welfare algorithm with $\alpha > 1/2$ cannot in general be turned "
                   r"into a descending auction under adversarially chosen price schedules",
                   "an impossibility over all algorithms and all adversarial schedules: no finite computation "
                   "covers them (for the half-marginal rule itself, buying at 0.55 of the marginal value is "
                   "refuted below)", "supporting"),
        NotChecked(r"With adversarial price schedules, a perfectly optimal demand oracle can lead to poor welfare, "
                   r"whereas approximate greedy oracles can sometimes do better",
                   "an existence statement whose instance and demand-oracle protocol are not in the public "
                   "summary; without them there is nothing to compute", "supporting"),
        NotChecked(r"A connection between descending auctions and online submodular optimization",
                   "a qualitative statement with no quantity to compute", "supporting"),
        NotChecked(r"Experiments: the frameworks instantiated with several submodular algorithms on public "
                   r"datasets with thousands of sellers",
                   "the datasets are not available on this machine (nothing is downloaded at run time), and "
                   "the comparison is empirical, with no claimed number", "supporting"),
    ),
)


def coverage_instance(rng: np.random.Generator, n: int, m: int, density: float):
    """Weighted coverage over ``m`` items (weights U[0, 1]), seller i covering each item w.p.
    ``density``; costs U[0, 1.5 x mean singleton value].  Returns ``(f, costs, largest singleton)``."""
    w = rng.uniform(0.0, 1.0, m)
    covers = [np.flatnonzero(rng.random(m) < density) for _ in range(n)]
    f = weighted_coverage(covers, w)
    single = np.array([f(frozenset({i})) for i in range(n)])
    costs = rng.uniform(0.0, 1.5 * single.mean(), n)
    return f, costs, float(single.max())


def welfare(f, costs: np.ndarray, S: frozenset) -> float:
    """f(S) - c(S)."""
    return f(S) - float(np.asarray(costs)[sorted(S)].sum())


ROUNDING = "sums of at most a few thousand float64 item weights and costs: rounding below 1e-12, allowance 1e-9"


# --------------------------------------------------------------------------- the continuum of guarantees
BETAS = (0.1, 0.25, 0.5, 0.75, 1.0)


def tight_family_row(k: int, beta: float, alpha_scale: float = 1.0) -> tuple[float, float]:
    """(welfare of distorted greedy, alpha_scale (1 - e^-beta) f(O) - beta c(O)) on the greedy-tight
    instance with c(O) = e^-beta (:func:`greedy_tight_instance`), beta > 0."""
    f, c, good = greedy_tight_instance(k, float(np.exp(-beta)))
    S = distorted_greedy(f, c, k)
    return welfare(f, c, S), alpha_scale * bicriteria_alpha(beta) * f(good) - beta * float(c[sorted(good)].sum())


def searched_row(params: dict, alpha_scale: float = 1.0) -> tuple[float, float]:
    """One instance of the adversarial search: the greedy-tight construction with k good sellers,
    their total cost C = min(0.95, rho e^-beta) (rho = 1 is the tight choice) and the guarantee at
    beta; returns (welfare, alpha_scale (1 - e^-beta) f(O) - beta c(O))."""
    k, beta, rho = int(params["k"]), float(params["beta"]), float(params["rho"])
    f, c, good = greedy_tight_instance(k, min(0.95, rho * float(np.exp(-beta))))
    S = distorted_greedy(f, c, k)
    return welfare(f, c, S), alpha_scale * bicriteria_alpha(beta) * f(good) - beta * float(c[sorted(good)].sum())


def random_row(rng: np.random.Generator, n: int, m: int, k: int, betas: tuple, alpha_scale: float
               ) -> tuple[float, float, float]:
    """(welfare of distorted greedy, max over |O| <= k of alpha f(O) - beta c(O), beta) on a random
    coverage instance with beta drawn from ``betas``, the maximum by enumeration."""
    beta = float(rng.choice(betas))
    f, c, _ = coverage_instance(rng, n, m, 0.15)
    S = distorted_greedy(f, c, k)
    alpha = alpha_scale * bicriteria_alpha(beta)
    return welfare(f, c, S), beta * best_benchmark(f, c, k, alpha / beta), beta


def _continuum(ctx, alpha_scale: float, beta_max: float) -> Bound:
    k = ctx["k"]
    betas = [beta_max * b for b in BETAS]
    rows = [tight_family_row(k, b, alpha_scale) for b in betas]
    labels = [f"greedy-tight family, k = {k}, beta = {b:.3g}" for b in betas]
    search = ctx.worst_case(functools.partial(searched_row, alpha_scale=alpha_scale),
                            {"k": (2, ctx["search_k"], "int"), "beta": (0.05, beta_max), "rho": (0.25, 4.0, "log")},
                            evaluations=ctx["evaluations"], relation=">=", label="continuum")
    rand = np.array(ctx.trials(random_row, ctx["instances"], ctx["n"], ctx["m"], ctx["n"] // 2, tuple(betas),
                               alpha_scale, label="random instances"))
    measured = np.concatenate([[r[0] for r in rows], search.measured, rand[:, 0]])
    bound = np.concatenate([[r[1] for r in rows], search.bound, rand[:, 1]])
    labels += [f"searched: {s}" for s in search.instances]
    labels += [f"random coverage {i}, n = {ctx['n']}, k = {ctx['n'] // 2}, beta = {b:.3g}"
               for i, b in enumerate(rand[:, 2])]
    keep = bound > 0  # distorted greedy only adds sellers worth more than their cost, so f(S) - c(S) >= 0
    return Bound(measured[keep], bound[keep], relation=">=", atol=1e-9, why=ROUNDING,
                 quantity="f(S) - c(S) of distorted greedy against (1 - e^-beta) f(O) - beta c(O)",
                 instances=[s for s, kp in zip(labels, keep, strict=True) if kp],
                 found_by=f"the greedy-tight family with costs at beta = "
                 f"{', '.join(f'{b:.3g}' for b in betas)}; {search.method}; random coverage instances with the "
                 "benchmark maximised over all |O| <= k; instances whose right-hand side is at most 0 are met by "
                 "any outcome of distorted greedy (it only adds sellers worth more than their cost) and left out")


@claim(PAPER, role="headline",
       source="Abstract (\"an improved analysis of existing algorithms for non-positive submodular function "
       "maximization\") and the poster summary (distorted greedy \"satisfies a continuum of bi-criteria approximation "
       "guarantees\"); the curve is our reading",
       reconstructed_from=POSTER + "; the curve alpha(beta) = 1 - e^-beta from distorted greedy's potential "
       "(Harshaw et al. 2019); the greedy-tight family shows that no larger alpha(beta) holds for distorted greedy, so "
       "the paper's continuum can be no stronger",
       evidence="bound",
       params={"k": Param(100, full=300, low=2, high=2000, doc="cardinality limit of the greedy-tight family"),
               "search_k": Param(30, full=80, low=3, high=500, doc="largest k of the adversarial search"),
               "evaluations": Param(80, full=600, low=10, high=10**5, doc="instances the adversarial search evaluates"),
               "n": Param(9, full=12, low=2, high=16, doc="sellers of the random instances"),
               "m": Param(40, full=60, low=1, high=1000, doc="items of the random instances"),
               "instances": Param(5, full=40, low=1, high=10**4, doc="random instances"),
               "alpha_scale": Param(1.0, low=0.1, high=10.0, doc="factor on the claimed alpha(beta) (1: the claim)"),
               "beta_max": Param(1.0, low=0.1, high=10.0, doc="largest beta checked (the grid scales with it)")},
       statement=r"For monotone submodular $f$, costs $c \ge 0$ and a cardinality limit $k$, distorted greedy "
       r"returns $|S| \le k$ with $f(S) - c(S) \ge (1 - e^{-\beta})\, f(O) - \beta\, c(O)$ for every $|O| \le k$ "
       r"and every $\beta \in (0, 1]$; the curve is attained as $k \to \infty$, so no larger "
       r"$\alpha(\beta)$ holds for distorted greedy.",
       method="The greedy-tight coverage family with costs (k good sellers of total cost e^-beta, decoys that win every "
       "tie) at five values of beta, where distorted greedy's welfare tends to the curve's value for O; an adversarial "
       "search over the family's k, beta and cost (differential evolution); random coverage instances with the "
       "right-hand side maximised over all |O| <= k.  Zero violations allowed.")
def distorted_greedy_continuum(ctx):
    r"""Distorted greedy meets every guarantee $(1 - e^{-\beta}, \beta)$, $0 < \beta \le 1$, and the
    greedy-tight family attains it.

    Why it holds (ours): the potential $(1 - 1/k)^{k-t} f(S_t) - c(S_t)$ never decreases and gains at
    least $(1 - (1 - 1/k)^m) f(O) - (m/k) c(O)$ over the last $m$ steps; at $\beta = m/k$ this is
    at least $1 - e^{-\beta}$.  On the family distorted greedy idles until its distortion exceeds
    the cost, then takes decoys only; its welfare tends to $1 - e^{-\beta} - \beta e^{-\beta}$.
    """
    return _continuum(ctx, ctx["alpha_scale"], ctx["beta_max"])


distorted_greedy_continuum.control(
    "alpha(beta) 10 % above the curve, (1.1 (1 - e^-beta), beta): the greedy-tight family violates it",
    params={"alpha_scale": 1.1}, near_miss=True)
distorted_greedy_continuum.control(
    "beta up to 2, beyond the continuum (it would beat the 1 - 1/e limit of greedy without costs)",
    params={"beta_max": 2.0})


# --------------------------------------------------------------------------- the (1 - 1/e, 1) endpoint
def guarantee_trial(rng: np.random.Generator, n: int, m: int, k: int, algorithm: str) -> tuple[float, float]:
    """(welfare of the algorithm's set, max over |O| <= k of (1 - 1/e) f(O) - c(O)) on one instance."""
    f, c, _ = coverage_instance(rng, n, m, 0.15)
    S = (distorted_greedy if algorithm == "distorted" else cost_blind_greedy)(f, c, k)
    return welfare(f, c, S), best_benchmark(f, c, k, 1.0 - 1.0 / np.e)


def _guarantee(ctx, algorithm: str) -> Bound:
    res = np.array(ctx.trials(guarantee_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["k"], algorithm,
                              label="coverage instances"))
    labels = [f"random coverage {i}" for i in range(len(res))]
    tight = []
    for k in (10, 50, ctx["tight_k"]):
        f, c, good = greedy_tight_instance(k, 0.0)
        S = (distorted_greedy if algorithm == "distorted" else cost_blind_greedy)(f, c, k)
        tight.append((welfare(f, c, S), (1.0 - 1.0 / np.e) * f(good)))
        labels.append(f"greedy-tight family without costs, k = {k}")
    res = np.vstack([res, tight])
    keep = res[:, 1] > 0  # a benchmark of 0 is met by the empty set
    return Bound(res[keep, 0], res[keep, 1], relation=">=", atol=1e-9, why=ROUNDING,
                 quantity=r"$f(S) - c(S)$ of the algorithm against $\max_{|O|\le k} (1-1/e) f(O) - c(O)$",
                 instances=[s for s, kp in zip(labels, keep, strict=True) if kp],
                 found_by="random coverage instances (benchmark by enumeration) and the classical greedy-tight "
                 "family without costs, on which greedy reaches 1 - (1 - 1/k)^k of the optimum")


@claim(PAPER, role="background", source="Harshaw, Feldman, Ward & Karbasi (ICML 2019), the (1-1/e, 1) guarantee of "
       "distorted greedy: the beta = 1 end of the paper's continuum",
       evidence="bound",
       params={"n": Param(10, full=12, low=2, high=16, doc="sellers"),
               "m": Param(40, full=60, low=1, high=1000, doc="items of the weighted coverage function"),
               "k": Param(4, full=6, low=1, high=16, doc="cardinality limit |S| <= k"),
               "tight_k": Param(200, full=1000, low=2, high=5000, doc="largest k of the greedy-tight family"),
               "instances": Param(12, full=200, low=1, high=10**5, doc="random instances (trials)")},
       statement=r"For monotone submodular $f$ and costs $c \ge 0$, distorted greedy returns $|S| \le k$ with "
       r"$f(S) - c(S) \ge (1 - 1/e)\, f(O) - c(O)$ for every $|O| \le k$.",
       method="Random weighted-coverage instances (right-hand side maximised over all sets of at most k sellers) and "
       "the classical greedy-tight family without costs, where the bound binds as k grows; zero violations allowed.")
def distorted_greedy_bicriteria(ctx):
    """Distorted greedy meets the (1 - 1/e, 1) bi-criteria welfare guarantee on every instance.

    The earlier result the paper improves on (its beta = 1 end); shown as background.
    """
    return _guarantee(ctx, "distorted")


@distorted_greedy_bicriteria.control("the algorithm ignores the costs (plain greedy on f)")
def cost_blind(ctx):
    return _guarantee(ctx, "blind")


# --------------------------------------------------------------------------- IC and IR (Myerson's lemma)
def mechanism_trial(rng: np.random.Generator, n: int, m: int, k: int, n_dev: int, rule: str) -> np.ndarray:
    """Worst of (best misreport gain, -truthful utility) per seller of one instance.

    The allocation is distorted greedy on the bids; a selected seller is paid its threshold bid
    (the largest bid with which it is still selected, found by bisection; it depends on the
    others' bids only), or its bid under ``rule="pay_as_bid"``.
    """
    f, costs, vmax = coverage_instance(rng, n, m, 0.3)
    high = vmax + 1.0  # no seller is selected above its largest marginal value

    def allocate(bids):
        return distorted_greedy(f, bids, k)

    out = np.empty(n)
    devs = np.linspace(0.0, high, n_dev)
    for i in range(n):
        truthful_sel = i in allocate(costs)
        theta = threshold_payment(allocate, costs, i, high) if truthful_sel else None
        if theta is None:
            # the threshold for the others' bids, if some bid wins at all
            winning = [b for b in devs if i in allocate(np.where(np.arange(n) == i, b, costs))]
            if winning:
                probe = costs.copy()
                probe[i] = winning[0]
                theta = threshold_payment(allocate, probe, i, high)
        u_true = _utility(allocate, costs, i, costs[i], theta, rule)
        tries = np.append(devs, [theta] if theta is not None else [])
        gain = max(_utility(allocate, costs, i, b, theta, rule) for b in tries) - u_true
        out[i] = max(gain, -u_true)
    return out


def _utility(allocate, costs: np.ndarray, i: int, bid: float, theta: float | None, rule: str) -> float:
    """Seller i's utility when bidding ``bid`` (others truthful): payment minus cost if selected."""
    bids = costs.copy()
    bids[i] = bid
    if i not in allocate(bids):
        return 0.0
    return (bid if rule == "pay_as_bid" else theta) - costs[i]


def _mechanism(ctx, rule: str) -> Bound:
    worst = np.concatenate(ctx.trials(mechanism_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["k"],
                                      ctx["n_dev"], rule, label="procurement instances"))
    return Bound(worst, 0.0, relation="<=", atol=1e-8,
                 why="thresholds found by bisection to 1e-10; utilities compare them with costs, "
                     "allowance 1e-8",
                 quantity="max(best misreport gain, -truthful utility) per seller",
                 instances=[f"seller {j}" for j in range(worst.size)])


@claim(PAPER, role="background",
       source="Myerson (1981), Archer & Tardos (2001): a monotone allocation with threshold payments is IC and IR; "
       "applied to distorted greedy run on bids (the paper states IC and IR of its mechanisms)",
       evidence="bound",
       near_miss=NearMiss.none("IC and IR are yes/no properties with no constant: the claimed bound is 0 gain; the "
                               "pay-as-bid control is the break"),
       params={"n": Param(6, full=8, low=2, high=16, doc="sellers"),
               "m": Param(30, full=40, low=1, high=1000, doc="items of the weighted coverage function"),
               "k": Param(3, full=4, low=1, high=16, doc="cardinality limit"),
               "n_dev": Param(25, full=81, low=2, high=10**4, doc="misreports tried per seller"),
               "instances": Param(3, full=16, low=1, high=10**4, doc="random instances (trials)")},
       statement=r"Running distorted greedy on the bids and paying each selected seller its threshold "
       r"bid $\theta_i(b_{-i}) = \sup\{b : i \in S(b, b_{-i})\}$ is incentive compatible and individually "
       r"rational: $u_i(b, c_{-i}) \le u_i(c_i, c_{-i})$ for all misreports $b$, and $u_i(c) \ge 0$.",
       method="For random instances (in parallel), every seller tries a grid of misreports plus its "
       "threshold; thresholds by bisection to 1e-10. Zero violations allowed.")
def threshold_mechanism_is_truthful(ctx):
    """No seller gains by misreporting its cost, and truthful sellers never lose.

    Myerson's lemma once distorted greedy's allocation is monotone in each bid (a lower bid
    raises the seller's score at every step and leaves the earlier steps unchanged).
    """
    return _mechanism(ctx, "threshold")


@threshold_mechanism_is_truthful.control("pay-as-bid payments instead of threshold payments")
def pay_as_bid(ctx):
    return _mechanism(ctx, "pay_as_bid")


# --------------------------------------------------------------------------- non-negative surplus
def payment_row(f, costs: np.ndarray, k: int, value_scale: float) -> tuple[float, float]:
    """(sum of threshold payments, f(S)) when distorted greedy runs on ``value_scale`` x f and the bids."""
    g = f.scaled(value_scale) if value_scale != 1.0 else f

    def allocate(bids):
        return distorted_greedy(g, bids, k)

    S = allocate(costs)
    high = value_scale * max(f(frozenset({i})) for i in range(costs.size)) + 1.0
    surplus = auctioneer_surplus(f, allocate, costs, high)
    return f(S) - surplus, f(S)


def no_competition_row(params: dict, value_scale: float = 1.0) -> tuple[float, float]:
    """Sellers with disjoint services of values ``1 + i a`` and costs ``c (1 + i a)``, ``k`` of them
    bought at most: with k >= n nobody competes and every threshold is the whole marginal value."""
    n, k, a, c = int(params["n"]), int(params["k"]), float(params["spread"]), float(params["cost"])
    values = 1.0 + a * np.arange(n)
    f = weighted_coverage([[i] for i in range(n)], values)
    return payment_row(f, c * values, k, value_scale)


def random_payment_row(rng: np.random.Generator, n: int, m: int, k: int, value_scale: float) -> tuple[float, float]:
    f, costs, _ = coverage_instance(rng, n, m, 0.3)
    return payment_row(f, costs, k, value_scale)


def _surplus(ctx, value_scale: float) -> Bound:
    search = ctx.worst_case(functools.partial(no_competition_row, value_scale=value_scale),
                            {"n": (1, 5, "int"), "k": (1, 5, "int"), "spread": (0.0, 1.0), "cost": (0.0, 0.9)},
                            evaluations=ctx["evaluations"], relation="<=", label="surplus")
    rand = np.array(ctx.trials(random_payment_row, ctx["instances"], ctx["n"], ctx["m"], ctx["k"], value_scale,
                               label="procurement instances"))
    measured = np.concatenate([search.measured, rand[:, 0]])
    bound = np.concatenate([search.bound, rand[:, 1]])
    keep = bound > 0  # nobody bought: nothing paid, nothing to compare
    labels = [f"searched: {s}" for s in search.instances] + [f"random coverage {i}" for i in range(len(rand))]
    return Bound(measured[keep], bound[keep], relation="<=", atol=1e-8,
                 why="each threshold is found by bisection to 1e-10 and at most k are summed; allowance 1e-8",
                 quantity="sum of the threshold payments against the value f(S) procured",
                 instances=[s for s, kp in zip(labels, keep, strict=True) if kp],
                 found_by=f"{search.method}, over sellers with disjoint services; random coverage instances")


@claim(PAPER, role="headline", source="Abstract (the mechanisms generate non-negative surplus for the auctioneer); "
       "the mechanism is distorted greedy on the bids with threshold payments",
       reconstructed_from=ABSTRACT + " and " + POSTER + "; threshold payments are our reading of \"carefully "
       "constructing payments\"",
       evidence="bound",
       params={"n": Param(6, full=8, low=2, high=16, doc="sellers of the random instances"),
               "m": Param(30, full=40, low=1, high=1000, doc="items of the random instances"),
               "k": Param(3, full=4, low=1, high=16, doc="cardinality limit of the random instances"),
               "evaluations": Param(40, full=200, low=10, high=10**4, doc="instances the adversarial search evaluates"),
               "instances": Param(5, full=100, low=1, high=10**4, doc="random instances (trials)")},
       statement=r"Running distorted greedy on the bids and paying each selected seller its threshold bid "
       r"leaves the auctioneer a non-negative surplus: $\sum_{i \in S} \theta_i(b_{-i}) \le f(S)$; the bound "
       r"is attained when no seller faces competition.",
       method="An adversarial search over sellers with disjoint services (number of sellers, k, values and costs), "
       "where thresholds reach the whole marginal value, and random coverage instances; thresholds by bisection to "
       "1e-10; zero violations allowed.")
def threshold_payments_leave_nonnegative_surplus(ctx):
    r"""The auctioneer never pays more than the value it procures (NAS), and with no competition it
    pays all of it.

    Why it holds (ours): raising one's bid can only delay one's selection to a later step, against
    a larger set, with a distortion at most 1, so the threshold is at most the marginal value
    $f(i \mid S_{t_i})$ at the original step; these marginal values sum to $f(S)$.
    """
    return _surplus(ctx, 1.0)


@threshold_payments_leave_nonnegative_surplus.control(
    "the allocation over-weights value by 10 % (distorted greedy on 1.1 f): thresholds exceed marginal values",
    near_miss=True)
def value_overweighted_by_a_tenth(ctx):
    return _surplus(ctx, 1.1)


@threshold_payments_leave_nonnegative_surplus.control(
    "the allocation over-weights value twofold (distorted greedy on 2 f)")
def value_overweighted_twofold(ctx):
    return _surplus(ctx, 2.0)



# --------------------------------------------------------------------------- the (1/2, 1) rule
def _half_benchmark(f, c: np.ndarray) -> float:
    return best_benchmark(f, c, c.size, 0.5)


def two_seller_descending(params: dict, factor: float = 0.5) -> tuple[float, float]:
    """(welfare, max_O f(O)/2 - c(O)) of the descending auction under the adversarial schedule on
    the two-seller instance (:func:`two_seller_instance`)."""
    f, c = two_seller_instance(params["cost_a"], params["cost_b"])
    S, _ = descending_auction(f, c, None, factor, schedule="adversarial")
    return welfare(f, c, S), _half_benchmark(f, c)


def two_seller_online(params: dict, factor: float = 0.5) -> tuple[float, float]:
    """(welfare, max_O f(O)/2 - c(O)) of the online posted prices in the least-efficient-first order on
    the two-seller instance."""
    f, c = two_seller_instance(params["cost_a"], params["cost_b"])
    S, _ = online_posted_prices(f, c, least_efficient_first(f, c, factor), factor)
    return welfare(f, c, S), _half_benchmark(f, c)


def descending_trial(rng: np.random.Generator, n: int, m: int, schedules: int, factor: float) -> np.ndarray:
    """Per price schedule (``schedules`` random ones and a greedy adversary) on one instance:
    (welfare of the descending auction, max over all O of f(O)/2 - c(O))."""
    f, c, _ = coverage_instance(rng, n, m, 0.3)
    bench = _half_benchmark(f, c)
    out = []
    for j in range(schedules + 1):  # random schedules, then the greedy adversary
        S, _ = descending_auction(f, c, rng, factor, schedule="random" if j < schedules else "adversarial")
        out.append((welfare(f, c, S), bench))
    return np.array(out)


def online_trial(rng: np.random.Generator, n: int, m: int, orders: int, factor: float) -> np.ndarray:
    """Per arrival order (``orders`` random ones, then the least-efficient-first adversary) on one
    instance: (welfare of the online posted-price mechanism, max over all O of f(O)/2 - c(O))."""
    f, c, _ = coverage_instance(rng, n, m, 0.3)
    bench = _half_benchmark(f, c)
    sequences = [rng.permutation(n) for _ in range(orders)] + [least_efficient_first(f, c, factor)]
    out = []
    for order in sequences:
        S, _ = online_posted_prices(f, c, order, factor)
        out.append((welfare(f, c, S), bench))
    return np.array(out)


def _half_rule(ctx, factor: float, setting: str) -> Bound:
    row = two_seller_descending if setting == "descending" else two_seller_online
    search = ctx.worst_case(functools.partial(row, factor=factor), {"cost_a": (0.0, 1.0), "cost_b": (0.0, 1.0)},
                            evaluations=ctx["evaluations"], relation=">=", label=setting)
    # the rule's own worst cases, derived: seller A's cost equal to the price it is offered (bought,
    # with B of cost 0 left out), and both costs between the price and 1/2 (both lost)
    derived = [{"cost_a": factor, "cost_b": 0.0}, {"cost_a": (factor + 0.5) / 2, "cost_b": (factor + 0.5) / 2}]
    fixed = np.array([row(p, factor=factor) for p in derived])
    trial = descending_trial if setting == "descending" else online_trial
    rand = np.concatenate(ctx.trials(trial, ctx["instances"], ctx["n"], ctx["m"], ctx["orders"], factor,
                                     label="procurement instances"))
    measured = np.concatenate([fixed[:, 0], search.measured, rand[:, 0]])
    bound = np.concatenate([fixed[:, 1], search.bound, rand[:, 1]])
    word = "schedule" if setting == "descending" else "order"
    labels = [f"two sellers, derived: cost_a={p['cost_a']:.4g}, cost_b={p['cost_b']:.4g}" for p in derived]
    labels += [f"two sellers, adversarial {word}: {s}" for s in search.instances]
    labels += [f"random coverage, {word} {i}" for i in range(len(rand))]
    keep = bound > 1e-12  # a benchmark of 0 is met by any outcome (the rule never buys at a loss)
    return Bound(measured[keep], bound[keep], relation=">=", atol=1e-9, why=ROUNDING,
                 quantity="f(S) - c(S) against max_O f(O)/2 - c(O)",
                 instances=[s for s, kp in zip(labels, keep, strict=True) if kp],
                 found_by=f"the two-seller instance at its derived worst costs; {search.method} (the two-seller "
                 f"instance); random coverage instances with random "
                 f"{word}s and an adversarial one; instances whose benchmark is 0 are met by any outcome and left out")


HALF_PARAMS = {
    "n": Param(8, full=10, low=2, high=14, doc="sellers of the random instances"),
    "m": Param(30, full=40, low=1, high=1000, doc="items of the random instances"),
    "instances": Param(5, full=200, low=1, high=10**4, doc="random instances (trials)"),
    "orders": Param(1, full=5, low=1, high=100, doc="random price schedules or arrival orders per instance"),
    "evaluations": Param(200, full=1000, low=10, high=10**5, doc="instances the adversarial search evaluates"),
    "factor": Param(0.5, low=0.01, high=2.0, doc="the rule buys at this factor of the marginal value (1/2: the claim)"),
}


@claim(PAPER, role="headline", source="Abstract (a bi-criteria (1/2, 1) algorithm can be adapted into a descending "
       "auction under adversarially chosen price schedules)",
       reconstructed_from=ABSTRACT + "; the clock auction and its half-marginal buying rule are our reading",
       evidence="bound", params=dict(HALF_PARAMS),
       statement=r"In the descending clock auction where each seller's price only decreases along an arbitrary "
       r"schedule, sellers stay in while the price covers their cost, and a seller is bought as soon as its "
       r"price is at most $f(e \mid S)/2$, the outcome satisfies $f(S) - c(S) \ge \tfrac12 f(O) - c(O)$ for "
       r"every set $O$ of sellers; two sellers of one service attain it with equality.",
       method="An adversarial search over the two costs of the two-seller instance under the adversarial schedule "
       "(it lowers first the least efficient seller that would be bought), and random coverage instances with random "
       "schedules and the adversary; the right-hand side maximised over all subsets; zero violations allowed.")
def descending_auction_keeps_half_guarantee(ctx):
    r"""The descending auction built on the $(1/2, 1)$ rule keeps the $(1/2, 1)$ guarantee, tightly.

    Why it holds (ours): payments are half the marginal values, so $c(S) \le f(S)/2$, and a seller
    that quits has marginal value below twice its cost, so $f(O) \le f(S) + 2 c(O)$.  Tight: seller A
    of cost 1/2 is lowered first and bought at 1/2; seller B of cost 0 then adds nothing.
    """
    return _half_rule(ctx, ctx["factor"], "descending")


descending_auction_keeps_half_guarantee.control(
    "buy at 0.55 of the marginal value, just above 1/2: the adversary sells the first seller at cost 0.55",
    params={"factor": 0.55}, near_miss=True)
descending_auction_keeps_half_guarantee.control(
    "buy at 0.45 of the marginal value, just below 1/2: a seller of cost just above 0.45 is lost",
    params={"factor": 0.45}, near_miss=True, name="factor_below_half")
descending_auction_keeps_half_guarantee.control(
    "buy at the full marginal value (the (1, 1) rule)", params={"factor": 1.0}, name="full_marginal_rule")


@claim(PAPER, role="headline", source="Abstract (online setting: sellers arrive in adversarial order, irrevocable "
       "decisions; the mechanisms are IC, IR, NAS and keep the approximation)",
       reconstructed_from=ABSTRACT + "; the posted-price mechanism and its half-marginal price are our reading",
       evidence="bound", params=dict(HALF_PARAMS),
       statement=r"Online, with sellers arriving in any order and each offered the posted price "
       r"$f(e \mid S)/2$ (bought iff its bid is at most the price), the mechanism is truthful, individually "
       r"rational, has surplus $f(S)/2 \ge 0$, and its welfare satisfies $f(S) - c(S) \ge \tfrac12 f(O) - c(O)$ "
       r"for every set $O$ of sellers, with equality for two sellers of one service (checked: the welfare guarantee).",
       method="An adversarial search over the two costs of the two-seller instance in the least-efficient-first "
       "order, and random coverage instances with random orders and that adversarial order; the right-hand side "
       "maximised over all subsets; zero violations allowed.  IC, IR and NAS hold by construction (the price ignores "
       "the own bid; payments are half the value gained).")
def online_posted_prices_keep_half_guarantee(ctx):
    r"""The online posted-price mechanism keeps the $(1/2, 1)$ welfare guarantee in every arrival
    order, tightly.

    Why it holds (ours): payments are half the marginal values, so $c(S) \le f(S)/2$, and a rejected
    seller has marginal value below twice its cost, so $f(O) \le f(S) + 2 c(O)$.
    """
    return _half_rule(ctx, ctx["factor"], "online")


online_posted_prices_keep_half_guarantee.control(
    "posted price at 0.55 of the marginal value, just above 1/2", params={"factor": 0.55}, near_miss=True)
online_posted_prices_keep_half_guarantee.control(
    "posted price at 0.45 of the marginal value, just below 1/2", params={"factor": 0.45}, near_miss=True,
    name="factor_below_half")
online_posted_prices_keep_half_guarantee.control(
    "posted price equal to the full marginal value", params={"factor": 1.0}, name="full_marginal_price")
