"""Maximum coverage in turnstile streams, and estimators of the complement n^p - F_p.

Source: Ene, Epasto, Mirrokni, Nguyen, Nguyen, Woodruff & Zhong, "Maximum Coverage in Turnstile
Streams with Applications to Fingerprinting Measures" (ICML 2025, arXiv 2504.18394): a one-pass
linear-sketch algorithm for maximum coverage with (item, set) insertions and deletions and a
(1 - 1/e - eps) guarantee; an estimator of n^p - F_p.  The sketch below is a simplified stand-in
of the same type (our reconstruction): items are hashed to geometric levels (rate 2^-l), each
level keeps exact integer counts of the (item, set) incidences of its items, so the sketch is a
linear function of the stream; after the stream, the finest level with enough covered items is
read and greedy runs on it.  Greedy's (1 - 1/e) is Nemhauser, Wolsey & Fisher (1978).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, sparse

from .bloom import splitmix64


# ----------------------------------------------------------------------------- instances
def planted_coverage_instance(rng: np.random.Generator, n_items: int, n_sets: int, k: int,
                              decoy_fraction: float = 0.5) -> tuple[list[np.ndarray], np.ndarray]:
    """k disjoint sets partitioning the items (OPT = n_items) and n_sets - k small random decoys.

    Each decoy is a random subset of decoy_fraction * n_items / k items.  Returns (sets, decoy),
    sets a list of item index arrays in random order and decoy a boolean mask over them.
    """
    if not 1 <= k < n_sets or n_items < k:
        raise ValueError("need 1 <= k < n_sets and n_items >= k")
    perm = rng.permutation(n_items)
    sets = list(np.array_split(perm, k))
    size = max(1, int(decoy_fraction * n_items / k))
    sets += [rng.choice(n_items, size=size, replace=False) for _ in range(n_sets - k)]
    order = rng.permutation(n_sets)
    return [np.sort(sets[i]) for i in order], order >= k


def incidence_stream(rng: np.random.Generator, sets: list[np.ndarray], n_items: int,
                     spurious_per_set: int, padded=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Turnstile stream (items, sets, deltas): every true incidence inserted once, plus, per padded
    set, ``spurious_per_set`` fake incidences inserted and later deleted, all in random order
    (each deletion after its insertion).

    Args:
        padded: boolean mask of the sets receiving fake incidences (default: all).
    """
    items = [np.asarray(s, dtype=np.int64) for s in sets]
    true_i = np.concatenate(items)
    true_s = np.concatenate([np.full(s.size, j) for j, s in enumerate(items)])
    targets = np.arange(len(sets)) if padded is None else np.nonzero(np.asarray(padded))[0]
    fake_i = rng.integers(0, n_items, size=spurious_per_set * targets.size)
    fake_s = np.repeat(targets, spurious_per_set)
    ev_i = np.concatenate([true_i, fake_i, fake_i])
    ev_s = np.concatenate([true_s, fake_s, fake_s])
    ev_d = np.concatenate([np.ones(true_i.size + fake_i.size, dtype=np.int64), -np.ones(fake_i.size, dtype=np.int64)])
    # random times; each deletion is moved after its insertion
    t = rng.uniform(size=ev_i.size)
    nf, base = fake_i.size, true_i.size
    ins_t, del_t = t[base:base + nf], t[base + nf:]
    t[base:base + nf], t[base + nf:] = np.minimum(ins_t, del_t), np.maximum(ins_t, del_t)
    order = np.argsort(t, kind="stable")
    return ev_i[order], ev_s[order], ev_d[order]


# ----------------------------------------------------------------------------- sketch
def item_levels(items, seed: int) -> np.ndarray:
    """Geometric level of each item: l = floor(-log2 h(item)), h a salted splitmix64 hash in (0, 1)."""
    h = splitmix64(np.asarray(items, dtype=np.uint64) ^ np.uint64(seed % 2**64)).astype(np.float64)
    u = (h + 1.0) / 2.0**64
    return np.floor(-np.log2(u)).astype(np.int64)


