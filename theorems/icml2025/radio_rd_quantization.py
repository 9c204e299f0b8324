r"""Sean I. Young, "Radio: Rate-Distortion Optimization for Large Language Model Compression"
(ICML 2025, PMLR 267:72819-72836, arXiv 2505.03031).

Radio casts post-training quantization as rate-distortion optimization: bit depths $B_n$ of weight
groups minimise the output distortion at a given average bit depth, with the distortion model
$d_n(B_n) = G_n^2 S_n^2 2^{-2B_n}$ ($G_n^2$ the output-gradient variance, $S_n^2$ the weight
variance); at the optimum every group's distortion slope equals $-V$.  Weights are quantized by
companding, asymptotically optimal for Laplace-distributed weights.  Public sources (the author's
poster and a review) give the formulation and the optimality condition but not the full text: the
claims are reconstructed from them.  Checked: the optimality of the allocation rule by an
independent convex solve (and its gain AM/GM over uniform depth), the compander's mean squared
error against the Panter-Dite constant over four decades of levels, and the allocation against
uniform bit depth on a small trained model at equal size.  The language-model results are not
checkable here.
"""

from __future__ import annotations

import numpy as np

from simulations.quantization import (
    PANTER_DITE_LAPLACE,
    companded_mse,
    convex_bit_allocation,
    greedy_integer_allocation,
    laplace_quantizer_mse,
    model_distortion,
    reverse_water_filling,
    uniform_quantizer,
    weighted_am_gm,
)
from simulations.quantization.scalar import compander_correction_constant
from simulations.quantization.small_model import (
    fit_regressor,
    group_statistics,
    output_distortion,
    regression_task,
)
from workbench import (
    AllOf,
    Certificate,
    Comparison,
    Identity,
    NearMiss,
    NotChecked,
    Paper,
    Param,
    Rate,
    claim,
)
from workbench.certify import solver_accuracy
from workbench.evidence.rate import factor_slope

SOURCES = ("arXiv 2505.03031 abstract; the author's poster (seaniyoung.com/preprints/young-radio-poster.html): "
           "bit depths B_n, average rate R, d_n(B_n) = G_n^2 S_n^2 2^{-2B_n}, optimal depths where the distortion "
           "slope is -V, companded quantization for Laplace weights; the review at themoonlight.io ('radio-rate-"
           "distortion-optimization-for-large-language-model-compression'): the constrained least-squares problem "
           "with the rate constraint sum_n P_n B_n = R sum_n P_n and its Lagrangian")

PAPER = Paper(
    slug="radio_rd_quantization",
    title="Radio: Rate-Distortion Optimization for Large Language Model Compression",
    authors=("Sean I. Young",),
    venue="ICML 2025",
    year=2025,
    arxiv="2505.03031",
    url="https://proceedings.mlr.press/v267/young25b.html",
    not_checked=(
        NotChecked("Radio scales to models with hundreds of billions of weights and compresses them post-training to "
                   "a size or accuracy the user specifies, with better perplexity and downstream accuracy than "
                   "existing quantization methods at low bit depths (OPT and Llama models).",
                   "needs the pretrained language models, their calibration data and GPUs; a faithful small-scale "
                   "version (a trained two-layer network, R-D allocation against uniform depth at equal size) is "
                   "checked as rd_allocation_beats_uniform", role="headline"),
        NotChecked("Iterative re-quantization (quantize, re-estimate the sensitivities, repeat) improves the result, "
                   "and bit depths are found by stochastic dual ascent on V.",
                   "the iteration's schedule and stopping rule could not be read; the allocation it converges to "
                   "(the optimality condition) is checked directly", role="supporting"),
        NotChecked("Grouping reduces the weight variance that enters the rate (Jensen's inequality).",
                   "the exact grouped-rate expression could not be read; as a statement about variances it is "
                   "Jensen's inequality", role="supporting"),
    ),
)


