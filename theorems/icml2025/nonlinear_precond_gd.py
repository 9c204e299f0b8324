r"""Oikonomidis, Quan, Laude & Patrinos, "Nonlinearly Preconditioned Gradient Methods under
Generalized Smoothness" (ICML 2025, arXiv:2502.08532).

The method $x^{k+1} = x^k - \gamma\nabla\phi^*(\lambda\nabla f(x^k))$ is analysed under
$(L, \bar L)$-anisotropic smoothness relative to a reference function $\phi$ (Definition 2.1).
Definition 2.1, Proposition 2.3 and Lemma 1.3 are read from a review of the paper; Proposition 2.6
and Corollary 2.7 (the $(L_0, L_1)$ result) and the second-order characterization from Bodard &
Patrinos (2025), who restate them.  The convergence theorems could not be read: the descent
inequality and the nonconvex rate checked here follow from Definition 2.1 and are marked
reconstructed.

Each reference function gets its own checks.  Instances are built to make the bounds bind: searched
pairs on the quadratic (the tight Lipschitz-smooth function), the 2-D $(L_0, L_1)$-smooth function
of :func:`simulations.optim.nonlinear_precond.l0l1_cross_function`, and the reference-kernel
V-staircase of :mod:`simulations.optim.profiles` (the second-order condition met with equality).
"""

from __future__ import annotations

from functools import partial

import numpy as np
import sympy as sp
from PEPit.functions import SmoothFunction

from simulations.optim.l0l1 import cosh_problem, exp_square_problem, quartic_problem
from simulations.optim.nonlinear_precond import (
    anisotropic_pair,
    clipping_reference,
    cos_well_problem,
    cosh_reference,
    l0l1_cross_function,
    quadratic_problem,
    second_order_value,
)
from simulations.optim.pep import gradient_step, pep_worst_case
from simulations.optim.profiles import (
    clipping_kernel,
    cosh_kernel,
    gradient_descent_1d,
    preconditioned_descent_1d,
    reference_v_staircase,
    v_staircase,
    v_staircase_corner_value,
)
from workbench import AllOf, Bound, Certificate, NotChecked, Paper, Param, Symbolic, claim

REVIEW = ("a review of the paper (themoonlight.io, 'nonlinearly-preconditioned-gradient-methods-under-"
          "generalized-smoothness'): Definition 2.1, Proposition 2.3, Lemma 1.3")
RESTATED = ("Bodard & Patrinos, 'Escaping saddle points without Lipschitz smoothness: the power of "
            "nonlinear preconditioning' (2025), Example 2.6 and Prop. 2.4, restating Prop. 2.6 and "
            "Cor. 2.7 of this paper")
RECONSTRUCTED = ("Definition 2.1 (from " + REVIEW + ") applied at xbar = x^k, x = x^{k+1}; the paper's "
                 "theorem was not read (the stationarity measure is the one Bodard & Patrinos 2025 use)")

PAPER = Paper(
    slug="nonlinear_precond_gd",
    title="Nonlinearly Preconditioned Gradient Methods under Generalized Smoothness",
    authors=("Konstantinos Oikonomidis", "Jan Quan", "Emanuel Laude", "Panagiotis Patrinos"),
    venue="ICML 2025",
    year=2025,
    arxiv="2502.08532",
    url="https://arxiv.org/abs/2502.08532",
    not_checked=(
        NotChecked("The convergence theorem for convex f (rate of the method under anisotropic smoothness "
                   "and convexity).",
                   "its statement (rate, constants and the distance-like quantity it uses) is in no public "
                   "source that could be read; no computation can be compared with an unknown statement",
                   role="headline"),
        NotChecked(r"The second-order condition implies $(\delta L, \bar L)$-anisotropic smoothness for every "
                   r"$\delta > 1$, so $(L_0, L_1)$-smooth functions are $(\delta L_1, L_0/L_1)$-anisotropically "
                   r"smooth relative to the clipping reference.",
                   "an implication for every function meeting the condition: its worst case over that class "
                   "is not available, so a computation can only confirm it on chosen functions (the unit "
                   "tests do, on the V-staircases that meet the condition with equality); the condition "
                   "itself is checked sharply by second_order_l0l1", role="supporting"),
        NotChecked("The framework extends beyond already established methods.",
                   "a statement about the literature, not a property of a computation", role="supporting"),
    ),
)

