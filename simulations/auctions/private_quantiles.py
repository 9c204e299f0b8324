r"""Private quantile estimation by the exponential mechanism, its exact privacy audit, and the
private-quantile Myerson pipeline.

Quantile mechanism (Smith 2011; McSherry & Talwar 2007): data $x_1..x_N$ clipped to
$[\text{lower}, \text{upper}]$ and sorted, with $x_{(0)} = \text{lower}$ and
$x_{(N+1)} = \text{upper}$, cut the range into the $N + 1$ intervals $I_k = [x_{(k)},
x_{(k+1)}]$; the utility of $I_k$ for the quantile level $q$ is $u_k = -|k - qN|$ (sensitivity 1
under the replacement of one data point).  The mechanism picks $I_k$ with probability
$\propto |I_k| \exp(\varepsilon u_k / 2)$ and outputs a uniform point in it, so the output has
the piecewise-constant density $p_D(o) = \exp(\varepsilon u_{k(o)}/2) / Z_D$.  ``noise_factor``
is the $1/2$ in the exponent; a factor 1 is the textbook mistake with half the required
noise.  $K$ quantiles each at budget $\varepsilon/K$ compose to $\varepsilon$.

The pipeline of Yang, Xiao, Kumar & Morgenstern (ICLR 2025) as reconstructed here: per bidder,
release the private quantiles at levels $k/(K+1)$, treat them as a discrete distribution with
mass $1/K$ each, and run Myerson's auction for those distributions (post-processing, so the
auction is $\varepsilon$-DP in each bidder's samples).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .myerson import VirtualValueAuction, auction_from_curves, discrete_ironed_curve


def _check(data: np.ndarray, q: float, epsilon: float, lower: float, upper: float) -> np.ndarray:
    x = np.asarray(data, dtype=float).ravel()
    if x.size == 0:
        raise ValueError("need at least one data point")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile level must lie in [0, 1], got {q}")
    if not epsilon > 0:
        raise ValueError(f"epsilon must be positive, got {epsilon}")
    if not upper > lower:
        raise ValueError(f"need upper > lower, got [{lower}, {upper}]")
    return np.sort(np.clip(x, lower, upper))


def quantile_output_density(data: Sequence[float], q: float, epsilon: float, lower: float, upper: float,
                            noise_factor: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Exact output density of the exponential-mechanism quantile, as a step function.

    Args:
        data: the N data points (clipped to the range); q: quantile level in [0, 1];
        epsilon: privacy budget of this quantile (> 0); lower, upper: the public range;
        noise_factor: factor of epsilon in the exponent (1/2 is the private mechanism).

    Returns:
        ``(edges, log_density)``: edges of shape ``(N + 2,)`` (``lower``, the sorted data,
        ``upper``) and the log-density on each of the ``N + 1`` intervals (``-inf`` on empty
        intervals).

    Raises:
        ValueError: on empty data, q outside [0, 1], epsilon <= 0 or an empty range.
    """
    x = _check(data, q, epsilon, lower, upper)
    n = x.size
    edges = np.concatenate([[lower], x, [upper]])
    width = np.diff(edges)
    u = -np.abs(np.arange(n + 1) - q * n)
    with np.errstate(divide="ignore"):
        logw = np.log(width)
    log_z = np.logaddexp.reduce(logw + noise_factor * epsilon * u)  # numpy's ufunc: no per-call dispatch cost
    logd = np.where(width > 0, noise_factor * epsilon * u - log_z, -np.inf)
    return edges, logd


def sample_quantile(rng: np.random.Generator, data: Sequence[float], q: float, epsilon: float,
                    lower: float, upper: float, noise_factor: float = 0.5) -> float:
    """One draw of the private quantile (see :func:`quantile_output_density`)."""
    edges, logd = quantile_output_density(data, q, epsilon, lower, upper, noise_factor)
    width = np.diff(edges)
    with np.errstate(divide="ignore"):
        logp = logd + np.log(width)
    p = np.exp(logp - np.logaddexp.reduce(logp))
    k = rng.choice(p.size, p=p)
    return float(rng.uniform(edges[k], edges[k + 1]))


