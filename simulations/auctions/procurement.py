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
from scipy import sparse

SetFunction = Callable[[frozenset], float]


class WeightedCoverage:
    r"""Weighted coverage $f(S) = \sum_j w_j [\exists i \in S: i \text{ covers } j]$ (monotone submodular).

    Sellers are rows of a 0/1 incidence matrix of shape ``(n, m)`` (``m`` items), dense for small
    instances and sparse (scipy CSR) for large ones, so the marginal gains of all sellers at once
    cost one matrix-vector product.

    Args:
        covers: for each seller, the item indices it covers; weights: item weights, shape
            ``(m,)``, non-negative.

    Raises:
        ValueError: on a negative weight or an item index out of range.
    """

    DENSE_LIMIT = 4_000_000  # entries of the incidence matrix kept dense

    def __init__(self, covers: Sequence[Sequence[int]], weights: Sequence[float]) -> None:
        w = np.asarray(weights, dtype=float).ravel()
        if np.any(w < 0):
            raise ValueError("item weights must be non-negative")
        rows, cols = [], []
        for i, c in enumerate(covers):
            idx = np.unique(np.asarray(list(c), dtype=int))
            if idx.size and (idx.min() < 0 or idx.max() >= w.size):
                raise ValueError(f"seller {i} covers an item index out of range 0..{w.size - 1}")
            rows.append(np.full(idx.size, i))
            cols.append(idx)
        r = np.concatenate(rows) if rows else np.zeros(0, int)
        c = np.concatenate(cols) if cols else np.zeros(0, int)
        shape = (len(covers), w.size)
        if shape[0] * shape[1] <= self.DENSE_LIMIT:
            self.incidence = np.zeros(shape)
            self.incidence[r, c] = 1.0
        else:
            self.incidence = sparse.csr_matrix((np.ones(r.size), (r, c)), shape=shape)
        self.weights = w

    @property
    def n_sellers(self) -> int:
        return self.incidence.shape[0]

    def covered(self, S) -> np.ndarray:
        """Boolean mask, shape ``(m,)``, of the items covered by the sellers in ``S``."""
        idx = sorted(S)
        if not idx:
            return np.zeros(self.weights.size, dtype=bool)
        return np.asarray(self.incidence[idx].sum(axis=0)).ravel() > 0

    def __call__(self, S) -> float:
        return float(self.weights[self.covered(S)].sum())

    def marginal_gains(self, S) -> np.ndarray:
        """$f(S + e) - f(S)$ for every seller $e$ (0 for members of ``S``), shape ``(n,)``."""
        return np.asarray(self.incidence @ np.where(self.covered(S), 0.0, self.weights)).ravel()

    def scaled(self, factor: float) -> WeightedCoverage:
        """The same coverage with every weight multiplied by ``factor`` (> 0)."""
        if not factor > 0:
            raise ValueError("the scale factor must be positive")
        out = object.__new__(WeightedCoverage)
        out.incidence, out.weights = self.incidence, self.weights * float(factor)
        return out


def weighted_coverage(covers: Sequence[Sequence[int]], weights: Sequence[float]) -> WeightedCoverage:
    """The weighted coverage function of ``covers`` and ``weights`` (see :class:`WeightedCoverage`)."""
    return WeightedCoverage(covers, weights)


def _all_gains(f: SetFunction, S: frozenset, n: int) -> np.ndarray:
    if hasattr(f, "marginal_gains"):
        return np.asarray(f.marginal_gains(S), dtype=float)
    fS = f(S)
    return np.array([0.0 if e in S else f(S | {e}) - fS for e in range(n)])


def distorted_greedy(f: SetFunction, costs: Sequence[float], k: int) -> frozenset:
    r"""Distorted greedy of Harshaw, Feldman, Ward & Karbasi (ICML 2019) for $\max f(S) - c(S)$, $|S| \le k$.

    At step $t = 0..k-1$ it adds the seller maximising $(1 - 1/k)^{k-t-1} f(e \mid S) - c_e$ when
    that score is positive.  Ties go to the lower index (a fixed order, which keeps the
    allocation monotone in each bid).

    Args:
        f: monotone submodular set function (a :class:`WeightedCoverage` is evaluated in one
            sparse product per step); costs: shape ``(n,)``, non-negative; k: cardinality limit.

    Returns:
        The selected set, ``|S| <= k``.

    Raises:
        ValueError: for ``k < 1`` or negative costs.
    """
    c = np.asarray(costs, dtype=float)
    if k < 1 or np.any(c < 0):
        raise ValueError("need k >= 1 and non-negative costs")
    S: frozenset = frozenset()
    for t in range(k):
        scale = (1.0 - 1.0 / k) ** (k - t - 1)
        score = scale * _all_gains(f, S, c.size) - c
        if S:
            score[sorted(S)] = -np.inf
        who = int(np.argmax(score))
        if score[who] > 0:
            S = S | {who}
    return S


