r"""Deng, Karbasi, Mirrokni, Paes Leme, Velegkas & Zuo, "Procurement Auctions via Approximately
Optimal Submodular Optimization" (ICML 2025).

An auctioneer buys services from sellers with private costs; a set $S$ of sellers is worth a
known monotone submodular $f(S)$ and the goal is the welfare $f(S) - c(S)$.  The paper revisits
distorted greedy (Harshaw et al. 2019) and turns such algorithms into mechanisms that are
incentive compatible (IC), individually rational (IR) for the sellers and have non-negative
surplus (NAS) for the auctioneer.  Checked here: the $(1 - 1/e, 1)$ bi-criteria guarantee of
distorted greedy, the continuum $(1 - e^{-\beta}, \beta)$, $0 < \beta \le 1$ (our derivation of
the curve, which could not be read), and IC, IR and NAS of distorted greedy run on bids with
threshold payments (our reading of the payment construction), and the $(1/2, 1)$ guarantee of a
descending clock auction built on a threshold rule and of an online posted-price mechanism (our
reconstructions).
"""

from __future__ import annotations

import numpy as np

from simulations.auctions.procurement import (
    auctioneer_surplus,
    best_benchmark,
    bicriteria_alpha,
    cost_blind_greedy,
    descending_auction,
    distorted_greedy,
    greedy_tight_coverage,
    least_efficient_first,
    online_posted_prices,
    threshold_payment,
    weighted_coverage,
)
from workbench import Bound, Paper, Param, claim

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
        (r"A bi-criteria $(\alpha, 1)$ welfare algorithm with $\alpha > 1/2$ cannot in general be turned into a "
         r"descending auction under adversarially chosen price schedules (the $(1/2, 1)$ conversion is tight; "
         r"statement as reported by the research notes from the Google Research summary)",
         "an impossibility over all algorithms and all adversarial price schedules: no finite computation "
         "covers them", "supporting"),
    ),
)


def coverage_instance(rng: np.random.Generator, n: int, m: int, density: float):
    """Weighted coverage over ``m`` items (weights U[0, 1]), seller i covering each item w.p.
    ``density``; costs U[0, 1.5 x mean singleton value] (the notes' instance family)."""
    w = rng.uniform(0.0, 1.0, m)
    covers = [np.flatnonzero(rng.random(m) < density) for _ in range(n)]
    f = weighted_coverage(covers, w)
    single = np.array([f(frozenset({i})) for i in range(n)])
    costs = rng.uniform(0.0, 1.5 * single.mean(), n)
    return f, costs, float(single.max())


def guarantee_trial(rng: np.random.Generator, n: int, m: int, k: int, algorithm: str) -> tuple[float, float]:
    """(welfare of the algorithm's set, max over |O| <= k of (1 - 1/e) f(O) - c(O)) on one instance."""
    f, c, _ = coverage_instance(rng, n, m, 0.15)
    S = (distorted_greedy if algorithm == "distorted" else cost_blind_greedy)(f, c, k)
    return f(S) - float(c[list(S)].sum()), best_benchmark(f, c, k, 1.0 - 1.0 / np.e)


def _guarantee(ctx, algorithm: str) -> Bound:
    res = np.array(ctx.trials(guarantee_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["k"], algorithm,
                              label="coverage instances"))
    return Bound(res[:, 0], res[:, 1], relation=">=", atol=1e-9,
                 why="sums of at most m float64 item weights: rounding below 1e-12, allowance 1e-9",
                 quantity="f(S) - c(S) of the algorithm against max_{|O|<=k} (1-1/e) f(O) - c(O)",
                 instances=[f"instance {i}" for i in range(len(res))])


@claim(PAPER, role="background", source="Abstract (improved analysis of distorted greedy); the (1-1/e, 1) endpoint is "
       "Harshaw, Feldman, Ward & Karbasi (ICML 2019)", evidence="bound", reconstructed_from="the abstract",
       params={"n": Param(10, full=12, low=2, high=16, doc="sellers"),
               "m": Param(40, full=60, low=1, high=1000, doc="items of the weighted coverage function"),
               "k": Param(4, full=6, low=1, high=16, doc="cardinality limit |S| <= k"),
               "instances": Param(16, full=200, low=1, high=10**5, doc="random instances (trials)")},
       statement=r"For monotone submodular $f$ and costs $c \ge 0$, distorted greedy returns $|S| \le k$ with "
       r"$f(S) - c(S) \ge (1 - 1/e)\, f(O) - c(O)$ for every $|O| \le k$.",
       method="Random weighted-coverage instances (trials in parallel); the right-hand side is maximised "
       "exactly over all sets of at most k sellers; zero violations allowed.")
