"""Tests of simulations.games.monotone and of the paper's formulas, against independent values:
hand-computed steps, LPs, nashpy, the step-by-step algorithm, Monte Carlo runs and scipy."""

from __future__ import annotations

import math

import nashpy
import numpy as np
import pytest
from scipy.optimize import linprog, minimize
from scipy.stats import foldnorm, norm

from simulations.games import (
    StrategySet,
    TwoPlayerGame,
    anchor_weight,
    bilinear_zero_sum,
    box_bilinear,
    box_exit_log_probability,
    folded_normal_mean,
    perturbed_gradient_ascent,
    project_simplex,
    rotation_closed_form,
    rotation_expected_gap,
    rotation_noisy_moments,
)
from theorems.iclr2025.payoff_perturbation import (
    theorem41_bound,
    theorem41_factor,
    theorem41_interval,
    theorem43_bound,
    theorem43_log_factor,
    theorem43_steps,
)


# --------------------------------------------------------------------------- projections and gaps
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


@pytest.mark.parametrize("seed", range(4))
def test_matrix_game_gap_is_nash_conv_and_vanishes_at_nashpy_equilibrium(seed):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, size=(4, 4))
    game = bilinear_zero_sum(A)
    x, y = next(iter(nashpy.Game(A, -A).support_enumeration()))
    assert game.gap(x[None], y[None])[0] == pytest.approx(0.0, abs=1e-10)
    xs, ys = rng.dirichlet(np.ones(4), size=3), rng.dirichlet(np.ones(4), size=3)
    nash_conv = (ys @ A.T).max(axis=1) - (xs @ A).min(axis=1)
    np.testing.assert_allclose(game.gap(xs, ys), nash_conv, atol=1e-12)


def test_box_gap_matches_an_lp_and_the_closed_form():
    lam, R = 0.7, 2.5
    game = box_bilinear(lam, R)
    rng = np.random.default_rng(0)
    for _ in range(5):
        x, y = rng.uniform(-R, R, size=(1, 1)), rng.uniform(-R, R, size=(1, 1))
        gx, gy = game.gradient(x, y)
        best = sum(-linprog(-g[0], bounds=[(-R, R)]).fun - g[0] @ p[0] for g, p in ((gx, x), (gy, y)))
        assert game.gap(x, y)[0] == pytest.approx(best, rel=1e-12)
        assert game.gap(x, y)[0] == pytest.approx(R * lam * (abs(x[0, 0]) + abs(y[0, 0])), rel=1e-12)


# --------------------------------------------------------------------------- Algorithm 1
def test_anchor_weights():
    assert [anchor_weight(k, "gabp") for k in (1, 2, 3)] == [0.5, 1 / 3, 0.25]
    assert anchor_weight(3, "gabp", power=0.5) == pytest.approx(0.5)
    assert anchor_weight(5, "apga") == 0.0 and anchor_weight(5, "frozen") == 1.0
    with pytest.raises(ValueError, match="anchor rule"):
        anchor_weight(1, "halpern")
    with pytest.raises(ValueError, match="k >= 1"):
        anchor_weight(0, "gabp")


def test_two_steps_of_algorithm_1_by_hand():
    # A constant payoff gradient 1 for player 1 on a wide 1-D box, eta = 0.5, mu = 1, T_sigma = 1:
    # step 1 (k = 1, anchor sigma^1 = 4): x2 = 4 + 0.5 (1 - 0) = 4.5; sigma^2 = 4.5;
    # step 2: GABP anchor (2 * 4.5 + 4) / 3 = 13/3, x3 = 4.5 + 0.5 (1 - (4.5 - 13/3)) = 4.91667;
    # APGA anchor 4.5: x3 = 5.0; frozen anchor 4: x3 = 4.75.
    game = TwoPlayerGame(lambda x, y: (0 * x + 1.0, 0 * y), (StrategySet("box", 10.0),) * 2, (1, 1))
    x0, y0 = np.array([[4.0]]), np.array([[-2.0]])
    for rule, expected in (("gabp", 4.5 + 0.5 * (1 - (4.5 - 13 / 3))), ("apga", 5.0), ("frozen", 4.75)):
        _, x, y = perturbed_gradient_ascent(game, x0, y0, eta=0.5, mu=1.0, T=2, T_sigma=1, anchor=rule)
        assert x[0, 0] == pytest.approx(expected, rel=1e-15)
        assert y[0, 0] == -2.0


