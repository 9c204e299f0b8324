"""Unit tests of simulations.optim.async_bundle against independent computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from simulations.optim.async_bundle import (
    _solve_subproblem,
    abm_run,
    cut_model,
    delayed_gradient_descent,
    distributed_logistic,
    project_simplex,
)


def test_project_simplex_against_a_qp():
    rng = np.random.default_rng(0)
    for _ in range(5):
        v = rng.standard_normal(6) * 2
        res = optimize.minimize(lambda p, v=v: np.sum((p - v) ** 2), np.full(6, 1 / 6), method="SLSQP",
                                bounds=[(0, None)] * 6, constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                                options={"ftol": 1e-14, "maxiter": 500})
        assert np.allclose(project_simplex(v), res.x, atol=1e-6)


def test_subproblem_against_cvxpy():
    import cvxpy as cp

    rng = np.random.default_rng(1)
    d, L = 3, 2.0
    G = [rng.standard_normal((d, 3)), rng.standard_normal((d, 2))]
    Z = [rng.standard_normal((d, 3)), rng.standard_normal((d, 2))]
    F = [rng.standard_normal(3), rng.standard_normal(2)]
    V = [np.einsum("ij,ij->j", G[i], Z[i]) - F[i] for i in range(2)]
    zbar = rng.standard_normal(d)
    x = cp.Variable(d)
    model = sum(cp.max(G[i].T @ x - V[i]) for i in range(2))
    cp.Problem(cp.Minimize(model + L / 2 * cp.sum_squares(x - zbar))).solve(solver="CLARABEL")
    ours = _solve_subproblem(G, V, zbar, L, 1e-12, max_iter=20000)
    assert np.allclose(ours, x.value, atol=1e-5)


def test_problem_newton_and_gradients():
    rng = np.random.default_rng(2)
    p = distributed_logistic(rng, 3, 20, 4, 0.5)
    assert np.linalg.norm(p.grad_F(p.x_star)) < 1e-10
    x = rng.standard_normal(4)
    assert np.allclose(optimize.approx_fprime(x, p.F, 1e-7), p.grad_F(x), atol=1e-5)
    f0, g0 = p.f_i(0, x)
    assert np.allclose(optimize.approx_fprime(x, lambda y: p.f_i(0, y)[0], 1e-7), g0, atol=1e-5)


def test_cut_model_and_delayed_gd():
    cuts = [(0, np.zeros(1), 1.0, np.array([2.0])), (0, np.ones(1), 0.0, np.array([-1.0])),
            (1, np.zeros(1), 3.0, np.array([0.0]))]
    assert cut_model(cuts, 2, np.array([0.5])) == pytest.approx(max(1 + 1.0, 0 - (-0.5)) + 3.0)
    rng = np.random.default_rng(3)
    p = distributed_logistic(rng, 2, 30, 3, 1.0)
    lam = float(np.linalg.eigvalsh(p.hessian_F(p.x_star)).max())
    ok = delayed_gradient_descent(p, 1.0 / lam, 0, 300)
    assert (ok[-1] - p.F_star) / p.F_star < 1e-10
    # Levin-May: unstable for gamma lambda > 2 sin(pi / (2 (2 tau + 1))), e.g. tau = 3: 0.445
    assert 2 * math.sin(math.pi / 14) < 1.0
    bad = delayed_gradient_descent(p, 1.0 / lam, 3, 300)
    assert (np.min(bad[-50:]) - p.F_star) / p.F_star > 1e-6


def test_abm_converges_and_records_delays():
    rng = np.random.default_rng(4)
    p = distributed_logistic(rng, 3, 30, 4, 1.0)
    run = abm_run(p, np.array([1.0, 2.0, 4.0]), 300, bundle_size=4, target=1e-8)
    assert (np.min(run.F) - p.F_star) / p.F_star <= 1e-8
    assert run.delays.max() >= 2
    with pytest.raises(ValueError):
        abm_run(p, np.array([1.0, 2.0]), 5)


def test_event_delays_by_hand_and_against_abm():
    from simulations.optim.async_bundle import event_delays

    # two workers, times 1 and 2: reports at t = 1 (w0, k=0), 2 (w0, tie first, k=1), 2 (w1, k=2),
    # 3 (w0, k=3), 4 (w0, k=4), 4 (w1, k=5); a query is issued at the iteration after the report,
    # so w0's query answered at k=3 was issued at 2 (delay 1), w1's at k=5 was issued at 3 (delay 2)
    assert event_delays(np.array([1.0, 2.0]), 6).tolist() == [0, 0, 2, 1, 0, 2]
    p = distributed_logistic(np.random.default_rng(0), 3, 20, 3, 1.0)
    ct = 4.0 ** (np.arange(3) / 2)
    run = abm_run(p, ct, 60, bundle_size=3)
    assert np.array_equal(event_delays(ct, run.delays.size), run.delays)


def test_delayed_gd_against_a_loop_over_the_workers_losses():
    # the stacked implementation against x_{k+1} = x_k - gamma grad F(x_{k-tau}) written with the
    # per-worker f_i (also with a nonconvex worker), and the early stop at the target
    for kw in ({}, {"kappa": 0.5, "nonconvex_worker": 1}):
        p = distributed_logistic(np.random.default_rng(5), 3, 25, 4, 1.0, **kw)
        gamma, tau = 0.02, 4
        xs = [np.zeros(4)] * (tau + 1)
        ref = [p.F(xs[-1])]
        for _ in range(200):
            xs.append(xs[-1] - gamma * p.grad_F(xs[-1 - tau]))
            ref.append(p.F(xs[-1]))
        assert np.allclose(delayed_gradient_descent(p, gamma, tau, 200), ref, rtol=1e-13, atol=0)
    p = distributed_logistic(np.random.default_rng(6), 2, 30, 3, 1.0)
    Fs = delayed_gradient_descent(p, 0.02, 2, 10**5, target=1e-6)
    assert Fs[-1] - p.F_star <= 1e-6 * abs(p.F_star) < Fs[-2] - p.F_star


def test_gradient_noise_needs_a_generator_and_zero_noise_changes_nothing():
    p = distributed_logistic(np.random.default_rng(0), 2, 10, 3, 1.0)
    with pytest.raises(ValueError):
        abm_run(p, np.ones(2), 5, gradient_noise=0.1)
    a = abm_run(p, np.ones(2), 20)
    b = abm_run(p, np.ones(2), 20, gradient_noise=0.0, rng=np.random.default_rng(1))
    assert np.array_equal(a.F, b.F)
    c = abm_run(p, np.ones(2), 20, gradient_noise=0.5, rng=np.random.default_rng(1))
    assert not np.array_equal(a.F, c.F)


def test_row_projection_matches_the_single_projection():
    from simulations.optim.async_bundle import project_simplex_rows

    rng = np.random.default_rng(4)
    v = rng.standard_normal((6, 5)) * 3
    rows = project_simplex_rows(v)
    for r, got in zip(v, rows, strict=True):
        assert np.allclose(got, project_simplex(r), atol=1e-15)
    assert np.allclose(rows.sum(axis=1), 1.0) and rows.min() >= 0


def test_ragged_block_projection_matches_per_block_projection():
    from simulations.optim.async_bundle import _project_blocks

    rng = np.random.default_rng(5)
    sizes = [1, 3, 5, 2]
    z = rng.standard_normal(sum(sizes)) * 2
    splits = np.cumsum(sizes)[:-1]
    expected = np.concatenate([project_simplex(b) for b in np.split(z, splits)])
    assert np.allclose(_project_blocks(z, sizes, splits), expected, atol=1e-15)
