"""Unit tests of simulations.sketches (Bloom filters, learned and ensemble learned Bloom filters)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simulations.sketches import (
    ALPHA,
    BloomFilter,
    GaussianOracle,
    StageConfig,
    bloom_false_positive_rate,
    bloom_false_positive_rate_finite,
    build_bloom_filter,
    draw_keys,
    ensemble_false_positive_rate,
    ensemble_query,
    lbf_false_positive_rate,
    optimal_hash_count,
    optimise_ensemble,
    optimise_single_lbf,
    splitmix64,
)


def test_splitmix64_reference_output():
    # First output of the reference SplitMix64 generator seeded with 0 (Vigna's splitmix64.c).
    assert int(splitmix64(np.array([0], dtype=np.uint64))[0]) == 0xE220A8397B1DCDAF


def test_bloom_formula_hand_values():
    assert bloom_false_positive_rate(8000, 1000, 6) == pytest.approx((1 - math.exp(-0.75)) ** 6)
    assert bloom_false_positive_rate(8000, 1000, 6) == pytest.approx(0.0216, abs=1e-4)
    assert ALPHA ** 8 == pytest.approx(0.0214, abs=1e-4)
    assert bloom_false_positive_rate_finite(10, 1, 1) == pytest.approx(0.1)
    assert optimal_hash_count(8000, 1000) == 6
    with pytest.raises(ValueError):
        bloom_false_positive_rate(0, 1, 1)


def test_bloom_filter_has_no_false_negatives_and_expected_fill():
    keys, queries = draw_keys(np.random.default_rng(0), 5000, 50_000)
    bf = build_bloom_filter(keys, 40_000, seed=3)
    assert bf.contains(keys).all()
    expected_fill = 1 - (1 - 1 / 40_000) ** (bf.k * 5000)
    assert bf.fill == pytest.approx(expected_fill, abs=5 * math.sqrt(expected_fill * (1 - expected_fill) / 40_000))
    # Given the filter, a non-key is a false positive w.p. fill^k (independent uniform positions).
    p = bf.fill ** bf.k
    fp = int(bf.contains(queries).sum())
    assert abs(fp - p * queries.size) <= 5 * math.sqrt(p * (1 - p) * queries.size)


def test_independent_filters_use_different_hashes():
    a, b = BloomFilter(1000, 3, seed=1), BloomFilter(1000, 3, seed=2)
    keys = np.arange(10, dtype=np.uint64)
    assert not np.array_equal(a._positions(keys), b._positions(keys))
    shared = BloomFilter(1000, 3, seed=1, shared_hash=True)
    pos = shared._positions(keys)
    assert np.all(pos == pos[:, :1])


def test_oracle_rates_and_diminishing_returns():
    o = GaussianOracle(2.0, 3.0, 2.0)
    assert o.separation == pytest.approx(3.0 * (1 - math.exp(-1)))
    assert o.false_positive_rate(1.5) == pytest.approx(1 - stats.norm.cdf(1.5))
    assert o.false_negative_rate(1.5) == pytest.approx(stats.norm.cdf(1.5 - o.separation))
    assert GaussianOracle(4.0, 1.0, 2.0, linear=True).separation == pytest.approx(2.0)


def test_lbf_and_ensemble_formulas():
    assert lbf_false_positive_rate(0.1, 0.0, 3.0) == 0.1
    assert lbf_false_positive_rate(0.1, 0.5, 2.0) == pytest.approx(0.1 + 0.9 * ALPHA ** 4)
    assert ensemble_false_positive_rate([0.1], [0.5], [2.0]) == pytest.approx(lbf_false_positive_rate(0.1, 0.5, 2.0))
    assert ensemble_false_positive_rate([0.1, 0.2], [0.5, 0.5], [2.0, 1.0]) == pytest.approx(
        lbf_false_positive_rate(0.1, 0.5, 2.0) * lbf_false_positive_rate(0.2, 0.5, 1.0))


def test_optimisers_beat_grids_and_ensemble_contains_single():
    single, f1 = optimise_single_lbf(6.0, 3.0, 2.0)
    assert single.oracle_bits + single.backup_bits == pytest.approx(6.0)
    grid = min(lbf_false_positive_rate(GaussianOracle(s, 3.0, 2.0).false_positive_rate(t),
                                       GaussianOracle(s, 3.0, 2.0).false_negative_rate(t), 6.0 - s)
               for s in np.linspace(0, 5.9, 60) for t in np.linspace(-1, 5, 61))
    assert f1 <= grid + 1e-12
    _, f2 = optimise_ensemble(6.0, 3.0, 2.0, restarts=4)
    assert f2 <= f1 * (1 + 1e-6)


def test_ensemble_query_single_stage_rejecting_oracle_is_a_bloom_filter():
    rng = np.random.default_rng(5)
    keys, queries = draw_keys(rng, 4000, 40_000)
    out = ensemble_query(rng, keys, queries, [StageConfig(0.0, 50.0, 8.0)], 3.0, 2.0)
    assert out["false_negatives"] == 0 and out["backup"][0][0] == 4000
    held, bits, k = out["backup"][0]
    p = bloom_false_positive_rate_finite(bits, held, k)
    assert abs(out["false_positives"] - p * 40_000) <= 5 * math.sqrt(p * 40_000)


def test_ensemble_query_rejects_bad_backup_mode():
    rng = np.random.default_rng(6)
    keys, queries = draw_keys(rng, 10, 10)
    with pytest.raises(ValueError):
        ensemble_query(rng, keys, queries, [StageConfig(1.0, 1.0, 1.0)], 3.0, 2.0, backup_holds="nope")


# ----------------------------------------------------------------------------- correlated oracles
def test_correlated_formula_reduces_to_the_product_at_zero_correlation():
    from scipy import stats as st

    from simulations.sketches import correlated_ensemble_false_positive_rate
    t, f = np.array([0.5, 1.0, -0.3]), np.array([0.1, 0.2, 0.05])
    fp = st.norm.sf(t)
    assert correlated_ensemble_false_positive_rate(t, f, 0.0) == pytest.approx(np.prod(fp + (1 - fp) * f), rel=1e-12)


def test_correlated_formula_against_scipy_bivariate_normal():
    # no backup filters (f = 0): FPR = P(z1 >= t1, z2 >= t2) = 1 - Phi(t1) - Phi(t2) + Phi2(t1, t2; rho)
    from scipy import stats as st

    from simulations.sketches import correlated_ensemble_false_positive_rate
    t, rho = np.array([0.3, 0.8]), 0.6
    both_below = st.multivariate_normal(mean=[0, 0], cov=[[1, rho], [rho, 1]]).cdf(t)
    expected = 1 - st.norm.cdf(t[0]) - st.norm.cdf(t[1]) + both_below
    assert correlated_ensemble_false_positive_rate(t, [0.0, 0.0], rho) == pytest.approx(expected, rel=1e-5)


def test_correlated_formula_against_monte_carlo():
    from simulations.sketches import correlated_ensemble_false_positive_rate
    rng = np.random.default_rng(0)
    N, rho, t, f = 2_000_000, 0.6, np.array([0.5, 1.0]), np.array([0.1, 0.2])
    z = np.sqrt(rho) * rng.standard_normal((N, 1)) + np.sqrt(1 - rho) * rng.standard_normal((N, 2))
    mc = np.mean(np.all((z >= t) | (rng.uniform(size=(N, 2)) < f), axis=1))
    assert correlated_ensemble_false_positive_rate(t, f, rho) == pytest.approx(mc, abs=5 * np.sqrt(mc / N))


def test_ensemble_query_correlation_zero_is_unchanged_and_rejects_bad_rho():
    from simulations.sketches import StageConfig, draw_keys, ensemble_query
    stages = [StageConfig(2.0, 1.0, 3.0), StageConfig(2.0, 1.5, 2.0)]
    keys, queries = draw_keys(np.random.default_rng(1), 500, 2000)
    a = ensemble_query(np.random.default_rng(2), keys, queries, stages, 3.0, 2.0)
    b = ensemble_query(np.random.default_rng(2), keys, queries, stages, 3.0, 2.0, correlation=0.0)
    assert a == b
    with pytest.raises(ValueError, match="correlation"):
        ensemble_query(np.random.default_rng(2), keys, queries, stages, 3.0, 2.0, correlation=1.0)