def _intervals_two_sided(width: np.ndarray, targets: np.ndarray, rate: float, u: np.ndarray) -> np.ndarray | None:
    r"""Interval indices drawn with probability $\propto w_j e^{-\text{rate}\,|j - t|}$, one per target $t$,
    by inverse CDF at the uniforms ``u``, in $O(N + K \log N)$.

    Left of $t$ the weight is $w_j e^{\text{rate}(j - c)} e^{-\text{rate}(t - c)}$, right of it
    $w_j e^{-\text{rate}(j - c)} e^{\text{rate}(t - c)}$ ($c = N/2$ keeps the exponents within
    float range), so one prefix sum and one suffix sum serve every target; the draw is the first
    index whose cumulative weight exceeds ``u`` times the total, as with an explicit CDF.  Returns
    None when ``rate * N`` is too large for the shifted exponentials (the caller then builds the
    CDFs explicitly).
    """
    m = width.size  # N + 1 intervals
    if rate * m > 1200:
        return None
    j = np.arange(m)
    c = 0.5 * (m - 1)
    left = np.cumsum(width * np.exp(rate * (j - c)))                 # A_k = sum_{i <= k}
    right = np.cumsum((width * np.exp(-rate * (j - c)))[::-1])[::-1]  # B_k = sum_{i >= k}
    right = np.append(right, 0.0)
    out = np.empty(targets.size, dtype=int)
    for i, (t, v) in enumerate(zip(targets, u, strict=True)):
        split = min(int(np.floor(t)), m - 1)
        lmass = np.exp(-rate * (t - c)) * left[split]
        rmass = np.exp(rate * (t - c)) * right[split + 1]
        x = v * (lmass + rmass)
        if x < lmass:
            k = int(np.searchsorted(left[: split + 1], x * np.exp(rate * (t - c)), side="right"))
        else:
            # first k > split with B_{split+1} - B_{k+1} > (x - lmass) e^{-rate (t - c)}
            need = right[split + 1] - (x - lmass) * np.exp(-rate * (t - c))
            tail = right[split + 2:]                                     # B_{k+1}, k = split+1..m-1, decreasing
            k = split + 1 + int(np.searchsorted(-tail, -need, side="right"))
        out[i] = min(k, m - 1)
    return out


def private_quantiles(rng: np.random.Generator, data: Sequence[float], n_quantiles: int, epsilon: float,
                      lower: float, upper: float, noise_factor: float = 0.5) -> np.ndarray:
    """Private quantiles at levels ``k / (K + 1)``, ``k = 1..K``, each at budget ``epsilon / K``.

    Each is one draw of :func:`sample_quantile`; the uniforms are consumed in the same order as K
    calls of it (one for the interval, one for the point in it, per quantile).  The intervals are
    drawn from one prefix and one suffix sum shared by all levels (``O(N + K log N)``), or from
    explicit CDFs when the exponents would leave float range.

    Returns:
        The K released values, sorted (sorting is post-processing).

    Raises:
        ValueError: for ``n_quantiles < 1`` or the errors of :func:`quantile_output_density`.
    """
    if n_quantiles < 1:
        raise ValueError(f"need at least one quantile, got {n_quantiles}")
    levels = np.arange(1, n_quantiles + 1) / (n_quantiles + 1)
    eps_each = epsilon / n_quantiles
    x = _check(data, levels[0], eps_each, lower, upper)
    n = x.size
    edges = np.concatenate([[lower], x, [upper]])
    width = np.diff(edges)
    u = rng.random((n_quantiles, 2))
    rate = noise_factor * eps_each
    k = _intervals_two_sided(width, levels * n, rate, u[:, 0])
    if k is None:
        with np.errstate(divide="ignore"):
            logp = np.log(width)[None, :] - rate * np.abs(np.arange(n + 1)[None, :] - levels[:, None] * n)
        cdf = np.cumsum(np.exp(logp - logp.max(axis=1, keepdims=True)), axis=1)
        cdf /= cdf[:, -1:]
        k = np.array([np.searchsorted(cdf_row, v, side="right") for cdf_row, v in zip(cdf, u[:, 0], strict=True)])
    return np.sort(edges[k] + (edges[k + 1] - edges[k]) * u[:, 1])


