"""The benchmark's arithmetic and its workload (no timing is asserted)."""

from __future__ import annotations

import numpy as np

from workbench import bench


def test_paired_ratio_is_the_median_of_per_round_ratios():
    assert bench._paired_ratio([2.0, 4.0, 9.0], [1.0, 1.0, 3.0]) == 3.0  # ratios 2, 4, 3


def test_monte_carlo_gives_the_same_numbers_as_bare_joblib():
    res = bench.monte_carlo(trials=64, size=8, repeats=2)
    assert res["same_numbers_as_bare_joblib"] is True
    assert res["speedup_2_jobs"] > 0 and np.isfinite(res["engine_overhead"])
    assert res["trials_per_second_1_job"] == 64 / res["seconds_1_job"]
