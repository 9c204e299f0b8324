"""Partially observed trajectory inference on a grid: the PO-MFL objective and its mean-field flow.

Gu, Chien & Greenewald, "Partially Observed Trajectory Inference using Optimal Transport and a
Dynamics Prior" (ICLR 2025, arXiv 2406.07475), extending Lavenant et al. (2024) and Chizat et al.
(NeurIPS 2022) to latent states.  The latent state $x = (p, v)$ (position, velocity) follows the
constant-velocity model $dp = v\\,dt$, $dv = \\sigma_v dW$, whose transition over a time step $\\Delta$ is
Gaussian, $x' \\sim N(Fx, Q)$ with $F = \\begin{pmatrix}1 & \\Delta\\\\ 0 & 1\\end{pmatrix}$ and
$Q = \\sigma_v^2\\begin{pmatrix}\\Delta^3/3 & \\Delta^2/2\\\\ \\Delta^2/2 & \\Delta\\end{pmatrix}$; only positions $Hx = p$ are
observed, in unpaired snapshots $\\hat\\rho_i$ at times $t_1 < \\dots < t_T$.  The estimator minimises over the
latent marginals $\\mu_1, \\dots, \\mu_T$

    G(mu) = sum_i Fit(H_# mu_i, rho_i) + lam sum_i OT_1^{c}(mu_i, mu_{i+1}) + tau sum_i H(mu_i),

with the data-fitting term of Chizat et al. $\\mathrm{Fit}(\\nu, \\hat\\rho) = -\\int\\ln(g_\\sigma * \\nu)\\,d\\hat\\rho$ (Gaussian
kernel $g_\\sigma$), the entropic transport with the dynamics-adjusted cost $c(x, x') = -\\ln$ (transition
density) $= \\frac12(x' - Fx)^TQ^{-1}(x' - Fx)$ + const (the minimum entropy relative to the latent SDE of the
coupling, reduced to adjacent marginals) and the entropy $H(\\mu) = \\int\\mu\\ln\\mu$.  The latent-free
baseline (Chizat et al.) works in position space with the Brownian cost $(p' - p)^2/(2\\sigma_p^2\\Delta)$.

Here the marginals live on a tensor grid of cells and are vectors of cell masses; the mean-field
Langevin dynamics is the Fokker-Planck equation $\\partial_t\\mu_i = \\nabla\\cdot(\\mu_i\\nabla V_i) + \\tau\\Delta\\mu_i$,
$V_i = \\delta(G - \\tau\\sum H)/\\delta\\mu_i$, discretised by Scharfetter-Gummel fluxes (which keep the discrete
Gibbs states $\\mu \\propto e^{-V/\\tau}$ exactly stationary) and explicit Euler steps.  The objective's
parameterisation (weights lam, tau, sigma) is our reconstruction of the paper's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigs

from .entropic import entropic_ot_newton


# --------------------------------------------------------------------------- model
def constant_velocity(dt: float, sigma_v: float) -> tuple[np.ndarray, np.ndarray]:
    """(F, Q) of the constant-velocity model over a time step dt (exact discretisation)."""
    if dt <= 0 or sigma_v <= 0:
        raise ValueError("the time step and the velocity noise must be positive")
    F = np.array([[1.0, dt], [0.0, 1.0]])
    Q = sigma_v**2 * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    return F, Q


@dataclass(frozen=True)
class Grid:
    """A tensor grid of cell centres: positions p (Gp,), velocities v (Gv,) (a single velocity
    cell for a position-only grid).  Cell k = i_p * Gv + i_v; ``points`` is (K, 2)."""

    p: np.ndarray
    v: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.p.size, self.v.size

    @property
    def hp(self) -> float:
        return float(self.p[1] - self.p[0])

    @property
    def hv(self) -> float:
        return float(self.v[1] - self.v[0]) if self.v.size > 1 else 1.0

    @property
    def points(self) -> np.ndarray:
        P, V = np.meshgrid(self.p, self.v, indexing="ij")
        return np.stack([P.ravel(), V.ravel()], axis=1)

    @property
    def volume(self) -> float:
        return self.hp * self.hv


def make_grid(p_range: float, n_p: int, v_range: float = 0.0, n_v: int = 1) -> Grid:
    """Cell centres on [-p_range, p_range] (n_p cells) x [-v_range, v_range] (n_v cells; n_v = 1
    gives a position-only grid)."""
    if n_p < 2 or n_v < 1:
        raise ValueError("need at least 2 position cells and 1 velocity cell")
    hp = 2 * p_range / n_p
    p = -p_range + hp * (np.arange(n_p) + 0.5)
    if n_v == 1:
        return Grid(p, np.zeros(1))
    hv = 2 * v_range / n_v
    return Grid(p, -v_range + hv * (np.arange(n_v) + 0.5))


def dynamics_cost(grid: Grid, F: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """c(x_k, x_l) = (x_l - F x_k)^T Q^{-1} (x_l - F x_k) / 2 over all pairs of cells (K, K)."""
    X = grid.points
    D = X[None, :, :] - (X @ F.T)[:, None, :]
    Qi = np.linalg.inv(Q)
    return 0.5 * np.einsum("kli,ij,klj->kl", D, Qi, D)


def brownian_cost(grid: Grid, dt: float, sigma_p: float) -> np.ndarray:
    """The latent-free cost (p_l - p_k)^2 / (2 sigma_p^2 dt) on positions (velocities ignored)."""
    p = grid.points[:, 0]
    return (p[None, :] - p[:, None]) ** 2 / (2 * sigma_p**2 * dt)


# --------------------------------------------------------------------------- objective
@dataclass
class Objective:
    """The PO-MFL objective on a grid (see the module docstring).

    Attributes:
        grid: the latent grid; costs: T-1 (K, K) transport costs; data: T arrays of observed
        positions; bandwidth: sigma of the fitting kernel; lam: weight of the transport terms;
        tau: temperature (weight of the entropy).
    """

    grid: Grid
    costs: list[np.ndarray]
    data: list[np.ndarray]
    bandwidth: float
    lam: float
    tau: float
    _kernels: list[np.ndarray] = field(default_factory=list, repr=False)
    _warm: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.costs) != len(self.data) - 1:
            raise ValueError(f"{len(self.data)} snapshots need {len(self.data) - 1} transport costs")
        if self.bandwidth <= 0 or self.lam < 0 or self.tau < 0:
            raise ValueError("the bandwidth must be positive and lam, tau non-negative")
        p = self.grid.points[:, 0]
        s = self.bandwidth
        self._kernels = [np.exp(-(p[None, :] - np.asarray(y, float)[:, None]) ** 2 / (2 * s**2)) / np.sqrt(2 * np.pi * s**2)
                         for y in self.data]   # (N_i, K): g_sigma(p_k - y_j)

    @property
    def T(self) -> int:
        return len(self.data)

    def _ot(self, i: int, mus: np.ndarray, tol: float):
        res = entropic_ot_newton(mus[i], mus[i + 1], self.costs[i], 1.0, tol=tol, g0=self._warm.get(i))
        self._warm[i] = res.g
        return res

    def value(self, mus: np.ndarray, tol: float = 1e-14) -> float:
        """G(mu) for mus (T, K) of cell masses (each row positive, summing to 1)."""
        total = 0.0
        for i in range(self.T):
            total -= float(np.mean(np.log(self._kernels[i] @ mus[i])))
            if self.tau > 0:
                total += self.tau * float(np.sum(mus[i] * np.log(mus[i] / self.grid.volume)))
        if self.lam > 0:
            total += self.lam * sum(self._ot(i, mus, tol).value for i in range(self.T - 1))
        return total

    def potentials(self, mus: np.ndarray, tol: float = 1e-14) -> np.ndarray:
        """V_i = first variation of G without its entropy, (T, K) (each row up to a constant)."""
        V = np.zeros_like(mus)
        for i in range(self.T):
            ratio = self._kernels[i] / (self._kernels[i] @ mus[i])[:, None]
            V[i] = -ratio.mean(axis=0)
        if self.lam > 0:
            for i in range(self.T - 1):
                res = self._ot(i, mus, tol)
                V[i] += self.lam * res.f
                V[i + 1] += self.lam * res.g
        return V - V.mean(axis=1, keepdims=True)

    def minimiser(self, mus0: np.ndarray | None = None, step: float = 0.5, tol: float = 1e-13,
                  max_iter: int = 20_000) -> np.ndarray:
        """The minimiser of G (tau > 0) by entropic mirror descent,
        mu_i <- normalise(mu_i^(1 - s) exp(-s V_i / tau)), until the fixed-point equation
        mu_i = normalise(exp(-V_i[mu] / tau)) holds to ``tol`` in l1.

        Raises:
            RuntimeError: when it does not converge within max_iter steps.
        """
        if self.tau <= 0:
            raise ValueError("the minimiser in Gibbs form needs tau > 0")
        K = self.grid.points.shape[0]
        mus = np.full((self.T, K), 1.0 / K) if mus0 is None else np.array(mus0, float)
        for _ in range(max_iter):
            V = self.potentials(mus)
            logg = -V / self.tau
            gibbs = np.exp(logg - logg.max(axis=1, keepdims=True))
            gibbs /= gibbs.sum(axis=1, keepdims=True)
            if np.sum(np.abs(gibbs - mus)) < tol:
                return gibbs
            new = np.exp((1 - step) * np.log(mus) + step * np.log(gibbs))
            mus = new / new.sum(axis=1, keepdims=True)
        raise RuntimeError("mirror descent did not reach the fixed point")


# --------------------------------------------------------------------------- mean-field Langevin
def _bernoulli(z: np.ndarray) -> np.ndarray:
    """B(z) = z / (e^z - 1), with B(0) = 1 (stable for large |z|)."""
    z = np.asarray(z, float)
    small = np.abs(z) < 1e-8
    zs = np.where(small, 1.0, z)
    return np.where(small, 1.0 - z / 2, zs / np.expm1(zs))


def fokker_planck_rate(mass: np.ndarray, V: np.ndarray, grid: Grid, tau: float) -> np.ndarray:
    """d mass/dt of the Fokker-Planck equation with drift -grad V and diffusion tau on the grid
    (Scharfetter-Gummel fluxes, no flux through the boundary).  mass, V: (K,) in cell order."""
    Gp, Gv = grid.shape
    m = mass.reshape(Gp, Gv) / grid.volume           # densities
    U = V.reshape(Gp, Gv)
    rate = np.zeros((Gp, Gv))
    if Gp > 1:
        psi = (U[1:, :] - U[:-1, :]) / tau
        J = tau / grid.hp * (_bernoulli(psi) * m[:-1, :] - _bernoulli(-psi) * m[1:, :])
        rate[:-1, :] -= grid.hv * J
        rate[1:, :] += grid.hv * J
    if Gv > 1:
        psi = (U[:, 1:] - U[:, :-1]) / tau
        J = tau / grid.hv * (_bernoulli(psi) * m[:, :-1] - _bernoulli(-psi) * m[:, 1:])
        rate[:, :-1] -= grid.hp * J
        rate[:, 1:] += grid.hp * J
    return rate.ravel()


def stable_step(V: np.ndarray, grid: Grid, tau: float, safety: float = 0.4) -> float:
    """An explicit Euler step keeping masses positive: safety / (largest out-rate of a cell)."""
    Gp, Gv = grid.shape
    out = np.zeros((Gp, Gv))
    for i in range(V.shape[0]):
        U = V[i].reshape(Gp, Gv)
        o = np.zeros((Gp, Gv))
        if Gp > 1:
            psi = (U[1:, :] - U[:-1, :]) / tau
            o[:-1, :] += tau / grid.hp**2 * _bernoulli(psi)
            o[1:, :] += tau / grid.hp**2 * _bernoulli(-psi)
        if Gv > 1:
            psi = (U[:, 1:] - U[:, :-1]) / tau
            o[:, :-1] += tau / grid.hv**2 * _bernoulli(psi)
            o[:, 1:] += tau / grid.hv**2 * _bernoulli(-psi)
        out = np.maximum(out, o)
    return float(safety / out.max())


def mfl_step(obj: Objective, mus: np.ndarray, dt: float) -> np.ndarray:
    """One explicit Euler step of the mean-field Langevin dynamics (all T marginals at once)."""
    V = obj.potentials(mus)
    return np.stack([mus[i] + dt * fokker_planck_rate(mus[i], V[i], obj.grid, obj.tau) for i in range(obj.T)])


def mfl_run(obj: Objective, mus0: np.ndarray, dt: float, steps: int, record_every: int = 1) -> tuple[np.ndarray, list[float]]:
    """Run ``steps`` MFL steps; return the final marginals and G every ``record_every`` steps
    (the first entry at the start)."""
    mus = np.array(mus0, float)
    values = [obj.value(mus)]
    for k in range(1, steps + 1):
        mus = mfl_step(obj, mus, dt)
        if np.any(mus <= 0):
            raise RuntimeError("a cell's mass became non-positive: the step is too large")
        if k % record_every == 0:
            values.append(obj.value(mus))
    return mus, values


def linearised_contraction(obj: Objective, fixed: np.ndarray, dt: float, count: int = 3,
                           h: float = 1e-5) -> np.ndarray:
    """The largest eigenvalues (in modulus) of the MFL step's Jacobian at its fixed point, on
    perturbations of zero mass in each marginal (the slowest modes of the discrete flow).

    The Jacobian is taken in coordinates relative to each cell's mass (delta mu_k = mu_k w_k, a
    similar matrix with the same eigenvalues), so that the perturbations keep every mass positive;
    Jacobian-vector products by central differences of :func:`mfl_step` (transport solved to 1e-13
    by Newton, warm-started at the fixed point); eigenvalues by ARPACK (scipy's eigs).
    """
    T, K = fixed.shape

    def project(w: np.ndarray) -> np.ndarray:      # zero mass: sum_k mu_k w_k = 0 in each marginal
        w = w.reshape(T, K)
        return (w - np.sum(fixed * w, axis=1, keepdims=True)).ravel()

    def matvec(w: np.ndarray) -> np.ndarray:
        w = project(np.real(np.asarray(w).ravel()))
        size = np.abs(w).max()
        if size == 0:
            return np.zeros_like(w)
        d = (h / size) * fixed * w.reshape(T, K)
        up = mfl_step(obj, fixed + d, dt)
        dn = mfl_step(obj, fixed - d, dt)
        return project(((up - dn) / fixed).ravel() * size / (2 * h))

    op = LinearOperator((T * K, T * K), matvec=matvec, dtype=float)
    v0 = project(np.cos(np.arange(T * K) * 0.7))
    vals = eigs(op, k=count, which="LM", v0=v0, tol=1e-10, return_eigenvectors=False)
    return np.array(sorted(vals, key=lambda z: -abs(z)))


# --------------------------------------------------------------------------- crossing groups
def crossing_snapshots(rng: np.random.Generator, n: int, persistence: float, *, start: float = 1.5,
                       speed: float = 1.5, spread: float = 0.3, noise: float = 0.1) -> list[np.ndarray]:
    """Unpaired position snapshots at times 0, 1, 2 of two groups moving towards each other.

    Each snapshot draws n fresh particles: half start near -start with velocity +speed, half near
    +start with velocity -speed (spread: the start's standard deviation); they meet at time 1,
    after which each keeps its velocity with probability ``persistence`` (else reverses it), so
    at time 2 a fraction ``persistence`` of each group has crossed.  Positions are observed with
    N(0, noise^2) errors.
    """
    if not 0 <= persistence <= 1:
        raise ValueError(f"the persistence is a probability, not {persistence!r}")
    out = []
    for t in (0.0, 1.0, 2.0):
        side = np.where(np.arange(n) < n // 2, -1.0, 1.0)
        p0 = side * start + spread * rng.standard_normal(n)
        v = -side * speed
        keep = rng.random(n) < persistence
        p = p0 + v * min(t, 1.0) + np.where(keep, v, -v) * max(t - 1.0, 0.0)
        out.append(rng.permutation(p + noise * rng.standard_normal(n)))
    return out


def crossing_probability(obj: Objective, mus: np.ndarray) -> float:
    """Under the inferred path law (the Markov chain of the entropic plans between adjacent
    marginals), the probability that a path starting at a negative position at the first time
    is at a positive position at the last time, averaged with the mirror event (positive to
    negative): the fraction of tracks the estimator continues across.
    """
    plans = []
    for i in range(obj.T - 1):
        res = entropic_ot_newton(mus[i], mus[i + 1], obj.costs[i], 1.0, tol=1e-12, g0=obj._warm.get(i))
        plans.append(mus[i][:, None] * mus[i + 1][None, :] * np.exp(res.f[:, None] + res.g[None, :] - obj.costs[i]))
    joint = plans[0]
    for i in range(1, len(plans)):
        joint = (joint / mus[i][None, :]) @ plans[i]           # P(x_1, x_last)
    p = obj.grid.points[:, 0]
    left, right = p < 0, p > 0
    to_right = joint[np.ix_(left, right)].sum() / joint[left].sum()
    to_left = joint[np.ix_(right, left)].sum() / joint[right].sum()
    return float(0.5 * (to_right + to_left))
