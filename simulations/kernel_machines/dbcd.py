"""Dual block coordinate descent with trust region (DBCD-TR) for the dual of a kernel machine.

Zhang & Lai, "Joker: Joint Optimization Framework for Lightweight Kernel Machines" (ICML 2025,
arXiv 2505.17765): the dual $D(\\alpha) = \\frac12\\alpha^T K\\alpha + \\sum_i d_i(\\alpha_i)$ over a box (see
:mod:`.losses`) is minimised one block $B$ of $b$ coordinates at a time.  On a block, a trust-region
Newton method works on the quadratic model $m(p) = g_B^Tp + \\frac12 p^T(K_{BB} + \\mathrm{diag}\\,d''(\\alpha_B))p$:
a Steihaug conjugate-gradient step, cut at the trust-region sphere and projected into the box, is accepted only
when the ratio of actual to predicted decrease exceeds $\\eta$, and the radius shrinks or grows with
that ratio.  With random features $\\Phi$ (n x M) the method keeps $\\beta = \\Phi^T\\alpha$ (M numbers) and
forms only the block's features (b x M) and $K_{BB}$ (b x b): no n x n or M x M matrix.

This implementation follows the paper's description and the algorithmic structure of the authors'
public code (github.com/Apple-Zhang/Joker-paper; acceptance threshold $\\eta = 1/8$, radius halved
below ratio 1/4 and doubled above 3/4 at the boundary); variables at a bound whose gradient points
out of the box are held fixed in the conjugate-gradient solve (as in projected Newton methods).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .losses import Loss, _check_c, dual_objective, duality_gap


@dataclass
class DBCDResult:
    """Outcome of :func:`dbcd_tr`.

    Attributes:
        alpha: (n,) final dual variables; beta: (M,) $\\Phi^T\\alpha$.
        dual_values: D after every block update (the first entry at the start), recomputed from
            scratch from alpha (not accumulated), so monotonicity is checked independently.
        gaps: duality gap $P(\\Phi^T\\alpha) + D(\\alpha)$ after each epoch.
        accepted, rejected: numbers of trust-region steps accepted and rejected.
    """

    alpha: np.ndarray
    beta: np.ndarray
    dual_values: np.ndarray
    gaps: np.ndarray
    accepted: int = 0
    rejected: int = 0
    epochs: int = 0
    notes: list[str] = field(default_factory=list)


def _box(loss: Loss, y: np.ndarray, c: float) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = loss.box(y, c)
    if loss.name == "logistic":  # the dual term's derivative is infinite at the box's ends
        margin = 1e-10 * c
        lo, hi = lo + margin, hi - margin
    return lo, hi


def _steihaug(H: np.ndarray, g: np.ndarray, a: np.ndarray, lo: np.ndarray, hi: np.ndarray,
              radius: float, max_iter: int, rtol: float) -> np.ndarray:
    """Conjugate gradient on min g^T p + p^T H p / 2, stopped at the sphere ||p|| = radius or at the
    first iterate outside the box [lo - a, hi - a]; the step returned is projected into the box
    (the ratio test of the caller then decides whether it is taken).

    The blocks are small (b x b), so the Newton step is tried first: when it lies inside the
    sphere and the box it is the point conjugate gradient converges to, and it is returned.
    """
    try:
        newton = np.linalg.solve(H, -g)
        if newton @ newton <= radius**2 and np.all(a + newton >= lo) and np.all(a + newton <= hi):
            return newton
    except np.linalg.LinAlgError:
        pass
    p = np.zeros_like(g)
    r = -g
    d = r.copy()
    rr = r @ r
    stop = rtol**2 * rr
    for _ in range(max_iter):
        Hd = H @ d
        curv = d @ Hd
        # largest t keeping ||p + t d|| <= radius
        pd, dd, pp = p @ d, d @ d, p @ p
        t_tr = (-pd + np.sqrt(max(pd**2 + dd * (radius**2 - pp), 0.0))) / dd
        up, dn = d > 0, d < 0
        t_box = min(np.min((hi[up] - a[up] - p[up]) / d[up], initial=np.inf),
                    np.min((lo[dn] - a[dn] - p[dn]) / d[dn], initial=np.inf))
        t_box = max(0.0, float(t_box))
        if curv <= 0:
            return np.clip(a + p + t_tr * d, lo, hi) - a
        t = rr / curv
        if t >= t_tr:  # the sphere first: stop on it, projected into the box
            return np.clip(a + p + t_tr * d, lo, hi) - a
        if t > t_box:  # the CG iterate leaves the box: its projection onto the box
            return np.clip(a + p + t * d, lo, hi) - a
        p = p + t * d
        r = r - t * Hd
        rr_new = r @ r
        if rr_new <= stop:
            return p
        d = r + (rr_new / rr) * d
        rr = rr_new
    return p


def dbcd_tr(features: np.ndarray | tuple, y: np.ndarray, loss: Loss, c: float, *, block_size: int, epochs: int,
            rng: np.random.Generator, trust_region: bool = True, inner_steps: int = 10,
            radius: float = 1.0, eta: float = 0.125, cg_steps: int = 50, gap_tol: float = 0.0,
            alpha0: np.ndarray | None = None) -> DBCDResult:
    """Minimise the dual of a kernel machine by DBCD-TR.

    Args:
        features: either an (n, M) matrix of feature rows (random Fourier features, or a factor of
            an exact Gram matrix), or a pair ``(feature_map, X)`` with X (n, d) the data and
            ``feature_map(X_B) -> (|B|, M)``: the lightweight mode, which forms the features of one
            block at a time and holds only alpha (n), beta (M), the block's features (b x M) and
            K_BB (b x b); it records the dual values from beta (not recomputed from scratch) and no
            duality gaps unless ``gap_tol`` > 0.
        y: (n,) targets; loss: a :class:`Loss` with a smooth dual term; c: penalty $1/\\lambda$ > 0.
        block_size: b, coordinates per block (1 <= b <= n); epochs: passes over all blocks.
        rng: generator for the random order of blocks in each epoch.
        trust_region: False replaces the trust-region step by a plain block Newton step clipped to
            the box and always accepted (the method without its safeguard, for controls).
        inner_steps: trust-region iterations per block visit; radius: the trust-region radius each
            block visit starts from (it may grow to 4 times that); eta: acceptance threshold on the
            ratio of actual to predicted decrease.
        gap_tol: stop after an epoch whose duality gap is below gap_tol * max(1, |D|) (0: run all epochs).
        alpha0: starting point inside the box (default: :meth:`Loss.interior_start`).

    Raises:
        ValueError: for a loss without a smooth dual term, a bad block size or a start outside the box.
    """
    c = _check_c(c)
    if not loss.smooth_dual:
        raise ValueError(f"DBCD-TR needs a twice differentiable dual term; the {loss.name} loss has a kink")
    y = np.asarray(y, float)
    if isinstance(features, tuple):
        feature_map, X = features
        Phi = None
        n = len(X)

        def block_features(B: np.ndarray) -> np.ndarray:
            return feature_map(X[B])
    else:
        Phi = np.asarray(features, float)
        n = Phi.shape[0]

        def block_features(B: np.ndarray) -> np.ndarray:
            return Phi[B]
    if len(y) != n:
        raise ValueError(f"{n} feature rows but {len(y)} targets")
    if not 1 <= block_size <= n:
        raise ValueError(f"the block size must lie in [1, n={n}], not {block_size}")
    lo, hi = _box(loss, y, c)
    alpha = loss.interior_start(y, c) if alpha0 is None else np.array(alpha0, float)
    if np.any(alpha < lo) or np.any(alpha > hi):
        raise ValueError("the starting point lies outside the dual's box")
    if Phi is not None:
        beta = Phi.T @ alpha
    else:
        beta = 0.0
        for j in range(0, n, block_size):
            beta = beta + block_features(np.arange(j, min(n, j + block_size))).T @ alpha[j:j + block_size]

    def dual_value() -> float:
        if Phi is not None:
            return dual_objective(alpha, Phi, y, loss, c)
        return float(0.5 * beta @ beta + loss.dual_term(alpha, y, c).sum())

    def gap() -> float:
        if Phi is not None:
            return duality_gap(alpha, Phi, y, loss, c)
        z = np.concatenate([block_features(np.arange(j, min(n, j + block_size))) @ beta
                            for j in range(0, n, block_size)])
        return float(0.5 * beta @ beta + c * loss.primal(z, y).sum()) + dual_value()

    r_max = 4.0 * radius
    values = [dual_value()]
    gaps = []
    out = DBCDResult(alpha, beta, np.array([]), np.array([]))
    blocks_per_epoch = -(-n // block_size)
    for _epoch in range(epochs):
        order = rng.permutation(n)
        for j in range(blocks_per_epoch):
            B = order[j * block_size:(j + 1) * block_size]
            PB = block_features(B)
            KBB = PB @ PB.T
            aB, yB, lB, hB = alpha[B].copy(), y[B], lo[B], hi[B]
            lin = PB @ beta - KBB @ aB          # K_{B, not B} alpha_{not B}
            dB0 = loss.dual_term(aB, yB, c).sum()
            rad = radius  # every block visit starts from the initial radius
            for _ in range(inner_steps):
                g = lin + KBB @ aB + loss.dual_grad(aB, yB, c)
                fixed = ((aB <= lB) & (g > 0)) | ((aB >= hB) & (g < 0))
                free = ~fixed
                if not np.any(free) or np.max(np.abs(g[free])) <= 1e-13 * max(1.0, np.abs(g).max()):
                    break
                H = KBB[np.ix_(free, free)] + np.diag(loss.dual_hess(aB[free], yB[free], c))
                p = np.zeros_like(aB)
                if trust_region:
                    p[free] = _steihaug(H, g[free], aB[free], lB[free], hB[free], rad, cg_steps, 1e-10)
                else:
                    p[free] = np.linalg.solve(H, -g[free])
                    p = np.clip(aB + p, lB, hB) - aB
                new = aB + p
                pred = g @ p + 0.5 * p @ (KBB @ p + loss.dual_hess(aB, yB, c) * p)
                dB1 = loss.dual_term(new, yB, c).sum()
                actual = lin @ p + 0.5 * (new @ KBB @ new - aB @ KBB @ aB) + (dB1 - dB0)
                if not trust_region:
                    aB, dB0 = new, dB1
                    out.accepted += 1
                    continue
                if not (pred < 0) or abs(pred) <= 1e-15 * max(1.0, abs(values[-1])):
                    break
                rho = actual / pred
                if rho > eta and actual < 0:
                    aB, dB0 = new, dB1
                    out.accepted += 1
                else:
                    out.rejected += 1
                if rho < 0.25:
                    rad *= 0.5
                elif rho > 0.75 and np.linalg.norm(p) >= 0.99 * rad:
                    rad = min(2 * rad, r_max)
            beta = beta + PB.T @ (aB - alpha[B])
            alpha[B] = aB
            values.append(dual_value())
        out.epochs += 1
        if Phi is not None or gap_tol > 0:
            gaps.append(gap())
            if gap_tol > 0 and gaps[-1] <= gap_tol * max(1.0, abs(values[-1])):
                break
    out.alpha = alpha
    out.beta = Phi.T @ alpha if Phi is not None else beta
    out.dual_values, out.gaps = np.array(values), np.array(gaps)
    return out
