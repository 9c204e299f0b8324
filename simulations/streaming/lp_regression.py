"""Underdetermined l_p regression min{||x||_p : A x = b}, its flow special cases, and column sampling.

Sources: Chakrabarti, Jiang, Woodruff & Yasuda, "Streaming Algorithms for l_p Flows and l_p
Regression" (ICLR 2025): a sparse reweighted instance on O~(eps^-2 n) columns approximates the
cost to (1 +- eps) for p in [2, inf].  The sampling scheme here is the standard one (our
reconstruction, not the paper's streaming construction): by Hölder duality
OPT_p = max{b^T y : ||A^T y||_q <= 1}, 1/p + 1/q = 1, so any column sampling S with
||S A^T y||_q = (1 +- eps)||A^T y||_q for all y preserves the cost; keeping column j with
probability pi_j proportional to its l_q Lewis weight (Cohen & Peng, STOC 2015; q = 2: leverage
scores) and rescaling it by pi_j^{-1/q} gives such an S with high probability.

Graphs: for the vertex-edge incidence matrix B and b = e_s - e_t, OPT_1 is the s-t distance
(transshipment), OPT_2^2 the effective resistance (electrical flow), and OPT_inf = 1/maxflow(s, t)
with unit capacities.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, sparse


def _check(A, b) -> tuple[np.ndarray, np.ndarray]:
    A, b = np.asarray(A, dtype=float), np.asarray(b, dtype=float)
    if A.ndim != 2 or b.shape != (A.shape[0],):
        raise ValueError(f"need A of shape (n, d) and b of shape (n,), got {A.shape} and {b.shape}")
    return A, b


def holder_conjugate(p: float) -> float:
    """q with 1/p + 1/q = 1 (q = 1 for p = inf, inf for p = 1)."""
    if p < 1:
        raise ValueError(f"p must be at least 1, got {p}")
    if p == 1:
        return math.inf
    if math.isinf(p):
        return 1.0
    return p / (p - 1)


def lp_regression_cost(A, b, p: float, nonnegative: bool = False) -> float:
    """OPT_p = min{||x||_p : A x = b}; inf when A x = b has no solution.

    p = 2: sqrt(b^T (A A^T)^+ b) (minimum-norm solution, checked feasible); p = 1 and p = inf:
    linear programmes solved by HiGHS; other p: cvxpy with Clarabel.

    Args:
        nonnegative: add x >= 0 (for p = 1 and p = inf only): on an incidence matrix, flow only
            along each edge's orientation, i.e. a directed graph.
    Raises:
        ValueError: on malformed input, p < 1, nonnegative with another p, or a solver failure
            other than infeasibility.
    """
    A, b = _check(A, b)
    n, d = A.shape
    if p < 1:
        raise ValueError(f"p must be at least 1, got {p}")
    if nonnegative and not (p == 1 or math.isinf(p)):
        raise ValueError("nonnegative is supported for p = 1 and p = inf only")
    if d == 0:
        return 0.0 if not np.any(b) else math.inf
    if p == 2:
        # minimum-norm solution x = A^T (A A^T)^+ b through the n x n Gram matrix (n <= d here: much
        # faster than a wide least-squares solve; the same x, since A^T y does not depend on which
        # solution y of A A^T y = b is taken)
        y, *_ = np.linalg.lstsq(A @ A.T, b, rcond=None)
        x = A.T @ y
        if np.linalg.norm(A @ x - b) > 1e-8 * max(1.0, np.linalg.norm(b)):
            return math.inf
        return float(np.linalg.norm(x))
    As = sparse.csr_matrix(A)
    if p == 1:
        res = optimize.linprog(np.ones(2 * d), A_eq=sparse.hstack([As, -As]), b_eq=b,
                               bounds=[(0, None)] * d + [(0, 0 if nonnegative else None)] * d, method="highs")
    elif math.isinf(p):
        # OPT_inf = 1 / max{s : A z = s b, ||z||_inf <= 1}: n equality rows and box bounds only.
        c = np.zeros(d + 1)
        c[-1] = -1.0
        res = optimize.linprog(c, A_eq=sparse.hstack([As, sparse.csr_matrix(-b[:, None])]), b_eq=np.zeros(n),
                               bounds=[(0.0 if nonnegative else -1.0, 1.0)] * d + [(0, None)], method="highs")
        if res.status == 3 or (res.status == 0 and -res.fun <= 0):      # unbounded s: b = 0
            return 0.0 if res.status == 3 else math.inf
        if res.status != 0:
            raise ValueError(f"HiGHS failed: {res.message}")
        return float(1.0 / -res.fun)
    else:
        import cvxpy as cp

        x = cp.Variable(d)
        prob = cp.Problem(cp.Minimize(cp.norm(x, p)), [A @ x == b])
        prob.solve(solver=cp.CLARABEL)
        if prob.status == "infeasible":
            return math.inf
        if prob.status != "optimal":
            raise ValueError(f"cvxpy returned status {prob.status}")
        return float(prob.value)
    if res.status == 2:
        return math.inf
    if res.status != 0:
        raise ValueError(f"HiGHS failed: {res.message}")
    return float(res.fun)


def _pinv_psd(M: np.ndarray, rtol: float = 1e-10) -> np.ndarray:
    w, V = np.linalg.eigh((M + M.T) / 2)
    keep = w > rtol * max(w.max(), 0.0)
    return (V[:, keep] / w[keep]) @ V[:, keep].T


def lewis_weights(A, q: float, iterations: int = 200, tol: float = 1e-10) -> np.ndarray:
    """l_q Lewis weights of the columns of A (rows of A^T), by the Cohen-Peng fixed point.

    w_j <- (a_j^T (A W^{1 - 2/q} A^T)^+ a_j)^{q/2}, which contracts for q < 4; q = 2 gives the
    leverage scores.  The weights sum to rank(A).

    Args:
        A: (n, d) matrix; q in [1, 4).
    Raises:
        ValueError: on q outside [1, 4).
    """
    A = np.asarray(A, dtype=float)
    if not 1 <= q < 4:
        raise ValueError(f"the Lewis-weight fixed point needs q in [1, 4), got {q}")
    w = np.ones(A.shape[1])
    for _ in range(iterations if q != 2 else 1):
        G = _pinv_psd((A * w ** (1 - 2 / q)) @ A.T)
        new = np.maximum(np.sum(A * (G @ A), axis=0), 0.0) ** (q / 2)
        done = np.max(np.abs(new - w)) <= tol * max(1.0, np.max(w))
        w = new
        if done:
            break
    return w


def sampling_probabilities(weights, oversampling: float) -> np.ndarray:
    """pi_j = min(1, oversampling * w_j)."""
    w = np.asarray(weights, dtype=float)
    if np.any(w < 0) or not oversampling > 0:
        raise ValueError("weights must be >= 0 and the oversampling factor positive")
    return np.minimum(1.0, oversampling * w)


def sample_columns(rng: np.random.Generator, A, probabilities, q: float,
                   rescale_power: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Keep column j with probability pi_j and rescale it by pi_j^{-1/q}; returns (A', kept indices).

    Args:
        rescale_power: exponent r of the rescaling pi_j^{-r} (default 1/q, the unbiased choice
            for ||A^T y||_q^q; another value is a deliberately wrong rescaling).
    """
    A = np.asarray(A, dtype=float)
    pi = np.asarray(probabilities, dtype=float)
    keep = np.nonzero(rng.uniform(size=pi.size) < pi)[0]
    r = 1 / q if rescale_power is None else rescale_power
    return A[:, keep] * pi[keep] ** (-r), keep