def cost_blind_greedy(f: SetFunction, costs: Sequence[float], k: int) -> frozenset:
    """Plain greedy on $f$ alone (costs ignored; ties to the lower index): a deliberately broken
    algorithm for controls."""
    n = len(costs)
    S: frozenset = frozenset()
    for _ in range(min(k, n)):
        gains = _all_gains(f, S, n)
        if S:
            gains[sorted(S)] = -np.inf
        S = S | {int(np.argmax(gains))}
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


def auctioneer_surplus(f: SetFunction, allocate: Callable[[np.ndarray], frozenset], bids: np.ndarray,
                       high: float) -> float:
    """Surplus $f(S) - \\sum_{i \\in S} p_i$ of the auctioneer under threshold payments $p_i$.

    Args:
        f: the auctioneer's value; allocate: the allocation rule on bids (monotone in each bid);
        bids: shape ``(n,)``; high: a bid above every threshold (bisection range).

    Non-negative surplus (NAS) holds for distorted greedy: a seller bidding above its cost can
    only be selected at a later step, against a larger set, with a distortion at most 1, so its
    threshold is at most its marginal value when selected, and the marginal values sum to
    $f(S)$ (our derivation of the property the paper states for its mechanisms).
    """
    S = allocate(np.asarray(bids, dtype=float))
    return f(S) - sum(threshold_payment(allocate, np.asarray(bids, dtype=float), i, high) for i in S)


def bicriteria_alpha(beta: float) -> float:
    r"""The welfare factor $\alpha(\beta) = 1 - e^{-\beta}$ of the bi-criteria family
    $f(S) - c(S) \ge \alpha(\beta) f(O) - \beta\, c(O)$, $0 < \beta \le 1$ (our reading of the
    paper's "continuum of bi-criteria approximation guarantees" of distorted greedy).

    Distorted greedy's potential $\Phi_t = (1 - 1/k)^{k-t} f(S_t) - c(S_t)$ never decreases, and
    over its last $m$ steps it gains at least $(1 - (1 - 1/k)^m) f(O) - (m/k) c(O)$; at
    $\beta = m / k$ that is at least $1 - e^{-\beta}$, and the guarantee is linear in
    $(\alpha, \beta)$, so chords between these points cover the curve.

    Any ``beta >= 0`` is accepted (controls use ``beta > 1``, where no such guarantee holds:
    with zero costs it would beat the $1 - 1/e$ limit of greedy).

    Raises:
        ValueError: for negative ``beta``.
    """
    if beta < 0:
        raise ValueError("beta must be non-negative")
    return float(-np.expm1(-beta))


