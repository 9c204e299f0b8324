r"""Oikonomidis, Quan, Laude & Patrinos, "Nonlinearly Preconditioned Gradient Methods under
Generalized Smoothness" (ICML 2025, arXiv:2502.08532).

The method $x^{k+1} = x^k - \gamma\nabla\phi^*(\lambda\nabla f(x^k))$ is analysed under
$(L, \bar L)$-anisotropic smoothness relative to a reference function $\phi$ (Definition 2.1,
read from a review of the paper, as is Proposition 2.3).  The paper's convergence theorems were not
readable; the descent inequality and nonconvex rate checked here follow from Definition 2.1 at
one pair and are marked reconstructed.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from PEPit.functions import SmoothFunction

from simulations.optim.nonlinear_precond import (
    clipping_reference,
    cos_well_problem,
    cosh_reference,
    descent_check,
    logistic_problem,
    quadratic_problem,
    quadratic_reference,
    sample_anisotropic_pairs,
)
from simulations.optim.pep import gradient_step, pep_worst_case
from simulations.optim.rates import tightest_best_iterate
from workbench import Bound, Certificate, Paper, Param, Symbolic, claim

PAPER = Paper(
    slug="nonlinear_precond_gd",
    title="Nonlinearly Preconditioned Gradient Methods under Generalized Smoothness",
    authors=("Konstantinos Oikonomidis", "Jan Quan", "Emanuel Laude", "Panagiotis Patrinos"),
    venue="ICML 2025",
    year=2025,
    arxiv="2502.08532",
    url="https://arxiv.org/abs/2502.08532",
    not_checked=(
        ('The convergence results for convex functions.',
         'not yet checked here',
         'headline'),
        ("Second-order conditions under which $(L_0, L_1)$-smooth functions satisfy the paper's anisotropic smoothness.",
         'not yet checked here',
         'supporting'),
    ),
)

EPS64 = float(np.finfo(float).eps)


def _problems(ctx):
    """Logistic loss, a PSD quadratic and the nonconvex cos well, all of dimension ``dim``."""
    rng, d = ctx.rng, ctx["dim"]
    A = rng.standard_normal((ctx["n_samples"], d))
    b = np.where(rng.standard_normal(ctx["n_samples"]) >= 0, 1.0, -1.0)
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    H = Q @ np.diag(np.linspace(0.1, 4.0, d)) @ Q.T
    return [logistic_problem(A, b), quadratic_problem((H + H.T) / 2), cos_well_problem(d)]


def _references():
    return [quadratic_reference(), clipping_reference(), cosh_reference()]


COMMON = {
    "dim": Param(4, full=8, low=1, high=50, doc="dimension of the test functions"),
    "n_samples": Param(40, full=100, low=4, high=2000, doc="rows of the logistic-regression data"),
}


# --------------------------------------------------------------------------- claim 1
def _pairs_evidence(ctx, scale, only=None):
    lhs, rhs, slack, labels = [], [], [], []
    drawn = kept = 0
    combos = [(p, r) for p in _problems(ctx) for r in _references()]
    for i, (p, ref) in enumerate(combos):
        if only is not None and i not in only:
            continue
        L = scale * p.L_f / ref.mu
        rho_max = 0.999 if ref.name.startswith("clipping") else 3.0
        out = sample_anisotropic_pairs(p, ref, ctx.generator("pairs", i), ctx["n_pairs"], L, 1.0,
                                       rho_max=rho_max)
        drawn += out.n_drawn
        kept += out.lhs.size
        lhs.append(out.lhs)
        rhs.append(out.rhs)
        slack.append(out.slack)
        labels += [f"{p.name}, {ref.name}, pair {j}" for j in range(out.lhs.size)]
    return Bound(np.concatenate(lhs), np.concatenate(rhs), relation="<=", atol=np.concatenate(slack),
                 instances=labels, quantity="f(x) against the Definition 2.1 bound",
                 why=f"{kept} non-vacuous pairs of {drawn} drawn (finite right-hand side); slack "
                     "16 float64 ulps of the magnitudes of f(x), f(xbar) and the phi terms")


@claim(PAPER, role="headline", source="Proposition 2.3 (with Definition 2.1 and Assumption 1.1)", evidence="bound",
       statement=r"If $f$ is $L_f$-Lipschitz smooth and $\phi$ is proper, lsc, $\mu$-strongly "
       r"convex, even with $\phi(0) = 0$, then $f$ is $(L_f/\mu, 1)$-anisotropically smooth "
       r"relative to $\phi$: $f(x) \le f(\bar x) + \bar L[(L^{-1}\star\phi)(x - \bar y) - "
       r"(L^{-1}\star\phi)(\bar x - \bar y)]$ with $\bar y = \bar x - L^{-1}\nabla\phi^*("
       r"\bar L^{-1}\nabla f(\bar x))$.",
       method="Definition 2.1 on random pairs for three $L_f$-smooth functions (logistic loss, "
              "PSD quadratic, nonconvex $\\sum x_j^2/2 + 2\\cos x_j$) and three reference functions "
              "($\\frac12\\|\\cdot\\|^2$, the clipping kernel $h(\\|\\cdot\\|)$ with domain the unit "
              "ball, separable $\\cosh$); $x$ is drawn around $\\bar y$ so that most pairs are "
              "non-vacuous, and only those count.",
       params={**COMMON, "n_pairs": Param(400, full=3000, low=10, high=100000,
                                          doc="pairs per (function, reference) combination")})
def lipschitz_smooth_is_anisotropically_smooth(ctx):
    """Lipschitz-smooth functions satisfy Definition 2.1 with (L, Lbar) = (L_f/mu, 1) on sampled pairs."""
    return _pairs_evidence(ctx, 1.0)


@lipschitz_smooth_is_anisotropically_smooth.control("L = L_f/(4 mu), below the proposition's constant")
def _(ctx):
    return _pairs_evidence(ctx, 0.25)


# --------------------------------------------------------------------------- claim 2
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


@claim(PAPER, role="supporting", source="Lemma 1.3 (isotropic reference functions) and the abstract's link to gradient "
                     "clipping; kernel and closed forms derived here", evidence="symbolic",
       reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"For $\phi = h\circ\|\cdot\|$ with $h(t) = -|t| - \ln(1 - |t|)$: "
       r"$h^*(s) = |s| - \ln(1 + |s|)$, so $\nabla\phi^*(y) = \frac{y}{1 + \|y\|}$ and the method is "
       r"$x^+ = x - \gamma\frac{\lambda\nabla f(x)}{1 + \lambda\|\nabla f(x)\|}$; $\phi$ is 1-strongly "
       r"convex, and with $u = \lambda\|\nabla f\|$, $\frac12\min(u, 1) \le \frac{u}{1+u} \le \min(u, 1)$: "
       r"the step is a smoothed gradient clipping.",
       method="sympy: the Fenchel conjugate of the kernel at its maximiser, its derivative, the "
              "strong-convexity bounds and the clipping sandwich, each as an identity or a sign "
              "condition after substituting $w > 0$.")
def clipping_link(ctx):
    """The clipping kernel's conjugate gives the smoothed clipping step y/(1+||y||), within a factor 2 of clipping."""
    return _clipping_identities(lambda s: s / (1 + s))


