"""Optimal pruning of decision trees by subtree replacement and by subtree raising.

Setting (reduced-error pruning; Quinlan 1987, Elomaa & Kääriäinen, JAIR 2001): a decision tree
over integer features x in {0, ..., D-1}^d, inner node v testing x[f_v] <= theta_v (left if
true), leaves with fixed class labels, and a set E of labelled examples on which the pruned tree
is scored (number of misclassified examples).  Operations (Harviainen, Sommer, Sorge & Szeider,
"Optimal Decision Tree Pruning Revisited: Algorithms and Complexity", ICML 2025):

* subtree replacement: an inner node becomes a leaf labelled with the majority class of the
  examples of E reaching it (ties to the smallest class);
* subtree raising: an inner node is replaced by the subtree of one of its children; the examples
  that went to the other child are re-routed through the raised subtree (C4.5's operation).

The NP-hardness of raising is checked through a reduction of our own from k-Clique
(:func:`clique_raising_instance`), verified exhaustively on small graphs.

Problem: with at most k operations, minimise the errors on E.  The paper proves replacement
polynomial and raising NP-complete but solvable in D^{2d} |I|^{O(1)} time.  The algorithms here
are our reconstruction: a tree-knapsack dynamic programme for replacement, and for raising a
dynamic programme over (node, box) states, a box being the set of feature vectors whose values
lie in one interval per feature (at most (D(D+1)/2)^d boxes), checked against brute force.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

LEAF = -1


@dataclass
class Tree:
    """A binary decision tree in arrays; node 0 is the root.

    Attributes:
        feature: (m,) tested feature of each node, -1 at leaves.
        threshold: (m,) threshold theta (go left iff x[feature] <= theta).
        left, right: (m,) child indices (-1 at leaves).
        label: (m,) class of each leaf (ignored at inner nodes).
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    label: np.ndarray

    @property
    def n_nodes(self) -> int:
        return int(self.feature.size)

    def is_leaf(self, v: int) -> bool:
        return bool(self.feature[v] == LEAF)

    def inner_nodes(self) -> list[int]:
        return [v for v in range(self.n_nodes) if not self.is_leaf(v)]


def _build(rng, depth, n_features, domain, n_classes, leaf_probability, nodes) -> int:
    v = len(nodes)
    nodes.append(None)
    if depth == 0 or (v > 0 and rng.uniform() < leaf_probability) or domain < 2:
        nodes[v] = (LEAF, 0, LEAF, LEAF, int(rng.integers(n_classes)))
        return v
    f, t = int(rng.integers(n_features)), int(rng.integers(domain - 1))
    left = _build(rng, depth - 1, n_features, domain, n_classes, leaf_probability, nodes)
    right = _build(rng, depth - 1, n_features, domain, n_classes, leaf_probability, nodes)
    nodes[v] = (f, t, left, right, 0)
    return v


def random_tree(rng: np.random.Generator, depth: int, n_features: int, domain: int,
                n_classes: int = 2, leaf_probability: float = 0.0) -> Tree:
    """A random tree of depth <= ``depth``: random tests x[f] <= theta (theta in 0..D-2), random leaf labels.

    Args:
        leaf_probability: chance that a non-root node above the maximal depth is a leaf
            (0 gives a complete tree with 2^depth leaves).
    Raises:
        ValueError: on depth < 0, n_features < 1, domain < 2 or n_classes < 2.
    """
    if depth < 0 or n_features < 1 or domain < 2 or n_classes < 2:
        raise ValueError("need depth >= 0, n_features >= 1, domain >= 2 and n_classes >= 2")
    nodes: list = []
    _build(rng, depth, n_features, domain, n_classes, leaf_probability, nodes)
    cols = np.array(nodes, dtype=np.int64).T
    return Tree(*cols)


def predict(tree: Tree, X) -> np.ndarray:
    """Class predicted by the tree for each row of X (n, d) of integer features."""
    X = np.asarray(X)
    node = np.zeros(X.shape[0], dtype=np.int64)
    for _ in range(tree.n_nodes):
        inner = tree.feature[node] != LEAF
        if not inner.any():
            break
        idx = np.nonzero(inner)[0]
        v = node[idx]
        go_left = X[idx, tree.feature[v]] <= tree.threshold[v]
        node[idx] = np.where(go_left, tree.left[v], tree.right[v])
    return tree.label[node]


