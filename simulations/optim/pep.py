r"""Worst-case values of first-order methods by performance estimation (PEPit).

A performance-estimation problem (PEP; Drori & Teboulle, Math. Program. 2014; Taylor, Hendrickx
& Glineur, Math. Program. 2017) asks for the largest value of a performance measure (e.g.
$f(x_N) - f_\star$) after $N$ steps of a method, over every function of a class and every start
with $\|x_0 - x_\star\|^2 \le R^2$ (or $f(x_0) - f_\star \le \Delta$).  Interpolation conditions
turn it into a semidefinite program; its optimal value is an upper bound valid for *every*
function of the class (not a lower bound from a few runs), and for the classes used here it is
exact.  PEPit (Goujaud, Moucer, Glineur, Hendrickx, Taylor & Dieuleveut, Math. Program. Comput.
2024) builds the SDP; it is solved here by CLARABEL through cvxpy.

:func:`pep_worst_case` is the one entry point: it takes a PEPit function class, its parameters, a
method written as a step function on PEPit points, and returns a :class:`PEPResult` with the
value, the solver status and the solver's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["PEPResult", "pep_worst_case", "gradient_step", "fixed_step_method"]

INITIAL_CONDITIONS = ("distance", "function_gap", "function_decrease")
PERFORMANCE_MEASURES = ("function_gap", "distance", "gradient_norm", "min_gradient_norm")


@dataclass(frozen=True)
class PEPResult:
    """Outcome of one performance-estimation problem.

    Attributes:
        value: the worst-case value of the performance measure (PEPit's dual value, an upper
            bound valid for every function of the class), in the units of the measure.
        status: the SDP solver's status string (``"optimal"`` when solved to its tolerance).
        solver: name of the SDP solver used.
        n_steps: number of steps $N$ of the method.
        primal: the primal SDP's value (a worst-case example's value: a lower bound on the
            worst case, up to the solver's feasibility error).
        gap: ``|value - primal|``, the solver's duality gap in the units of the measure.
        min_gram_eigenvalue: the smallest eigenvalue of the worst-case Gram matrix (>= 0 for a
            feasible example; a negative value measures the primal infeasibility).
        accuracy: the solver's certified accuracy of ``value``: ``gap`` plus the Gram matrix's
            negative part (absolute, in the units of the measure; nan when not solved).
    """

    value: float
    status: str
    solver: str
    n_steps: int
    primal: float = float("nan")
    gap: float = float("nan")
    min_gram_eigenvalue: float = float("nan")
    accuracy: float = float("nan")

    def diagnostics(self) -> dict[str, float | str]:
        """The numbers behind ``accuracy``, for a certificate's record."""
        return {"solver": self.solver, "dual value": self.value, "primal value": self.primal,
                "duality gap": self.gap, "smallest Gram eigenvalue": self.min_gram_eigenvalue}


def gradient_step(gamma: float) -> Callable[[Any, Any, int], Any]:
    r"""The step $x \mapsto x - \gamma \nabla f(x)$ on PEPit points (for :func:`pep_worst_case`).

    Raises:
        ValueError: unless $\gamma > 0$.
    """
    if not gamma > 0:
        raise ValueError(f"the step size gamma must be positive, got {gamma!r}")

    def step(func: Any, x: Any, k: int) -> Any:
        return x - gamma * func.gradient(x)

    return step


def fixed_step_method(gammas: list[float]) -> Callable[[Any, Any, int], Any]:
    r"""Gradient steps $x_{k+1} = x_k - \gamma_k \nabla f(x_k)$ with a given schedule $(\gamma_k)$.

    Raises:
        ValueError: on an empty schedule or a non-positive step.
    """
    if not gammas or any(not g > 0 for g in gammas):
        raise ValueError(f"the schedule must be non-empty with positive steps, got {gammas!r}")

    def step(func: Any, x: Any, k: int) -> Any:
        return x - gammas[k] * func.gradient(x)

    return step


