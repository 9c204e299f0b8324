"""The result cache: a rerun of unchanged work is free; an edit of called code misses, with why."""

from __future__ import annotations

import importlib
import json
import sys

import pytest

from workbench import api, cache
from workbench.model import Registry

SIM = '''
def measured(x):
    return x * x
'''

PAPER_MODULE = '''
from wbtmp_sim.core import measured
from workbench import Identity, Paper, claim
from workbench.model import Registry

REG = Registry()
P = Paper(slug="cache_paper", title="T", authors=("A",), venue="V", year=2025, arxiv="0000.00000")

@claim(P, role="headline", source="Thm 1", evidence="identity", statement="$x^2 = 4$", registry=REG)
def square_of_two(ctx):
    """Two squared is four."""
    return Identity(measured(2.0), 4.0, why="exact")

@square_of_two.control("three instead of two")
def _(ctx):
    return Identity(measured(3.0), 4.0, why="exact")
'''


@pytest.fixture
def paper(tmp_path, monkeypatch):
    pkg = tmp_path / "src" / "wbtmp_sim"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(SIM)
    (tmp_path / "src" / "wbtmp_paper.py").write_text(PAPER_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path / "src"))  # an outside package on the path, not installed
    module = importlib.import_module("wbtmp_paper")
    yield module, pkg / "core.py"
    for name in ("wbtmp_paper", "wbtmp_sim", "wbtmp_sim.core"):
        sys.modules.pop(name, None)


def _run(module, tmp_path, **kw):
    return api.run(db=tmp_path / "db" / "wb.sqlite", out=None, registry=module.REG, progress=False, **kw)


def test_the_key_covers_the_called_simulations_module(paper):
    module, _ = paper
    digests = cache.code_digests(module.REG.claims["cache_paper.square_of_two"])
    assert set(digests) == {"wbtmp_paper", "wbtmp_sim", "wbtmp_sim.core", *cache.ENGINE_MODULES}


def test_rerun_comes_from_cache_and_an_edit_of_called_code_misses(paper, tmp_path):
    module, core = paper
    first = _run(module, tmp_path)
    assert first.results[0]["provenance"] == "ran: not in the cache"
    second = _run(module, tmp_path)
    assert second.results[0]["provenance"] == "cache"
    assert second.results[0]["verdict"] == first.results[0]["verdict"] == "VERIFIED"
    core.write_text(SIM + "\n# a comment-only edit keeps the cache\n")
    assert _run(module, tmp_path).results[0]["provenance"] == "cache"
    core.write_text(SIM.replace("x * x", "x * x + 0.0"))  # an edit of the helper the claim calls
    third = _run(module, tmp_path)
    assert third.results[0]["provenance"] == "ran: wbtmp_sim.core changed"
    fourth = _run(module, tmp_path, seed=9)
    assert fourth.results[0]["provenance"] == "ran: seed 0 -> 9"
    assert _run(module, tmp_path, cache=False).results[0]["provenance"] == "ran (cache off)"


def test_errors_are_not_cached(tmp_path):
    from workbench import Identity, Paper, claim

    reg = Registry()
    p = Paper(slug="flaky", title="T", authors=("A",), venue="V", year=2025, arxiv="0")

    @claim(p, role="headline", source="s", evidence="identity", statement="s", registry=reg)
    def fails(ctx):
        """Fails."""
        raise RuntimeError("transient")

    @fails.control("x")
    def _(ctx):
        return Identity(1.0, 2.0, why="x")

    for _ in range(2):
        s = api.run(db=tmp_path / "wb.sqlite", out=None, registry=reg, progress=False)
        assert s.results[0]["provenance"].startswith("ran:")


def test_why_missed_names_parameters_and_versions():
    old = {"code": {"m": "1"}, "profile": "quick", "seed": 0, "params": {"n": 4}, "versions": {"numpy": "1"}}
    new = cache.CacheKey("c", "quick", 0, {"n": 8}, {"m": "1"}, {"numpy": "2"})
    assert cache.why_missed(old, new) == "parameters changed: n; numpy 1 -> 2"


def test_cache_clear(paper, tmp_path):
    module, _ = paper
    _run(module, tmp_path)
    from workbench import cli

    assert cli.main(["cache", "clear", "--db", str(tmp_path / "db" / "wb.sqlite")]) == 0
    assert _run(module, tmp_path).results[0]["provenance"] == "ran: not in the cache"