def random_examples(rng: np.random.Generator, tree: Tree, n: int, n_features: int, domain: int,
                    noise: float = 0.2, n_classes: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """n uniform feature vectors in {0..D-1}^d labelled by the tree, each label replaced by a random class w.p. noise."""
    X = rng.integers(0, domain, size=(n, n_features))
    y = predict(tree, X)
    flip = rng.uniform(size=n) < noise
    y = np.where(flip, rng.integers(0, n_classes, size=n), y)
    return X, y


def _minority(y_sub: np.ndarray) -> int:
    """Errors of a leaf labelled with the majority class of y_sub."""
    if y_sub.size == 0:
        return 0
    return int(y_sub.size - np.bincount(y_sub).max())


def _route(tree: Tree, X) -> list[np.ndarray]:
    """Indices of the examples reaching each node."""
    X = np.asarray(X)
    reach: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * tree.n_nodes
    reach[0] = np.arange(X.shape[0])
    for v in range(tree.n_nodes):          # parents precede children in the array order
        if tree.is_leaf(v):
            continue
        idx = reach[v]
        go_left = X[idx, tree.feature[v]] <= tree.threshold[v]
        reach[tree.left[v]], reach[tree.right[v]] = idx[go_left], idx[~go_left]
    return reach


# ----------------------------------------------------------------------------- replacement
@dataclass
class DPResult:
    """Minimal errors best[j] with at most j operations (j = 0..k) and the DP's work count."""

    best: np.ndarray
    operations: int = 0
    states: int = 0
    extra: dict = field(default_factory=dict)


def replacement_errors(tree: Tree, X, y, replaced) -> int:
    """Errors on (X, y) after replacing the nodes in ``replaced`` by majority leaves."""
    reach = _route(tree, X)
    y = np.asarray(y)
    replaced = set(int(v) for v in replaced)
    total, stack = 0, [0]
    while stack:
        v = stack.pop()
        if v in replaced:
            total += _minority(y[reach[v]])
        elif tree.is_leaf(v):
            total += int(np.sum(y[reach[v]] != tree.label[v]))
        else:
            stack += [int(tree.left[v]), int(tree.right[v])]
    return total


def optimal_replacement_dp(tree: Tree, X, y, k: int) -> DPResult:
    """Tree-knapsack DP: E_v[j] = min(minority(v) if j >= 1, min_{j1 + j2 = j} E_l[j1] + E_r[j2]).

    O(sum_v min(k, s_l) min(k, s_r)) combinations, s the numbers of inner nodes below:
    O(|T| k^2), and O(|T|^2) for unbounded k.  ``operations`` counts the combinations.

    Returns:
        DPResult with best[j] = minimal errors using at most j replacements, j = 0..k.
    Raises:
        ValueError: on k < 0.
    """
    if k < 0:
        raise ValueError(f"the budget k must be >= 0, got {k}")
    reach, y = _route(tree, X), np.asarray(y)
    table: dict[int, np.ndarray] = {}
    inner_below: dict[int, int] = {}
    ops = 0
    for v in reversed(range(tree.n_nodes)):
        if tree.is_leaf(v):
            table[v] = np.array([int(np.sum(y[reach[v]] != tree.label[v]))])
            inner_below[v] = 0
            continue
        a, b = table.pop(int(tree.left[v])), table.pop(int(tree.right[v]))
        inner_below[v] = 1 + inner_below[int(tree.left[v])] + inner_below[int(tree.right[v])]
        size = min(k, inner_below[v]) + 1
        out = np.full(size, np.iinfo(np.int64).max)
        for j1 in range(a.size):
            for j2 in range(min(b.size, size - j1)):
                ops += 1
                out[j1 + j2] = min(out[j1 + j2], a[j1] + b[j2])
        if size > 1:
            out[1:] = np.minimum(out[1:], _minority(y[reach[v]]))
        table[v] = np.minimum.accumulate(out)
    root = table[0]
    best = np.concatenate([root, np.full(k + 1 - root.size, root[-1])])
    return DPResult(best, operations=ops, states=tree.n_nodes)


def brute_force_replacement(tree: Tree, X, y, k: int) -> np.ndarray:
    """best[j], j = 0..k, by trying every set of at most k inner nodes (exponential)."""
    inner = tree.inner_nodes()
    best = np.full(k + 1, np.iinfo(np.int64).max)
    for size in range(0, min(k, len(inner)) + 1):
        for subset in itertools.combinations(inner, size):
            e = replacement_errors(tree, X, y, subset)
            best[size:] = np.minimum(best[size:], e)
    return best


def greedy_replacement(tree: Tree, X, y, k: int) -> np.ndarray:
    """best[j] of greedy reduced-error pruning: each step replaces the node lowering the errors most.

    Stops when no replacement lowers the errors; a heuristic, not optimal in general.
    """
    current: set[int] = set()
    errs = [replacement_errors(tree, X, y, current)]
    for _ in range(k):
        cands = [(replacement_errors(tree, X, y, current | {v}), v) for v in tree.inner_nodes()
                 if v not in current]
        if not cands or min(cands)[0] >= errs[-1]:
            break
        e, v = min(cands)
        current.add(v)
        errs.append(e)
    errs += [errs[-1]] * (k + 1 - len(errs))
    return np.array(errs)


def antichain_count(tree: Tree) -> int:
    """Number of sets of inner nodes no two of which are ancestor and descendant (exact integer).

    a(leaf) = 1, a(v) = a(left) a(right) + 1: the candidate sets an exhaustive replacement search visits.
    """
    count: dict[int, int] = {}
    for v in reversed(range(tree.n_nodes)):
        count[v] = 1 if tree.is_leaf(v) else count[int(tree.left[v])] * count[int(tree.right[v])] + 1
    return count[0]


# ----------------------------------------------------------------------------- raising
def to_nested(tree: Tree, v: int = 0):
    """Nested-tuple form: ("L", label) or ("N", feature, threshold, left, right)."""
    if tree.is_leaf(v):
        return ("L", int(tree.label[v]))
    return ("N", int(tree.feature[v]), int(tree.threshold[v]),
            to_nested(tree, int(tree.left[v])), to_nested(tree, int(tree.right[v])))


def nested_errors(t, X, y) -> int:
    """Errors of a nested-tuple tree on (X, y)."""
    X, y = np.asarray(X), np.asarray(y)

    def rec(node, idx) -> int:
        if node[0] == "L":
            return int(np.sum(y[idx] != node[1]))
        go = X[idx, node[1]] <= node[2]
        return rec(node[3], idx[go]) + rec(node[4], idx[~go])

    return rec(t, np.arange(X.shape[0]))


def raising_neighbours(t) -> list:
    """All trees obtained from nested tree t by one raising (an inner node replaced by a child's subtree)."""
    if t[0] == "L":
        return []
    out = [t[3], t[4]]
    out += [("N", t[1], t[2], c, t[4]) for c in raising_neighbours(t[3])]
    out += [("N", t[1], t[2], t[3], c) for c in raising_neighbours(t[4])]
    return out


def brute_force_raising(tree: Tree, X, y, k: int) -> np.ndarray:
    """best[j], j = 0..k: minimal errors over all sequences of at most j raisings (breadth-first, deduplicated)."""
    frontier = {to_nested(tree)}
    seen = set(frontier)
    best = [min(nested_errors(t, X, y) for t in frontier)]
    for _ in range(k):
        nxt = {s for t in frontier for s in raising_neighbours(t)} - seen
        seen |= nxt
        frontier = nxt
        level = min((nested_errors(t, X, y) for t in frontier), default=best[-1])
        best.append(min(best[-1], level))
    return np.array(best)


def raising_box_dp(tree: Tree, X, y, k: int, domain: int) -> DPResult:
    """Optimal raising by dynamic programming over (node, box) states.

    R(v, B)[j] = minimal errors of the examples in box B sent into the subtree of v with at most
    j raisings there: keep v (split B by its test, share j between the children) or raise a child
    c (R(c, B)[j - 1]: v's test disappears, all of B goes to c).  A box is one value interval per
    feature, so there are at most (D(D+1)/2)^d boxes: D^{2d} |T| k^2 work up to constants.

    Returns:
        DPResult with best[j] for j = 0..k, ``states`` = distinct (node, box) pairs evaluated.
    """
    X, y = np.asarray(X), np.asarray(y)
    d = X.shape[1]
    memo: dict[tuple, np.ndarray] = {}
    ops = [0]
    big = np.iinfo(np.int64).max // 4

    def in_box(box) -> np.ndarray:
        lo = np.array([b[0] for b in box])
        hi = np.array([b[1] for b in box])
        return np.nonzero(np.all((X >= lo) & (X <= hi), axis=1))[0]

    def R(v: int, box: tuple) -> np.ndarray:
        key = (v, box)
        if key in memo:
            return memo[key]
        if tree.is_leaf(v):
            idx = in_box(box)
            out = np.full(k + 1, int(np.sum(y[idx] != tree.label[v])))
        else:
            f, t = int(tree.feature[v]), int(tree.threshold[v])
            lo, hi = box[f]
            lbox = box[:f] + ((lo, min(hi, t)),) + box[f + 1:]
            rbox = box[:f] + ((max(lo, t + 1), hi),) + box[f + 1:]
            a = R(int(tree.left[v]), lbox) if lbox[f][0] <= lbox[f][1] else np.zeros(k + 1, dtype=np.int64)
            b = R(int(tree.right[v]), rbox) if rbox[f][0] <= rbox[f][1] else np.zeros(k + 1, dtype=np.int64)
            out = np.full(k + 1, big)
            for j1 in range(k + 1):
                for j2 in range(k + 1 - j1):
                    ops[0] += 1
                    out[j1 + j2] = min(out[j1 + j2], a[j1] + b[j2])
            if k >= 1:
                for c in (int(tree.left[v]), int(tree.right[v])):
                    out[1:] = np.minimum(out[1:], R(c, box)[:-1])
            out = np.minimum.accumulate(out)
        memo[key] = out
        return out

    root_box = tuple((0, domain - 1) for _ in range(d))
    best = R(0, root_box)
    boxes_per_node = np.bincount([v for v, _ in memo], minlength=tree.n_nodes)
    return DPResult(best.copy(), operations=ops[0], states=len(memo), extra={"boxes_per_node": boxes_per_node})


def interval_count(domain: int, n_features: int) -> int:
    """(D(D+1)/2)^d: the number of boxes, one non-empty value interval per feature (at most D^{2d})."""
    if domain < 1 or n_features < 1:
        raise ValueError("need domain >= 1 and n_features >= 1")
    return (domain * (domain + 1) // 2) ** n_features


def caterpillar_tree(domain: int, n_features: int) -> Tree:
    """A spine testing every threshold of every feature in both directions, each test with a leaf on its side.

    For each feature f and threshold t in 0..D-2 the spine has a node continuing on the side
    x[f] <= t (left) and a node continuing on the side x[f] > t (right); the other child of every
    spine node is a leaf.  Raising spine nodes deletes any subset of these tests, so the examples
    reaching the bottom can lie in any box: the deepest node sees all (D(D+1)/2)^d boxes, the most
    any node can (the worst case of the (node, box) state space).  Leaf labels alternate.

    Raises:
        ValueError: on domain < 2 or n_features < 1.
    """
    if domain < 2 or n_features < 1:
        raise ValueError("need domain >= 2 and n_features >= 1")
    tests = [(f, t, side) for f in range(n_features) for t in range(domain - 1) for side in ("left", "right")]
    feature, threshold, left, right, label = [], [], [], [], []
    for i, (f, t, side) in enumerate(tests):
        spine, leaf, nxt = 2 * i, 2 * i + 1, 2 * i + 2
        feature += [f, LEAF]
        threshold += [t, 0]
        left += [nxt if side == "left" else leaf, LEAF]
        right += [leaf if side == "left" else nxt, LEAF]
        label += [0, i % 2]
        assert len(feature) == spine + 2
    feature.append(LEAF)
    threshold.append(0)
    left.append(LEAF)
    right.append(LEAF)
    label.append(1)
    # children must follow their parent in the arrays: a spine node's leaf is stored right after it
    return Tree(*(np.array(a, dtype=np.int64) for a in (feature, threshold, left, right, label)))


# ----------------------------------------------------------------------------- NP-hardness of raising
def clique_raising_instance(edges, n_vertices: int) -> tuple[Tree, np.ndarray, np.ndarray]:
    """Reduction from k-Clique to optimal subtree raising (domain D = 2, one feature per vertex).

    Tree: a spine of n nodes, node i testing x[i] <= 0 (continue on the left) with a leaf of class 0
    on its right, and a leaf of class 1 at the bottom.  Examples: one per edge {a, b}, class 1,
    with x[a] = x[b] = 1 and 0 elsewhere.  An example reaches the bottom (and is classified right)
    exactly when the tests of both its endpoints are gone; a raising deletes at most one spine test
    (raising a node onto its class-0 leaf only adds errors), so with at most k raisings the fewest
    errors are m - max_{|K| <= k} e(K), and "at most m - k(k-1)/2 errors with at most k raisings"
    holds iff the graph has a k-clique.  This reduction is ours (the paper's is not public here).

    Args:
        edges: iterable of vertex pairs (a, b), vertices in 0..n_vertices-1.
    Returns:
        (tree, X, y) with X of shape (m, n_vertices) in {0, 1} and y all 1.
    Raises:
        ValueError: on n_vertices < 1 or an edge outside the vertex range or a loop.
    """
    edges = [tuple(int(v) for v in e) for e in edges]
    if n_vertices < 1 or any(a == b or not (0 <= a < n_vertices and 0 <= b < n_vertices) for a, b in edges):
        raise ValueError("need n_vertices >= 1 and edges between distinct vertices in range")
    n = n_vertices
    feature = [LEAF] * (2 * n + 1)
    threshold = [0] * (2 * n + 1)
    left = [LEAF] * (2 * n + 1)
    right = [LEAF] * (2 * n + 1)
    label = [0] * (2 * n + 1)
    for i in range(n):
        feature[2 * i], left[2 * i], right[2 * i] = i, 2 * i + 2, 2 * i + 1
    label[2 * n] = 1
    tree = Tree(*(np.array(a, dtype=np.int64) for a in (feature, threshold, left, right, label)))
    X = np.zeros((len(edges), n), dtype=np.int64)
    for row, (a, b) in enumerate(edges):
        X[row, a] = X[row, b] = 1
    return tree, X, np.ones(len(edges), dtype=np.int64)
