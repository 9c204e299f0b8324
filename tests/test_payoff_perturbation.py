"""Tests of simulations.games against independent values: hand-computed games, nashpy, LPs."""

from __future__ import annotations

import itertools

import nashpy
import numpy as np
import pytest
from scipy.optimize import linprog, minimize

from simulations.games import (
    StrategySet,
    TwoPlayerGame,
    bilinear_zero_sum,
    expanding_rotation,
    hard_concave_convex,
    max_regret,
    monotonicity_violation,
    nash_conv,
    perturbed_gradient_ascent,
    project_simplex,
    pure_nash_equilibria,
)


# --------------------------------------------------------------------------- finite games
def _bimatrix(A, B):
    return np.stack([np.asarray(A, float), np.asarray(B, float)])


def test_prisoners_dilemma_has_one_pure_equilibrium():
    A = [[3, 0], [5, 1]]  # row player: cooperate, defect
    eq = pure_nash_equilibria(_bimatrix(A, np.transpose(A)))
    assert [e.profile for e in eq] == [(1, 1)]
    assert eq[0].max_regret == 0.0 and eq[0].payoffs == (1.0, 1.0)


def test_matching_pennies_has_none_and_coordination_two():
    A = np.array([[1, -1], [-1, 1]])
    assert pure_nash_equilibria(_bimatrix(A, -A)) == []
    assert max_regret(_bimatrix(A, -A)).min() == 2.0
    C = np.array([[2, 0], [0, 1]])
    assert [e.profile for e in pure_nash_equilibria(_bimatrix(C, C))] == [(0, 0), (1, 1)]


def test_three_player_hand_case():
    # Each player gets 1 when it matches player 0's action (player 0 gets 1 when all match):
    # equilibria are exactly the two unanimous profiles.
    P = np.zeros((3, 2, 2, 2))
    for s in itertools.product(range(2), repeat=3):
        P[(0, *s)] = float(s[0] == s[1] == s[2])
        P[(1, *s)] = float(s[1] == s[0])
        P[(2, *s)] = float(s[2] == s[0])
    assert [e.profile for e in pure_nash_equilibria(P)] == [(0, 0, 0), (1, 1, 1)]


@pytest.mark.parametrize("seed", range(20))
def test_pure_equilibria_agree_with_nashpy(seed):
    rng = np.random.default_rng(seed)
    A, B = rng.normal(size=(2, 3, 3))  # generic (non-degenerate) payoffs
    ours = {e.profile for e in pure_nash_equilibria(_bimatrix(A, B))}
    theirs = set()
    for sx, sy in nashpy.Game(A, B).support_enumeration():
        if np.count_nonzero(sx > 1e-12) == 1 and np.count_nonzero(sy > 1e-12) == 1:
            theirs.add((int(np.argmax(sx)), int(np.argmax(sy))))
    assert ours == theirs


def test_bad_payoffs_raise():
    with pytest.raises(ValueError, match="shape"):
        pure_nash_equilibria(np.zeros((3, 2, 2)))
    with pytest.raises(ValueError, match="tol"):
        pure_nash_equilibria(np.zeros((2, 2, 2)), tol=-1.0)


# --------------------------------------------------------------------------- monotone games
@pytest.mark.parametrize("seed", range(5))
def test_simplex_projection_matches_a_qp_solver(seed):
    rng = np.random.default_rng(seed)
    v = rng.normal(scale=2.0, size=6)
    res = minimize(lambda p: np.sum((p - v) ** 2), np.full(6, 1 / 6), method="SLSQP",
                   bounds=[(0, None)] * 6, constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                   options={"ftol": 1e-14, "maxiter": 500})
    np.testing.assert_allclose(project_simplex(v[None])[0], res.x, atol=1e-6)


def test_simplex_projection_hand_cases():
    np.testing.assert_allclose(project_simplex(np.array([[0.2, 0.3, 0.5]])), [[0.2, 0.3, 0.5]])
    np.testing.assert_allclose(project_simplex(np.array([[2.0, 0.0]])), [[1.0, 0.0]])
    np.testing.assert_allclose(project_simplex(np.array([[7.0, 7.0, 7.0]])), [[1 / 3] * 3])
    np.testing.assert_allclose(project_simplex(np.array([[1.0, 0.5, -3.0]])), [[0.75, 0.25, 0.0]])


@pytest.mark.parametrize("seed", range(5))
def test_nash_conv_vanishes_at_nashpy_equilibrium_and_equals_gap(seed):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, size=(4, 4))
    x, y = next(iter(nashpy.Game(A, -A).support_enumeration()))
    assert nash_conv(A, x[None], y[None])[0] == pytest.approx(0.0, abs=1e-10)
    # value of the game by LP: max_x min_j (A^T x)_j
    res = linprog(np.r_[np.zeros(4), -1.0], A_ub=np.c_[-A.T, np.ones(4)], b_ub=np.zeros(4),
                  A_eq=[np.r_[np.ones(4), 0.0]], b_eq=[1.0], bounds=[(0, None)] * 4 + [(None, None)])
    assert x @ A @ y == pytest.approx(-res.fun, abs=1e-9)
    xs, ys = rng.dirichlet(np.ones(4), size=3), rng.dirichlet(np.ones(4), size=3)
    np.testing.assert_allclose(bilinear_zero_sum(A).gap(xs, ys), nash_conv(A, xs, ys), atol=1e-12)