def max_log_ratio(data: Sequence[float], neighbour: Sequence[float], q: float, epsilon: float,
                  lower: float, upper: float, noise_factor: float = 0.5) -> float:
    r"""$\sup_o \log p_D(o) / p_{D'}(o)$ over outputs $o$ with $p_D(o) > 0$, exactly.

    Both densities are step functions; the supremum is a maximum over the cells of the merged
    breakpoints (``inf`` when $D$ can output a point that $D'$ cannot).
    """
    e1, l1 = quantile_output_density(data, q, epsilon, lower, upper, noise_factor)
    e2, l2 = quantile_output_density(neighbour, q, epsilon, lower, upper, noise_factor)
    cuts = np.unique(np.concatenate([e1, e2]))
    mids = 0.5 * (cuts[:-1] + cuts[1:])
    k1 = np.clip(np.searchsorted(e1, mids, side="right") - 1, 0, l1.size - 1)
    k2 = np.clip(np.searchsorted(e2, mids, side="right") - 1, 0, l2.size - 1)
    a, b = l1[k1], l2[k2]
    live = np.isfinite(a)
    if np.any(live & ~np.isfinite(b)):
        return np.inf
    return float(np.max(a[live] - b[live]))


def replace_one_neighbours(data: Sequence[float], domain: Sequence[float]):
    """Every dataset that replaces one point of ``data`` by a different ``domain`` value.

    Points of equal value give the same neighbours, so one of each is replaced.  Yields arrays of
    the shape of ``data``.
    """
    x = np.asarray(data, dtype=float)
    for pos in np.unique(x, return_index=True)[1]:
        for val in np.asarray(domain, dtype=float):
            if val != x[pos]:
                nb = x.copy()
                nb[pos] = val
                yield nb


def pair_privacy_loss(data: Sequence[float], neighbour: Sequence[float], n_quantiles: int, epsilon: float,
                      lower: float, upper: float, noise_factor: float = 0.5) -> float:
    r"""Privacy loss of the K-quantile release (:func:`private_quantiles`) on one pair of
    datasets, both directions: $\max_{(A, B)} \sup_o \log p_A(o) / p_B(o)$ over
    $(A, B) = (D, D'), (D', D)$.

    The $K$ draws are independent, so the joint log-ratio is the sum of the per-quantile
    log-ratios and its supremum the sum of their suprema (:func:`max_log_ratio`, exact).

    Args:
        data, neighbour: datasets of one size N (a replace-one pair, for the DP guarantee);
        n_quantiles: K >= 1; epsilon: total budget (epsilon / K per quantile); lower, upper: the
        public range; noise_factor: factor of the per-quantile budget in the exponent (1/2 is
        the private mechanism).
    """
    levels = np.arange(1, n_quantiles + 1) / (n_quantiles + 1)
    eps_each = epsilon / n_quantiles
    a, b = np.asarray(data, dtype=float), np.asarray(neighbour, dtype=float)
    return float(max(sum(max_log_ratio(d1, d2, q, eps_each, lower, upper, noise_factor) for q in levels)
                     for d1, d2 in ((a, b), (b, a))))


def privacy_audit(data: Sequence[float], domain: Sequence[float], n_quantiles: int, epsilon: float,
                  lower: float, upper: float, noise_factor: float = 0.5) -> float:
    r"""Worst privacy loss of the K-quantile release over all replace-one neighbours of ``data``.

    For each neighbour $D'$ (one point of $D$ replaced by any value of ``domain``) the loss is
    :func:`pair_privacy_loss`; the returned value is the maximum over neighbours: the mechanism is
    $\varepsilon$-DP on these datasets iff it is $\le \varepsilon$.
    """
    x = np.asarray(data, dtype=float)
    return float(max(pair_privacy_loss(x, nb, n_quantiles, epsilon, lower, upper, noise_factor)
                     for nb in replace_one_neighbours(x, domain)))