@clipping_link.control("the dual step replaced by y/(1 + ||y||^2)")
def _(ctx):
    return _clipping_identities(lambda s: s / (1 + s**2))


# --------------------------------------------------------------------------- claim 3
def _descent_evidence(ctx, gamma_factor):
    dec, guar, tol, labels, steps = [], [], [], [], []
    starts_rng = ctx.generator("starts")
    for p in _problems(ctx):
        for ref in _references():
            L = p.L_f / ref.mu
            for j in range(ctx["n_starts"]):
                x0 = 3.0 * starts_rng.standard_normal(p.dim)
                fs, d, g = descent_check(p, ref, x0, L, 1.0, ctx["n_steps"], gamma=gamma_factor / L)
                rounding = 8 * EPS64 * (np.abs(fs[:-1]) + np.abs(fs[1:]))
                keep = np.flatnonzero(g > 1e3 * rounding)
                dec.extend(d[keep])
                guar.extend(g[keep])
                tol.extend(rounding[keep] + 1e-13 * g[keep])
                labels += [f"{p.name}, {ref.name}, start {j}, step {k + 1}" for k in keep]
                steps.extend(keep + 1)
    return Bound(dec, guar, relation=">=", atol=np.array(tol), instances=labels, x=steps,
                 xlabel="step k+1",
                 quantity="f(x_k) - f(x_{k+1}) against (Lbar/L) phi(grad phi*(grad f(x_k)/Lbar))",
                 why="decrease is a difference of float64 values of f, exact to 8 ulps of their "
                     "magnitudes; the guarantee to 1e-13 relative; steps whose guarantee is below "
                     "1000 times the rounding are not counted")