PEP_WHY = "CLARABEL solves these SDPs to about 1e-9 relative (TOOLCHAIN.md); 1e-6 is a margin for it"
RUN_WHY = ("float64 runs on closed-form pieces: relative rounding below 1e-12 per value; 1e-9 allows for it "
           "(the iterates' plateaus, 1e-9 of a step, move a value by less)")
PAIR_WHY = ("each side is a sum of a few float64 terms of size at most 10 times its value: 1e-12 relative "
            "plus 1e-15 absolute covers the rounding")
DELTA = 1.001  # the V-staircases meet the second-order condition with L; the method runs with DELTA * L


# --------------------------------------------------------------------------- Proposition 2.3
def _pair_instance(params, ref_name, L_scale):
    """Definition 2.1 for one searched pair on the quadratic diag(3, 1) (L_f = 3) or the cos well."""
    ref = clipping_reference() if ref_name == "clipping" else cosh_reference()
    if params["function"] < 0.5:
        prob = quadratic_problem(np.diag([3.0, 1.0]))
    else:
        prob = cos_well_problem(2, 2.0)
    L = L_scale * prob.L_f / ref.mu
    a, b = params["xbar_angle"], params["dir_angle"]
    xbar = params["xbar_norm"] * np.array([np.cos(a), np.sin(a)])
    g = prob.grad(xbar)
    ybar = xbar - ref.grad_phi_star(g) / L
    # x - ybar inside the reference's domain: radius rho / L (the clipping domain is the unit ball)
    x = ybar + params["rho"] * np.array([np.cos(b), np.sin(b)]) / L
    return anisotropic_pair(prob, ref, xbar, x, L, 1.0)


PAIR_SPACE = {"function": (0.0, 1.0), "xbar_norm": (1e-4, 3.0, "log"), "xbar_angle": (0.0, 2 * np.pi),
              "rho": (1e-4, 0.999, "log"), "dir_angle": (0.0, 2 * np.pi)}


def _prop23_evidence(ctx, ref_name):
    wc = ctx.worst_case(partial(_pair_instance, ref_name=ref_name, L_scale=ctx["L_scale"]), PAIR_SPACE,
                        evaluations=ctx["evaluations"], label=ref_name)
    return Bound(wc.measured, wc.bound, relation="<=", rtol=1e-12, atol=1e-15, instances=wc.instances,
                 x=wc.x, xlabel="search evaluation", found_by=wc.method, why=PAIR_WHY,
                 quantity="f(x) - f(xbar) + (Lbar/L) phi(L(xbar - ybar)) against (Lbar/L) phi(L(x - ybar))")


PROP23_PARAMS = {
    "evaluations": Param(300, full=1500, low=20, high=20000, doc="pairs evaluated by the adversarial search"),
    "L_scale": Param(1.0, full=1.0, low=1.0, high=1.0, doc="L = L_scale * L_f / mu (controls: below 1)"),
}
PROP23_STATEMENT = (r"If $f$ is $L_f$-Lipschitz smooth and $\phi$ is proper, lsc, $\mu$-strongly convex and even "
                    r"with $\phi(0) = 0$, then $f$ is $(L_f/\mu, 1)$-anisotropically smooth relative to $\phi$: "
                    r"$f(x) \le f(\bar x) + \bar L[(L^{-1}\star\phi)(x - \bar y) - (L^{-1}\star\phi)(\bar x - \bar y)]$, "
                    r"$\bar y = \bar x - L^{-1}\nabla\phi^*(\bar L^{-1}\nabla f(\bar x))$; here with ")
PROP23_METHOD = ("Adversarial search (differential evolution) over pairs on two $L_f$-smooth functions, the "
                 "quadratic $\\frac12(3x_1^2 + x_2^2)$ (whose curvature reaches $L_f$) and the nonconvex "
                 "$\\sum x_j^2/2 + 2\\cos x_j$: the size of $\\bar x$ from $10^{-4}$ to 3, the direction of "
                 "$x - \\bar y$ and its length inside the reference's domain. The inequality is written as "
                 "measured $\\le$ bound with both sides zero at the model's minimum; it can be tight only where "
                 "$\\phi$ is close to quadratic (the proof's slack is the Bregman distance of $\\phi$ minus "
                 "$\\frac\\mu2\\|\\cdot\\|^2$), i.e. at small gradients, which the search reaches.")


