"""The dask backend gives bit-identical evidence to loky (2-process LocalCluster)."""

from __future__ import annotations

import pytest

from workbench import api

pytest.importorskip("distributed")


def _evidence(summary):
    return [(r["outcome"]["evidence"], [c["evidence"] for c in r["controls"]]) for r in summary.results]


def test_dask_local_cluster_matches_loky(tmp_path, toy_registry):
    kw = {"out": None, "registry": toy_registry, "progress": False, "seed": 3, "cache": False}
    loky = api.run(["clt_rate"], db=tmp_path / "a.sqlite", jobs=2, backend="loky", **kw)
    dask = api.run(["clt_rate"], db=tmp_path / "b.sqlite", jobs=2, backend="dask-local", **kw)
    assert _evidence(loky) == _evidence(dask)
    assert dask.results[0]["verdict"] == "VERIFIED"


def test_unreachable_scheduler_is_a_usage_error(tmp_path, toy_registry, monkeypatch):
    monkeypatch.setattr(api, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(api.UsageError, match="cannot reach the dask scheduler"):
        api.run(["sine_below_identity"], db=tmp_path / "wb.sqlite", out=None, registry=toy_registry,
                progress=False, scheduler="tcp://127.0.0.1:1")


def test_dask_backend_without_scheduler_is_a_usage_error(tmp_path, toy_registry):
    with pytest.raises(api.UsageError, match="needs a scheduler"):
        api.run(db=tmp_path / "wb.sqlite", out=None, registry=toy_registry, progress=False, backend="dask")


def test_sweep_on_dask_local_cluster_matches_loky(tmp_path):
    grid = ["lr=0.02,0.05"]
    kw = {"out": None, "progress": False, "seed": 2}
    claim_id = "soap_shampoo_adam.soap_is_adam_in_rotated_coordinates"
    loky = api.sweep(claim_id, grid, db=tmp_path / "a.sqlite", jobs=2, backend="loky", **kw)
    dask = api.sweep(claim_id, grid, db=tmp_path / "b.sqlite", jobs=2, backend="dask-local", **kw)
    assert [p.result.outcome.evidence for p in loky.points] == [p.result.outcome.evidence for p in dask.points]
    assert [p.claim_verdict for p in dask.points] == ["VERIFIED", "VERIFIED"]