def _dist_info(site, name, version, editable_dir=None):
    """A minimal installed distribution in ``site`` (what pip writes), optionally editable."""
    info = site / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "top_level.txt").write_text(f"{name}\n")
    (info / "RECORD").write_text(f"{name}/__init__.py,,\n")
    if editable_dir is not None:
        (info / "direct_url.json").write_text(json.dumps({"url": f"file://{editable_dir}",
                                                          "dir_info": {"editable": True}}))


@pytest.mark.parametrize("editable", [True, False])
def test_outside_packages_enter_by_code_when_editable_and_by_version_when_installed(tmp_path, monkeypatch, editable):
    """A helper of an outside paper package misses the cache when edited (editable install); an
    installed, versioned distribution enters the key by its version instead."""
    site = tmp_path / "site"
    pkg = site / "wbtmp_helpers"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(SIM)
    _dist_info(site, "wbtmp_helpers", "1.0", editable_dir=site if editable else None)
    (site / "wbtmp_outside.py").write_text(PAPER_MODULE.replace("from wbtmp_sim.core import measured",
                                                                "from wbtmp_helpers import measured"))
    monkeypatch.syspath_prepend(str(site))
    cache._top_level_distributions.cache_clear()
    cache._editable.cache_clear()
    try:
        module = importlib.import_module("wbtmp_outside")
        c = module.REG.claims["cache_paper.square_of_two"]
        names = {m.__name__ for m in cache.code_modules(c)}
        key = cache.CacheKey.of(c, "quick", 0, {})
        if editable:
            assert "wbtmp_helpers" in names and "wbtmp_helpers" not in key.versions
            first = _run(module, tmp_path)
            (pkg / "__init__.py").write_text(SIM.replace("x * x", "x * x * 1.0"))
            assert _run(module, tmp_path).results[0]["provenance"] == "ran: wbtmp_helpers changed"
            assert first.results[0]["verdict"] == "VERIFIED"
        else:
            assert "wbtmp_helpers" not in names and key.versions["wbtmp_helpers"] == "1.0"
    finally:
        for name in ("wbtmp_outside", "wbtmp_helpers"):
            sys.modules.pop(name, None)
        cache._top_level_distributions.cache_clear()
        cache._editable.cache_clear()
        cache._version.cache_clear()


LAZY_PAPER = PAPER_MODULE.replace("from wbtmp_sim.core import measured\n", "").replace(
    '    return Identity(measured(', '    from wbtmp_sim.core import measured  # imported only when it runs\n'
    '    return Identity(measured(')


def test_a_helper_imported_inside_a_function_is_in_the_key(tmp_path, monkeypatch):
    """A helper the claim imports lazily (inside its body) is followed through the source's
    imports: breaking it makes the next run miss the cache and come out refuted."""
    pkg = tmp_path / "src" / "wbtmp_sim"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(SIM)
    (tmp_path / "src" / "wbtmp_lazy.py").write_text(LAZY_PAPER.replace('slug="cache_paper"', 'slug="lazy_paper"'))
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    try:
        module = importlib.import_module("wbtmp_lazy")
        assert "wbtmp_sim.core" in cache.code_digests(module.REG.claims["lazy_paper.square_of_two"])
        first = _run(module, tmp_path)
        assert first.results[0]["verdict"] == "VERIFIED"
        (pkg / "core.py").write_text(SIM.replace("x * x", "x * x + 1.0"))
        sys.modules.pop("wbtmp_sim.core")  # as a new process would, import the edited helper afresh
        second = _run(module, tmp_path)
        assert second.results[0]["provenance"] == "ran: wbtmp_sim.core changed"
        assert second.results[0]["verdict"] == "REFUTED"
    finally:
        for name in ("wbtmp_lazy", "wbtmp_sim", "wbtmp_sim.core"):
            sys.modules.pop(name, None)


def test_a_run_without_the_cache_replaces_a_stale_entry(paper, tmp_path):
    module, core = paper
    assert _run(module, tmp_path).results[0]["verdict"] == "VERIFIED"
    # Pretend the cache holds a result that no longer matches the code: a fresh run without the
    # cache must replace it, so the next cached run serves the fresh result.
    key = cache.CacheKey.of(module.REG.claims["cache_paper.square_of_two"], "quick", 0, {})
    store = cache.ResultCache(tmp_path / "db" / "cache")
    record, _ = store.lookup(key)
    record["note"] = "stale"
    store.store(key, record)
    assert _run(module, tmp_path).results[0]["note"] == "stale"
    assert _run(module, tmp_path, cache=False).results[0]["provenance"] == "ran (cache off)"
    again = _run(module, tmp_path)
    assert again.results[0]["provenance"] == "cache" and again.results[0]["note"] == ""
