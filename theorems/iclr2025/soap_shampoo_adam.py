"""SOAP: Improving and Stabilizing Shampoo using Adam (Vyas et al., ICLR 2025).

Two exact statements of the paper are checked in float64: Shampoo with power 1/2 is Adafactor
run in the eigenbasis of Shampoo's preconditioner (Claim 1), and SOAP with a frozen eigenbasis
is Adam run on the rotated parameter (the abstract's "SOAP is equivalent to running Adam in a
rotated space").  The large-scale language-model speed-ups (Sec. 6) are not checked here.
"""

from __future__ import annotations

import numpy as np

from simulations.optim import (
    adafactor_in_basis_update,
    adam_in_basis_update,
    adam_rounding_bound,
    eigenbasis,
    least_squares_scale,
    random_orthogonal,
    regression_batches,
    regression_gradient,
    rotate,
    rotate_batches,
    sample_gradients,
    shampoo_statistics,
    shampoo_update,
    soap_init,
    train_adam,
    train_published_soap,
    train_soap,
    unrotate,
)
from workbench import AllOf, Identity, NotChecked, Paper, Param, claim

PAPER = Paper(
    slug="soap_shampoo_adam",
    title="SOAP: Improving and Stabilizing Shampoo using Adam",
    authors=("Nikhil Vyas", "Depen Morwani", "Rosie Zhao", "Itai Shapira", "David Brandfonbrener",
             "Lucas Janson", "Sham Kakade"),
    venue="ICLR 2025",
    year=2025,
    arxiv="2409.11321",
    url="https://arxiv.org/abs/2409.11321",
    not_checked=(
        NotChecked(
            r"In language-model pre-training (360m and 660m parameters, large batch), SOAP needs over "
            r"40\% fewer iterations and over 35\% less wall-clock time than AdamW, and about 20\% less "
            r"than Shampoo in both.",
            "an empirical measurement on the paper's models, data and hardware; pre-training at this "
            "scale does not run on this machine (2 CPU cores), and a small proxy would test the proxy",
            role="headline"),
        NotChecked(
            "Computing Shampoo's eigendecomposition less frequently degrades its performance, more so "
            "the lower the frequency; SOAP mitigates the degradation.",
            "an empirical statement about training curves of the paper's models, not a mathematical "
            "statement with a checkable bound",
            role="supporting"),
        NotChecked(
            "SOAP introduces only one additional hyper-parameter (the preconditioning frequency) "
            "compared to Adam.",
            "a property of the algorithm's definition, not a computation (the published soap.py also "
            "exposes shampoo_beta, which defaults to Adam's beta2)",
            role="supporting"),
    ),
)

UNIT_ROUNDOFF = np.finfo(float).eps / 2

# ----------------------------------------------------------------------------- Claim 1
_CLAIM1_PARAMS = {
    "m": Param(6, full=32, low=2, high=256, doc="rows of the gradient matrix"),
    "n": Param(4, full=24, low=2, high=256, doc="columns of the gradient matrix"),
    "num_grads": Param(50, full=400, low=2, high=100_000,
                       doc="gradients whose empirical distribution defines the expectations"),
    "condition": Param(100.0, full=1000.0, low=1.0, high=1e8,
                       doc="ratio of largest to smallest row (and column) variance of the gradients"),
}


def _claim1_instance(ctx):
    """Gradients, their statistics L, R (empirical means), eigenbases, and a held-out gradient."""
    m, n, num = ctx["m"], ctx["n"], ctx["num_grads"]
    if num * n < m or num * m < n:
        raise ValueError("too few gradients for L and R to be invertible: need num_grads * n >= m "
                         "and num_grads * m >= n")
    grads = sample_gradients(ctx.rng, num + 1, m, n, condition=ctx["condition"])
    stats, g = grads[:num], grads[num]
    left, right = shampoo_statistics(stats, average=True)
    lam, q_left = eigenbasis(left)
    mu, q_right = eigenbasis(right)
    # Normwise float64 error of both sides: eigh and the rotations are backward stable with
    # error ~(m+n) u ||L||; the inverse square roots amplify a relative perturbation by at most
    # kappa(L)/2 (and kappa(R)/2), and the Adafactor row sums lambda_i inherit the same error.
    rel_tol = (m + n) * 2 * UNIT_ROUNDOFF * (lam[0] / lam[-1] + mu[0] / mu[-1])
    return stats, g, left, right, q_left, q_right, rel_tol


_CLAIM1_WHY = ("normwise float64 error of eigh-based inverse square roots: (m+n) * machine eps * "
               "(kappa(L) + kappa(R)), times ||Shampoo direction||_F, per entry")


