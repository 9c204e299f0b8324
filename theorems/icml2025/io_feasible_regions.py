r"""Ren, Mohajerin Esfahani & Georghiou, "Inverse Optimization via Learning Feasible Regions"
(ICML 2025, arXiv 2505.15025).

Inverse optimization learns the feasible region of a linear program with known objective
$c(s)^\top x$ from input-decision pairs $(s_i, \hat x_i)$.  The hypothesis class describes the
region as $X_\theta(s) = A_\theta(s)\mathcal Z + b_\theta(s)$ over a primitive polytope
$\mathcal Z = \{z : Hz \le h\}$ (constraint function $g_\theta(x, s) = \min_{z\in\mathcal Z}
\|x - A_\theta(s)z - b_\theta(s)\|$).  Checked here, on the restricted class with $A$ fixed and
$b_\theta(s) = \Theta\phi(s)$ (our reading of the paper's "further restricted hypothesis
classes"): the class fits a decision map with a jump exactly, where a continuous (objective-only)
hypothesis cannot; training with the suboptimality loss is a linear program that recovers the
region and the decisions exactly from noiseless data; training with the predictability loss is a
MILP whose optimum is the training problem's.  The exact loss definitions could not be read and
are reconstructed (each claim's ``reconstructed_from``).
"""

from __future__ import annotations

import numpy as np

from simulations.inverse_opt.feasible_regions import (
    baseline_decisions,
    decisions,
    l1_regression_on_vertices,
    polytope_vertices,
    projected_affine_baseline,
    random_polytope,
    rotating_costs,
    smoothed_decisions,
    train_predictability_milp,
    train_suboptimality,
    triangle,
)
from workbench import AllOf, Certificate, Identity, NotChecked, Paper, Param, claim
from workbench.certify import solver_accuracy

SOURCES = ("arXiv 2505.15025 abstract; the summary at sciencestack.ai/paper/2505.15025 (constraint function "
           "g_theta through a latent z and a primitive set Z, predictability and suboptimality losses, convex and "
           "MILP reformulations for special cases); the class X_theta(s) = A_theta(s) Z + b_theta(s), i.e. "
           "g_theta(x, s) = min_{z in Z} ||x - A_theta(s) z - b_theta(s)||, is our reading of that summary")

PAPER = Paper(
    slug="io_feasible_regions",
    title="Inverse Optimization via Learning Feasible Regions",
    authors=("Ke Ren", "Peyman Mohajerin Esfahani", "Angelos Georghiou"),
    venue="ICML 2025",
    year=2025,
    arxiv="2505.15025",
    url="https://arxiv.org/abs/2505.15025",
    not_checked=(
        NotChecked("For the restricted classes the paper defines, training with the suboptimality loss is a tractable "
                   "convex program and training with the predictability loss a mixed integer linear program.",
                   "the classes could not be read; the checks use the narrowest one (A fixed, b = Theta phi(s)), in "
                   "which the region only translates with s, so each optimal latent vertex does not depend on Theta "
                   "and both trainings reduce to 1-norm regression: they are kept as supporting claims "
                   "(suboptimality_training_recovers, predictability_training_is_milp), which do not show the "
                   "paper's classes tractable", "headline"),
        NotChecked("A customized block coordinate descent algorithm with a smoothing technique solves the training "
                   "problems of the general (nonconvex) hypothesis class.",
                   "the algorithm's steps, its smoothing schedule and any convergence statement are in no public "
                   "source that could be read; the smoothing's effect on the decision map is used as a near-miss "
                   "control of discontinuous_decision_map", role="headline"),
        NotChecked("Synthetic experiments and two power system applications, with comparisons to state-of-the-art "
                   "approaches, validate the approach.",
                   "the power-system data and the compared methods' settings are not available; the synthetic "
                   "finding (exact recovery on noiseless data from the class) is checked on random instances",
                   role="headline"),
        NotChecked("Learning the constraint function (the feasible region) leads to nonconvex training programs.",
                   "a statement about the general class; the convex and mixed-integer special cases are checked",
                   role="supporting"),
    ),
)

LP_TOL_WHY = ("HiGHS solves to primal and dual feasibility 1e-7; the fitted Theta inherits it amplified by the "
              "condition number of the feature matrix, so decisions agree to 1e-7 cond(Phi) max|x| (computed for the "
              "instance before the comparison)")


# --------------------------------------------------------------------------- discontinuous maps
def _jump_instance(ctx):
    rng = ctx.generator("jump")
    A = np.array([[1.0, 0.4], [-0.2, 0.8]])
    theta = np.array([[0.5, 1.0], [-0.3, 0.8]])
    s = rng.uniform(0.0, 1.0, ctx["samples"])
    phi = np.column_stack([np.ones_like(s), s])
    return triangle(), A, theta, phi, rotating_costs(s, A)


