"""Unit tests of simulations.training.local_loss against independent values (scalar closed forms, a
brute-force covariance recursion on the augmented state, scipy's minimiser, a small Monte Carlo)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from simulations.training import (
    LocalLossModel,
    bias_term,
    excess_loss,
    offset_variance,
    optimal_alpha,
    random_model,
    simulate_excess,
    stationary_mean_offset,
    white_variance,
)


def _scalar(K=3, Bp=2):
    return LocalLossModel(np.array([[1.5]]), np.array([0.4]), np.array([[0.8]]), np.array([[0.5]]), 0.3, 4, Bp, K)


def test_scalar_closed_forms():
    m = _scalar()
    rho = 1 - 0.3 * 1.5
    assert white_variance(m) == pytest.approx(0.5 * 1.5 * 0.09 * (0.8 + 0.5) / 4 / (1 - rho**2), rel=1e-12)
    assert bias_term(m) == pytest.approx(0.5 * 0.4**2 / 1.5, rel=1e-12)
    assert stationary_mean_offset(m, 0.25)[0] == pytest.approx(-0.75 * 0.4 / 1.5)


def test_offset_variance_by_brute_force_recursion():
    # augmented state (x, c): c redrawn at refresh steps; iterate the exact covariance recursion
    m = random_model(np.random.default_rng(0), 3, period=5, offset_batch=3)
    d, K = m.dim, m.period
    A = np.eye(d) - m.eta * m.H
    Q = m.S_nu / m.offset_batch
    P = np.zeros((2 * d, 2 * d))
    values = []
    for t in range(4000):
        if t % K == 0:  # refresh: c independent of x, covariance Q
            P[:d, d:] = 0.0
            P[d:, :d] = 0.0
            P[d:, d:] = Q
        T = np.block([[A, m.eta * np.eye(d)], [np.zeros((d, d)), np.eye(d)]])
        P = T @ P @ T.T
        if t >= 4000 - K:
            values.append(0.5 * np.trace(m.H @ P[:d, :d]))
    assert offset_variance(m) == pytest.approx(np.mean(values), rel=1e-9)


def test_lazy_period_one_is_a_plain_lyapunov_equation():
    from scipy import linalg

    m = random_model(np.random.default_rng(1), 4, period=1, offset_batch=2)
    A = np.eye(4) - m.eta * m.H
    P = linalg.solve_discrete_lyapunov(A, m.eta**2 * m.S_nu / 2)
    assert offset_variance(m) == pytest.approx(0.5 * np.trace(m.H @ P), rel=1e-10)


def test_optimal_alpha_minimises_the_excess_loss():
    m = random_model(np.random.default_rng(2), 4)
    res = optimize.minimize_scalar(lambda a: excess_loss(m, a), bounds=(-1, 2), method="bounded",
                                   options={"xatol": 1e-10})
    assert optimal_alpha(m) == pytest.approx(res.x, abs=1e-6)
    assert 0 < optimal_alpha(m) < 1


def test_monte_carlo_matches_the_prediction_in_one_dimension():
    m = _scalar()
    alphas = np.array([0.0, 0.5, 1.0])
    mean, se = simulate_excess(m, alphas, np.random.default_rng(3), chains=20000, burn_in=60, window=30)
    pred = np.array([excess_loss(m, a) for a in alphas])
    assert np.all(np.abs(mean - pred) <= 5 * se)


def test_bad_models_are_refused():
    with pytest.raises(ValueError):
        LocalLossModel(np.eye(2), np.zeros(2), np.eye(2), np.eye(2), 2.5, 4, 2, 1)  # eta lambda_max = 2.5: unstable
    with pytest.raises(ValueError):
        LocalLossModel(-np.eye(2), np.zeros(2), np.eye(2), np.eye(2), 0.1, 4, 2, 1)
    with pytest.raises(ValueError):
        simulate_excess(_scalar(K=3), np.array([0.0]), np.random.default_rng(0), chains=10, burn_in=4, window=6)


def test_local_net_gradients_match_finite_differences():
    from simulations.training import (
        block_gradients,
        global_loss,
        init_local_net,
        teacher_regression,
    )

    rng = np.random.default_rng(7)
    X, Y = teacher_regression(rng, 20)
    net = init_local_net(rng, 8, (5, 4), 2)
    bp, local, heads = block_gradients(net, X, Y)

    def fd(f, arr):
        out = np.zeros_like(arr)
        for idx in np.ndindex(arr.shape):
            old = arr[idx]
            arr[idx] = old + 1e-6
            up = f()
            arr[idx] = old - 1e-6
            down = f()
            arr[idx] = old
            out[idx] = (up - down) / 2e-6
        return out

    assert np.allclose(bp[0][0], fd(lambda: global_loss(net, X, Y), net.W[0]), atol=1e-7)
    assert np.allclose(bp[2][1], fd(lambda: global_loss(net, X, Y), net.c[2]), atol=1e-7)

    def local_loss_1():  # the second block's auxiliary-head loss
        h1 = np.tanh(X @ net.W[0].T + net.c[0])
        h2 = np.tanh(h1 @ net.W[1].T + net.c[1])
        return 0.5 * float(np.mean(np.sum((h2 @ net.A[1].T + net.a[1] - Y) ** 2, axis=1)))

    assert np.allclose(local[1][0], fd(local_loss_1, net.W[1]), atol=1e-7)
    assert np.allclose(heads[1][0], fd(local_loss_1, net.A[1]), atol=1e-7)


def test_bp_training_reduces_the_global_loss():
    from simulations.training import global_loss, init_local_net, teacher_regression, train_local

    rng = np.random.default_rng(8)
    X, Y = teacher_regression(rng, 64)
    net = init_local_net(rng, 8, (8, 8), 2)
    trained = train_local(net, X, Y, np.random.default_rng(9), steps=300, lr=0.05, batch=16, alpha=0.0, mode="bp")
    assert global_loss(trained, X, Y) < 0.5 * global_loss(net, X, Y)
    with pytest.raises(ValueError):
        train_local(net, X, Y, np.random.default_rng(9), steps=1, lr=0.05, batch=16, alpha=0.0, mode="other")
