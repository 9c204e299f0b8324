"""Unit tests of simulations.nets.operators against values obtained another way.

References: central finite differences of the output and of the loss; the second directional
derivative of the output; Lanczos (scipy eigsh) on exact Hessian-vector products against the
2x2-block closed form; numpy.gradient of the spectral antiderivative; the orthonormality of the
real Fourier basis; the full model for the lifted form (outputs, Hessian norms, GD path) and
the Gram matrix of a finite-difference Jacobian for the tangent kernel; the law of Theta_j P.
"""

import numpy as np
import pytest

from simulations.nets.operators import (
    antiderivative,
    fno_forward,
    fourier_projections,
    gaussian_random_fields,
    gradient_descent,
    init_fno,
    lift,
    lifted_forward,
    lifted_gradient_descent,
    lifted_hessian_norms,
    loss,
    loss_gradient,
    loss_smoothness,
    output_hessian_norm,
    output_hessian_norm_closed_form,
    output_hvp,
    output_scale,
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
