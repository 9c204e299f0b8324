r"""Hu, Das, Sadigh & Anari, "Diffusion Models are Secretly Exchangeable: Parallelizing DDPMs via
Autospeculation" (ICML 2025, PMLR 267:24270-24289, arXiv 2505.03983).

Three headline results, as the abstract states them: under the stochastic-localization (SL)
reparametrization the increments of DDPM are exchangeable; autospeculative decoding (ASD), which
speculates future increments with the model's own current posterior mean and verifies them in
parallel, is exact (its output has the sequential sampler's law); and its parallel speed-up over
the $K$-step sequential DDPM is $\tilde O(K^{1/3})$.  The full text could not be read: the
reparametrization, the Gaussian steps, the reflection coupling at the first rejection and the
unbounded speculation window are our reading of the abstract, a figure caption and a public
review (each claim's ``reconstructed_from``).

Exchangeability is proved symbolically for a DDPM forward chain with a symbolic noise schedule.
Exactness is tested against the sequential sampler's law computed by quadrature, with stated
power.  The speed-up is fitted over $K$ in the regime where the dimension grows with $K$ (the
sequential sampler needs $K$ of order $d$ steps), on product two-point targets drawn afresh for
every run; there the $K^{1/3}$ rate binds (in fixed dimension the speed-up grows faster).
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy import stats

from simulations.diffusion import (
    TwoPointBatch,
    autospeculative_sampler,
    chain_moments,
    grid_for,
    random_two_point_product,
    scaled_sum_cdf,
    sequential_cdf,
    sequential_density,
    sl_scale,
    sl_time,
)
from workbench import AllOf, Identity, NearMiss, NotChecked, Paper, Param, Rate, Symbolic, claim
from workbench.evidence.rate import factor_slope

SOURCES = ("arXiv 2505.03983 abstract and PMLR 267:24270-24289; the figure caption quoted at "
           "chatpaper.com/chatpaper/paper/134943 (the verifier accepts the first proposals, rejects one and "
           "replaces it with its reflection; later proposals are ignored); the ICML review at "
           "paperhub.cn/paper/n08niE37ku (proposals from the expected positions, rejection sampling, samples "
           "exactly those of the sequential scheme, sublinear parallel time without a Lipschitz score)")

PAPER = Paper(
    slug="ddpm_autospeculation",
    title="Diffusion Models are Secretly Exchangeable: Parallelizing DDPMs via Autospeculation",
    authors=("Hengyuan Hu", "Aniket Das", "Dorsa Sadigh", "Nima Anari"),
    venue="ICML 2025",
    year=2025,
    arxiv="2505.03983",
    url="https://proceedings.mlr.press/v267/hu25d.html",
    not_checked=(
        NotChecked(r"The $\tilde O(K^{1/3})$ parallel speed-up of autospeculative decoding, as a rate that a faster or "
                   r"slower one could be told from.",
                   "the power of the logarithm that the O-tilde hides is not public; one factor ln K has a log-log "
                   "slope of about 0.18 over the K that run here (64 to 1024), wider than the gap between the "
                   "exponents 1/3 and 1/2, so the fit (about 0.32, kept as the supporting claim asd_speedup) cannot "
                   "tell K^(1/3) from K^(1/2); telling them apart needs K beyond 10^5 or the exact logarithm",
                   "headline"),
        NotChecked("A practical implementation of autospeculative decoding accelerates DDPM inference significantly "
                   "in various domains (image generation and others; 2-4x in the authors' experiments).",
                   "the experiments use trained score networks on accelerators and wall-clock times; nothing of "
                   "them runs here. The algorithm's parallel round count, which the speed-up is made of, is checked "
                   "on exact posterior means", role="headline"),
        NotChecked(r"The $\tilde O(K^{1/3})$ speed-up holds for every target distribution the theorem admits.",
                   "the theorem's hypotheses and constants could not be read, and a bound over all distributions is "
                   "not a computation; it is checked on a class of targets (product two-point laws with random "
                   "weights, one per run) in the regime where it binds", role="supporting"),
        NotChecked("Exchangeability allows a near-black-box adaptation of other performance optimisations from "
                   "autoregressive models to diffusion.",
                   "a statement about a family of methods, not a property of one computation", role="supporting"),
    ),
)


# --------------------------------------------------------------------------- exchangeability
def _moment_expressions(steps: int, schedule: str, reparametrize: bool) -> tuple[list, list[str], dict]:
    """sympy expressions that vanish when the reparametrized chain is SL and its increments exchangeable."""
    x0 = sp.Symbol("x0", real=True)
    scale = sl_scale if reparametrize else (lambda abar: sp.Integer(1))
    # 1. any schedule (symbolic keep factors a_k = 1 - beta_k): the chain is SL at the times t_k
    a = sp.symbols(f"a1:{steps + 1}", positive=True)
    means, cov = chain_moments(list(a), scale)
    abar = [sp.prod(a[: k + 1]) for k in range(steps)]
    exprs = [means[k] - sl_time(abar[k]) * x0 for k in range(steps)]
    labels = [f"E[y_{k + 1} | x0] - t_{k + 1} x0" for k in range(steps)]
    exprs += [cov[j][k] - sl_time(abar[k]) for j in range(steps) for k in range(j, steps)]
    labels += [f"Cov(y_{j + 1}, y_{k + 1}) - min(t_{j + 1}, t_{k + 1})" for j in range(steps) for k in range(j, steps)]
    # 2. the increments on the schedule's own SL times
    if schedule == "equal_sl_time":
        delta = sp.Symbol("Delta", positive=True)
        times = [(steps - k) * delta for k in range(steps)]          # t_1 > t_2 > ... > t_K
        bars = [t / (1 + t) for t in times]
        keep = [bars[0]] + [bars[k] / bars[k - 1] for k in range(1, steps)]
    else:                                                            # the DDPM grid: constant beta
        keep = [sp.Symbol("a", positive=True)] * steps
    means, cov = chain_moments(keep, scale)
    order = list(range(steps - 1, -1, -1))                            # increasing SL time
    incs = [(order[i + 1], order[i]) for i in range(steps - 1)]       # Z_i = y(later) - y(earlier)

    def c(p: tuple[int, int], q: tuple[int, int]) -> sp.Expr:
        return cov[p[0]][q[0]] - cov[p[0]][q[1]] - cov[p[1]][q[0]] + cov[p[1]][q[1]]

    def m(p: tuple[int, int]) -> sp.Expr:
        return means[p[0]] - means[p[1]]

    for i in range(1, len(incs)):
        exprs += [m(incs[i]) - m(incs[0]), c(incs[i], incs[i]) - c(incs[0], incs[0])]
        labels += [f"E[Z_{i + 1} - Z_1 | x0]", f"Var(Z_{i + 1}) - Var(Z_1)"]
    for i in range(len(incs)):
        for j in range(i + 1, len(incs)):
            exprs.append(c(incs[i], incs[j]))
            labels.append(f"Cov(Z_{i + 1}, Z_{j + 1})")
    domain = {s: (0.05, 0.95) for s in a} | {sp.Symbol("a", positive=True): (0.05, 0.95)}
    return exprs, labels, domain


@claim(PAPER, role="headline", source="Abstract; the SL reparametrization of DDPM (its exchangeability theorem)",
       evidence="symbolic", reconstructed_from=SOURCES + "; the map t = abar/(1 - abar), y = sqrt(abar) x/(1 - abar) "
       "is our reading of 'an appropriate reparametrization'",
       statement=r"For the DDPM forward chain $x_k = \sqrt{1-\beta_k}\,x_{k-1} + \sqrt{\beta_k}\,\varepsilon_k$ with "
       r"any schedule, $t_k = \bar\alpha_k/(1-\bar\alpha_k)$ and $y_k = \sqrt{\bar\alpha_k}\,x_k/(1-\bar\alpha_k)$ "
       r"satisfy $\mathbb E[y_k\mid x_0] = t_k x_0$ and $\mathrm{Cov}(y_j, y_k\mid x_0) = \min(t_j, t_k) I$: the "
       r"chain is the stochastic-localization process $y_t = t x_0 + B_t$ at the times $t_k$. Hence the increments "
       r"over equal SL-time steps are, given $x_0$, i.i.d. $\mathcal N(\Delta x_0, \Delta I)$, and exchangeable.",
       method="sympy, for a chain of `steps` steps: the conditional means and covariances with symbolic keep factors "
              "$a_k = 1 - \\beta_k$ (any schedule), then the increments on the schedule whose SL times are equally "
              "spaced ($\\Delta$ symbolic): equal means and variances, zero covariances.  Gaussian laws are fixed by "
              "these moments, and a mixture over $x_0$ of exchangeable laws is exchangeable.",
       params={"steps": Param(3, full=4, low=3, high=6, doc="steps of the DDPM chain"),
               "schedule": Param("equal_sl_time", choices=("equal_sl_time", "constant_beta"),
                                 doc="grid of the increments: equal SL-time steps, or the DDPM's own equal steps"),
               "reparametrize": Param(True, doc="map the chain to SL coordinates (False: raw DDPM states)")})
def increments_exchangeable(ctx):
    """The DDPM chain in SL coordinates is $t x_0 + B_t$, so its equal-time increments are exchangeable."""
    exprs, labels, domain = _moment_expressions(ctx["steps"], ctx["schedule"], ctx["reparametrize"])
    return Symbolic(exprs, labels=labels, domain=domain,
                    why="each expression is a difference of conditional moments that the statement says vanish; "
                        "sympy simplifies it exactly (a nonzero one is shown at rational keep factors in (0.05, 0.95))")


increments_exchangeable.control("increments on the DDPM's own grid (constant beta) rather than equal SL-time steps",
                                params={"schedule": "constant_beta"}, near_miss=True)
increments_exchangeable.control("raw DDPM states x_k without the reparametrization", params={"reparametrize": False})


# --------------------------------------------------------------------------- exactness
EXACT_LEVEL = 1e-3   # family-wise level of the simultaneous intervals


def _exactness_evidence(ctx) -> AllOf:
    dim, K, T, n = ctx["dim"], ctx["steps"], ctx["horizon"], ctx["chains"]
    target = random_two_point_product(dim, ctx.generator("target"))
    y, _ = autospeculative_sampler(target.mean, K, T, n, dim, ctx.generator("asd"), verifier=ctx["verifier"])
    grid = grid_for(T, spacing=0.1)
    means = [lambda v, t, b=b: np.tanh(v + b) for b in target.bias]
    probs = np.linspace(0.1, 0.9, 9)
    # pooled coordinates: under exactness the n*dim values are independent with the average CDF
    pooled = np.mean([sequential_cdf(m, K, T, grid, grid) for m in means], axis=0)
    q_pool = np.interp(probs, pooled, grid)
    ref_pool = np.mean([sequential_cdf(m, K, T, grid, q_pool) for m in means], axis=0)
    meas_pool = np.mean(y[:, :, None] <= q_pool[None, None, :], axis=(0, 1))
    # the scaled sum sees the joint law; checked at the deciles of its normal approximation
    dens = [sequential_density(m, K, T, grid) for m in means]
    dx = grid[1] - grid[0]
    mu = [float(np.sum(grid * f) * dx) for f in dens]
    var = [float(np.sum(grid**2 * f) * dx) - m**2 for m, f in zip(mu, dens, strict=True)]
    q_sum = stats.norm.ppf(probs, loc=sum(mu) / np.sqrt(dim), scale=np.sqrt(sum(var) / dim))
    ref_sum = scaled_sum_cdf(means, K, T, grid, q_sum)
    meas_sum = np.mean((y.sum(axis=1) / np.sqrt(dim))[:, None] <= q_sum[None, :], axis=0)
    z = stats.norm.isf(EXACT_LEVEL / (2 * 2 * probs.size))       # Bonferroni over both statistics
    tol_pool, tol_sum = z * 0.5 / np.sqrt(n * dim), z * 0.5 / np.sqrt(n)
    why = (f"simultaneous normal intervals at family level {EXACT_LEVEL:g} (Bonferroni over {2 * probs.size} "
           "points, z = {z:.2f}) with the largest binomial standard deviation 1/2; the reference is exact to "
           "about 1e-13 (Riemann sums of smooth integrands on a grid of spacing 0.1 against Gaussian kernels of "
           "variance h >= 0.1)")
    labels = [f"F at q = {q:.3f}" for q in q_pool]
    labels_sum = [f"F at q = {q:.3f}" for q in q_sum]
    return AllOf([
        Identity(meas_pool, ref_pool, atol=tol_pool, why=why.format(z=z) + f"; n d = {n * dim} values",
                 labels=labels, quantity="empirical CDF of the coordinates against the sequential sampler's"),
        Identity(meas_sum, ref_sum, atol=tol_sum, why=why.format(z=z) + f"; n = {n} samples", labels=labels_sum,
                 quantity="empirical CDF of sum_j y_j / sqrt(d) against the sequential sampler's"),
    ], labels=["coordinate marginals", "scaled sum (joint law)"])


@claim(PAPER, role="headline", source="Abstract (autospeculative decoding); its exactness statement", evidence="all",
       reconstructed_from=SOURCES + "; Gaussian steps y_{k+1} = y_k + h m(y_k) + sqrt(h) xi and the reflection "
       "maximal coupling are our reading",
       statement=r"Autospeculative decoding is exact: speculating all future increments as "
       r"$\mathcal N(h\,m(y_k, t_k), hI)$ from the current state, verifying them in order with acceptance probability "
       r"$\min(1, p/q)$ and replacing the first rejected one by its reflection, its output $y_K$ has exactly the law "
       r"of the $K$-step sequential sampler $y_{k+1} = y_k + h\,m(y_k, t_k) + \sqrt h\,\xi_k$.",
       method="A product two-point target in $d$ dimensions with random weights (posterior mean $\\tanh(y + b)$), "
              "$K$ steps to SL time $T$; `chains` ASD runs.  The sequential sampler's law is computed by quadrature "
              "(densities propagated on a grid, exact to far below the sampling error); compared are the empirical "
              "CDF of the coordinates (pooled) and of $\\sum_j y_j/\\sqrt d$ (which sees the joint law) at the "
              "deciles, with simultaneous intervals at family level $10^{-3}$.  Power: a law whose CDF differs by 0.02 "
              "at the checked points is refuted (the declared near miss).",
       near_miss=NearMiss(shift=0.02, why="exactness states no number; the near miss is a law whose CDF is 0.02 off "
                          "at every checked point, the smallest departure the sample size is chosen to detect"),
       params={"dim": Param(4, full=4, low=1, high=64, doc="dimension d"),
               "steps": Param(16, full=16, low=2, high=256, doc="steps K"),
               "horizon": Param(4.0, full=4.0, low=0.5, high=20.0, doc="SL horizon T (h = T/K)"),
               "chains": Param(20000, full=200000, low=1000, high=10**6, doc="ASD runs"),
               "verifier": Param("reflection", choices=("reflection", "resample", "accept_all"),
                                 doc="what replaces the first rejected proposal")})
def asd_exact(ctx):
    """ASD's output law equals the sequential sampler's (tested with stated power against its exact law)."""
    return _exactness_evidence(ctx)


asd_exact.control("a fresh draw from the target step instead of the reflection at the first rejection",
                  params={"verifier": "resample"}, near_miss=True)
asd_exact.control("a verifier that accepts every proposal", params={"verifier": "accept_all"})


# --------------------------------------------------------------------------- speed-up
def _speedup_runs(item: tuple) -> np.ndarray:
    """K / rounds of ``replicates`` ASD runs, each on its own fresh product two-point target."""
    seed, K, dim, T, replicates, window, draft = item
    rng = np.random.default_rng(seed)
    targets = TwoPointBatch(rng.uniform(0.2, 0.8, size=(replicates, dim)))
    _, rounds = autospeculative_sampler(targets.mean, K, T, replicates, dim, rng, window=window, draft=draft,
                                        chunk=32)
    return K / rounds.astype(float)


def _speedups(ctx) -> tuple[np.ndarray, np.ndarray]:
    sizes = [int(k) for k in 2 ** np.arange(6, int(np.log2(ctx["k_max"])) + 1)]
    window = None if ctx["window"] == 0 else int(ctx["window"])
    items = []
    for K in sizes:
        dim = max(1, int(round(16 * (K / 64) ** ctx["dim_power"])))
        seed = ctx.generator("runs", K).integers(2**63)
        items.append((int(seed), K, dim, ctx["horizon"], ctx["replicates"], window, ctx["draft"]))
    out = ctx.map(_speedup_runs, items)
    xs = np.concatenate([np.full(len(o), it[1], dtype=float) for it, o in zip(items, out, strict=True)])
    return xs, np.concatenate(out)


SPEED_PARAMS = {
    "k_max": Param(1024, full=4096, low=128, high=8192, doc="largest K (powers of 2 from 64)"),
    "replicates": Param(8, full=20, low=2, high=200, doc="runs per K, each on a fresh target"),
    "horizon": Param(8.0, full=8.0, low=1.0, high=20.0, doc="SL horizon T"),
    "dim_power": Param(1.0, full=1.0, low=0.0, high=2.0, hypothesis=(0.0, 1.0),
                       doc="d = 16 (K/64)^p: p = 1 is d = K/4 (the regime K of order d)"),
    "window": Param(0, full=0, low=0, high=64, doc="speculation window (0: unbounded, the algorithm)"),
    "draft": Param("current", choices=("current", "zero"), doc="draft mean: the current posterior mean, or 0"),
}
SPEED_METHOD = ("ASD with exact posterior means on product two-point targets with weights drawn uniformly from "
                "[0.2, 0.8] afresh for every run; $d = 16(K/64)^p$ with $p = 1$ ($d = K/4$: the dimension grows "
                "with $K$, where a sequential DDPM needs $K$ of order $d$ steps) and SL horizon $T = 8$; $K$ from "
                "64 to k\\_max in powers of 2, `replicates` runs each; rounds counted with an unbounded window.  "
                "Every run is one point of the log-log fit, so the interval carries the spread between targets.")


@claim(PAPER, role="supporting", source="Abstract: ASD achieves an O~(K^{1/3}) parallel runtime speed-up",
       evidence="rate", reconstructed_from=SOURCES,
       statement=r"The parallel speed-up of autospeculative decoding over the $K$-step sequential DDPM, "
       r"$K/\mathbb E[\text{rounds}]$, is $\tilde\Omega(K^{1/3})$: it grows at least as $K^{1/3}$ up to a logarithmic "
       r"factor; checked where the dimension grows with $K$.",
       method=SPEED_METHOD + "  The allowance for the logarithm that $\\tilde O$ hides is one factor $\\ln K$: its "
              "slope over the fitted sizes (`factor_slope`).  Slack, and why: that allowance (about 0.18) is wider than "
              "the gap between $1/3$ and $1/2$, so a claimed $K^{1/2}$ is not refuted (inconclusive); the headline is listed as not "
              "checked sharply, and this fit is kept as supporting.",
       params=SPEED_PARAMS, sweeps=({"dim_power": [0.0, 0.5, 1.0]},))
def asd_speedup(ctx):
    """The speed-up grows at least as $K^{1/3}$ up to one logarithm, fitted over $K$ on fresh targets."""
    xs, ys = _speedups(ctx)
    tol = abs(factor_slope(np.unique(xs), np.log(np.unique(xs))))
    return Rate(xs, ys, exponent=1 / 3, relation=">=", tolerance=tol, level=0.95,
                why=f"95% t interval of the slope over all runs (between-target spread included); tolerance "
                    f"{tol:.3f} is the slope of one factor ln K over these K (the O-tilde)",
                size_name="K (sequential steps)", cost_name="speed-up K / rounds")


asd_speedup.control("speculative decoding with a fixed draft length of 4 steps (the predecessor scheme)",
                    params={"window": 4}, near_miss=True)
asd_speedup.control("zero-drift speculation: increments drafted as N(0, hI)", params={"draft": "zero"})


@claim(PAPER, role="supporting", source="Abstract: the K^{1/3} rate, where it binds", evidence="rate",
       reconstructed_from=SOURCES + "; the two steps every round keeps (its first proposal, whose draft equals the "
       "target, and the kept reflection) are a fact of the algorithm as reconstructed",
       statement=r"Where the dimension grows with $K$ ($d = K/4$), the steps a round advances beyond the two every "
       r"round keeps, $K/\mathbb E[\text{rounds}] - 2$, grow as $K^{1/3}$: the rate of the speed-up is attained, "
       r"not only bounded.",
       method=SPEED_METHOD + "  Each round keeps its first proposal (drafted with the target's own mean, so always "
              "accepted) and its reflected step; subtracting these two leaves the speculated run whose length the "
              "theory scales as $(K^2/(T^2 d))^{1/3}$.",
       params=SPEED_PARAMS)
def asd_run_length_rate(ctx):
    """The speculated run per round grows as $K^{1/3}$ when $d \\propto K$: the rate binds (two-sided fit)."""
    xs, ys = _speedups(ctx)
    return Rate(xs, ys - 2.0, exponent=1 / 3, relation="=", tolerance=0.0, max_halfwidth=0.1, level=0.95,
                why="95% t interval of the slope over all runs; 0.1 is the widest half-width that still tells 1/3 "
                    "from the default near misses 1/3 +- 1/4",
                size_name="K (sequential steps)", cost_name="K / rounds - 2")


asd_run_length_rate.control("dimension growing as K^1.5 (K much smaller than d: outside the regime K of order d)",
                            params={"dim_power": 1.5}, near_miss=True)
asd_run_length_rate.control("speculative decoding with a fixed draft length of 4 steps", params={"window": 4})