def distorted_greedy_bicriteria(ctx):
    """Distorted greedy meets the (1 - 1/e, 1) bi-criteria welfare guarantee on every instance.

    The classical endpoint of the paper's continuum of guarantees (the continuum's curve could
    not be read); the benchmark is exact enumeration.
    """
    return _guarantee(ctx, "distorted")


@distorted_greedy_bicriteria.control("the algorithm ignores the costs (plain greedy on f)")
def cost_blind(ctx):
    return _guarantee(ctx, "blind")


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


@claim(PAPER, role="background", source="Abstract (IC and IR mechanisms from submodular algorithms); "
       "payment construction reconstructed as threshold payments", evidence="bound", reconstructed_from="the abstract",
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

    IC and IR are the paper's stated properties of its mechanisms; the mechanism checked is the
    threshold-payment version of distorted greedy (our reading of "preserving the allocation
    while carefully constructing payments"); non-negative surplus is the next claim.
    """
    return _mechanism(ctx, "threshold")


@threshold_mechanism_is_truthful.control("pay-as-bid payments instead of threshold payments")
def pay_as_bid(ctx):
    return _mechanism(ctx, "pay_as_bid")


# --------------------------------------------------------------------------- continuum of guarantees
def continuum_trial(rng: np.random.Generator, n: int, m: int, k: int, beta: float) -> tuple[float, float]:
    """(welfare of distorted greedy, max over |O| <= k of alpha(beta) f(O) - beta c(O)) on one
    random coverage instance with costs up to 1.5 x the mean singleton value."""
    f, c, _ = coverage_instance(rng, n, m, 0.15)
    S = distorted_greedy(f, c, k)
    return f(S) - float(c[list(S)].sum()), best_benchmark_bicriteria(f, c, k, beta)


def best_benchmark_bicriteria(f, c: np.ndarray, k: int, beta: float) -> float:
    """max over |O| <= k of alpha(beta) f(O) - beta c(O), by enumeration (scaled costs)."""
    return beta * best_benchmark(f, np.asarray(c), k, bicriteria_alpha(beta) / beta) if beta > 0 else 0.0


def _continuum(ctx, beta: float) -> Bound:
    res = np.array(ctx.trials(continuum_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["k"], beta,
                              label="coverage instances"))
    f, c, k = greedy_tight_coverage()
    S = distorted_greedy(f, c, k)
    tight = (f(S) - float(c[list(S)].sum()), best_benchmark_bicriteria(f, c, k, beta))
    res = np.vstack([res, tight])
    labels = [f"instance {i}" for i in range(len(res) - 1)] + ["greedy-tight coverage (k = 2, zero costs)"]
    return Bound(res[:, 0], res[:, 1], relation=">=", atol=1e-9,
                 why="sums of at most m float64 item weights: rounding below 1e-12, allowance 1e-9",
                 quantity=f"f(S) - c(S) of distorted greedy against max_(|O|<=k) (1 - e^-beta) f(O) - beta c(O), "
                          f"beta = {beta}",
                 instances=labels)


@claim(PAPER, role="headline", source="Abstract and ICML poster (distorted greedy satisfies a continuum of bi-criteria guarantees); "
       "the curve alpha(beta) = 1 - e^-beta is our derivation", evidence="bound", reconstructed_from="the abstract",
       params={"beta": Param(0.5, full=0.5, low=0.01, high=1.0, doc="cost factor of the bi-criteria guarantee"),
               "n": Param(10, full=12, low=2, high=16, doc="sellers"),
               "m": Param(40, full=60, low=1, high=1000, doc="items of the weighted coverage function"),
               "k": Param(4, full=6, low=1, high=16, doc="cardinality limit |S| <= k"),
               "instances": Param(12, full=200, low=1, high=10**5, doc="random instances (trials)")},
       sweeps=({"beta": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]},),
       statement=r"For monotone submodular $f$, costs $c \ge 0$ and every $\beta \in (0, 1]$, distorted greedy "
       r"returns $|S| \le k$ with $f(S) - c(S) \ge (1 - e^{-\beta})\, f(O) - \beta\, c(O)$ for every "
       r"$|O| \le k$ (checked at $\beta = 0.5$; the declared sweep covers $\beta = 0.1, \dots, 1$).",
       method="Random weighted-coverage instances (trials in parallel) plus a greedy-tight coverage instance; "
       "the right-hand side is maximised exactly over all sets of at most k sellers; zero violations allowed.")
def distorted_greedy_continuum(ctx):
    """Distorted greedy meets every guarantee (1 - e^-beta, beta), 0 < beta <= 1, of the continuum.

    Proof sketch (ours): the potential (1 - 1/k)^(k - t) f(S_t) - c(S_t) never decreases and
    gains at least (1 - (1 - 1/k)^m) f(O) - (m / k) c(O) over the last m steps.
    """
    return _continuum(ctx, ctx["beta"])


@distorted_greedy_continuum.control("beta = 2 > 1, outside the continuum (it would beat the 1 - 1/e limit of greedy)")
def beyond_the_continuum(ctx):
    return _continuum(ctx, 2.0)


# --------------------------------------------------------------------------- non-negative surplus
def surplus_trial(rng: np.random.Generator, n: int, m: int, k: int, value_scale: float) -> float:
    """Auctioneer's surplus f(S) - sum of threshold payments on one instance; the allocation runs
    distorted greedy on ``value_scale`` x f (1 for the mechanism)."""
    f, costs, vmax = coverage_instance(rng, n, m, 0.3)
    scaled = f if value_scale == 1.0 else (lambda S: value_scale * f(S))

    def allocate(bids):
        return distorted_greedy(scaled, bids, k)

    return auctioneer_surplus(f, allocate, costs, value_scale * vmax + 1.0)


def _surplus(ctx, value_scale: float) -> Bound:
    s = np.array(ctx.trials(surplus_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["k"], value_scale,
                            label="procurement instances"))
    return Bound(s, 0.0, relation=">=", atol=1e-8,
                 why="each threshold is found by bisection to 1e-10 and at most k are summed; allowance 1e-8",
                 quantity="auctioneer's surplus f(S) - sum_i p_i under threshold payments",
                 instances=[f"instance {i}" for i in range(s.size)])


@claim(PAPER, role="supporting", source="Abstract (mechanisms are NAS for the auctioneer); the mechanism is reconstructed as "
       "distorted greedy with threshold payments", evidence="bound", reconstructed_from="the abstract",
       params={"n": Param(6, full=8, low=2, high=16, doc="sellers"),
               "m": Param(30, full=40, low=1, high=1000, doc="items of the weighted coverage function"),
               "k": Param(3, full=4, low=1, high=16, doc="cardinality limit"),
               "instances": Param(24, full=200, low=1, high=10**4, doc="random instances (trials)")},
       statement=r"Running distorted greedy on the bids and paying each selected seller its threshold bid "
       r"yields non-negative surplus for the auctioneer: $f(S) - \sum_{i \in S} \theta_i(b_{-i}) \ge 0$.",
       method="Random coverage instances (trials in parallel); thresholds by bisection to 1e-10; zero violations "
       "allowed. Reason (ours): a seller bidding above its cost can only be picked at a later step, against a "
       "larger set, with distortion <= 1, so its threshold is at most its marginal value when picked.")
def threshold_payments_leave_nonnegative_surplus(ctx):
    """The auctioneer never pays more than the value it procures (NAS).

    The paper's NAS property, checked for the threshold-payment mechanism built on distorted
    greedy (our reading of its payment construction).
    """
    return _surplus(ctx, 1.0)


@threshold_payments_leave_nonnegative_surplus.control(
    "the allocation over-weights value (distorted greedy on 2 f), so thresholds exceed marginal values")
def inflated_value(ctx):
    return _surplus(ctx, 2.0)


# --------------------------------------------------------------------------- descending auctions
def descending_trial(rng: np.random.Generator, n: int, m: int, schedules: int, factor: float) -> np.ndarray:
    """Per price schedule (``schedules`` random ones and a greedy adversary) on one instance:
    welfare f(S) - c(S) of the descending auction minus max over all O of f(O)/2 - c(O)."""
    f, c, _ = coverage_instance(rng, n, m, 0.3)
    bench = best_benchmark(f, c, n, 0.5)
    out = []
    for j in range(schedules + 1):  # random schedules, then the greedy adversary
        S, _ = descending_auction(f, c, rng, factor, schedule="random" if j < schedules else "adversarial")
        out.append(f(S) - float(c[list(S)].sum()) - bench)
    return np.array(out)


def _descending(ctx, factor: float) -> Bound:
    gaps = np.concatenate(ctx.trials(descending_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["schedules"],
                                     factor, label="procurement instances"))
    return Bound(gaps, 0.0, relation=">=", atol=1e-9,
                 why="sums of at most m float64 item weights and n prices: rounding below 1e-12, allowance 1e-9",
                 quantity="f(S) - c(S) - max_O (f(O)/2 - c(O)) per price schedule",
                 instances=[f"schedule {i}" for i in range(gaps.size)])


@claim(PAPER, role="headline", source="Abstract (a bi-criteria (1/2, 1) algorithm can be adapted into a descending auction under "
       "adversarial price schedules); the auction and the threshold rule are reconstructed", evidence="bound",
       reconstructed_from="the abstract",
       params={"n": Param(8, full=10, low=2, high=14, doc="sellers"),
               "m": Param(30, full=40, low=1, high=1000, doc="items of the weighted coverage function"),
               "instances": Param(40, full=200, low=1, high=10**4, doc="random instances (trials)"),
               "schedules": Param(3, full=5, low=1, high=100, doc="random price schedules per instance")},
       statement=r"In the descending clock auction where each seller's price only decreases along an arbitrary "
       r"schedule, sellers stay in while the price covers their cost, and a seller is bought as soon as its "
       r"price is at most $f(e \mid S)/2$, the outcome satisfies $f(S) - c(S) \ge \tfrac12 f(O) - c(O)$ for "
       r"every set $O$ of sellers.",
       method="Random coverage instances, random price schedules and a greedy adversary that first buys the "
       "least efficient eligible seller (trials in parallel); the right-hand side is maximised exactly over "
       "all subsets; zero violations allowed.")
def descending_auction_keeps_half_guarantee(ctx):
    """The descending auction built on the (1/2, 1) threshold rule keeps the (1/2, 1) guarantee.

    Reason (ours): payments are half the marginal values, so c(S) <= f(S)/2, and a seller that
    quits has marginal value below twice its cost, so f(O) <= f(S) + 2 c(O).
    """
    return _descending(ctx, 0.5)


@descending_auction_keeps_half_guarantee.control(
    "buy at the full marginal value (the (1, 1) rule, alpha > 1/2), which an adversarial schedule defeats")
def full_marginal_rule(ctx):
    return _descending(ctx, 1.0)


# --------------------------------------------------------------------------- online setting
def online_trial(rng: np.random.Generator, n: int, m: int, orders: int, factor: float) -> np.ndarray:
    """Per arrival order (``orders`` random ones, then the least-efficient-first adversary) on one
    instance: welfare of the online posted-price mechanism minus max over all O of f(O)/2 - c(O)."""
    f, c, _ = coverage_instance(rng, n, m, 0.3)
    bench = best_benchmark(f, c, n, 0.5)
    sequences = [rng.permutation(n) for _ in range(orders)] + [least_efficient_first(f, c, factor)]
    out = []
    for order in sequences:
        S, _ = online_posted_prices(f, c, order, factor)
        out.append(f(S) - float(c[list(S)].sum()) - bench)
    return np.array(out)


def _online(ctx, factor: float) -> Bound:
    gaps = np.concatenate(ctx.trials(online_trial, ctx["instances"], ctx["n"], ctx["m"], ctx["orders"], factor,
                                     label="procurement instances"))
    return Bound(gaps, 0.0, relation=">=", atol=1e-9,
                 why="sums of at most m float64 item weights and n prices: rounding below 1e-12, allowance 1e-9",
                 quantity="f(S) - c(S) - max_O (f(O)/2 - c(O)) per arrival order",
                 instances=[f"order {i}" for i in range(gaps.size)])


@claim(PAPER, role="headline", source="Abstract (online setting: sellers arrive in adversarial order, irrevocable decisions; "
       "mechanisms keep the approximation); the posted-price mechanism is reconstructed", evidence="bound",
       reconstructed_from="the abstract",
       params={"n": Param(8, full=10, low=2, high=14, doc="sellers"),
               "m": Param(30, full=40, low=1, high=1000, doc="items of the weighted coverage function"),
               "instances": Param(40, full=200, low=1, high=10**4, doc="random instances (trials)"),
               "orders": Param(3, full=5, low=1, high=100, doc="random arrival orders per instance")},
       statement=r"Online, with sellers arriving in any order and each offered the posted price "
       r"$f(e \mid S)/2$ (bought iff its bid is at most the price), the mechanism is truthful, individually "
       r"rational, has surplus $f(S)/2 \ge 0$, and its welfare satisfies $f(S) - c(S) \ge \tfrac12 f(O) - c(O)$ "
       r"for every set $O$ of sellers (checked: the welfare guarantee).",
       method="Random coverage instances, random arrival orders and the least-efficient-first adversarial order "
       "(trials in parallel); the right-hand side is maximised exactly over all subsets; zero violations allowed. "
       "IC, IR and NAS hold by construction (the price ignores the own bid; payments are half the value gained).")
def online_posted_prices_keep_half_guarantee(ctx):
    """The online posted-price mechanism keeps the (1/2, 1) welfare guarantee in every arrival order.

    Reason (ours): payments are half the marginal values, so c(S) <= f(S)/2, and a rejected seller
    has marginal value below twice its cost, so f(O) <= f(S) + 2 c(O).
    """
    return _online(ctx, 0.5)


@online_posted_prices_keep_half_guarantee.control(
    "posted price equal to the full marginal value (alpha > 1/2), defeated by the adversarial order")
def full_marginal_price(ctx):
    return _online(ctx, 1.0)