def test_box_gap_matches_an_lp():
    game = hard_concave_convex(5, radius=3.0)
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-3, 3, size=(1, 5)), rng.uniform(-3, 3, size=(1, 5))
    gx, gy = game.gradient(x, y)
    best = sum(-linprog(-g[0], bounds=[(-3, 3)] * 5).fun - g[0] @ p[0] for g, p in ((gx, x), (gy, y)))
    assert game.gap(x, y)[0] == pytest.approx(best, rel=1e-9)


def test_hard_game_gradient_is_that_of_its_payoffs_and_monotone():
    d = 4
    game = hard_concave_convex(d, radius=10.0)
    A = np.zeros((d, d))
    for i in range(d):
        A[i, d - 1 - i] = 0.25
        if d - 2 - i >= 0:
            A[i, d - 2 - i] = -0.25
    H, h, b = 2 * A.T @ A, np.r_[np.zeros(d - 1), 0.25], np.full(d, 0.25)

    def v1(x, y):
        return -0.5 * x @ H @ x + h @ x + x @ A @ y

    def v2(x, y):
        return -x @ A @ y + b @ y

    rng = np.random.default_rng(1)
    x, y = rng.normal(size=d), rng.normal(size=d)
    gx, gy = game.gradient(x[None], y[None])
    eps = 1e-6
    fd_x = [(v1(x + eps * e, y) - v1(x - eps * e, y)) / (2 * eps) for e in np.eye(d)]
    fd_y = [(v2(x, y + eps * e) - v2(x, y - eps * e)) / (2 * eps) for e in np.eye(d)]
    np.testing.assert_allclose(gx[0], fd_x, atol=1e-8)
    np.testing.assert_allclose(gy[0], fd_y, atol=1e-8)
    assert monotonicity_violation(game, rng) <= 1e-12
    assert monotonicity_violation(expanding_rotation(0.3), rng) == pytest.approx(0.3, rel=1e-9)


def test_one_gabp_cycle_by_hand():
    # V = 0 on a 1-D box: each step contracts towards the anchor, x <- x - eta mu (x - sigma).
    game = TwoPlayerGame(lambda x, y: (0 * x, 0 * y), (StrategySet("box", 10.0),) * 2, (1, 1))
    x0, y0 = np.array([[4.0]]), np.array([[-2.0]])
    eta, mu = 0.5, 1.0
    _, x, _ = perturbed_gradient_ascent(game, x0, y0, eta=eta, mu=mu, T=1, T_sigma=1, anchor="gabp")
    assert x[0, 0] == 4.0  # anchor = x0, no move
    # with a non-zero gradient g = 1 for player 1: x1 = 4 + 0.5 = 4.5, anchor (1 * 4.5 + 4)/2 = 4.25,
    # x2 = 4.5 + 0.5 (1 - (4.5 - 4.25)) = 4.875
    game1 = TwoPlayerGame(lambda x, y: (0 * x + 1.0, 0 * y), (StrategySet("box", 10.0),) * 2, (1, 1))
    _, x, _ = perturbed_gradient_ascent(game1, x0, y0, eta=eta, mu=mu, T=2, T_sigma=1, anchor="gabp")
    assert x[0, 0] == pytest.approx(4.875)
    # APGA's anchor is the current point: x2 = 4.5 + 0.5 (1 - 0) = 5.0
    _, x, _ = perturbed_gradient_ascent(game1, x0, y0, eta=eta, mu=mu, T=2, T_sigma=1, anchor="apga")
    assert x[0, 0] == pytest.approx(5.0)


def test_dynamics_reject_bad_arguments():
    game = bilinear_zero_sum(np.eye(2))
    x0 = np.full((1, 2), 0.5)
    with pytest.raises(ValueError, match="T_sigma"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, anchor="gabp")
    with pytest.raises(ValueError, match="rng"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, T_sigma=2, noise_std=0.1)
    with pytest.raises(ValueError, match="anchor"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, T_sigma=2, anchor="halpern")
    with pytest.raises(ValueError, match="non-monotone"):
        expanding_rotation(0.0)


def test_gabp_converges_on_matching_pennies_and_ga_does_not():
    A = np.array([[1.0, -1.0], [-1.0, 1.0]])
    x0 = np.array([[0.9, 0.1]])
    y0 = np.array([[0.2, 0.8]])
    g_gabp, _, _ = perturbed_gradient_ascent(bilinear_zero_sum(A), x0, y0, eta=0.05, mu=1.0, T=2000,
                                             T_sigma=10, anchor="gabp")
    g_ga, _, _ = perturbed_gradient_ascent(bilinear_zero_sum(A), x0, y0, eta=0.05, mu=0.0, T=2000,
                                           anchor="frozen")
    assert g_gabp[0, 0] < 1e-2 < g_ga[0, 0]