def greedy_tight_instance(k: int, total_cost: float, tie_margin: float = 1e-9
                          ) -> tuple[WeightedCoverage, np.ndarray, frozenset]:
    r"""The greedy-tight coverage instance with costs, on which distorted greedy attains the
    bi-criteria curve $f(S) - c(S) = (1 - e^{-\beta}) f(O) - \beta\, c(O)$ as $k \to \infty$.

    $k$ "good" sellers cover disjoint slices of total value $f(O) = 1$ and cost
    ``total_cost`` $/k$ each ($c(O) =$ ``total_cost`` $= C$).  Decoy $j = 0..m-1$ covers the
    fraction $(1 - 1/k)^j / k$ of every slice (disjoint pieces), so after $j$ decoys each good
    seller and the next decoy both add $(1 - 1/k)^j / k$; each decoy also covers a private item
    worth ``tie_margin`` times that, so decoys win every tie, and costs what a good seller costs.
    Distorted greedy idles while $(1 - 1/k)^{k-t-1}/k \le C/k$ (every score is at most 0), then
    takes the $m$ decoys, $m$ the number of steps with a positive score.  Its welfare,
    $(1 + \text{tie\_margin})(1 - (1 - 1/k)^m) - mC/k$, tends to $1 - C + C \ln C$ as
    $k \to \infty$; at $C = e^{-\beta}$ that is $(1 - e^{-\beta}) - \beta e^{-\beta}$, the
    curve's value for $O$.  With $C = 0$ it is the classical instance on which greedy reaches
    $1 - (1 - 1/k)^k \to 1 - 1/e$ of the optimum (Nemhauser, Wolsey & Fisher 1978).
    (Construction ours, from the classical one.)

    Args:
        k: cardinality limit and number of good sellers (>= 2); total_cost: $C \in [0, 1)$;
        tie_margin: relative bonus of the decoys (>= 0; float rounding of the gains, about
            1e-16, must stay below it).

    Returns:
        ``(f, costs, O)``: sellers ``0..m-1`` are the decoys, ``m..m+k-1`` the good set ``O``.

    Raises:
        ValueError: for ``k < 2``, ``total_cost`` outside [0, 1) or a negative ``tie_margin``.
    """
    if k < 2 or not 0.0 <= total_cost < 1.0 or not tie_margin >= 0.0:
        raise ValueError("need k >= 2, total_cost in [0, 1) and tie_margin >= 0")
    c = total_cost / k
    scale = (1.0 - 1.0 / k) ** (k - 1 - np.arange(k))
    m = int(np.sum(scale / k * (1.0 + tie_margin) - c > 0))  # steps where a decoy's score is positive
    gains = (1.0 - 1.0 / k) ** np.arange(m) / k   # decoy j's gain in O's slices, also each good seller's then
    remainder = 1.0 - gains.sum()
    # item (j, i) = piece j of slice i (index j k + i); pieces j = m are the uncovered remainders;
    # items (m + 1) k + j are the decoys' private bonus items
    weights = np.concatenate([np.repeat(gains / k, k), np.full(k, remainder / k), tie_margin * gains])
    bonus = (m + 1) * k
    decoys = [[*range(j * k, (j + 1) * k), bonus + j] for j in range(m)]
    good = [range(i, (m + 1) * k, k) for i in range(k)]
    f = WeightedCoverage(decoys + good, weights)
    return f, np.full(m + k, c), frozenset(range(m, m + k))


def two_seller_instance(cost_a: float, cost_b: float) -> tuple[WeightedCoverage, np.ndarray]:
    r"""Two sellers offering the same service (one item of value 1), costs ``cost_a`` and ``cost_b``.

    With the half-marginal rule and seller A offered first, A is bought at price 1/2 whenever
    ``cost_a`` $\le 1/2$, after which B adds nothing: welfare $1 - c_A$ against
    $\tfrac12 f(O) - c(O) = \tfrac12 - c_B$ for $O = \{B\}$, an equality at $c_A = 1/2$,
    $c_B = 0$; a rule that buys at a factor $\phi > 1/2$ of the marginal value violates the
    $(1/2, 1)$ guarantee at $c_A = \phi$, $c_B = 0$.

    Raises:
        ValueError: for negative costs.
    """
    if cost_a < 0 or cost_b < 0:
        raise ValueError("costs must be non-negative")
    return WeightedCoverage([[0], [0]], [1.0]), np.array([float(cost_a), float(cost_b)])


