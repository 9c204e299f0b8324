"""The package's top-level API names are the functions the README shows."""

from __future__ import annotations

import inspect

import workbench


def test_top_level_api_names_are_functions():
    for name in ("run", "sweep", "search", "run_claim"):
        assert inspect.isfunction(getattr(workbench, name)), name