def clustered_neighbours(n: int, lower: float = 0.0, upper: float = 1.0, spacing: float = 1e-9
                         ) -> tuple[np.ndarray, np.ndarray]:
    r"""A replace-one pair on which the exponential-mechanism quantiles lose almost exactly their
    budget (the worst case of :func:`pair_privacy_loss`, derived here).

    $D$ has one point at ``lower`` and $n - 1$ points in a cluster just below ``upper``
    (``upper - spacing * i``, $i = 1..n-1$); $D'$ moves the point at ``lower`` to ``upper``.  Every
    output in the wide interval below the cluster has rank 1 under $D$ and 0 under $D'$, so for
    every level $q$ with $qN \ge 1$ its utility is higher by 1 under $D$ and
    $Z_D / Z_{D'} \to e^{\varepsilon_q/2}$ as the cluster shrinks; inside the cluster, an
    interval with $r \ge qN$ cluster points below it has rank $r$ under $D'$ and $r + 1$ under
    $D$, so there the utility is higher by 1 under $D'$.  So
    $\sup_o \log p_{D'}(o)/p_D(o) = \varepsilon_q/2 + \log Z_D/Z_{D'} \to \varepsilon_q$ for
    every quantile at once, and the release loses $\varepsilon - O(N\,\text{spacing})$ (for
    $N \ge K + 1$).

    Returns:
        ``(D, D')``, each of shape ``(n,)``.

    Raises:
        ValueError: for ``n < 2``, an empty range, or a cluster wider than the range.
    """
    if n < 2 or not upper > lower or not 0 < spacing * n < (upper - lower):
        raise ValueError("need n >= 2, upper > lower and a cluster narrower than the range")
    d = np.concatenate([[lower], upper - spacing * np.arange(1, n)])
    nb = d.copy()
    nb[0] = upper
    return d, nb


def quantile_auction(released: Sequence[np.ndarray]) -> VirtualValueAuction:
    """Myerson's auction for bidders whose distributions are the released quantiles.

    Each bidder's distribution is uniform on its released values (mass 1/K each, coinciding
    values merged); the auction ranks bids by the exact discrete ironed virtual values.
    """
    curves = []
    for vals in released:
        v, counts = np.unique(np.asarray(vals, dtype=float), return_counts=True)
        curves.append(discrete_ironed_curve(v, counts / counts.sum()))
    return auction_from_curves(curves)


# --------------------------------------------------------------------------- unbounded values
def geometric_caps(smallest: float, n_caps: int, ratio: float = 2.0) -> np.ndarray:
    """Candidate caps ``smallest * ratio**j``, ``j = 0..n_caps-1`` (a public, data-independent grid).

    Raises:
        ValueError: for ``smallest <= 0``, ``n_caps < 1`` or ``ratio <= 1``.
    """
    if not smallest > 0 or n_caps < 1 or not ratio > 1:
        raise ValueError("need smallest > 0, n_caps >= 1 and ratio > 1")
    return smallest * float(ratio) ** np.arange(n_caps)


def cap_log_probabilities(data: Sequence[float], caps: Sequence[float], target: float, epsilon: float,
                          noise_factor: float = 0.5) -> np.ndarray:
    r"""Log-probabilities of the private cap: the exponential mechanism over the ``caps`` with
    utility $-|\#\{i : x_i > H\} - \text{target}|$ (sensitivity 1 under replacing one point).

    $P(H) \propto H^{-2} \exp(\text{noise\_factor}\cdot\varepsilon\, u(H))$: the data-independent
    base measure $H^{-2}$ (on a geometric grid, a preference for small caps) keeps the privacy
    guarantee and stops the caps above all the data, which tie, from spreading the choice;
    ``noise_factor = 1/2`` is the private mechanism.

    Raises:
        ValueError: on empty data or caps, or ``epsilon <= 0``.
    """
    x = np.asarray(data, dtype=float).ravel()
    H = np.asarray(caps, dtype=float).ravel()
    if x.size == 0 or H.size == 0 or not epsilon > 0:
        raise ValueError("need data, caps and epsilon > 0")
    above = np.sum(x[None, :] > H[:, None], axis=1)
    # a data-independent prior proportional to 1/H^2 breaks the ties among the caps above the
    # data towards the smallest (it cancels in every privacy ratio except through Z)
    logits = -noise_factor * epsilon * np.abs(above - target) - 2.0 * np.log(H / H.min())
    return logits - np.logaddexp.reduce(logits)


