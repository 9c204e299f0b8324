"""Stochastic localization (SL) and its link to the DDPM forward chain.

Objects of Hu, Das, Sadigh & Anari, "Diffusion Models are Secretly Exchangeable: Parallelizing
DDPMs via Autospeculation" (ICML 2025, arXiv 2505.03983), as far as public sources describe them:
the SL process is ``y_t = t x + B_t`` (``x`` a draw of the target, ``B`` a standard Brownian
motion in R^d), whose drift is the posterior mean ``m(y, t) = E[x | y_t = y]`` (Eldan 2013;
Montanari 2023, arXiv 2305.10690).  A DDPM forward chain ``x_k = sqrt(1 - beta_k) x_{k-1} +
sqrt(beta_k) eps_k`` (``x_0`` the data) becomes an SL path at the times
``t_k = abar_k / (1 - abar_k)`` through ``y_k = sqrt(abar_k) x_k / (1 - abar_k)``,
``abar_k = prod_{i <= k} (1 - beta_i)`` (the reparametrization the abstract refers to; our
reading, checked symbolically by :func:`chain_moments`).

Targets here are products of two-point laws: coordinate ``j`` is ``+1`` with probability ``p_j``
and ``-1`` otherwise.  Their posterior mean is exact and cheap, ``m_j(y, t) = tanh(y_j + b_j)``
with ``b_j = artanh(2 p_j - 1)`` (it does not depend on ``t`` because ``x_j^2 = 1``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy as sp


# --------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class TwoPointProduct:
    """The product law on {-1, +1}^d with P(x_j = +1) = p_j.

    Attributes:
        p: shape (d,), each entry in (0, 1).
    """

    p: np.ndarray

    def __post_init__(self) -> None:
        p = np.asarray(self.p, dtype=float)
        if p.ndim != 1 or p.size == 0 or np.any(p <= 0) or np.any(p >= 1):
            raise ValueError("TwoPointProduct needs a non-empty 1-D array of probabilities strictly inside (0, 1)")
        object.__setattr__(self, "p", p)

    @property
    def dim(self) -> int:
        return int(self.p.size)

    @property
    def bias(self) -> np.ndarray:
        """b_j = artanh(2 p_j - 1) = ln(p_j / (1 - p_j)) / 2, shape (d,)."""
        return 0.5 * np.log(self.p / (1.0 - self.p))

    def mean(self, y: np.ndarray, t: float | np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
        """Posterior mean E[x | y_t = y] = tanh(y + b), for y of shape (..., d); ``t`` and ``rows`` are unused.

        The posterior of x_j given y_t is proportional to p(x_j) exp(x_j y_j - t x_j^2 / 2), and
        x_j^2 = 1, so the mean is tanh(y_j + b_j) at every t.
        """
        y = np.asarray(y, dtype=float)
        if y.shape[-1] != self.dim:
            raise ValueError(f"y has last dimension {y.shape[-1]}, the target has dimension {self.dim}")
        return np.tanh(y + self.bias)

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n draws of x, shape (n, d)."""
        return np.where(rng.random((n, self.dim)) < self.p, 1.0, -1.0)


@dataclass(frozen=True)
class TwoPointBatch:
    """One two-point product target per chain: P(x_j = +1) = p[i, j] for chain i.

    Attributes:
        p: shape (n_chains, d), entries in (0, 1).
    """

    p: np.ndarray

    def __post_init__(self) -> None:
        p = np.asarray(self.p, dtype=float)
        if p.ndim != 2 or p.size == 0 or np.any(p <= 0) or np.any(p >= 1):
            raise ValueError("TwoPointBatch needs a non-empty 2-D array of probabilities strictly inside (0, 1)")
        object.__setattr__(self, "p", p)

    @property
    def bias(self) -> np.ndarray:
        return 0.5 * np.log(self.p / (1.0 - self.p))

    def mean(self, y: np.ndarray, t: float | np.ndarray, rows: np.ndarray) -> np.ndarray:
        """tanh(y + b[rows]) for y of shape (m, d) belonging to chains ``rows`` (shape (m,))."""
        return np.tanh(np.asarray(y, dtype=float) + self.bias[np.asarray(rows)])


