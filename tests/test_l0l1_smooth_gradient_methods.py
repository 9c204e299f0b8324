"""Unit tests of simulations.optim.l0l1 and simulations.optim.pep against independent values."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from scipy import integrate, optimize

from simulations.optim.l0l1 import (
    complexity_bound,
    cosh_problem,
    double_well_l0l1_constant,
    double_well_l0l1_problem,
    exp_square_problem,
    function_upper_bound,
    gradient_difference_bound,
    huber_valley_problem,
    l0l1_decrease,
    l0l1_step_size,
    profile_problem,
    quartic_problem,
    run_method,
    sample_pair_inequalities,
    sublevel_smoothness_cosh,
)
from simulations.optim.pep import gradient_step, pep_worst_case
from simulations.optim.profiles import huber_wall


def test_step_size_minimises_the_upper_bound_along_the_gradient():
    # minimise h g^2 - (L0 + L1 g)/L1^2 phi(L1 h g) numerically (scipy), compare with the formula
    for g, L0, L1 in [(0.3, 1.0, 2.0), (5.0, 2.0, 0.5), (100.0, 1.0, 1.0), (1e-4, 3.0, 1.0)]:
        def model(h, g=g, L0=L0, L1=L1):
            t = L1 * h * g
            # divided by g^2 so that the minimiser is well conditioned for small g
            return (-h * g * g + (L0 + L1 * g) / L1**2 * (math.expm1(t) - t)) / (g * g)

        res = optimize.minimize_scalar(model, bounds=(0.0, 10.0 / (L0 + L1 * g)), method="bounded",
                                       options={"xatol": 1e-14})
        assert l0l1_step_size(g, L0, L1) == pytest.approx(res.x, rel=1e-6)
        assert l0l1_decrease(g, L0, L1) == pytest.approx(-res.fun * g * g, rel=1e-6)


def test_step_size_equals_the_integral_form_and_limits():
    # h(g) = int_0^1 dv / (L0 + L1 (g + g v)): Tyurin's step for ell(s) = L0 + L1 s (quadrature)
    for g, L0, L1 in [(0.7, 1.0, 3.0), (20.0, 0.5, 2.0)]:
        val, _ = integrate.quad(lambda v, g=g, L0=L0, L1=L1: 1.0 / (L0 + L1 * (g + g * v)), 0.0, 1.0,
                                epsabs=0, epsrel=1e-13)
        assert l0l1_step_size(g, L0, L1) == pytest.approx(val, rel=1e-12)
    assert l0l1_step_size(0.0, 4.0, 1.0) == 0.25
    assert l0l1_step_size(3.0, 4.0, 0.0) == 0.25
    assert l0l1_step_size(1e6, 1.0, 1.0) * 1e6 == pytest.approx(math.log(2.0), rel=1e-5)
    assert np.allclose(l0l1_step_size(np.array([0.0, 1.0]), 1.0, 1.0), [1.0, math.log1p(0.5)])


def test_decrease_closed_form_and_lower_bound_sympy():
    u = sp.Symbol("u", positive=True)
    omega = (1 + u) * sp.log(1 + u) - u
    # series used for small u matches sympy's
    ser = sp.series(omega, u, 0, 6).removeO()
    assert sp.simplify(ser - (u**2 / 2 - u**3 / 6 + u**4 / 12 - u**5 / 20)) == 0
    for g in (1e-8, 1e-3, 0.5, 10.0, 1e4):
        D = l0l1_decrease(g, 2.0, 1.5)
        assert D >= g * g / (3 * (2.0 + 1.5 * g)) * (1 - 1e-12)
        uu = 1.5 * g / (2.0 + 1.5 * g)
        exact = float(((2.0 + 1.5 * g) / 1.5**2 * omega.subs(u, sp.Float(uu, 40))).evalf(30))
        assert D == pytest.approx(exact, rel=1e-12)
    assert l0l1_decrease(2.0, 4.0, 0.0) == pytest.approx(0.5)


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        l0l1_step_size(-1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        l0l1_step_size(1.0, -1.0, 1.0)
    with pytest.raises(ValueError):
        l0l1_step_size(0.0, 0.0, 1.0)
    with pytest.raises(ValueError):
        cosh_problem(0)
    with pytest.raises(ValueError):
        run_method(cosh_problem(2), np.zeros(3), "l0l1", 5)
    with pytest.raises(ValueError):
        run_method(cosh_problem(2), np.zeros(2), "constant", 5)
    with pytest.raises(ValueError):
        complexity_bound(1.0, 1.0, 1.0, 1.0, 0.0)


def test_bounds_reduce_to_lipschitz_forms():
    g = np.array([1.0, -2.0])
    v = np.array([0.5, 0.25])
    assert function_upper_bound(3.0, g, v, 4.0, 0.0) == pytest.approx(3.0 + 0.0 + 4.0 * (0.3125) / 2)
    assert gradient_difference_bound(2.0, 0.5, 4.0, 0.0) == 2.0
    # small L1: approaches the Lipschitz forms
    assert function_upper_bound(3.0, g, v, 4.0, 1e-8) == pytest.approx(3.625, rel=1e-6)


def test_certified_constants():
    # cosh: ratio (||H|| - L0)/||grad|| <= L1 on a grid; quartic: sup of 12t^2 - 4 t^3 is 16
    t = np.linspace(-8, 8, 20001)
    assert np.max(np.cosh(t) - 1 - np.abs(np.sinh(t))) <= 1e-12
    assert np.max(12 * t**2 - 4 * np.abs(t) ** 3) == pytest.approx(16.0, rel=1e-6)
    x = sp.Symbol("x", positive=True)
    h = 3 * x**2 - 1 - x**3 + x
    crit = [r for r in sp.solve(sp.diff(h, x), x) if r.is_real and r > 1]
    assert float(h.subs(x, crit[0])) == pytest.approx(double_well_l0l1_constant(), rel=1e-14)
    grid = np.linspace(-10, 10, 200001)
    assert np.max(np.abs(3 * grid**2 - 1) - np.abs(grid**3 - grid)) == pytest.approx(
        double_well_l0l1_constant(), rel=1e-8)
    assert not exp_square_problem(1).in_class and not quartic_problem(1, 1.0, L0=8.0).in_class


def test_problems_gradients_by_finite_differences():
    rng = np.random.default_rng(0)
    for p in (cosh_problem(3, 2.0), quartic_problem(3), double_well_l0l1_problem(3), exp_square_problem(2)):
        x = rng.uniform(-1, 1, p.dim)
        fd = optimize.approx_fprime(x, p.f, 1e-7)
        assert np.allclose(fd, p.grad(x), rtol=1e-5, atol=1e-5)
        assert abs(p.f(p.x_star) - p.f_star) < 1e-12


def test_pairs_hold_for_certified_functions_and_fail_outside():
    rng = np.random.default_rng(1)
    ok = sample_pair_inequalities(cosh_problem(2, 1.0), rng, 300)
    assert np.all(ok.lhs <= ok.rhs + ok.slack)
    bad = sample_pair_inequalities(exp_square_problem(2), rng, 300)
    assert np.any(bad.lhs > bad.rhs + bad.slack)


def test_polyak_one_step_on_a_quadratic_like_cosh():
    # Polyak step on 1-D cosh from x: h = (cosh x - 1)/sinh(x)^2 = 1/(cosh x + 1)
    p = cosh_problem(1, 1.0)
    r = run_method(p, np.array([2.0]), "polyak", 1)
    assert r.step[0] == pytest.approx(1.0 / (math.cosh(2.0) + 1.0), rel=1e-14)
    assert sublevel_smoothness_cosh(p, np.array([2.0])) == pytest.approx(math.cosh(2.0), rel=1e-14)


def test_gradient_method_reaches_target():
    p = cosh_problem(2, 1.0)
    r = run_method(p, np.array([6.0, -1.0]), "l0l1", 1000, target_gap=1e-8)
    assert r.reached and p.f(r.x) <= 1e-8
    c = run_method(p, np.array([1.0, 0.0]), "clipped", 2000, target_gap=1e-8, step=0.5, clip=0.1)
    assert c.reached


def test_pep_matches_drori_teboulle_and_taylor():
    from PEPit.functions import SmoothConvexFunction, SmoothFunction

    L, R = 3.0, 2.0
    for n in (1, 3):
        res = pep_worst_case(SmoothConvexFunction, {"L": L}, gradient_step(1.0 / L), n, radius=R)
        assert res.status == "optimal"
        assert res.value == pytest.approx(L * R**2 / (4 * n + 2), rel=1e-6)
    res = pep_worst_case(SmoothFunction, {"L": 1.0}, gradient_step(1.0), 5, initial="function_decrease",
                         radius=1.0, performance="min_gradient_norm")
    assert res.value == pytest.approx(4.0 / 15.0, rel=1e-6)  # 4L/(3N), Taylor (2017)
    with pytest.raises(ValueError):
        pep_worst_case(SmoothConvexFunction, {"L": 1.0}, gradient_step(1.0), 0)


def test_chain_quadratic_against_dense_matrix():
    from simulations.optim.l0l1 import chain_quadratic_problem

    n, L = 9, 2.0
    p = chain_quadratic_problem(n, L)
    T = 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)
    H = L / 4 * T
    e1 = np.eye(n)[0]
    x = np.random.default_rng(0).standard_normal(n)
    assert p.f(x) == pytest.approx(0.5 * x @ H @ x - L / 4 * x[0], rel=1e-12)
    assert np.allclose(p.grad(x), H @ x - L / 4 * e1, atol=1e-12)
    xs = np.linalg.solve(H, L / 4 * e1)
    assert np.allclose(p.x_star, xs, atol=1e-12)
    assert p.f_star == pytest.approx(p.f(xs), abs=1e-12)
    assert p.hess_norm(x) == pytest.approx(np.linalg.eigvalsh(H).max(), rel=1e-12) and p.hess_norm(x) <= L


def test_agmsdr_estimate_sequence_bound_and_convergence():
    # AGMsDR's guarantee f(x_k) - f* <= ||x0 - x*||^2 / (2 A_k), A_k = a_1 + ... + a_k, on a
    # quadratic (L1 = 0) and on a cosh sum (L1 = 1)
    from simulations.optim.l0l1 import agmsdr_run, chain_quadratic_problem

    for p, x0 in ((chain_quadratic_problem(50, 1.0), np.zeros(50)), (cosh_problem(3, 1.0), np.array([3.0, -2.0, 1.0]))):
        r = agmsdr_run(p, x0, 400, target_gap=1e-8)
        A = np.cumsum(r.step)
        R2 = float(np.sum((x0 - p.x_star) ** 2))
        gaps = r.f[1:] - p.f_star
        assert np.all(gaps <= R2 / (2 * A) * (1 + 1e-9) + 1e-12)
    p = cosh_problem(2, 1.0)
    assert agmsdr_run(p, np.array([4.0, 1.0]), 1000, target_gap=1e-6).reached
    with pytest.raises(ValueError):
        agmsdr_run(p, np.zeros(3), 10, target_gap=1e-3)


# ------------------------------------------------------------------ worst-case instances
def test_huber_wall_is_convex_l0l1_smooth_and_integrates():
    L0, L1, delta, rho = 2.0, 0.5, 0.01, 3.0
    prof = huber_wall(L0, L1, delta, rho)
    x = np.linspace(-8, 8, 160001)
    g, h = prof.grad(x), prof.hess(x)
    assert np.all(np.diff(g) >= -1e-12)  # convex: f' non-decreasing
    assert np.all(h <= L0 + L1 * np.abs(g) + 1e-9 * (1 + np.abs(g)))
    assert prof.jumps() <= 1e-12
    val, _ = integrate.quad(lambda t: float(prof.grad(t)[0]), 0.0, 6.0, points=[delta, rho], limit=200)
    assert float(prof.f(6.0)[0]) == pytest.approx(val, rel=1e-9)
    # hand values: f(x) = L0 delta (x - delta/2) on the linear part, f(0) = 0
    assert float(prof.f(1.0)[0]) == pytest.approx(L0 * delta * (1.0 - delta / 2), rel=1e-12)
    assert float(prof.f(-1.0)[0]) == pytest.approx(float(prof.f(1.0)[0]), rel=1e-12)


def test_gradient_method_on_huber_needs_l0_r2_over_4eps_steps():
    # hand count: from R the method moves h(g) g ~ delta per step until |x| <= R/2, so N ~ R/(2 delta)
    L0, L1, R, eps = 1.0, 1.0, 4.0, 0.02
    delta = 2 * eps / (L0 * R)
    p = profile_problem(huber_wall(L0, L1, delta, 4 * R), L0, L1, convex=True)
    r = run_method(p, np.array([R]), "l0l1", 10**6, target_gap=eps, keep_history=False)
    h = l0l1_step_size(L0 * delta, L0, L1)
    expected = math.ceil((R - (eps / (L0 * delta) + delta / 2)) / (h * L0 * delta))
    assert r.reached and abs(r.iterations - expected) <= 1
    assert r.iterations == pytest.approx(L0 * R * R / (4 * eps), rel=0.02)  # L0 h < 1 and the delta/2 offset


def test_normalized_method_bounces_in_the_huber_valley():
    L0, R, eps = 1.0, 4.0, 0.02
    delta = 2 * eps / (L0 * R)
    beta = math.sqrt(eps / L0)
    p = huber_valley_problem(L0, delta)
    assert p.f(np.array([0.3, 0.2])) == pytest.approx(L0 * delta * (0.3 - delta / 2) + L0 * 0.02, rel=1e-12)
    r = run_method(p, np.array([R, beta / 2]), "normalized", 10**6, target_gap=eps, step=beta, keep_history=True)
    # the y coordinate stays at +-beta/2 while x moves by beta * delta / ||(delta, beta/2)|| per step
    per_step = beta * L0 * delta / math.hypot(L0 * delta, L0 * beta / 2)
    assert r.iterations == pytest.approx((R - (eps - L0 * beta**2 / 8) / (L0 * delta)) / per_step, rel=0.02)
    assert np.all(np.abs(np.diff(r.f)) < 1)  # no jump: a slow, steady descent


def test_pair_check_base_is_the_linear_model():
    p = cosh_problem(2, 1.0)
    c = sample_pair_inequalities(p, np.random.default_rng(1), 5)
    assert np.all(c.base[:5] == 0.0)
    # rhs - base is the curvature term (L0 + L1 ||grad f(x)||) phi(L1 r)/L1^2 >= 0, and f(y) - base >= 0 (convex)
    assert np.all(c.rhs[5:] - c.base[5:] >= 0) and np.all(c.lhs[5:] - c.base[5:] >= -1e-12)
