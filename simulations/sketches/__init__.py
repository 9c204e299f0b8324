"""Sketches: Bloom filters, learned and ensemble learned Bloom filters."""

from .bloom import (
    ALPHA,
    BloomFilter,
    GaussianOracle,
    StageConfig,
    bloom_false_positive_rate,
    bloom_false_positive_rate_finite,
    build_bloom_filter,
    correlated_ensemble_false_positive_rate,
    draw_keys,
    ensemble_false_positive_rate,
    ensemble_query,
    lbf_false_positive_rate,
    optimal_hash_count,
    optimise_ensemble,
    optimise_single_lbf,
    splitmix64,
)

__all__ = [
    "ALPHA", "BloomFilter", "GaussianOracle", "StageConfig", "bloom_false_positive_rate",
    "bloom_false_positive_rate_finite", "build_bloom_filter", "correlated_ensemble_false_positive_rate", "draw_keys", "ensemble_false_positive_rate",
    "ensemble_query", "lbf_false_positive_rate", "optimal_hash_count", "optimise_ensemble", "optimise_single_lbf",
    "splitmix64",
]
from .coverage import (  # noqa: E402
    FixedLevelSketch,
    LevelSketch,
    ams_second_moment,
    complement_moment,
    coverage,
    fixed_sketch_max_coverage,
    greedy_max_coverage,
    greedy_tight_instance,
    incidence_stream,
    item_levels,
    max_coverage_exhaustive,
    max_coverage_milp,
    planted_coverage_instance,
    required_samples,
    sketch_max_coverage,
    tuple_sampling_complement,
)

__all__ += [
    "LevelSketch", "ams_second_moment", "complement_moment", "coverage", "greedy_max_coverage",
    "greedy_tight_instance", "max_coverage_exhaustive", "FixedLevelSketch", "fixed_sketch_max_coverage",
    "incidence_stream", "item_levels", "max_coverage_milp", "planted_coverage_instance", "required_samples",
    "sketch_max_coverage", "tuple_sampling_complement",
]
