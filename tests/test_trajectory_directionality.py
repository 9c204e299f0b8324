"""Unit tests of simulations.training.trajectories against independent values (Monte Carlo random
walks, two-mode closed forms, direct eigen-decomposition)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations.training import (
    gd_updates,
    limit_sign,
    mean_directional_similarity,
    oscillation_threshold,
    random_walk_mds,
    steps_to_resolve,
    successive_cosine_closed_form,
    successive_cosines,
    trajectory_map,
)


def test_random_walk_mds_matches_monte_carlo_and_published_reference():
    # exact mean of sqrt(min/max): 0.6767 for 20 checkpoints (the value in the team's notes)
    assert random_walk_mds(20) == pytest.approx(0.676686, abs=1e-6)
    rng = np.random.default_rng(0)
    walk = np.cumsum(rng.normal(size=(20, 200_000)), axis=0)
    mc = mean_directional_similarity(trajectory_map(walk))
    assert mc == pytest.approx(random_walk_mds(20), abs=5e-3)


def test_trajectory_map_is_a_cosine_matrix():
    rng = np.random.default_rng(1)
    tm = trajectory_map(rng.normal(size=(5, 7)))
    assert np.allclose(np.diag(tm), 1) and np.allclose(tm, tm.T) and np.all(np.abs(tm) <= 1 + 1e-12)
    with pytest.raises(ValueError):
        trajectory_map(np.zeros((2, 3)))


def test_two_mode_closed_form_and_threshold():
    lam = np.array([1.0, 9.0])
    c = np.array([1.0, 1.0])
    assert oscillation_threshold(lam) == pytest.approx(0.2)
    # at eta = 0.25 rho = (0.75, -1.25): the top mode dominates (and diverges): cos -> -1
    eta = 0.25
    rho = 1 - eta * lam
    w = (lam * c) ** 2
    for t in (0, 3, 10):
        direct = np.sum(w * rho ** (2 * t + 1)) / np.sqrt(np.sum(w * rho ** (2 * t)) * np.sum(w * rho ** (2 * t + 2)))
        assert successive_cosine_closed_form(lam, c, eta, t)[0] == pytest.approx(direct, rel=1e-12)
    assert limit_sign(lam, c, 0.19) == 1.0 and limit_sign(lam, c, 0.21) == -1.0
    assert limit_sign(lam, c, 0.2) == 0.0  # a tie of opposite signs: no limit
    with pytest.raises(ValueError):
        steps_to_resolve(lam, c, 0.2, 1e-6)


def test_simulated_updates_follow_the_closed_form_in_a_rotated_basis():
    rng = np.random.default_rng(2)
    lam = np.array([1.0, 2.0, 5.0, 10.0])
    Q, _ = np.linalg.qr(rng.normal(size=(4, 4)))
    c = rng.normal(size=4)
    H, theta0 = (Q * lam) @ Q.T, Q @ c
    for eta in (0.1, 0.19):
        sim = successive_cosines(gd_updates(H, theta0, eta, 60))
        assert np.allclose(sim, successive_cosine_closed_form(lam, c, eta, np.arange(59)), atol=1e-12)


def test_steps_to_resolve_reaches_the_requested_accuracy():
    lam = np.array([1.0, 3.0, 10.0])
    c = np.array([0.5, -1.0, 2.0])
    for eta in (0.1, 0.17, 0.19):
        T = steps_to_resolve(lam, c, eta, 1e-8)
        value = successive_cosine_closed_form(lam, c, eta, T)[0]
        assert abs(value - limit_sign(lam, c, eta)) <= 1e-8