@claim(PAPER, role="supporting", source="Abstract and Section 1: the class captures discontinuous behaviour that the "
                                      "objective-only method cannot", evidence="identity",
       reconstructed_from=SOURCES + "; the objective-only baseline (a strongly convex objective over a fixed box) and "
       "the instance are ours",
       statement=r"Input-decision pairs whose decision map jumps (the optimal vertex of $\min c(s)^\top x$ over "
       r"$X(s) = A\mathcal Z + \Theta\phi(s)$ switches at $s_0$) are fitted exactly by the class: the region learned "
       r"from samples predicts every decision, on both sides of the jump and arbitrarily close to it.  A continuous "
       r"decision map (objective-only IO with a strongly convex objective) errs by at least half the jump near $s_0$.",
       method="$\\mathcal Z$ the unit triangle, $A$ fixed, $\\phi(s) = (1, s)$, costs turning through $\\pi/3$ with "
              "$A^\\top c(s_0) \\propto (-1, -1)$ at $s_0 = 1/2$ (the decision jumps by $\\|Ae_1 - Ae_2\\| = 1.17$); "
              "$\\Theta$ learned from `samples` random $s$ by the suboptimality LP; decisions predicted by the "
              "learned region's LP (HiGHS) against the true ones (vertex enumeration) at $s_0 \\pm 10^{-k}$, "
              "$k = 1..6$ (closer, the vertices' costs differ by less than HiGHS's tolerance), and on a grid.",
       params={"samples": Param(40, full=200, low=5, high=5000, doc="training pairs"),
               "predictor": Param("learned_region", choices=("learned_region", "smoothed", "objective_only"),
                                  doc="the hypothesis predicting the test decisions")})
def discontinuous_decision_map(ctx):
    """The learned region reproduces a decision map with a jump exactly, to within $10^{-6}$ of the jump."""
    Z, A, theta, phi, C = _jump_instance(ctx)
    X = decisions(Z, A, theta, phi, C)
    _, theta_hat = train_suboptimality(Z, A, phi, C, X)
    # test points up to 1e-6 from the jump: closer, the two vertices' costs differ by less than HiGHS's
    # optimality tolerance 1e-7 and "the" optimal decision is not resolved by the solver; s0 itself, where
    # both vertices are optimal, is not a test point (the grid of 20 points misses it)
    s_test = np.concatenate([0.5 - 10.0 ** -np.arange(1, 7), 0.5 + 10.0 ** -np.arange(1, 7), np.linspace(0, 1, 20)])
    phi_t = np.column_stack([np.ones_like(s_test), s_test])
    C_t = rotating_costs(s_test, A)
    truth = decisions(Z, A, theta, phi_t, C_t, vertices=polytope_vertices(Z))   # exact, by enumeration
    if ctx["predictor"] == "learned_region":
        pred = decisions(Z, A, theta_hat, phi_t, C_t)
    elif ctx["predictor"] == "smoothed":
        pred = smoothed_decisions(Z, A, theta_hat, phi_t, C_t, eps=1e-3)
    else:
        lo, hi = X.min(axis=0) - 1.0, X.max(axis=0) + 1.0
        pred = baseline_decisions(projected_affine_baseline(phi, X, lo, hi), phi_t, lo, hi)
    atol = 1e-7 * float(np.linalg.cond(phi)) * float(np.abs(truth).max())
    return Identity(pred.ravel(), truth.ravel(), atol=atol, why=LP_TOL_WHY,
                    labels=[f"s = {s:.9g}, x_{j + 1}" for s in s_test for j in range(2)],
                    quantity="predicted decision against the true one")


discontinuous_decision_map.control("the learned region with its inner LP smoothed by (1e-3/2)||z||^2 (a continuous "
                                   "decision map, as in the smoothing of the paper's BCD)",
                                   params={"predictor": "smoothed"}, near_miss=True)
discontinuous_decision_map.control("objective-only IO: x(s) = Proj_box(W phi(s)), a strongly convex objective over "
                                   "a fixed box, W by least squares", params={"predictor": "objective_only"})


