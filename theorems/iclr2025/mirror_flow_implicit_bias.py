r"""Liang & Montúfar, "Implicit Bias of Mirror Flow for Shallow Neural Networks in Univariate
Regression" (ICLR 2025 spotlight, arXiv 2410.03988).

Wide shallow ReLU networks $f(x) = n^{-1/2}\sum_k a_k[w_k x - b_k]_+ + d$, output weights and bias
zero at initialisation, input biases uniform on $[-B, B]$ (the paper's Figure 1), trained on all
parameters by mirror descent with the unscaled separable potentials of Figure 1,
$\phi \in \{x^2, |x|^3 + x^2, x^4 + x^2\}$.  Checked: the trained network converges, as the width
grows, to the solution of a variational problem in function space (a curvature penalty weighted by
the inverse density of the initial biases, plus two terms for the affine part: the form that needs
no adjusted data and no skip connection), fitted two-sidedly as $n^{-1/2}$ with a fresh
initialisation per replicate, and every parameter moves by $O(n^{-1/2})$ (lazy training).

The full text could not be read: the parametrisation ($n^{-1/2}$), the input weights $\pm 1$ and
the exact constants of the variational problem are our reconstruction (its form is derived in
:func:`simulations.mirror.variational_solution` and checked against the kernel interpolant in the
unit tests).  Scaled potentials are listed as not checked: our reading of them does not leave the
kernel regime (see ``not_checked``).
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.interpolate import CubicSpline

from simulations.mirror import (
    POTENTIALS,
    init_network,
    mirror_descent,
    network_output,
    relu_kernel,
    variational_solution,
)
from workbench import AllOf, NotChecked, Paper, Param, Rate, claim

READ = ("arXiv 2410.03988 abstract; chatpaper.com summary of Figure 1 (4860 ReLU neurons, uniformly initialised "
        "input biases, zero output weights and bias, potentials x^2, |x|^3 + x^2, x^4 + x^2, L-infinity error to "
        "the variational solution decreasing with width); sciencestack summary (lazy training, minimal "
        "representation cost); the variational problem's constants are our derivation for this parametrisation")

PAPER = Paper(
    slug="mirror_flow_implicit_bias",
    title="Implicit Bias of Mirror Flow for Shallow Neural Networks in Univariate Regression",
    authors=("Shuang Liang", "Guido Montúfar"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2410.03988",
    identifier="OpenReview IF0Q9KY3p2",
    url="https://openreview.net/forum?id=IF0Q9KY3p2",
    not_checked=(
        NotChecked(r"Theorems 1 and 2 for unscaled potentials: the networks approach the variational solution "
                   r"(with its constant $12/(12+B^2)$) at the rate $n^{-1/2}$, as statements a wrong rate or constant "
                   r"could be told from.",
                   "at the widths this machine trains (64 to 2048, 8192 in the full profile) the fitted rate's interval "
                   "is about 0.2 wide, so a claimed n^(-1/4) verifies on some seeds, and the constant moves the "
                   "solution by less than the networks' error (doubling it verifies); the limit's shape, which the "
                   "predecessor's spline misses, is checked in the supporting claim "
                   "mirror_flow_converges_to_variational_solution", "headline"),
        NotChecked("Scaled potentials: mirror flow is still lazy but not in the kernel regime, and for absolute "
                   "value activations it induces biases that no RKHS norm captures; the scaled potential "
                   "determines how different magnitudes of the curvature are penalised.",
                   "the scaled potential's exact form and parametrisation could not be read.  Our reading "
                   r"($\Phi(\theta) = \sum_j n^{-1}\phi(\sqrt n(\theta_j - \hat\theta_j))$ on every parameter, "
                   r"$\phi = x^4 + x^2$, absolute value network, data $(-1, 0, 1) \mapsto (1, -1.5, 0.5)$) gives "
                   "networks that approach the kernel interpolant (L-infinity distance 0.25, 0.14, 0.06 at widths "
                   "128, 512, 2048), not the Bregman projection of the output layer; with the output layer alone "
                   "the runs move toward the Bregman projection but need 10^5 steps, too slow to fit here. "
                   "The reading is therefore not the paper's setting, and no verdict is given",
                   role="headline"),
        NotChecked("Mirror flow with the potentials of the paper in the continuous-time limit (mirror flow "
                   "itself).",
                   "checked through mirror descent with a step size 2/lambda_max of the limit kernel (the "
                   "discretisation of the paper's own experiments); the flow is its small-step limit",
                   role="supporting"),
        NotChecked("Networks with more than one input, and the general (non-uniform) initialisation laws of "
                   "the theorem.",
                   "one uniform law and univariate inputs are checked; the law's role is probed by a control "
                   "that misstates it", role="supporting"),
    ),
)

X_TRAIN = np.array([-1.0, 0.0, 1.0])
Y_TRAIN = np.array([0.6, 0.1, -0.5])
GRID = np.linspace(-1.5, 1.5, 301)
NAMES = ("x^2", "|x|^3+x^2", "x^4+x^2")


@functools.lru_cache(maxsize=256)
def _run(seed: int, stream: str, potential: str, width: int, replicate: int, bias_range: float,
         output_init: float) -> tuple[np.ndarray, float]:
    """(network on the evaluation grid, largest parameter displacement) for one fresh initialisation.
    Cached: the claim and its reference-changing controls train the same networks."""
    from workbench.context import Context

    rng = Context(stream, seed=seed, stream=stream).generator("init", width, replicate)
    p0 = init_network(rng, width, bias_range)
    if output_init:
        p0["a"] = output_init * rng.standard_normal(width)
    lam = float(np.linalg.eigvalsh(relu_kernel(X_TRAIN, X_TRAIN, bias_range)).max())
    pot = POTENTIALS[potential]
    run = mirror_descent(p0, X_TRAIN, Y_TRAIN, pot, step=pot.curvature0 / lam, tol=1e-12)
    return network_output(run.params, GRID), run.displacement


def _reference(ctx) -> np.ndarray:
    B = ctx["bias_range"]
    if ctx["reference"] == "spline":
        return CubicSpline(X_TRAIN, Y_TRAIN, bc_type="natural")(GRID)
    scale = 1.5 if ctx["reference"] == "misread law" else 1.0
    return variational_solution(X_TRAIN, Y_TRAIN, GRID, scale * B, cells=600 * int(scale * 2))


def _rate_piece(sizes, errs, name: str, replicates: int, max_halfwidth: float) -> Rate:
    return Rate(sizes, errs, -0.5, relation="=", tolerance=0.05, max_halfwidth=max_halfwidth,
                why=f"95% t interval of the slope over {replicates} fresh initialisations per width (random "
                    "features: the spread between replicates is in the interval); 0.05 allows for the O(1/n) "
                    "terms beside n^-1/2 at the smallest widths",
                size_name="width n", cost_name=f"L-infinity distance to the reference, phi = {name}")


def _evidence(ctx, names=NAMES, output_init: float = 0.0) -> AllOf:
    ref = _reference(ctx)
    widths = [int(n) for n in ctx["widths"]]
    pieces, labels = [], []
    disp_sizes, disp = [], []
    for name in names:
        sizes, errs = [], []
        for n in widths:
            for rep in range(ctx["replicates"]):
                out, d = _run(ctx.seed, ctx.stream, name, n, rep, ctx["bias_range"], output_init)
                sizes.append(n)
                errs.append(float(np.max(np.abs(out - ref))))
                disp_sizes.append(n)
                disp.append(d)
        pieces.append(_rate_piece(sizes, errs, name, ctx["replicates"], 0.15))
        labels.append(f"phi = {name}: distance to the variational solution ~ n^-1/2")
    pieces.append(Rate(disp_sizes, disp, -0.5, relation="=", tolerance=0.05, max_halfwidth=0.15,
                       why="95% t interval over fresh initialisations and the potentials; 0.05 allows for O(1/n) "
                           "terms", size_name="width n", cost_name="largest parameter displacement"))
    labels.append(r"lazy training: $\max_j |\theta_j - \hat\theta_j| \sim n^{-1/2}$")
    return AllOf(pieces, labels=labels)


@claim(PAPER, role="supporting", source="Theorems 1 and 2 (lazy training; implicit bias of mirror flow for "
                                      "univariate ReLU networks) and Figure 1", evidence="all",
       reconstructed_from=READ,
       statement=r"For the unscaled potentials $\phi \in \{x^2, |x|^3 + x^2, x^4 + x^2\}$, mirror descent on "
       r"every parameter of $f(x) = n^{-1/2}\sum_k a_k[w_k x - b_k]_+ + d$ ($a = d = 0$, $w_k = \pm 1$, "
       r"$b_k \sim U[-B, B]$ at initialisation) is lazy ($\max_j|\theta_j - \hat\theta_j| = O(n^{-1/2})$) and "
       r"converges as $n \to \infty$ to the solution of $\min_g \frac{1}{p_B}\int g''^2 + (g'(\infty) + "
       r"g'(-\infty))^2 + \frac{12}{12 + B^2}(g(0) - \frac12\int|x|g'')^2$ subject to $g(x_i) = y_i$, the same "
       r"for every potential: its $L^\infty$ distance to it decays as $n^{-1/2}$.",
       method="Data $(-1, 0, 1) \\mapsto (0.6, 0.1, -0.5)$, $B = 2$; widths 64 to 2048 (8192 in the full profile), a fresh initialisation "
              "per replicate (eight, each trained with the three potentials); mirror descent with step $\\phi''(0)/\\lambda_{max}$ of the limit kernel until the "
              "loss falls by $10^{12}$; the $L^\\infty$ distance on 301 points of $[-1.5, 1.5]$ to the "
              "finite-difference solution of the variational problem (600 cells per unit of B; it agrees with "
              "the kernel interpolant to 3e-5), fitted on a log-log scale for each potential.  The "
              "intercept term's constant $12/(12+B^2)$ moves the solution by under 0.007 here, below the "
              "networks' error at these widths: it is not resolved (replacing it by 1 still verifies).  Sharp on some "
              "seeds only, and why: the fitted exponents' intervals (half-width about 0.1) plus the 0.05 allowance "
              "reach the near miss $n^{-1/4}$, which is refuted at seeds 0 and 2 and verifies at seed 1; the "
              "headline is listed as not checked sharply, and what this check tells apart is the limit's shape "
              "(against the predecessor's spline and a misread initialisation law).",
       params={"widths": Param((64, 128, 256, 512, 1024, 2048),
                               full=(64, 128, 256, 512, 1024, 2048, 4096, 8192),
                               doc="network widths n (more than a decade)"),
               "replicates": Param(8, full=16, low=2, high=100,
                                   doc="fresh initialisations per width (each trained with the three potentials)"),
               "bias_range": Param(2.0, low=0.5, high=10.0, doc="B: input biases uniform on [-B, B]"),
               "reference": Param("variational", choices=("variational", "spline", "misread law"),
                                  doc="the function the networks are compared with")},
       sweeps=({"bias_range": [1.5, 2.0, 3.0]},), budget=120.0)
def mirror_flow_converges_to_variational_solution(ctx):
    """Networks trained by mirror descent with each of the three potentials approach the same
    variational solution at the rate $n^{-1/2}$, while their parameters move by $O(n^{-1/2})$."""
    return _evidence(ctx)


mirror_flow_converges_to_variational_solution.control(
    "the predecessor's characterisation: the curvature penalty alone (natural cubic spline), without the "
    "terms for the affine part", params={"reference": "spline"}, near_miss=True)
mirror_flow_converges_to_variational_solution.control(
    "the initialisation law misread as U[-1.5B, 1.5B] in the variational problem",
    params={"reference": "misread law"}, near_miss=True)
@mirror_flow_converges_to_variational_solution.control(
    "output weights initialised N(0, 1) instead of 0 (the network starts from a random function; phi = x^2)")
def random_output_init(ctx):
    return _evidence(ctx, names=("x^2",), output_init=1.0)
