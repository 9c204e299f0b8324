"""Unit tests of simulations.nets.operators against values obtained another way.

References: central finite differences of the output and of the loss; the second directional
derivative of the output; Lanczos (scipy eigsh) on exact Hessian-vector products against the
2x2-block closed form; numpy.gradient of the spectral antiderivative; the orthonormality of the
real Fourier basis; the full model for the lifted form (outputs, Hessian norms, GD path) and
the Gram matrix of a finite-difference Jacobian for the tangent kernel; the law of Theta_j P.

The GD-path problems and the laws of the Hessian-norm maxima: the full one-layer FNO (losses
along its GD path, its parameter-space curvature); central finite differences; Monte Carlo maxima
of the per-neuron factors; the closed form E log max of a two-point law; the block norms of the
networks themselves.
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
    fno_forward,
    fourier_projections,
    gaussian_random_fields,
    gradient_descent,
    hessian_log_max_law,
    init_fno,
    lift,
    lifted_forward,
    lifted_gradient_descent,
    lifted_hessian_norms,
    lifted_problem,
    loss,
    loss_gradient,
    loss_smoothness,
    neuron_hessian_factor,
    output_hessian_norm,
    output_hessian_norm_closed_form,
    output_hvp,
    output_scale,
    pair_feature_norms,
    relative_kernel_change,
    sample_lifted_fno,
    tangent_kernel,
)


@pytest.fixture
def rng():
    return np.random.default_rng(5)


def test_fourier_projections_are_orthogonal_projectors():
    phis = fourier_projections(12, 4)
    assert phis.shape == (7, 12, 12)
    total = phis.sum(axis=0)
    np.testing.assert_allclose(total @ total, total, atol=1e-13)
    np.testing.assert_allclose(np.trace(total), 7, atol=1e-12)


def test_loss_gradient_by_finite_differences(rng):
    net = init_fno(5, 8, 2, rng)
    U = gaussian_random_fields(rng, 3, 8)
    Y = antiderivative(U)
    w = net.flat()
    g = loss_gradient(net, U, Y)
    h = 1e-6
    for i in rng.choice(w.size, 12, replace=False):
        e = np.zeros(w.size)
        e[i] = h
        fd = (loss(net.with_flat(w + e), U, Y) - loss(net.with_flat(w - e), U, Y)) / (2 * h)
        assert g[i] == pytest.approx(fd, rel=1e-5, abs=1e-9)


def test_output_hvp_and_hessian_norm(rng):
    net = init_fno(6, 8, 2, rng)
    u = gaussian_random_fields(rng, 1, 8)[0]
    w = net.flat()
    v = rng.standard_normal(w.size)

    def out(wf):
        return fno_forward(net.with_flat(wf), u[None, :])[0, 2]

    e = 1e-4
    second = (out(w + e * v) - 2 * out(w) + out(w - e * v)) / e**2
    assert v @ output_hvp(net, u, 2, v) == pytest.approx(second, rel=1e-5)
    # symmetry of the exact HVP
    v2 = rng.standard_normal(w.size)
    assert v2 @ output_hvp(net, u, 2, v) == pytest.approx(v @ output_hvp(net, u, 2, v2), rel=1e-10)
    lanczos = output_hessian_norm(net, u, 2, rng)
    assert lanczos == pytest.approx(output_hessian_norm_closed_form(net, u, 2), rel=1e-8)


def test_antiderivative_and_fields(rng):
    U = gaussian_random_fields(rng, 4, 64)
    np.testing.assert_allclose(np.mean(U**2, axis=1), 1.0)
    np.testing.assert_allclose(U.mean(axis=1), 0.0, atol=1e-12)
    Y = antiderivative(U)
    dY = np.gradient(Y, 1 / 64, axis=1)
    assert np.max(np.abs(dY[:, 2:-2] - U[:, 2:-2])) < 0.05


def test_gradient_descent_decreases_with_small_step(rng):
    net = init_fno(16, 8, 2, rng)
    U = gaussian_random_fields(rng, 4, 8)
    Y = antiderivative(U)
    beta = loss_smoothness(net, U, Y, rng)
    losses, grads = gradient_descent(net, U, Y, 0.5 / beta, 20)
    assert np.all(np.diff(losses) < 0)
    assert grads.shape == (20,)


def test_bad_input_raises(rng):
    with pytest.raises(ValueError):
        init_fno(4, 8, 2, rng, parametrization="mup")
    with pytest.raises(ValueError):
        fourier_projections(8, 5)


def test_lifted_form_matches_the_full_model(rng):
    net = init_fno(5, 12, 3, rng)
    lf = lift(net)
    U = gaussian_random_fields(rng, 3, 12)
    Y = antiderivative(U)
    np.testing.assert_allclose(lifted_forward(lf, U), fno_forward(net, U), rtol=1e-13, atol=1e-15)
    xs = np.array([0, 4, 11])
    ref = [output_hessian_norm(net, u, x, rng) for u, x in zip(U, xs, strict=True)]
    np.testing.assert_allclose(lifted_hessian_norms(lf, U, xs), ref, rtol=1e-8)
    full, _ = gradient_descent(net, U, Y, 0.7, 15)
    final, lifted = lifted_gradient_descent(lf, U, Y, 0.7, 15)
    np.testing.assert_allclose(lifted, full, rtol=1e-12, atol=1e-15)
    assert relative_kernel_change(lf, lf, U) == 0.0
    assert relative_kernel_change(lf, final, U) > 0


def test_tangent_kernel_is_the_jacobian_gram_matrix(rng):
    net = init_fno(4, 8, 2, rng, parametrization="mean_field")
    U = gaussian_random_fields(rng, 2, 8)
    w, h = net.flat(), 1e-6
    J = np.array([((fno_forward(net.with_flat(w + h * e), U) - fno_forward(net.with_flat(w - h * e), U))
                   / (2 * h)).ravel() for e in np.eye(w.size)]).T
    K = tangent_kernel(lift(net), U)
    np.testing.assert_allclose(K, J @ J.T, rtol=1e-7, atol=1e-9 * np.abs(K).max())


def test_sampled_lifted_weights_have_the_law_of_theta_p():
    # V_j = Theta_j P given P is N(0, ||P||^2 I): V / ||P|| is standard normal
    vals = np.concatenate([(lf.V / np.sqrt(lf.pnorm2)).ravel() for lf in
                           (sample_lifted_fno(64, 8, 2, np.random.default_rng(i)) for i in range(40))])
    assert abs(vals.mean()) < 0.02 and abs(vals.var() - 1) < 0.03
    lf = sample_lifted_fno(9, 8, 2, np.random.default_rng(0), parametrization="mean_field")
    assert lf.V.shape == (4, 9) and lf.out_scale == pytest.approx(1 / 9)
    assert output_scale(16, "ntk") == 0.25 and output_scale(16, "standard") == 1.0
    with pytest.raises(ValueError):
        output_scale(4, "muP")
    with pytest.raises(ValueError):
        lifted_gradient_descent(lf, np.zeros((1, 8)), np.zeros((1, 8)), 0.0, 3)


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
