"""One conformance suite over every registered claim (as scikit-learn's check_estimator).

Each claim: has a statement, a source, a docstring and at least one control; has a complete
bibliographic record; runs the quick profile within its budget without ERROR; and gives
bit-identical evidence for the same seed with one worker and with two.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from workbench.execute import run_claim
from workbench.registry import load

CLAIMS = list(load().claims.values())
IDS = [c.id for c in CLAIMS]


def test_the_first_papers_are_registered():
    slugs = {c.paper.slug for c in CLAIMS}
    assert {"soap_shampoo_adam", "idempotent_projection", "gd_generalized_smoothness"} <= slugs


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_claim_is_documented(claim):
    assert claim.statement.strip() and claim.source.strip()
    assert claim.description, f"{claim.id} needs a docstring stating what is checked"
    assert claim.controls, f"{claim.id} needs at least one negative control"
    assert all(c.broken.strip() for c in claim.controls)
    p = claim.paper
    assert p.title and p.authors and p.venue and p.year >= 1900
    assert p.arxiv or p.identifier, f"{p.slug} needs an arXiv id or another identifier"
    assert claim.role in ("headline", "supporting", "background")
    assert claim.reconstructed_from is None or claim.reconstructed_from.strip()
    assert claim.statement.count("$") % 2 == 0, "unbalanced $ in the LaTeX statement"
    assert claim.expect == "VERIFIED" or claim.expect_reason.strip()
    for name, param in claim.params.items():
        assert param.doc, f"parameter {name} of {claim.id} needs a doc string"
        param.coerce(name, param.quick)
        param.coerce(name, param.value("full"))


PAPERS = list({c.paper.slug: c.paper for c in CLAIMS}.values())


@pytest.mark.parametrize("paper", PAPERS, ids=[p.slug for p in PAPERS])
def test_paper_says_what_it_checks(paper):
    """Every paper declares what it leaves unchecked (an empty list states that nothing is), and has
    at least one headline result: a headline claim, or a headline statement listed as not checked."""
    assert paper.not_checked is not None, (
        f"{paper.slug} must declare not_checked: its statements no computation here checks, with the reason "
        "(an empty tuple states that everything the paper states is checked)")
    claims = [c for c in CLAIMS if c.paper.slug == paper.slug]
    headline = [c for c in claims if c.role == "headline"]
    listed = [e for e in paper.not_checked if e.role == "headline"]
    assert headline or listed, f"{paper.slug} has no headline result, checked or listed as not checked"


def _evidence(result) -> str:
    parts = [result.outcome.evidence] + [o.evidence for _, o in result.controls]
    return json.dumps(parts, sort_keys=True, default=str)


@pytest.mark.parametrize("claim", CLAIMS, ids=IDS)
def test_quick_profile_runs_within_budget_and_is_deterministic(claim):
    one = run_claim(claim, profile="quick", seed=20251129, jobs=1)
    two = run_claim(claim, profile="quick", seed=20251129, jobs=2)
    for r in (one, two):
        assert r.outcome.verdict.value != "ERROR", r.outcome.traceback or r.outcome.decision.summary
        assert all(o.verdict.value != "ERROR" for _, o in r.controls), [o.traceback for _, o in r.controls]
        assert r.seconds <= claim.budget, f"{claim.id} took {r.seconds:.1f} s, budget {claim.budget} s"
    assert _evidence(one) == _evidence(two), "evidence differs between --jobs 1 and --jobs 2"
    assert one.verdict == two.verdict


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_every_statement_compiles_as_latex(tmp_path):
    """The authors' LaTeX (statements, sources, titles, docstring and method math, diagram captions,
    statements not checked) compiles, so the
    report shows it as written rather than falling back to plain text."""
    from workbench.report import diagram_caption, environment

    env = environment()
    papers = list({c.paper.slug: c.paper for c in CLAIMS}.values())
    body = env.from_string(
        "%% for c in claims\n\\section*{\\VAR{c.paper.title|mathtext}}\n\\VAR{c.statement|latex}\n\n"
        "\\VAR{c.source|mathtext}\n\n\\VAR{c.description|mathtext}\n\n\\VAR{c.method|mathtext}\n\n"
        "\\VAR{diagram_caption(c)|mathtext}\n\n\\VAR{(c.reconstructed_from or '')|mathtext}\n%% endfor\n"
        "%% for p in papers\n%% for e in p.not_checked or ()\n\\VAR{e.statement|latex} \\VAR{e.why|mathtext}\n\n"
        "%% endfor\n%% endfor\n").render(claims=CLAIMS, papers=papers, diagram_caption=diagram_caption)
    doc = ("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{lmodern}\\usepackage{amsmath,amssymb}"
           "\\begin{document}\n" + body + "\\end{document}\n")
    (tmp_path / "statements.tex").write_text(doc)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                           "statements.tex"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    errors = [line for line in proc.stdout.splitlines() if line.startswith("!") or line.startswith("l.")]
    assert proc.returncode == 0, "\n".join(errors[:6])