@claim(PAPER, role="supporting", source="Proposition 2.3, clipping reference", evidence="bound",
       statement=PROP23_STATEMENT + r"the clipping reference $\phi = h(\|\cdot\|)$, $h(t) = -t - \ln(1 - t)$ "
       r"($\mu = 1$, domain the unit ball).",
       method=PROP23_METHOD, params=PROP23_PARAMS)
def prop23_clipping(ctx):
    """Lipschitz-smooth functions are $(L_f/\\mu, 1)$-anisotropically smooth relative to the clipping reference."""
    return _prop23_evidence(ctx, "clipping")


prop23_clipping.control("L = 0.8 L_f/mu, just below the proposition's constant", params={"L_scale": 0.8},
                        near_miss=True)
prop23_clipping.control("L = L_f/(4 mu)", params={"L_scale": 0.25})


@claim(PAPER, role="supporting", source="Proposition 2.3, cosh reference", evidence="bound",
       statement=PROP23_STATEMENT + r"the separable reference $\phi(z) = \sum_i(\cosh z_i - 1)$ ($\mu = 1$).",
       method=PROP23_METHOD, params=PROP23_PARAMS)
def prop23_cosh(ctx):
    """Lipschitz-smooth functions are $(L_f/\\mu, 1)$-anisotropically smooth relative to the cosh reference."""
    return _prop23_evidence(ctx, "cosh")


prop23_cosh.control("L = 0.8 L_f/mu, just below the proposition's constant", params={"L_scale": 0.8},
                    near_miss=True)
prop23_cosh.control("L = L_f/(4 mu)", params={"L_scale": 0.25})


# --------------------------------------------------------------------------- Corollary 2.7
def _cosh_hessian(p, x):
    return np.diag(np.cosh(p.L1 * (x - p.x_star)))


def _quartic_hessian(p, x):
    return np.diag(12.0 * x**2)


def _second_order_rows(ctx, lbar_scale, outside=False):
    """(value, L Lbar, label, gradient norm) at the points of the instances."""
    L0, L1 = ctx["L0"], ctx["L1"]
    k = clipping_kernel()
    Lbar = lbar_scale * L0 / L1
    rows = []
    rng = ctx.generator("points")
    if outside:  # exp(x^2) with the claimed constants: outside the class
        p = exp_square_problem(2, L0, L1)
        for x in rng.uniform(-2.0, 2.0, size=(ctx["n_points"], 2)):
            H = np.diag((2 + 4 * x**2) * np.exp(x**2))
            g = p.grad(x)
            rows.append((second_order_value(g, H, k, Lbar), L1 * Lbar, "exp(x^2)", float(np.linalg.norm(g))))
        return rows
    for a in np.geomspace(1e-2, 1e4, ctx["n_levels"]) * L0 / L1:
        f, grad, hess = l0l1_cross_function(L0, L1, float(a))
        for x2 in [0.0, *rng.normal(0.0, 0.5 / L1, size=3)]:
            x = np.array([0.3, x2])
            g = grad(x)
            rows.append((second_order_value(g, hess(x), k, Lbar), L1 * Lbar, f"cross function, a = {a:.3g}, "
                         f"x2 = {x2:.3g}", float(np.linalg.norm(g))))
    # other (L0, L1)-smooth functions with these constants: sum cosh(L1 u)/L1^2 scaled to L0, x^4 rescaled
    for name, prob, hess in (("cosh sum", cosh_problem(3, L1), _cosh_hessian),):
        for x in rng.uniform(-6.0 / L1, 6.0 / L1, size=(ctx["n_points"], 3)):
            g, H = L0 * prob.grad(x), L0 * hess(prob, x)  # L0 * (1, L1)-smooth = (L0, L1)-smooth
            rows.append((second_order_value(g, H, k, Lbar), L1 * Lbar, name, float(np.linalg.norm(g))))
    q = quartic_problem(3, L1)  # (16/L1^2, L1)-smooth: scale by L0 L1^2 / 16
    for x in rng.uniform(-8.0 / L1, 8.0 / L1, size=(ctx["n_points"], 3)):
        s = L0 * L1**2 / 16.0
        g, H = s * q.grad(x), s * _quartic_hessian(q, x)
        rows.append((second_order_value(g, H, k, Lbar), L1 * Lbar, "x^4", float(np.linalg.norm(g))))
    return rows


