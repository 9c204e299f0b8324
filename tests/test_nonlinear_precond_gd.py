"""Unit tests of simulations.optim.nonlinear_precond against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from simulations.optim.nonlinear_precond import (
    anisotropic_upper_bound,
    clipping_reference,
    cos_well_problem,
    cosh_reference,
    descent_check,
    logistic_problem,
    preconditioned_gd,
    quadratic_problem,
    quadratic_reference,
    sample_anisotropic_pairs,
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
