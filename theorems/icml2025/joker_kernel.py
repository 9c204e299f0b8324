r"""Zhang & Lai, "Joker: Joint Optimization Framework for Lightweight Kernel Machines" (ICML 2025,
arXiv 2505.17765, PMLR 267:75297-75313).

Joker trains kernel ridge regression, kernel logistic regression, support vector machines and
other convex-loss kernel models through one dual: by the Fenchel conjugate $\xi_y^*$ of the loss,
the primal $\min_\theta \frac12\|\theta\|^2 + c\sum_i\xi_{y_i}(\langle\theta,\varphi(x_i)\rangle)$ ($c = 1/\lambda$)
has the dual $\min_\alpha \frac12\alpha^TK\alpha + \sum_i c\,\xi^*_{y_i}(-\alpha_i/c)$ over a box (Theorem 1), which
a dual block coordinate descent with trust region (DBCD-TR) minimises with random Fourier
features and a memory that avoids the $M\times M$ preconditioner of Falkon.

The paper's full text could not be read: Theorem 1 is read from a summary of the paper
(papernotes.org) and its scaling from the authors' public code (github.com/Apple-Zhang/Joker-paper:
the README's primal with $c = 1/\lambda$, the dual terms and boxes of src/optim/criterion.py); the
trust-region rules from the same code.  Checked: strong duality with the dual of Theorem 1 for five
losses, exact and random-feature kernels, by two independent conic solves; DBCD-TR's monotone
descent to the certified dual optimum; and the growth of its memory in the number of features.
"""

from __future__ import annotations

import numpy as np

from simulations.kernel_machines import (
    LOSS_NAMES,
    dbcd_tr,
    dual_problem,
    fourier_features,
    gaussian_kernel,
    kernel_factor,
    make_loss,
    primal_problem,
    solve,
    synthetic_data,
)
from simulations.kernel_machines.memory import peak_series_fresh
from workbench import AllOf, Bound, Certificate, Identity, NotChecked, Paper, Param, Rate, claim
from workbench.certify import solver_accuracy

READ = ("papernotes.org summary of the paper (en.papernotes.org/ICML2025/model_compression/joker_joint_optimization_"
        "framework_for_lightweight_kernel_machines: Theorem 1, the dual by the Fenchel conjugate with box "
        "constraints); the authors' code github.com/Apple-Zhang/Joker-paper (README: the primal with c = 1/lambda; "
        "src/optim/criterion.py: the dual terms and boxes of the squared, squared-hinge, logistic, Huber and "
        "epsilon-insensitive losses; src/optim/trust_region.py: the block trust-region rules)")

PAPER = Paper(
    slug="joker_kernel",
    title="Joker: Joint Optimization Framework for Lightweight Kernel Machines",
    authors=("Junhong Zhang", "Zhihui Lai"),
    venue="ICML 2025",
    year=2025,
    arxiv="2505.17765",
    url="https://proceedings.mlr.press/v267/zhang25an.html",
    not_checked=(
        NotChecked("Joker saves up to 90% memory while reaching comparable (or better) training time and accuracy "
                   "than the state of the art (Falkon, EigenPro, LogFalkon, ThunderSVM) on large data sets (MSD, "
                   "HEPC, SUSY, HIGGS, CIFAR-5M; about 2 GB of memory).",
                   "experiments with millions of points on a GPU, whose data and timings cannot be reproduced "
                   "here; the memory growth of the method against an M x M preconditioner is checked at small scale "
                   "(memory_linear_in_features), training time and test accuracy are not",
                   role="headline"),
        NotChecked("Random Fourier features keep the accuracy of the exact kernel model at large scale (the inexact "
                   "Joker).",
                   "an empirical statement on large data sets; the random-feature approximation of the Gaussian "
                   "kernel itself (Rahimi & Recht 2007) is a classical fact, tested in the unit tests",
                   role="supporting"),
    ),
)