# --------------------------------------------------------------------------- suboptimality loss: an LP
def _random_instance(rng: np.random.Generator, n_train: int, n_test: int):
    Z = random_polytope(3, 8, rng)
    A = np.eye(3) + 0.3 * rng.standard_normal((3, 3))
    theta = rng.standard_normal((3, 3))

    def draw(n):
        s = rng.uniform(-1.0, 1.0, size=(n, 2))
        C = rng.standard_normal((n, 3))
        return s, np.column_stack([np.ones(n), s]), C / np.linalg.norm(C, axis=1, keepdims=True)

    return Z, A, theta, draw(n_train), draw(n_test)


def _observed(Z, A, theta, s, phi, C, truth: str, noise: float, rng: np.random.Generator,
              vertices: np.ndarray) -> np.ndarray:
    """Decisions of the data-generating region (exact, by vertex enumeration): the class, or an offset outside it."""
    X = decisions(Z, A, theta, phi, C, vertices=vertices)
    if truth == "nonlinear":   # b(s) = (sin 3 s1, cos 2 s2, s1 s2): not affine in phi
        X = X - phi @ theta.T + np.column_stack([np.sin(3 * s[:, 0]), np.cos(2 * s[:, 1]), s[:, 0] * s[:, 1]])
    return X + noise * rng.standard_normal(X.shape)


def _suboptimality_replicate(item):
    seed, n_train, n_test, truth, noise = item
    rng = np.random.default_rng(seed)
    Z, A, theta, (s, phi, C), (s_t, phi_t, C_t) = _random_instance(rng, n_train, n_test)
    V = polytope_vertices(Z)
    X = _observed(Z, A, theta, s, phi, C, truth, noise, rng, V)
    prob, theta_hat = train_suboptimality(Z, A, phi, C, X, vertices=V)
    acc, _ = solver_accuracy(prob)
    truth_t = _observed(Z, A, theta, s_t, phi_t, C_t, truth, 0.0, rng, V)
    pred_t = decisions(Z, A, theta_hat, phi_t, C_t, vertices=V)
    scale = 1e-7 * float(np.linalg.cond(phi)) * max(1.0, float(np.abs(truth_t).max()))
    return (str(prob.status), float(prob.value), acc, np.concatenate([theta_hat.ravel(), pred_t.ravel()]),
            np.concatenate([theta.ravel(), truth_t.ravel()]), scale)


@claim(PAPER, role="supporting", source="Abstract: for restricted classes the training is a tractable convex program; "
                                      "synthetic experiments recover the feasible region", evidence="all",
       reconstructed_from=SOURCES + "; the suboptimality loss c^T xhat - min_{x in X_theta(s)} c^T x + kappa "
       "g_theta(xhat, s) (1-norm, kappa = 2 max|c|) is our reading",
       statement=r"For $A$ fixed and $b_\theta(s) = \Theta\phi(s)$, training with the suboptimality loss "
       r"$\sum_i c_i^\top\hat x_i - \min_{x\in X_\Theta(s_i)} c_i^\top x + \kappa\, g_\Theta(\hat x_i, s_i)$ is a "
       r"linear program; on noiseless data from the class, with at least $\dim\phi$ samples in general position, "
       r"its optimum is 0 and it recovers $\Theta$ and every decision, out of sample, exactly.",
       method="Fresh random instances per replicate: $\\mathcal Z \\subset \\mathbb R^3$ with 8 random facets and a "
              "box, $A = I + 0.3G$, $\\Theta$ Gaussian, $\\phi(s) = (1, s_1, s_2)$, unit costs; `samples` training "
              "pairs from exact LPs.  The training LP (cvxpy, HiGHS) is certified to have optimum 0 with HiGHS's own "
              "accuracy; the fitted $\\Theta$ and 50 test decisions are compared with the truth.",
       sweeps=({"samples": [2, 3, 10, 30]},),
       params={"replicates": Param(3, full=12, low=1, high=200, doc="random instances"),
               "samples": Param(30, full=60, low=2, high=2000, hypothesis=(3, 2000),
                                doc="training pairs per instance (the features have dimension 3)"),
               "truth": Param("class", choices=("class", "nonlinear"), doc="where the data come from"),
               "noise": Param(0.0, full=0.0, low=0.0, high=1.0, doc="Gaussian noise on the observed decisions")})
