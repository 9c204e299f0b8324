"""How accurately a solver certifies an optimal value: the input of a decided :class:`Certificate`.

A solver that reports "optimal" has met its own stopping tolerances, nothing more: SCS at its
default tolerance returns the Lovasz theta of the 5-cycle 8e-7 away from sqrt(5), with a matrix
whose smallest eigenvalue is -1.3e-7.  :func:`solver_accuracy` turns what each solver reports
(primal and dual objective values, residuals, MIP gaps) into an absolute bound on the error of
the value, and :func:`cvxpy_certificate` hands it to a :class:`workbench.Certificate`, which then
never decides on a difference the solver does not certify.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .evidence import Certificate

# Stopping tolerances of the solvers cvxpy calls, at cvxpy's defaults (relative to the size of
# the objective): the bound on the value's error where the solver reports no duality gap.
CLARABEL_TOLERANCE = 1e-8   # Clarabel: tol_gap_abs = tol_gap_rel = tol_feas = 1e-8
HIGHS_LP_TOLERANCE = 1e-7   # HiGHS: primal and dual feasibility tolerances 1e-7


def solver_accuracy(problem: Any, tolerance: float | None = None) -> tuple[float, dict[str, Any]]:
    """The certified accuracy (absolute) of a solved cvxpy problem's optimal value.

    - SCS: ``|pobj - dobj| + (res_pri + res_dual) max(1, |value|)`` from its own report;
    - OSQP: its duality gap plus residuals, the same way;
    - HiGHS: for a MIP, the gap between the incumbent and the dual bound; for an LP, the primal
      and dual infeasibilities it reports plus its feasibility tolerance, times ``max(1, |value|)``;
    - Clarabel (which cvxpy gives no report for): three times its stopping tolerance (1e-8 by
      default, or the ``tolerance`` the caller asked it for through ``tol_gap_abs``,
      ``tol_gap_rel`` and ``tol_feas``), times ``max(1, |value|)`` (gap, primal and dual
      feasibility); thirty times it when the problem has exponential or power cones, where
      errors of ten times the tolerance were seen (a threefold margin over them).

    Every variable declared PSD, or constrained by ``X >> 0``, adds its smallest eigenvalue to the
    diagnostics (a negative value is primal infeasibility).

    Returns:
        (accuracy, diagnostics): a non-negative number in the units of the objective, and the
        numbers it comes from.

    Raises:
        ValueError: for an unsolved problem or a solver without an accuracy model here (pass
            ``accuracy=`` to :class:`Certificate` yourself).
    """
    stats = problem.solver_stats
    value = problem.value
    if stats is None or value is None or not np.isfinite(value):
        raise ValueError("the problem has no finite optimal value: solve it first")
    name = str(stats.solver_name).upper()
    scale = max(1.0, abs(float(value)))
    extra = stats.extra_stats
    diagnostics: dict[str, Any] = {"solver": name}
    if name == "SCS":
        info = extra["info"]
        gap = abs(info["pobj"] - info["dobj"])
        residual = float(info["res_pri"]) + float(info["res_dual"])
        diagnostics |= {"duality gap": gap, "primal residual": float(info["res_pri"]),
                        "dual residual": float(info["res_dual"])}
        accuracy = gap + residual * scale
    elif name == "OSQP":
        info = extra["info"]
        gap = abs(float(info.obj_val) - float(info.dual_obj_val))
        residual = float(info.prim_res) + float(info.dual_res)
        diagnostics |= {"duality gap": gap, "primal residual": float(info.prim_res), "dual residual": float(info.dual_res)}
        accuracy = gap + residual * scale
    elif name == "HIGHS":
        if problem.is_mixed_integer():
            bound = float(extra.mip_dual_bound)
            accuracy = abs(abs(float(value)) - abs(bound)) if np.isfinite(bound) else float("inf")
            diagnostics |= {"MIP dual bound": bound, "MIP gap": float(extra.mip_gap)}
        else:
            infeasibility = float(extra.max_primal_infeasibility) + float(extra.max_dual_infeasibility)
            diagnostics |= {"primal infeasibility": float(extra.max_primal_infeasibility),
                            "dual infeasibility": float(extra.max_dual_infeasibility)}
            accuracy = (infeasibility + HIGHS_LP_TOLERANCE) * scale
    elif name == "CLARABEL":
        tol = CLARABEL_TOLERANCE if tolerance is None else float(tolerance)
        nonsymmetric = _has_nonsymmetric_cones(problem)
        diagnostics |= {"stopping tolerance": tol, "exponential or power cones": nonsymmetric}
        accuracy = (30 * tol if nonsymmetric else 3 * tol) * scale
    else:
        raise ValueError(f"no accuracy model for the solver {name}: pass accuracy= to Certificate yourself")
    eigs = _psd_eigenvalues(problem)
    if eigs:
        diagnostics["smallest eigenvalue of a PSD variable"] = min(eigs)
    return float(accuracy), diagnostics


def _has_nonsymmetric_cones(problem: Any) -> bool:
    """True when the problem's conic form has exponential or power cones, which interior-point
    solvers meet less accurately than their stopping tolerance suggests (True when unknown)."""
    import cvxpy as cp

    try:
        dims = problem.get_problem_data(cp.CLARABEL)[0]["dims"]
    except Exception:  # noqa: BLE001 - when the form cannot be rebuilt, assume the less accurate case
        return True
    return bool(getattr(dims, "exp", 0)) or bool(getattr(dims, "p3d", [])) or bool(getattr(dims, "pnd", []))


def _psd_eigenvalues(problem: Any) -> list[float]:
    import cvxpy as cp

    mats = [v for v in problem.variables() if v.attributes.get("PSD") and v.value is not None]
    mats += [c.args[0] for c in problem.constraints if isinstance(c, cp.constraints.PSD)]
    out = []
    for m in mats:
        value = getattr(m, "value", None)
        if value is not None and np.ndim(value) == 2:
            a = np.asarray(value, dtype=float)
            out.append(float(np.linalg.eigvalsh((a + a.T) / 2).min()))
    return out


def cvxpy_certificate(problem: Any, reference: float, *, relation: str = "=", rtol: float = 1e-7,
                      atol: float = 0.0, why: str, quantity: str = "optimal value", tolerance: float | None = None,
                      **kw: Any) -> Certificate:
    """A :class:`Certificate` of a solved cvxpy problem, decided with the solver's own accuracy.

    Args:
        problem: a cvxpy ``Problem`` after ``solve``.
        reference, relation, rtol, atol, why, quantity: as for :class:`Certificate`.
        kw: other :class:`Certificate` fields (``labels``, ``finding``...).

    Raises:
        ValueError: as :func:`solver_accuracy` (an unsolved problem, an unknown solver).
    """
    status = str(problem.status)
    if status != "optimal":
        # Not solved: the status makes the certificate an ERROR; its accuracy is unknown.
        return Certificate(status, float("nan") if problem.value is None else float(problem.value), reference,
                           relation=relation, rtol=rtol, atol=atol, why=why, quantity=quantity, accuracy=float("inf"),
                           solver=str(getattr(problem.solver_stats, "solver_name", "")), **kw)
    accuracy, diagnostics = solver_accuracy(problem, tolerance)
    return Certificate(status, float(problem.value), reference, relation=relation, rtol=rtol, atol=atol, why=why,
                       quantity=quantity, solver=diagnostics["solver"], accuracy=accuracy, diagnostics=diagnostics,
                       **kw)
