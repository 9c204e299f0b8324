r"""Nguyen & Nguyen, "Lean and Mean Adaptive Optimization via Subset-Norm and Subspace-Momentum
with Convergence Guarantees" (ICML 2025, arXiv:2411.07120).

Subset-Norm shares one AdaGrad accumulator per subset of coordinates (AdaGrad-Norm and
coordinate-wise AdaGrad are the extreme partitions, $O(\sqrt d)$ state with subsets of size
$\sqrt d$); Subspace-Momentum keeps momentum only in a $k$-dimensional subspace.  The update rules
are the paper's (as quoted by a summary page); the rate statements are the abstract's
("high-probability convergence guarantees", noise adaptivity, SGD-like rate) in the testable
form of the research notes, so the rate claims are marked reconstructed.
"""

from __future__ import annotations

import math

import numpy as np

from simulations.optim.subset_norm import (
    adagrad_coordinate_reference,
    adagrad_norm_reference,
    contiguous_subsets,
    momentum_matrix,
    quad_cos_problem,
    rate_trial,
    sgd_momentum_reference,
    state_size,
    subset_norm_run,
    subspace_momentum_matrix,
    subspace_momentum_run,
)
from workbench import Identity, Paper, Param, Rate, claim

PAPER = Paper(
    slug="subset_norm_subspace_momentum",
    title="Lean and Mean Adaptive Optimization via Subset-Norm and Subspace-Momentum with "
          "Convergence Guarantees",
    authors=("Thien Hang Nguyen", "Huy Le Nguyen"),
    venue="ICML 2025",
    year=2025,
    arxiv="2411.07120",
    identifier="PMLR 267:46116-46161",
    url="https://proceedings.mlr.press/v267/nguyen25f.html",
    not_checked=(
        ("Combining Subset-Norm and Subspace-Momentum reaches Adam's validation perplexity on "
         "LLaMA pre-training with about half the training tokens and over 80% less "
         "optimizer-state memory.",
         "LLM pre-training at the billion-parameter scale is far beyond this machine (2 CPU "
         "cores); the memory counts behind it are checked on small matrices", "headline"),
    ),
)

REDUCTION_WHY = ("the two sides run the same update with the arithmetic in a different order "
                 "(e.g. sqrt of an accumulated sum against sqrt(b^2 + |g|^2)); each step differs by a "
                 "few ulps and the iteration is stable, so after n steps the gap is at most about "
                 "n x 1e-16 relative; rtol 1e-11 (atol 1e-12 near zero) covers 100 steps with margin")


def _instance(ctx):
    d = ctx["dim"]
    return quad_cos_problem(d, ctx.generator("problem"), 1.0), ctx.generator("start").standard_normal(d)


# --------------------------------------------------------------------------- claim 1
def _subset_norm_pairs(ctx, middle_size):
    p, x0 = _instance(ctx)
    d, n, eta, b0 = p.H.shape[0], ctx["n_steps"], 0.5, 1.0

    def oracle():  # the same noise stream for both sides of each comparison
        return p.oracle(ctx.generator("noise"))

    sn_one, c_one = subset_norm_run(oracle(), x0, contiguous_subsets(d, middle_size), eta, b0, n)
    ref_norm = adagrad_norm_reference(oracle(), x0, eta, b0, n)
    sn_single, c_single = subset_norm_run(oracle(), x0, contiguous_subsets(d, 1), eta, b0, n)
    ref_coord = adagrad_coordinate_reference(oracle(), x0, eta, b0, n)
    measured = np.concatenate([sn_one.ravel(), sn_single.ravel(), [c_one, c_single]])
    reference = np.concatenate([ref_norm.ravel(), ref_coord.ravel(), [1, d]])
    return Identity(measured, reference, rtol=1e-11, atol=1e-12, why=REDUCTION_WHY,
                    quantity="Subset-Norm iterates and state size against AdaGrad-Norm / AdaGrad")