def suboptimality_training_recovers(ctx):
    """The suboptimality-loss training LP has optimum 0 and recovers the region and decisions exactly."""
    items = [(int(ctx.generator("instance", r).integers(2**63)), ctx["samples"], 50, ctx["truth"], ctx["noise"])
             for r in range(ctx["replicates"])]
    rows = ctx.map(_suboptimality_replicate, items)
    cert = Certificate([r[0] for r in rows], [r[1] for r in rows], 0.0, relation="=", atol=1e-6,
                       accuracy=[r[2] for r in rows], solver="HIGHS", labels=[f"instance {i + 1}" for i in range(len(rows))],
                       why="HiGHS's certified accuracy is about 1e-7 max(1, |value|); 1e-6 allows for it",
                       quantity="optimal training loss")
    scale = max(r[5] for r in rows)
    ident = Identity(np.concatenate([r[3] for r in rows]), np.concatenate([r[4] for r in rows]), atol=scale,
                     why=LP_TOL_WHY, quantity="fitted Theta and test decisions against the truth")
    return AllOf([cert, ident], labels=["training LP optimum", "recovered Theta and decisions"])


suboptimality_training_recovers.control("decisions observed with noise of standard deviation 1e-3 (the noiseless "
                                        "hypothesis broken slightly)", params={"noise": 1e-3}, near_miss=True)
suboptimality_training_recovers.control("data from an offset b(s) = (sin 3s1, cos 2s2, s1 s2) outside the class",
                                        params={"truth": "nonlinear"})


# --------------------------------------------------------------------------- predictability loss: a MILP
def _predictability_replicate(item):
    seed, n, noise, variant = item
    rng = np.random.default_rng(seed)
    Z, A, theta, (s, phi, C), _ = _random_instance(rng, n, 1)
    X = _observed(Z, A, theta, s, phi, C, "class", noise, rng, polytope_vertices(Z))
    prob, _ = train_predictability_milp(Z, A, phi, C, X, relax=variant == "relaxed",
                                        optimality=variant != "no_optimality")
    reference, _ = l1_regression_on_vertices(Z, A, phi, C, X)
    accuracy = solver_accuracy(prob)[0] + 1e-7 * max(1.0, abs(reference))   # the scipy LP's feasibility tolerance
    return str(prob.status), float(prob.value), reference, accuracy


@claim(PAPER, role="supporting", source="Abstract: for restricted classes the training is a mixed integer linear "
                                      "program", evidence="certificate",
       reconstructed_from=SOURCES + "; the predictability loss as the 1-norm distance to the forward problem's optimal "
       "decisions and its big-M KKT encoding are our reading",
       statement=r"For $A$ fixed and $b_\theta(s) = \Theta\phi(s)$, training with the predictability loss "
       r"$\sum_i \min\{\|\hat x_i - x\|_1 : x \text{ optimal for } \min_{x\in X_\Theta(s_i)} c_i^\top x\}$ is the "
       r"MILP obtained by writing the forward problem's optimality through its KKT conditions with big-M "
       r"complementarity: the MILP's optimum equals the training problem's.",
       method="Fresh random instances per replicate ($\\mathcal Z \\subset \\mathbb R^3$ with 14 facets, `samples` "
              "pairs, decisions observed with noise 0.05 so the loss is not 0).  The MILP (cvxpy, HiGHS, relative "
              "gap $10^{-9}$; big-M from exact slack bounds and twice the largest dual) against the training problem "
              "solved another way: every forward LP has a unique optimum $z_i^*$ here, so the problem is the 1-norm "
              "regression of $\\hat x_i - Az_i^*$ on $\\phi_i$, an LP solved by scipy's HiGHS.",
       params={"replicates": Param(2, full=8, low=1, high=100, doc="random instances"),
               "samples": Param(12, full=20, low=3, high=200, doc="training pairs per instance"),
               "variant": Param("milp", choices=("milp", "relaxed", "no_optimality"),
                                doc="the MILP, its LP relaxation, or no optimality conditions at all")})
def predictability_training_is_milp(ctx):
    """The big-M KKT MILP attains exactly the optimum of predictability-loss training."""
    items = [(int(ctx.generator("instance", r).integers(2**63)), ctx["samples"], 0.05, ctx["variant"])
             for r in range(ctx["replicates"])]
    rows = ctx.map(_predictability_replicate, items)
    return Certificate([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], relation="=", rtol=1e-6,
                       accuracy=[r[3] for r in rows], solver="HIGHS",
                       labels=[f"instance {i + 1}" for i in range(len(rows))],
                       why="the two optima must agree to 1e-6 relative, ten times the certified accuracy of the two "
                           "HiGHS solves (the MILP's gap at relative 1e-9 plus feasibility tolerances 1e-7)",
                       quantity="optimal predictability loss (MILP) against the 1-norm regression on the optimal vertices")


predictability_training_is_milp.control("the MILP's LP relaxation (complementarity indicators in [0, 1])",
                                        params={"variant": "relaxed"}, near_miss=True)
predictability_training_is_milp.control("no optimality conditions (any point of the region may be the decision)",
                                        params={"variant": "no_optimality"})