CERT_WHY = ("CLARABEL certifies each optimal value to about 3e-8 of its size (three times its 1e-8 gap and "
            "feasibility tolerances); the two solves together to about 6e-8; 1e-6 leaves a margin, and the values "
            "are compared with that accuracy carried in the interval")


def _instance(ctx, loss_name: str, feature: str, c: float):
    """Fresh data, labels and features for one (loss, feature type, c)."""
    rng = ctx.generator("data", loss_name, feature, c)
    loss = make_loss(loss_name)
    task = "classification" if loss.classification else "regression"
    x, y = synthetic_data(rng, ctx["n"], 3, task, noise=0.3)
    if feature == "rff":
        Phi = fourier_features(rng, 3, ctx["M"], 1.0)(x)
    else:
        Phi = kernel_factor(gaussian_kernel(x, x, 1.0))
    return loss, Phi, y


# --------------------------------------------------------------------------- Theorem 1
def _duality(ctx, absolute_scale: float | None = None, ignore_domain: bool = False) -> AllOf:
    """Strong duality and the primal-dual link on every (loss, feature type, c) instance.

    ``absolute_scale`` replaces the conjugate's argument -alpha/c by -alpha/s (a wrong scaling);
    ``ignore_domain`` uses the squared-loss formula for every loss (controls)."""
    values, refs, accs, labels = [], [], [], []
    theta_dual, theta_primal, tol, entry_labels = [], [], [], []
    for name in LOSS_NAMES:
        for feature in ("rff", "exact"):
            for c in ctx["c_values"]:
                loss, Phi, y = _instance(ctx, name, feature, c)
                P, theta = primal_problem(Phi, y, loss, c)
                D, alpha = dual_problem(Phi, y, loss, c, conjugate_scale=absolute_scale, ignore_domain=ignore_domain)
                solve(P)
                solve(D)
                acc_p, acc_d = solver_accuracy(P)[0], solver_accuracy(D)[0]
                values.append(P.value)
                refs.append(-D.value)
                accs.append(acc_p + acc_d)
                labels.append(f"{name}, {feature} kernel, c = {c:g}")
                theta_dual.append(Phi.T @ alpha.value)
                theta_primal.append(theta.value)
                # P and D are 1-strongly convex in theta = Phi^T alpha: ||theta - theta*||^2 <= 2 (value - optimum),
                # so every entry of the difference is within sqrt(2 acc_P) + sqrt(2 acc_D)
                tol.append(np.full(theta.size, np.sqrt(2 * acc_p) + np.sqrt(2 * acc_d)))
                entry_labels += [f"{labels[-1]}, theta_{j}" for j in range(theta.size)]
    cert = Certificate(["optimal"] * len(values), values, refs, relation="=", rtol=1e-6, solver="CLARABEL",
                       accuracy=accs, labels=labels, why=CERT_WHY,
                       quantity="primal optimum min P against minus the dual optimum, -min D")
    link = Identity(np.concatenate(theta_dual), np.concatenate(theta_primal), atol=np.concatenate(tol),
                    labels=entry_labels, quantity="Phi^T alpha* (the dual's weights) against the primal solution theta*",
                    why="both objectives are 1-strongly convex in theta = Phi^T alpha, so a solve's value accuracy a "
                        "bounds its distance to the optimum by sqrt(2a): each entry is within the sum over the two "
                        "solves")
    return AllOf([cert, link], labels=["strong duality: min P = -min D", "primal-dual link theta* = Phi^T alpha*"])


