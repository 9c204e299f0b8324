"""One conformance suite over every registered claim (as scikit-learn's check_estimator).

The rules live in :mod:`workbench.conformance`, so that ``workbench check SLUG`` applies the same
ones to a paper shipped from another package.  Each claim: has a statement, a source, a docstring,
a role and at least one control; its paper has a complete record and says what it leaves
unchecked; the quick profile runs within the budget without ERROR and gives bit-identical evidence
for the same seed with one worker and with two; every text the report prints as LaTeX compiles.
"""

from __future__ import annotations

import shutil

import pytest

from workbench import conformance
from workbench.registry import load

CLAIMS = list(load().claims.values())
IDS = [c.id for c in CLAIMS]
PAPERS = list({c.paper.slug: c.paper for c in CLAIMS}.values())


def test_the_first_papers_are_registered():
    slugs = {c.paper.slug for c in CLAIMS}
    assert {"soap_shampoo_adam", "idempotent_projection", "gd_generalized_smoothness"} <= slugs


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_claim_is_documented(claim):
    assert conformance.documentation_problems(claim) == []


@pytest.mark.parametrize("paper", PAPERS, ids=[p.slug for p in PAPERS])
def test_paper_says_what_it_checks(paper):
    assert conformance.paper_problems(paper, [c for c in CLAIMS if c.paper.slug == paper.slug]) == []


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_quick_profile_runs_within_budget_and_is_deterministic(claim):
    assert conformance.run_problems(claim) == []


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_every_statement_compiles_as_latex():
    """The authors' LaTeX (statements, sources, titles, docstring and method math, diagram captions,
    reconstruction sources, statements not checked) compiles, so the report shows it as written."""
    assert conformance.latex_problems(CLAIMS) == []