@claim(PAPER, role="supporting", source="Definition 2.1 applied at xbar = x_k, x = x_{k+1}; the paper's descent "
                     "lemma not read", evidence="bound", reconstructed_from="the paper's definitions and abstract, as far as they could be read",
       statement=r"If $f$ is $(L, \bar L)$-anisotropically smooth relative to $\phi$, the method "
       r"with $\gamma = 1/L$, $\lambda = 1/\bar L$ satisfies $f(x^{k+1}) \le f(x^k) - \frac{\bar L}{L}"
       r"\phi(\nabla\phi^*(\nabla f(x^k)/\bar L))$ at every step.",
       method="The method with the constants of Proposition 2.3 ($L = L_f/\\mu$, $\\bar L = 1$) "
              "from random starts on the three functions and three reference functions; every "
              "step's decrease is compared with the guarantee.",
       params={**COMMON, "n_starts": Param(3, full=10, low=1, high=200, doc="random starts per combination"),
               "n_steps": Param(40, full=200, low=1, high=5000, doc="steps per run")})
def preconditioned_descent(ctx):
    """Each step decreases f by at least (Lbar/L) phi(grad phi*(grad f(x_k)/Lbar))."""
    return _descent_evidence(ctx, 1.0)


@preconditioned_descent.control("step size gamma = 2/L instead of 1/L")
def _(ctx):
    return _descent_evidence(ctx, 2.0)


# --------------------------------------------------------------------------- claim 4
def _rate_evidence(ctx, scale):
    lhs, rhs, labels, at_K = [], [], [], []
    p = cos_well_problem(ctx["dim"])
    starts_rng = ctx.generator("rate starts")
    for ref in _references():
        L = scale * p.L_f / ref.mu
        for j in range(ctx["n_starts"]):
            x0 = 4.0 * starts_rng.standard_normal(p.dim)
            fs, _, g = descent_check(p, ref, x0, L, 1.0, ctx["horizon"])
            # measure: phi(grad phi*(grad f(x_k))), scaled by L as the bound is
            K, best, bound = tightest_best_iterate(g * L, L * (fs[0] - p.f_star))
            lhs.append(best)
            rhs.append(bound)
            labels.append(f"{ref.name}, start {j}, K = {K}")
            at_K.append(K)
    return Bound(lhs, rhs, relation="<=", rtol=1e-9, instances=labels, x=at_K, xlabel="K",
                 quantity="min_{k<K} phi(grad phi*(grad f(x_k))) at the tightest K",
                 why="float64 runs; f* of the cos well from brentq to 1e-15; relative rounding "
                     "below 1e-11 on both sides, 1e-9 allows for it")