# --------------------------------------------------------------------------- R-D optimal allocation
def _allocation(rule: str, sizes: np.ndarray, sens: np.ndarray, rate: float) -> np.ndarray:
    if rule == "rd":
        return reverse_water_filling(sizes, sens, rate)[0]
    if rule == "three_db":      # slopes equalised for a 3 dB/bit model w 2^{-B}: B_n = max(0, log2(w_n / theta))
        return reverse_water_filling(sizes, sens**2, rate)[0]
    return np.full(sizes.size, float(rate))


def _allocation_instance(rng: np.random.Generator, groups: int) -> tuple[np.ndarray, np.ndarray]:
    sizes = rng.integers(64, 4097, size=groups).astype(float)
    sens = np.exp(rng.normal(0.0, 2.0, size=groups))        # G_n^2 S_n^2 spread over about four decades
    return sizes, sens


@claim(PAPER, role="background", source="Section 3 of the poster: R-D optimality (distortion slopes equal to -V); "
       "classical: reverse water-filling and the AM/GM gain of optimal bit allocation (Huang and Schultheiss 1963)",
       evidence="all", reconstructed_from=SOURCES,
       statement=r"For $d_n(B_n) = G_n^2S_n^2 2^{-2B_n}$, the bit depths minimising $\sum_n P_n d_n(B_n)$ subject to "
       r"$\sum_n P_n B_n = R\sum_n P_n$, $B_n \ge 0$, are those where every group's distortion slope equals $-V$: "
       r"$B_n = \max(0, \frac12\log_2(G_n^2S_n^2/\theta))$ (reverse water-filling).  Without clipping "
       r"$B_n = R + \frac12\log_2(G_n^2S_n^2/\mathrm{GM})$ and the distortion is $\mathrm{AM}/\mathrm{GM}$ times "
       r"smaller than with the uniform depth $R$ (P-weighted means of $G_n^2S_n^2$).",
       method="Fresh random instances (30 groups of 64 to 4096 weights, $G^2S^2$ log-normal over about four "
              "decades) at rates 0.5, 2 (groups clipped at 0 bits) and 8 (none clipped).  The rule's distortion "
              "against the optimum of the convex program solved by cvxpy (CLARABEL, exponential cone), with the "
              "solver's certified accuracy; and, at rate 8, the ratio of the uniform depth's distortion to the "
              "solver's optimum against the weighted AM/GM.",
       params={"replicates": Param(4, full=20, low=1, high=500, doc="random instances"),
               "rule": Param("rd", choices=("rd", "three_db", "uniform"),
                             doc="the allocation rule whose distortion is compared with the optimum")})
def rd_optimal_allocation(ctx):
    """Reverse water-filling attains the convex optimum, and beats uniform depth by AM/GM without clipping."""
    solves, labels, ratios, am_gm = [], [], [], []
    for r in range(ctx["replicates"]):
        sizes, sens = _allocation_instance(ctx.generator("instance", r), 30)
        for rate in (0.5, 2.0, 8.0):
            prob, _, tolerance = convex_bit_allocation(sizes, sens, rate)
            rule = _allocation(ctx["rule"], sizes, sens, rate)
            solves.append((str(prob.status), float(prob.value), model_distortion(sizes, sens, rule),
                           solver_accuracy(prob, tolerance)[0]))
            labels.append(f"instance {r + 1}, R = {rate:g}")
            if rate == 8.0:
                am, gm = weighted_am_gm(sizes, sens)
                ratios.append(model_distortion(sizes, sens, np.full(sizes.size, rate)) / model_distortion(sizes, sens, rule))
                am_gm.append(am / gm)
    status, value, reference, accuracy = (list(col) for col in zip(*solves, strict=True))
    cert = Certificate(status, value, reference, relation="=", rtol=1e-6, accuracy=accuracy, solver="CLARABEL",
                       labels=labels,
                       why="CLARABEL runs at tolerances 1e-10 (its defaults 1e-8 when it cannot reach them); the "
                           "certified accuracy is the engine's model for exponential cones, 30 times the tolerance "
                           "times max(1, |value|); 1e-6 relative is the tolerance of the comparison",
                       quantity="distortion of the rule against the convex optimum")
    gain = Identity(ratios, am_gm, rtol=1e-9, why="ratios of float64 sums of 30 exponentials: relative rounding "
                    "below 1e-13; 1e-9 is a margin", quantity="uniform-depth distortion / the rule's, against AM/GM")
    return AllOf([cert, gain], labels=["rule against the convex optimum", "gain over uniform depth"])


