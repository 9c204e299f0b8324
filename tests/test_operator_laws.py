"""Unit tests of the lifted GD-path problem (simulations.nets.operators), the laws of the
Hessian-norm maxima (operators, deeponet) and simulations.nets.extremes, against values obtained
another way.

References: the full one-layer FNO (losses along its GD path, its parameter-space curvature);
central finite differences of the loss; Monte Carlo maxima of the per-neuron factors; the closed
form E log max of a two-point law; the 2x2-block Hessian norms of the networks themselves.
"""

import math

import numpy as np
import pytest

from simulations.nets.deeponet import (
    block_log_max_law,
    block_neuron_cdf,
    hessian_block_norms_batch,
    init_deeponet,
)
from simulations.nets.extremes import (
    expected_log_max_discrete,
    expected_log_max_from_cdf,
    half_normal_quantiles,
)
from simulations.nets.operators import (
    antiderivative,
    contraction_along_path,
    gaussian_random_fields,
    gradient_descent,
    hessian_log_max_law,
    init_fno,
    lift,
    lifted_hessian_norms,
    lifted_problem,
    loss_smoothness,
    neuron_hessian_factor,
    pair_feature_norms,
    sample_lifted_fno,
)


@pytest.fixture
def rng():
    return np.random.default_rng(17)


def test_two_point_law_closed_form():
    # X uniform on {1, e}: max = e unless all m draws are 1, so E log max = 1 - 2^-m
    for m in (1, 3, 10):
        assert expected_log_max_discrete([1.0, math.e], [m])[0] == pytest.approx(1 - 2.0**-m, rel=1e-14)
    # the same law through its distribution function (a steep step at s = e)
    t = np.geomspace(0.5, 10, 200001)
    F = np.where(t < 1, 0.0, np.where(t < math.e, 0.5, 1.0))
    assert expected_log_max_from_cdf(t, F, [3])[0] == pytest.approx(1 - 1 / 8, abs=1e-4)
    with pytest.raises(ValueError):
        expected_log_max_discrete([0.0, 1.0], [2])
    with pytest.raises(ValueError):
        expected_log_max_from_cdf([1.0, 0.5], [0.0, 1.0], [2])


def test_half_normal_quantiles_have_the_half_normal_moments():
    q = half_normal_quantiles(20000)
    assert np.mean(q) == pytest.approx(math.sqrt(2 / math.pi), rel=1e-4)
    assert np.mean(q**2) == pytest.approx(1.0, rel=1e-3)


def test_neuron_factor_gives_the_lifted_hessian_norms(rng):
    lf = sample_lifted_fno(64, 16, 3, rng)
    U = gaussian_random_fields(rng, 3, 16)
    xs = np.array([0, 5, 11])
    f2 = pair_feature_norms(lf.phis, U, xs)
    r = lf.pnorm2 / lf.width
    F = np.concatenate([U[:, None, :], np.einsum("jxy,iy->ijx", lf.phis, U)], axis=1)
    z = np.stack([lf.V.T @ F[i, :, x] / math.sqrt(lf.width) for i, x in enumerate(xs)])  # (3, m)
    expected = np.max(neuron_hessian_factor(z, f2[:, None], r), axis=1) / math.sqrt(lf.width)
    np.testing.assert_allclose(lifted_hessian_norms(lf, U, xs), expected, rtol=1e-12)


def test_fno_law_against_monte_carlo(rng):
    f2, m, reps = 1.7, 128, 4000
    z = rng.standard_normal((reps, m)) * math.sqrt(f2)
    logs = np.log(np.max(neuron_hessian_factor(z, f2), axis=1))
    law = hessian_log_max_law([f2], [m])[0]
    assert abs(law - logs.mean()) < 4 * logs.std() / math.sqrt(reps)


