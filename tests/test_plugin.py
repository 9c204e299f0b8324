"""The pytest plugin turns registered claims into test items."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True, scope="module")
def _papers_loaded_before_any_snapshot():
    """pytester removes the modules a test imported when it ends, and a compiled extension cannot
    be imported twice in one process: the papers (and what they import) are loaded first."""
    from workbench.registry import load

    load()


def test_claims_are_items_named_after_module_and_claim(pytester):
    pytester.makepyfile(test_nothing="def test_ok():\n    pass\n")
    result = pytester.runpytest("--wb-claims", "--collect-only", "-q", "-p", "no:cacheprovider")
    out = result.stdout.str()
    assert "soap_shampoo_adam.py::" in out and "idempotent_projection.py::" in out
    assert "gd_generalized_smoothness.py::" in out


def test_a_failing_claim_shows_its_evidence(pytester):
    pytester.makeconftest('''
import numpy as np
from workbench import Bound, Paper, claim

P = Paper(slug="bad_paper", title="Bad", authors=("X",), venue="ICLR 2025", year=2025)

@claim(P, role="headline", source="Thm 1", evidence="bound", statement="$x \\\\le 0$")
def always_violated(ctx):
    """A false bound."""
    return Bound([1.0, 2.0], 0.0, why="exact")

@always_violated.control("nothing")
def _(ctx):
    return Bound([1.0], 0.0, why="exact")
''')
    result = pytester.runpytest("--wb-claims", "-k", "always_violated", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*bad_paper.always_violated: REFUTED*", "*counterexample*"])


def test_a_claim_declared_inconclusive_passes_when_inconclusive(pytester):
    pytester.makeconftest('''
from workbench import Proportion, Paper, claim

P = Paper(slug="noisy_paper", title="Noisy", authors=("X",), venue="ICLR 2025", year=2025)

@claim(P, role="headline", source="Thm 2", evidence="proportion", statement="$p \\\\ge 1/2$", expect="INCONCLUSIVE",
       expect_reason="the success probability is too close to 1/2 to decide with 100 trials")
def borderline(ctx):
    """A proportion at the threshold."""
    return Proportion(50, 100, 0.5, why="toy")

@borderline.control("nothing")
def _(ctx):
    return Proportion(0, 100, 0.5, why="toy")
''')
    result = pytester.runpytest("--wb-claims", "-k", "borderline", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_claims_are_counted_with_the_collected_items(pytester):
    """The terminal's counts include the claims: 'collected N items / M deselected / K selected' with
    N - M = K >= 0, and the total matches what runs."""
    import re

    pytester.makepyfile(test_nothing="def test_ok():\n    pass\n")
    pytester.makeconftest('''
from workbench import Identity, Paper, claim

P = Paper(slug="count_paper", title="Counts", authors=("X",), venue="ICLR 2025", year=2025)

@claim(P, role="headline", source="Thm 1", evidence="identity", statement="$1 = 1$")
def one_is_one(ctx):
    """One."""
    return Identity(1.0, 1.0, why="exact")

@one_is_one.control("two")
def _(ctx):
    return Identity(1.0, 2.0, why="exact")
''')
    result = pytester.runpytest("--wb-claims", "-k", "one_is_one", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=None)
    m = re.search(r"collected (\d+) items? / (\d+) deselected / (\d+) selected", result.stdout.str())
    assert m, result.stdout.str()
    collected, deselected, selected = map(int, m.groups())
    assert selected == 1 and collected - deselected == selected and collected > 100
    from workbench.registry import load

    assert collected == len(load().claims) + 1  # every registered claim (the conftest's among them), and test_ok


def test_a_claim_may_declare_its_outcome_per_profile(pytester):
    """expect={"quick": "INCONCLUSIVE", "full": "REFUTED"}: the full profile's item passes on REFUTED."""
    pytester.makeconftest('''
from workbench import Param, Proportion, Paper, claim

P = Paper(slug="sized_paper", title="Sized", authors=("X",), venue="ICLR 2025", year=2025)

@claim(P, role="headline", source="Thm 3", evidence="proportion", statement="$p \\\\ge 1/2$",
       expect={"quick": "INCONCLUSIVE", "full": "REFUTED"},
       expect_reason="the quick size cannot resolve p = 0.45 from 1/2; the full size refutes it",
       params={"trials": Param(100, full=10000, doc="trials")})
def resolved_at_full_size(ctx):
    """A proportion 0.45 against 1/2."""
    n = ctx["trials"]
    return Proportion(int(0.45 * n), n, 0.5, why="toy")

@resolved_at_full_size.control("nothing")
def _(ctx):
    return Proportion(0, 100, 0.5, why="toy")
''')
    result = pytester.runpytest("--wb-claims", "-k", "resolved_at_full_size", "--wb-profile", "full",
                                "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_the_declared_outcome_follows_the_profile():
    from workbench import Paper, Param, Proportion, claim
    from workbench.execute import run_claim
    from workbench.model import Registry

    P = Paper(slug="p", title="P", authors=("X",), venue="ICLR 2025", year=2025)

    def check(ctx):
        """A proportion 0.45 against 1/2."""
        return Proportion(int(0.45 * ctx["trials"]), ctx["trials"], 0.5, why="toy")

    c = claim(P, role="headline", source="Thm", evidence="proportion", statement="$p$", registry=Registry(),
              expect={"quick": "INCONCLUSIVE", "full": "REFUTED"}, expect_reason="size",
              params={"trials": Param(100, full=10000, doc="trials")})(check)
    assert (c.expected("quick"), c.expected("full")) == ("INCONCLUSIVE", "REFUTED")
    for profile in ("quick", "full"):
        result = run_claim(c, profile=profile)
        assert result.verdict.value == result.expected == c.expected(profile)


def test_an_outcome_declared_for_an_unknown_profile_is_refused():
    from workbench import Paper, Proportion, claim
    from workbench.model import ClaimDefinitionError, Registry

    P = Paper(slug="p", title="P", authors=("X",), venue="ICLR 2025", year=2025)
    with pytest.raises(ClaimDefinitionError, match="unknown profiles"):
        claim(P, role="headline", source="Thm", evidence="proportion", statement="$p$", registry=Registry(),
              expect={"fast": "REFUTED"}, expect_reason="r")(lambda ctx: Proportion(1, 2, 0.5, why="toy"))
