"""The conformance suite: the checks every registered paper and claim must pass.

One suite for the project's own papers and for papers shipped from another package (as
scikit-learn's ``check_estimator``): ``workbench check SLUG`` runs it from the command line,
:func:`check_paper` from Python, and the project's ``tests/test_conformance.py`` runs the same
functions over every registered claim.  Each check returns the problems it found as sentences
(an empty list when the claim conforms).

The checks:

- :func:`documentation_problems`: the claim has a statement, a source, a docstring, a role, at
  least one control saying what it breaks, documented parameters whose profile values are
  accepted, balanced math, a reason for a declared outcome; its paper has a title, authors, a
  venue, a year, an identifier (an arXiv id, another identifier or a URL) and a declared list of
  statements not checked, and at least one headline result (checked or listed);
- :func:`latex_problems`: every text the report prints as LaTeX compiles with pdflatex;
- :func:`run_problems`: the quick profile runs without ERROR within the claim's budget and gives
  bit-identical evidence with one worker and with two.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .model import PROFILES, ROLES, Claim, Paper, Registry

CONFORMANCE_SEED = 20251129


def documentation_problems(claim: Claim) -> list[str]:
    """What the claim's declaration and its paper's record lack (see the module docstring)."""
    out = []
    if not claim.statement.strip() or not claim.source.strip():
        out.append("needs a statement and the place it stands in the paper (source)")
    if not claim.description:
        out.append("needs a docstring saying what is checked (its first paragraph goes to the report)")
    if claim.role not in ROLES:
        out.append(f"role must be one of {', '.join(ROLES)}, not {claim.role!r}")
    if not claim.controls:
        out.append("needs at least one negative control (the same check with one hypothesis broken)")
    if any(not c.broken.strip() for c in claim.controls):
        out.append("every control must say which hypothesis it breaks")
    if claim.reconstructed_from is not None and not claim.reconstructed_from.strip():
        out.append("reconstructed_from must name the source of the reading")
    if claim.statement.count("$") % 2:
        out.append("unbalanced $ in the LaTeX statement")
    texts = (claim.statement, claim.source, claim.paper.title, " ".join(claim.paper.authors), claim.paper.url or "")
    if any("REPLACE" in t for t in texts):
        out.append("still holds the template's REPLACE placeholders (title, authors, URL, source, statement)")
    declared = {claim.expected(p) for p in PROFILES} - {"VERIFIED"}
    if declared and not claim.expect_reason.strip():
        out.append(f"declared outcome {' / '.join(sorted(declared))} needs expect_reason")
    for name, param in claim.params.items():
        if not param.doc:
            out.append(f"parameter {name} needs a doc string (what it is, with its unit)")
        for profile in ("quick", "full"):
            try:
                param.coerce(name, param.value(profile))
            except ValueError as exc:
                out.append(f"the {profile} value of parameter {name} is refused: {exc}")
    return out + [f"paper {claim.paper.slug}: {p}" for p in paper_record_problems(claim.paper)]


def paper_record_problems(paper: Paper) -> list[str]:
    """What a paper's bibliographic record lacks (the paper's own claims are not looked at)."""
    out = []
    if not (paper.title and paper.authors and paper.venue and paper.year >= 1900):
        out.append("needs a title, authors, a venue and a year")
    if not (paper.arxiv or paper.identifier or paper.url):
        out.append("needs an arXiv id, another identifier (PMLR pages, OpenReview id) or a URL")
    if paper.not_checked is None:
        out.append("must declare not_checked: the statements no computation here checks, with the reason (an "
                   "empty tuple states that everything the paper states is checked)")
    return out


def paper_problems(paper: Paper, claims: Iterable[Claim]) -> list[str]:
    """Problems of a paper as a whole: its record, and that it has a headline result (a headline
    claim, or a headline statement listed as not checked)."""
    claims = list(claims)
    out = paper_record_problems(paper)
    listed = [e for e in paper.not_checked or () if e.role == "headline"]
    if not any(c.role == "headline" for c in claims) and not listed:
        out.append("has no headline result, checked or listed as not checked")
    return out


def latex_problems(claims: Iterable[Claim]) -> list[str]:
    """Texts the report prints as LaTeX (titles, statements, sources, docstrings, methods,
    reconstruction sources, diagram captions, statements not checked) that pdflatex does not
    compile; an empty list when pdflatex is not installed (nothing to say)."""
    from .report import diagram_caption, environment

    claims = list(claims)
    if shutil.which("pdflatex") is None or not claims:
        return []
    env = environment()
    papers = list({c.paper.slug: c.paper for c in claims}.values())
    body = env.from_string(
        "%% for c in claims\n\\section*{\\VAR{c.paper.title|mathtext}}\n\\VAR{c.statement|latex}\n\n"
        "\\VAR{c.source|mathtext}\n\n\\VAR{c.description|mathtext}\n\n\\VAR{c.method|mathtext}\n\n"
        "\\VAR{diagram_caption(c)|mathtext}\n\n\\VAR{(c.reconstructed_from or '')|mathtext}\n%% endfor\n"
        "%% for p in papers\n%% for e in p.not_checked or ()\n\\VAR{e.statement|latex} \\VAR{e.why|mathtext}\n\n"
        "%% endfor\n%% endfor\n").render(claims=claims, papers=papers, diagram_caption=diagram_caption)
    doc = ("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{lmodern}\\usepackage{amsmath,amssymb}"
           "\\begin{document}\n" + body + "\\end{document}\n")
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "statements.tex").write_text(doc)
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
                               "statements.tex"], cwd=folder, capture_output=True, timeout=120,
                              env=dict(os.environ, openin_any="p", openout_any="p"))
    if proc.returncode == 0:
        return []
    lines = proc.stdout.decode(errors="replace").splitlines()
    errors = [line for line in lines if line.startswith("!") or line.startswith("l.")]
    if len(claims) > 1:  # name the claims whose text fails, one by one
        failing = [c.id for c in claims if latex_problems([c])]
        if failing:
            return [f"the LaTeX of {cid} does not compile: " + " | ".join(errors[:4]) for cid in failing]
    return [f"the LaTeX of {', '.join(c.id for c in claims)} does not compile: " + " | ".join(errors[:6])]


def run_problems(claim: Claim, seed: int = CONFORMANCE_SEED, results: list[Any] | None = None) -> list[str]:
    """Run the quick profile with one worker and with two: no ERROR, within the budget, and the
    same evidence both times (``results``, when given, receives the two results)."""
    from .execute import run_claim

    one = run_claim(claim, profile="quick", seed=seed, jobs=1)
    two = run_claim(claim, profile="quick", seed=seed, jobs=2)
    if results is not None:
        results.extend([one, two])
    out = []
    for r, jobs in ((one, 1), (two, 2)):
        for o in [r.outcome, *(o for _, o in r.controls)]:
            if o.verdict.value == "ERROR":
                out.append(f"{o.id} ended in ERROR with {jobs} worker(s): {o.decision.summary}")
        if r.seconds > claim.budget:
            out.append(f"took {r.seconds:.1f} s with {jobs} worker(s), over its budget of {claim.budget:g} s")

    def evidence(result) -> str:
        return json.dumps([result.outcome.evidence] + [o.evidence for _, o in result.controls], sort_keys=True,
                          default=str)

    if evidence(one) != evidence(two):
        out.append("gives different evidence with one worker and with two (randomness not drawn from the "
                   "claim's streams?)")
    return out


def check_paper(slug: str, registry: Registry | None = None, *, run: bool = True,
                verdicts: dict[str, str] | None = None) -> dict[str, list[str]]:
    """Run the conformance suite on one paper: ``{what: [problems]}`` (empty lists when it conforms).

    Conforming says nothing of the verdicts: ``verdicts``, when given, receives each claim's
    verdict in the run with one worker (with its grade, e.g. ``"VERIFIED (sharp)"``).

    Raises:
        ValueError: when no registered paper has the slug.
    """
    from .registry import load

    reg = registry or load()
    claims = reg.claims_of(slug)
    if not claims:
        raise ValueError(f"no registered paper has the slug {slug!r}; `workbench list` shows them")
    report = {f"paper {slug}": paper_problems(claims[0].paper, claims), "LaTeX": latex_problems(claims)}
    for c in claims:
        problems = documentation_problems(c)
        problems = [p for p in problems if not p.startswith(f"paper {slug}:")]
        if run:
            results: list[Any] = []
            problems += run_problems(c, results=results)
            if verdicts is not None and results:
                grade = f" ({results[0].grade})" if results[0].grade else ""
                verdicts[c.id] = results[0].verdict.value + grade
        report[c.id] = problems
    return report
