"""The K-step sequential SL/DDPM sampler and autospeculative decoding (ASD).

Hu, Das, Sadigh & Anari, "Diffusion Models are Secretly Exchangeable: Parallelizing DDPMs via
Autospeculation" (ICML 2025, arXiv 2505.03983).  What public sources say of the algorithm (the
abstract; the figure caption quoted by chatpaper.com/chatpaper/paper/134943; the OpenReview review
at paperhub.cn/paper/n08niE37ku): the increments of all future steps are speculated in parallel
from the current position with the current posterior mean ("autospeculation": the draft is the
model itself, possible because the increments are exchangeable), the true means at the
speculated positions are computed in one parallel round, a verifier accepts proposals in order
with the speculative-decoding rule and replaces the first rejected one by its reflection, and
the output law is exactly the sequential sampler's.  The details below (Gaussian steps, the
reflection maximal coupling, an unbounded window) are our reconstruction.

The sequential sampler on the SL time grid t_k = k h, h = T/K, is
``y_{k+1} = y_k + h m(y_k, t_k) + sqrt(h) xi_k`` from ``y_0 = 0`` (Euler-Maruyama for
``dy = m(y, t) dt + dB``; a DDPM ancestral step in SL coordinates).  One ASD round from step k:

1. draft mean ``mhat = m(y_k, t_k)``; draft path ``P_0 = y_k``, ``P_j = P_{j-1} + h mhat + sqrt(h) xi_j``;
2. in parallel, target means ``m_j = m(P_{j-1}, t_{k+j-1})``;
3. for j = 1, 2, ...: with ``a = P_{j-1} + h mhat`` and ``b = P_{j-1} + h m_j``, accept ``P_j``
   with probability ``min(1, phi_b(P_j) / phi_a(P_j))`` (phi_c the N(c, h I) density); at the
   first rejection put ``b + (I - 2 e e^T)(P_j - a)``, ``e = (b - a)/|b - a|``, and end the round.

Step 3's accept-or-reflect draw is the reflection maximal coupling of N(a, hI) and N(b, hI): the
kept point has law N(b, hI) exactly (Lindvall & Rogers 1986; Bou-Rabee, Eberle & Zimmer 2020), so
every step has the sequential sampler's transition.  The parallel cost is the number of rounds;
the sequential sampler needs K model calls in sequence.

Everything is vectorised over independent chains that advance in lockstep; the draft path of a
round is produced in chunks of ``chunk`` steps, which gives the same law and the same round
count as an unbounded window (a chunk is only looked at while the round is still running).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

MeanFn = Callable[..., np.ndarray]   # mean(y, t, rows): y (m, dim), t (m,), rows (m,) chain indices

VERIFIERS = ("reflection", "resample", "accept_all")
DRAFTS = ("current", "zero")


def _check(K: int, T: float, n: int, dim: int) -> None:
    if int(K) != K or K < 1 or not T > 0 or int(n) != n or n < 1 or int(dim) != dim or dim < 1:
        raise ValueError(f"need integers K >= 1, n >= 1, dim >= 1 and T > 0; got K={K}, T={T}, n={n}, dim={dim}")


def sequential_sampler(mean: MeanFn, K: int, T: float, n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """n independent runs of the K-step sequential sampler; returns y_K, shape (n, dim).

    Args:
        mean: posterior mean ``mean(y, t, rows)``: y of shape (m, dim), t of shape (m,), ``rows`` the
            chains the m points belong to (a target may differ per chain); returns (m, dim).
        K: number of steps; T: SL horizon (h = T/K); n: chains; dim: dimension.
    Raises:
        ValueError: on non-positive sizes.
    """
    _check(K, T, n, dim)
    h = T / K
    y = np.zeros((n, dim))
    for k in range(K):
        y = y + h * mean(y, np.full(n, k * h), np.arange(n)) + np.sqrt(h) * rng.standard_normal((n, dim))
    return y


def reflection_coupling(x: np.ndarray, a: np.ndarray, b: np.ndarray, u: np.ndarray, h: float,
                        verifier: str = "reflection",
                        rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Accept x ~ N(a, hI) as a draw of N(b, hI), or replace it.

    Args:
        x, a, b: shape (m, dim); u: uniforms of shape (m,); h: variance per coordinate.
        verifier: "reflection" (the maximal reflection coupling: the result has law N(b, hI)),
            "resample" (a fresh N(b, hI) draw on rejection, from ``rng``: a wrong variant whose
            law is min(phi_a, phi_b) + (1 - overlap) phi_b), or "accept_all" (always keep x).
    Returns:
        (points, accepted): shape (m, dim) and boolean (m,).
    Raises:
        ValueError: on an unknown verifier, or "resample" without ``rng``.
    """
    if verifier not in VERIFIERS:
        raise ValueError(f"verifier must be one of {VERIFIERS}, not {verifier!r}")
    if verifier == "accept_all":
        return x.copy(), np.ones(x.shape[0], dtype=bool)
    log_ratio = (np.sum((x - a) ** 2, axis=-1) - np.sum((x - b) ** 2, axis=-1)) / (2 * h)
    accepted = np.log(np.maximum(u, 1e-300)) <= np.minimum(log_ratio, 0.0)
    out = x.copy()
    rej = ~accepted
    if np.any(rej):
        if verifier == "resample":
            if rng is None:
                raise ValueError("the 'resample' verifier needs a generator")
            out[rej] = b[rej] + np.sqrt(h) * rng.standard_normal(b[rej].shape)
        else:
            diff = b[rej] - a[rej]
            e = diff / np.linalg.norm(diff, axis=-1, keepdims=True)
            z = x[rej] - a[rej]
            out[rej] = b[rej] + z - 2 * np.sum(z * e, axis=-1, keepdims=True) * e
    return out, accepted