@claim(PAPER, role="headline", source="Nonconvex convergence (abstract); derived by telescoping the descent "
                     "inequality, exact theorem not read", evidence="bound", reconstructed_from="the abstract",
       statement=r"For $(L, \bar L)$-anisotropically smooth $f$ bounded below by $f^\star$, with "
       r"$\gamma = 1/L$, $\lambda = 1/\bar L$: $\min_{k<K}\phi(\nabla\phi^*(\nabla f(x^k)/\bar L)) "
       r"\le \frac{L(f(x^0) - f^\star)}{\bar L K}$ for every $K$.",
       method="The method on the nonconvex cos well ($L_f = 3$, $f^\\star$ exact) for each "
              "reference function from random starts; the bound is evaluated at every $K$.",
       params={"dim": Param(4, full=8, low=1, high=50, doc="dimension of the cos well"),
               "n_starts": Param(4, full=20, low=1, high=200, doc="random starts per reference"),
               "horizon": Param(300, full=1000, low=5, high=50000, doc="largest K checked")})
def nonconvex_rate(ctx):
    """min_{k<K} phi(grad phi*(grad f(x_k)/Lbar)) <= L (f(x_0) - f*) / (Lbar K) at every K."""
    return _rate_evidence(ctx, 1.0)


@nonconvex_rate.control("wrong constant L = L_f/(4 mu): the cos well is not (L_f/4, 1)-anisotropically "
                        "smooth, and the method runs with gamma = 1/L = 4 mu/L_f")
def _(ctx):
    return _rate_evidence(ctx, 0.25)


# --------------------------------------------------------------------------- claim 5 (PEPit)
def _pep_evidence(ctx, gamma_factor):
    L, D, N = ctx["L"], ctx["delta"], ctx["n_steps"]
    res = pep_worst_case(SmoothFunction, {"L": L}, gradient_step(gamma_factor / L), N,
                         initial="function_decrease", radius=D, performance="min_gradient_norm")
    # phi = 1/2 ||.||^2, Lbar = 1: min_k ||grad f||^2 / 2 <= L D / N.
    return Certificate(res.status, res.value, 2.0 * L * D / N, relation="<=", rtol=1e-6,
                       solver=res.solver,
                       quantity="worst-case min_{k<=N} ||grad f(x_k)||^2 over all L-smooth f",
                       why="CLARABEL solves these SDPs to about 1e-9 relative; 1e-6 is a margin")


@claim(PAPER, role="supporting", source="Nonconvex rate (abstract) with phi = 1/2||.||^2, where by Proposition 2.3 "
                     "the class contains all L-smooth functions", evidence="certificate",
       reconstructed_from="the abstract",
       statement=r"With $\phi = \frac12\|\cdot\|^2$ (the method is gradient descent with step $1/L$), "
       r"every $L$-smooth $f$ satisfies $\min_{k\le N}\|\nabla f(x^k)\|^2 \le \frac{2L(f(x^0) - "
       r"f(x^N))}{N}$: a bound over the whole function class.",
       method="Performance estimation (PEPit, CLARABEL): worst case of "
              "$\\min_k\\|\\nabla f(x^k)\\|^2$ over all $L$-smooth functions with "
              "$f(x^0) - f(x^N) \\le \\Delta$, against $2L\\Delta/N$.",
       params={"n_steps": Param(5, full=10, low=1, high=30, doc="number of steps N"),
               "L": Param(3.0, full=3.0, low=0.1, high=100.0, doc="Lipschitz constant of the gradient"),
               "delta": Param(1.0, full=1.0, low=0.01, high=100.0, doc="f(x0) - f(x_N) allowed")},
       sweeps=({"n_steps": [1, 2, 3, 4, 6, 8, 10]},))
def pep_quadratic_reference(ctx):
    """The worst case of min_k ||grad f(x_k)||^2 over all L-smooth f is at most 2 L Delta / N."""
    return _pep_evidence(ctx, 1.0)


@pep_quadratic_reference.control("step 1.8/L instead of gamma = 1/L")
def _(ctx):
    return _pep_evidence(ctx, 1.8)
