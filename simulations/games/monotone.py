r"""Two-player monotone games and payoff-perturbed gradient ascent (GA, APGA, GABP).

A two-player game here is given by its gradient map
$V(\pi) = (\nabla_x v_1(x, y), \nabla_y v_2(x, y))$ (each player *maximises* its payoff) and by
each player's strategy set, the probability simplex or a box $[-R, R]^d$.  The game is
*monotone* when $\langle V(\pi) - V(\pi'), \pi - \pi'\rangle \le 0$ for all profiles.  Profiles
are batched: ``x`` of shape ``(S, n)`` and ``y`` of shape ``(S, m)`` hold ``S`` replicas.

The gap function is $\mathrm{Gap}(\pi) = \max_{\pi' \in \mathcal X}\langle V(\pi), \pi' -
\pi\rangle$ (summed over the players); it is zero exactly at the Nash equilibria of a monotone
game.

The dynamics are those of Abe, Sakamoto, Ariu & Iwasaki, "Boosting Perturbed Gradient Ascent for
Last-Iterate Convergence in Games" (ICLR 2025), Algorithm 1 (GABP), indexed as in the paper:
$k = 1$, $\sigma^1 = \pi^1$; every step
$\pi^{t+1} = \Pi_{\mathcal X}(\pi^t + \eta_t[\hat g^t - \mu(\pi^t - \hat\sigma^k)])$ with the anchor
$\hat\sigma^k = (1 - \beta_k)\sigma^k + \beta_k\sigma^1$; after every $T_\sigma$ steps
$k \leftarrow k + 1$ and $\sigma^k = \pi^{t+1}$.  GABP has $\beta_k = 1/(k + 1)$ (so
$\hat\sigma^k = (k\sigma^k + \sigma^1)/(k+1)$), APGA (Abe et al., ICML 2024) $\beta_k = 0$, and the
"frozen" rule $\beta_k = 1$ never moves the anchor.

For the bilinear games $v_1 = \lambda x y = -v_2$ on a box (one coordinate per player) the
dynamics have closed forms (:func:`rotation_closed_form`, :func:`rotation_noisy_moments`): with
$z = x + iy$ the gradient is $V = -i\lambda z$, one step in the interior of the box is the affine
map $z \mapsto a z + (1 - a)J\hat\sigma$ with $a = 1 - \eta\mu - i\eta\lambda$ and
$J = \mu/(\mu + i\lambda)$, so a whole anchor phase is one multiplication, and with Gaussian
gradient noise the iterate stays a circular complex Gaussian whose mean and variance are exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import norm

ANCHOR_RULES = ("gabp", "apga", "frozen")


def anchor_weight(k: int, rule: str, power: float = 1.0) -> float:
    r"""Weight $\beta_k$ of the initial strategy $\sigma^1$ in the anchor of phase ``k``.

    Args:
        k: the phase index (>= 1; the paper's $k(t)$).
        rule: ``"gabp"`` ($\beta_k = (k+1)^{-p}$, the paper's $p = 1$), ``"apga"`` (0) or
            ``"frozen"`` (1: the anchor stays at $\sigma^1$).
        power: the exponent $p > 0$ of the GABP weight (1 in the paper).

    Raises:
        ValueError: on an unknown rule, ``k < 1`` or ``power <= 0``.
    """
    if rule not in ANCHOR_RULES:
        raise ValueError(f"anchor rule must be one of {ANCHOR_RULES}, not {rule!r}")
    if k < 1 or not power > 0:
        raise ValueError(f"need phase k >= 1 and power > 0, got k={k}, power={power}")
    if rule == "gabp":
        return float((k + 1.0) ** (-power))
    return 0.0 if rule == "apga" else 1.0


def project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection of each row of ``v`` onto the probability simplex.

    Args:
        v: array of shape ``(..., n)``, finite.

    Returns:
        Array of the same shape whose rows are non-negative and sum to 1 (sort-based algorithm
        of Held, Wolfe & Crowder 1974 / Duchi et al. 2008).

    Raises:
        ValueError: on an empty last axis.
    """
    v = np.asarray(v, dtype=float)
    if v.shape[-1] < 1:
        raise ValueError("cannot project onto the simplex of dimension 0")
    shape = v.shape
    v2 = v.reshape(-1, shape[-1])
    u = -np.sort(-v2, axis=-1)
    css = np.cumsum(u, axis=-1) - 1.0
    # The condition u_k > css_k / k holds exactly for k = 1..rho (a prefix), so rho is a count.
    rho = np.count_nonzero(u * np.arange(1, shape[-1] + 1) > css, axis=-1)
    theta = (css[np.arange(v2.shape[0]), rho - 1] / rho).reshape(shape[:-1] + (1,))
    return np.maximum(v - theta, 0.0)


@dataclass(frozen=True)
class StrategySet:
    """A player's strategy set: ``kind="simplex"`` (probability vectors) or ``"box"`` ($[-R, R]^d$)."""

    kind: str
    radius: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in ("simplex", "box"):
            raise ValueError(f"strategy set kind must be 'simplex' or 'box', not {self.kind!r}")
        if self.kind == "box" and not self.radius > 0:
            raise ValueError(f"box radius must be positive, got {self.radius}")

    def project(self, v: np.ndarray) -> np.ndarray:
        """Euclidean projection of each row of ``v`` (shape ``(..., d)``) onto the set."""
        if self.kind == "simplex":
            return project_simplex(v)
        return np.clip(v, -self.radius, self.radius)

    def support(self, g: np.ndarray) -> np.ndarray:
        r"""$\max_{p \in \text{set}} \langle g, p\rangle$ for each row of ``g`` (shape ``(..., d)``)."""
        if self.kind == "simplex":
            return g.max(axis=-1)
        return self.radius * np.abs(g).sum(axis=-1)


@dataclass(frozen=True)
class TwoPlayerGame:
    """A two-player continuous game given by its gradient map and strategy sets.

    Attributes:
        gradient: ``gradient(x, y) -> (gx, gy)`` with ``x`` of shape ``(S, n)``, ``y`` of shape
            ``(S, m)``; ``gx`` is player 1's payoff gradient in ``x``, ``gy`` player 2's in ``y``.
        sets: the two strategy sets.
        dims: ``(n, m)``.
        name: a label.
    """

    gradient: Any
    sets: tuple[StrategySet, StrategySet]
    dims: tuple[int, int]
    name: str = "game"

    def gap(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        r"""Gap function $\sum_i \max_{\pi_i'}\langle V_i(\pi), \pi_i' - \pi_i\rangle$ per replica, shape ``(S,)``."""
        gx, gy = self.gradient(x, y)
        return (self.sets[0].support(gx) - np.sum(gx * x, axis=-1)
                + self.sets[1].support(gy) - np.sum(gy * y, axis=-1))


def bilinear_zero_sum(A: np.ndarray) -> TwoPlayerGame:
    r"""The zero-sum matrix game $v_1 = x^\top A y = -v_2$ on two probability simplices.

    Args:
        A: payoff matrix of the row (maximising) player, shape ``(n, m)``, finite.

    Returns:
        The game with gradient ``(A y, -A^T x)``; it is monotone (the symmetric part of its
        Jacobian is zero) and its gap is the NashConv $\max_i (Ay)_i - \min_j (A^\top x)_j$.

    Raises:
        ValueError: on a non-finite matrix or one that is not two-dimensional.
    """
    A = np.asarray(A, dtype=float)
    if A.ndim != 2 or not np.all(np.isfinite(A)):
        raise ValueError(f"A must be a finite (n, m) array, got shape {A.shape}")

    def gradient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return y @ A.T, -(x @ A)

    simplex = StrategySet("simplex")
    return TwoPlayerGame(gradient, (simplex, simplex), A.shape, "bilinear zero-sum")


def box_bilinear(coupling: float, radius: float) -> TwoPlayerGame:
    r"""The bilinear game $v_1 = \lambda x y = -v_2$ on $[-R, R]$ for each player.

    Its gradient map $V(x, y) = (\lambda y, -\lambda x)$ is monotone (skew) and
    $\lambda$-Lipschitz; its only Nash equilibrium is $(0, 0)$ and
    $\mathrm{Gap}(x, y) = R\lambda(|x| + |y|)$.

    Raises:
        ValueError: for a non-positive coupling or radius.
    """
    if not coupling > 0 or not radius > 0:
        raise ValueError(f"need coupling > 0 and radius > 0, got {coupling}, {radius}")

    def gradient(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return coupling * y, -coupling * x

    box = StrategySet("box", radius)
    return TwoPlayerGame(gradient, (box, box), (1, 1), f"bilinear lambda={coupling:g} on the box")


def perturbed_gradient_ascent(
    game: TwoPlayerGame,
    x0: np.ndarray,
    y0: np.ndarray,
    *,
    eta: float | Sequence[float],
    mu: float,
    T: int,
    T_sigma: int | None = None,
    anchor: str = "gabp",
    power: float = 1.0,
    noise_std: float = 0.0,
    rng: np.random.Generator | None = None,
    checkpoints: Sequence[int] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Projected gradient ascent on the perturbed payoff with anchor refreshes (Algorithm 1).

    Each player runs
    $\pi^{t+1} = \Pi_{\mathcal X}(\pi^t + \eta_t[\hat g^t - \mu(\pi^t - \hat\sigma^k)])$ with
    $\hat g^t = V(\pi^t) + \xi^t$, $\xi^t \sim \mathcal N(0, \text{noise\_std}^2 I)$ (zero for
    full feedback) and $\hat\sigma^k = (1-\beta_k)\sigma^k + \beta_k\sigma^1$
    (:func:`anchor_weight`); after every ``T_sigma`` steps $k \leftarrow k+1$ and
    $\sigma^k = \pi^{t+1}$ (Abe et al., ICLR 2025, Algorithm 1, with its indexing).
    ``mu = 0`` is plain projected gradient ascent.

    Args:
        game: the game; x0, y0: the initial profile $\pi^1$, shapes ``(S, n)`` and ``(S, m)``.
        eta: a constant step size (> 0), or the step sizes $\eta$ by position $\tau = 1, \dots,
            T_\sigma$ inside an anchor phase (a sequence of length ``T_sigma``; the schedule of
            Theorem 4.3 restarts in every phase).
        mu: perturbation strength (>= 0); T: number of steps (>= 1).
        T_sigma: anchor refresh interval (>= 1); None means never (only with ``"frozen"``).
        anchor: ``"gabp"``, ``"apga"`` or ``"frozen"``; power: the GABP weight exponent.
        noise_std: standard deviation of the additive gradient noise (>= 0); needs ``rng``.
        rng: generator for the noise.
        checkpoints: step counts ``n`` in ``1..T`` after which the gap of the iterate
            $\pi^{n+1}$ is recorded (default: only ``T``).

    Returns:
        ``(gaps, x, y)``: gaps of shape ``(S, len(checkpoints))`` and the final profile
        $\pi^{T+1}$.

    Raises:
        ValueError: on a bad parameter, an unknown anchor rule, a step schedule of the wrong
            length, missing rng for noisy feedback, or checkpoints outside ``1..T``.
    """
    if mu < 0 or T < 1 or noise_std < 0:
        raise ValueError(f"need mu >= 0, T >= 1, noise_std >= 0; got {mu}, {T}, {noise_std}")
    if anchor not in ANCHOR_RULES:
        raise ValueError(f"anchor must be one of {ANCHOR_RULES}, not {anchor!r}")
    if T_sigma is None and anchor != "frozen":
        raise ValueError(f"anchor rule {anchor!r} needs T_sigma >= 1")
    if T_sigma is not None and T_sigma < 1:
        raise ValueError(f"T_sigma must be >= 1, got {T_sigma}")
    period = T_sigma if T_sigma is not None else T
    steps = np.broadcast_to(np.asarray(eta, dtype=float), (period,)) if np.ndim(eta) == 0 else np.asarray(eta, float)
    if steps.shape != (period,) or not np.all(steps > 0):
        raise ValueError(f"eta must be a positive number or {period} positive step sizes (one per phase position)")
    if noise_std > 0 and rng is None:
        raise ValueError("noisy feedback needs a random generator rng")
    cps = np.array(sorted({int(c) for c in (checkpoints if checkpoints is not None else [T])}))
    if cps.size == 0 or cps[0] < 1 or cps[-1] > T:
        raise ValueError(f"checkpoints must lie in 1..T={T}")
    x = np.array(x0, dtype=float)
    y = np.array(y0, dtype=float)
    x1, y1 = x.copy(), y.copy()
    sx, sy = x.copy(), y.copy()
    k, tau = 1, 0
    px, py = game.sets
    gaps = np.empty((x.shape[0], cps.size))
    j = 0
    for t in range(1, T + 1):
        gx, gy = game.gradient(x, y)
        if noise_std > 0:
            gx = gx + noise_std * rng.standard_normal(gx.shape)
            gy = gy + noise_std * rng.standard_normal(gy.shape)
        beta = anchor_weight(k, anchor, power)
        ax, ay = (1 - beta) * sx + beta * x1, (1 - beta) * sy + beta * y1
        step = steps[tau]
        x = px.project(x + step * (gx - mu * (x - ax)))
        y = py.project(y + step * (gy - mu * (y - ay)))
        tau += 1
        if tau == period:
            k, tau = k + 1, 0
            sx, sy = x.copy(), y.copy()
        if t == cps[j]:
            gaps[:, j] = game.gap(x, y)
            j += 1
            if j == cps.size:
                break
    return gaps, x, y


def _check_rotation_args(couplings: Any, mu: float, T: int, T_sigma: int) -> np.ndarray:
    lam = np.atleast_1d(np.asarray(couplings, dtype=float))
    if lam.ndim != 1 or not np.all(lam > 0) or not np.all(np.isfinite(lam)):
        raise ValueError("couplings must be a 1-D array of positive finite numbers")
    if not mu > 0 or T < 1 or T_sigma < 1:
        raise ValueError(f"need mu > 0, T >= 1 and T_sigma >= 1; got {mu}, {T}, {T_sigma}")
    return lam


def rotation_closed_form(couplings: Any, *, eta: float, mu: float, T: int, T_sigma: int,
                         anchor: str = "gabp", power: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact full-feedback dynamics of Algorithm 1 on the box bilinear games, phase by phase.

    For $v_1 = \lambda xy = -v_2$ and $z = x + iy$, while the iterates stay inside the box the
    $T$ steps map $z^1$ to $z^{T+1} = F z^1$ with a complex factor $F(\lambda)$ (every operation
    is complex-linear in $z^1 = \sigma^1$).  Inside a phase the iterate moves towards
    $J\hat\sigma$ by the factor $a = 1 - \eta\mu - i\eta\lambda$ per step, so
    $|z^t| \le |J\hat\sigma| + |z^{\text{start}} - J\hat\sigma|$ whenever $|a| < 1$
    (which holds for $\eta < 2\mu/(\mu^2 + \lambda^2)$, e.g. $\eta < \mu/(L+\mu)^2$ of Theorem 4.1).

    Args:
        couplings: the $\lambda > 0$, shape ``(n,)``.
        eta: constant step size (> 0); mu: perturbation strength (> 0).
        T: number of steps; T_sigma: anchor interval; anchor, power: see :func:`anchor_weight`.

    Returns:
        ``(F, radius)``: arrays of shape ``(n,)``; $z^{T+1} = F z^1$, and every iterate
        satisfies $|z^t| \le$ ``radius`` $\cdot |z^1|$ (so the box $[-R, R]^2$ is never left, and
        the closed form is the projected algorithm's trajectory, when ``radius`` $|z^1| \le R$).

    Raises:
        ValueError: on non-positive couplings or parameters, or a step size with $|a| \ge 1$.
    """
    lam = _check_rotation_args(couplings, mu, T, T_sigma)
    a = 1.0 - eta * mu - 1j * eta * lam
    if not eta > 0 or np.any(np.abs(a) >= 1):
        raise ValueError(f"the step size {eta} does not contract every phase (need eta < 2 mu/(mu^2 + lambda^2))")
    J = mu / (mu + 1j * lam)
    full, rest = divmod(T, T_sigma)
    A = a ** T_sigma
    F = np.ones_like(J)
    radius = np.ones(lam.size)
    for k in range(1, full + (1 if rest else 0) + 1):
        beta = anchor_weight(k, anchor, power)
        target = J * ((1 - beta) * F + beta)
        radius = np.maximum(radius, np.abs(target) + np.abs(F - target))
        F = target + (A if k <= full else a ** rest) * (F - target)
    return F, radius


@dataclass(frozen=True)
class NoisyMoments:
    r"""Exact moments of $z^{T+1}$ for :func:`rotation_noisy_moments`, per coupling.

    Attributes:
        mean_factor: $F$ with $\mathbb E z^{T+1} = F z^1$.
        variance: $v = \mathbb E|z^{T+1} - \mathbb E z^{T+1}|^2$ (independent of $z^1$); the
            iterate is a circular complex Gaussian, so $x, y$ are independent
            $\mathcal N(\cdot, v/2)$.
        mean_radius: bound on $\max_t |\mathbb E z^t| / |z^1|$.
        sd_max: bound on $\max_t \mathrm{sd}(z^t)$ (standard deviation of the complex iterate).
    """

    mean_factor: np.ndarray
    variance: np.ndarray
    mean_radius: np.ndarray
    sd_max: np.ndarray


def _phase_products(a: np.ndarray, etas: np.ndarray, noise_std: float) -> tuple[np.ndarray, np.ndarray]:
    """(prod a, 2 s^2 sum_tau |prod_{j>tau} a_j|^2 eta_tau^2) over the steps of one phase."""
    tail = np.cumprod(a[::-1], axis=0)[::-1]  # prod_{j >= tau}
    after = np.concatenate([tail[1:], np.ones((1,) + a.shape[1:])], axis=0)  # prod_{j > tau}
    var = 2.0 * noise_std**2 * np.sum(np.abs(after) ** 2 * etas[:, None] ** 2, axis=0)
    return tail[0], var


def rotation_noisy_moments(couplings: Any, *, etas: Any, mu: float, T: int, T_sigma: int, noise_std: float,
                           anchor: str = "gabp", power: float = 1.0, chunk: int = 16) -> NoisyMoments:
    r"""Exact mean and variance of Algorithm 1 with Gaussian gradient noise on the box bilinear games.

    With $\hat g = V(\pi) + \xi$, $\xi \sim \mathcal N(0, s^2 I)$ per player and coordinate, one
    step is $z \mapsto a_\tau z + (1 - a_\tau)J\hat\sigma + \eta_\tau\xi$ ($a_\tau = 1 -
    \eta_\tau\mu - i\eta_\tau\lambda$, $\xi$ complex with $\mathbb E|\xi|^2 = 2s^2$): complex-affine
    with circular noise, so $z^t$ is a circular complex Gaussian.  A phase maps
    $z \mapsto P z + (1-P)J\hat\sigma + N$ with $P = \prod a_\tau$ and
    $\mathrm{Var}\,N = 2s^2\sum_\tau|\prod_{j>\tau}a_j|^2\eta_\tau^2$; the anchor
    $\hat\sigma = (1-\beta_k)\sigma^k + \beta_k z^1$ is a function of the phase's start.  This is
    the trajectory of the projected algorithm as long as the box is not left
    (see :attr:`NoisyMoments.mean_radius`, :attr:`NoisyMoments.sd_max`).

    Args:
        couplings: the $\lambda > 0$, shape ``(n,)``.
        etas: the step sizes by position in a phase, shape ``(T_sigma,)`` (positive).
        mu: perturbation strength (> 0); T, T_sigma: steps and anchor interval;
        noise_std: $s \ge 0$; anchor, power: see :func:`anchor_weight`.
        chunk: couplings processed at once (memory ``~ 16 T_sigma chunk`` bytes).

    Returns:
        A :class:`NoisyMoments`.

    Raises:
        ValueError: on bad arguments or a step with $|a_\tau| \ge 1$.
    """
    lam = _check_rotation_args(couplings, mu, T, T_sigma)
    etas = np.asarray(etas, dtype=float)
    if etas.shape != (T_sigma,) or not np.all(etas > 0) or noise_std < 0:
        raise ValueError(f"etas must hold {T_sigma} positive step sizes and noise_std must be >= 0")
    full, rest = divmod(T, T_sigma)
    out = {name: np.empty(lam.size) for name in ("variance", "mean_radius", "sd_max")}
    F_all = np.empty(lam.size, dtype=complex)
    s_phase_max = 2.0 * noise_std**2 * float(np.sum(etas**2))  # |prod a| <= 1 within a phase
    for start in range(0, lam.size, chunk):
        lc = lam[start:start + chunk]
        a = 1.0 - etas[:, None] * mu - 1j * etas[:, None] * lc[None, :]
        if np.any(np.abs(a) >= 1):
            raise ValueError("a step size does not contract (need eta < 2 mu/(mu^2 + lambda^2))")
        J = mu / (mu + 1j * lc)
        P, S = _phase_products(a, etas, noise_std)
        if rest:
            P_rest, S_rest = _phase_products(a[:rest], etas[:rest], noise_std)
        F = np.ones(lc.size, dtype=complex)
        v = np.zeros(lc.size)
        rad = np.ones(lc.size)
        sd = np.zeros(lc.size)
        for k in range(1, full + (1 if rest else 0) + 1):
            beta = anchor_weight(k, anchor, power)
            Pk, Sk = (P, S) if k <= full else (P_rest, S_rest)
            target = J * ((1 - beta) * F + beta)
            rad = np.maximum(rad, np.abs(target) + np.abs(F - target))
            sd = np.maximum(sd, 3.0 * np.sqrt(v) + np.sqrt(s_phase_max))
            alpha = Pk + (1 - Pk) * J * (1 - beta)
            F = alpha * F + (1 - Pk) * J * beta
            v = np.abs(alpha) ** 2 * v + Sk
        F_all[start:start + chunk] = F
        out["variance"][start:start + chunk] = v
        out["mean_radius"][start:start + chunk] = rad
        out["sd_max"][start:start + chunk] = np.maximum(sd, np.sqrt(v))
    return NoisyMoments(F_all, out["variance"], out["mean_radius"], out["sd_max"])


def folded_normal_mean(mean: Any, sd: Any) -> np.ndarray:
    r"""$\mathbb E|X|$ for $X \sim \mathcal N(m, s^2)$: $s\sqrt{2/\pi}e^{-m^2/2s^2} + m(1 - 2\Phi(-m/s))$.

    ``sd = 0`` gives $|m|$.  Arrays broadcast.
    """
    m = np.asarray(mean, dtype=float)
    s = np.asarray(sd, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(s > 0, m / np.where(s > 0, s, 1.0), 0.0)
        val = s * np.sqrt(2.0 / np.pi) * np.exp(-0.5 * z**2) + m * (1.0 - 2.0 * norm.cdf(-z))
    return np.where(s > 0, val, np.abs(m))


def rotation_expected_gap(mean: Any, variance: Any, couplings: Any, radius: float) -> np.ndarray:
    r"""$\mathbb E\,\mathrm{Gap} = R\lambda(\mathbb E|x| + \mathbb E|y|)$ of a circular complex Gaussian iterate.

    Args:
        mean: complex means $\mathbb E z$; variance: $\mathbb E|z - \mathbb E z|^2$ (so $x, y$ have
            variance half of it); couplings: $\lambda$; radius: the box half-width $R$.  Broadcast.
    """
    m = np.asarray(mean, dtype=complex)
    sd = np.sqrt(np.asarray(variance, dtype=float) / 2.0)
    lam = np.asarray(couplings, dtype=float)
    return radius * lam * (folded_normal_mean(m.real, sd) + folded_normal_mean(m.imag, sd))


def box_exit_log_probability(mean_bound: Any, sd_bound: Any, radius: float, steps: int) -> np.ndarray:
    r"""Natural log of a union bound on the probability that some iterate leaves $[-R, R]^2$.

    Each coordinate of $z^t$ is Gaussian with $|\text{mean}| \le$ ``mean_bound`` and standard
    deviation $\le$ ``sd_bound``$/\sqrt 2$; over ``steps`` iterates and two coordinates the
    probability is at most $4\,\mathrm{steps}\,\Phi(-(R - \text{mean})\sqrt2/\text{sd})$.
    """
    mb = np.asarray(mean_bound, dtype=float)
    sd = np.asarray(sd_bound, dtype=float)
    with np.errstate(divide="ignore"):
        z = np.where(sd > 0, (radius - mb) * np.sqrt(2.0) / np.where(sd > 0, sd, 1.0), np.inf)
        logp = np.log(4.0 * steps) + norm.logcdf(-z)
    return np.where(mb >= radius, 0.0, np.minimum(logp, 0.0))
