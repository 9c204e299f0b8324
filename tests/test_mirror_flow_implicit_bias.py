"""Unit tests of simulations.mirror against independent computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, optimize

from simulations.mirror import (
    POTENTIALS,
    abs_kernel_interpolant,
    bregman_limit,
    init_network,
    kernel_interpolant,
    mirror_descent,
    network_output,
    relu_kernel,
    variational_solution,
)


def test_relu_kernel_against_quadrature():
    B = 2.0
    pts = np.array([-2.5, -1.0, 0.0, 0.4, 1.7])

    def by_quad(a, c):
        f = lambda b: 0.5 * (max(a - b, 0) * max(c - b, 0) + max(-a - b, 0) * max(-c - b, 0)) / (2 * B)  # noqa: E731
        return integrate.quad(f, -B, B, points=sorted({a, c, -a, -c}), epsabs=1e-13)[0] + 1.0

    K = relu_kernel(pts, pts, B)
    assert np.allclose(K, [[by_quad(a, c) for c in pts] for a in pts], atol=1e-12)


@pytest.mark.parametrize("name", list(POTENTIALS))
def test_potentials_invert_and_differentiate(name):
    pot = POTENTIALS[name]
    u = np.linspace(-3, 3, 13)
    assert np.allclose(pot.grad_inverse(pot.grad(u)), u, atol=1e-12)
    phi = {"x^2": lambda v: v**2, "|x|^3+x^2": lambda v: np.abs(v) ** 3 + v**2, "x^4+x^2": lambda v: v**4 + v**2}[name]
    h = 1e-6
    assert np.allclose((phi(u + h) - phi(u - h)) / (2 * h), pot.grad(u), atol=1e-6)
    assert pot.curvature0 == pytest.approx((phi(h) - 2 * phi(0.0) + phi(-h)) / h**2, rel=1e-3)


def test_variational_problem_is_the_kernel_interpolant():
    # our function-space form of the limit (Theorem 2's form) against the representer-theorem solution
    x = np.array([-1.0, 0.0, 1.0])
    grid = np.linspace(-1.5, 1.5, 61)
    for y in (np.array([0.6, 0.1, -0.5]), np.array([0.2, -0.3, 0.1])):
        v = variational_solution(x, y, grid, 2.0, cells=2400)
        k = kernel_interpolant(x, y, grid, 2.0)
        assert np.max(np.abs(v - k)) < 2e-5 * max(1.0, np.max(np.abs(k)))
    with pytest.raises(ValueError):
        variational_solution(np.array([0.3333]), np.array([1.0]), grid, 2.0, cells=100)


def test_quadratic_mirror_descent_is_gradient_descent():
    rng = np.random.default_rng(0)
    x, y = np.array([-1.0, 0.0, 1.0]), np.array([0.6, 0.1, -0.5])
    p0 = init_network(rng, 50, 2.0)
    run = mirror_descent(p0, x, y, POTENTIALS["x^2"], step=0.4, tol=1e-3)
    # plain gradient descent with step 0.4 / phi''(0) = 0.2, written out independently, for as many steps
    a, w, b, d = p0["a"].copy(), p0["w"].copy(), p0["b"].copy(), 0.0
    n = a.size
    for _ in range(run.steps):
        pre = np.outer(x, w) - b
        h = np.maximum(pre, 0)
        r = h @ a / np.sqrt(n) + d - y
        ga = h.T @ r / np.sqrt(n)
        gp = (r[:, None] * (pre > 0)) * a / np.sqrt(n)
        a, w, b, d = a - 0.2 * ga, w - 0.2 * (gp.T @ x), b + 0.2 * gp.sum(axis=0), d - 0.2 * r.sum()
    assert run.steps > 10
    assert np.allclose(run.params["a"], a, atol=1e-12) and np.allclose(run.params["b"], b, atol=1e-12)
    assert run.params["d"] == pytest.approx(d, abs=1e-12)


def test_output_layer_mirror_descent_is_the_bregman_projection():
    # a linear model: mirror descent converges to argmin sum phi(a_k) s.t. H a = y (Gunasekar et al. 2018)
    rng = np.random.default_rng(1)
    x, y = np.array([-1.0, 0.0, 1.0]), np.array([0.5, -0.4, 0.3])
    n = 20
    p0 = init_network(rng, n, 2.0)
    run = mirror_descent(p0, x, y, POTENTIALS["x^4+x^2"], step=0.3, activation="abs", train_bias=False,
                         train_hidden=False, tol=1e-22, max_steps=400_000)
    H = np.abs(np.outer(x, p0["w"]) - p0["b"]) / np.sqrt(n)
    res = optimize.minimize(lambda a: np.sum(a**4 + a**2), np.zeros(n), jac=lambda a: 4 * a**3 + 2 * a,
                            constraints=[{"type": "eq", "fun": lambda a: H @ a - y, "jac": lambda a: H}],
                            method="SLSQP", options={"ftol": 1e-15, "maxiter": 1000})
    assert np.allclose(run.params["a"], res.x, atol=1e-6)


def test_bregman_limit_of_the_quadratic_is_the_kernel_interpolant():
    x, y = np.array([-1.0, 0.0, 1.0]), np.array([1.0, -1.5, 0.5])
    grid = np.linspace(-1.5, 1.5, 31)
    br = bregman_limit(x, y, grid, POTENTIALS["x^2"], 2.0, nodes=4000)
    assert np.allclose(br, abs_kernel_interpolant(x, y, grid, 2.0, nodes=4000), atol=1e-10)
    assert np.allclose(bregman_limit(x, y, x, POTENTIALS["x^4+x^2"], 2.0, nodes=4000), y, atol=1e-9)


def test_network_output_and_initialisation():
    rng = np.random.default_rng(2)
    p = init_network(rng, 10, 1.5)
    assert np.all(np.abs(p["b"]) <= 1.5) and set(np.unique(p["w"])) == {-1.0, 1.0} and np.sum(p["w"]) == 0
    p["a"] = np.arange(10.0)
    x = np.array([0.3])
    expected = np.sum(p["a"] * np.maximum(p["w"] * 0.3 - p["b"], 0)) / np.sqrt(10)
    assert network_output(p, x)[0] == pytest.approx(expected)
    with pytest.raises(ValueError):
        init_network(rng, 1, 1.0)
