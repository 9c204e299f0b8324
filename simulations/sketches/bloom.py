"""Bloom filters, learned Bloom filters and ensembles of learned Bloom filters.

Sources: Bloom (1970); Broder & Mitzenmacher, "Network applications of Bloom filters: a
survey" (2004) for the false-positive rate (1 - e^{-kn/m})^k and the optimal k = (m/n) ln 2;
Mitzenmacher, "A Model for Learned Bloom Filters and Optimizing by Sandwiching" (NeurIPS 2018)
for the learned Bloom filter (oracle with threshold, backup filter holding the oracle's false
negatives, FPR = F_p + (1 - F_p) alpha^{b / F_n}); Lin & Chen, "Ensemble Learned Bloom Filters:
Two Oracles are Better than One" (ICML 2025) for ensembles of oracles with optimised backup
filters (the composition below, a query is a member iff every stage passes it, and the
independent-oracle FPR product are our reading of that paper).

Hashing: k independent salted splitmix64 hashes of 64-bit integer keys, reduced mod m.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import integrate, optimize, stats

ALPHA = 0.5 ** math.log(2)          # 0.6185...: FPR per bit-per-key at the optimal number of hashes

_M1, _M2, _GOLD = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)


def splitmix64(x) -> np.ndarray:
    """The splitmix64 finaliser (Steele, Lea & Flood 2014) applied elementwise to uint64 values."""
    z = np.asarray(x, dtype=np.uint64) + _GOLD
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def bloom_false_positive_rate(m: int, n: int, k: int) -> float:
    """Standard Bloom-filter false-positive rate (1 - e^{-kn/m})^k for n keys, m bits, k hashes.

    Raises:
        ValueError: unless m >= 1, n >= 0, k >= 1.
    """
    if m < 1 or n < 0 or k < 1:
        raise ValueError(f"need m >= 1, n >= 0 and k >= 1, got m={m}, n={n}, k={k}")
    return (1.0 - math.exp(-k * n / m)) ** k


def bloom_false_positive_rate_finite(m: int, n: int, k: int) -> float:
    """(1 - (1 - 1/m)^{kn})^k: the same with the exact expected fraction of set bits."""
    if m < 1 or n < 0 or k < 1:
        raise ValueError(f"need m >= 1, n >= 0 and k >= 1, got m={m}, n={n}, k={k}")
    return (1.0 - (1.0 - 1.0 / m) ** (k * n)) ** k


def optimal_hash_count(m: int, n: int) -> int:
    """k = round((m/n) ln 2), at least 1 (1 when n = 0)."""
    return max(1, round(m / n * math.log(2))) if n > 0 else 1


class BloomFilter:
    """A Bloom filter over 64-bit integer keys.

    Args:
        m: number of bits (>= 1).
        k: number of hash functions (>= 1).
        seed: 64-bit salt making this filter's hash functions independent of other filters'.
        shared_hash: if True, one hash function is used k times (a broken filter, for controls).
    """

    def __init__(self, m: int, k: int, seed: int = 0, shared_hash: bool = False) -> None:
        if m < 1 or k < 1:
            raise ValueError(f"need m >= 1 bits and k >= 1 hashes, got m={m}, k={k}")
        self.m, self.k = int(m), int(k)
        self.bits = np.zeros(self.m, dtype=bool)
        base = (int(seed) * 1000003) % 2**64
        salts = splitmix64(np.array([(base + i) % 2**64 for i in range(self.k)], dtype=np.uint64))
        self._salts = salts[:1].repeat(self.k) if shared_hash else salts

    def _positions(self, keys) -> np.ndarray:
        keys = np.asarray(keys, dtype=np.uint64).ravel()
        h = splitmix64(keys[:, None] ^ self._salts[None, :])
        return (h % np.uint64(self.m)).astype(np.int64)

    def add(self, keys) -> None:
        """Insert keys (array of uint64)."""
        if np.size(keys):
            self.bits[self._positions(keys).ravel()] = True

    def contains(self, keys) -> np.ndarray:
        """Boolean array: True where every hashed bit is set (never False for an inserted key)."""
        if not np.size(keys):
            return np.zeros(0, dtype=bool)
        return self.bits[self._positions(keys)].all(axis=1)

    @property
    def fill(self) -> float:
        """Fraction of bits set."""
        return float(self.bits.mean())


def build_bloom_filter(keys, m: int, seed: int = 0, k: int | None = None, shared_hash: bool = False) -> BloomFilter:
    """A filter of m bits holding ``keys`` with k = optimal_hash_count(m, len(keys)) unless given."""
    keys = np.asarray(keys, dtype=np.uint64)
    bf = BloomFilter(m, k or optimal_hash_count(m, keys.size), seed, shared_hash)
    bf.add(keys)
    return bf


# ----------------------------------------------------------------------------- oracles
@dataclass(frozen=True)
class GaussianOracle:
    """A learned oracle with Gaussian scores: non-keys N(0, 1), keys N(separation, 1).

    The separation grows with the oracle's size s (bits) with diminishing returns,
    separation(s) = max_separation (1 - exp(-s / scale)) (a model of Lin & Chen's Fig. 1 observation).
    """

    size: float
    max_separation: float
    scale: float
    linear: bool = False   # separation = max_separation s / scale instead (no diminishing returns)

    @property
    def separation(self) -> float:
        if self.linear:
            return self.max_separation * self.size / self.scale
        return self.max_separation * (1.0 - math.exp(-self.size / self.scale))

    def false_positive_rate(self, threshold: float) -> float:
        """P(non-key score >= threshold) = 1 - Phi(threshold)."""
        return float(stats.norm.sf(threshold))

    def false_negative_rate(self, threshold: float) -> float:
        """P(key score < threshold) = Phi(threshold - separation)."""
        return float(stats.norm.cdf(threshold - self.separation))


def lbf_false_positive_rate(fp: float, fn: float, backup_bits_per_key: float) -> float:
    """Mitzenmacher's learned-Bloom-filter FPR: F_p + (1 - F_p) alpha^{b / F_n}, b backup bits per key."""
    if fn <= 0:
        return fp
    return fp + (1 - fp) * ALPHA ** (backup_bits_per_key / fn)


def ensemble_false_positive_rate(fps, fns, backup_bits_per_key) -> float:
    """FPR of an ensemble of independent-oracle stages: prod_i [F_p^i + (1 - F_p^i) alpha^{b_i / F_n^i}].

    A query is reported a member iff every stage passes it (oracle i says yes or backup filter i
    holds it); with independent oracles and independent hashes the stages' false positives on a
    non-key are independent events.
    """
    return float(np.prod([lbf_false_positive_rate(p, q, b) for p, q, b in
                          zip(fps, fns, backup_bits_per_key, strict=True)]))


@dataclass(frozen=True)
class StageConfig:
    """One stage: oracle size (bits per key), score threshold, backup bits per key."""

    oracle_bits: float
    threshold: float
    backup_bits: float


def optimise_single_lbf(budget: float, max_separation: float, scale: float,
                        linear: bool = False) -> tuple[StageConfig, float]:
    """Best single-oracle LBF within ``budget`` bits per key: (config, model FPR).

    Minimises lbf_false_positive_rate over (oracle size, threshold) with backup = budget - size,
    by a bounded scalar search on the threshold nested in a grid + refinement on the size.
    """
    def best_threshold(size: float) -> tuple[float, float]:
        o = GaussianOracle(size, max_separation, scale, linear)
        b = budget - size
        f = lambda t: lbf_false_positive_rate(o.false_positive_rate(t), o.false_negative_rate(t), b)  # noqa: E731
        r = optimize.minimize_scalar(f, bounds=(-4.0, 12.0), method="bounded", options={"xatol": 1e-10})
        return float(r.fun), float(r.x)

    sizes = np.linspace(0.0, budget, 41)[:-1]
    vals = [best_threshold(s)[0] for s in sizes]
    i = int(np.argmin(vals))
    lo, hi = sizes[max(i - 1, 0)], sizes[min(i + 1, len(sizes) - 1)]
    r = optimize.minimize_scalar(lambda s: best_threshold(s)[0], bounds=(lo, hi), method="bounded",
                                 options={"xatol": 1e-9})
    size = float(r.x) if r.fun <= vals[i] else float(sizes[i])
    fpr, t = best_threshold(size)
    return StageConfig(size, t, budget - size), fpr


def optimise_ensemble(budget: float, max_separation: float, scale: float, n_oracles: int = 2,
                      linear: bool = False, restarts: int = 8, seed: int = 0) -> tuple[list[StageConfig], float]:
    """Best ensemble of ``n_oracles`` independent-oracle stages within ``budget`` bits per key.

    Variables per stage: oracle bits, threshold, backup bits (all >= 0, total <= budget);
    minimises the log of :func:`ensemble_false_positive_rate` with SLSQP from several starts.
    """
    rng = np.random.default_rng(seed)

    def unpack(z):
        z = np.asarray(z).reshape(n_oracles, 3)
        return z[:, 0], z[:, 1], z[:, 2]

    def objective(z):
        s, t, b = unpack(z)
        fps = [GaussianOracle(si, max_separation, scale, linear).false_positive_rate(ti) for si, ti in zip(s, t, strict=True)]
        fns = [GaussianOracle(si, max_separation, scale, linear).false_negative_rate(ti) for si, ti in zip(s, t, strict=True)]
        return math.log(max(ensemble_false_positive_rate(fps, fns, np.maximum(b, 0.0)), 1e-300))

    cons = [{"type": "ineq", "fun": lambda z: budget - np.sum(unpack(z)[0]) - np.sum(unpack(z)[2])}]
    bounds = [(0.0, budget), (-4.0, 12.0), (0.0, budget)] * n_oracles
    best = None
    for _ in range(restarts):
        share = rng.dirichlet(np.ones(2 * n_oracles)) * budget * 0.99
        z0 = np.column_stack([share[:n_oracles], rng.uniform(0, 3, n_oracles), share[n_oracles:]]).ravel()
        r = optimize.minimize(objective, z0, method="SLSQP", bounds=bounds, constraints=cons,
                              options={"ftol": 1e-12, "maxiter": 500})
        if best is None or r.fun < best.fun:
            best = r
    s, t, b = unpack(best.x)
    configs = [StageConfig(float(si), float(ti), float(max(bi, 0.0))) for si, ti, bi in zip(s, t, b, strict=True)]
    return configs, float(math.exp(best.fun))


# ----------------------------------------------------------------------------- simulation
def draw_keys(rng: np.random.Generator, n_keys: int, n_queries: int) -> tuple[np.ndarray, np.ndarray]:
    """Disjoint random uint64 key set (n_keys) and non-key query set (n_queries)."""
    ids = rng.choice(2**62, size=n_keys + n_queries + 16, replace=False).astype(np.uint64)
    return ids[:n_keys], ids[n_keys:n_keys + n_queries]


def ensemble_query(rng: np.random.Generator, keys, queries, stages: list[StageConfig],
                   max_separation: float, scale: float, correlated: bool = False,
                   backup_holds: str = "false_negatives", linear: bool = False,
                   shared_hash: bool = False, correlation: float = 0.0) -> dict[str, int]:
    """Build an ensemble LBF on ``keys`` and count its false positives on ``queries`` and false negatives on keys.

    Each stage i draws oracle scores (keys N(sep_i, 1), non-keys N(0, 1)), passes items with
    score >= threshold_i, and has a backup Bloom filter of round(backup_bits_i * n_keys) bits.
    A single stage is a plain learned Bloom filter.

    Args:
        correlated: all oracles share one standard-normal noise draw (perfectly correlated oracles).
        correlation: rho in [0, 1): every oracle's noise is sqrt(rho) z_shared + sqrt(1 - rho) z_own,
            so any two oracles' scores have correlation rho (0: independent oracles).
        backup_holds: ``"false_negatives"`` (the keys the oracle rejects, correct) or
            ``"accepted"`` (the keys it accepts: a broken backup that ignores the oracle's errors).
    Returns:
        dict with false_positives, n_queries, false_negatives, n_keys, and ``backup``: per stage
        (keys held, bits, hashes) of its backup filter.
    """
    keys, queries = np.asarray(keys, dtype=np.uint64), np.asarray(queries, dtype=np.uint64)
    if not 0.0 <= correlation < 1.0:
        raise ValueError(f"correlation must lie in [0, 1), got {correlation}")
    if backup_holds not in ("false_negatives", "accepted"):
        raise ValueError(f"backup_holds must be 'false_negatives' or 'accepted', not {backup_holds!r}")
    n = keys.size
    pass_keys = np.ones(n, dtype=bool)
    pass_queries = np.ones(queries.size, dtype=bool)
    shared_k, shared_q = rng.standard_normal(n), rng.standard_normal(queries.size)
    backup = []
    for st in stages:
        sep = GaussianOracle(st.oracle_bits, max_separation, scale, linear).separation
        zk = shared_k if correlated else rng.standard_normal(n)
        zq = shared_q if correlated else rng.standard_normal(queries.size)
        if correlation and not correlated:
            zk = math.sqrt(correlation) * shared_k + math.sqrt(1 - correlation) * zk
            zq = math.sqrt(correlation) * shared_q + math.sqrt(1 - correlation) * zq
        yes_k, yes_q = sep + zk >= st.threshold, zq >= st.threshold
        held = keys[~yes_k] if backup_holds == "false_negatives" else keys[yes_k]
        bits = max(1, round(st.backup_bits * n))
        bf = build_bloom_filter(held, bits, seed=int(rng.integers(2**62)), shared_hash=shared_hash)
        # Only items the oracle rejects and that are still in the running need the backup filter.
        for passing, yes, items in ((pass_keys, yes_k, keys), (pass_queries, yes_q, queries)):
            need = passing & ~yes
            held_hit = np.zeros(items.size, dtype=bool)
            held_hit[need] = bf.contains(items[need])
            passing &= yes | held_hit
        backup.append((int(held.size), bits, bf.k))
    return {"false_positives": int(pass_queries.sum()), "n_queries": int(queries.size),
            "false_negatives": int((~pass_keys).sum()), "n_keys": int(n), "backup": backup}


def correlated_ensemble_false_positive_rate(thresholds, backup_fprs, correlation: float) -> float:
    """FPR of an ensemble whose oracles' non-key scores are equicorrelated standard normals.

    A non-key passes stage i if its oracle score z_i >= t_i or backup filter i (FPR f_i, hashes
    independent of everything else) reports it.  Summing over the set A of stages whose oracle
    accepts: FPR = sum_A P(z_i >= t_i for i in A, z_j < t_j for j not in A) prod_{j not in A} f_j,
    with the orthant probabilities by inclusion-exclusion over joint CDFs, each a 1-D integral over
    the common factor u of the equicorrelated normals (z_i = sqrt(rho) u + sqrt(1 - rho) e_i).

    Args:
        thresholds: t_i per stage; backup_fprs: f_i per stage; correlation: rho in [0, 1).
    Raises:
        ValueError: on mismatched lengths, more than 6 stages, or rho outside [0, 1).
    """
    import itertools

    t = np.asarray(thresholds, dtype=float)
    f = np.asarray(backup_fprs, dtype=float)
    m = t.size
    if f.shape != t.shape or not 1 <= m <= 6 or not 0.0 <= correlation < 1.0:
        raise ValueError("need matching thresholds and backup FPRs for 1..6 stages and rho in [0, 1)")

    def below(idx) -> float:      # P(z_i < t_i for i in idx)
        idx = list(idx)
        if not idx:
            return 1.0
        if len(idx) == 1 or correlation == 0.0:
            return float(np.prod(stats.norm.cdf(t[idx])))
        # equicorrelated: z_i = sqrt(rho) u + sqrt(1 - rho) e_i, so condition on the common factor u
        a, c = math.sqrt(correlation), math.sqrt(1 - correlation)
        val, _ = integrate.quad(lambda u: stats.norm.pdf(u) * np.prod(stats.norm.cdf((t[idx] - a * u) / c)),
                                -np.inf, np.inf, epsabs=1e-13, epsrel=1e-11, limit=200)
        return float(val)

    total = 0.0
    for accept in itertools.product((False, True), repeat=m):
        rej = [i for i in range(m) if not accept[i]]
        acc = [i for i in range(m) if accept[i]]
        # P(accept set = acc exactly) = sum_{S subset acc} (-1)^|S| P(z < t on rej + S)
        p = sum((-1) ** len(S) * below(rej + list(S)) for r in range(len(acc) + 1)
                for S in itertools.combinations(acc, r))
        total += p * float(np.prod(f[rej]))
    return float(total)