def _second_order_evidence(ctx, lbar_scale=1.0, outside=False):
    rows = _second_order_rows(ctx, lbar_scale, outside)
    return Bound([r[0] for r in rows], [r[1] for r in rows], relation="<=", rtol=1e-12,
                 instances=[r[2] for r in rows], x=[r[3] for r in rows], xlabel="||grad f(x)||",
                 quantity="lambda_max(Hess phi*(grad f/Lbar) Hess f) against L Lbar",
                 found_by="the 2-D cross function a x1 + (L0 + L1 a)/L1^2 (cosh(L1 x2) - 1), which meets the "
                          "condition with equality along x2 = 0 for every gradient level a, and random points "
                          "of a cosh sum and x^4 scaled to (L0, L1)",
                 why="eigenvalues of 2x2 and 3x3 symmetric matrices by LAPACK: relative error a few ulps; "
                     "1e-12 allows for it")


@claim(PAPER, role="headline", source="Proposition 2.6 and Corollary 2.7", evidence="bound",
       reconstructed_from=RESTATED,
       statement=r"Every $(L_0, L_1)$-smooth $f$ satisfies the second-order condition of "
       r"$(L, \bar L)$-anisotropic smoothness relative to the clipping reference "
       r"$\phi = -\|\cdot\| - \ln(1 - \|\cdot\|)$ with $L = L_1$, $\bar L = L_0/L_1$: "
       r"$\lambda_{\max}\big(\nabla^2\phi^*(\bar L^{-1}\nabla f(x))\nabla^2 f(x)\big) \le L\bar L = L_0$ "
       r"for all $x$, at every gradient size.",
       method="The largest eigenvalue of the product (through $P^{1/2}HP^{1/2}$) at points of $(L_0, L_1)$-smooth "
              "functions: a 2-D function built to meet the condition with equality for gradients from "
              "$10^{-2}$ to $10^4$ times $L_0/L_1$ (its Hessian eigenvalue $L_0 + L_1\\|\\nabla f\\|$ lies "
              "across the gradient, where $\\nabla^2\\phi^*$ has eigenvalue $1/(1 + \\|\\nabla f\\|/\\bar L)$), "
              "and random points of a cosh sum and $x^4$ with the same constants.",
       params={"L0": Param(2.0, full=2.0, low=0.01, high=100.0, doc="L0"),
               "L1": Param(0.5, full=0.5, low=0.01, high=100.0, doc="L1"),
               "n_levels": Param(9, full=25, low=1, high=200, doc="gradient levels of the cross function"),
               "n_points": Param(50, full=400, low=1, high=10000, doc="random points per other function")})
def second_order_l0l1(ctx):
    """$(L_0, L_1)$-smooth functions meet the second-order condition with $L = L_1$, $\\bar L = L_0/L_1$,
    tightly at every gradient size."""
    return _second_order_evidence(ctx)


@second_order_l0l1.control("Lbar = 0.8 L0/L1 (L Lbar = 0.8 L0), just below the corollary's constant",
                           near_miss=True)
def _(ctx):
    return _second_order_evidence(ctx, lbar_scale=0.8)


@second_order_l0l1.control("a function outside the class: exp(x1^2) + exp(x2^2) with the same constants")
def _(ctx):
    return _second_order_evidence(ctx, outside=True)


# --------------------------------------------------------------------------- clipping link
def _clipping_identities(step_map):
    t, s, w, u = sp.symbols("t s w u", positive=True)
    h = -t - sp.log(1 - t)
    t_star = s / (1 + s)
    h_conj = s - sp.log(1 + s)
    exprs = [
        sp.diff(h, t).subs(t, t_star) - s,
        s * t_star - h.subs(t, t_star) - h_conj,
        sp.diff(h_conj, s) - step_map(s),
        # strong convexity (mu = 1) on t in (0, 1), written with t = w/(1+w), w > 0
        sp.diff(h, t, 2).subs(t, w / (1 + w)) - 1 >= 0,
        (sp.diff(h, t) / t).subs(t, w / (1 + w)) - 1 >= 0,
        # sandwich min(u,1)/2 <= u/(1+u) <= min(u,1): u = 1/(1+w) in (0,1], u = 1+w >= 1
        (u / (1 + u) - u / 2).subs(u, 1 / (1 + w)) >= 0,
        (u - u / (1 + u)).subs(u, 1 / (1 + w)) >= 0,
        (u / (1 + u) - sp.Rational(1, 2)).subs(u, 1 + w) >= 0,
        (1 - u / (1 + u)).subs(u, 1 + w) >= 0,
    ]
    labels = ["h'(t*) = s at t* = s/(1+s)", "h*(s) = s - ln(1+s) (Fenchel value)",
              "h*'(s) = step map", "h'' >= 1", "h'(t)/t >= 1",
              "u/(1+u) >= u/2 (u <= 1)", "u/(1+u) <= u (u <= 1)",
              "u/(1+u) >= 1/2 (u >= 1)", "u/(1+u) <= 1 (u >= 1)"]
    return Symbolic(exprs, labels=labels,
                    why="identities (difference = 0) and sign conditions after a substitution "
                        "that maps the interval to w > 0; sympy decides each exactly")