def random_two_point_product(dim: int, rng: np.random.Generator, low: float = 0.2, high: float = 0.8) -> TwoPointProduct:
    """A two-point product target with p_j drawn uniformly from [low, high] (a fresh instance of the class)."""
    if dim < 1 or not 0 < low <= high < 1:
        raise ValueError("need dim >= 1 and 0 < low <= high < 1")
    return TwoPointProduct(rng.uniform(low, high, size=dim))


# --------------------------------------------------------------------------- DDPM <-> SL
def ddpm_to_sl(x_k: np.ndarray, abar: float) -> tuple[float, np.ndarray]:
    """The SL time and point of a DDPM state: t = abar/(1 - abar), y = sqrt(abar) x_k/(1 - abar).

    Raises:
        ValueError: unless 0 < abar < 1.
    """
    if not 0 < abar < 1:
        raise ValueError(f"abar must lie in (0, 1), got {abar}")
    return abar / (1 - abar), np.sqrt(abar) * np.asarray(x_k, dtype=float) / (1 - abar)


def sl_to_ddpm(y: np.ndarray, t: float) -> tuple[float, np.ndarray]:
    """Inverse of :func:`ddpm_to_sl`: abar = t/(1 + t), x_k = y / (sqrt(t (1 + t)))."""
    if t <= 0:
        raise ValueError(f"t must be positive, got {t}")
    return t / (1 + t), np.asarray(y, dtype=float) / np.sqrt(t * (1 + t))


def chain_moments(keep: list, scale) -> tuple[list, list]:
    """Conditional moments of a reparametrized DDPM forward chain, in sympy.

    The chain is ``x_k = sqrt(a_k) x_{k-1} + sqrt(1 - a_k) eps_k`` with ``a_k = 1 - beta_k``
    given by ``keep`` (sympy expressions, e.g. positive symbols), started at the data ``x_0``
    (a scalar symbol ``x0``; coordinates are independent).  With ``abar_k = a_1 ... a_k``, the
    reparametrized process is ``y_k = scale(abar_k) x_k``.

    Args:
        keep: [a_1, ..., a_K], the per-step signal-keep factors 1 - beta_k.
        scale: callable abar -> sympy expression (e.g. :func:`sl_scale`).

    Returns:
        (means, covariances): ``means[k]`` is E[y_k | x0] (k = 1..K) and
        ``covariances[j][k]`` is Cov(y_j, y_k | x0), both sympy expressions in ``x0`` and the
        ``keep`` entries; index 0 is step 1.

    Source: the DDPM forward chain (Ho, Jain & Abbeel 2020); the reparametrization is our reading
    of the abstract of arXiv 2505.03983.
    """
    if not keep:
        raise ValueError("need at least one step")
    x0 = sp.Symbol("x0", real=True)
    K = len(keep)
    abar, prod = [], sp.Integer(1)
    for a in keep:
        prod = prod * a
        abar.append(prod)
    # x_k = sqrt(abar_k) x0 + sum_{i <= k} c[k][i] eps_i
    coef = [[sp.Integer(0)] * K for _ in range(K)]
    for k in range(K):
        for i in range(k + 1):
            c = sp.sqrt(1 - keep[i])
            for j in range(i + 1, k + 1):
                c = c * sp.sqrt(keep[j])
            coef[k][i] = c
    means = [scale(abar[k]) * sp.sqrt(abar[k]) * x0 for k in range(K)]
    cov = [[scale(abar[j]) * scale(abar[k]) * sum(coef[j][i] * coef[k][i] for i in range(K)) for k in range(K)]
           for j in range(K)]
    return means, cov


def sl_scale(abar):
    """The SL scale sqrt(abar)/(1 - abar) (sympy or float)."""
    return sp.sqrt(abar) / (1 - abar) if isinstance(abar, sp.Basic) else np.sqrt(abar) / (1 - abar)


def sl_time(abar):
    """The SL time abar/(1 - abar) (sympy or float)."""
    return abar / (1 - abar)