def test_phase_step_schedule_restarts_in_every_phase():
    # V = 0, mu = 1: x <- x - eta_tau (x - anchor); with the frozen anchor 0 the factor after T steps is
    # prod (1 - eta_tau) over the positions tau of each step in its phase.
    game = TwoPlayerGame(lambda x, y: (0 * x, 0 * y), (StrategySet("box", 10.0),) * 2, (1, 1))
    etas = np.array([0.5, 0.25, 0.1])
    x1 = np.array([[8.0]])
    _, x, _ = perturbed_gradient_ascent(game, x1, x1, eta=etas, mu=1.0, T=7, T_sigma=3, anchor="apga")
    # APGA's anchor is the phase's start, so each phase contracts towards its own start: no move at all
    assert x[0, 0] == pytest.approx(8.0)
    game0 = TwoPlayerGame(lambda x, y: (0 * x - x, 0 * y), (StrategySet("box", 10.0),) * 2, (1, 1))
    _, x, _ = perturbed_gradient_ascent(game0, x1, x1, eta=etas, mu=0.0, T=7, T_sigma=3, anchor="apga")
    assert x[0, 0] == pytest.approx(8.0 * (0.5 * 0.75 * 0.9) ** 2 * 0.5)


@pytest.mark.parametrize("rule,power", [("gabp", 1.0), ("apga", 1.0), ("frozen", 1.0), ("gabp", 0.75)])
@pytest.mark.parametrize("lam,T,T_sigma", [(0.3, 537, 40), (1.0, 120, 7), (0.02, 301, 300)])
def test_closed_form_equals_the_step_by_step_algorithm(rule, power, lam, T, T_sigma):
    R, eta, mu = 1.5, 0.2, 1.0
    z1 = 0.6 * np.exp(0.7j)
    _, x, y = perturbed_gradient_ascent(box_bilinear(lam, R), np.array([[z1.real]]), np.array([[z1.imag]]),
                                        eta=eta, mu=mu, T=T, T_sigma=T_sigma, anchor=rule, power=power)
    F, radius = rotation_closed_form([lam], eta=eta, mu=mu, T=T, T_sigma=T_sigma, anchor=rule, power=power)
    z = F[0] * z1
    assert x[0, 0] == pytest.approx(z.real, abs=1e-13) and y[0, 0] == pytest.approx(z.imag, abs=1e-13)
    assert radius[0] * abs(z1) < R  # the box was never reached, so the projection never acted


def test_closed_form_radius_bounds_every_iterate():
    lam, eta, mu, T, T_sigma = 1.0, 0.2, 1.0, 60, 9
    game = box_bilinear(lam, 100.0)
    z1 = 1.0 + 0.0j
    _, radius = rotation_closed_form([lam], eta=eta, mu=mu, T=T, T_sigma=T_sigma)
    largest = 0.0
    for n in range(1, T + 1):
        _, x, y = perturbed_gradient_ascent(game, np.array([[z1.real]]), np.array([[z1.imag]]), eta=eta, mu=mu,
                                            T=n, T_sigma=T_sigma)
        largest = max(largest, math.hypot(x[0, 0], y[0, 0]))
    assert largest <= radius[0] + 1e-12


def test_noisy_moments_match_monte_carlo_of_the_algorithm():
    lam, R, mu, T, T_sigma, s = 0.3, 1.5, 1.0, 300, 60, 0.5
    etas = 1.0 / (0.5 * np.arange(1, T_sigma + 1) + 11.0)
    z1 = 0.8 * np.exp(0.3j)
    S = 20000
    _, x, y = perturbed_gradient_ascent(box_bilinear(lam, R), np.full((S, 1), z1.real), np.full((S, 1), z1.imag),
                                        eta=etas, mu=mu, T=T, T_sigma=T_sigma, noise_std=s,
                                        rng=np.random.default_rng(1))
    mo = rotation_noisy_moments([lam], etas=etas, mu=mu, T=T, T_sigma=T_sigma, noise_std=s)
    z = x[:, 0] + 1j * y[:, 0]
    m = mo.mean_factor[0] * z1
    se = math.sqrt(mo.variance[0] / 2 / S)
    assert abs(z.mean().real - m.real) < 5 * se and abs(z.mean().imag - m.imag) < 5 * se
    # sample variance of x + y components: relative standard error sqrt(2/S) each
    assert np.var(z.real) + np.var(z.imag) == pytest.approx(mo.variance[0], rel=6 * math.sqrt(2 / S))
    gaps = R * lam * (np.abs(z.real) + np.abs(z.imag))
    assert gaps.mean() == pytest.approx(float(rotation_expected_gap(m, mo.variance[0], lam, R)),
                                        abs=5 * gaps.std() / math.sqrt(S))