@claim(PAPER, role="supporting", source="Lemma 1.3 (isotropic reference functions) and the abstract's link to "
                                        "gradient clipping; the kernel h(t) = -|t| - ln(1 - |t|) is the one of "
                                        "Corollary 2.7", evidence="symbolic", reconstructed_from=REVIEW,
       statement=r"For $\phi = h\circ\|\cdot\|$ with $h(t) = -|t| - \ln(1 - |t|)$: "
       r"$h^*(s) = |s| - \ln(1 + |s|)$, so $\nabla\phi^*(y) = \frac{y}{1 + \|y\|}$ and the method is "
       r"$x^+ = x - \gamma\frac{\lambda\nabla f(x)}{1 + \lambda\|\nabla f(x)\|}$; $\phi$ is 1-strongly "
       r"convex, and with $u = \lambda\|\nabla f\|$, $\frac12\min(u, 1) \le \frac{u}{1+u} \le \min(u, 1)$: "
       r"the step is a smoothed gradient clipping.",
       method="sympy: the Fenchel conjugate of the kernel at its maximiser, its derivative, the "
              "strong-convexity bounds and the clipping sandwich, each as an identity or a sign "
              "condition after substituting $w > 0$.")
def clipping_link(ctx):
    """The clipping kernel's conjugate gives the smoothed clipping step $y/(1+\\|y\\|)$, within a factor 2 of clipping."""
    return _clipping_identities(lambda s: s / (1 + s))


@clipping_link.control("the dual step replaced by y/(1 + ||y||^2)")
def _(ctx):
    return _clipping_identities(lambda s: s / (1 + s**2))


# --------------------------------------------------------------------------- nonconvex rate: quadratic corner
CORNER_PARAMS = {
    "n_max": Param(6, full=16, low=1, high=30, doc="largest number of steps K"),
    "L": Param(3.0, full=3.0, low=0.1, high=100.0, doc="L = L_f (mu = 1)"),
    "delta": Param(1.0, full=1.0, low=0.01, high=100.0, doc="Delta, the allowed f(x^0) - f(x^K)"),
    "gamma_scale": Param(1.0, full=1.0, low=1.0, high=1.0, doc="gamma = gamma_scale / L (controls: more)"),
}


def _corner_evidence(ctx):
    L, D, n, c = ctx["L"], ctx["delta"], ctx["n_max"], ctx["gamma_scale"]
    Ks = np.arange(1, n + 1)
    res = [pep_worst_case(SmoothFunction, {"L": L}, gradient_step(c / L), int(K), initial="function_decrease",
                          radius=D, performance="min_gradient_norm", include_last=False) for K in Ks]
    # phi = 1/2 ||.||^2, Lbar = 1: the measure is ||grad f||^2 / 2 and the bound L Delta / K
    pep = Certificate([r.status for r in res], [r.value / 2 for r in res], L * D / Ks, relation="<=", rtol=1e-6,
                      solver=res[0].solver, accuracy=[r.accuracy / 2 for r in res], labels=[f"K = {K}" for K in Ks], why=PEP_WHY,
                      quantity="worst case of min_{k<K} phi(grad phi*(grad f(x^k))) = ||grad f||^2/2")
    meas, bnd = [], []
    for K in Ks:
        prof = v_staircase(L, 0.0, 1.0, int(K), lambda s: c / L)
        _, f, g = gradient_descent_1d(prof, 0.0, int(K), lambda s: c / L)
        meas.append(float(np.min(g[:K] ** 2)) / 2)
        bnd.append(L * float(f[0] - prof.f_min) / K)
    explicit = Bound(meas, bnd, relation="<=", rtol=1e-9, x=Ks, xlabel="K", instances=[f"K = {K}" for K in Ks],
                     why=RUN_WHY, quantity="min_{k<K} ||grad f(x^k)||^2/2 on the V-staircase against L (f(x^0) - f*)/K",
                     found_by="the V-staircase of simulations.optim.profiles, built to meet the PEP worst case")
    return AllOf([pep, explicit], labels=["worst case over all L-smooth f (PEPit)",
                                          "the V-staircase (an explicit f with f* = inf f)"])