@claim(
    PAPER, source="Claim 1, Sec. 3", evidence="identity", role="headline",
    statement=(r"Let $L=\mathbb{E}[GG^\top]$ and $R=\mathbb{E}[G^\top G]$ have eigendecompositions "
               r"$L=Q_L\,\mathrm{diag}(\lambda)\,Q_L^\top$, $R=Q_R\,\mathrm{diag}(\mu)\,Q_R^\top$, and let "
               r"$G'=Q_L^\top G Q_R$. Idealised Shampoo with power $1/2$ (preconditioner "
               r"$(L\otimes R/\operatorname{tr}L)^{1/2}$) is idealised Adafactor run on $G'$: Adafactor's "
               r"row and column second moments are $A_i=\mathbb{E}\sum_j G'^2_{ij}=\lambda_i$ and "
               r"$C_j=\mu_j$, its estimate is $V_{ij}=\lambda_i\mu_j/\sum_k\lambda_k$, and "
               r"$Q_L\,(G'\oslash\sqrt{V})\,Q_R^\top=\sqrt{\operatorname{tr}L}\;L^{-1/2}GR^{-1/2}$."),
    method=("For gradients with a random ill-conditioned Kronecker covariance, the expectations are "
            "taken over their empirical distribution (an exact instance of the claim); Adafactor's "
            "factored second moment of the rotated gradients is built from row and column sums, and "
            "its update of a held-out gradient, rotated back, is compared entrywise with "
            "$\\sqrt{\\operatorname{tr}L}\\,L^{-1/2}GR^{-1/2}$."),
    params=_CLAIM1_PARAMS,
    budget=30.0,
)
def shampoo_is_adafactor_in_eigenbasis(ctx):
    """Shampoo with power 1/2 equals Adafactor run in the eigenbasis of Shampoo's preconditioner.

    SOAP paper, Sec. 3, Claim 1: with idealised (expected) statistics, Adafactor's rank-one
    second moment of the rotated gradient ``G' = Q_L^T G Q_R`` is ``lambda_i mu_j / tr L``, so
    its update, rotated back, is ``sqrt(tr L) L^{-1/2} G R^{-1/2}``: the update of Shampoo whose
    preconditioner is ``(L kron R / tr L)^{1/2}``.  Both sides are computed independently (the
    left from row/column sums of squared rotated gradients, the right from eigen-based inverse
    square roots) and compared entry by entry.
    """
    stats, g, left, right, q_left, q_right, rel_tol = _claim1_instance(ctx)
    adafactor = adafactor_in_basis_update(g, stats, q_left, q_right)
    shampoo = shampoo_update(g, left, right, power=0.5, trace_normalise=True)
    return Identity(adafactor, shampoo, rtol=0.0, atol=rel_tol * float(np.linalg.norm(shampoo)),
                    why=_CLAIM1_WHY,
                    quantity="Adafactor-in-eigenbasis update vs sqrt(tr L) L^{-1/2} G R^{-1/2}")


@shampoo_is_adafactor_in_eigenbasis.control(
    "Adafactor run in a Haar-random orthogonal basis instead of Shampoo's eigenbasis "
    "(compared with Shampoo up to the best-fitting scalar)")
def random_basis(ctx):
    stats, g, left, right, _, _, rel_tol = _claim1_instance(ctx)
    q_left, q_right = random_orthogonal(ctx.rng, ctx["m"]), random_orthogonal(ctx.rng, ctx["n"])
    adafactor = adafactor_in_basis_update(g, stats, q_left, q_right)
    shampoo = shampoo_update(g, left, right, power=0.5, trace_normalise=False)
    shampoo = least_squares_scale(adafactor, shampoo) * shampoo
    return Identity(adafactor, shampoo, rtol=0.0, atol=rel_tol * float(np.linalg.norm(shampoo)),
                    why=_CLAIM1_WHY, quantity="Adafactor-in-random-basis update vs scaled Shampoo")


@shampoo_is_adafactor_in_eigenbasis.control(
    "Shampoo with the original power 1/4 instead of 1/2 "
    "(compared up to the best-fitting scalar)")
def shampoo_power_quarter(ctx):
    stats, g, left, right, q_left, q_right, rel_tol = _claim1_instance(ctx)
    adafactor = adafactor_in_basis_update(g, stats, q_left, q_right)
    shampoo = shampoo_update(g, left, right, power=0.25, trace_normalise=False)
    shampoo = least_squares_scale(adafactor, shampoo) * shampoo
    return Identity(adafactor, shampoo, rtol=0.0, atol=rel_tol * float(np.linalg.norm(shampoo)),
                    why=_CLAIM1_WHY, quantity="Adafactor-in-eigenbasis update vs scaled L^{-1/4} G R^{-1/4}")


