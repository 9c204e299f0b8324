"""Unit tests of simulations.optim.generalized_smoothness against independent values.

References: scipy quadrature (not the closed forms), hand-computed worked values (e^x halves,
-log x moves to 1.5 x), the arctan antiderivative (not the hypergeometric one), finite
differences for gradients and Hessians, and scipy.optimize for the logistic minimum.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from PEPit.functions import SmoothFunction
from scipy import integrate, optimize

from simulations.optim.generalized_smoothness import (
    affine_power_smoothness,
    affine_smoothness,
    constant_smoothness,
    descent_guarantee_quad,
    double_well_antiderivative,
    double_well_certificate,
    double_well_problem,
    exponential_problem,
    exponential_smoothness,
    gradient_descent,
    logistic_sum_problem,
    neg_log_problem,
    one_step_mp,
    power_smoothness,
    scaled_smoothness,
    step_size_mpquad,
    step_size_quad,
    step_size_symbolic,
)
from simulations.optim.pep import gradient_step, pep_worst_case
from simulations.optim.profiles import gradient_descent_1d, v_staircase, v_staircase_corner_value

PROFILES = [
    constant_smoothness(2.0),
    affine_smoothness(1.0, 3.0),
    power_smoothness(1.0, 1),
    power_smoothness(1.0, 2),
    power_smoothness(2.0, Fraction(1, 2)),
    affine_power_smoothness(2.0, 3.0, Fraction(2, 3)),
    affine_power_smoothness(1.0, 2.0, Fraction(3, 2)),
    exponential_smoothness(1.0, 0.5),
]
S_GRID = [1e-6, 1e-3, 0.1, 1.0, 7.0, 50.0]


@pytest.mark.parametrize("sm", PROFILES, ids=lambda sm: sm.name)
@pytest.mark.parametrize("s", S_GRID)
def test_closed_form_matches_scipy_quad(sm, s):
    # scipy's adaptive quadrature at epsrel 1e-13 against the float64 closed form
    assert sm.step_size(s) == pytest.approx(step_size_quad(sm, s), rel=1e-11)


@pytest.mark.parametrize("sm", PROFILES, ids=lambda sm: sm.name)
def test_closed_form_matches_mpmath_quad_at_50_digits(sm):
    with mpmath.workdps(50):
        for s in ("0.001", "0.37", "12.5"):
            quad, err = step_size_mpquad(sm.ell_mp, s, dps=50)
            closed = sm.gamma_mp(mpmath.mpf(s))
            assert abs(closed - quad) <= mpmath.mpf(10) ** -42 * abs(quad)


def test_affine_limits():
    # L1 -> 0 gives 1/L0; s -> 0 gives 1/ell(0) = 1/L0; large s ~ ln2 / (L1 s)
    assert affine_smoothness(4.0, 1e-14).step_size(2.0) == pytest.approx(0.25, rel=1e-12)
    assert affine_smoothness(4.0, 3.0).step_size(1e-12) == pytest.approx(0.25, rel=1e-10)
    assert affine_smoothness(4.0, 3.0).step_size(0.0) == 0.25
    assert affine_smoothness(1e-9, 1.0).step_size(1e3) == pytest.approx(math.log(2) / 1e3, rel=1e-9)


def test_hypergeometric_and_arctan_forms_agree():
    sm = affine_power_smoothness(2.0, 3.0, Fraction(2, 3))
    with mpmath.workdps(50):
        for s in ("1e-5", "0.02", "1", "300"):
            s = mpmath.mpf(s)
            arctan = (double_well_antiderivative(2 * s, 2, 3) - double_well_antiderivative(s, 2, 3)) / s
            assert abs(sm.gamma_mp(s) - arctan) <= mpmath.mpf(10) ** -40 * arctan


def test_symbolic_step_size():
    s, L = sp.symbols("s L", positive=True)
    assert sp.simplify(step_size_symbolic(lambda u: L + 0 * u, s) - 1 / L) == 0
    assert sp.simplify(step_size_symbolic(lambda u: u**2, s) - 1 / (2 * s**2)) == 0


# ------------------------------------------------------------------ worked values from the notes
@pytest.mark.parametrize("x0", [-2.0, 0.0, 1.5])
def test_exp_worked_values(x0):
    problem = exponential_problem()
    s = math.exp(x0)
    assert problem.smoothness.step_size(s) == pytest.approx(math.log(2) / s, rel=1e-14)
    traj = gradient_descent(problem, x0, 5)
    assert np.allclose(np.diff(traj.x[:, 0]), -math.log(2), rtol=0, atol=1e-12)
    assert np.allclose(traj.f[1:] / traj.f[:-1], 0.5, rtol=1e-12)
    # tight decrease (2 ln2 - 1) s and the claimed gamma s^2/2 = (ln 2 / 2) s
    assert descent_guarantee_quad(problem.smoothness, s) == pytest.approx((2 * math.log(2) - 1) * s, rel=1e-12)
    out = one_step_mp(problem, [x0])
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(x0))
        assert abs(out["decrease"] - e / 2) <= mpmath.mpf(10) ** -45 * e
        assert abs(out["bound"] - mpmath.log(2) * e / 2) <= mpmath.mpf(10) ** -45 * e


def test_exp_misspecified_ell_violates_at_first_step():
    problem = exponential_problem()
    wrong = scaled_smoothness(problem.smoothness, 4.0)  # ell(s) = s/4
    out = one_step_mp(problem, [0.3], smoothness=wrong)
    s = math.exp(0.3)
    assert float(out["decrease"]) == pytest.approx(15 / 16 * s, rel=1e-14)
    assert float(out["bound"]) == pytest.approx(2 * math.log(2) * s, rel=1e-14)
    assert out["decrease"] < out["bound"]


@pytest.mark.parametrize("x0", [0.01, 0.7, 30.0])
def test_neg_log_worked_values(x0):
    problem = neg_log_problem()
    assert problem.smoothness.step_size(1 / x0) == pytest.approx(x0**2 / 2, rel=1e-14)
    traj = gradient_descent(problem, x0, 4)
    assert np.allclose(traj.x[1:, 0] / traj.x[:-1, 0], 1.5, rtol=1e-14)
    assert np.allclose(traj.f[:-1] - traj.f[1:], math.log(1.5), rtol=1e-10)
    assert descent_guarantee_quad(problem.smoothness, 1 / x0) == pytest.approx(1 - math.log(2), rel=1e-12)
    out = one_step_mp(problem, [x0])
    assert float(out["bound"]) == pytest.approx(0.25, rel=1e-14)
    assert float(out["decrease"]) == pytest.approx(math.log(1.5), rel=1e-14)


@pytest.mark.parametrize("sm", PROFILES, ids=lambda sm: sm.name)
def test_chebyshev_tight_descent_exceeds_half_gamma(sm):
    for s in (1e-3, 0.5, 4.0):
        assert descent_guarantee_quad(sm, s) >= 0.5 * sm.step_size(s) * s * s * (1 - 1e-12)


# ------------------------------------------------------------------ test problems
def _fd_grad(f, x, h=1e-6):
    e = np.eye(x.size)
    return np.array([(f(x + h * e[i]) - f(x - h * e[i])) / (2 * h) for i in range(x.size)])


def _fd_hess(grad, x, h=1e-6):
    e = np.eye(x.size)
    return np.array([(grad(x + h * e[i]) - grad(x - h * e[i])) / (2 * h) for i in range(x.size)])


def _problems():
    rng = np.random.default_rng(7)
    A = rng.standard_normal((30, 4))
    return [
        (exponential_problem(), lambda r: r.uniform(-2, 2, 1)),
        (neg_log_problem(), lambda r: r.uniform(0.3, 5, 1)),
        (logistic_sum_problem(A), lambda r: r.normal(0, 1, 4)),
        (double_well_problem(3), lambda r: r.uniform(-2, 2, 3)),
    ]


@pytest.mark.parametrize("problem,draw", _problems(), ids=lambda p: getattr(p, "name", ""))
def test_gradients_and_certified_ell(problem, draw):
    rng = np.random.default_rng(3)
    for _ in range(10):
        x = draw(rng)
        g = problem.grad(x)
        assert np.allclose(g, _fd_grad(problem.f, x), rtol=1e-6, atol=1e-7)
        with mpmath.workdps(30):
            g_mp = problem.grad_mp([mpmath.mpf(float(v)) for v in x])
            assert np.allclose([float(v) for v in g_mp], g, rtol=1e-13, atol=1e-15)
            assert float(problem.f_mp([mpmath.mpf(float(v)) for v in x])) == pytest.approx(problem.f(x), rel=1e-13)
        H = _fd_hess(problem.grad, x)
        assert np.allclose(H, problem.hessian(x), rtol=1e-5, atol=1e-6)
        assert np.linalg.norm(problem.hessian(x), 2) <= problem.smoothness(np.linalg.norm(g)) * (1 + 1e-12)


def test_logistic_minimum_against_scipy():
    rng = np.random.default_rng(11)
    A = rng.standard_normal((40, 5))
    problem = logistic_sum_problem(A)
    res = optimize.minimize(problem.f, np.zeros(5), jac=problem.grad, method="BFGS",
                            options={"gtol": 1e-11})
    assert problem.f_star == pytest.approx(res.fun, rel=1e-11)
    assert problem.smoothness.params["L"] == pytest.approx(np.linalg.svd(A, compute_uv=False)[0] ** 2 / 4)


def test_logistic_separable_raises():
    A = np.abs(np.random.default_rng(0).standard_normal((10, 2)))  # all rows in one orthant
    with pytest.raises(ValueError, match="separable"):
        logistic_sum_problem(A)


def test_double_well_certificate():
    # hand derivation: sup_x |3x^2 - 1| - 3|x^3 - x|^(2/3) = 2, attained at x = 1
    assert double_well_certificate(3.0, n_grid=2001) == pytest.approx(2.0, abs=1e-12)
    x = np.linspace(-10, 10, 200001)
    assert np.max(np.abs(3 * x**2 - 1) - (2 + 3 * np.abs(x**3 - x) ** (2 / 3))) <= 1e-12
    with pytest.raises(ValueError):
        double_well_certificate(2.5)


def test_double_well_converges_and_f_star():
    problem = double_well_problem(2)
    traj = gradient_descent(problem, [0.3, -2.5], 500)
    assert traj.f[-1] == pytest.approx(problem.f_star, abs=1e-12)
    assert np.all(np.diff(traj.f) <= 1e-15)
    assert traj.step.shape == (len(traj.f) - 1,)


def test_constant_step_and_stationary_stop():
    problem = double_well_problem(1)
    traj = gradient_descent(problem, [1.0], 10)  # exact stationary point
    assert traj.stopped == "exact stationary point" and len(traj.f) == 1
    traj = gradient_descent(problem, [2.0], 3, constant_step=0.01)
    assert np.allclose(traj.step, 0.01)
    assert traj.x[1, 0] == pytest.approx(2.0 - 0.01 * 6.0)


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        constant_smoothness(0.0)
    with pytest.raises(ValueError):
        affine_smoothness(1.0, -1.0)
    with pytest.raises(ValueError):
        constant_smoothness(1.0).step_size(-1.0)
    with pytest.raises(ValueError):
        step_size_quad(constant_smoothness(1.0), 0.0)
    with pytest.raises(ValueError):
        gradient_descent(double_well_problem(2), [1.0], 3)
    with pytest.raises(ValueError):
        gradient_descent(neg_log_problem(), [-1.0], 3)
    with pytest.raises(ValueError):
        double_well_problem(0)


def test_tightest_best_iterate_by_hand():
    from simulations.optim import tightest_best_iterate

    # measure 4, 1, 3 and constant 6: running minimum 4, 1, 1 against 6, 3, 2 -> ratios 2/3, 1/3, 1/2.
    assert tightest_best_iterate(np.array([4.0, 1.0, 3.0]), 6.0) == (1, 4.0, 6.0)
    assert tightest_best_iterate(np.array([1.0, 1.0, 1.0]), 3.0) == (3, 1.0, 1.0)
    with pytest.raises(ValueError):
        tightest_best_iterate(np.array([]), 1.0)


# ------------------------------------------------------------------ V-staircase worst-case profiles
def test_closed_form_identities_symbolic():
    # the (L0, L1) closed form and its L1 -> 0 limit, integrated by sympy (not by the closed form)
    s, L, L0, L1 = sp.symbols("s L L_0 L_1", positive=True)
    affine = step_size_symbolic(lambda u: L0 + L1 * u, s)
    closed = sp.log((L0 + 2 * L1 * s) / (L0 + L1 * s)) / (L1 * s)
    assert sp.simplify(sp.expand_log(L1 * s * (affine - closed), force=True)) == 0
    assert sp.limit(closed, L1, 0) == 1 / L0
    assert sp.simplify(step_size_symbolic(lambda u: u, s) - sp.log(2) / s) == 0


def _profile_checks(profile, ell, lo, hi, n=20001):
    x = np.linspace(lo, hi, n)
    g, h = profile.grad(x), profile.hess(x)
    assert np.all(np.abs(h) <= ell(np.abs(g)) * (1 + 1e-9) + 1e-12)
    assert profile.jumps() <= 1e-9
    # f from the glued antiderivatives against scipy's quadrature of f'
    for a, b in [(lo, hi), (lo / 3, hi / 2)]:
        val, _ = integrate.quad(lambda t: float(profile.grad(t)[0]), a, b, limit=500,
                                points=[p for p in profile.breaks if a < p < b][:400])
        assert float(profile.f(b)[0] - profile.f(a)[0]) == pytest.approx(val, rel=1e-7, abs=1e-10)
    assert np.min(profile.f(x)) >= -1e-12 * max(1.0, float(np.max(np.abs(profile.f(x)))))


@pytest.mark.parametrize("L0,L1,g,T", [(2.0, 0.0, 3.0, 4), (1.0, 1.0, 50.0, 6), (1.0, 2.0, 0.3, 3)])
def test_v_staircase_is_in_the_class_and_keeps_the_gradient(L0, L1, g, T):
    sm = affine_smoothness(L0, L1) if L1 > 0 else constant_smoothness(L0)
    prof = v_staircase(L0, L1, g, T, sm.step_size)
    S = float(sm.step_size(g)) * g
    _profile_checks(prof, sm, prof.x_min - 3 * S - 1.0, 2 * S)
    x, f, gr = gradient_descent_1d(prof, 0.0, T, sm.step_size)
    assert np.allclose(gr[:T], g, rtol=1e-12)
    assert np.allclose(x[:T], -np.arange(T) * S, rtol=0, atol=1e-12 * T * S)
    assert f[0] > 0 and prof.f_min == 0.0


@pytest.mark.parametrize("T", [1, 2, 3, 4])
def test_v_staircase_attains_the_pep_worst_case_in_the_L_corner(T):
    # hand derivation: Delta = (3T - 1) g^2 / (4L); PEPit's worst case over all L-smooth functions
    L, g = 2.0, 1.5
    prof = v_staircase(L, 0.0, g, T, lambda s: 1.0 / L)
    delta = float(prof.f(0.0)[0])
    assert delta == pytest.approx((3 * T - 1) * g * g / (4 * L), rel=1e-7)
    assert v_staircase_corner_value(L, delta, T) == pytest.approx(g * g, rel=1e-7)
    res = pep_worst_case(SmoothFunction, {"L": L}, gradient_step(1.0 / L), T, initial="function_decrease",
                         radius=delta, performance="min_gradient_norm", include_last=False)
    assert res.value == pytest.approx(g * g, rel=1e-5)


def test_steepest_decay_profile_one_step_values():
    # T = 1 with ell = L0 + L1 s: f' = (g + a) e^{L1 x} - a on [x*, 0], a = L0/L1 (hand integral)
    L0, L1, g = 1.0, 1.0, 10.0
    sm = affine_smoothness(L0, L1)
    prof = v_staircase(L0, L1, g, 1, sm.step_size)
    a = L0 / L1
    xs = -math.log1p(g / a)
    assert prof.x_min == pytest.approx(xs, rel=1e-8)
    exact = (g + a) * (1 - math.exp(L1 * xs)) / L1 + a * xs
    assert float(prof.f(0.0)[0]) == pytest.approx(exact, rel=1e-9)
    h = float(sm.step_size(g))
    step_dec = (g + a) * (1 - math.exp(-L1 * h * g)) / L1 - a * h * g
    assert float(prof.f(0.0)[0] - prof.f(-h * g)[0]) == pytest.approx(step_dec, rel=1e-9)


def test_v_staircase_rejects_bad_inputs():
    with pytest.raises(ValueError):
        v_staircase(0.0, 1.0, 1.0, 2, lambda s: 1.0)
    with pytest.raises(ValueError):
        v_staircase(1.0, 1.0, -1.0, 2, lambda s: 1.0)
    with pytest.raises(ValueError):
        v_staircase(1.0, 0.0, 1.0, 2, lambda s: 3.0)  # a V would cross f' = 0
    with pytest.raises(ValueError):
        v_staircase(1.0, 0.0, 1.0, 0, lambda s: 1.0)