@claim(PAPER, role="supporting", source="Nonconvex convergence theorem, with phi = 1/2 ||.||^2 (by Proposition 2.3 "
                                      "its class contains every L-smooth f)", evidence="all",
       reconstructed_from=RECONSTRUCTED,
       statement=r"With $\phi = \frac12\|\cdot\|^2$, $\gamma = 1/L$, $\lambda = 1/\bar L$, $\bar L = 1$ (the method "
       r"is gradient descent with step $1/L$), every $L$-smooth $f$ satisfies "
       r"$\min_{0 \le k < K}\bar L\phi(\nabla\phi^*(\nabla f(x^k)/\bar L)) = \min_{k<K}\frac12\|\nabla f(x^k)\|^2 "
       r"\le \frac{L(f(x^0) - f^\star)}{K}$ for every $K$.",
       method="PEPit (CLARABEL): the worst case over all $L$-smooth $f$ with $f(x^0) - f(x^K) \\le \\Delta$ (an "
              "upper bound of the worst case with $f^\\star$) for each $K$ up to n\\_max, against "
              "$L\\Delta/K$; beside it the method on the V-staircase, which attains that worst case, "
              "$2L\\Delta/(3K - 1)$, with $f^\\star = \\inf f$.",
       params=CORNER_PARAMS, sweeps=({"n_max": [2, 4, 8, 16]},))
def nonconvex_rate_quadratic_reference(ctx):
    """The nonconvex bound for the quadratic reference against the worst case over all $L$-smooth functions.

    The worst case is $2L\\Delta/(3K-1)$, attained by the V-staircase: the bound is attained within
    $2K/(3K-1) \\ge 2/3$ at every $K$, so half its constant is refuted at every $K$.
    """
    return _corner_evidence(ctx)


nonconvex_rate_quadratic_reference.control("gamma = 1.5/L", params={"gamma_scale": 1.5}, near_miss=True)
nonconvex_rate_quadratic_reference.control("gamma = 1.9/L, K up to 4 (the SDPs get ill-conditioned near the "
                                           "limit 2/L)", params={"gamma_scale": 1.9, "n_max": 4})


@claim(PAPER, role="background", source="Ours: the V-staircase and PEPit; Abbaszadehpeivasti, de Klerk & Zamani "
                                        "(JOTA 2023) for the variant with the last iterate",
       evidence="certificate",
       statement=r"Gradient descent with step $1/L$ on $L$-smooth $f$ with $f(x^0) - f(x^K) \le \Delta$: the worst "
       r"case of $\min_{0 \le k < K}\|\nabla f(x^k)\|^2$ is exactly $\frac{4L\Delta}{3K - 1}$ (with the last "
       r"iterate included, $\frac{4L\Delta}{3K}$).",
       method="PEPit's worst cases for each $K$ up to n\\_max against both closed forms.",
       params={k: v for k, v in CORNER_PARAMS.items() if k != "gamma_scale"})
def nonconvex_corner_exact_value(ctx):
    """The exact worst cases of the quadratic-reference corner, $4L\\Delta/(3K-1)$ and $4L\\Delta/(3K)$."""
    return _exact_evidence(ctx, classical=False)


@nonconvex_corner_exact_value.control("the descent lemma's 2 L Delta / K taken as the exact worst case")
def _(ctx):
    return _exact_evidence(ctx, classical=True)