class LevelSketch:
    """Linear sketch of a turnstile incidence stream: per level l, exact counts of the (item, set)
    incidences whose item has level >= l (sampling rate 2^-l).

    Counters are kept as sorted (key, count) arrays with key = item * d + set; zero counters are
    dropped, so the state is a canonical function of the net incidence counts.

    Args:
        n_sets: number of sets d; levels: number of levels kept; seed: hash salt.
        ignore_deletions: count only insertions (a broken, non-linear sketch, for controls).
    """

    def __init__(self, n_sets: int, levels: int, seed: int, ignore_deletions: bool = False) -> None:
        self.d, self.levels, self.seed = int(n_sets), int(levels), int(seed)
        self.ignore_deletions = ignore_deletions
        self.keys = [np.zeros(0, dtype=np.int64) for _ in range(self.levels)]
        self.counts = [np.zeros(0, dtype=np.int64) for _ in range(self.levels)]

    def update(self, items, sets, deltas) -> None:
        """Process a batch of stream updates (item, set, +-1)."""
        items, sets, deltas = (np.asarray(a, dtype=np.int64) for a in (items, sets, deltas))
        if self.ignore_deletions:
            keep = deltas > 0
            items, sets, deltas = items[keep], sets[keep], deltas[keep]
        lvl = item_levels(items, self.seed)
        keys = items * self.d + sets
        for level in range(self.levels):
            m = lvl >= level
            allk = np.concatenate([self.keys[level], keys[m]])
            allc = np.concatenate([self.counts[level], deltas[m]])
            uk, inv = np.unique(allk, return_inverse=True)
            sums = np.bincount(inv, weights=allc, minlength=uk.size).round().astype(np.int64)
            nz = sums != 0
            self.keys[level], self.counts[level] = uk[nz], sums[nz]

    def summary(self) -> np.ndarray:
        """Per level: number of nonzero counters, their sum, and sum of key * count (exact integers)."""
        return np.array([[k.size, int(c.sum()), int(np.sum(k * c))] for k, c in zip(self.keys, self.counts, strict=True)],
                        dtype=np.int64)

    def sampled_sets(self, level: int) -> list[set[int]]:
        """Per set, the sampled items with a positive count at ``level``."""
        out: list[set[int]] = [set() for _ in range(self.d)]
        pos = self.counts[level] > 0
        for key in self.keys[level][pos].tolist():
            out[key % self.d].add(key // self.d)
        return out

    def covered_items(self, level: int) -> int:
        return int(np.unique(self.keys[level][self.counts[level] > 0] // self.d).size)

    @property
    def counters(self) -> int:
        """Total number of nonzero counters stored."""
        return int(sum(k.size for k in self.keys))


def greedy_max_coverage(sets: list, k: int) -> list[int]:
    """Greedy: k times, the set covering most uncovered elements (ties to the lowest index).

    Args:
        sets: a list of collections of integer elements (arrays, lists or Python sets).
    Returns:
        The chosen set indices in the order greedy picks them.
    """
    arrays = [np.fromiter(s, dtype=np.int64) if isinstance(s, (set, frozenset)) else np.asarray(s, dtype=np.int64)
              for s in sets]
    universe = np.unique(np.concatenate(arrays)) if arrays else np.zeros(0, dtype=np.int64)
    member = np.zeros((len(arrays), universe.size), dtype=bool)
    for j, a in enumerate(arrays):
        member[j, np.searchsorted(universe, a)] = True
    covered = np.zeros(universe.size, dtype=bool)
    chosen: list[int] = []
    for _ in range(min(k, len(arrays))):
        gains = np.count_nonzero(member & ~covered, axis=1)
        gains[chosen] = -1
        j = int(np.argmax(gains))
        chosen.append(j)
        covered |= member[j]
    return chosen


def coverage(sets: list, chosen) -> int:
    """Number of elements covered by the chosen sets."""
    parts = [np.fromiter(sets[j], dtype=np.int64) if isinstance(sets[j], (set, frozenset))
             else np.asarray(sets[j], dtype=np.int64) for j in chosen]
    return int(np.unique(np.concatenate(parts)).size) if parts else 0


def sketch_max_coverage(sketch: LevelSketch, k: int, target_items: float) -> tuple[list[int], int]:
    """Read the finest level with at least ``target_items`` covered sampled items (level 0 if none)
    and run greedy there; returns (chosen sets, level)."""
    level = 0
    for lv in range(sketch.levels):
        if sketch.covered_items(lv) >= target_items:
            level = lv
    return greedy_max_coverage(sketch.sampled_sets(level), k), level


def max_coverage_milp(sets: list, n_items: int, k: int) -> tuple[int, str]:
    """Exact OPT by a mixed-integer programme (HiGHS): max sum z_i, z_i <= sum_{j ni i} y_j, sum y = k.

    Returns (optimal coverage, status message).
    """
    d = len(sets)
    rows, cols = [], []
    for j, s in enumerate(sets):
        rows += list(np.asarray(s).tolist())
        cols += [j] * len(s)
    M = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n_items, d))
    # variables: y (d, binary), z (n, continuous in [0, 1]); constraint z - M y <= 0
    A = sparse.hstack([-M, sparse.identity(n_items)]).tocsr()
    card = sparse.hstack([sparse.csr_matrix(np.ones((1, d))), sparse.csr_matrix((1, n_items))])
    cons = [optimize.LinearConstraint(A, -np.inf, 0.0), optimize.LinearConstraint(card, k, k)]
    c = np.concatenate([np.zeros(d), -np.ones(n_items)])
    res = optimize.milp(c, constraints=cons, integrality=np.concatenate([np.ones(d), np.zeros(n_items)]),
                        bounds=optimize.Bounds(0, 1))
    if res.status != 0:
        raise ValueError(f"HiGHS MILP failed: {res.message}")
    return int(round(-res.fun)), res.message


# ----------------------------------------------------------------------------- complement of F_p
def complement_moment(class_sizes, p: int) -> float:
    """C_p = n^p - F_p with n = sum of the class sizes and F_p = sum x_a^p (exact, integer arithmetic)."""
    x = [int(v) for v in np.asarray(class_sizes).ravel()]
    if any(v < 0 for v in x) or p < 1:
        raise ValueError("class sizes must be non-negative and p >= 1")
    return float(sum(x) ** p - sum(v**p for v in x))


def tuple_sampling_complement(rng: np.random.Generator, class_sizes, p: int, samples: int) -> float:
    """Estimate C_p as n^p times the fraction of ``samples`` uniform p-tuples of users not all in one class.

    A user drawn uniformly is a class drawn with probability x_a / n (an l1 sample of x).
    """
    x = np.asarray(class_sizes, dtype=float)
    n = x.sum()
    draws = rng.choice(x.size, size=(samples, p), p=x / n)
    mixed = np.any(draws != draws[:, :1], axis=1)
    return float(n**p * mixed.mean())


def ams_second_moment(rng: np.random.Generator, class_sizes, counters: int) -> float:
    """AMS estimate of F_2: mean over ``counters`` of (sum_a s_a x_a)^2 with independent random signs."""
    x = np.asarray(class_sizes, dtype=float)
    z = np.empty(counters)
    for start in range(0, counters, 256):
        m = min(256, counters - start)
        s = rng.choice((-1.0, 1.0), size=(m, x.size))
        z[start:start + m] = s @ x
    return float(np.mean(z**2))


def required_samples(epsilon: float, fraction: float) -> int:
    """S = ceil(4 / (eps^2 q)), q = C_p / n^p: Chebyshev gives relative error <= eps w.p. >= 3/4."""
    if not (0 < epsilon and 0 < fraction <= 1):
        raise ValueError("need epsilon > 0 and fraction in (0, 1]")
    return math.ceil(4 / (epsilon**2 * fraction))


# ----------------------------------------------------------------------------- greedy-tight instances
def greedy_tight_instance(k: int, block: int, n_decoys: int = 0, decoy_size: int = 1,
                          rng: np.random.Generator | None = None) -> tuple[list[np.ndarray], int, np.ndarray]:
    """The classical instance on which greedy covers only 1 - (1 - 1/k)^k of the optimum.

    The universe is k blocks O_1..O_k of ``block`` items each (the optimal sets).  Greedy set B_i
    takes block (1/k)(1 - 1/k)^(i-1) items from every block, disjoint from B_1..B_(i-1), plus one
    private item, so at step i it beats every O_j by exactly one new item (Nemhauser, Wolsey &
    Fisher 1978; Cornuejols, Fisher & Nemhauser 1977).  ``n_decoys`` further sets of
    ``decoy_size`` random block items pad the family.  ``block`` must be divisible by k^k so every
    size is an integer.

    Returns:
        (sets, n_items, optimal): the family in a random order if ``rng`` is given, the
        universe size (k block + k private items) and the indices of the k optimal sets O_j.
    Raises:
        ValueError: unless k >= 2 and k^k divides block.
    """
    if k < 2 or block % k**k:
        raise ValueError(f"need k >= 2 and block divisible by k^k = {k**k}, got k={k}, block={block}")
    blocks = [np.arange(j * block, (j + 1) * block) for j in range(k)]
    greedy_sets, taken = [], 0
    for i in range(k):
        part = block * (k - 1) ** i // k ** (i + 1)               # (block/k)(1 - 1/k)^i items per block
        items = np.concatenate([b[taken:taken + part] for b in blocks] + [np.array([k * block + i])])
        greedy_sets.append(items)
        taken += part
    decoys = []
    gen = rng if rng is not None else np.random.default_rng(0)
    for _ in range(n_decoys):
        decoys.append(np.sort(gen.choice(k * block, size=decoy_size, replace=False)))
    sets = blocks + greedy_sets + decoys
    order = gen.permutation(len(sets)) if rng is not None else np.arange(len(sets))
    sets = [np.asarray(sets[i], dtype=np.int64) for i in order]
    optimal = np.nonzero(order < k)[0]
    return sets, k * block + k, optimal


def max_coverage_exhaustive(sets: list, n_items: int, k: int) -> tuple[int, tuple[int, ...]]:
    """Exact maximum coverage by enumerating all k-subsets with boolean masks (small families only).

    Returns (optimal coverage, one optimal choice).  Raises ValueError for more than 10^6 subsets.
    """
    import itertools

    d = len(sets)
    if math.comb(d, k) > 10**6:
        raise ValueError(f"C({d}, {k}) subsets is too many for enumeration")
    masks = np.zeros((d, n_items), dtype=bool)
    for j, s in enumerate(sets):
        masks[j, np.asarray(s, dtype=np.int64)] = True
    best, arg = -1, ()
    for combo in itertools.combinations(range(d), k):
        c = int(np.count_nonzero(np.logical_or.reduce(masks[list(combo)], axis=0)))
        if c > best:
            best, arg = c, combo
    return best, arg


# ----------------------------------------------------------------------------- fixed-size sketch
class FixedLevelSketch:
    """A linear sketch of fixed size: per subsampling level, an invertible Bloom lookup table.

    Items are hashed to geometric levels as in :class:`LevelSketch` (rate 2^-l); level l holds the
    (item, set) incidences of the items of level >= l in ``cells`` cells, each cell three integer
    sums over the keys mapped to it (count, key, key fingerprint; key = item d + set), each key in
    one cell of each of three equal sub-tables (Goodrich & Mitzenmacher 2011).  Every counter is a
    sum of +-1 updates (mod 2^64 for the fingerprint), so the sketch is linear and supports
    deletions; its size, ``levels * cells * 3`` counters, does not depend on the universe size n.
    A level decodes (by peeling cells that hold exactly one key) when it holds fewer than about
    0.8 ``cells`` keys.

    Args:
        n_sets: d; levels: number of levels; cells: cells per level (rounded up to a multiple of 3);
        seed: hash salt; ignore_deletions: count only insertions (a broken sketch, for controls).
    """

    def __init__(self, n_sets: int, levels: int, cells: int, seed: int, ignore_deletions: bool = False) -> None:
        if n_sets < 1 or levels < 1 or cells < 3:
            raise ValueError(f"need n_sets >= 1, levels >= 1 and cells >= 3, got {n_sets}, {levels}, {cells}")
        self.d, self.levels, self.seed = int(n_sets), int(levels), int(seed)
        self.cells = 3 * math.ceil(cells / 3)
        self.ignore_deletions = ignore_deletions
        self.count = np.zeros((self.levels, self.cells), dtype=np.int64)
        self.keysum = np.zeros((self.levels, self.cells), dtype=np.int64)
        self.check = np.zeros((self.levels, self.cells), dtype=np.uint64)

    def _positions(self, keys: np.ndarray) -> np.ndarray:
        """Cell of each key in each of the three sub-tables, shape (len(keys), 3)."""
        third = self.cells // 3
        salts = np.array([0x51ED27, 0xA24BAED4, 0x9FB21C65], dtype=np.uint64) ^ np.uint64(self.seed % 2**64)
        h = splitmix64(keys.astype(np.uint64)[:, None] ^ salts[None, :])
        return (h % np.uint64(third)).astype(np.int64) + np.arange(3) * third

    def _fingerprint(self, keys: np.ndarray) -> np.ndarray:
        return splitmix64(keys.astype(np.uint64) ^ np.uint64((self.seed * 0x9E3779B1 + 7) % 2**64))

    def update(self, items, sets, deltas) -> None:
        """Process a batch of stream updates (item, set, +-1)."""
        items, sets, deltas = (np.asarray(a, dtype=np.int64) for a in (items, sets, deltas))
        if self.ignore_deletions:
            keep = deltas > 0
            items, sets, deltas = items[keep], sets[keep], deltas[keep]
        lvl = np.minimum(item_levels(items, self.seed), self.levels - 1)
        keys = items * self.d + sets
        pos, fp = self._positions(keys), self._fingerprint(keys)
        wrapped = deltas.astype(np.uint64)          # -1 wraps to 2^64 - 1: fingerprint sums mod 2^64
        for level in range(self.levels):
            m = lvl >= level
            if not np.any(m):
                break
            p = pos[m].ravel()
            np.add.at(self.count[level], p, np.repeat(deltas[m], 3))
            np.add.at(self.keysum[level], p, np.repeat(keys[m] * deltas[m], 3))
            with np.errstate(over="ignore"):
                np.add.at(self.check[level], p, np.repeat(fp[m] * wrapped[m], 3))

    def decode(self, level: int) -> np.ndarray | None:
        """The keys with a net count of +1 at ``level`` (sorted), or None when peeling does not empty the table.

        Raises:
            ValueError: when a decoded key has a net count other than +1 (not a 0/1 incidence matrix).
        """
        count, keysum, check = self.count[level].copy(), self.keysum[level].copy(), self.check[level].copy()
        found: list[int] = []
        while True:
            pure = np.nonzero((count == 1) & (check == self._fingerprint(keysum)))[0]
            if pure.size == 0:
                break
            keys = np.unique(keysum[pure])
            pos, fp = self._positions(keys), self._fingerprint(keys)
            for j in range(3):
                np.subtract.at(count, pos[:, j], 1)
                np.subtract.at(keysum, pos[:, j], keys)
                with np.errstate(over="ignore"):
                    np.subtract.at(check, pos[:, j], fp)
            found.extend(keys.tolist())
        if np.any(count) or np.any(keysum) or np.any(check):
            return None
        return np.sort(np.asarray(found, dtype=np.int64))

    @property
    def counters(self) -> int:
        """Number of integer counters the sketch stores (independent of the stream and of n)."""
        return 3 * self.levels * self.cells


def fixed_sketch_max_coverage(sketch: FixedLevelSketch, k: int) -> tuple[list[int], int]:
    """Greedy on the finest level that decodes (the largest sample the fixed size allows).

    Returns (chosen sets, level); level ``sketch.levels`` (and k arbitrary sets) when none decodes.
    """
    for level in range(sketch.levels):
        keys = sketch.decode(level)
        if keys is not None:
            items, owners = keys // sketch.d, keys % sketch.d
            sampled = [items[owners == j] for j in range(sketch.d)]
            return greedy_max_coverage(sampled, k), level
    return list(range(min(k, sketch.d))), sketch.levels
