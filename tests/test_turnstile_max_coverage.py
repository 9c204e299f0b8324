"""Unit tests of simulations.sketches.coverage (turnstile coverage sketch, MILP, complement estimators)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from simulations.sketches import (
    LevelSketch,
    ams_second_moment,
    complement_moment,
    coverage,
    greedy_max_coverage,
    incidence_stream,
    item_levels,
    max_coverage_milp,
    planted_coverage_instance,
    required_samples,
    tuple_sampling_complement,
)


def test_milp_matches_brute_force_on_small_instances():
    rng = np.random.default_rng(0)
    for _ in range(5):
        sets = [rng.choice(12, size=int(rng.integers(1, 6)), replace=False) for _ in range(7)]
        brute = max(coverage(sets, c) for c in itertools.combinations(range(7), 3))
        assert max_coverage_milp(sets, 12, 3)[0] == brute


def test_greedy_hand_example_and_guarantee():
    sets = [{1, 2, 3, 4}, {1, 2, 5}, {3, 4, 6}, {5, 6}]
    assert greedy_max_coverage(sets, 2) == [0, 3]
    rng = np.random.default_rng(1)
    for _ in range(10):
        s = [rng.choice(15, size=int(rng.integers(1, 7)), replace=False) for _ in range(8)]
        opt = max_coverage_milp(s, 15, 3)[0]
        assert coverage(s, greedy_max_coverage(s, 3)) >= (1 - (1 - 1 / 3) ** 3) * opt - 1e-9


def test_levels_are_geometric():
    lv = item_levels(np.arange(200_000), seed=5)
    for level in range(4):
        frac = np.mean(lv >= level)
        assert frac == pytest.approx(2.0**-level, abs=5 * math.sqrt(2.0**-level / 200_000))


def test_stream_nets_to_the_true_incidences_and_sketch_is_linear():
    rng = np.random.default_rng(2)
    sets, decoy = planted_coverage_instance(rng, 300, 8, 3)
    assert decoy.sum() == 5 and sorted(np.concatenate([s for s, dd in zip(sets, decoy, strict=True) if not dd]).tolist()) == list(range(300))
    items, owners, deltas = incidence_stream(rng, sets, 300, 50, decoy)
    net: dict = {}
    for i, s, dl in zip(items.tolist(), owners.tolist(), deltas.tolist(), strict=True):
        net[(i, s)] = net.get((i, s), 0) + dl
        assert net[(i, s)] >= 0                                # no deletion before its insertion
    truth = {(int(i), j) for j, s in enumerate(sets) for i in s}
    assert {key for key, v in net.items() if v} == truth
    a, b = LevelSketch(8, 4, 9), LevelSketch(8, 4, 9)
    a.update(items, owners, deltas)
    b.update(np.array([i for i, _ in sorted(truth)]), np.array([s for _, s in sorted(truth)]), np.ones(len(truth)))
    np.testing.assert_array_equal(a.summary(), b.summary())
    assert a.sampled_sets(0) == [set(np.asarray(s).tolist()) for s in sets]


def test_complement_closed_form_and_estimators():
    assert complement_moment([3, 1, 1], 2) == 25 - 11
    assert complement_moment([2, 2], 3) == 64 - 16
    x = [990] + [1] * 10
    truth = complement_moment(x, 2)
    rng = np.random.default_rng(3)
    S = required_samples(0.1, truth / 1000**2)
    assert S == math.ceil(4 / (0.01 * truth / 1e6))
    est = [tuple_sampling_complement(rng, x, 2, S) / truth for _ in range(200)]
    assert np.mean(np.abs(np.array(est) - 1) <= 0.1) >= 0.75
    # AMS: E[(s.x)^2] = F_2 exactly in expectation
    f2 = float(np.sum(np.square(x)))
    assert ams_second_moment(rng, x, 4000) == pytest.approx(f2, rel=0.01)


def test_greedy_tight_instance_reaches_the_classical_ratio():
    from simulations.sketches import greedy_tight_instance, max_coverage_exhaustive
    for k in (2, 3, 4):
        block = k**k * 3
        sets, n_items, optimal = greedy_tight_instance(k, block, n_decoys=2, decoy_size=2, rng=np.random.default_rng(k))
        opt, choice = max_coverage_exhaustive(sets, n_items, k)
        assert opt == k * block and sorted(choice) == sorted(optimal.tolist())
        # greedy covers k block (1 - (1 - 1/k)^k) block items plus its k private items (Nemhauser et al. 1978)
        got = coverage(sets, greedy_max_coverage(sets, k))
        assert got == round(k * block * (1 - (1 - 1 / k) ** k)) + k


def test_exhaustive_matches_milp():
    from simulations.sketches import max_coverage_exhaustive
    rng = np.random.default_rng(4)
    for _ in range(5):
        sets = [rng.choice(20, size=int(rng.integers(1, 8)), replace=False) for _ in range(8)]
        assert max_coverage_exhaustive(sets, 20, 3)[0] == max_coverage_milp(sets, 20, 3)[0]


def test_fixed_sketch_decodes_the_final_incidences_of_a_turnstile_stream():
    from simulations.sketches import FixedLevelSketch
    rng = np.random.default_rng(8)
    d = 6
    sets = [rng.choice(300, size=40, replace=False) for _ in range(d)]
    stream = incidence_stream(rng, sets, 300, 50)               # 50 fake incidences per set, inserted then deleted
    sk = FixedLevelSketch(d, 4, 1200, seed=99)
    for chunk in np.array_split(np.arange(stream[0].size), 5):
        sk.update(stream[0][chunk], stream[1][chunk], stream[2][chunk])
    keys = sk.decode(0)
    truth = np.sort(np.concatenate([np.asarray(s) * d + j for j, s in enumerate(sets)]))
    assert keys is not None and np.array_equal(keys, truth)
    # linear: the sketch of the final matrix has the same counters
    direct = FixedLevelSketch(d, 4, 1200, seed=99)
    direct.update(truth // d, truth % d, np.ones(truth.size, dtype=np.int64))
    assert np.array_equal(sk.count, direct.count) and np.array_equal(sk.keysum, direct.keysum)
    assert np.array_equal(sk.check, direct.check)
    assert sk.counters == 3 * 4 * 1200


def test_fixed_sketch_refuses_to_decode_beyond_capacity():
    from simulations.sketches import FixedLevelSketch
    sk = FixedLevelSketch(2, 1, 30, seed=1)
    items = np.arange(200)
    sk.update(items, items % 2, np.ones(200, dtype=np.int64))  # 200 keys in 30 cells
    assert sk.decode(0) is None
