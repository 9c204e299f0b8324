r"""Zhang, Zhou, Khan, Prater-Bennette, Shen & Zou, "Revisiting Large-Scale Non-convex
Distributionally Robust Optimization" (ICLR 2025, OpenReview JYwVijuNA7).

Penalised $\psi$-divergence DRO solved through its dual $\min_{x,\eta}L(x, \eta)$ (Jin et al., 2021);
the paper shows that $L$ is "partially generalized smooth" (the $\eta$-block Lipschitz smooth, the
$x$-block's smoothness growing affinely with the $\eta$-gradient) and builds D-SGD-C on it.  The
exact form of the smoothness statement was not readable; the one checked is the derivation of the
research notes for $\chi^2$ divergence (marked reconstructed).  Partially affine variance is
checked in a form derived here (exact variances over the samples).  The complexity statements
($O(\epsilon^{-4})$ for D-SGD-C, $O(\epsilon^{-3})$ for its variance-reduced variant) are listed
as not checked: on the instances that run here the fitted exponent of the gradient count is set
by the step-size and batch schedules, not by the noise or the clipping.
"""

from __future__ import annotations

import numpy as np

from simulations.optim.dro import (
    dual_derivatives,
    dual_minimum,
    per_sample_gradient_moments,
    primal_value,
    robust_regression_data,
)
from workbench import Bound, Certificate, Paper, Param, claim

PAPER = Paper(
    slug="dro_dsgdc",
    title="Revisiting Large-Scale Non-convex Distributionally Robust Optimization",
    authors=("Qi Zhang", "Yi Zhou", "Simon Khan", "Ashley Prater-Bennette", "Lixin Shen", "Shaofeng Zou"),
    venue="ICLR 2025",
    year=2025,
    identifier="OpenReview JYwVijuNA7",
    url="https://openreview.net/forum?id=JYwVijuNA7",
    not_checked=(
        (r"D-SGD-C (stochastic gradient steps on $\eta$, clipped stochastic gradient steps on $x$) "
         r"finds an $\epsilon$-stationary point of the dual objective $L(x, \eta)$ with "
         r"$O(\epsilon^{-4})$ stochastic gradients.",
         "on the instances that run here (penalised chi^2-DRO of a robust-regression loss, a few "
         "hundred samples) the measured exponent is fixed by the step schedule: with steps "
         "c*delta the count is gap/(c*delta^2), and exact noise-free gradient descent with the "
         "same steps gives the same slope 2 while the clipping threshold never fires; a check "
         "with power needs an instance where the gradient noise and the clipping bind, not "
         "built here", "headline"),
        (r"The variance-reduced D-SGD-C (a SPIDER-type estimator with the clipped $x$-step) finds "
         r"an $\epsilon$-stationary point with $O(\epsilon^{-3})$ stochastic gradients.",
         "on the instances that run here the measured exponent is fixed by the batch schedule: "
         "at a constant step the iteration count grows like 1/delta and the cost per iteration "
         "like sqrt(|S1|) ~ delta^-1/2, so fresh mini-batches without the SPIDER recursion give "
         "the same slope 3/2; a check with power needs an instance where the gradient noise "
         "and the clipping bind, not built here", "headline"),
        (r"The $O(\epsilon^{-4})$ gradient complexity of D-SGD-C matches the result of Jin et al. "
         r"(2021), and its proof is much simpler thanks to partially generalized smoothness and "
         r"partially affine variance.",
         "a comparison of proofs and of published bounds, not a computation", "supporting"),
        ("Our algorithms outperform the existing DRO method (Jin et al., 2021) on a number of "
         "tasks.",
         "an empirical comparison on the paper's data sets and models, which are not available "
         "here; not a mathematical statement", "headline"),
    ),
)


def _data(ctx):
    return robust_regression_data(ctx.generator("data"), ctx["m"], ctx["dim"], ctx["lam"])