def capped_private_quantiles(rng: np.random.Generator, data: Sequence[float], n_quantiles: int, epsilon: float,
                             caps: Sequence[float], cap_share: float = 0.5, noise_factor: float = 0.5,
                             compose: bool = True) -> tuple[float, np.ndarray]:
    r"""Private quantiles of data with unbounded support: a private cap, then quantiles below it.

    Our reconstruction of the unbounded case: spend ``cap_share`` of the budget on a cap $H$
    drawn by :func:`cap_log_probabilities` from a public geometric grid, with target count
    $N / (2 (K + 1))$ above the cap (so $H$ sits near the $1 - 1/(2(K+1))$ quantile, above the
    top released level); then release the $K$ quantiles on $[0, H]$ (data clipped) with the rest
    of the budget (:func:`private_quantiles`).  Basic composition gives $\varepsilon$-DP.
    ``compose=False`` (for controls) gives the cap and every quantile the whole budget.

    Returns:
        ``(H, quantiles)``.

    Raises:
        ValueError: for ``cap_share`` outside (0, 1) and the errors of the two mechanisms.
    """
    if not 0.0 < cap_share < 1.0:
        raise ValueError("cap_share must lie in (0, 1)")
    x = np.asarray(data, dtype=float).ravel()
    target = x.size / (2.0 * (n_quantiles + 1))
    eps_cap, eps_q = (cap_share * epsilon, (1.0 - cap_share) * epsilon) if compose else (epsilon, n_quantiles * epsilon)
    logp = cap_log_probabilities(x, caps, target, eps_cap, noise_factor)
    H = float(np.asarray(caps, dtype=float)[rng.choice(logp.size, p=np.exp(logp))])
    return H, private_quantiles(rng, x, n_quantiles, eps_q, 0.0, H, noise_factor)


def capped_pair_privacy_loss(data: Sequence[float], neighbour: Sequence[float], n_quantiles: int,
                             epsilon: float, caps: Sequence[float], cap_share: float = 0.5,
                             noise_factor: float = 0.5, compose: bool = True) -> float:
    r"""Privacy loss of :func:`capped_private_quantiles` on one pair of datasets, both directions.

    The output is $(H, o_1..o_K)$; its log-ratio on $A$ against $B$ is the cap's log-ratio at $H$
    plus the quantiles' log-ratio given $H$, so its supremum is
    $\max_H [\log P_A(H)/P_B(H) + \sum_k \sup_{o} \log p_A(o_k \mid H)/p_B(o_k \mid H)]$,
    computed exactly (see :func:`max_log_ratio`).  ``compose`` as in
    :func:`capped_private_quantiles`.
    """
    H = np.asarray(caps, dtype=float)
    levels = np.arange(1, n_quantiles + 1) / (n_quantiles + 1)
    eps_cap, eps_each = ((cap_share * epsilon, (1.0 - cap_share) * epsilon / n_quantiles) if compose
                         else (epsilon, epsilon))
    x, y = np.asarray(data, dtype=float), np.asarray(neighbour, dtype=float)
    target = x.size / (2.0 * (n_quantiles + 1))
    worst = -np.inf
    for d1, d2 in ((x, y), (y, x)):
        lr_cap = (cap_log_probabilities(d1, H, target, eps_cap, noise_factor)
                  - cap_log_probabilities(d2, H, target, eps_cap, noise_factor))
        for j, h in enumerate(H):
            loss = lr_cap[j] + sum(max_log_ratio(d1, d2, q, eps_each, 0.0, h, noise_factor) for q in levels)
            worst = max(worst, float(loss))
    return float(worst)


def capped_privacy_audit(data: Sequence[float], domain: Sequence[float], n_quantiles: int, epsilon: float,
                         caps: Sequence[float], cap_share: float = 0.5, noise_factor: float = 0.5,
                         compose: bool = True) -> float:
    r"""Worst privacy loss of :func:`capped_private_quantiles` over all replace-one neighbours of
    ``data`` (one point replaced by any ``domain`` value): the maximum of
    :func:`capped_pair_privacy_loss` over them."""
    x = np.asarray(data, dtype=float)
    return float(max(capped_pair_privacy_loss(x, nb, n_quantiles, epsilon, caps, cap_share, noise_factor, compose)
                     for nb in replace_one_neighbours(x, domain)))


