"""Unit tests of simulations.optim.subset_norm with hand-computed steps."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from simulations.optim.subset_norm import (
    adagrad_coordinate_reference,
    adagrad_norm_reference,
    contiguous_subsets,
    quad_cos_problem,
    rate_trial,
    run_adaptive,
    sgd_momentum_reference,
    subset_norm_run,
    subspace_momentum_memory,
    subspace_momentum_run,
)


def const_grad(g):
    g = np.asarray(g, dtype=float)
    return lambda x, t: g.copy()


def test_subsets():
    assert contiguous_subsets(5, 2).tolist() == [0, 0, 1, 1, 2]
    with pytest.raises(ValueError):
        contiguous_subsets(3, 4)


def test_subset_norm_by_hand():
    # g = (3, 4, 12) constant, subsets {0,1}, {2}, eta = 1, b0 = 1
    xs, c = subset_norm_run(const_grad([3.0, 4.0, 12.0]), np.zeros(3), np.array([0, 0, 1]), 1.0, 1.0, 2)
    assert c == 2
    b1 = np.array([math.sqrt(1 + 25), math.sqrt(1 + 25), math.sqrt(1 + 144)])
    assert np.allclose(xs[1], -np.array([3.0, 4.0, 12.0]) / b1, rtol=1e-15)
    b2 = np.array([math.sqrt(1 + 50), math.sqrt(1 + 50), math.sqrt(1 + 288)])
    assert np.allclose(xs[2], xs[1] - np.array([3.0, 4.0, 12.0]) / b2, rtol=1e-15)


def test_references_by_hand():
    g = [3.0, 4.0]
    xn = adagrad_norm_reference(const_grad(g), np.zeros(2), 2.0, 0.0 + 1e-300, 1)
    assert np.allclose(xn[1], -2.0 * np.array(g) / 5.0)
    xc = adagrad_coordinate_reference(const_grad(g), np.zeros(2), 1.0, 1e-300, 1)
    assert np.allclose(xc[1], [-1.0, -1.0])
    xm = sgd_momentum_reference(const_grad(g), np.zeros(2), 1.0, 0.5, 2)
    assert np.allclose(xm[1], [-1.5, -2.0]) and np.allclose(xm[2], [-1.5 - 2.25, -2.0 - 3.0])


def test_subspace_momentum_by_hand():
    # P = e1 (k = 1): momentum on the first coordinate, plain SGD on the second
    P = np.array([[1.0, 0.0]])
    xs = subspace_momentum_run(const_grad([2.0, 2.0]), np.zeros(2), P, 1.0, 0.5, 2)
    assert np.allclose(xs[1], [-1.0, -2.0]) and np.allclose(xs[2], [-2.5, -4.0])
    with pytest.raises(ValueError):
        subspace_momentum_run(const_grad([1.0, 1.0]), np.zeros(2), np.array([[1.0, 1.0]]), 1.0, 0.5, 1)
    assert subspace_momentum_memory(1000, 1000, 10) == 20000
    assert subspace_momentum_memory(1000, 1000, 10, full_space=True) == 10**6


def test_problem_and_trial():
    rng = np.random.default_rng(0)
    p = quad_cos_problem(6, rng, 1.0)
    assert np.allclose(np.linalg.eigvalsh(p.H), np.linspace(0.5, 4.0, 6))
    x = rng.standard_normal(6)
    assert np.allclose(optimize.approx_fprime(x, p.f, 1e-7), p.grad(x), atol=1e-6)
    assert p.sigma.tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    out = rate_trial(np.random.default_rng(1), p, [8, 16], "subset_norm", 1.0, {"subset_size": 2})
    assert len(out) == 2 and all(v > 0 for v in out)
    with pytest.raises(ValueError):
        run_adaptive(p, rng, x, 4, "nope", 1.0)


def test_full_rank_subspace_momentum_matrix_is_full_momentum():
    # with k = m the projection is a full orthonormal basis, so the subspace momentum equals the
    # full-space momentum whatever the refreshes (P_new^T P_new = I carries M over exactly)
    from simulations.optim.subset_norm import momentum_matrix, state_size, subspace_momentum_matrix

    rng = np.random.default_rng(0)
    m, n = 5, 7
    A, B = rng.standard_normal((m, m)), rng.standard_normal((m, n))

    def grad(W):
        return A.T @ (A @ W - B) / m

    W1, s1 = subspace_momentum_matrix(grad, np.zeros((m, n)), m, 0.05, 0.9, 30, refresh=3)
    W2, s2 = momentum_matrix(grad, np.zeros((m, n)), 0.05, 0.9, 30)
    assert np.allclose(W1, W2, rtol=1e-10, atol=1e-12)
    assert state_size(s1) == m * m + m * n and state_size(s2) == m * n
    _, s3 = subspace_momentum_matrix(grad, np.zeros((m, n)), 2, 0.05, 0.9, 5)
    assert state_size(s3) == 2 * (m + n)
    with pytest.raises(ValueError):
        subspace_momentum_matrix(grad, np.zeros((m, n)), 0, 0.05, 0.9, 5)


def test_noise_norm_extreme_partitions():
    from simulations.optim.subset_norm import noise_norm

    sigma = np.array([3.0, 4.0, 0.0, 12.0])
    assert noise_norm(sigma, np.zeros(4, dtype=int)) == pytest.approx(13.0)      # ||sigma||_2
    assert noise_norm(sigma, np.arange(4)) == pytest.approx(19.0)                # ||sigma||_1
    assert noise_norm(sigma, np.array([0, 0, 1, 1])) == pytest.approx(5.0 + 12.0)
    with pytest.raises(ValueError):
        noise_norm(-sigma, np.arange(4))


def test_mean_field_with_a_frozen_step_is_the_geometric_sum():
    # constant step a: v_t = a^2 s^2 sum_{u<t} (1 - a lam)^{2u}, closed form
    from simulations.optim.subset_norm import noisy_quadratic_mean_field

    lam, eta, b0, T, s = 2.0, 0.1, 1.0, 50, 0.7
    a = eta / b0
    q = (1 - a * lam) ** 2
    v = [a * a * s * s * (1 - q**t) / (1 - q) for t in range(T)]
    expected = lam * lam * 3 * np.mean(v)
    got = noisy_quadratic_mean_field(np.full(3, s), np.arange(3), lam=lam, eta=eta, b0=b0, T=T, frozen=True)
    assert got == pytest.approx(expected, rel=1e-12)


def test_noisy_quadratic_average_against_mean_field_and_frozen_closed_form():
    from simulations.optim.subset_norm import noisy_quadratic_average, noisy_quadratic_mean_field

    rng = np.random.default_rng(5)
    sigma = np.ones(4)
    # frozen step: the expectation is exact; 400 trials give a CLT interval of a few percent
    vals = noisy_quadratic_average(rng, sigma, np.arange(4), eta=0.1, b0=1.0, T=60, trials=400, frozen=True)
    ref = noisy_quadratic_mean_field(sigma, np.arange(4), eta=0.1, b0=1.0, T=60, frozen=True)
    assert abs(vals.mean() - ref) <= 4 * vals.std() / np.sqrt(vals.size)
    with pytest.raises(ValueError):
        noisy_quadratic_average(rng, sigma, np.arange(3), T=5)


def test_momentum_expectation_reductions():
    from simulations.optim.subset_norm import (
        momentum_quadratic_average,
        momentum_quadratic_expectation,
    )

    lams, sig = np.array([0.5, 1.0, 3.0]), np.array([1.0, 0.5, 2.0])
    step, T = 0.05, 40
    # k = 0 and beta1 = 0 are plain SGD: v_t = step^2 s^2 (1 - q^t)/(1 - q), q = (1 - step lam)^2
    q = (1 - step * lams) ** 2
    v = np.array([step * step * sig**2 * (1 - q**t) / (1 - q) for t in range(T)])
    sgd = float(np.mean(np.sum(lams**2 * v, axis=1)))
    assert momentum_quadratic_expectation(lams, sig, 0, step, 0.9, T) == pytest.approx(sgd, rel=1e-12)
    assert momentum_quadratic_expectation(lams, sig, 3, step, 0.0, T) == pytest.approx(sgd, rel=1e-12)
    rng = np.random.default_rng(6)
    vals = momentum_quadratic_average(rng, lams, sig, 2, step, 0.9, T, trials=2000)
    ref = momentum_quadratic_expectation(lams, sig, 2, step, 0.9, T)
    assert abs(vals.mean() - ref) <= 4 * vals.std() / np.sqrt(vals.size)