def descending_auction(f: SetFunction, costs: Sequence[float], rng: np.random.Generator | None, factor: float = 0.5,
                       start: float | None = None, max_moves: int = 100_000,
                       schedule: str = "random") -> tuple[frozenset, dict[int, float]]:
    r"""Descending clock auction built on the threshold rule "buy $e$ once its price is at most
    ``factor`` $\times\, f(e \mid S)$", under a random (adversary-like) price schedule.

    Every seller's price starts at ``start`` (default: above every singleton value) and only
    decreases.  At each move the schedule picks an active seller at random and lowers its price
    continuously by a random amount (all the way down with probability 1/2); on the way the seller
    is bought at the price ``factor * f(e | S)`` (``S`` the sellers bought so far) if that is at
    least its cost, or quits when the price would fall below its cost (staying in while the
    price covers the cost is the sellers' dominant strategy).  With ``factor = 1/2`` the rule is
    a $(1/2, 1)$ bi-criteria algorithm in any arrival order: $c(S) \le f(S)/2$, and a seller
    $o$ that quits has $f(o \mid S) < 2 c_o$, so $f(O) \le f(S) + 2 c(O)$ (our reconstruction of
    the paper's descending-auction conversion).

    ``schedule="adversarial"`` replaces the random schedule by a greedy adversary: it lowers, all
    the way, the price of the least efficient seller that would be bought (largest
    $c_e / f(e \mid S)$), and only when no active seller would be bought lets the others quit
    (deterministic: ``rng`` may be None).

    Returns:
        ``(S, payments)``: the sellers bought and the price each was paid.

    Raises:
        ValueError: for negative costs, ``factor <= 0`` or an unknown schedule; RuntimeError if
            the auction has not ended after ``max_moves`` moves.
    """
    c = np.asarray(costs, dtype=float)
    if np.any(c < 0) or not factor > 0 or schedule not in ("random", "adversarial"):
        raise ValueError("need non-negative costs, factor > 0 and a random or adversarial schedule")
    if rng is None and schedule == "random":
        raise ValueError("a random schedule needs a generator (rng)")
    n = c.size
    top = start if start is not None else 2.0 * max(f(frozenset({i})) for i in range(n)) + 1.0
    price = np.full(n, float(top))
    active = set(range(n))
    S: frozenset = frozenset()
    paid: dict[int, float] = {}
    for _ in range(max_moves):
        if not active:
            return S, paid
        if schedule == "adversarial":
            fS = f(S)
            gain = {i: f(S | {i}) - fS for i in sorted(active)}
            buyable = [i for i in gain if factor * gain[i] >= c[i] and gain[i] > 0]
            e = max(buyable, key=lambda i: c[i] / gain[i]) if buyable else min(active)
        else:
            e = int(rng.choice(sorted(active)))
        buy_at = factor * (f(S | {e}) - f(S))
        floor = max(buy_at, c[e])  # the price stops at the first event: a purchase or the exit
        full = schedule == "adversarial" or rng.random() < 0.5
        target = floor if full else price[e] - rng.random() * (price[e] - floor)
        price[e] = target
        if target <= floor:
            active.discard(e)
            if buy_at >= c[e] and buy_at > 0:  # a seller adding nothing is never bought
                S = S | {e}
                paid[e] = float(buy_at)
    raise RuntimeError("the descending auction did not end")


def online_posted_prices(f: SetFunction, bids: Sequence[float], order: Sequence[int],
                         factor: float = 0.5) -> tuple[frozenset, dict[int, float]]:
    r"""Online procurement with posted prices: sellers arrive in ``order`` and seller $e$ is offered
    the price ``factor`` $\times f(e \mid S)$ ($S$ the sellers bought before it), accepted
    (irrevocably) iff its bid is at most the price.

    The price does not depend on the seller's own bid, so bidding the cost is dominant and a
    seller is never paid below its bid (IC, IR); the auctioneer pays ``factor`` times the value
    it gains, so its surplus is $(1 - \text{factor}) f(S) \ge 0$ (NAS) for ``factor <= 1``; with
    ``factor = 1/2`` the rule is the $(1/2, 1)$ online algorithm (see :func:`descending_auction`).

    Returns:
        ``(S, payments)``.

    Raises:
        ValueError: if ``order`` is not a permutation of the sellers or ``factor <= 0``.
    """
    b = np.asarray(bids, dtype=float)
    if sorted(int(i) for i in order) != list(range(b.size)) or not factor > 0:
        raise ValueError("order must be a permutation of the sellers and factor > 0")
    S: frozenset = frozenset()
    paid: dict[int, float] = {}
    for e in order:
        price = factor * (f(S | {int(e)}) - f(S))
        if price > 0 and b[e] <= price:
            S = S | {int(e)}
            paid[int(e)] = float(price)
    return S, paid


def least_efficient_first(f: SetFunction, costs: Sequence[float], factor: float = 0.5) -> list[int]:
    """An adversarial arrival order: repeatedly the seller that would be bought with the largest
    cost-to-marginal-value ratio comes next (sellers that would not be bought come last)."""
    c = np.asarray(costs, dtype=float)
    left, order, S = set(range(c.size)), [], frozenset()
    while left:
        fS = f(S)
        gain = {i: f(S | {i}) - fS for i in sorted(left)}
        buyable = [i for i in gain if gain[i] > 0 and c[i] <= factor * gain[i]]
        if not buyable:
            order += sorted(left)
            break
        e = max(buyable, key=lambda i: c[i] / gain[i])
        order.append(e)
        left.discard(e)
        S = S | {e}
    return order