rd_optimal_allocation.control("slopes equalised for a 3 dB-per-bit model (B_n = c + log2 G_n^2 S_n^2) instead of "
                              "6 dB per bit", params={"rule": "three_db"}, near_miss=True)
rd_optimal_allocation.control("uniform bit depth R for every group", params={"rule": "uniform"})


# --------------------------------------------------------------------------- companding
def _quantizer_mse(bits: int, std: float, quantizer: str) -> float:
    if quantizer == "compander":
        return companded_mse(bits, std)
    if quantizer == "misdesigned":
        return companded_mse(bits, std, design_std=1.2 * std)
    bounds, levels = uniform_quantizer(bits, 0.0, std, loading=4.0)
    return laplace_quantizer_mse(bounds, levels, 0.0, std)


@claim(PAPER, role="background", source="Section 4 of the poster: companding for asymptotic optimality with Laplace "
                                      "weights; classical: the Panter-Dite constant of companded quantizers "
                                      "(Bennett 1948, Panter and Dite 1951)", evidence="rate",
       reconstructed_from=SOURCES + "; the compressor c(x) = sign(x - mu)(1 - exp(-sqrt 2 |x - mu|/(3S))) (the "
       "integral of p^{1/3}, Bennett 1948) is our reading of the poster's formula, lost in extraction",
       statement=r"Companded quantization of Laplace weights (mean $\mu$, standard deviation $S$) with the compressor "
       r"$c(x) = \mathrm{sgn}(x-\mu)(1 - e^{-\sqrt2|x-\mu|/(3S)})$ and a uniform $B$-bit quantizer is asymptotically "
       r"optimal: its mean squared error is $D(B) \sim \frac92 S^2\, 2^{-2B}$, the Panter-Dite constant "
       r"$\frac1{12}(\int p^{1/3})^3$ that optimal (Lloyd-Max) quantizers attain.",
       method="The exact error of the compander (cell by cell: Gauss-Legendre quadrature on finite cells, closed form "
              "on the two unbounded ones) for $B$ = 4 to b\\_max bits on Laplace weights with $S = 0.37$, fitted as "
              "$D = C\\,N^{-2}$ over $N = 2^B$ levels.  Allowances from the exact identity "
              "$4^BD/S^2 = (108/N)\\sum_{j<N/2} I_j$: $|4^BD/S^2 - 4.5| \\le K/N$ with $K = 108\\sum_j|I_j - "
              "1/12| = 0.444$, which bounds the constant's relative error by $K/(4.5N_{\\min})$ and the slope's "
              "deviation by that factor's slope over the sizes.",
       params={"b_max": Param(14, full=18, low=6, high=22, doc="largest bit depth (from 4)"),
               "quantizer": Param("compander", choices=("compander", "misdesigned", "uniform"),
                                  doc="the Laplace compander, the same designed for a std 1.2 S, or a uniform "
                                      "quantizer on +-4 S")})
def companding_asymptotically_optimal(ctx):
    """The compander's error times $4^B$ converges to the Panter-Dite constant $9S^2/2$ (four decades of levels)."""
    std = 0.37
    bits = np.arange(4, ctx["b_max"] + 1)
    n = 2.0**bits
    costs = np.array([_quantizer_mse(int(b), std, ctx["quantizer"]) for b in bits]) / std**2
    K = compander_correction_constant()
    rel = K / (PANTER_DITE_LAPLACE * n.min())
    tol = abs(factor_slope(n, 1 - K / (PANTER_DITE_LAPLACE * n)))
    return Rate(n, costs, exponent=-2.0, relation="=", tolerance=tol, max_halfwidth=0.01,
                constant=PANTER_DITE_LAPLACE, constant_rtol=rel,
                why=f"exact errors (no sampling); |4^B D/S^2 - 4.5| <= {K:.4f}/N gives the constant's allowance "
                    f"{rel:.2e} and the slope's {tol:.2e}",
                size_name="N = 2^B levels", cost_name="D / S^2")


