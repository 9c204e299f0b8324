"""Tests of simulations.games.hetero_data against independent values: explicit formulas, finite
differences, scipy optimisers, exhaustive pure-equilibrium enumeration of grid games, and dense
sampling of what the certificates claim."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize

from simulations.games import pure_nash_equilibria
from simulations.games.hetero_data import (
    DataMarket,
    best_deviation,
    best_response_dynamics,
    certify_homogeneous_pne,
    certify_no_symmetric_point_prop,
    certify_no_symmetric_point_prox,
    certify_profile,
    certify_share_below,
    concavity_radius,
    homogeneous_status,
    homogeneous_threshold,
    prop_share,
    prop_share_gradient,
    proportional_allocation,
    prox_allocation_gains,
    prox_best_response_at_truth,
    prox_share,
    share_hessian,
    split_weights,
)


def _market(seed: int, K: int = 2, D: int = 2, weights=None) -> DataMarket:
    return DataMarket.random(np.random.default_rng(seed), K, D, weights=weights)


# --------------------------------------------------------------------------- the model
def test_losses_gradients_and_weighted_optimum():
    m = _market(0, K=3)
    x = np.array([0.3, -0.7])
    for k in range(3):
        d = x - m.truths[k]
        assert m.losses(x)[k] == pytest.approx(d @ m.covariances[k] @ d, rel=1e-14)
    eps = 1e-6
    fd = np.stack([(m.losses(x + eps * e) - m.losses(x - eps * e)) / (2 * eps) for e in np.eye(2)], axis=1)
    np.testing.assert_allclose(m.loss_gradients(x), fd, atol=1e-8)
    q = np.array([0.2, 0.5, 0.3])
    res = minimize(lambda th: q @ m.losses(th), np.zeros(2), method="BFGS", options={"gtol": 1e-12})
    np.testing.assert_allclose(m.weighted_optimum(q), res.x, atol=1e-6)
    q_back, dist = m.simplex_coordinates(m.weighted_optimum(q))
    np.testing.assert_allclose(q_back, q, atol=1e-8)
    assert dist < 1e-10
    far = m.truths.mean(axis=0) + 10.0  # far outside the set of weighted optima
    assert m.simplex_coordinates(far)[1] > 1.0


def test_market_validation():
    S = np.stack([np.eye(2)] * 2)
    with pytest.raises(ValueError, match="sum to 1"):
        DataMarket([0.5, 0.6], np.zeros((2, 2)), S)
    with pytest.raises(ValueError, match="positive definite"):
        DataMarket([0.5, 0.5], np.zeros((2, 2)), np.stack([np.eye(2), -np.eye(2)]))
    with pytest.raises(ValueError, match="shapes|need weights"):
        DataMarket([0.5, 0.5], np.zeros((2, 3)), S)
    np.testing.assert_allclose(split_weights(0.4, [0.25, 0.75]), [0.4, 0.15, 0.45])


def test_prop_shares_are_the_softmax_and_sum_to_one():
    m = _market(1, K=3)
    rng = np.random.default_rng(2)
    prof = rng.normal(size=(4, 2))
    t = 0.37
    L = m.losses(prof)  # (N, K)
    softmax = np.exp(-L / t) / np.exp(-L / t).sum(axis=0)
    expected = softmax @ m.weights
    got = [float(prop_share(m, prof[n], np.delete(prof, n, axis=0), t)) for n in range(4)]
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    assert sum(got) == pytest.approx(1.0, abs=1e-12)
    same = np.repeat(prof[:1], 3, axis=0)
    assert float(prop_share(m, prof[0], same, t)) == pytest.approx(0.25, abs=1e-15)


def test_prop_gradient_and_hessian_by_finite_differences():
    m = _market(3, K=3)
    riv = np.array([[0.1, 0.2], [-0.5, 0.4]])
    a, t, eps = np.array([0.3, -0.1]), 0.6, 1e-5
    _, g = prop_share_gradient(m, a, riv, t)
    fd = [(prop_share(m, a + eps * e, riv, t) - prop_share(m, a - eps * e, riv, t)) / (2 * eps) for e in np.eye(2)]
    np.testing.assert_allclose(g, fd, atol=1e-9)
    H = share_hessian(m, a, riv, t)
    fdH = np.stack([(prop_share_gradient(m, a + eps * e, riv, t)[1] - prop_share_gradient(m, a - eps * e, riv, t)[1])
                    / (2 * eps) for e in np.eye(2)], axis=1)
    np.testing.assert_allclose(H, fdH, atol=1e-7)


def test_prox_shares_split_ties_and_sum_to_one():
    m = _market(4, K=3, weights=[0.2, 0.3, 0.5])
    prof = np.concatenate([m.truths[:1], m.truths[:1], m.truths[1:2], m.weighted_optimum()[None]])
    shares = [float(prox_share(m, prof[n], np.delete(prof, n, axis=0))) for n in range(4)]
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] == shares[1]  # identical models split everything they win
    assert float(prox_share(m, m.truths[2], m.truths[2][None])) == 0.5


# --------------------------------------------------------------------------- the duopoly reduction
@pytest.mark.parametrize("t", [0.05, 0.3, 2.0])
def test_duopoly_equilibria_are_b_times_b_on_a_grid_game(t):
    # Exhaustive pure equilibria of the duopoly restricted to a grid of models, against the set
    # B = {b : max_a u_1(a, b) <= 1/2} of the symmetric constant-sum reduction.
    m = _market(5, K=2, D=1, weights=[0.65, 0.35])
    grid = np.linspace(m.truths.min() - 0.5, m.truths.max() + 0.5, 41)[:, None]
    u1 = prop_share(m, grid[:, None, :], grid[None, :, None, :], t)  # u1[a, b]
    payoffs = np.stack([u1, u1.T])
    eqs = {e.profile for e in pure_nash_equilibria(payoffs, tol=1e-12)}
    B = [b for b in range(len(grid)) if u1[:, b].max() <= 0.5 + 1e-12]
    assert eqs == set(itertools.product(B, B))


# --------------------------------------------------------------------------- certificates
def test_concavity_radius_gives_a_concave_ball():
    m = _market(6, K=2)
    M = m.weighted_optimum()
    riv = np.repeat(M[None], 3, axis=0)
    rho = concavity_radius(m, M, riv, 1.5)
    assert rho > 0
    rng = np.random.default_rng(0)
    for _ in range(200):
        d = rng.normal(size=2)
        a = M + rho * rng.uniform() * d / np.linalg.norm(d)
        assert np.linalg.eigvalsh(share_hessian(m, a, riv, 1.5))[-1] < 0


def test_share_certificate_is_valid_and_stops_at_a_violation():
    m = _market(7, K=3)
    riv = np.array([[0.0, 0.0], [1.0, -0.5]])
    t = 0.4
    best = best_deviation(m, riv, t)[1]
    ok = certify_share_below(m, riv, t, best + 1e-3)
    assert ok.certified
    pts = np.random.default_rng(1).uniform(-4, 4, size=(20000, 2))
    assert prop_share(m, pts, riv[None], t).max() < best + 1e-3
    bad = certify_share_below(m, riv, t, best - 1e-3)
    assert not bad.certified and bad.violated
    assert float(prop_share(m, np.array(bad.stuck), riv, t)) >= best - 1e-3


def test_homogeneous_threshold_is_certified_on_both_sides_against_a_dense_grid():
    m = _market(8, K=2, weights=[0.7, 0.3])
    lo, hi = homogeneous_threshold(m, 2, 1e-3, 100.0, iterations=14)
    M = m.weighted_optimum()
    g = np.stack(np.meshgrid(*[np.linspace(-5, 5, 401)] * 2, indexing="ij"), axis=-1).reshape(-1, 2)
    assert prop_share(m, g, M[None, None], 0.9 * lo).max() > 0.5  # a deviation gains below the bracket
    assert prop_share(m, g, M[None, None], hi * 1.01).max() <= 0.5 + 1e-12
    assert homogeneous_status(m, 2, hi * 1.01)[0] == "pne"
    assert homogeneous_status(m, 2, lo * 0.99)[0] == "deviation"


def test_no_symmetric_point_certificate_against_best_responses():
    m = _market(9, K=2, weights=[0.75, 0.25])
    lo, _ = homogeneous_threshold(m, 2, 1e-3, 100.0, iterations=14)
    t = 0.5 * lo
    res = certify_no_symmetric_point_prop(m, t)
    assert res.certified
    # every sampled candidate b has a deviation with share above 1/2
    for b in np.random.default_rng(2).uniform(-3, 3, size=(15, 2)):
        assert best_deviation(m, b[None], t)[1] > 0.5


def test_prox_certificate_fails_where_a_pne_exists():
    # One dimension, three sources at -1, 0, 1 with masses (0.3, 0.4, 0.3): no source has half of the
    # mass, yet (0, 0) is a PNE (a deviation captures the sources on one side only, mass 0.3): the
    # truths are not affinely independent, so Theorem 5.1's condition fails, and the certificate
    # must not claim non-existence.
    m = DataMarket([0.3, 0.4, 0.3], [[-1.0], [0.0], [1.0]], np.ones((3, 1, 1)))
    assert not certify_no_symmetric_point_prox(m, max_cells=20_000).certified
    dev = np.linspace(-3, 3, 6001)[:, None]
    assert prox_share(m, dev, np.zeros((1, 1, 1))).max() == pytest.approx(0.5)
    # in two dimensions with the same masses (affinely independent truths) there is no PNE
    m2 = _market(10, K=3, weights=[0.3, 0.4, 0.3])
    assert certify_no_symmetric_point_prox(m2).certified
    assert prox_best_response_at_truth(m2, 1) == pytest.approx(0.6)


def test_profile_certificates():
    m = _market(11, K=2, weights=[0.6, 0.4])
    lo, hi = homogeneous_threshold(m, 3, 1e-3, 100.0, iterations=12)
    t = 2.0 * hi
    M = m.weighted_optimum()
    assert certify_homogeneous_pne(m, 3, t).certified
    prof = best_response_dynamics(m, np.repeat(M[None], 3, axis=0) + 1e-3 * np.eye(3, 2), t)
    assert all(c.certified for c in certify_profile(m, prof, t, 1e-9))
    moved = prof.copy()
    moved[0] = m.truths[0]
    assert not certify_profile(m, moved, t, 1e-9, max_cells=50_000)[0].certified


def test_proportional_allocation_and_prox_gains_by_hand():
    assert proportional_allocation([0.5, 0.3, 0.2], 10).tolist() == [5, 3, 2]
    assert proportional_allocation([0.45, 0.55], 3).sum() == 3
    m = DataMarket([0.5, 0.5], [[0.0, 0.0], [1.0, 1.0]], np.stack([np.eye(2)] * 2))
    # one provider per source: each has 1/2; joining the other source gives 1/4; a model next to its
    # own truth keeps its source (gain 0); so the best deviation gains nothing
    np.testing.assert_allclose(prox_allocation_gains(m, [1, 1]), [0.0, 0.0])
    # two and one on three sources of masses (1/2, 1/4, 1/4): a pair member has 1/4; joining a single
    # source gives 1/8, a model next to its truth nothing (its partner keeps the source)
    m3 = DataMarket([0.5, 0.25, 0.25], [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], np.stack([np.eye(2)] * 3))
    np.testing.assert_allclose(prox_allocation_gains(m3, [2, 1, 1])[0], -0.125)
    # masses (0.3, 0.7), both providers on source 1: they split both sources (1/2 each); moving to
    # source 2 takes it alone (0.7)
    g = prox_allocation_gains(m.with_weights([0.3, 0.7]), [2, 0])
    assert g[0] == pytest.approx(0.2) and np.isnan(g[1])