@claim(PAPER, role="supporting", source="Abstract and the Subset-Norm update rule (quoted by a summary page); "
                     "AdaGrad-Norm and AdaGrad as the extreme partitions", evidence="identity",
       statement=r"Subset-Norm $b_{t,i}^2 = b_{t-1,i}^2 + \|g_{t,\Psi_i}\|^2$, "
       r"$\theta_{t+1,j} = \theta_{t,j} - \eta g_{t,j}/b_{t,\psi(j)}$ with one subset is AdaGrad-Norm "
       r"and with $d$ singletons is coordinate-wise AdaGrad; its state has one entry per subset.",
       method="Subset-Norm run with one subset and with $d$ singletons on a noisy nonconvex "
              "quadratic-plus-cosine, with the same noise as independently written AdaGrad-Norm "
              "and AdaGrad; all iterates and the state sizes are compared.",
       params={"dim": Param(16, full=64, low=2, high=4096, doc="dimension d"),
               "n_steps": Param(100, full=400, low=1, high=10000, doc="steps compared")})
def subset_norm_generalises_adagrad(ctx):
    """Subset-Norm with one subset equals AdaGrad-Norm, with singletons equals AdaGrad (all iterates)."""
    return _subset_norm_pairs(ctx, ctx["dim"])


@subset_norm_generalises_adagrad.control("subsets of size sqrt(d) compared with AdaGrad-Norm")
def _(ctx):
    return _subset_norm_pairs(ctx, max(1, math.isqrt(ctx["dim"])))


# --------------------------------------------------------------------------- claim 2
def _momentum_pairs(ctx, k_full):
    p, x0 = _instance(ctx)
    d, n, eta, beta = p.H.shape[0], ctx["n_steps"], 0.05, 0.9
    rot, _ = np.linalg.qr(ctx.generator("rotation").standard_normal((d, d)))

    def oracle():
        return p.oracle(ctx.generator("noise"))

    full_identity = subspace_momentum_run(oracle(), x0, np.eye(d)[:k_full], eta, beta, n)
    full_rotated = subspace_momentum_run(oracle(), x0, rot.T[:k_full], eta, beta, n)
    ema = sgd_momentum_reference(oracle(), x0, eta, beta, n)
    empty = subspace_momentum_run(oracle(), x0, np.zeros((0, d)), eta, beta, n)
    sgd = sgd_momentum_reference(oracle(), x0, eta, 0.0, n)
    measured = np.concatenate([full_identity.ravel(), full_rotated.ravel(), empty.ravel()])
    reference = np.concatenate([ema.ravel(), ema.ravel(), sgd.ravel()])
    return Identity(measured, reference, rtol=1e-11, atol=1e-12, why=REDUCTION_WHY,
                    quantity="Subspace-Momentum iterates against SGD with EMA momentum / SGD")


@claim(PAPER, role="supporting", source="Subspace-Momentum update rule (quoted by a summary page)", evidence="identity",
       statement=r"Subspace-Momentum $m_t = \beta_1 m_{t-1} + (1-\beta_1)Pg_t$, "
       r"$\theta_{t+1} = \theta_t - \eta(P^\top m_t + g_t - P^\top P g_t)$ is SGD with EMA momentum "
       r"when $P$ spans the whole space (any orthonormal basis) and plain SGD when $k = 0$.",
       method="Runs with $P = I$, with a random orthonormal $P$ of rank $d$ and with $k = 0$, "
              "against independently written SGD with momentum and SGD under the same noise.",
       params={"dim": Param(16, full=64, low=2, high=4096, doc="dimension d"),
               "n_steps": Param(100, full=400, low=1, high=10000, doc="steps compared")})
def subspace_momentum_reductions(ctx):
    """Subspace-Momentum reduces to SGD with momentum (full subspace) and to SGD (k = 0)."""
    return _momentum_pairs(ctx, ctx["dim"])