companding_asymptotically_optimal.control("the compressor designed for a standard deviation 1.2 S (a misestimated "
                                          "weight variance)", params={"quantizer": "misdesigned"}, near_miss=True)
companding_asymptotically_optimal.control("no companding: a uniform quantizer on [-4S, 4S]",
                                          params={"quantizer": "uniform"})


# --------------------------------------------------------------------------- a small model
def _model_replicate(item) -> tuple[float, float]:
    seed, rate, rule = item
    rng = np.random.default_rng(seed)
    X, y = regression_task(rng, 1024)
    model = fit_regressor(X[:512], y[:512], rng)
    sizes, G2, S2 = group_statistics(model, X[:512])
    sens = G2 * S2
    used = {"rd": sens, "permuted": rng.permutation(sens), "inverted": 1.0 / sens}[rule]
    bits = greedy_integer_allocation(sizes, used, rate)
    uniform = np.full(sizes.size, rate)
    measured = np.log(output_distortion(model, X[512:], uniform) / output_distortion(model, X[512:], bits))
    rd_bits = greedy_integer_allocation(sizes, sens, rate)
    predicted = np.log(model_distortion(sizes, sens, uniform) / model_distortion(sizes, sens, rd_bits))
    return float(measured), float(predicted)


@claim(PAPER, role="headline", source="Abstract and Section 7 of the poster (compression experiments), small scale",
       evidence="comparison", reconstructed_from=SOURCES + "; the small model, its groups (input channels of the "
       "first layer) and the task are ours",
       statement=r"At equal model size (the same average bit depth $R$), allocating bit depths by rate-distortion "
       r"optimization with the sensitivities $G_n^2S_n^2$ gives a smaller output distortion than uniform bit depth: "
       r"a positive share of the gain $\ln(d_{\mathrm{uniform}}/d_{\mathrm{R\text-D}})$ that the distortion model "
       r"predicts is realised.",
       method="A faithful small-scale version: per replicate a fresh regression task (12 inputs with scales "
              "log-uniform in [0.1, 3]) and a two-layer tanh network (32 hidden units) fitted by gradient descent; "
              "groups are the 12 input channels of the first layer, $G_n^2$ and $S_n^2$ estimated on 512 calibration "
              "inputs, integer depths by the marginal-return greedy at $R = 3$, each group quantized by its own "
              "Laplace compander.  Per replicate, the realised gain (log ratio of output distortions on 512 held-out "
              "inputs, uniform over R-D) divided by the model's predicted gain; paired t interval over replicates.",
       near_miss=NearMiss(to=2.0, why="a realised gain twice what the distortion model predicts: a check that cannot "
                          "refute it could not tell a real gain from an exaggerated one"),
       sweeps=({"rate": [2, 3, 4]},),
       params={"replicates": Param(16, full=60, low=4, high=1000, doc="fresh tasks and models"),
               "rate": Param(3, full=3, low=1, high=8, doc="average bit depth R"),
               "rule": Param("rd", choices=("rd", "permuted", "inverted"),
                             doc="sensitivities used by the allocation: the estimated ones, permuted among the "
                                 "groups, or inverted")})
def rd_allocation_beats_uniform(ctx):
    """On a small trained model, R-D allocation beats uniform bit depth at equal size (paired over replicates)."""
    items = [(int(ctx.generator("replicate", r).integers(2**63)), int(ctx["rate"]), ctx["rule"])
             for r in range(ctx["replicates"])]
    rows = ctx.map(_model_replicate, items)
    share = np.array([m / p for m, p in rows])
    return Comparison(share, np.zeros_like(share), direction="greater", margin=0.0, level=0.95,
                      why="95% t interval of the mean over replicates, each a fresh task and model",
                      quantity="realised share of the predicted gain ln(d_uniform / d_R-D)")


rd_allocation_beats_uniform.control("the estimated sensitivities permuted among the groups before allocating",
                                    params={"rule": "permuted"}, near_miss=True)
rd_allocation_beats_uniform.control("inverted sensitivities (most bits to the least sensitive groups)",
                                    params={"rule": "inverted"})
