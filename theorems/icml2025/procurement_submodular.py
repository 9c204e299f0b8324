r"""Deng, Karbasi, Mirrokni, Paes Leme, Velegkas & Zuo, "Procurement Auctions via Approximately
Optimal Submodular Optimization" (ICML 2025).

An auctioneer buys services from sellers with private costs; a set $S$ of sellers is worth a
known monotone submodular $f(S)$ and the goal is the welfare $f(S) - c(S)$.  The paper revisits
distorted greedy (Harshaw et al. 2019) and turns such algorithms into mechanisms that are
incentive compatible (IC) and individually rational (IR) for the sellers.  Checked here: the
$(1 - 1/e, 1)$ bi-criteria guarantee of distorted greedy (the endpoint of the paper's continuum,
whose exact curve could not be read), and IC/IR of distorted greedy run on bids with threshold
payments.  Not checked: the continuum itself, non-negative surplus of the paper's payment
construction, the online setting and descending auctions.
"""

from __future__ import annotations

import numpy as np

from simulations.auctions.procurement import (
    best_benchmark,
    cost_blind_greedy,
    distorted_greedy,
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


@claim(PAPER, source="Abstract (improved analysis of distorted greedy); the (1-1/e, 1) endpoint is "
       "Harshaw, Feldman, Ward & Karbasi (ICML 2019)", evidence="bound", reconstructed=True,
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


@claim(PAPER, source="Abstract (IC and IR mechanisms from submodular algorithms); "
       "payment construction reconstructed as threshold payments", evidence="bound", reconstructed=True,
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
    while carefully constructing payments"); non-negative surplus is not checked.
    """
    return _mechanism(ctx, "threshold")


@threshold_mechanism_is_truthful.control("pay-as-bid payments instead of threshold payments")
def pay_as_bid(ctx):
    return _mechanism(ctx, "pay_as_bid")
