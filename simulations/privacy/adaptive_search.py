"""Approximate nearest-neighbour search with independent sketches, privately aggregated, under an
adaptive query sequence.

Setting of Feng, Feng, Li, Song, Woodruff & Zhang, "On Differential Privacy for Adaptively Solving
Search Problems via Sketching" (ICML 2025, arXiv 2506.05503): a randomised data structure answers
one query correctly with constant probability, but an adversary that chooses queries from earlier
answers can steer it to fail; m independent copies whose answers are aggregated with differential
privacy with respect to the copies' random seeds stay correct for T adaptive queries with about
sqrt(T) copies.  The data structure here (ours): a Gaussian Johnson-Lindenstrauss projection to k
dimensions and exact search among the projected points.  The adversary (ours): hard queries
between a point and its nearest neighbour, and once an answer is wrong, the same query again,
which breaks any structure whose answer is a fixed function of its randomness.
"""

from __future__ import annotations

import numpy as np

from .mechanisms import exponential_mechanism


class ProjectedSearch:
    """m independent copies of a k-dimensional Gaussian-projection nearest-neighbour structure.

    Copy j keeps S_j (k x dim, entries N(0, 1/k)) and the projected points X S_j^T; its answer to
    q is argmin_i ||S_j (x_i - q)||.

    Args:
        rng: generator for the projections (the copies' private randomness).
        X: (n, dim) points; copies: m; k: projected dimension.
    Raises:
        ValueError: on malformed points or non-positive sizes.
    """

    def __init__(self, rng: np.random.Generator, X, copies: int, k: int) -> None:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[0] < 2 or copies < 1 or k < 1:
            raise ValueError("need (n >= 2, dim) points, copies >= 1 and k >= 1")
        self.X, self.m, self.k = X, copies, k
        self.S = rng.standard_normal((copies * k, X.shape[1])) / np.sqrt(k)     # copy j: rows j k .. j k + k - 1
        self.P = np.ascontiguousarray((X @ self.S.T).reshape(X.shape[0], copies, k).transpose(1, 0, 2))  # (m, n, k)
        self.P_sq = np.sum(self.P**2, axis=2)                                  # (m, n)

    def copy_answers(self, q) -> np.ndarray:
        """Index of the nearest projected point for every copy, shape (m,)."""
        sq = (self.S @ np.asarray(q, dtype=float)).reshape(self.m, self.k)     # (m, k)
        # ||P_i - Sq||^2 up to the term ||Sq||^2, which is the same for every point of a copy
        return np.argmin(self.P_sq - 2 * np.matmul(self.P, sq[:, :, None])[:, :, 0], axis=1)


def private_vote(rng: np.random.Generator, answers, n_candidates: int, epsilon0: float) -> int:
    """Exponential mechanism on the vote counts of the copies' answers (sensitivity 1: a changed copy
    moves one vote), (epsilon0, 0)-DP with respect to the copies."""
    votes = np.bincount(np.asarray(answers, dtype=int), minlength=n_candidates)
    return exponential_mechanism(rng, votes.astype(float), epsilon0, 1.0)


def is_approximate_neighbour(X, q, index: int, c: float) -> bool:
    """Whether x_index is a c-approximate nearest neighbour of q: ||q - x_index|| <= c min_i ||q - x_i||."""
    d = np.linalg.norm(np.asarray(X, dtype=float) - np.asarray(q, dtype=float), axis=1)
    return bool(d[index] <= c * d.min())


def hard_query(rng: np.random.Generator, X, fraction: float = 0.4, jitter: float = 0.05) -> np.ndarray:
    """A query between a random point x_a and its nearest neighbour x_b: x_a + fraction (x_b - x_a) plus a
    small random offset; with fraction 0.4 the answer x_b is 1.5 times farther than x_a."""
    X = np.asarray(X, dtype=float)
    a = int(rng.integers(X.shape[0]))
    d = np.linalg.norm(X - X[a], axis=1)
    d[a] = np.inf
    b = int(np.argmin(d))
    return X[a] + fraction * (X[b] - X[a]) + jitter * d[b] * rng.standard_normal(X.shape[1]) / np.sqrt(X.shape[1])


def resubmission_attack(rng: np.random.Generator, X, answer, n_queries: int, c: float) -> int:
    """Run the adaptive adversary for T queries against ``answer`` (q -> index); return the wrong answers.

    Each round: if the previous answer was wrong, ask the same query again; otherwise a fresh hard
    query.  A structure whose answer is a fixed function of its randomness, once wrong, stays wrong.
    """
    wrong, q, last_ok = 0, None, True
    for _ in range(n_queries):
        if last_ok:
            q = hard_query(rng, X)
        last_ok = is_approximate_neighbour(X, q, answer(q), c)
        wrong += not last_ok
    return wrong
