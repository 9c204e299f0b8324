"""Streams are keyed by identity: same numbers for any number of workers, backend or chunking."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.context import Context, seed_sequence


def draw(rng: np.random.Generator, size: int) -> np.ndarray:
    return rng.standard_normal(size)


def square(x: float) -> float:
    return x * x


def test_trials_identical_across_jobs_backends_and_chunks():
    ref = np.array(Context("paper.claim", seed=11, jobs=1).trials(draw, 37, 5))
    for jobs, backend, chunk in [(2, "loky", None), (2, "loky", 1), (2, "threading", 7), (1, "loky", 3)]:
        got = np.array(Context("paper.claim", seed=11, jobs=jobs, backend=backend).trials(draw, 37, 5, chunk=chunk))
        assert np.array_equal(ref, got), (jobs, backend, chunk)


def test_trial_i_is_the_stream_keyed_by_its_identity():
    got = Context("paper.claim", seed=3).trials(draw, 4, 2, label="loop")
    for i in range(4):
        expected = np.random.default_rng(seed_sequence(3, "paper.claim", "loop", i)).standard_normal(2)
        assert np.array_equal(got[i], expected)


def test_streams_differ_by_claim_label_and_seed():
    a = Context("p.a", seed=1).trials(draw, 2, 3)
    assert not np.array_equal(a, Context("p.b", seed=1).trials(draw, 2, 3))
    assert not np.array_equal(a, Context("p.a", seed=2).trials(draw, 2, 3))
    assert not np.array_equal(a, Context("p.a", seed=1).trials(draw, 2, 3, label="other"))
    assert np.array_equal(Context("p.a", seed=1).rng.random(3), Context("p.a", seed=1).rng.random(3))


def test_map_preserves_order_in_parallel():
    items = list(range(23))
    assert Context("x", jobs=2).map(square, items) == [i * i for i in items]


def test_trials_rejects_zero():
    with pytest.raises(ValueError, match="at least 1"):
        Context("x").trials(draw, 0, 1)