def autospeculative_sampler(mean: MeanFn, K: int, T: float, n: int, dim: int, rng: np.random.Generator,
                            verifier: str = "reflection", draft: str = "current", window: int | None = None,
                            chunk: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """n independent runs of autospeculative decoding; returns (y_K of shape (n, dim), rounds of shape (n,)).

    Args:
        mean, K, T, n, dim: as in :func:`sequential_sampler`.
        verifier: see :func:`reflection_coupling` ("reflection" is the algorithm; the others are
            broken variants for controls).
        draft: "current" (speculate with the posterior mean at the round's start: the algorithm)
            or "zero" (speculate increments N(0, hI): a draft that ignores the model).
        window: None for an unbounded speculation window (the algorithm), or W >= 1 to end every
            round after at most W speculated steps (speculative decoding with a fixed draft length).
        chunk: speculated steps generated per lockstep iteration (changes neither law nor rounds).
    Raises:
        ValueError: on bad sizes or unknown options.
    """
    _check(K, T, n, dim)
    if draft not in DRAFTS:
        raise ValueError(f"draft must be one of {DRAFTS}, not {draft!r}")
    if verifier not in VERIFIERS:
        raise ValueError(f"verifier must be one of {VERIFIERS}, not {verifier!r}")
    if window is not None and (int(window) != window or window < 1):
        raise ValueError(f"window must be None or a positive integer, got {window!r}")
    if int(chunk) != chunk or chunk < 1:
        raise ValueError(f"chunk must be a positive integer, got {chunk!r}")
    h = T / K
    sqh = np.sqrt(h)
    y = np.zeros((n, dim))
    step = np.zeros(n, dtype=int)          # steps done
    rounds = np.zeros(n, dtype=int)
    in_round = np.zeros(n, dtype=int)      # speculated steps already verified in the current round
    mhat = np.zeros((n, dim))
    fresh = np.ones(n, dtype=bool)         # the next iteration starts a round
    while True:
        act = np.flatnonzero(step < K)
        if act.size == 0:
            break
        start = act[fresh[act]]
        if start.size:
            mhat[start] = mean(y[start], step[start] * h, start) if draft == "current" else 0.0
            in_round[start] = 0
            fresh[start] = False
        left = K - step[act]
        if window is not None:
            left = np.minimum(left, window - in_round[act])
        c = int(min(chunk, left.max()))
        valid = np.arange(1, c + 1)[None, :] <= left[:, None]          # (m, c)
        xi = rng.standard_normal((act.size, c, dim))
        u = rng.random((act.size, c))
        drift = h * mhat[act][:, None, :]
        path = y[act][:, None, :] + np.cumsum(drift + sqh * xi, axis=1)   # P_1..P_c
        prev = np.concatenate([y[act][:, None, :], path[:, :-1, :]], axis=1)  # P_0..P_{c-1}
        times = (step[act][:, None] + np.arange(c)[None, :]) * h
        target = mean(prev.reshape(-1, dim), times.reshape(-1), np.repeat(act, c)).reshape(act.size, c, dim)
        a = prev + drift
        b = prev + h * target
        flat = lambda z: z.reshape(-1, dim)  # noqa: E731
        if verifier == "resample":
            kept, ok = reflection_coupling(flat(path), flat(a), flat(b), u.reshape(-1), h, verifier, rng)
        else:
            kept, ok = reflection_coupling(flat(path), flat(a), flat(b), u.reshape(-1), h, verifier)
        kept = kept.reshape(act.size, c, dim)
        ok = ok.reshape(act.size, c) | ~valid
        rejected_any = ~ok.all(axis=1)
        first = np.where(rejected_any, np.argmax(~ok, axis=1), c)       # index of the first rejection
        # chains with a rejection: steps before it accepted, the rejected one replaced, round over
        rej = np.flatnonzero(rejected_any)
        rows = act[rej]
        y[rows] = kept[rej, first[rej]]
        step[rows] += first[rej] + 1
        rounds[rows] += 1
        fresh[rows] = True
        # chains without a rejection: all valid steps accepted
        acc = np.flatnonzero(~rejected_any)
        rows = act[acc]
        n_ok = valid[acc].sum(axis=1)
        y[rows] = path[acc, n_ok - 1]
        step[rows] += n_ok
        in_round[rows] += n_ok
        done_round = (step[rows] >= K) | ((window is not None) & (in_round[rows] >= (window or 0)))
        rounds[rows[done_round]] += 1
        fresh[rows[done_round]] = True
    return y, rounds


def speedups(rounds: np.ndarray, K: int) -> np.ndarray:
    """Parallel speed-up K / rounds of each run."""
    r = np.asarray(rounds, dtype=float)
    if np.any(r < 1):
        raise ValueError("every run takes at least one round")
    return K / r