@subspace_momentum_reductions.control("a subspace of dimension d/2 compared with full-space momentum")
def _(ctx):
    return _momentum_pairs(ctx, ctx["dim"] // 2)


# --------------------------------------------------------------------------- claims 3-5 (rates)
RATE_PARAMS = {
    "dim": Param(32, full=64, low=2, high=1024, doc="dimension d"),
    "n_trials": Param(4, full=12, low=2, high=500, doc="independent runs (seeds) per horizon"),
    "n_sizes": Param(6, full=8, low=4, high=12, doc="horizons T = 64, 128, ... (powers of 2)"),
    "sigma": Param(2.0, full=2.0, low=0.1, high=20.0, doc="noise level on the noisy half of the coordinates"),
}


def _rate(ctx, sigma, method, eta, kwargs, exponent, label, halfwidth):
    p = quad_cos_problem(ctx["dim"], ctx.generator("problem"), sigma)
    horizons = [64 * 2**i for i in range(ctx["n_sizes"])]
    costs = ctx.trials(rate_trial, ctx["n_trials"], p, horizons, method, eta, kwargs, label=label)
    sizes = np.tile(horizons, len(costs))
    return Rate(sizes, np.ravel(costs), exponent=exponent, relation="<=", tolerance=0.0,
                max_halfwidth=halfwidth, size_name="T", cost_name="(1/T) sum_t ||grad f(x_t)||^2",
                why=f"one-sided: the bound claims decay at least as fast as T^{exponent:g}; no "
                    f"allowance (measured costs are exact averages); half-width {halfwidth:g} still "
                    "separates the claimed exponent from that of the control")


def _subset(ctx):
    return {"subset_size": max(1, math.isqrt(ctx["dim"]))}


@claim(PAPER, expect="INCONCLUSIVE",
       expect_reason="the one-sided rate rule is fail-closed: the fitted interval straddles the claimed exponent plus its allowance, so the evidence neither supports nor contradicts the claim at this size", role="supporting", source="Abstract (noise-adapted high-probability guarantees); form reconstructed "
                     "in the research notes", evidence="rate", reconstructed_from="the abstract",
       statement=r"Subset-Norm on an $L$-smooth nonconvex $f$ with exact gradients ($\sigma = 0$) "
       r"satisfies $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2 = O(1/T)$: the noise term of the bound "
       r"$\tilde O(A/T + B\,N_\Psi(\sigma)/\sqrt T)$ vanishes.",
       method="Subset-Norm (subsets of size $\\sqrt d$, $\\eta = b_0 = 1$) on a nonconvex "
              "quadratic-plus-cosine; the average squared gradient norm for horizons $T$ over "
              "at least a decade, several seeds; one-sided fit of the exponent against $-1$.",
       params=RATE_PARAMS)
def noiseless_rate(ctx):
    """Without noise, the average squared gradient norm of Subset-Norm decays like 1/T."""
    return _rate(ctx, 0.0, "subset_norm", 1.0, _subset(ctx), -1.0, "noiseless", 0.15)


@noiseless_rate.control("noise sigma > 0 on half the coordinates (the sigma = 0 hypothesis broken)")
def _(ctx):
    return _rate(ctx, ctx["sigma"], "subset_norm", 1.0, _subset(ctx), -1.0, "noiseless", 0.15)


@claim(PAPER, role="headline", source="Abstract (high-probability convergence of Subset-Norm for nonconvex smooth "
                     "objectives); rate form reconstructed", evidence="rate", reconstructed_from="the abstract",
       statement=r"Subset-Norm on an $L$-smooth nonconvex $f$ with coordinate-wise Gaussian noise "
       r"satisfies $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2 = \tilde O(1/\sqrt T)$ without tuning the "
       r"step size to the noise.",
       method="As for the noiseless claim with noise $\\sigma$ on half the coordinates; one-sided "
              "fit of the exponent against $-1/2$, seeds run in parallel.",
       params=RATE_PARAMS)
def noisy_rate(ctx):
    """With noise, the average squared gradient norm of Subset-Norm decays at least like T^{-1/2}."""
    return _rate(ctx, ctx["sigma"], "subset_norm", 1.0, _subset(ctx), -0.5, "noisy", 0.1)


@noisy_rate.control("frozen accumulator: constant step eta/b0 = 0.1 (no adaptation)")
def _(ctx):
    return _rate(ctx, ctx["sigma"], "frozen", 1.0, {"b0": 10.0}, -0.5, "noisy", 0.1)


@claim(PAPER, expect="INCONCLUSIVE",
       expect_reason="the one-sided rate rule is fail-closed: the fitted interval straddles the claimed exponent plus its allowance, so the evidence neither supports nor contradicts the claim at this size", role="headline", source="Abstract (Subspace-Momentum: high-probability convergence, SGD-like rate); "
                     "rate form reconstructed", evidence="rate", reconstructed_from="the abstract",
       statement=r"Subspace-Momentum ($k = d/4$, $\beta_1 = 0.9$) with step $\eta/\sqrt T$ on an "
       r"$L$-smooth nonconvex $f$ with noise satisfies $\frac1T\sum_{t<T}\|\nabla f(x_t)\|^2 = "
       r"O(1/\sqrt T)$, the rate of SGD.",
       method="Average squared gradient norm over horizons spanning more than a decade and "
              "several seeds; one-sided fit against $-1/2$.",
       params=RATE_PARAMS)
def subspace_momentum_rate(ctx):
    """Subspace-Momentum with step eta/sqrt(T) reaches the SGD rate T^{-1/2}."""
    return _rate(ctx, ctx["sigma"], "subspace_momentum", 2.0, {"k": ctx["dim"] // 4}, -0.5,
                 "subspace", 0.1)


@subspace_momentum_rate.control("constant step 0.1, not scaled with 1/sqrt(T)")
def _(ctx):
    return _rate(ctx, ctx["sigma"], "sgd_constant", 0.1, {}, -0.5, "subspace", 0.1)



# --------------------------------------------------------------------------- claims 6-7 (memory)
def _memory_run(item):
    """Optimizer state after a few steps on a random m x m least-squares problem (for ctx.map)."""
    method, rng, m, k, n_steps = item
    A = rng.standard_normal((m, m)) / np.sqrt(m)
    B = rng.standard_normal((m, m))

    def grad(W):
        return A.T @ (A @ W - B)

    W0 = np.zeros((m, m))
    if method == "subspace":
        _, state = subspace_momentum_matrix(grad, W0, k, 0.1, 0.9, n_steps, refresh=2)
    else:
        _, state = momentum_matrix(grad, W0, 0.1, 0.9, n_steps)
    return state_size(state)


def _memory_evidence(ctx, method):
    sizes = [int(v) for v in np.geomspace(ctx["m_min"], 12 * ctx["m_min"], ctx["n_sizes"]).round()]
    items = [(method, ctx.generator("problem", m), m, ctx["rank"], ctx["n_steps"]) for m in sizes]
    floats = ctx.map(_memory_run, items)
    return Rate(sizes, floats, exponent=1.0, relation="<=", tolerance=0.0, max_halfwidth=0.05,
                size_name="m (square weight m x m)", cost_name="floats in the optimizer state",
                why="state sizes are exact integer counts of the arrays the optimizer keeps, so no "
                    "allowance; an O(m + n) state cannot grow faster than m^1 at m = n")


@claim(PAPER, role="background", source="Abstract (Subspace-Momentum reduces the optimizer-state memory) and the "
                     "update rule; the count k(m + n) read from the rule", evidence="rate",
       statement=r"For a weight $W \in \mathbb R^{m\times n}$, Subspace-Momentum keeps only the "
       r"projection $P \in \mathbb R^{k\times m}$ and the momentum $M \in \mathbb R^{k\times n}$: "
       r"$k(m + n) = O(m + n)$ numbers at fixed rank $k$, against $mn$ for momentum in the full space.",
       method="Subspace-Momentum (rank $k$, subspace refreshed from the gradient's top singular "
              "vectors) runs a few steps on random square least-squares problems of side $m$ over "
              "a decade; the floats held in its state are counted and their log-log slope in $m$ "
              "is tested one-sidedly against 1. The count is read from the arrays the method "
              "keeps between steps ($P$ and $M$), so it checks the state of the update rule as "
              "implemented (the memory claim is about that state), not a measured process memory; "
              "the optimizer steps do not change it.",
       params={"m_min": Param(16, full=32, low=16, high=512,
                              doc="smallest side m (largest is 12 m_min); at least the largest rank"),
               "n_sizes": Param(4, full=6, low=3, high=12, doc="sides on a geometric grid"),
               "rank": Param(4, full=8, low=1, high=16,
                             doc="subspace rank k (k <= m is needed; high 16 = the lowest m_min)"),
               "n_steps": Param(4, full=10, low=1, high=1000, doc="optimizer steps before counting")})
def subspace_momentum_memory(ctx):
    """The optimizer state of Subspace-Momentum grows linearly in the side of the weight matrix."""
    return _memory_evidence(ctx, "subspace")


@subspace_momentum_memory.control("momentum kept in the full space (state M in R^{m x n})")
def _(ctx):
    return _memory_evidence(ctx, "full")


def _subset_memory_evidence(ctx, singletons):
    sizes = [int(4**j) for j in range(2, 2 + ctx["n_sizes"])]          # d = 16, 64, 256, ...
    counts = []
    for d in sizes:
        rng = ctx.generator("problem", d)
        p = quad_cos_problem(d, rng, 1.0)
        groups = contiguous_subsets(d, 1 if singletons else math.isqrt(d))
        _, c = subset_norm_run(p.oracle(rng), rng.standard_normal(d), groups, 0.5, 1.0, ctx["n_steps"])
        counts.append(c)
    return Rate(sizes, counts, exponent=0.5, relation="<=", tolerance=0.0, max_halfwidth=0.05,
                size_name="dimension d", cost_name="accumulator entries of Subset-Norm",
                why="exact integer counts of the accumulator array, so no allowance; O(sqrt d) "
                    "cannot grow faster than d^(1/2)")


@claim(PAPER, role="background", source="Abstract (Subset-Norm reduces the step-size state to O(sqrt d))",
       evidence="rate",
       statement=r"Subset-Norm with subsets of size $\sqrt d$ keeps $O(\sqrt d)$ step-size "
       r"accumulators, against $d$ for coordinate-wise AdaGrad.",
       method="Subset-Norm runs on the noisy quadratic-plus-cosine for $d = 16, 64, 256, \\dots$ "
              "with contiguous subsets of size $\\sqrt d$; the accumulator entries it holds are "
              "counted and their log-log slope in $d$ is tested one-sidedly against 1/2. The count "
              "is read from the accumulator array the method keeps between steps, so it checks the "
              "state of the update rule as implemented (the memory claim is about that state), not "
              "a measured process memory.",
       params={"n_sizes": Param(3, full=4, low=3, high=5, doc="dimensions 16, 64, 256, ... (powers of 4)"),
               "n_steps": Param(5, full=20, low=1, high=1000, doc="steps before counting")})
def subset_norm_memory(ctx):
    """Subset-Norm with subsets of size sqrt(d) holds about sqrt(d) accumulators."""
    return _subset_memory_evidence(ctx, False)


@subset_norm_memory.control("singleton subsets (coordinate-wise AdaGrad): d accumulators")
def _(ctx):
    return _subset_memory_evidence(ctx, True)