def capped_clustered_neighbours(n: int, cap: float, far: float, spacing: float = 1e-9
                                ) -> tuple[np.ndarray, np.ndarray]:
    r"""A replace-one pair on which the capped release loses almost its whole budget (derived).

    $D$ has one point at 0 and $n - 1$ points in a cluster just below the public cap ``cap``
    ($\text{cap}\,(1 - \text{spacing}\, i)$); $D'$ moves the point at 0 to ``far`` (above every
    cap).  Given the output cap $H =$ ``cap``, the quantiles see the pair of
    :func:`clustered_neighbours` on $[0, H]$ (the far point is clipped to $H$) and lose their
    share $\to (1 - \text{share})\varepsilon$; every cap below the cluster counts $n - 1$ points
    above it under $D$ and $n$ under $D'$ (utility lower by 1 when the count exceeds the
    target), while at ``cap`` and above the count goes from 0 to 1 (higher by 1 when the target
    is at least 1): with the cap grid's mass on the caps below the cluster, the cap's log-ratio
    at ``cap`` approaches its share $\text{share}\cdot\varepsilon$ too.

    Returns:
        ``(D, D')``, each of shape ``(n,)``.

    Raises:
        ValueError: for ``n < 2``, ``cap <= 0``, ``far <= cap`` or a bad spacing.
    """
    if n < 2 or not cap > 0 or not far > cap or not 0 < spacing * n < 1:
        raise ValueError("need n >= 2, 0 < cap < far and spacing * n < 1")
    d = np.concatenate([[0.0], cap * (1.0 - spacing * np.arange(1, n))])
    nb = d.copy()
    nb[0] = far
    return d, nb


# --------------------------------------------------------------------------- repeated auctions
def posted_price_utility(data: Sequence[float], q: float, epsilon: float, lower: float, upper: float,
                         values: Sequence[float], noise_factor: float = 0.5) -> np.ndarray:
    r"""Expected utility $\mathbb E[(v - P)^+]$ of a future bidder with value $v$ facing the price $P$
    released as the private $q$-quantile of past bids ``data`` (single bidder, one quantile: the
    Myerson auction of the released point mass is a posted price at it).

    Exact: the price has the step density of :func:`quantile_output_density`, and on a cell
    $[a, b]$ with $a < v$, $\int_a^{\min(b, v)} (v - o)\,do = ((v - a)^2 - (v - \min(b, v))^2)/2$.

    Returns:
        Shape ``(len(values),)``.
    """
    edges, logd = quantile_output_density(data, q, epsilon, lower, upper, noise_factor)
    v = np.asarray(values, dtype=float)[:, None]
    a, b = edges[None, :-1], edges[None, 1:]
    top = np.minimum(b, v)
    part = np.where(a < v, ((v - a) ** 2 - (v - top) ** 2) / 2.0, 0.0)
    return np.sum(np.where(np.isfinite(logd), np.exp(logd), 0.0)[None, :] * part, axis=1)


def utility_log_ratio(data: Sequence[float], neighbour: Sequence[float], q: float, epsilon: float,
                      lower: float, upper: float, values: Sequence[float], noise_factor: float = 0.5) -> float:
    r"""Largest $|\log \mathbb E_{D'}[u_v] / \mathbb E_D[u_v]|$ over the future values ``values``
    for one pair of past-bid datasets (values where either utility is 0 are skipped), with
    $u_v = (v - P)^+$ and $P$ the private $q$-quantile (:func:`posted_price_utility`)."""
    base = posted_price_utility(data, q, epsilon, lower, upper, values, noise_factor)
    other = posted_price_utility(neighbour, q, epsilon, lower, upper, values, noise_factor)
    live = (base > 0) & (other > 0)
    if not np.any(live):
        return 0.0
    return float(np.max(np.abs(np.log(other[live]) - np.log(base[live]))))


def repeated_auction_audit(data: Sequence[float], domain: Sequence[float], q: float, epsilon: float,
                           lower: float, upper: float, values: Sequence[float],
                           noise_factor: float = 0.5) -> float:
    r"""Largest $\log \mathbb E_{D'}[u_v] / \mathbb E_D[u_v]$ over replace-one neighbours $D'$ of the
    past bids ``data`` and future values ``values`` (:func:`utility_log_ratio` for each): how
    much a bidder can raise (or lower) its expected utility in a later round by changing one past
    bid.  Pure $\varepsilon$-DP of the price release bounds it by $\varepsilon$, so a non-myopic
    bidder gains at most a factor $e^\varepsilon$ of its future utility from a past misreport.
    """
    x = np.asarray(data, dtype=float)
    return float(max(utility_log_ratio(x, nb, q, epsilon, lower, upper, values, noise_factor)
                     for nb in replace_one_neighbours(x, domain)))
