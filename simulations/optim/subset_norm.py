r"""Subset-Norm step sizes and Subspace-Momentum.

Source: T. H. Nguyen and H. L. Nguyen, "Lean and Mean Adaptive Optimization via Subset-Norm and
Subspace-Momentum with Convergence Guarantees", ICML 2025, arXiv:2411.07120, PMLR 267:46116-46161.

Subset-Norm (update rule as quoted from the paper): the coordinates are partitioned into subsets
$\Psi_1, \dots, \Psi_c$, $\psi(j)$ is the subset of coordinate $j$, and

.. math::  b_{t,i}^2 = b_{t-1,i}^2 + \|g_{t,\Psi_i}\|^2, \qquad
           \theta_{t+1,j} = \theta_{t,j} - \eta\, g_{t,j}/b_{t,\psi(j)}.

One subset gives AdaGrad-Norm, $d$ singletons coordinate-wise AdaGrad; the state is $c$ numbers
($c = \sqrt d$ with subsets of size $\sqrt d$).

Subspace-Momentum: with $P \in \mathbb R^{k\times d}$ with orthonormal rows,
$m_t = \beta_1 m_{t-1} + (1-\beta_1) P g_t$, $r_t = g_t - P^\top P g_t$ and
$\theta_{t+1} = \theta_t - \eta(P^\top m_t + r_t)$: momentum only in the $k$-dimensional subspace.
For a matrix parameter $W \in \mathbb R^{m\times n}$ projected on the left by $P \in \mathbb R^{k\times m}$
the state is $P$ and $m_t \in \mathbb R^{k\times n}$: $k(m + n)$ numbers instead of $mn$.

Independent reference implementations :func:`adagrad_norm_reference` and
:func:`adagrad_coordinate_reference` (written separately, not through Subset-Norm) are used to
check the reductions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = [
    "NoisyQuadCos", "adagrad_coordinate_reference", "quad_cos_problem", "rate_trial", "adagrad_norm_reference", "contiguous_subsets",
    "run_adaptive", "sgd_momentum_reference", "subset_norm_run", "subspace_momentum_memory",
    "subspace_momentum_run", "subspace_momentum_matrix", "momentum_matrix", "state_size",
    "noise_norm", "noisy_quadratic_average", "noisy_quadratic_mean_field",
    "momentum_quadratic_average", "momentum_quadratic_expectation",
]


def contiguous_subsets(d: int, size: int) -> np.ndarray:
    r"""Subset index $\psi(j) = \lfloor j/\text{size}\rfloor$ for $j < d$ (the last subset may be smaller).

    Raises:
        ValueError: unless $1 \le \text{size} \le d$.
    """
    if int(d) != d or d < 1 or int(size) != size or not 1 <= size <= d:
        raise ValueError(f"need integers 1 <= size <= d, got d={d!r}, size={size!r}")
    return np.arange(int(d)) // int(size)


def subset_norm_run(grads: Callable[[np.ndarray, int], np.ndarray], x0: np.ndarray, groups: np.ndarray,
                    eta: float, b0: float, n_steps: int) -> tuple[np.ndarray, int]:
    r"""Run Subset-Norm for ``n_steps`` steps.

    Args:
        grads: ``grads(x, t)`` returns the (stochastic) gradient $g_t$ at $x$, shape ``(d,)``.
        x0: start, shape ``(d,)``; groups: $\psi(j)$ per coordinate, integers $0..c-1$.
        eta: step size $\eta > 0$; b0: initial accumulator $b_{0,i} = b_0 > 0$.

    Returns:
        (iterates of shape ``(n_steps + 1, d)``, number of accumulator entries $c$).

    Raises:
        ValueError: on bad shapes or non-positive eta / b0.
    """
    x = np.asarray(x0, dtype=float).copy()
    groups = np.asarray(groups)
    if groups.shape != x.shape or not (eta > 0 and b0 > 0):
        raise ValueError("groups must match x0, and eta, b0 must be positive")
    c = int(groups.max()) + 1
    b2 = np.full(c, float(b0) ** 2)
    out = [x.copy()]
    for t in range(int(n_steps)):
        g = grads(x, t)
        b2 += np.bincount(groups, weights=g * g, minlength=c)
        x = x - eta * g / np.sqrt(b2[groups])
        out.append(x.copy())
    return np.array(out), c


def adagrad_norm_reference(grads, x0, eta: float, b0: float, n_steps: int) -> np.ndarray:
    r"""AdaGrad-Norm (Ward, Wu & Bottou, JMLR 2020): $b_t^2 = b_{t-1}^2 + \|g_t\|^2$, $x \leftarrow x - \eta g_t/b_t$."""
    x = np.asarray(x0, dtype=float).copy()
    b = float(b0)
    out = [x.copy()]
    for t in range(int(n_steps)):
        g = grads(x, t)
        b = math.sqrt(b * b + float(np.dot(g, g)))
        x = x - (eta / b) * g
        out.append(x.copy())
    return np.array(out)


def adagrad_coordinate_reference(grads, x0, eta: float, b0: float, n_steps: int) -> np.ndarray:
    r"""Coordinate-wise AdaGrad (Duchi, Hazan & Singer 2011): $b_{t,j}^2 = b_{t-1,j}^2 + g_{t,j}^2$."""
    x = np.asarray(x0, dtype=float).copy()
    acc = np.full(x.shape, float(b0) ** 2)
    out = [x.copy()]
    for t in range(int(n_steps)):
        g = grads(x, t)
        acc = acc + np.square(g)
        x = x - eta * g / np.sqrt(acc)
        out.append(x.copy())
    return np.array(out)


def subspace_momentum_run(grads, x0: np.ndarray, P: np.ndarray, eta: float, beta1: float,
                          n_steps: int) -> np.ndarray:
    r"""Subspace-Momentum with a fixed projection $P$ ($k\times d$, orthonormal rows; $k = 0$ allowed).

    Returns:
        iterates, shape ``(n_steps + 1, d)``.

    Raises:
        ValueError: on a $P$ of the wrong width, rows not orthonormal, or $\beta_1 \notin [0, 1)$.
    """
    x = np.asarray(x0, dtype=float).copy()
    P = np.asarray(P, dtype=float).reshape(-1, x.size)
    k = P.shape[0]
    if k and not np.allclose(P @ P.T, np.eye(k), atol=1e-12):
        raise ValueError("P must have orthonormal rows")
    if not 0 <= beta1 < 1 or not eta > 0:
        raise ValueError(f"need 0 <= beta1 < 1 and eta > 0, got {beta1!r}, {eta!r}")
    m = np.zeros(k)
    out = [x.copy()]
    for t in range(int(n_steps)):
        g = grads(x, t)
        pg = P @ g
        m = beta1 * m + (1 - beta1) * pg
        r = g - P.T @ pg
        x = x - eta * (P.T @ m + r)
        out.append(x.copy())
    return np.array(out)


def sgd_momentum_reference(grads, x0, eta: float, beta1: float, n_steps: int) -> np.ndarray:
    r"""SGD with EMA momentum: $m_t = \beta_1 m_{t-1} + (1-\beta_1) g_t$, $x \leftarrow x - \eta m_t$ ($\beta_1 = 0$: SGD)."""
    x = np.asarray(x0, dtype=float).copy()
    m = np.zeros_like(x)
    out = [x.copy()]
    for t in range(int(n_steps)):
        m = beta1 * m + (1 - beta1) * grads(x, t)
        x = x - eta * m
        out.append(x.copy())
    return np.array(out)


def subspace_momentum_memory(m: int, n: int, k: int, full_space: bool = False) -> int:
    r"""Optimizer-state size for a matrix parameter $m\times n$: $k(m + n)$ ($P$ and the momentum),
    or $mn$ for momentum kept in the full space.

    Raises:
        ValueError: unless $0 \le k \le m$ and $m, n \ge 1$.
    """
    if not (m >= 1 and n >= 1 and 0 <= k <= m):
        raise ValueError(f"need m, n >= 1 and 0 <= k <= m, got {m}, {n}, {k}")
    return m * n if full_space else k * m + k * n


# --------------------------------------------------------------------------- test problem
@dataclass(frozen=True)
class NoisyQuadCos:
    r"""$f(x) = \frac12 x^\top H x + a\sum_j \cos x_j$, $L$-smooth with $L = \lambda_{\max}(H) + a$,
    nonconvex when $a > \lambda_{\min}(H)$, bounded below ($f \ge -ad$); stochastic gradients
    $g = \nabla f(x) + \sigma\odot\xi$, $\xi \sim \mathcal N(0, I)$ (coordinate-wise noise levels $\sigma_j$).
    """

    H: np.ndarray
    a: float
    sigma: np.ndarray

    def f(self, x: np.ndarray) -> float:
        return float(0.5 * x @ self.H @ x + self.a * np.sum(np.cos(x)))

    def grad(self, x: np.ndarray) -> np.ndarray:
        return self.H @ x - self.a * np.sin(x)

    def oracle(self, rng: np.random.Generator) -> Callable[[np.ndarray, int], np.ndarray]:
        """A stochastic gradient oracle drawing its noise from ``rng``."""
        sigma = self.sigma

        def g(x: np.ndarray, t: int) -> np.ndarray:
            return self.grad(x) + sigma * rng.standard_normal(x.size)

        return g


def run_adaptive(problem: NoisyQuadCos, rng: np.random.Generator, x0: np.ndarray, T: int, method: str,
                 eta: float, *, b0: float = 1.0, subset_size: int = 1, beta1: float = 0.9,
                 k: int = 0) -> float:
    r"""Average squared gradient norm $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2$ of one run of length $T$.

    Methods: ``"subset_norm"`` (subsets of ``subset_size``), ``"frozen"`` (constant step
    $\eta/b_0$: the accumulator never grows), ``"sgd_sqrt"`` (SGD with step $\eta/\sqrt{t+1}$),
    ``"subspace_momentum"`` (step $\eta/\sqrt T$, the first ``k`` coordinate directions as the
    subspace), ``"sgd_constant"`` (step $\eta$, independent of $T$).

    Raises:
        ValueError: on an unknown method or $T < 1$.
    """
    if T < 1:
        raise ValueError(f"T must be >= 1, got {T}")
    d = x0.size
    oracle = problem.oracle(rng)
    if method == "subset_norm":
        xs, _ = subset_norm_run(oracle, x0, contiguous_subsets(d, subset_size), eta, b0, T - 1)
    elif method == "frozen":
        xs = sgd_momentum_reference(oracle, x0, eta / b0, 0.0, T - 1)
    elif method == "sgd_sqrt":
        x = x0.copy()
        xs = [x.copy()]
        for t in range(T - 1):
            x = x - eta / math.sqrt(t + 1) * oracle(x, t)
            xs.append(x.copy())
        xs = np.array(xs)
    elif method == "subspace_momentum":
        P = np.eye(d)[:k]
        xs = subspace_momentum_run(oracle, x0, P, eta / math.sqrt(T), beta1, T - 1)
    elif method == "sgd_constant":
        xs = sgd_momentum_reference(oracle, x0, eta, 0.0, T - 1)
    else:
        raise ValueError(f"unknown method {method!r}")
    G = xs @ problem.H.T - problem.a * np.sin(xs)
    return float(np.mean(np.sum(G * G, axis=1)))


def quad_cos_problem(d: int, rng: np.random.Generator, sigma_noisy: float, *, lam_min: float = 0.5,
                     lam_max: float = 4.0, a: float = 1.0) -> NoisyQuadCos:
    r"""A :class:`NoisyQuadCos` with $H = Q\,\mathrm{diag}(\mathrm{linspace}(\lambda_{\min}, \lambda_{\max}))Q^\top$
    ($Q$ Haar-random from ``rng``) and noise $\sigma_j = $ ``sigma_noisy`` on the first half of the
    coordinates, 0 on the rest.

    Raises:
        ValueError: on $d < 2$, $\lambda_{\min} \le 0$ or negative noise.
    """
    if int(d) != d or d < 2 or not (0 < lam_min <= lam_max) or sigma_noisy < 0:
        raise ValueError("need d >= 2, 0 < lam_min <= lam_max and sigma >= 0")
    Q, R = np.linalg.qr(rng.standard_normal((d, d)))
    Q = Q * np.sign(np.diag(R))
    H = Q @ np.diag(np.linspace(lam_min, lam_max, d)) @ Q.T
    sigma = np.where(np.arange(d) < d // 2, float(sigma_noisy), 0.0)
    return NoisyQuadCos((H + H.T) / 2, float(a), sigma)


def rate_trial(rng: np.random.Generator, problem: NoisyQuadCos, horizons: list[int], method: str,
               eta: float, kwargs: dict) -> list[float]:
    r"""One Monte Carlo trial: a start $x_0 \sim \mathcal N(0, I)$, then one independent run per
    horizon $T$; returns $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2$ per horizon (see :func:`run_adaptive`)."""
    x0 = rng.standard_normal(problem.H.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        return [run_adaptive(problem, rng, x0, int(T), method, eta, **kwargs) for T in horizons]


# --------------------------------------------------------------------------- matrix parameters
def subspace_momentum_matrix(grad: Callable[[np.ndarray], np.ndarray], W0: np.ndarray, k: int, eta: float,
                             beta1: float, n_steps: int, refresh: int = 10) -> tuple[np.ndarray, dict]:
    r"""Subspace-Momentum on a matrix parameter $W \in \mathbb R^{m\times n}$.

    Every ``refresh`` steps $P \in \mathbb R^{k\times m}$ is reset to the top-$k$ left singular
    vectors of the current gradient (the momentum is carried over into the new subspace as
    $P_{\rm new}P_{\rm old}^\top M$); each step $M \leftarrow \beta_1 M + (1-\beta_1)PG$,
    $W \leftarrow W - \eta(P^\top M + G - P^\top PG)$.

    Returns:
        (final $W$, optimizer state ``{"P": (k, m), "M": (k, n)}``: the arrays kept between steps).

    Raises:
        ValueError: unless $1 \le k \le \min(m, n)$, $0 \le \beta_1 < 1$, $\eta > 0$, refresh >= 1.
    """
    W = np.asarray(W0, dtype=float).copy()
    m, n = W.shape
    if not (1 <= k <= min(m, n) and 0 <= beta1 < 1 and eta > 0 and refresh >= 1):
        raise ValueError(f"need 1 <= k <= min(m, n), 0 <= beta1 < 1, eta > 0, refresh >= 1; got k={k}")
    state = {"P": np.zeros((k, m)), "M": np.zeros((k, n))}
    for t in range(int(n_steps)):
        G = grad(W)
        if t % refresh == 0:
            U = np.linalg.svd(G, full_matrices=False)[0][:, :k]
            state["M"] = U.T @ (state["P"].T @ state["M"])
            state["P"] = U.T.copy()
        P = state["P"]
        PG = P @ G
        state["M"] = beta1 * state["M"] + (1 - beta1) * PG
        W = W - eta * (P.T @ state["M"] + G - P.T @ PG)
    return W, state


def momentum_matrix(grad: Callable[[np.ndarray], np.ndarray], W0: np.ndarray, eta: float, beta1: float,
                    n_steps: int) -> tuple[np.ndarray, dict]:
    r"""SGD with EMA momentum kept in the full space: state ``{"M": (m, n)}``.

    Raises:
        ValueError: unless $0 \le \beta_1 < 1$ and $\eta > 0$.
    """
    if not (0 <= beta1 < 1 and eta > 0):
        raise ValueError("need 0 <= beta1 < 1 and eta > 0")
    W = np.asarray(W0, dtype=float).copy()
    state = {"M": np.zeros_like(W)}
    for _ in range(int(n_steps)):
        state["M"] = beta1 * state["M"] + (1 - beta1) * grad(W)
        W = W - eta * state["M"]
    return W, state


def state_size(state: dict) -> int:
    """Number of floating-point numbers an optimizer state holds (sum of its arrays' sizes)."""
    return int(sum(np.asarray(a).size for a in state.values()))


# --------------------------------------------------------------------------- noise term
def noise_norm(sigma: np.ndarray, groups: np.ndarray) -> float:
    r"""$N_\Psi(\sigma) = \sum_i\|\sigma_{\Psi_i}\|_2$: the noise of each subset in $\ell_2$, summed.

    One subset gives $\|\sigma\|_2$ (AdaGrad-Norm), $d$ singletons $\|\sigma\|_1$ (AdaGrad); the
    form is the reconstruction of the noise term of the Subset-Norm bound (research notes).

    Raises:
        ValueError: on mismatched shapes or negative noise levels.
    """
    sigma = np.asarray(sigma, dtype=float)
    groups = np.asarray(groups)
    if sigma.shape != groups.shape or np.any(sigma < 0):
        raise ValueError("need one non-negative noise level per coordinate and one subset index each")
    return float(np.sum(np.sqrt(np.bincount(groups, weights=sigma * sigma))))


def _check_quadratic_args(sigma, groups, lam, eta, b0, T):
    sigma = np.asarray(sigma, dtype=float)
    groups = np.asarray(groups)
    if sigma.ndim != 1 or groups.shape != sigma.shape or np.any(sigma < 0):
        raise ValueError("sigma must be a vector of non-negative noise levels with one subset index each")
    if not (lam > 0 and eta > 0 and b0 > 0) or int(T) != T or T < 1:
        raise ValueError(f"need lam, eta, b0 > 0 and an integer T >= 1; got {lam}, {eta}, {b0}, {T}")
    return sigma, groups


def noisy_quadratic_average(rng: np.random.Generator, sigma: np.ndarray, groups: np.ndarray, *,
                            lam: float = 1.0, eta: float = 1.0, b0: float = 1e-3, T: int,
                            trials: int = 1, frozen: bool = False) -> np.ndarray:
    r"""Subset-Norm on $f(x) = \frac\lambda2\|x\|^2$ from its minimiser $x_0 = 0$ under gradient noise.

    Stochastic gradients $g_t = \lambda x_t + \sigma\odot\xi_t$, $\xi_t \sim \mathcal N(0, I_d)$; the
    step is Subset-Norm's (module docstring) with subsets ``groups``; ``frozen=True`` keeps the
    step at $\eta/b_0$ (the accumulator never grows: SGD with a constant step).  Started at the
    minimiser, the deterministic term of a convergence bound is zero and the average squared
    gradient norm measures the noise term alone.  ``trials`` independent runs are vectorised.

    Returns:
        ``(trials,)`` values of $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2$.

    Raises:
        ValueError: on bad shapes or non-positive parameters.
    """
    sigma, groups = _check_quadratic_args(sigma, groups, lam, eta, b0, T)
    d, c = sigma.size, int(groups.max()) + 1
    # contiguous subsets 0, 0, 1, 1, ...: one vectorised sum per subset over all trials
    contiguous = np.array_equal(np.unique(groups), np.arange(c)) and np.all(np.diff(groups) >= 0)
    starts = np.searchsorted(groups, np.arange(c)) if contiguous else None
    x = np.zeros((trials, d))
    b2 = np.full((trials, c), float(b0) ** 2)
    total = np.zeros(trials)
    for _ in range(int(T)):
        grad = lam * x
        total += np.einsum("ij,ij->i", grad, grad)
        g = grad + sigma * rng.standard_normal((trials, d))
        if frozen:
            x = x - (eta / b0) * g
            continue
        if starts is not None:
            b2 += np.add.reduceat(g * g, starts, axis=1)
        else:
            for i in range(trials):
                b2[i] += np.bincount(groups, weights=g[i] * g[i], minlength=c)
        x = x - eta * g / np.sqrt(b2[:, groups])
    return total / T


def noisy_quadratic_mean_field(sigma: np.ndarray, groups: np.ndarray, *, lam: float = 1.0,
                               eta: float = 1.0, b0: float = 1e-3, T: int, frozen: bool = False) -> float:
    r"""Deterministic mean-field value of :func:`noisy_quadratic_average` (a reference, no sampling).

    The accumulator of subset $i$ is replaced by its mean,
    $\bar b_{t,i}^2 = b_0^2 + \sum_{u\le t}\sum_{j\in\Psi_i}(\lambda^2v_{u,j} + \sigma_j^2)$, and the
    second moments $v_{t,j} = \mathbb E x_{t,j}^2$ follow the exact linear recursion
    $v_{t+1,j} = (1 - \alpha_{t,j}\lambda)^2v_{t,j} + \alpha_{t,j}^2\sigma_j^2$ with
    $\alpha_{t,j} = \eta/\bar b_{t,\psi(j)}$.  What it neglects is the correlation of the step
    with the current noise (relative size $O(1/(|\Psi_i|\,t))$).  For $t$ past the relaxation
    time $\|\sigma_{\Psi_i}\|^2/(\eta\lambda)^2$ it gives $\frac{\eta\lambda}{\sqrt T}N_\Psi(\sigma)(1 + o(1))$,
    so its ratio to that law is the lower-order factor of a rate fit.

    Returns:
        $\frac1T\sum_{t<T}\lambda^2\sum_jv_{t,j}$.

    Raises:
        ValueError: as :func:`noisy_quadratic_average`.
    """
    sigma, groups = _check_quadratic_args(sigma, groups, lam, eta, b0, T)
    c = int(groups.max()) + 1
    v = np.zeros(sigma.size)
    b2 = np.full(c, float(b0) ** 2)
    s2 = sigma * sigma
    total = 0.0
    for _ in range(int(T)):
        total += lam * lam * float(v.sum())
        if frozen:
            alpha = np.full(sigma.size, eta / b0)
        else:
            b2 = b2 + np.bincount(groups, weights=lam * lam * v + s2, minlength=c)
            alpha = eta / np.sqrt(b2[groups])
        v = (1.0 - alpha * lam) ** 2 * v + alpha * alpha * s2
    return total / T


def _check_momentum_args(lams, sigma, k, step, beta1, T):
    lams = np.asarray(lams, dtype=float)
    sigma = np.asarray(sigma, dtype=float)
    if lams.ndim != 1 or sigma.shape != lams.shape or np.any(lams <= 0) or np.any(sigma < 0):
        raise ValueError("need positive curvatures and non-negative noise levels, one per coordinate")
    if not (0 <= k <= lams.size and step > 0 and 0 <= beta1 < 1) or int(T) != T or T < 1:
        raise ValueError(f"need 0 <= k <= d, step > 0, 0 <= beta1 < 1, integer T >= 1; got {k}, {step}, "
                         f"{beta1}, {T}")
    return lams, sigma


def momentum_quadratic_average(rng: np.random.Generator, lams: np.ndarray, sigma: np.ndarray, k: int,
                               step: float, beta1: float, T: int, trials: int = 1) -> np.ndarray:
    r"""Subspace-Momentum on $f(x) = \frac12\sum_j\lambda_jx_j^2$ from its minimiser, under noise.

    $P$ = the first ``k`` coordinate directions; stochastic gradients $g_t = \Lambda x_t +
    \sigma\odot\xi_t$; $m_t = \beta_1m_{t-1} + (1-\beta_1)Pg_t$, $x_{t+1} = x_t - \text{step}\,(P^\top m_t
    + g_t - P^\top Pg_t)$ (the update of :func:`subspace_momentum_run`, vectorised over trials).

    Returns:
        ``(trials,)`` values of $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2$.

    Raises:
        ValueError: on bad shapes or parameters.
    """
    lams, sigma = _check_momentum_args(lams, sigma, k, step, beta1, T)
    d = lams.size
    x = np.zeros((trials, d))
    m = np.zeros((trials, k))
    total = np.zeros(trials)
    for _ in range(int(T)):
        grad = lams * x
        total += np.einsum("ij,ij->i", grad, grad)
        g = grad + sigma * rng.standard_normal((trials, d))
        m = beta1 * m + (1.0 - beta1) * g[:, :k]
        direction = g.copy()
        direction[:, :k] = m
        x = x - step * direction
    return total / T


def momentum_quadratic_expectation(lams: np.ndarray, sigma: np.ndarray, k: int, step: float,
                                   beta1: float, T: int) -> float:
    r"""The exact expectation of :func:`momentum_quadratic_average` (no sampling).

    Coordinates decouple.  Outside the subspace $v_{t+1} = (1 - \text{step}\,\lambda)^2v_t +
    \text{step}^2\sigma^2$; inside, $z_t = (x_t, m_{t-1})$ follows $z_{t+1} = Az_t + b\,\xi_t$ with
    $A = \begin{pmatrix}1 - s(1-\beta_1)\lambda & -s\beta_1\\ (1-\beta_1)\lambda & \beta_1\end{pmatrix}$,
    $b = (-s(1-\beta_1)\sigma, (1-\beta_1)\sigma)$, so its covariance follows
    $C_{t+1} = AC_tA^\top + bb^\top$ exactly ($s$ the step).

    Returns:
        $\frac1T\sum_{t<T}\sum_j\lambda_j^2\mathbb Ex_{t,j}^2$.

    Raises:
        ValueError: as :func:`momentum_quadratic_average`.
    """
    lams, sigma = _check_momentum_args(lams, sigma, k, step, beta1, T)
    s, b1 = float(step), float(beta1)
    lin, sin_ = lams[:k], sigma[:k]
    lout, sout = lams[k:], sigma[k:]
    # per in-subspace coordinate: covariance entries (xx, xm, mm)
    cxx, cxm, cmm = np.zeros(k), np.zeros(k), np.zeros(k)
    a11, a12 = 1.0 - s * (1 - b1) * lin, -s * b1
    a21, a22 = (1 - b1) * lin, b1
    q1, q2 = -s * (1 - b1) * sin_, (1 - b1) * sin_
    vout = np.zeros(lout.size)
    total = 0.0
    for _ in range(int(T)):
        total += float(np.sum(lin * lin * cxx) + np.sum(lout * lout * vout))
        nxx = a11 * a11 * cxx + 2 * a11 * a12 * cxm + a12 * a12 * cmm + q1 * q1
        nxm = a11 * a21 * cxx + (a11 * a22 + a12 * a21) * cxm + a12 * a22 * cmm + q1 * q2
        nmm = a21 * a21 * cxx + 2 * a21 * a22 * cxm + a22 * a22 * cmm + q2 * q2
        cxx, cxm, cmm = nxx, nxm, nmm
        vout = (1.0 - s * lout) ** 2 * vout + s * s * sout * sout
    return total / T