def _exact_evidence(ctx, classical):
    """The PEP worst cases against the exact closed forms (or, for the control, the classical 2 L Delta/K)."""
    L, D, n = ctx["L"], ctx["delta"], ctx["n_max"]
    Ks = np.arange(1, n + 1)
    before = [pep_worst_case(SmoothFunction, {"L": L}, gradient_step(1.0 / L), int(K), initial="function_decrease",
                             radius=D, performance="min_gradient_norm", include_last=False) for K in Ks]
    with_last = [pep_worst_case(SmoothFunction, {"L": L}, gradient_step(1.0 / L), int(K),
                                initial="function_decrease", radius=D, performance="min_gradient_norm")
                 for K in Ks]
    res = before + with_last
    ref = [v_staircase_corner_value(L, D, int(K)) for K in Ks] + [4 * L * D / (3 * K) for K in Ks]
    if classical:
        ref = [2 * L * D / K for K in Ks] * 2
    return Certificate([r.status for r in res], [r.value for r in res], ref, relation="=", rtol=1e-6,
                       solver=res[0].solver, accuracy=[r.accuracy for r in res], why=PEP_WHY,
                       labels=[f"k < K = {K}" for K in Ks] + [f"k <= K = {K}" for K in Ks],
                       quantity="worst case of the smallest squared gradient norm")


# --------------------------------------------------------------------------- nonconvex rate: clipping regime
def _reference_staircase_run(item):
    kernel_name, L, Lbar, g, K, curvature = item
    kernel = clipping_kernel() if kernel_name == "clipping" else cosh_kernel()
    # the profile meets the second-order condition with curvature * L; the method runs with 1.001 L
    prof = reference_v_staircase(kernel, curvature * L, Lbar, g, K, L_method=DELTA * L)
    _, f, gr = preconditioned_descent_1d(prof, kernel, DELTA * L, Lbar, 0.0, K)
    t = kernel.dh_conj(np.abs(gr[:K]) / Lbar)
    measure = float(np.min(Lbar * kernel.h(t)))  # Lbar phi(grad phi*(grad f / Lbar))
    return measure, DELTA * L * float(f[0] - prof.f_min) / K


def _rate_evidence(ctx, kernel_name, curvature=1.0, constant=1.0):
    L, Lbar = ctx["L"], ctx["Lbar"]
    Ks = sorted({int(round(k)) for k in np.geomspace(1, ctx["k_max"], 10)})
    items = [(kernel_name, L, Lbar, float(g), K, curvature) for K in Ks
             for g in np.geomspace(10.0, 1e4, ctx["n_levels"]) * Lbar]
    rows = ctx.map(_reference_staircase_run, items)
    return Bound([r[0] for r in rows], [constant * r[1] for r in rows], relation="<=", rtol=1e-9, why=RUN_WHY,
                 x=[it[4] for it in items], xlabel="K", instances=[f"K = {it[4]}, g = {it[3]:.3g}" for it in items],
                 quantity="min_{k<K} Lbar phi(grad phi*(grad f(x^k)/Lbar)) against L (f(x^0) - f*)/K",
                 found_by="reference V-staircases (simulations.optim.profiles): the second-order condition holds "
                          "with equality on every falling piece, so the function is (1.001 L, Lbar)-anisotropically "
                          "smooth and each step decreases f as little as that allows while the gradient keeps its "
                          "level g")


RATE_PARAMS = {
    "L": Param(2.0, full=2.0, low=0.01, high=100.0, doc="L of the second-order condition"),
    "Lbar": Param(1.0, full=1.0, low=0.01, high=100.0, doc="Lbar"),
    "k_max": Param(50, full=200, low=2, high=1000, doc="largest K on the grid"),
    "n_levels": Param(4, full=7, low=1, high=20, doc="gradient levels from 10 to 10^4 Lbar"),
    "curvature": Param(1.0, full=1.0, low=1.0, high=1.0,
                       doc="the function meets the second-order condition with curvature * L (controls: more)"),
}


@claim(PAPER, role="headline", source="Nonconvex convergence theorem, clipping reference, large gradients",
       evidence="bound", reconstructed_from=RECONSTRUCTED,
       statement=r"If $f$ is $(L, \bar L)$-anisotropically smooth relative to $\phi$ and bounded below, the method "
       r"with $\gamma = 1/L$, $\lambda = 1/\bar L$ satisfies $\min_{0 \le k < K}\bar L\phi(\nabla\phi^*(\nabla "
       r"f(x^k)/\bar L)) \le \frac{L(f(x^0) - f^\star)}{K}$ for every $K$; checked for the clipping reference "
       r"with gradients from 10 to $10^4\bar L$, where the method clips.",
       method="The method on reference V-staircases, one per $(K, g)$ ($K$ on a log grid up to k\\_max, $g$ from 10 "
              "to $10^4\\bar L$): 1-D functions meeting the second-order condition with equality, so that "
              "each step decreases $f$ as little as the class allows while the gradient stays at $g$; the "
              "method runs with $1.001L$ (the condition gives anisotropic smoothness for every constant "
              "above $L$). Tightness about 1 at $K = 1$ and above 0.51 at every $K$ up to 200 (it tends to "
              "1/2 as $g$ grows: in the clipping regime the measure grows like $\\ln g$).",
       params=RATE_PARAMS)