@claim(PAPER, role="supporting", source="Theorem 1 (the dual of general kernel machines)", evidence="all",
       reconstructed_from=READ,
       statement=r"For a convex loss $\xi_y$ and $c = 1/\lambda > 0$, the primal "
       r"$\min_\theta P(\theta) = \frac12\|\theta\|^2 + c\sum_{i=1}^n \xi_{y_i}(\langle\theta, \varphi(x_i)\rangle)$ "
       r"and the dual $\min_{\alpha \in \mathcal B} D(\alpha) = \frac12\alpha^T K\alpha + \sum_i c\,\xi^*_{y_i}(-\alpha_i/c)$, "
       r"$K_{ij} = \langle\varphi(x_i), \varphi(x_j)\rangle$, $\mathcal B$ the box where the conjugate terms are "
       r"finite, satisfy strong duality $\min P = -\min D$ with $\theta^\star = \sum_i \alpha^\star_i\varphi(x_i)$: for the "
       r"squared (KRR), squared hinge (SVM, $y\alpha \ge 0$), logistic (KLR, $0 \le y\alpha \le c$), Huber "
       r"($|\alpha| \le c\delta$) and $\epsilon$-insensitive (SVR, $|\alpha| \le c$) losses, with an exact Gaussian "
       r"kernel or random Fourier features.",
       method="For each loss, feature type (an exact Gaussian kernel through a square-root factor of its Gram matrix, "
              "or M random Fourier features) and c, fresh data; the primal over theta and the dual over alpha are "
              "solved as two separate conic programs by CLARABEL, and their optimal values are compared within the "
              "solvers' certified accuracy; the primal solution is compared with Phi^T alpha*.",
       params={"n": Param(80, full=300, low=10, high=5000, doc="training points"),
               "M": Param(40, full=200, low=5, high=5000, doc="random Fourier features"),
               "c_values": Param((0.3, 3.0), doc="penalties c = 1/lambda (not 1, where the near-miss control's "
                                                   "scaling coincides with the theorem's)")})
def dual_strong_duality(ctx):
    """The dual of Theorem 1 has the primal's optimal value and gives its solution, for five losses.

    Supporting, not headline: the dual is the Fenchel dual of regularised empirical risk minimisation
    (as in SDCA, Shalev-Shwartz & Zhang, JMLR 2013), written with the scaling and the boxes of the
    losses Joker trains; the paper's own contribution is the solver built on it.
    """
    return _duality(ctx)


@dual_strong_duality.control("the conjugate evaluated at -alpha instead of -alpha/c (the lambda scaling dropped)",
                             near_miss=True)
def _(ctx):
    return _duality(ctx, absolute_scale=1.0)


@dual_strong_duality.control("the squared-loss conjugate used for every loss (the conjugate's domain, the box, "
                             "dropped)")
def _(ctx):
    return _duality(ctx, ignore_domain=True)


# --------------------------------------------------------------------------- DBCD-TR
SMOOTH_LOSSES = ("squared", "squared_hinge", "logistic", "huber")