def pep_worst_case(function_class: type, class_params: dict[str, float],
                   step: Callable[[Any, Any, int], Any], n_steps: int, *,
                   initial: str = "distance", radius: float = 1.0,
                   performance: str = "function_gap", solver: str = "CLARABEL",
                   include_last: bool = True) -> PEPResult:
    r"""Worst-case performance of an $N$-step method over a PEPit function class.

    Args:
        function_class: a PEPit class, e.g. ``PEPit.functions.SmoothConvexFunction`` or
            ``SmoothFunction``.
        class_params: its parameters, e.g. ``{"L": 1.0}``.
        step: ``step(func, x, k) -> x_next`` written with PEPit operations (``func.gradient(x)``,
            ``func(x)``), e.g. :func:`gradient_step`.
        n_steps: number of steps $N \ge 1$.
        initial: ``"distance"`` ($\|x_0 - x_\star\|^2 \le R^2$), ``"function_gap"``
            ($f(x_0) - f_\star \le \Delta$, with ``radius`` playing the role of $\Delta$) or
            ``"function_decrease"`` ($f(x_0) - f(x_N) \le \Delta$, the nonconvex setting where
            $f_\star$ need not be attained; Taylor's thesis 2017, p. 190).
        radius: $R$ (or $\Delta$), positive.
        performance: ``"function_gap"`` $f(x_N) - f_\star$; ``"distance"`` $\|x_N - x_\star\|^2$;
            ``"gradient_norm"`` $\|\nabla f(x_N)\|^2$; ``"min_gradient_norm"``
            $\min_{0 \le k \le N} \|\nabla f(x_k)\|^2$.
        solver: cvxpy solver name (CLARABEL: about 1e-9 relative accuracy on these SDPs).
        include_last: for ``"min_gradient_norm"``, False takes the minimum over
            $0 \le k < N$ only (the iterates whose gradients the method has used).

    Returns:
        :class:`PEPResult`; ``status`` is cvxpy's, so callers can refuse a non-optimal solve.

    Raises:
        ValueError: on an unknown initial condition or measure, $N < 1$ or a non-positive radius.
    """
    from PEPit import PEP

    if initial not in INITIAL_CONDITIONS:
        raise ValueError(f"initial must be one of {INITIAL_CONDITIONS}, got {initial!r}")
    if performance not in PERFORMANCE_MEASURES:
        raise ValueError(f"performance must be one of {PERFORMANCE_MEASURES}, got {performance!r}")
    if int(n_steps) != n_steps or n_steps < 1:
        raise ValueError(f"n_steps must be a positive integer, got {n_steps!r}")
    if not radius > 0:
        raise ValueError(f"radius must be positive, got {radius!r}")
    problem = PEP()
    func = problem.declare_function(function_class, **class_params)
    x0 = problem.set_initial_point()
    xs = fs = None
    if initial != "function_decrease" or performance in ("function_gap", "distance"):
        xs = func.stationary_point()
        fs = func(xs)
    if initial == "distance":
        problem.set_initial_condition((x0 - xs) ** 2 <= radius**2)
    elif initial == "function_gap":
        problem.set_initial_condition(func(x0) - fs <= radius)
    x = x0
    points = [x0]
    for k in range(int(n_steps)):
        x = step(func, x, k)
        points.append(x)
    if initial == "function_decrease":
        problem.set_initial_condition(func(x0) - func(x) <= radius)
    if performance == "function_gap":
        problem.set_performance_metric(func(x) - fs)
    elif performance == "distance":
        problem.set_performance_metric((x - xs) ** 2)
    elif performance == "gradient_norm":
        problem.set_performance_metric(func.gradient(x) ** 2)
    else:
        for p in points if include_last else points[:-1]:
            problem.set_performance_metric(func.gradient(p) ** 2)
    value = problem.solve(wrapper="cvxpy", solver=solver, verbose=0)
    status = str(problem.wrapper.prob.status) if value is not None else "unbounded"
    if value is None:
        return PEPResult(value=float("inf"), status=status, solver=solver, n_steps=int(n_steps))
    primal = float(problem.wrapper.prob.value)
    gram = np.asarray(problem.G_value, dtype=float)
    min_eig = float(np.linalg.eigvalsh((gram + gram.T) / 2).min()) if gram.size else 0.0
    gap = abs(float(value) - primal)
    return PEPResult(value=float(value), status=status, solver=solver, n_steps=int(n_steps), primal=primal,
                     gap=gap, min_gram_eigenvalue=min_eig, accuracy=gap + max(0.0, -min_eig))