@shampoo_is_adafactor_in_eigenbasis.control(
    "full (unfactored) Adam second moment E[G'^2] in the eigenbasis instead of Adafactor's "
    "rank-one factorisation (compared up to the best-fitting scalar)")
def unfactored_adam_in_eigenbasis(ctx):
    stats, g, left, right, q_left, q_right, rel_tol = _claim1_instance(ctx)
    adam = adam_in_basis_update(g, stats, q_left, q_right)
    shampoo = shampoo_update(g, left, right, power=0.5, trace_normalise=False)
    shampoo = least_squares_scale(adam, shampoo) * shampoo
    return Identity(adam, shampoo, rtol=0.0, atol=rel_tol * float(np.linalg.norm(shampoo)),
                    why=_CLAIM1_WHY, quantity="Adam-in-eigenbasis update vs scaled Shampoo")


# ----------------------------------------------------------------------------- Claim 2
_CLAIM2_PARAMS = {
    "m": Param(6, full=32, low=2, high=256, doc="rows of the weight matrix"),
    "n": Param(4, full=24, low=2, high=256, doc="columns of the weight matrix"),
    "steps": Param(20, full=100, low=2, high=10_000, doc="optimisation steps compared"),
    "batch": Param(8, full=32, low=1, high=100_000, doc="minibatch size of the regression"),
    "lr": Param(0.05, full=0.02, low=1e-6, high=1.0, doc="step size"),
}
_HYPER = {"betas": (0.9, 0.95), "eps": 1e-8, "weight_decay": 0.01}  # defaults of the current soap.py


def _claim2_instance(ctx):
    """Regression minibatches (one extra to initialise SOAP) and the initial weights."""
    m, n, steps = ctx["m"], ctx["n"], ctx["steps"]
    xs, ys, _ = regression_batches(ctx.rng, steps + 1, m, n, ctx["batch"], condition=100.0)
    w0 = ctx.rng.standard_normal((m, n))
    return xs, ys, w0


def _adam_in_basis(ctx, w0, xs, ys, q_left, q_right, **conventions):
    """Adam on the regression in coordinates W' = Q_L^T W Q_R, rotated back, and its error bound."""
    kw = {"lr": ctx["lr"], **_HYPER, **conventions}
    xr, yr = rotate_batches(xs[1:], ys[1:], q_left, q_right)
    path_rot = train_adam(rotate(w0, q_left, q_right), xr, yr, **kw)
    grads = np.stack([regression_gradient(w, x, y) for w, x, y in zip(path_rot[:-1], xr, yr, strict=True)])
    m, n = w0.shape
    bound = (adam_rounding_bound(grads, lr=kw["lr"], betas=kw["betas"], eps=kw["eps"])
             + 2 * (m + n) * UNIT_ROUNDOFF * float(np.abs(path_rot).max()))
    return unrotate(path_rot, q_left, q_right), bound


def _published_piece(ctx, xs, ys, w0):
    """The published rule (soap.py as read) with a frozen basis against Adam in its conventions."""
    steps = ctx["steps"]
    kw = {"lr": ctx["lr"], **_HYPER}
    path, state = train_published_soap(w0, xs, ys, shampoo_beta=0.95, precondition_frequency=steps + 1, **kw)
    reference, bound = _adam_in_basis(ctx, w0, xs, ys, state.q_left, state.q_right, eps_mode="folded",
                                      decay="after")
    return Identity(path, reference, rtol=0.0, atol=bound, why=_CLAIM2_WHY,
                    quantity="published-rule SOAP iterates vs rotated-back Adam (soap.py conventions)")


_CLAIM2_WHY = ("float64 rounding: first-order bound sum_t 2 lr (m+n) u ||G'_t||_F / min sqrt(Vhat_t) "
               "for the rotated gradients plus 2 (m+n) u max|W'| for rotating the iterates")