def _dbcd_evidence(ctx, trust_region: bool = True, drop_box: bool = False) -> AllOf:
    """DBCD-TR on each smooth loss: monotone dual values, and the final value against CLARABEL's optimum.

    ``drop_box`` runs the squared-loss dual (no box) on the squared-hinge labels (a control)."""
    c = ctx["c"]
    incr, incr_tol, incr_x, incr_labels = [], [], [], []
    values, refs, accs, labels = [], [], [], []
    for name in SMOOTH_LOSSES:
        loss, Phi, y = _instance(ctx, name, "rff", c)
        D, _ = dual_problem(Phi, y, loss, c)
        solve(D)
        run_loss = make_loss("squared") if (drop_box and name == "squared_hinge") else loss
        run = dbcd_tr(Phi, y, run_loss, c, block_size=ctx["block_size"], epochs=ctx["epochs"],
                      rng=ctx.generator("blocks", name), trust_region=trust_region, radius=c, gap_tol=1e-11)
        dv = run.dual_values
        steps = np.diff(dv)
        incr.extend(steps.tolist())
        # each D is recomputed from alpha: n terms and a norm of size <= |D|, rounding below 1e-12 |D|
        incr_tol.extend([1e-12 * max(1.0, abs(dv[0]), abs(dv[-1]))] * len(steps))

        incr_x.extend(range(1, len(steps) + 1))
        incr_labels.extend(f"{name}, block update {k + 1}" for k in range(len(steps)))
        values.append(float(dv[-1]))
        refs.append(float(D.value))
        # the run's own duality gap bounds its suboptimality; CLARABEL's accuracy bounds the reference's error
        accs.append(solver_accuracy(D)[0] + (float(run.gaps[-1]) if len(run.gaps) else 0.0))
        labels.append(f"{name}: {run.epochs} epochs, {run.accepted} steps accepted, {run.rejected} rejected")
    mono = Bound(incr, np.zeros(len(incr)), relation="<=", atol=np.array(incr_tol), instances=incr_labels,
                 x=incr_x, xlabel="block update",
                 quantity="D(alpha after the update) - D(alpha before)",
                 why="D is recomputed from alpha after every block update (not accumulated): rounding of its n "
                     "terms and its norm stays below 1e-12 of its size",
                 found_by="every block update of every run")
    cert = Certificate(["optimal"] * len(values), values, refs, relation="=", rtol=1e-6, solver="CLARABEL",
                       accuracy=accs, labels=labels,
                       why="CLARABEL's certified accuracy (about 3e-8 relative) plus the run's own final duality "
                           "gap (below 1e-11 relative when it stops on its gap) bound the difference of a true "
                           "optimum; 1e-6 leaves a margin",
                       quantity="dual value reached by DBCD-TR against CLARABEL's dual optimum")
    pieces, names = [mono, cert], ["monotone descent of the dual", "convergence to the dual optimum"]
    return AllOf(pieces, labels=names)


@claim(PAPER, role="headline", source="Sec. 3, the DBCD-TR algorithm (dual block coordinate descent with trust "
                                      "region)", evidence="all", reconstructed_from=READ,
       statement=r"DBCD-TR (random blocks of $b$ dual coordinates; on a block, trust-region Newton steps on "
       r"$\frac12\alpha_B^TK_{BB}\alpha_B + \alpha_B^T K_{B,\bar B}\alpha_{\bar B} + \sum_{i\in B} c\,\xi^*(-\alpha_i/c)$ "
       r"inside the box, accepted when the actual decrease is at least $\eta = 1/8$ of the predicted one) decreases "
       r"the dual objective at every block update and converges to the dual optimum, for the squared, squared "
       r"hinge, logistic and Huber losses.",
       method="For each smooth loss, fresh data with random Fourier features; DBCD-TR run until its duality gap is "
              "below 1e-11 of the dual value (or the epoch budget); every block update's change of the dual "
              "(recomputed from alpha) must be <= 0, and the final dual value must equal CLARABEL's certified "
              "optimum of the dual.  Not tested: the trust region's acceptance test, which rejects no step on "
              "these instances (accepting every step gives the same runs, in both profiles); what the near-miss "
              "control removes is the step-size limit and the test together.",
       params={"n": Param(200, full=600, low=20, high=10**5, doc="training points"),
               "M": Param(60, full=200, low=5, high=10**4, doc="random Fourier features"),
               "c": Param(30.0, low=1e-3, high=1e4, doc="penalty c = 1/lambda"),
               "block_size": Param(50, full=100, low=1, high=10**4, doc="block size b"),
               "epochs": Param(80, full=200, low=1, high=10**4, doc="largest number of epochs")},
       sweeps=({"block_size": [10, 25, 50, 100, 200]},))
def dbcd_tr_converges(ctx):
    """DBCD-TR descends monotonically to the certified dual optimum for four losses."""
    return _dbcd_evidence(ctx)


@dbcd_tr_converges.control("without the trust region: a plain block Newton step clipped to the box, always "
                           "accepted (block coordinate descent without DBCD-TR's safeguard)", near_miss=True)
def _(ctx):
    return _dbcd_evidence(ctx, trust_region=False)