# --------------------------------------------------------------------------- claim 1
def _duality(ctx, positive_part):
    data = _data(ctx)
    x = ctx.generator("point").standard_normal(ctx["dim"])
    losses = data.losses(x)
    primal, status = primal_value(losses, data.lam)
    dual, _ = dual_minimum(losses, data.lam, positive_part=positive_part)
    return Certificate(status, primal, dual, relation="=", rtol=1e-7, solver="CLARABEL",
                       quantity="sup_Q E_Q loss - lam D_chi2(Q||P) (primal QP on the simplex)",
                       why="CLARABEL solves the QP to about 1e-9 relative; the dual's 1-D minimum "
                           "is found by brentq to 1e-14; 1e-7 covers the solver's tolerance")


@claim(PAPER, role="background", source="Dual formulation of psi-divergence DRO used by the paper (Jin et al. "
                     "2021, arXiv:2110.12459)", evidence="certificate",
       statement=r"For $\psi(t) = (t-1)^2$: $\sup_{Q}\mathbb E_Q\ell - \lambda D_\psi(Q\|P) = "
       r"\min_\eta \lambda\,\mathbb E_P\psi^*((\ell - \eta)/\lambda) + \eta$ with "
       r"$\psi^*(s) = \frac14(s+2)_+^2 - 1$.",
       method="The primal over distributions on $m$ samples is a concave QP on the simplex, solved "
              "by cvxpy/CLARABEL; the dual is minimised over $\\eta$ by a bracketed root of its "
              "monotone derivative; the two optimal values must agree.",
       params={"m": Param(200, full=1000, low=2, high=100000, doc="number of samples of P"),
               "dim": Param(5, full=10, low=1, high=200, doc="dimension of x"),
               "lam": Param(0.1, full=0.1, low=1e-3, high=100.0, doc="penalty lambda")})
def dual_reformulation(ctx):
    """The chi-square penalised DRO value equals its one-dimensional dual (certified QP)."""
    return _duality(ctx, True)


@dual_reformulation.control("conjugate without the positive part: (s+2)^2/4 - 1")
def _(ctx):
    return _duality(ctx, False)


# --------------------------------------------------------------------------- claim 2
def _smoothness(ctx, lam_factor):
    data = _data(ctx)
    rng = ctx.generator("points")
    lam_b = lam_factor * data.lam
    G, M = data.G, data.M
    measured, bound, labels = [], [], []
    eps = np.finfo(float).eps
    for i in range(ctx["n_points"]):
        x = 2.0 * rng.standard_normal(ctx["dim"])
        # eta from far below the losses (all samples active) to above them (none active)
        eta = float(rng.uniform(-30.0, 5.0))
        dd = dual_derivatives(data, x, eta)
        hx = float(np.linalg.norm(dd.hess_xx, 2))
        measured += [dd.d_eta_eta, float(np.linalg.norm(dd.d_x_eta)), hx]
        bound += [1.0 / (2 * lam_b), G / (2 * lam_b), M * (1.0 - dd.d_eta) + G**2 / (2 * lam_b)]
        labels += [f"point {i}: d2L/deta2", f"point {i}: ||d2L/dx deta||", f"point {i}: ||d2L/dx2||"]
    scale = np.abs(np.array(bound))
    return Bound(measured, bound, relation="<=", atol=64 * eps * (1 + scale), instances=labels,
                 quantity="blocks of the Hessian of the dual objective against their bounds",
                 why="exact derivative formulas in float64 (sums over m samples): 64 ulps of the "
                     "bound's magnitude cover the rounding of those sums")


@claim(PAPER, role="headline", source="Abstract (partially generalized smoothness of the dual); constants derived in "
                     "the research notes, the paper's exact statement not read", evidence="bound",
       reconstructed_from="the abstract",
       statement=r"With $\ell$ $G$-Lipschitz and $M$-smooth in $x$: $0 \le \partial^2_{\eta\eta}L \le "
       r"\frac1{2\lambda}$, $\|\nabla_x\partial_\eta L\| \le \frac{G}{2\lambda}$ and "
       r"$\|\nabla^2_{xx}L\| \le M(1 - \partial_\eta L) + \frac{G^2}{2\lambda}$: the $\eta$-block is "
       r"Lipschitz smooth and the $x$-block's smoothness grows affinely with $\partial_\eta L$.",
       method="Exact Hessian blocks of the dual for the nonconvex robust-regression loss "
              "$\\log(1 + (a^\\top x - y)^2/2)$ ($G = \\max\\|a_i\\|/\\sqrt2$, $M = \\max\\|a_i\\|^2$) at "
              "random $(x, \\eta)$ with $\\eta$ from far below to above the losses.",
       params={"m": Param(200, full=1000, low=2, high=100000, doc="number of samples of P"),
               "dim": Param(5, full=10, low=1, high=200, doc="dimension of x"),
               "lam": Param(0.1, full=0.1, low=1e-3, high=100.0, doc="penalty lambda"),
               "n_points": Param(500, full=5000, low=10, high=100000, doc="sampled (x, eta)")})
