"""Certificates decided with the solver's own accuracy: a value the solver does not certify is
never the reason for a VERIFIED or a REFUTED.

The references are closed forms: the Lovasz theta of the 5-cycle is sqrt(5) (Lovasz 1979), and the
worst case of N steps of gradient descent with step 1/L on L-smooth convex functions from
||x0 - x*|| <= 1 is L/(4N + 2) (Drori & Teboulle 2014).
"""

from __future__ import annotations

import math

import cvxpy as cp
import pytest
from PEPit.functions import SmoothConvexFunction

from simulations.optim.pep import gradient_step, pep_worst_case
from workbench import Certificate
from workbench.certify import cvxpy_certificate, solver_accuracy
from workbench.evidence import Verdict, decide

V = Verdict


def _theta_c5() -> cp.Problem:
    x = cp.Variable((5, 5), symmetric=True)
    constraints = [x >> 0, cp.trace(x) == 1] + [x[i, (i + 1) % 5] == 0 for i in range(5)]
    return cp.Problem(cp.Maximize(cp.sum(x)), constraints)


@pytest.mark.parametrize("solver", ["SCS", "CLARABEL"])
def test_theta_of_the_five_cycle_is_never_refuted_on_solver_error(solver):
    problem = _theta_c5()
    problem.solve(solver=solver)
    accuracy, diagnostics = solver_accuracy(problem)
    assert abs(problem.value - math.sqrt(5)) <= accuracy  # the accuracy covers the true error
    d = decide(cvxpy_certificate(problem, math.sqrt(5), rtol=1e-9, why="sqrt(5), Lovasz 1979"))
    assert d.verdict is not V.REFUTED, d.summary
    if solver == "CLARABEL":
        assert d.verdict is V.VERIFIED or accuracy > 1e-9 * math.sqrt(5)
    else:  # SCS's default accuracy certifies neither answer at rtol 1e-9
        assert d.verdict is V.INCONCLUSIVE and "within the solver's accuracy" in d.summary
    assert "smallest eigenvalue of a PSD variable" in diagnostics


@pytest.mark.parametrize("solver", ["SCS", "CLARABEL"])
def test_pep_worst_case_with_scs_and_clarabel(solver):
    n = 3
    truth = 1.0 / (4 * n + 2)
    res = pep_worst_case(SmoothConvexFunction, {"L": 1.0}, gradient_step(1.0), n, solver=solver)
    assert abs(res.value - truth) <= res.accuracy
    assert res.gap >= 0 and math.isfinite(res.min_gram_eigenvalue)

    def cert(reference, relation):
        return decide(Certificate(res.status, res.value, reference, relation=relation, rtol=1e-10,
                                  accuracy=res.accuracy, diagnostics=res.diagnostics(), solver=solver, why="x"))

    # The true equality is never refuted, and a false upper bound (1e-8 below the truth) never verified.
    assert cert(truth, "=").verdict is not V.REFUTED
    assert cert(truth - 1e-8, "<=").verdict is not V.VERIFIED
    # A clearly false bound is refuted with either solver.
    assert cert(0.9 * truth, "<=").verdict is V.REFUTED


def test_accuracy_interval_rules():
    def d(value, ref, relation, acc):
        return decide(Certificate("optimal", value, ref, relation=relation, rtol=0.0, accuracy=acc, why="x")).verdict

    assert d(1.0, 1.0, "=", 1e-9) is V.INCONCLUSIVE  # rtol 0: no value certifies equality to the last digit
    assert decide(Certificate("optimal", 1.0, 1.0, rtol=1e-6, accuracy=1e-9, why="x")).verdict is V.VERIFIED
    assert d(1.0, 1.1, "=", 1e-3) is V.REFUTED
    assert d(1.0, 1.0005, "<=", 1e-3) is V.INCONCLUSIVE
    assert d(1.0, 1.01, "<=", 1e-3) is V.VERIFIED
    assert d(1.0, 0.99, "<=", 1e-3) is V.REFUTED
