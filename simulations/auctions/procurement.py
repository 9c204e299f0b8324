r"""Procurement with a submodular value: distorted greedy and threshold-payment mechanisms.

An auctioneer buys services from sellers $1..n$ with private costs $c_i$; a set $S$ of
sellers is worth $f(S)$ for a monotone submodular $f$ (here weighted coverage).  The welfare is
$f(S) - c(S)$.  Distorted greedy (Harshaw, Feldman, Ward & Karbasi, ICML 2019)
adds at step $t = 0..k-1$ the element maximising
$(1 - 1/k)^{k - t - 1}\,(f(S + e) - f(S)) - c_e$ when that is positive, and guarantees
$f(S) - c(S) \ge (1 - 1/e)\,f(O) - c(O)$ for every $|O| \le k$.  Deng, Karbasi, Mirrokni, Paes
Leme, Velegkas & Zuo (ICML 2025) turn such algorithms run on *bids* into mechanisms; a seller's
allocation is monotone (non-increasing) in its own bid, so paying each selected seller its
threshold bid (the largest bid with which it is still selected) is truthful and individually
rational (Myerson 1981; Archer & Tardos 2001).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

SetFunction = Callable[[frozenset], float]


def weighted_coverage(covers: Sequence[Sequence[int]], weights: Sequence[float]) -> SetFunction:
    """$f(S) = \\sum$ of the weights of the items covered by the sellers in $S$ (monotone submodular).

    Args:
        covers: for each seller, the item indices it covers; weights: item weights (>= 0).

    Raises:
        ValueError: on a negative weight or an item index out of range.
    """
    w = np.asarray(weights, dtype=float)
    if np.any(w < 0):
        raise ValueError("item weights must be non-negative")
    masks = []
    for c in covers:
        m = np.zeros(w.size, dtype=bool)
        idx = np.asarray(list(c), dtype=int)
        if idx.size and (idx.min() < 0 or idx.max() >= w.size):
            raise ValueError("item index out of range")
        m[idx] = True
        masks.append(m)
    masks = np.array(masks)

    def f(S: frozenset) -> float:
        if not S:
            return 0.0
        return float(w[np.any(masks[sorted(S)], axis=0)].sum())

    return f


def distorted_greedy(f: SetFunction, costs: Sequence[float], k: int) -> frozenset:
    """Harshaw et al.'s distorted greedy for $\\max f(S) - c(S)$, $|S| \\le k$.

    Ties are broken towards the lower index (a fixed order, which keeps the allocation monotone
    in each bid).

    Raises:
        ValueError: for ``k < 1`` or negative costs.
    """
    c = np.asarray(costs, dtype=float)
    if k < 1 or np.any(c < 0):
        raise ValueError("need k >= 1 and non-negative costs")
    S: frozenset = frozenset()
    for t in range(k):
        scale = (1.0 - 1.0 / k) ** (k - t - 1)
        fS = f(S)
        best, who = 0.0, None
        for e in range(c.size):
            if e in S:
                continue
            score = scale * (f(S | {e}) - fS) - c[e]
            if score > best:
                best, who = score, e
        if who is not None:
            S = S | {who}
    return S


def cost_blind_greedy(f: SetFunction, costs: Sequence[float], k: int) -> frozenset:
    """Plain greedy on $f$ alone (costs ignored): a deliberately broken algorithm for controls."""
    S: frozenset = frozenset()
    for _ in range(k):
        gains = [(f(S | {e}) - f(S), -e) for e in range(len(costs)) if e not in S]
        if not gains:
            break
        g, e = max(gains)
        S = S | {-e}
    return S


def best_benchmark(f: SetFunction, costs: Sequence[float], k: int, alpha: float) -> float:
    """$\\max_{|O| \\le k} \\alpha f(O) - c(O)$ by enumeration of all subsets (small n only)."""
    c = np.asarray(costs, dtype=float)
    best = 0.0  # the empty set
    for size in range(1, k + 1):
        for subset in itertools.combinations(range(c.size), size):
            best = max(best, alpha * f(frozenset(subset)) - float(c[list(subset)].sum()))
    return best


def threshold_payment(allocate: Callable[[np.ndarray], frozenset], bids: np.ndarray, i: int,
                      high: float, tol: float = 1e-10) -> float:
    """Largest bid of seller ``i`` with which it is still selected, by bisection.

    Assumes the allocation is monotone in ``i``'s bid and that ``i`` is selected at ``bids``.

    Raises:
        ValueError: when ``i`` is not selected at ``bids``.
    """
    if i not in allocate(bids):
        raise ValueError(f"seller {i} is not selected at these bids")
    lo, hi = float(bids[i]), float(high)
    b = bids.copy()
    b[i] = hi
    if i in allocate(b):
        return hi
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        b[i] = mid
        if i in allocate(b):
            lo = mid
        else:
            hi = mid
    return lo


def seller_utility(allocate: Callable[[np.ndarray], frozenset], bids: np.ndarray, i: int, cost: float,
                   high: float, payment_rule: str = "threshold") -> float:
    """Utility ``payment - cost`` of seller ``i`` if selected, else 0.

    ``payment_rule="threshold"`` pays the threshold bid; ``"pay_as_bid"`` pays the bid (a
    first-price rule, not truthful; for negative controls).

    Raises:
        ValueError: on an unknown payment rule.
    """
    if payment_rule not in ("threshold", "pay_as_bid"):
        raise ValueError(f"unknown payment rule {payment_rule!r}")
    if i not in allocate(bids):
        return 0.0
    pay = float(bids[i]) if payment_rule == "pay_as_bid" else threshold_payment(allocate, bids, i, high)
    return pay - cost