def partially_generalized_smoothness(ctx):
    """The dual's Hessian blocks obey the partial (eta-block Lipschitz, x-block affine) smoothness bounds."""
    return _smoothness(ctx, 1.0)


@partially_generalized_smoothness.control("the bounds evaluated with 2 lambda in place of lambda")
def _(ctx):
    return _smoothness(ctx, 2.0)


# --------------------------------------------------------------------------- claim 5
def _variance(ctx, affine):
    data = _data(ctx)
    rng = ctx.generator("variance points")
    G2, lam = data.G**2, data.lam
    measured, bound, labels, xs = [], [], [], []
    for i in range(ctx["n_points"]):
        x = 2.0 * rng.standard_normal(ctx["dim"])
        eta = float(rng.uniform(-30.0, 5.0))
        vx, veta, vloss, d_eta = per_sample_gradient_moments(data, x, eta)
        sigma0 = G2 * vloss / (4 * lam**2)
        measured += [vx, veta]
        bound += [sigma0 + (G2 * (1.0 - d_eta) ** 2 if affine else 0.0), vloss / (4 * lam**2)]
        labels += [f"point {i}: E||g_x - grad_x L||^2", f"point {i}: Var(g_eta)"]
        xs += [1.0 - d_eta] * 2
    scale = np.abs(np.array(bound))
    return Bound(measured, bound, relation="<=", atol=64 * np.finfo(float).eps * (1 + scale),
                 instances=labels, x=xs, xlabel="1 - dL/deta",
                 quantity="one-sample gradient variances against sigma_0^2 + sigma_1^2 (1 - dL/deta)^2",
                 why="exact averages over the m samples in float64: 64 ulps of the bound's magnitude "
                     "cover the rounding of those sums")


@claim(PAPER, role="supporting", source="Abstract (partially affine variance of the gradient noise); form and "
                     "constants derived here, the paper's statement not read", evidence="bound",
       reconstructed_from="the abstract",
       statement=r"With $\ell$ $G$-Lipschitz in $x$, one-sample gradients of the dual satisfy "
       r"$\mathbb E\|g_x - \nabla_xL\|^2 \le \sigma_0^2 + G^2(1 - \partial_\eta L)^2$ and "
       r"$\mathrm{Var}(g_\eta) \le \mathrm{Var}(\ell)/(4\lambda^2)$, with "
       r"$\sigma_0^2 = G^2\mathrm{Var}(\ell)/(4\lambda^2)$: the $x$-noise is affine in the "
       r"$\eta$-gradient, the $\eta$-noise bounded when the losses are.",
       method="Exact variances over the $m$ samples (no Monte Carlo) at random $(x, \\eta)$, "
              "$\\eta$ from far below to above the losses, against the bounds (derived from "
              "$\\mathbb E w = 2(1 - \\partial_\\eta L)$ and $\\mathrm{Var}((u)_+) \\le \\mathrm{Var}(u)$).",
       params={"m": Param(200, full=1000, low=2, high=100000, doc="number of samples of P"),
               "dim": Param(5, full=10, low=1, high=200, doc="dimension of x"),
               "lam": Param(0.1, full=0.1, low=1e-3, high=100.0, doc="penalty lambda"),
               "n_points": Param(300, full=3000, low=10, high=100000, doc="sampled (x, eta)")})
def partially_affine_variance(ctx):
    """The x-gradient noise is bounded by sigma_0^2 + G^2 (1 - dL/deta)^2; the eta-noise is bounded."""
    return _variance(ctx, True)


@partially_affine_variance.control("bounded variance: the affine term G^2 (1 - dL/deta)^2 dropped")
def _(ctx):
    return _variance(ctx, False)
