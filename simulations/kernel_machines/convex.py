"""The primal and dual problems of a kernel machine as cvxpy problems (solved by CLARABEL).

These give certified optimal values independent of the block method of :mod:`.dbcd`: the primal
over the weights $\\theta$ and the dual over $\\alpha$ are separate conic programs, so their values
agree only if the dual of Theorem 1 (Zhang & Lai, ICML 2025; see :mod:`.losses`) is right.
"""

from __future__ import annotations

import warnings

import cvxpy as cp
import numpy as np

from .losses import Loss, _check_c


def primal_problem(features: np.ndarray, y: np.ndarray, loss: Loss, c: float) -> tuple[cp.Problem, cp.Variable]:
    """$\\min_\\theta \\frac12\\|\\theta\\|^2 + c\\sum_i \\xi_{y_i}(\\varphi_i^T\\theta)$ as a cvxpy problem (not solved).

    Args:
        features: (n, M) feature rows; y: (n,) targets (+-1 for classification losses).
    Returns:
        (problem, theta variable).
    """
    c = _check_c(c)
    Phi, y = np.asarray(features, float), np.asarray(y, float)
    theta = cp.Variable(Phi.shape[1])
    z = Phi @ theta
    if loss.name == "squared":
        data = 0.5 * cp.sum_squares(z - y)
    elif loss.name == "squared_hinge":
        data = 0.5 * cp.sum_squares(cp.pos(1 - cp.multiply(y, z)))
    elif loss.name == "logistic":
        data = cp.sum(cp.logistic(-cp.multiply(y, z)))
    elif loss.name == "huber":
        data = 0.5 * cp.sum(cp.huber(z - y, loss.param))  # cvxpy's huber is twice ours
    else:
        data = cp.sum(cp.pos(cp.abs(z - y) - loss.param))
    return cp.Problem(cp.Minimize(0.5 * cp.sum_squares(theta) + c * data)), theta


def dual_problem(features: np.ndarray, y: np.ndarray, loss: Loss, c: float,
                 conjugate_scale: float | None = None, ignore_domain: bool = False) -> tuple[cp.Problem, cp.Variable]:
    """$\\min_\\alpha \\frac12\\|\\Phi^T\\alpha\\|^2 + \\sum_i c\\,\\xi^*_{y_i}(-\\alpha_i/s)$ as a cvxpy problem.

    With ``conjugate_scale`` s = c (the default) this is the dual of Theorem 1; other values of s
    and ``ignore_domain=True`` (the squared-loss formula $\\alpha^2/(2s^2) - \\alpha y/s$ used for every
    loss, without the conjugate's domain) build wrong versions of it for negative controls.

    Returns:
        (problem, alpha variable).
    """
    c = _check_c(c)
    s = c if conjugate_scale is None else float(conjugate_scale)
    if not s > 0:
        raise ValueError(f"the conjugate's scale must be positive, not {conjugate_scale!r}")
    Phi, y = np.asarray(features, float), np.asarray(y, float)
    alpha = cp.Variable(Phi.shape[0])
    quad = 0.5 * cp.sum_squares(Phi.T @ alpha)
    cons = []
    if ignore_domain or loss.name in ("squared", "squared_hinge", "huber"):
        term = c * (cp.sum_squares(alpha) / (2 * s**2) - (y @ alpha) / s)
        if not ignore_domain and loss.name == "squared_hinge":
            cons.append(cp.multiply(y, alpha) >= 0)
        if not ignore_domain and loss.name == "huber":
            cons.append(cp.abs(alpha) <= s * loss.param)
    elif loss.name == "logistic":
        u = cp.multiply(y, alpha) / s
        term = c * cp.sum(-cp.entr(u) - cp.entr(1 - u))
    else:
        term = c * (-(y @ alpha) / s + loss.param * cp.norm1(alpha) / s)
        cons.append(cp.abs(alpha) <= s)
    return cp.Problem(cp.Minimize(quad + term), cons), alpha


def solve(problem: cp.Problem) -> cp.Problem:
    """Solve with CLARABEL (interior point; cvxpy's default accuracy) and return the problem.

    CLARABEL sometimes stops one step short of its tolerances on the exponential cones of the
    logistic loss with badly scaled features ("optimal_inaccurate"); the problem is then solved
    again without its static regularisation, and then without equilibration, which reach "optimal".

    Raises:
        RuntimeError: when no attempt reports an optimal solution.
    """
    for options in ({}, {"static_regularization_enable": False}, {"equilibrate_enable": False}):
        with warnings.catch_warnings():
            # cvxpy's "Solution may be inaccurate" for an attempt that the status test below rejects
            warnings.filterwarnings("ignore", message="Solution may be inaccurate", category=UserWarning)
            problem.solve(solver=cp.CLARABEL, **options)
        if problem.status == "optimal":
            return problem
    raise RuntimeError(f"CLARABEL returned status {problem.status!r}")