def test_deeponet_law_against_monte_carlo_and_the_network(rng):
    r, m, reps = 0.9, 128, 3000
    xi = rng.standard_normal((reps, m))
    z = r * rng.standard_normal((reps, m))
    th = np.tanh(z)
    a, b = r**2 * np.abs(2 * th * (1 - th**2)), r * (1 - th**2)
    h = np.abs(xi) * a / 2 + np.sqrt(xi**2 * a**2 / 4 + b**2)
    logs = np.log(h.max(axis=1))
    assert abs(block_log_max_law(r, [m])[0] - logs.mean()) < 4 * logs.std() / math.sqrt(reps)
    t = np.quantile(h.ravel(), [0.1, 0.5, 0.9])
    np.testing.assert_allclose(block_neuron_cdf(t, r), [0.1, 0.5, 0.9], atol=0.01)
    # the network's branch block is c |g| m^{-1/2} times a maximum of this factor
    net = init_deeponet(m, 8, 4, rng)
    u = rng.standard_normal(8)
    y = np.array([[0.3]])
    norms = hessian_block_norms_batch(net, u[None, :], y)
    rb = np.linalg.norm(u) / math.sqrt(8)
    zb = net.Wb @ u / math.sqrt(8)
    g = net.hidden_scale * net.At @ np.tanh(net.Wt @ np.array([0.3, 1.0]) / math.sqrt(2))
    xib = net.Ab.T @ g / np.linalg.norm(g)
    thb = np.tanh(zb)
    ab, bb = rb**2 * np.abs(2 * thb * (1 - thb**2)), rb * (1 - thb**2)
    hb = np.abs(xib) * ab / 2 + np.sqrt(xib**2 * ab**2 / 4 + bb**2)
    assert norms["branch"][0] == pytest.approx(np.linalg.norm(g) / math.sqrt(4 * m) * hb.max(), rel=1e-12)


def test_lifted_problem_follows_the_full_model(rng):
    net = init_fno(12, 8, 2, rng)
    U = gaussian_random_fields(rng, 2, 8)
    Y = antiderivative(U)
    problem = lifted_problem(lift(net), U, Y)
    w = problem.start()
    eta = 0.05
    losses, _ = gradient_descent(net, U, Y, eta, 5)
    for t in range(6):
        loss, g = problem.loss_and_gradient(w)
        assert loss == pytest.approx(losses[t], rel=1e-10)
        w = w - eta * g
    # the top curvature in lifted coordinates is that of the full parameter space
    assert problem.top_curvature(problem.start(), rng) == pytest.approx(loss_smoothness(net, U, Y, rng), rel=1e-5)


def test_lifted_gradient_by_finite_differences_and_pair_selection(rng):
    lf = sample_lifted_fno(6, 8, 2, rng)
    U = gaussian_random_fields(rng, 2, 8)
    Y = antiderivative(U)
    problem = lifted_problem(lf, U, Y, pairs=[(0, 3), (1, 6)])
    assert problem.targets.tolist() == [Y[0, 3], Y[1, 6]]
    w = problem.start()
    _, g = problem.loss_and_gradient(w)
    h = 1e-6
    for j in range(0, w.size, 3):
        e = np.zeros(w.size)
        e[j] = h
        fd = (problem.loss_and_gradient(w + e)[0] - problem.loss_and_gradient(w - e)[0]) / (2 * h)
        assert g[j] == pytest.approx(fd, rel=1e-6, abs=1e-11)


def test_contraction_quantities_by_their_definitions(rng):
    lf = sample_lifted_fno(32, 8, 2, rng)
    U = gaussian_random_fields(rng, 1, 8)
    Y = antiderivative(U)
    problem = lifted_problem(lf, U, Y, pairs=[(0, 2)])
    out = contraction_along_path(problem, 0.5, 3, 40, rng)
    assert out["bound"] == pytest.approx(0.5 * 1.5 * out["alpha"] / out["beta"])
    # one step of GD with eta = omega / beta from the start reproduces the first decrease
    w0 = problem.start()
    l0, g0 = problem.loss_and_gradient(w0)
    l1, _ = problem.loss_and_gradient(w0 - 0.5 / out["beta"] * g0)
    assert out["decrease"][0] == pytest.approx((l0 - l1) / (l0 - out["loss_star"]), rel=1e-9)
    with pytest.raises(ValueError):
        contraction_along_path(problem, 0.5, 5, 5, rng)
