"""Unit tests of simulations.attention against independent computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize
from scipy.linalg import hadamard

from simulations.attention import (
    adamw2_step,
    attention_loss_grads,
    entropy_lower_bound,
    logit_jacobian,
    logit_jacobian_by_basis,
    power_iteration_sigma,
    row_entropies,
    softmax_rows,
    spectral_energy_concentration,
    teacher_task,
)


def test_logit_jacobian_by_finite_differences_and_rank():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((3, 2)) @ rng.standard_normal((2, 5))  # rank 2
    J = logit_jacobian(X)
    B = rng.standard_normal((3, 3))
    P = lambda M: (X.T @ M @ X).ravel(order="F")  # noqa: E731
    assert np.allclose(J @ B.ravel(order="F"), P(B))
    assert np.allclose(logit_jacobian_by_basis(X), J)
    assert np.linalg.matrix_rank(J) == np.linalg.matrix_rank(X) ** 2 == 4


def test_spectral_energy_concentration_closed_form():
    M = np.diag([3.0, 4.0, 0.0])
    assert spectral_energy_concentration(M, 1) == pytest.approx(16 / 25)
    assert spectral_energy_concentration(M, 2) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        spectral_energy_concentration(np.zeros((2, 2)))


def test_entropy_floor_against_optimisation():
    for T, delta in ((5, 3.0), (19, 0.998), (8, 0.2)):
        def H(z):
            return float(row_entropies(softmax_rows(z[None, :]))[0])
        best = min(optimize.minimize(H, np.random.default_rng(s).uniform(0, delta, T), bounds=[(0, delta)] * T,
                                     method="L-BFGS-B").fun for s in range(15))
        assert entropy_lower_bound(T, delta) == pytest.approx(best, abs=1e-7)
    # k = 1 is Zhai et al.'s form
    T, d = 10, 2.5
    q = (T - 1) * np.exp(-d)
    assert entropy_lower_bound(T, d, top=1) == pytest.approx(np.log1p(q) + d * q / (1 + q))
    assert entropy_lower_bound(4, 0.0) == pytest.approx(np.log(4))


def test_adamw_step_matches_the_published_rule():
    rng = np.random.default_rng(1)
    W, g1, g2 = rng.standard_normal((3, 4, 4))
    state = {}
    W1, lr1, _ = adamw2_step(W, g1, state, 0.01, None, weight_decay=0.1)
    W2, _, _ = adamw2_step(W1, g2, state, 0.01, None, weight_decay=0.1)
    # Loshchilov & Hutter's AdamW with bias correction, written out
    m = 0.1 * g1
    v = 0.001 * g1**2
    ref1 = W - 0.01 * ((m / 0.1) / (np.sqrt(v / 0.001) + 1e-8) + 0.1 * W)
    m = 0.9 * m + 0.1 * g2
    v = 0.999 * v + 0.001 * g2**2
    ref2 = ref1 - 0.01 * ((m / (1 - 0.81)) / (np.sqrt(v / (1 - 0.999**2)) + 1e-8) + 0.1 * ref1)
    assert lr1 == 0.01 and np.allclose(W1, ref1) and np.allclose(W2, ref2)


def test_adamw2_bound_is_weyl_tight_on_aligned_updates():
    # Adam's first direction is the sign of the gradient: take W's top singular pair along sign vectors
    H = hadamard(8) / np.sqrt(8)
    u, v = H[1], H[2]
    rng = np.random.default_rng(2)
    R = 0.3 * rng.standard_normal((8, 8))
    R = R - np.outer(u, u @ R) - np.outer(R @ v, v) + np.outer(u, v) * (u @ R @ v)
    W = 5.0 * np.outer(u, v) + R
    grad = -np.outer(np.sign(u), np.sign(v))
    W1, lr_t, _ = adamw2_step(W, grad, {}, 10.0, 0.05)
    assert np.linalg.norm(W1, 2) == pytest.approx(1.05 * np.linalg.norm(W, 2), rel=1e-7)
    assert lr_t < 10.0


def test_power_iteration_is_a_lower_estimate():
    rng = np.random.default_rng(3)
    M = rng.standard_normal((6, 6))
    s1 = np.linalg.norm(M, 2)
    est = [power_iteration_sigma(M, k, np.ones(6)) for k in (1, 3, 200)]
    assert all(e <= s1 * (1 + 1e-12) for e in est) and est[-1] == pytest.approx(s1, rel=1e-9)


def test_attention_gradients_by_finite_differences():
    rng = np.random.default_rng(4)
    X, Y = teacher_task(rng, 3, 4, 5, 2, 1.0)
    Wq, Wk = rng.standard_normal((2, 4, 4)) * 0.5
    loss, gq, gk = attention_loss_grads(X, Y, Wq, Wk)
    h = 1e-6
    for M, G, which in ((Wq, gq, 0), (Wk, gk, 1)):
        for idx in [(0, 1), (2, 3), (3, 0)]:
            E = np.zeros_like(M)
            E[idx] = h
            args_p = (Wq + E, Wk) if which == 0 else (Wq, Wk + E)
            args_m = (Wq - E, Wk) if which == 0 else (Wq, Wk - E)
            fd = (attention_loss_grads(X, Y, *args_p)[0] - attention_loss_grads(X, Y, *args_m)[0]) / (2 * h)
            assert fd == pytest.approx(G[idx], rel=1e-5, abs=1e-9)