@dbcd_tr_converges.control("the squared hinge's box dropped (the KRR dual run on the SVM's labels)")
def _(ctx):
    return _dbcd_evidence(ctx, drop_box=True)


# --------------------------------------------------------------------------- memory
def _memory_evidence(ctx, solver: str) -> Rate:
    Ms = [int(m) for m in ctx["features"]]
    # the quadratic controls stop earlier: a 4096^2 matrix costs 128 MB and seconds, and blocks of M/4 must
    # stay below n
    largest = {"dbcd": max(Ms), "primal": 2048, "dbcd_block_as_features": 1024}[solver]
    Ms = [M for M in Ms if M <= largest]
    seed = int(ctx.generator("memory data").integers(2**31))
    peaks = peak_series_fresh(solver, ctx["n_memory"], Ms, ctx["block_size"], seed)
    growth = np.diff(peaks)
    return Rate(Ms[:-1], growth, exponent=1.0, relation="=", tolerance=0.01, max_halfwidth=0.1,
                why="each value is the exact byte count tracemalloc reports, measured in a fresh process (so it "
                    "is the same every time); the growth of the peak between M and 2M removes the parts that do "
                    "not depend on M (the n-vectors, the b x b matrix), so a linear memory has exponent 1 up to "
                    "the few dozen bytes of array headers and allocator rounding that differ between M and 2M "
                    "(they move the slope by about 1e-4 at these sizes, hence the tolerance 0.01, far below the "
                    "quarter that separates the near miss), and an M x M matrix has exponent 2",
                size_name="number of random features M", cost_name="growth of the peak memory from M to 2M (bytes)")


@claim(PAPER, role="supporting", source="Sec. 1 and 3 (memory of Joker against Falkon's O(M^2) preconditioner)",
       evidence="rate", reconstructed_from=READ + "; papernotes.org: Falkon's preconditioner needs O(M^2) memory "
                                                 "(over 55 GB on HIGGS with M = 1.2e5), Joker avoids it",
       statement=r"With $M$ random features and blocks of $b$ coordinates, the memory of DBCD-TR grows linearly in "
       r"$M$ (it holds $\alpha\in\mathbb R^n$, $\beta = \Phi^T\alpha\in\mathbb R^M$, one block's $b\times M$ "
       r"features and $K_{BB}$), where a solver with an $M\times M$ matrix (Falkon's preconditioner) needs memory "
       r"quadratic in $M$.",
       method="tracemalloc's peak, in a fresh process, of one epoch of our DBCD-TR in its lightweight mode (features "
              "formed one block at a time, b = 64, n = 600) for M doubling from 128 to 4096; the growth of the peak "
              "between M and 2M is fitted against M (exponent 1 claimed).  The memory is that of our implementation "
              "of the algorithm, which allocates what the algorithm needs and nothing of size n x M or M x M; the "
              "controls measure a solver that forms an M x M matrix and DBCD-TR with blocks grown with M.",
       params={"n_memory": Param(600, low=50, high=10**6, doc="training points"),
               "block_size": Param(64, low=1, high=10**4, doc="block size b"),
               "features": Param((128, 256, 512, 1024, 2048, 4096), doc="numbers of random features M")})
def memory_linear_in_features(ctx):
    """DBCD-TR's peak memory grows linearly in the number of random features."""
    return _memory_evidence(ctx, "dbcd")


@memory_linear_in_features.control("the primal route with the same features: the M x M matrix I + c Phi^T Phi "
                                   "formed and solved (random-feature ridge regression, as Falkon's M x M "
                                   "preconditioner)", near_miss=True)
def _(ctx):
    return _memory_evidence(ctx, "primal")


@memory_linear_in_features.control("DBCD-TR with blocks grown with the features (b = M/4): its b x M features and "
                                   "b x b matrix grow as M^2")
def _(ctx):
    return _memory_evidence(ctx, "dbcd_block_as_features")