def coherent_instance(rng: np.random.Generator, n: int, d: int, q: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """A = [G / sqrt(d - n), spike I_n]: d - n diffuse Gaussian columns and n coherent ones; b ~ N(0, I_n).

    spike = (d - n)^{1/q - 1/2} gives the n coherent columns as much of ||A^T y||_q^q as the
    d - n diffuse ones together, so a sampler that can miss a coherent column (uniform sampling)
    distorts the cost; Lewis weights keep it.
    """
    if not 1 <= n < d:
        raise ValueError(f"need 1 <= n < d, got n={n}, d={d}")
    spike = (d - n) ** (1 / q - 0.5)
    G = rng.standard_normal((n, d - n)) / math.sqrt(d - n)
    return np.hstack([G, spike * np.eye(n)]), rng.standard_normal(n)


# ----------------------------------------------------------------------------- graphs
def incidence_matrix(graph, nodes=None) -> np.ndarray:
    """Signed vertex-edge incidence matrix (n, m) of a networkx graph: column e = e_u - e_v."""
    nodes = list(graph.nodes) if nodes is None else list(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    B = np.zeros((len(nodes), graph.number_of_edges()))
    for j, (u, v) in enumerate(graph.edges):
        B[index[u], j], B[index[v], j] = 1.0, -1.0
    return B


def st_demand(graph, s, t, nodes=None) -> np.ndarray:
    """b = e_s - e_t over the graph's node order."""
    nodes = list(graph.nodes) if nodes is None else list(nodes)
    b = np.zeros(len(nodes))
    b[nodes.index(s)], b[nodes.index(t)] = 1.0, -1.0
    return b


def barbell_with_bridges(clique: int, bridges: int):
    """Two cliques K_clique joined by ``bridges`` disjoint edges (networkx Graph); s, t in different cliques."""
    import networkx as nx

    if clique < 2 or not 1 <= bridges <= clique:
        raise ValueError("need clique >= 2 and 1 <= bridges <= clique")
    G = nx.disjoint_union(nx.complete_graph(clique), nx.complete_graph(clique))
    G.add_edges_from((i, clique + i) for i in range(bridges))
    return G


# ----------------------------------------------------------------------------- one-pass sampler
def online_leverage_sampling(rng: np.random.Generator, A, oversampling: float, ridge: float,
                             block: int = 32, uniform_probability: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One pass over the columns of A, keeping each with probability from its ONLINE ridge leverage score.

    Online row sampling of Cohen, Musco & Pachocki (APPROX 2016), applied to the columns: column j
    arrives, its score is tau_j = a_j^T (M + a_j a_j^T)^{-1} a_j with M = ridge I + sum over the
    columns kept before it of a_i a_i^T / pi_i (only the sparse sample is stored: M, its n x n
    inverse recomputed after each block, and the kept columns); it is kept with probability
    pi_j = min(1, oversampling tau_j) and rescaled by pi_j^{-1/2} (the q = 2 rescaling).  Columns
    are read in blocks of ``block`` whose scores use M from before the block: M is then smaller in
    the PSD order, so each score is at least the column-by-column one (sampling only more).  The
    pass never revisits a column.

    Args:
        A: (n, d) matrix whose columns form the stream (in column order).
        oversampling: the factor C eps^-2 ln n in pi_j.
        ridge: lambda > 0 of the regularised online scores.
        block: columns per block (1 = strictly column by column).
        uniform_probability: if given, keep every column with this probability instead (a uniform
            one-pass sampler, for controls).
    Returns:
        (A', kept): the rescaled kept columns (n, |kept|) and their indices.
    Raises:
        ValueError: unless oversampling > 0, ridge > 0 and block >= 1.
    """
    A = np.asarray(A, dtype=float)
    if not (oversampling > 0 and ridge > 0 and block >= 1):
        raise ValueError("need oversampling > 0, ridge > 0 and block >= 1")
    n, d = A.shape
    M, Minv = ridge * np.eye(n), np.eye(n) / ridge
    kept, scale = [], []
    u = rng.uniform(size=d)
    for start in range(0, d, block):
        cols = np.arange(start, min(d, start + block))
        B = A[:, cols]
        if uniform_probability is None:
            s = np.einsum("ij,ik,kj->j", B, Minv, B)
            pi = np.minimum(1.0, oversampling * s / (1.0 + s))
        else:
            pi = np.full(cols.size, float(uniform_probability))
        take = u[cols] < pi
        kept.extend(cols[take].tolist())
        scale.extend((pi[take] ** -0.5).tolist())
        if uniform_probability is None and take.any():   # M <- M + B_K diag(1/pi_K) B_K^T, then invert (n x n)
            BK, pK = B[:, take], pi[take]
            M += (BK / pK) @ BK.T
            Minv = np.linalg.inv(M)
            Minv = (Minv + Minv.T) / 2
    kept_idx = np.asarray(kept, dtype=int)
    return A[:, kept_idx] * np.asarray(scale), kept_idx


def lp_regression_cost_dual(A, b, p: float) -> float:
    """OPT_p = min{||x||_p : A x = b} for 1 < p < inf through the Hölder dual, an n-dimensional problem.

    OPT_p = max{b^T y : ||A^T y||_q <= 1} = 1 / min{||A^T y||_q : b^T y = 1} (1/p + 1/q = 1).  The
    smooth convex function ||A^T y||_q^q is minimised over the affine set b^T y = 1 (parametrised by
    an orthonormal basis of b's complement) with BFGS and its exact gradient.  Fast when n << d.

    Returns inf when A x = b has no solution (least-squares residual above 1e-8 ||b||).
    Raises:
        ValueError: for p outside (1, inf), b = 0, or a failed minimisation.
    """
    from scipy import linalg

    A, b = _check(A, b)
    if not (1 < p < math.inf):
        raise ValueError(f"the dual route needs 1 < p < inf, got {p}")
    nb = np.linalg.norm(b)
    if nb == 0:
        raise ValueError("b = 0 has cost 0; nothing to solve")
    # minimum-norm solution x = A^T (A A^T)^+ b through the n x n Gram matrix (n << d: much faster
    # than a wide least-squares solve); b outside the column space leaves a residual
    y, *_ = np.linalg.lstsq(A @ A.T, b, rcond=None)
    if np.linalg.norm(A @ (A.T @ y) - b) > 1e-8 * nb:  # b outside the column space: A x = b infeasible
        return math.inf
    q = holder_conjugate(p)
    y0 = b / nb**2
    N = linalg.null_space(b[None, :])                  # (n, n - 1), orthonormal
    AT0, ATN = A.T @ y0, A.T @ N

    def f(z):
        r = AT0 + ATN @ z
        a = np.abs(r)
        return float(np.sum(a**q)), ATN.T @ (q * np.sign(r) * a ** (q - 1))

    scale = float(np.sum(np.abs(AT0) ** q))
    res = optimize.minimize(lambda z: tuple(v / scale for v in f(z)), np.zeros(N.shape[1]), jac=True,
                            method="BFGS", options={"gtol": 1e-12, "maxiter": 10_000})
    if not np.isfinite(res.fun) or res.fun <= 0:
        raise ValueError(f"dual minimisation failed: {res.message}")
    return float(1.0 / (res.fun * scale) ** (1 / q))


def isolated_rows_instance(rng: np.random.Generator, n: int, d: int, isolated: int,
                           support: int) -> tuple[np.ndarray, np.ndarray]:
    """A with n - isolated diffuse rows and ``isolated`` rows each carried by only ``support`` columns.

    Columns 0 .. d - isolated*support - 1 are Gaussian / sqrt(d) on the diffuse rows (zero on the
    isolated ones); each isolated row i gets its own ``support`` columns, N(0, 1) on row i and zero
    elsewhere.  A sample missing all columns of an isolated row makes A x = b infeasible, so a
    sampler must find them (their l_q Lewis weights are large); b ~ N(0, I_n).
    Raises:
        ValueError: unless 0 <= isolated < n, support >= 1 and the columns fit in d.
    """
    m = isolated * support
    if not (0 <= isolated < n and support >= 1 and m < d - (n - isolated)):
        raise ValueError("need 0 <= isolated < n, support >= 1 and isolated * support < d - (n - isolated)")
    A = np.zeros((n, d))
    A[: n - isolated, : d - m] = rng.standard_normal((n - isolated, d - m)) / math.sqrt(d)
    for i in range(isolated):
        cols = d - m + i * support + np.arange(support)
        A[n - isolated + i, cols] = rng.standard_normal(support)
    return A, rng.standard_normal(n)