@claim(
    PAPER, source="Abstract; Sec. 4 (SOAP algorithm) and official soap.py", evidence="all", role="headline",
    statement=(r"SOAP keeps the first moment $M$ of $G$ in the original basis and the second moment "
               r"$V$ of $G'=Q_L^\top GQ_R$ in the eigenbasis of Shampoo's $L,R$, and steps "
               r"$W\leftarrow(1-\eta\lambda)W-\eta\,Q_L\big[\hat M'\oslash(\sqrt{\hat V}+\epsilon)\big]Q_R^\top$ "
               r"with $M'=Q_L^\top MQ_R$. When the preconditioning frequency exceeds the number of steps "
               r"($Q_L,Q_R$ frozen), SOAP is Adam run in the rotated space: $W_t=Q_LW'_tQ_R^\top$ for all "
               r"$t$, where $W'_t$ are the iterates of Adam (bias-corrected, decoupled weight decay) on the "
               r"same loss in the coordinates $W'=Q_L^\top WQ_R$, from $W'_0=Q_L^\top W_0Q_R$."),
    method=("SOAP (as in soap.py: the first gradient only initialises $L,R,Q_L,Q_R$) runs on a "
            "stochastic ill-conditioned matrix regression with frequency larger than the horizon; "
            "AdamW runs on the same minibatches expressed in the rotated coordinates; every iterate of "
            "SOAP is compared with the rotated-back Adam iterate."),
    params=_CLAIM2_PARAMS,
    budget=30.0,
)
def soap_is_adam_in_rotated_coordinates(ctx):
    """With a frozen eigenbasis, SOAP's iterates are Adam's on Q_L^T W Q_R, rotated back.

    SOAP paper, abstract ("SOAP is equivalent to running Adam in a rotated space") and the
    SOAP algorithm of Sec. 4 / ``soap.py``: the first moment is kept in the original basis and
    projected each step, which for a fixed basis is the EMA of the rotated gradients; the
    second moment is the EMA of the squared rotated gradients; so each step is Adam's step in
    the rotated coordinates.  Checked over ``steps`` closed-loop steps (gradients at each
    method's own iterates), entry by entry on every iterate.
    """
    xs, ys, w0 = _claim2_instance(ctx)
    steps = ctx["steps"]
    soap_path, state = train_soap(w0, xs, ys, lr=ctx["lr"], shampoo_beta=0.95,
                                  precondition_frequency=steps + 1, **_HYPER)
    reference, bound = _adam_in_basis(ctx, w0, xs, ys, state.q_left, state.q_right)
    ours = Identity(soap_path, reference, rtol=0.0, atol=bound, why=_CLAIM2_WHY,
                    quantity="SOAP iterates vs rotated-back Adam iterates")
    return AllOf([ours, _published_piece(ctx, xs, ys, w0)],
                 labels=["SOAP as in the paper's pseudo-code", "SOAP as the published soap.py states it"])


@soap_is_adam_in_rotated_coordinates.control(
    "SOAP's second moment kept as the EMA of G^2 in the original basis while the first moment "
    "is rotated (the rotation of the second moment is removed)")
def second_moment_in_original_basis(ctx):
    xs, ys, w0 = _claim2_instance(ctx)
    steps = ctx["steps"]
    soap_path, state = train_soap(w0, xs, ys, lr=ctx["lr"], shampoo_beta=0.95,
                                  precondition_frequency=steps + 1,
                                  second_moment_basis="original", **_HYPER)
    reference, bound = _adam_in_basis(ctx, w0, xs, ys, state.q_left, state.q_right)
    return AllOf([Identity(soap_path, reference, rtol=0.0, atol=bound, why=_CLAIM2_WHY,
                    quantity="broken-SOAP iterates vs rotated-back Adam iterates")],
                 labels=["SOAP as in the paper's pseudo-code"])


@soap_is_adam_in_rotated_coordinates.control(
    "Adam without the rotation (run in the original coordinates, Q_L = I, Q_R = I)")
def adam_without_rotation(ctx):
    xs, ys, w0 = _claim2_instance(ctx)
    steps = ctx["steps"]
    soap_path, _ = train_soap(w0, xs, ys, lr=ctx["lr"], shampoo_beta=0.95,
                              precondition_frequency=steps + 1, **_HYPER)
    m, n = w0.shape
    reference, bound = _adam_in_basis(ctx, w0, xs, ys, np.eye(m), np.eye(n))
    return AllOf([Identity(soap_path, reference, rtol=0.0, atol=bound, why=_CLAIM2_WHY,
                    quantity="SOAP iterates vs plain Adam iterates")],
                 labels=["SOAP as in the paper's pseudo-code"])


@soap_is_adam_in_rotated_coordinates.control(
    "basis not frozen: SOAP refreshes Q_L, Q_R every step (frequency 1) while Adam keeps the "
    "initial eigenbasis")
def basis_refreshed_every_step(ctx):
    xs, ys, w0 = _claim2_instance(ctx)
    initial = soap_init(regression_gradient(w0, xs[0], ys[0]))
    soap_path, _ = train_soap(w0, xs, ys, lr=ctx["lr"], shampoo_beta=0.95,
                              precondition_frequency=1, **_HYPER)
    reference, bound = _adam_in_basis(ctx, w0, xs, ys, initial.q_left, initial.q_right)
    return AllOf([Identity(soap_path, reference, rtol=0.0, atol=bound, why=_CLAIM2_WHY,
                    quantity="SOAP (f = 1) iterates vs Adam in the initial eigenbasis")],
                 labels=["SOAP as in the paper's pseudo-code"])
