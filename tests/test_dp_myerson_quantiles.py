"""Tests of simulations.auctions against closed forms, a linear program and Monte Carlo."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import linprog

from simulations.auctions import (
    PiecewiseUniform,
    VirtualValueAuction,
    auction_from_curves,
    cap_log_probabilities,
    capped_clustered_neighbours,
    capped_pair_privacy_loss,
    capped_privacy_audit,
    capped_private_quantiles,
    clustered_neighbours,
    deviation_gains,
    discrete_ironed_curve,
    expected_max_positive,
    expected_revenue,
    geometric_caps,
    ironed_curve,
    max_log_ratio,
    myerson_revenue,
    pair_privacy_loss,
    posted_price_utility,
    privacy_audit,
    private_quantiles,
    quantile_auction,
    quantile_output_density,
    repeated_auction_audit,
    sample_quantile,
    utility_log_ratio,
)


@pytest.mark.parametrize("dists, ref", [
    ([stats.uniform(0, 1)], 1 / 4),
    ([stats.uniform(0, 1)] * 2, 5 / 12),
    ([stats.uniform(0, 1)] * 3, 17 / 32),            # (n-1)/(n+1) + 2^-n/(n+1)
    ([stats.uniform(0, 1), stats.uniform(0, 2)], 31 / 48),
    ([stats.expon()], math.exp(-1)),
    ([stats.expon()] * 2, 2 * math.exp(-1) - math.exp(-2) / 2),
])
def test_myerson_revenue_closed_forms(dists, ref):
    assert myerson_revenue(dists) == pytest.approx(ref, abs=1e-6)


def test_single_irregular_bidder_is_the_best_posted_price():
    m = PiecewiseUniform([(0.0, 1.0), (1.0, 3.0)], [0.9, 0.1])
    p = np.linspace(0, 3, 300001)
    assert myerson_revenue([m]) == pytest.approx(float(np.max(p * m.sf(p))), abs=1e-6)
    # ironing matters with two bidders: raw virtual values give a different number
    assert abs(myerson_revenue([m, m]) - myerson_revenue([m, m], iron=False)) > 1e-2


def test_piecewise_uniform_matches_scipy_uniform():
    m, u = PiecewiseUniform([(1.0, 3.0)], [1.0]), stats.uniform(1, 2)
    x = np.linspace(0, 4, 17)
    np.testing.assert_allclose(m.cdf(x), u.cdf(x), atol=1e-15)
    q = np.linspace(0, 1, 11)
    np.testing.assert_allclose(m.isf(q), u.isf(q), atol=1e-15)


def test_discrete_ironing_hand_case():
    # values 1, 2 with mass 1/2: revenue curve points (0, 0), (1/2, 1), (1, 1) -> slopes 2, 0
    c = discrete_ironed_curve([1.0, 2.0], [0.5, 0.5])
    np.testing.assert_allclose(c.phi, [2.0, 0.0])
    assert expected_max_positive([c]) == pytest.approx(1.0)
    # an irregular discrete distribution: values 1, 2, 3 with mass .5, .1, .4 -> points
    # (0,0), (.4,1.2), (.5,1.0), (1,1): (.5,1.0) lies below the chord, ironing 2 with 1
    c = discrete_ironed_curve([1.0, 2.0, 3.0], [0.5, 0.1, 0.4])
    np.testing.assert_allclose(c.phi, [3.0, -0.2 / 0.6, -0.2 / 0.6])


def _lp_optimal_revenue(values, probs):
    """Optimal DSIC revenue for two bidders with discrete iid values, by linear programming."""
    K = len(values)
    prof = list(itertools.product(range(K), repeat=2))
    idx = {(i, a, b): n for n, (i, (a, b)) in enumerate(itertools.product(range(2), prof))}
    nx = len(idx)  # x variables, then p variables
    c = np.zeros(2 * nx)
    for (_i, a, b), n in idx.items():
        c[nx + n] = -probs[a] * probs[b]
    A, ub = [], []
    for a, b in prof:  # feasibility
        row = np.zeros(2 * nx)
        row[idx[0, a, b]] = row[idx[1, a, b]] = 1
        A.append(row)
        ub.append(1)
    for i, (a, b) in itertools.product(range(2), prof):
        own = a if i == 0 else b
        for dev in range(K):
            if dev == own:
                continue
            da, db = (dev, b) if i == 0 else (a, dev)
            row = np.zeros(2 * nx)  # u(dev) - u(true) <= 0
            row[idx[i, da, db]] += values[own]
            row[nx + idx[i, da, db]] -= 1
            row[idx[i, a, b]] -= values[own]
            row[nx + idx[i, a, b]] += 1
            A.append(row)
            ub.append(0)
        row = np.zeros(2 * nx)  # individual rationality
        row[idx[i, a, b]] = -values[own]
        row[nx + idx[i, a, b]] = 1
        A.append(row)
        ub.append(0)
    res = linprog(c, A_ub=np.array(A), b_ub=ub, bounds=[(0, 1)] * nx + [(None, None)] * nx, method="highs")
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("values, probs", [([1.0, 2.0, 3.0], [0.5, 0.1, 0.4]), ([0.5, 1.0, 4.0, 5.0], [0.3, 0.3, 0.2, 0.2])])
def test_discrete_myerson_matches_linear_program(values, probs):
    ours = myerson_revenue([(values, probs)] * 2)
    assert ours == pytest.approx(_lp_optimal_revenue(values, probs), abs=1e-9)


def test_expected_revenue_matches_monte_carlo_of_the_auction():
    rng = np.random.default_rng(0)
    dists = [stats.uniform(0, 1), stats.uniform(0, 2)]
    auction = quantile_auction([np.sort(rng.uniform(0, 1, 6)), np.sort(rng.uniform(0, 2, 6))])
    exact = expected_revenue(auction, dists)
    v = np.column_stack([d.rvs(size=20000, random_state=rng) for d in dists])
    pay = np.array([auction.outcome(row)[1] for row in v])
    se = pay.std() / np.sqrt(pay.size)
    assert abs(pay.mean() - exact) < 4 * se
    # the optimal auction's revenue by the same formula equals myerson_revenue
    opt = auction_from_curves([ironed_curve(d) for d in dists])
    assert expected_revenue(opt, dists) == pytest.approx(31 / 48, abs=1e-6)


def test_quantile_density_hand_case_and_normalisation():
    eps = 1.0
    edges, logd = quantile_output_density([0.25, 0.75], 0.5, eps, 0.0, 1.0)
    z = 0.25 * math.exp(-eps / 2) * 2 + 0.5
    np.testing.assert_allclose(np.exp(logd), [math.exp(-eps / 2) / z, 1 / z, math.exp(-eps / 2) / z])
    rng = np.random.default_rng(1)
    data = rng.uniform(size=7)
    edges, logd = quantile_output_density(data, 0.3, 2.0, 0.0, 1.0)
    assert np.sum(np.exp(logd) * np.diff(edges)) == pytest.approx(1.0, abs=1e-12)
    draws = np.array([sample_quantile(rng, data, 0.3, 2.0, 0.0, 1.0) for _ in range(4000)])
    mean = np.sum(np.exp(logd) * np.diff(edges) * 0.5 * (edges[1:] + edges[:-1]))
    assert abs(draws.mean() - mean) < 4 * draws.std() / np.sqrt(draws.size)


def test_max_log_ratio_matches_a_fine_grid():
    d1, d2 = [0.1, 0.4, 0.8], [0.1, 0.9, 0.8]
    exact = max_log_ratio(d1, d2, 0.5, 1.3, 0.0, 1.0)
    grid = np.linspace(0.0005, 0.9995, 1000)
    e1, l1 = quantile_output_density(d1, 0.5, 1.3, 0.0, 1.0)
    e2, l2 = quantile_output_density(d2, 0.5, 1.3, 0.0, 1.0)
    f1 = l1[np.searchsorted(e1, grid, side="right") - 1]
    f2 = l2[np.searchsorted(e2, grid, side="right") - 1]
    assert exact == pytest.approx(np.max(f1 - f2), abs=1e-12)
    assert exact <= 1.3 / 2 * 2 + 1e-12  # the exponential mechanism's guarantee for sensitivity 1


def test_audit_separates_the_private_mechanism_from_half_noise():
    domain = np.linspace(0, 1, 6)
    data = np.array([0.0, 0.2, 0.2, 1.0])
    assert privacy_audit(data, domain, 2, 1.0, 0.0, 1.0) <= 1.0 + 1e-12
    assert privacy_audit(data, domain, 2, 1.0, 0.0, 1.0, noise_factor=1.0) > 1.0


def test_second_price_scores_are_truthful_and_first_price_is_not():
    grid = np.linspace(0, 1, 101)
    auction = VirtualValueAuction((grid, grid), (grid + 1e-3, grid + 1e-3))  # a second-price auction on the grid
    values = np.array([[0.3, 0.7], [0.9, 0.2], [0.55, 0.55]])
    gain, util = deviation_gains(auction, values, grid)
    assert gain.max() <= 1e-12 and util.min() >= -1e-12
    assert auction.outcome([0.3, 0.7]) == (1, pytest.approx(0.31))
    gain, _ = deviation_gains(auction, values, grid, payment_rule="pay_your_bid")
    assert gain.max() > 0.1


def test_cap_probabilities_hand_case():
    # data {0.3, 3}, caps {1, 2, 4}, target 0.5, epsilon 2 (exponent factor 1): counts above
    # are 1, 1, 0, so utilities -0.5, -0.5, -0.5; the 1/H^2 prior gives weights 1, 1/4, 1/16
    logp = cap_log_probabilities([0.3, 3.0], [1.0, 2.0, 4.0], 0.5, 2.0)
    w = np.array([1.0, 0.25, 0.0625])
    np.testing.assert_allclose(np.exp(logp), w / w.sum(), rtol=1e-14)
    # counts 2, 1, 0 against target 1: utilities -1, 0, -1 -> weights e^-1, e^0/4, e^-1/16
    logp = cap_log_probabilities([3.0, 5.0], [1.0, 4.0, 8.0], 1.0, 2.0)
    w = np.array([math.exp(-1), 1 / 16, math.exp(-1) / 64])
    np.testing.assert_allclose(np.exp(logp), w / w.sum(), rtol=1e-14)
    np.testing.assert_allclose(geometric_caps(0.5, 3), [0.5, 1.0, 2.0])
    with pytest.raises(ValueError):
        geometric_caps(0.0, 3)


def test_cap_privacy_ratio_is_at_most_epsilon_by_brute_force():
    # replace-one neighbours on a small domain: the cap alone is eps-DP (prior cancels)
    caps = geometric_caps(0.25, 5)
    domain = [0.0, 0.2, 0.6, 1.5, 3.0, 9.0]
    worst = 0.0
    for data in itertools.product(domain, repeat=3):
        for pos, val in itertools.product(range(3), domain):
            nb = list(data)
            nb[pos] = val
            lr = cap_log_probabilities(data, caps, 0.5, 1.0) - cap_log_probabilities(nb, caps, 0.5, 1.0)
            worst = max(worst, float(lr.max()))
    assert 0.3 < worst <= 1.0 + 1e-12


def test_capped_release_and_its_audit():
    rng = np.random.default_rng(5)
    caps = geometric_caps(1 / 16, 20, np.sqrt(2))
    H, q = capped_private_quantiles(rng, rng.exponential(size=2000), 8, 4.0, caps, 0.2)
    assert H in caps and np.all(np.diff(q) >= 0) and q[-1] <= H
    assert 2.0 <= H <= 16.0  # the target puts H near the 1 - 1/18 quantile of Exp(1), about 2.9
    caps = geometric_caps(0.25, 5)
    domain = np.concatenate([[0.0], geometric_caps(0.125, 7)])
    stair = domain[[0, 2, 4, 6]]
    assert capped_privacy_audit(stair, domain, 2, 1.0, caps) <= 1.0 + 1e-12
    assert capped_privacy_audit(stair, domain, 2, 1.0, caps, compose=False) > 1.0


def test_posted_price_utility_against_quadrature_and_the_audit():
    from scipy import integrate

    data = [0.1, 0.4, 0.45, 0.8]
    edges, logd = quantile_output_density(data, 0.5, 1.0, 0.0, 1.0)

    def density(o):
        k = min(max(int(np.searchsorted(edges, o, side="right")) - 1, 0), logd.size - 1)
        return math.exp(logd[k])

    for v, u in zip([0.3, 0.7, 1.0], posted_price_utility(data, 0.5, 1.0, 0.0, 1.0, [0.3, 0.7, 1.0]), strict=True):
        ref = integrate.quad(lambda o, v=v: density(o) * max(v - o, 0.0), 0.0, 1.0, points=edges[1:-1], limit=200)[0]
        assert u == pytest.approx(ref, rel=1e-9)
    domain = np.linspace(0.0, 1.0, 12)
    values = np.concatenate([np.geomspace(1e-3, 0.05, 8), np.linspace(0.1, 1.0, 10)])
    adversarial = np.where(np.arange(5) < 3, domain[1], domain[-1])
    assert repeated_auction_audit(adversarial, domain, 0.5, 1.0, 0.0, 1.0, values) <= 1.0 + 1e-12
    assert repeated_auction_audit(adversarial, domain, 0.5, 1.0, 0.0, 1.0, values, noise_factor=1.0) > 1.0


def test_private_quantiles_equal_k_single_draws_from_one_stream():
    # the vectorised release consumes the stream as K calls of sample_quantile (one uniform for
    # the interval, one for the point), so both give the same K values from one seed
    for seed, (n, K) in enumerate([(1, 1), (7, 3), (200, 15), (1500, 39)]):
        data = np.random.default_rng(seed).uniform(0.0, 2.0, n)
        rng = np.random.default_rng(100 + seed)
        ref = np.sort([sample_quantile(rng, data, k / (K + 1), 1.5 / K, 0.0, 2.0) for k in range(1, K + 1)])
        got = private_quantiles(np.random.default_rng(100 + seed), data, K, 1.5, 0.0, 2.0)
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)
    with pytest.raises(ValueError):
        private_quantiles(np.random.default_rng(0), [0.5], 0, 1.0, 0.0, 1.0)


def test_replace_one_neighbours_by_hand():
    from simulations.auctions.private_quantiles import replace_one_neighbours

    got = sorted(tuple(nb) for nb in replace_one_neighbours([1.0, 1.0, 2.0], [1.0, 2.0, 3.0]))
    # one of the equal 1s is replaced (by 2 or 3); the 2 by 1 or 3
    assert got == sorted([(2.0, 1.0, 2.0), (3.0, 1.0, 2.0), (1.0, 1.0, 1.0), (1.0, 1.0, 3.0)])


def test_corner_distribution_with_exponential_tail():
    d = PiecewiseUniform([(0.0, 0.4), (0.4, 0.7)], [0.35, 0.15], tail=(0.7, 0.3, 0.5))
    assert d.cdf(1.0) == pytest.approx(0.5 + 0.5 * (1 - math.exp(-1.0)), abs=1e-15)
    q = np.array([1e-12, 0.05, 0.5, 0.6, 0.99])
    assert np.allclose(d.sf(d.isf(q)), q, rtol=1e-9, atol=1e-15)
    # virtual value v - 0.3 on the tail, negative below 0.7: reserve 0.7, revenue E[phi^+] = 0.35
    assert myerson_revenue([d]) == pytest.approx(0.35, abs=1e-6)
    with pytest.raises(ValueError):
        PiecewiseUniform([(0.0, 1.0)], [0.5], tail=(0.5, 1.0, 0.5))


def test_two_corner_bidders_optimal_revenue():
    # phi_1 = 2v - 1 on [0.7, 1] (U[0.4, 1] w.p. 1/2), phi_2 = 2v - 2 on [1.4, 2] (U[0.8, 2] w.p.
    # 1/2), negative elsewhere: OPT = E[max(phi_1, phi_2)^+] = 1891/2160 by hand
    b1 = PiecewiseUniform([(0.0, 0.4), (0.4, 0.7), (0.7, 1.0)], [0.35, 0.15, 0.5])
    b2 = PiecewiseUniform([(0.0, 0.8), (0.8, 1.4), (1.4, 2.0)], [0.35, 0.15, 0.5])
    assert myerson_revenue([b1, b2]) == pytest.approx(1891 / 2160, abs=1e-6)


def test_clustered_pair_loses_the_budget_in_closed_form():
    # N = 2, K = 1 (the median, qN = 1): the loss is eps/2 + log(Z_D / Z_D') with
    # Z_D = (1 - s) + s e^(-eps/2) and Z_D' = (1 - s) e^(-eps/2) + s
    eps = 0.8
    for s in (1e-2, 1e-5):
        D, Dp = clustered_neighbours(2, spacing=s)
        zd, zdp = (1 - s) + s * math.exp(-eps / 2), (1 - s) * math.exp(-eps / 2) + s
        assert pair_privacy_loss(D, Dp, 1, eps, 0.0, 1.0) == pytest.approx(eps / 2 + math.log(zd / zdp), abs=1e-12)
    # every quantile loses its share at once: the release's loss tends to epsilon, never above
    for n, k in ((5, 2), (9, 4), (20, 3)):
        D, Dp = clustered_neighbours(n)
        assert 1.0 - 1e-6 < pair_privacy_loss(D, Dp, k, 1.0, 0.0, 1.0) <= 1.0 + 1e-12
        # with 10 % less noise the same pair loses 1.1 epsilon
        assert pair_privacy_loss(D, Dp, k, 1.0, 0.0, 1.0, noise_factor=0.55) == pytest.approx(1.1, abs=1e-5)


def test_capped_clustered_pair_loses_almost_the_budget():
    caps = geometric_caps(0.25, 7)
    D, Dp = capped_clustered_neighbours(6, caps[5], 1e3)
    loss = capped_pair_privacy_loss(D, Dp, 2, 1.0, caps)
    assert 0.99 < loss <= 1.0 + 1e-12
    assert capped_pair_privacy_loss(D, Dp, 2, 1.0, caps, noise_factor=0.55) > 1.05


def test_reflected_clustered_pair_moves_future_utility_by_almost_e_to_the_epsilon():
    D, Dp = clustered_neighbours(5, spacing=1e-6)
    values = np.geomspace(1e-9, 1e-3, 13)
    r = utility_log_ratio(1.0 - D, 1.0 - Dp, 0.5, 1.0, 0.0, 1.0, values)
    assert 1.0 - 1e-4 < r <= 1.0 + 1e-12


def test_shared_prefix_sums_draw_the_same_intervals_as_explicit_cdfs():
    from simulations.auctions.private_quantiles import _intervals_two_sided

    rng = np.random.default_rng(0)
    for trial in range(60):
        n = int(rng.integers(1, 200))
        x = np.sort(rng.random(n) ** 3)
        if trial % 3 == 0:
            x[: n // 2] = x[0]  # repeated values: zero-width intervals
        w = np.diff(np.concatenate([[0.0], x, [1.0]]))
        K = int(rng.integers(1, 12))
        levels, rate, u = np.arange(1, K + 1) / (K + 1), float(rng.uniform(0.001, 3.0)), rng.random(K)
        with np.errstate(divide="ignore"):
            logp = np.log(w)[None, :] - rate * np.abs(np.arange(n + 1)[None, :] - levels[:, None] * n)
        cdf = np.cumsum(np.exp(logp - logp.max(axis=1, keepdims=True)), axis=1)
        cdf /= cdf[:, -1:]
        explicit = [np.searchsorted(c, v, side="right") for c, v in zip(cdf, u, strict=True)]
        assert list(_intervals_two_sided(w, levels * n, rate, u)) == explicit
    # exponents out of float range: the caller falls back to explicit CDFs
    assert _intervals_two_sided(np.ones(2000), np.array([1000.0]), 1.0, np.array([0.5])) is None