def test_noiseless_moments_equal_the_closed_form():
    etas = np.full(13, 0.2)
    mo = rotation_noisy_moments([0.4, 0.9], etas=etas, mu=1.0, T=100, T_sigma=13, noise_std=0.0)
    F, _ = rotation_closed_form([0.4, 0.9], eta=0.2, mu=1.0, T=100, T_sigma=13)
    np.testing.assert_allclose(mo.mean_factor, F, rtol=1e-12)
    assert np.all(mo.variance == 0.0)


def test_folded_normal_and_exit_bound():
    for m, s in ((0.3, 0.7), (-1.2, 0.4), (2.0, 1e-3)):
        assert folded_normal_mean(m, s) == pytest.approx(foldnorm(abs(m) / s, scale=s).mean(), rel=1e-10)
    assert folded_normal_mean(-0.4, 0.0) == 0.4
    logp = box_exit_log_probability(0.5, 0.2, 2.0, 10)
    assert logp == pytest.approx(math.log(40 * norm.cdf(-1.5 * math.sqrt(2) / 0.2)), rel=1e-9)
    assert box_exit_log_probability(2.5, 0.1, 2.0, 10) == 0.0


def test_bad_arguments_raise():
    game = bilinear_zero_sum(np.eye(2))
    x0 = np.full((1, 2), 0.5)
    with pytest.raises(ValueError, match="T_sigma"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, anchor="gabp")
    with pytest.raises(ValueError, match="rng"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, T_sigma=2, noise_std=0.1)
    with pytest.raises(ValueError, match="anchor"):
        perturbed_gradient_ascent(game, x0, x0, eta=0.1, mu=1.0, T=10, T_sigma=2, anchor="halpern")
    with pytest.raises(ValueError, match="step sizes"):
        perturbed_gradient_ascent(game, x0, x0, eta=[0.1, 0.2], mu=1.0, T=10, T_sigma=3)
    with pytest.raises(ValueError, match="contract"):
        rotation_closed_form([1.0], eta=3.0, mu=1.0, T=10, T_sigma=2)
    with pytest.raises(ValueError, match="coupling"):
        box_bilinear(0.0, 1.0)


# --------------------------------------------------------------------------- the paper's formulas
def test_theorem_formulas_by_hand():
    # Theorem 4.1 with eta = 0.2, mu = 1, T = 1e4: Lambda = 6 ln(30003)/ln(1.2) + 1
    lam = 6 * math.log(30003) / math.log(1.2) + 1
    assert theorem41_factor(10**4) == pytest.approx(lam, rel=1e-14)
    assert theorem41_interval(10**4) == math.ceil(lam - 1) == 340
    D = 2 * math.sqrt(2) * 3.0
    assert theorem41_bound(101, 10**4) == pytest.approx(17 * D**2 * lam * (1 + 1.2 / 0.2) / 100, rel=1e-14)
    # Theorem 4.3 with mu = L = 1: kappa = 1/2, theta = 11/2, eta_tau = 1/(tau/2 + 11)
    np.testing.assert_allclose(theorem43_steps(3), [1 / 11.5, 1 / 12, 1 / 12.5])
    f = math.sqrt((D**2 + 0.01 / 2.75 * math.log(0.5 * 128 / 11 + 1)) / 0.5) + 1
    assert theorem43_log_factor(128) == pytest.approx(f, rel=1e-14)
    zeta = math.sqrt(2) * 3.0
    assert theorem43_bound(128) == pytest.approx(26 * (2 * D + zeta) * math.sqrt((D + 1) * (D + 5.5) + 0.5)
                                                 / 128 ** (1 / 7) * f, rel=1e-14)
