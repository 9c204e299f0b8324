"""Unit tests of simulations.optim.nonlinear_precond against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from scipy import optimize

from simulations.optim.nonlinear_precond import (
    anisotropic_pair,
    anisotropic_upper_bound,
    clipping_reference,
    cos_well_problem,
    cosh_reference,
    descent_check,
    l0l1_cross_function,
    logistic_problem,
    preconditioned_gd,
    quadratic_problem,
    quadratic_reference,
    sample_anisotropic_pairs,
    second_order_value,
)
from simulations.optim.profiles import (
    clipping_kernel,
    cosh_kernel,
    preconditioned_descent_1d,
    reference_v_staircase,
)


@pytest.mark.parametrize("ref", [quadratic_reference(), clipping_reference(), cosh_reference()])
def test_grad_phi_star_is_the_maximiser_of_the_conjugate(ref):
    # phi*(y) = sup_z <y, z> - phi(z), attained at z = grad phi*(y): check by numerical optimisation
    rng = np.random.default_rng(0)
    for _ in range(3):
        y = rng.standard_normal(3)
        z = ref.grad_phi_star(y)
        res = optimize.minimize(lambda v, y=y: -(y @ v - ref.phi(v)), np.zeros(3), method="Nelder-Mead",
                                options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 20000})
        assert np.allclose(res.x, z, atol=1e-5)
        assert ref.phi_star(y) == pytest.approx(y @ z - ref.phi(z), rel=1e-10, abs=1e-12)
        assert -res.fun == pytest.approx(ref.phi_star(y), rel=1e-7, abs=1e-9)


def test_clipping_reference_values():
    ref = clipping_reference()
    y = np.array([3.0, 4.0])
    assert np.allclose(ref.grad_phi_star(y), y / 6.0)
    assert ref.phi(np.array([0.6, 0.8])) == math.inf
    assert ref.phi(np.array([0.3, 0.4])) == pytest.approx(-0.5 - math.log(0.5))
    assert ref.phi_star(y) == pytest.approx(5 - math.log(6))


def test_quadratic_reference_bound_is_the_descent_lemma():
    rng = np.random.default_rng(1)
    xb, x, g = rng.standard_normal((3, 4))
    L = 2.5
    expected = 1.0 + g @ (x - xb) + L / 2 * np.sum((x - xb) ** 2)
    assert anisotropic_upper_bound(1.0, g, xb, x, L, 1.0, quadratic_reference()) == pytest.approx(expected, rel=1e-12)


def test_preconditioned_gd_reduces_to_gd_and_to_clipping():
    H = np.diag([1.0, 2.0])
    p = quadratic_problem(H)
    xs = preconditioned_gd(p.grad, np.array([1.0, 1.0]), 0.5, 1.0, quadratic_reference(), 2)
    assert np.allclose(xs[1], [0.5, 0.0]) and np.allclose(xs[2], [0.25, 0.0])
    xc = preconditioned_gd(p.grad, np.array([3.0, 4.0]), 1.0, 1.0, clipping_reference(), 1)
    g = np.array([3.0, 8.0])
    assert np.allclose(xc[1], np.array([3.0, 4.0]) - g / (1 + np.linalg.norm(g)))


def test_problems():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((30, 3))
    b = np.where(rng.standard_normal(30) > 0, 1.0, -1.0)
    p = logistic_problem(A, b)
    x = rng.standard_normal(3)
    assert np.allclose(optimize.approx_fprime(x, p.f, 1e-7), p.grad(x), atol=1e-6)
    # L_f bounds the Hessian: (1/4n) A^T A
    assert p.L_f == pytest.approx(np.linalg.eigvalsh(A.T @ A).max() / 120)
    c = cos_well_problem(2)
    t = optimize.minimize_scalar(lambda s: s * s / 2 + 2 * math.cos(s), bounds=(0.5, 3), method="bounded",
                                 options={"xatol": 1e-12})
    assert c.f_star == pytest.approx(2 * t.fun, abs=1e-12)
    assert np.allclose(optimize.approx_fprime(x[:2], c.f, 1e-7), c.grad(x[:2]), atol=1e-6)
    with pytest.raises(ValueError):
        quadratic_problem(np.array([[1.0, 0.0], [0.0, -1.0]]))
    with pytest.raises(ValueError):
        cos_well_problem(2, a=0.5)
    with pytest.raises(ValueError):
        preconditioned_gd(c.grad, np.zeros(2), -1.0, 1.0, quadratic_reference(), 3)


def test_pairs_and_descent():
    rng = np.random.default_rng(3)
    p = cos_well_problem(3)
    out = sample_anisotropic_pairs(p, clipping_reference(), rng, 200, p.L_f, 1.0, rho_max=0.999)
    assert out.lhs.size == 200 and np.all(out.lhs <= out.rhs + out.slack)
    bad = sample_anisotropic_pairs(quadratic_problem(np.eye(3) * 4.0), quadratic_reference(), rng, 200, 1.0, 1.0)
    assert np.any(bad.lhs > bad.rhs + bad.slack)
    fs, dec, guar = descent_check(p, cosh_reference(), np.array([2.0, -1.0, 0.5]), p.L_f, 1.0, 20)
    assert np.all(dec >= guar - 1e-12)


# ------------------------------------------------------------------ second-order condition, tight families
def _jacobian_fd(fun, y, h=1e-6):
    e = np.eye(y.size)
    return np.array([(fun(y + h * e[i]) - fun(y - h * e[i])) / (2 * h) for i in range(y.size)]).T


@pytest.mark.parametrize("kernel", [clipping_kernel(), cosh_kernel()], ids=lambda k: k.name)
def test_hessian_of_the_conjugate_by_finite_differences(kernel):
    ref = clipping_reference() if kernel.t_max == 1.0 else None
    rng = np.random.default_rng(5)
    for _ in range(5):
        y = rng.normal(0, 2, 3)
        if ref is not None:
            J = _jacobian_fd(ref.grad_phi_star, y)
        else:  # isotropic cosh: grad phi*(y) = arcsinh(|y|) y/|y|
            J = _jacobian_fd(lambda v: np.arcsinh(np.linalg.norm(v)) * v / np.linalg.norm(v), y)
        assert np.allclose(kernel.hessian_conj(y), J, rtol=1e-6, atol=1e-8)


def test_second_order_value_against_the_eigenvalues_of_the_product():
    rng = np.random.default_rng(2)
    k = clipping_kernel()
    for _ in range(5):
        g = rng.normal(0, 3, 3)
        A = rng.normal(size=(3, 3))
        H = A + A.T
        P = k.hessian_conj(g / 2.0)
        assert second_order_value(g, H, k, 2.0) == pytest.approx(float(np.max(np.linalg.eigvals(P @ H).real)),
                                                                  rel=1e-10)


def test_cross_function_is_l0l1_smooth_and_tight():
    # symbolic: L1^2 a^2 + c^2 (C^2 - 1) - (c C - L0)^2 = 2 L0 c (C - 1) with c = L0 + L1 a
    L0s, L1s, a_s, C = sp.symbols("L0 L1 a C", positive=True)
    c = L0s + L1s * a_s
    assert sp.expand(L1s**2 * a_s**2 + c**2 * (C**2 - 1) - (c * C - L0s) ** 2 - 2 * L0s * c * (C - 1)) == 0
    L0, L1 = 2.0, 0.5
    k = clipping_kernel()
    for a in (0.0, 0.3, 40.0, 1e4):
        f, grad, hess = l0l1_cross_function(L0, L1, a)
        for x2 in np.linspace(-30, 30, 241):
            x = np.array([0.7, x2])
            assert np.linalg.norm(hess(x), 2) <= (L0 + L1 * np.linalg.norm(grad(x))) * (1 + 1e-12)
            if abs(x2) <= 3:  # finite differences where f is of moderate size
                fd = [(f(x + [1e-6, 0]) - f(x - [1e-6, 0])) / 2e-6, (f(x + [0, 1e-6]) - f(x - [0, 1e-6])) / 2e-6]
                assert np.allclose(grad(x), fd, rtol=1e-5, atol=1e-4 * (1 + a))
        # hand value at x2 = 0: (L0 + L1 a) / (1 + L1 a / L0) = L0
        assert second_order_value(grad(np.zeros(2)), hess(np.zeros(2)), k, L0 / L1) == pytest.approx(L0, rel=1e-12)


@pytest.mark.parametrize("kernel", [clipping_kernel(), cosh_kernel()], ids=lambda k: k.name)
def test_reference_v_staircase_meets_the_second_order_condition(kernel):
    L, Lbar, g, T = 3.0, 1.5, 20.0, 4
    prof = reference_v_staircase(kernel, L, Lbar, g, T, L_method=1.001 * L)
    x = np.linspace(prof.x_min - 1.0, 0.5, 40001)
    fp, fs = prof.grad(x), prof.hess(x)
    lhs = kernel.d2h_conj(np.abs(fp) / Lbar) * fs
    assert np.all(lhs <= L * Lbar * (1 + 1e-9))
    assert np.max(lhs) == pytest.approx(L * Lbar, rel=1e-9)  # equality on the model pieces
    assert prof.jumps() <= 1e-9
    xs, f, gr = preconditioned_descent_1d(prof, kernel, 1.001 * L, Lbar, 0.0, T)
    assert np.allclose(gr[:T], g, rtol=1e-10)


@pytest.mark.parametrize("kernel", [clipping_kernel(), cosh_kernel()], ids=lambda k: k.name)
def test_reference_v_staircase_satisfies_definition_2_1_on_pairs(kernel):
    L, Lbar, g, T = 2.0, 1.0, 5.0, 3
    Lm = 1.01 * L
    prof = reference_v_staircase(kernel, L, Lbar, g, T, L_method=Lm)
    ref = clipping_reference() if kernel.t_max == 1.0 else _isotropic_cosh_1d()
    rng = np.random.default_rng(4)
    worst = -np.inf
    for _ in range(3000):
        xb = rng.uniform(prof.x_min - 0.5, 0.5)
        gb = float(prof.grad(xb)[0])
        yb = xb - float(ref.grad_phi_star(np.array([gb / Lbar]))[0]) / Lm
        x = yb + rng.uniform(-0.999, 0.999) / Lm
        rhs = anisotropic_upper_bound(float(prof.f(xb)[0]), np.array([gb]), np.array([xb]), np.array([x]), Lm,
                                      Lbar, ref)
        if math.isfinite(rhs):
            worst = max(worst, float(prof.f(x)[0]) - rhs)
    assert worst <= 1e-9


def _isotropic_cosh_1d():
    from simulations.optim.nonlinear_precond import Reference

    return Reference("cosh", phi=lambda z: float(np.sum(2 * np.sinh(np.abs(z) / 2) ** 2)),
                     grad_phi_star=lambda y: np.arcsinh(np.asarray(y, dtype=float)),
                     phi_star=lambda y: float(np.sum(y * np.arcsinh(y) - np.sqrt(1 + y * y) + 1)))


@pytest.mark.parametrize("kernel", [clipping_kernel(), cosh_kernel()], ids=lambda k: k.name)
def test_one_step_on_the_model_is_an_equality(kernel):
    # T = 1 and L_method = L: the step lands on the model's minimiser; decrease = (Lbar/L) h(t)
    L, Lbar = 2.0, 0.5
    for g in (0.01, 3.0, 400.0):
        prof = reference_v_staircase(kernel, L, Lbar, g, 1)
        xs, f, gr = preconditioned_descent_1d(prof, kernel, L, Lbar, 0.0, 1)
        t = float(kernel.dh_conj(np.array([g / Lbar]))[0])
        assert f[0] - f[1] == pytest.approx(Lbar / L * float(kernel.h(np.array([t]))[0]), rel=1e-9)


def test_anisotropic_pair_is_the_descent_lemma_for_the_quadratic_reference():
    H = np.diag([1.0, 3.0])
    p = quadratic_problem(H)
    xb, x = np.array([0.4, -1.0]), np.array([2.0, 0.5])
    m, b = anisotropic_pair(p, quadratic_reference(), xb, x, 3.0, 1.0)
    g = H @ xb
    # measured - bound = f(x) - [f(xb) + <g, x - xb> + (L/2)||x - xb||^2]
    assert m - b == pytest.approx(p.f(x) - p.f(xb) - g @ (x - xb) - 1.5 * (x - xb) @ (x - xb), rel=1e-12)


def test_reference_v_staircase_with_a_misspecified_method_constant():
    k = clipping_kernel()
    with pytest.raises(ValueError, match="half"):
        reference_v_staircase(k, 2.0, 1.0, 5.0, 3, L_method=0.9)
    prof = reference_v_staircase(k, 2.0, 1.0, 5.0, 3, L_method=1.2)  # steps 2/1.2 times the class's
    xs, f, gr = preconditioned_descent_1d(prof, k, 1.2, 1.0, 0.0, 3)
    assert np.allclose(gr[:3], 5.0, rtol=1e-10) and prof.jumps() <= 1e-9
