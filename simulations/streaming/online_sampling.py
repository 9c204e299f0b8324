"""One-pass column sampling by online Lewis weights, and the exact error of a sparse instance over every b.

Source: Chakrabarti, Jiang, Woodruff & Yasuda, "Streaming Algorithms for l_p Flows and l_p
Regression" (ICLR 2025): for p in [2, inf] a one-pass algorithm keeps O~(eps^-2 n) reweighted
columns of A whose l_p regression cost is within (1 +- eps) of OPT_p; by the reviews of the paper,
it is the online Lewis weight sampling of Woodruff & Yasuda (SODA 2023) applied to the rows of A^T
(the dual problem OPT_p = max{b^T y : ||A^T y||_q <= 1}, 1/p + 1/q = 1).  The online weight rule
below is our reconstruction: column a_j, arriving after the kept columns, gets the weight w_j
solving

    w = (a_j^T (M + w^{1 - 2/q} a_j a_j^T)^{-1} a_j)^{q/2},   M = sum_{kept i} w_i^{1 - 2/q} a_i a_i^T / pi_i

(the Lewis fixed point with every earlier weight frozen; M estimates the same sum over all earlier
columns), and is kept with probability pi_j = min(1, c w_j) and rescaled by pi_j^{-1/q}.  With
s = a_j^T M^{-1} a_j: q = 2 gives the online leverage score w = s / (1 + s) (Cohen, Musco &
Pachocki 2016) and q = 1 gives w = (sqrt(s^2 + 4 s) - s) / 2.

Since b arrives after the columns, the sparse instance must serve every b; its error over all b
is computed exactly: for p = 2 from the extreme eigenvalues of G^{-1/2} G' G^{-1/2} (G = A A^T),
and for p = inf on a graph (A the incidence matrix) from the cut weights, since ||B^T y||_1 is the
integral of the cut weights of the level sets of y.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np


def online_weights(s: np.ndarray, q: float) -> np.ndarray:
    """Online Lewis weight of a column from s = a^T M^{-1} a (q = 2: s/(1+s); q = 1: (sqrt(s^2+4s)-s)/2).

    Both solve w = (s / (1 + w^{1-2/q} s))^{q/2} (Sherman-Morrison on a^T (M + u a a^T)^{-1} a).
    Raises:
        ValueError: for q other than 1 or 2.
    """
    s = np.asarray(s, dtype=float)
    if q == 2:
        return s / (1.0 + s)
    if q == 1:
        return (np.sqrt(s * s + 4.0 * s) - s) / 2.0
    raise ValueError(f"online weights are implemented for q = 1 (p = inf) and q = 2 (p = 2), not q = {q}")


def online_lewis_sampling(uniforms, A, oversampling: float, q: float, growth: float = 0.25, first_block: int = 16,
                          ridge: float = 1e-6, rescale_power: float | None = None, reweight_sketch: bool = True,
                          column_ids=None, squared_norms=None) -> tuple[np.ndarray, np.ndarray]:
    """One pass over the columns of A keeping column j with probability min(1, c w_j), w_j its online Lewis weight.

    The pass stores only M (n x n), its inverse and the kept columns.  Columns are read in blocks
    whose weights use M from before the block: the block starting at column s has
    max(first_block, ceil(growth s)) columns, so M at a block's start holds at least 1/(1 + growth)
    of the stream read by its end (M grows in the PSD order along the pass, so a block's weights
    are at least the column-by-column ones: sampling only more).  growth = 0 and first_block = 1
    read the stream column by column.

    Two exact shortcuts give the same kept columns and scales as computing every score (they only
    skip work): (i) s_j = a_j^T M^{-1} a_j <= ||a_j||^2 lambda_max(M^{-1}) and the weight and pi are
    increasing in s, so a column whose coin u_j is at least min(1, c w(||a_j||^2 lambda_max(M^{-1})))
    is dropped without its score; (ii) with ``column_ids``, columns with the same id are equal (the
    edges of a graph stream: one id per vertex pair), so the scores of a block are computed once per
    distinct column.

    Args:
        uniforms: (d,) uniforms in [0, 1) deciding the coin of each column (common random numbers:
            one array serves several oversampling factors).
        A: (n, d) matrix; its columns form the stream, in order.
        oversampling: c > 0.
        q: 1 (p = inf) or 2 (p = 2).
        growth, first_block: the block schedule (growth >= 0, first_block >= 1).
        ridge: relative regularisation: M + ridge max(1, tr(M)/n) I is inverted (M is singular before
            n columns are kept, and stays singular along the kernel of A^T, e.g. the all-ones
            vector of an incidence matrix).
        rescale_power: power r of the rescaling pi^{-r} (default 1/q; another value is a broken
            sampler, for controls).
        reweight_sketch: False adds the kept columns to M without their weight w^{1-2/q}/pi (a
            broken sampler, for controls).
        column_ids: optional (d,) integers in [0, K): equal ids promise equal columns (not checked
            beyond the first occurrence of each id, whose column stands for all of them).
        squared_norms: optional (d,) precomputed ||a_j||^2 (computed here when None); lets several
            passes over one stream share them.
    Returns:
        (kept, scale): indices of the kept columns (increasing) and their rescaling factors
        pi^{-r}; the sparse instance is ``A[:, kept] * scale``.
    Raises:
        ValueError: on a malformed input.
    """
    A = np.asarray(A, dtype=float)
    u = np.asarray(uniforms, dtype=float)
    if A.ndim != 2 or u.shape != (A.shape[1],):
        raise ValueError(f"need A of shape (n, d) and uniforms of shape (d,), got {A.shape} and {u.shape}")
    if not (oversampling > 0 and ridge > 0 and growth >= 0 and first_block >= 1):
        raise ValueError("need oversampling > 0, ridge > 0, growth >= 0 and first_block >= 1")
    n, d = A.shape
    r = 1.0 / q if rescale_power is None else float(rescale_power)
    if column_ids is not None:
        ids = np.asarray(column_ids)
        if ids.shape != (d,) or not np.issubdtype(ids.dtype, np.integer) or (d and ids.min() < 0):
            raise ValueError("column_ids must be (d,) non-negative integers")
        first_of = np.full(int(ids.max()) + 1 if d else 0, -1)
        first_of[ids[::-1]] = np.arange(d)[::-1]          # the first column of each id
        distinct = A[:, np.maximum(first_of, 0)]
        norms = None
    else:
        norms = (np.einsum("ij,ij->j", A, A) if squared_norms is None
                 else np.asarray(squared_norms, dtype=float))
        if norms.shape != (d,):
            raise ValueError(f"squared_norms must have shape ({d},), got {norms.shape}")
    M = np.zeros((n, n))
    Minv = np.eye(n) / ridge
    top = 1.0 / ridge                                    # lambda_max(Minv)
    kept, scale = [], []
    start = 0
    while start < d:
        stop = min(d, start + max(int(first_block), math.ceil(growth * start)))
        start, first = stop, start
        if column_ids is not None:
            s_distinct = np.einsum("ij,ij->j", distinct, Minv @ distinct)
            cand = np.arange(first, stop)
            s = s_distinct[ids[first:stop]]
        else:
            # exact pruning: pi is increasing in s and s <= ||a||^2 lambda_max(Minv)
            bound = np.minimum(1.0, oversampling * online_weights(norms[first:stop] * top, q))
            cand = first + np.nonzero(u[first:stop] < bound)[0]
            if cand.size == 0:
                continue
            B = A[:, cand]
            s = np.einsum("ij,ij->j", B, Minv @ B)
        w = online_weights(np.maximum(s, 0.0), q)
        pi = np.minimum(1.0, oversampling * w)
        take = u[cand] < pi
        if not take.any():
            continue
        BK, pK, wK = A[:, cand[take]], pi[take], w[take]
        coef = wK ** (1.0 - 2.0 / q) / pK if reweight_sketch else np.ones(pK.size)
        M += (BK * coef) @ BK.T
        Minv = np.linalg.inv(M + ridge * max(1.0, np.trace(M) / n) * np.eye(n))
        top = float(np.linalg.eigvalsh((Minv + Minv.T) / 2)[-1]) * (1 + 1e-9)   # margin for rounding
        kept.append(cand[take])
        scale.append(pK ** (-r))
    if not kept:
        return np.zeros(0, dtype=int), np.zeros(0)
    return np.concatenate(kept), np.concatenate(scale)


# ----------------------------------------------------------------------------- p = 2: every b at once
def inverse_sqrt_gram(A) -> np.ndarray:
    """G^{-1/2} for G = A A^T (n x n, symmetric positive definite).

    Raises:
        ValueError: when A A^T is singular (rank(A) < n).
    """
    A = np.asarray(A, dtype=float)
    lam, V = np.linalg.eigh(A @ A.T)
    if lam[0] <= 1e-12 * lam[-1]:
        raise ValueError("A A^T is singular: the l_2 cost is infinite for some b")
    return (V / np.sqrt(lam)) @ V.T


def l2_cost_ratio_range(G_inv_sqrt, A_sparse) -> tuple[float, float]:
    """(min_b, max_b) of OPT_2(A', b) / OPT_2(A, b) over all b != 0.

    OPT_2(A, b)^2 = b^T (A A^T)^{-1} b, so the ratio's square ranges over the inverse eigenvalues of
    G^{-1/2} A' A'^T G^{-1/2}: the range is [lambda_max^{-1/2}, lambda_min^{-1/2}] (inf when A' A'^T
    is singular).
    """
    As = np.asarray(A_sparse, dtype=float)
    Gi = np.asarray(G_inv_sqrt, dtype=float)
    lam = np.linalg.eigvalsh(Gi @ (As @ As.T) @ Gi)
    lo = lam[-1] ** -0.5 if lam[-1] > 0 else math.inf
    hi = lam[0] ** -0.5 if lam[0] > 1e-14 * max(lam[-1], 1.0) else math.inf
    return float(lo), float(hi)


def ratio_error(lo: float, hi: float) -> float:
    """Largest relative error of a cost ratio known to lie in [lo, hi]: max(hi - 1, 1 - lo)."""
    return max(hi - 1.0, 1.0 - lo)


def form_deviation(lo: float, hi: float, q: float) -> float:
    """Largest |N'(y)^q / N(y)^q - 1| over all y != 0, from the range [lo, hi] of the cost ratio over all b.

    N(y) = ||A^T y||_q and N'(y) = ||A'^T y||_q are the dual norms of the full and the sparse
    instance; OPT(A', b) / OPT(A, b) ranges over [min_y N(y)/N'(y), max_y N(y)/N'(y)] (for two
    norms, sup_b N'*(b)/N*(b) = sup_y N(y)/N'(y), N* the dual norm), so N'^q/N^q ranges over
    [hi^-q, lo^-q].  The q-th power is linear in the sampling coins: the quadratic form
    y^T A'A'^T y for q = 2 (its range is the eigenvalues of G^{-1/2} A'A'^T G^{-1/2}), the cut
    weights w'(S)/w(S) for q = 1 on a graph; a deviation at most t is a (1 +- t) sparsifier of
    the dual norm's q-th power, and gives a cost within [(1 + t)^(-1/q), (1 - t)^(-1/q)] for every b.

    Returns inf when lo = 0 (not possible for a cost ratio) or hi = inf (a direction the sparse
    instance misses): then the deviation 1 - hi^-q = 1 is reported as at least 1.
    Raises:
        ValueError: unless 0 < lo <= hi and q > 0.
    """
    if not (q > 0 and 0 < lo <= hi):
        raise ValueError(f"need q > 0 and 0 < lo <= hi, got q={q}, lo={lo}, hi={hi}")
    upper = lo ** -q - 1.0
    lower = 1.0 - (0.0 if math.isinf(hi) else hi ** -q)
    return max(upper, lower)


# ----------------------------------------------------------------------------- p = inf on graphs
def random_edge_stream(rng: np.random.Generator, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """A stream of d edges drawn uniformly among the pairs of n vertices (a dense random multigraph).

    Returns:
        (B, pairs): the signed incidence matrix (n, d), column j = e_u - e_v, and the pairs (d, 2).
    Raises:
        ValueError: unless n >= 2 and d >= 1.
    """
    if n < 2 or d < 1:
        raise ValueError(f"need n >= 2 vertices and d >= 1 edges, got n={n}, d={d}")
    all_pairs = np.array(list(itertools.combinations(range(n), 2)))
    pairs = all_pairs[rng.integers(0, len(all_pairs), size=d)]
    B = np.zeros((n, d))
    B[pairs[:, 0], np.arange(d)] = 1.0
    B[pairs[:, 1], np.arange(d)] = -1.0
    return B, pairs


def clustered_edge_stream(rng: np.random.Generator, n: int, d: int, bridges: int) -> tuple[np.ndarray, np.ndarray]:
    """A stream of d edges: two dense clusters joined by a few bridge edges (a dumbbell multigraph).

    The vertices 0..h-1 and h..n-1 (h = n // 2) form the clusters; edge i < bridges of the bridge
    set joins i and h + i (one edge each); the other d - bridges edges are drawn uniformly among
    the pairs inside a cluster; the bridge edges sit at uniformly random positions of the stream.
    The cut between the clusters carries ``bridges`` edges whatever d, so a sampler that keeps
    each edge with a probability well below 1 loses it, while its l_1 Lewis weights are near 1.

    Returns:
        (B, pairs): the signed incidence matrix (n, d), column j = e_u - e_v, and the pairs (d, 2).
    Raises:
        ValueError: unless n >= 4, 1 <= bridges <= n // 2 and d >= bridges + 1.
    """
    h = n // 2
    if n < 4 or not 1 <= bridges <= h or d < bridges + 1:
        raise ValueError(f"need n >= 4 vertices, 1 <= bridges <= n // 2 and d > bridges, got n={n}, "
                         f"bridges={bridges}, d={d}")
    inner = np.array([pair for pair in itertools.combinations(range(n), 2) if (pair[0] < h) == (pair[1] < h)])
    pairs = inner[rng.integers(0, len(inner), size=d)]
    spots = rng.choice(d, size=bridges, replace=False)
    pairs[spots] = np.column_stack([np.arange(bridges), h + np.arange(bridges)])
    B = np.zeros((n, d))
    B[pairs[:, 0], np.arange(d)] = 1.0
    B[pairs[:, 1], np.arange(d)] = -1.0
    return B, pairs


def pair_ids(n: int, pairs) -> tuple[np.ndarray, np.ndarray]:
    """Index of each edge's vertex pair among the n(n-1)/2 pairs, and those pairs.

    Returns:
        (ids, all_pairs): ids (d,) in [0, n(n-1)/2) with all_pairs[ids] equal to the pairs sorted
        within each row; all_pairs (n(n-1)/2, 2) in lexicographic order.
    Raises:
        ValueError: on a pair with equal or out-of-range vertices.
    """
    pairs = np.sort(np.asarray(pairs, dtype=int).reshape(-1, 2), axis=1)
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n or np.any(pairs[:, 0] == pairs[:, 1])):
        raise ValueError(f"pairs must join two distinct vertices among 0..{n - 1}")
    all_pairs = np.array(list(itertools.combinations(range(n), 2))).reshape(-1, 2)
    table = np.full((n, n), -1)
    table[all_pairs[:, 0], all_pairs[:, 1]] = np.arange(len(all_pairs))
    return table[pairs[:, 0], pairs[:, 1]], all_pairs


def edge_weight_matrix(n: int, pairs, weights) -> np.ndarray:
    """Symmetric (n, n) matrix of summed edge weights (parallel edges add up)."""
    pairs = np.asarray(pairs, dtype=int).reshape(-1, 2)
    W = np.zeros((n, n))
    np.add.at(W, (pairs[:, 0], pairs[:, 1]), np.asarray(weights, dtype=float))
    return W + W.T


def cut_indicators(n: int) -> np.ndarray:
    """All 2^(n-1) - 1 cuts of n vertices as 0/1 rows (vertex n - 1 always outside S), shape (2^(n-1)-1, n).

    Raises:
        ValueError: unless 2 <= n <= 20.
    """
    if not 2 <= n <= 20:
        raise ValueError(f"cut enumeration is for 2 <= n <= 20 vertices, got {n}")
    codes = np.arange(1, 2 ** (n - 1))
    X = ((codes[:, None] >> np.arange(n - 1)) & 1).astype(float)
    return np.hstack([X, np.zeros((X.shape[0], 1))])


def cut_weights(W, cuts) -> np.ndarray:
    """w(delta S) = sum_{u in S, v not in S} W_uv for each cut row of ``cuts``."""
    X = np.asarray(cuts, dtype=float)
    return np.einsum("ij,ij->i", X @ np.asarray(W, dtype=float), 1.0 - X)


def linf_cost_ratio_range(W_full, W_sparse, cuts) -> tuple[float, float]:
    """(min_b, max_b) of OPT_inf(B', b) / OPT_inf(B, b) over all demands b (sum 0, b != 0) on a graph.

    OPT_inf(B, b) = max_y b^T y / ||B^T y||_1 and ||B^T y||_1 = int w(delta {y > t}) dt, so the ratio
    of the two dual norms ranges over [min_S w(dS)/w'(dS), max_S w(dS)/w'(dS)], both attained
    (for two norms, sup_b N'*(b)/N*(b) = sup_y N(y)/N'(y), N* the dual norm).  The graph must be
    connected; a cut the sparse graph does not cross gives inf.
    """
    w = cut_weights(W_full, cuts)
    ws = cut_weights(W_sparse, cuts)
    if np.any(w <= 0):
        raise ValueError("the full graph is disconnected: some demands have no flow")
    if np.any(ws <= 0):
        return float(np.min(w[ws > 0] / ws[ws > 0])) if np.any(ws > 0) else math.inf, math.inf
    ratio = w / ws
    return float(ratio.min()), float(ratio.max())


# ----------------------------------------------------------------------------- the smallest budget
def smallest_budget(error: Callable[[float], float], target: float, start: float, rtol: float = 0.02,
                    max_evaluations: int = 60) -> float:
    """The smallest c with error(c) <= target, to a factor 1 + rtol, for an error decreasing in c.

    Brackets the crossing from ``start`` with steps guided by error ~ c^(-1/2) (the sampling
    error's rate), then narrows the bracket [lo (error above target), hi (error at most target)]
    by interpolating log error linearly in log c, falling back to bisection on log c when an
    interpolation step gains less than a quarter of the bracket.  Returns the upper end hi.

    Raises:
        ValueError: on start <= 0, target <= 0, rtol <= 0, or when no crossing is found within
            max_evaluations (an error that never reaches the target, or is below it at every c).
    """
    if not (start > 0 and target > 0 and rtol > 0):
        raise ValueError("need start > 0, target > 0 and rtol > 0")
    evals = 0

    def err(c: float) -> float:
        nonlocal evals
        evals += 1
        if evals > max_evaluations:
            raise ValueError(f"no crossing of the target {target} within {max_evaluations} evaluations")
        e = float(error(c))
        return e if e == e else math.inf

    c, e = float(start), err(start)
    lo = lo_e = hi = hi_e = None
    while lo is None or hi is None:
        if e > target:
            lo, lo_e = c, e
            step = (e / target) ** 2 * 1.05 if math.isfinite(e) else 4.0
            c = c * min(max(step, 1.1), 16.0)
        else:
            hi, hi_e = c, e
            step = (e / target) ** 2 * 0.95 if e > 0 else 0.25
            c = c * max(min(step, 1 / 1.1), 1 / 16.0)
        if lo is None or hi is None:
            e = err(c)
    left = 0
    while hi / lo > 1 + rtol:
        span = math.log(hi / lo)
        x = math.log(lo) + span / 2
        if math.isfinite(lo_e) and hi_e > 0 and lo_e > hi_e and left < 2:
            t = (math.log(lo_e) - math.log(target)) / (math.log(lo_e) - math.log(hi_e))
            t = min(max(t, 0.05), 0.95)
            x = math.log(lo) + t * span
        c = math.exp(x)
        e = err(c)
        if e > target:
            gain = math.log(c / lo) / span
            lo, lo_e = c, e
        else:
            gain = math.log(hi / c) / span
            hi, hi_e = c, e
        left = left + 1 if gain < 0.25 else 0
    return hi
