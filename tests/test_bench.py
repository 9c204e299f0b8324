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


def test_full_run_comparison_times_both_and_checks_the_numbers():
    """Two small quick runs (one worker, two): wall and CPU time of the whole process tree, the
    stored phases, and the same numbers in both (no timing is asserted)."""
    res = bench.full_run(["dro_dsgdc.dual_reformulation", "dro_dsgdc.eta_block_smoothness",
                          "dro_dsgdc.eta_noise_variance"], sweeps=False)
    assert res["same_numbers"] is True and res["claims"] == 3
    assert res["seconds_1_job"] > 0 and res["cpu_seconds_2_jobs"] > 0 and res["full_run_speedup"] > 0
    assert "claims" in res["phases_2_jobs"] and res["phases_2_jobs"]["claims"]["cpu"] > 0