def nonconvex_rate_clipping(ctx):
    """The nonconvex bound of the preconditioned method where it clips, on worst-case staircases."""
    return _rate_evidence(ctx, "clipping", ctx["curvature"])


nonconvex_rate_clipping.control("functions outside the class: the second-order condition holds only with 1.9 L "
                                "(the method keeps 1/L)", params={"curvature": 1.9})


@nonconvex_rate_clipping.control("the constant L/2 instead of L", near_miss=True)
def _(ctx):
    return _rate_evidence(ctx, "clipping", constant=0.5)


# --------------------------------------------------------------------------- one-step descent
def _descent_rows(ctx, gamma_scale):
    L, Lbar = ctx["L"], ctx["Lbar"]
    rows = []
    for kernel in (clipping_kernel(), cosh_kernel()):
        for g in np.geomspace(1e-2, 1e4, ctx["n_levels"]) * Lbar:
            prof = reference_v_staircase(kernel, L, Lbar, float(g), 1, L_method=DELTA * L)
            Lm = DELTA * L
            _, f, gr = preconditioned_descent_1d(prof, kernel, Lm / gamma_scale, Lbar, 0.0, 1)
            t = float(kernel.dh_conj(np.array([g / Lbar]))[0])
            rows.append((float(f[0] - f[1]), Lbar / Lm * float(kernel.h(np.array([t]))[0]),
                         f"{kernel.name}, g = {g:.3g}", float(g)))
    return rows


def _descent_evidence(ctx, gamma_scale=1.0):
    rows = _descent_rows(ctx, gamma_scale)
    return Bound([r[0] for r in rows], [r[1] for r in rows], relation=">=", rtol=1e-9, why=RUN_WHY,
                 instances=[r[2] for r in rows], x=[r[3] for r in rows], xlabel="||grad f(x^k)||",
                 quantity="f(x^k) - f(x^{k+1}) against (Lbar/L) phi(grad phi*(grad f(x^k)/Lbar))",
                 found_by="one step from the top of the model piece of a reference V-staircase: f follows "
                          "Definition 2.1's model over the step, the one-step worst case")


@claim(PAPER, role="supporting", source="Definition 2.1 at xbar = x^k, x = x^{k+1}; the paper's descent lemma "
                                        "was not read", evidence="bound", reconstructed_from=RECONSTRUCTED,
       statement=r"If $f$ is $(L, \bar L)$-anisotropically smooth relative to $\phi$, the method with "
       r"$\gamma = 1/L$, $\lambda = 1/\bar L$ satisfies $f(x^{k+1}) \le f(x^k) - \frac{\bar L}{L}"
       r"\phi(\nabla\phi^*(\nabla f(x^k)/\bar L))$ at every step.",
       method="One step for the clipping and cosh references from gradients $10^{-2}$ to $10^4\\bar L$ on "
              "functions that follow Definition 2.1's model over the step (equality up to the factor 1.001 "
              "in $L$); the quadratic reference, where this is the classical descent lemma, is left out.",
       params={"L": Param(2.0, full=2.0, low=0.01, high=100.0, doc="L"),
               "Lbar": Param(1.0, full=1.0, low=0.01, high=100.0, doc="Lbar"),
               "n_levels": Param(7, full=25, low=1, high=200, doc="gradient levels on the log grid")})
def preconditioned_descent(ctx):
    """Each step decreases $f$ by at least $\\frac{\\bar L}{L}\\phi(\\nabla\\phi^*(\\nabla f(x^k)/\\bar L))$, tightly at every gradient size."""
    return _descent_evidence(ctx)


@preconditioned_descent.control("gamma = 2/L instead of 1/L")
def _(ctx):
    return _descent_evidence(ctx, 2.0)


@preconditioned_descent.control("gamma = 1.2/L instead of 1/L", near_miss=True)
def _(ctx):
    return _descent_evidence(ctx, 1.2)
