"""The report: escaping, macros, JSON, the PDF, and the message when TeX is missing."""

from __future__ import annotations

import shutil

import pytest

from workbench import api, report
from workbench.report import Latex, escape_latex, escape_text_with_math, macro_name


def test_escape_every_special_character():
    assert escape_latex(r"a&b%c$d#e_f{g}h~i^j\k") == (
        r"a\&b\%c\$d\#e\_f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k")
    assert escape_latex(Latex(r"$x_1$")) == r"$x_1$"


def test_math_spans_survive_in_docstrings():
    assert escape_text_with_math(r"rate $n^{-1/2}$ for 50% of x_1") == r"rate $n^{-1/2}$ for 50\% of x\_1"
    assert escape_text_with_math("costs $5") == r"costs \$5"


def test_macro_names_are_control_words():
    assert macro_name("soap_shampoo_adam", "claim1", "slope") == "wbSoapShampooAdamClaimOneSlope"


def test_template_is_strict(tmp_path):
    env = report.environment()
    with pytest.raises(Exception, match="undefined"):
        env.from_string(r"\VAR{missing}").render()


def test_report_pdf_and_hostile_strings(tmp_path, toy_registry):
    s = api.run(db=tmp_path / "wb.sqlite", out=tmp_path / "out", registry=toy_registry, progress=False)
    tex = (tmp_path / "out" / "report.tex").read_text()
    assert r"solver failed \& gave up\_here" in tex
    assert r"$\mathbb{E}|\bar X_n| = \sqrt{2/(\pi n)}$" in tex
    macros = (tmp_path / "out" / "claims.tex").read_text()
    assert r"\newcommand{\wbToyPaperCltRateVerdict}{VERIFIED}" in macros
    assert r"\newcommand{\wbClaimsVerified}{2}" in macros
    if shutil.which("latexmk"):
        assert s.report.get("pdf") and s.report["pdf"].stat().st_size > 10_000, s.messages
    assert (tmp_path / "out" / "figures" / "toy-paper-clt-rate.pdf").exists()


def test_without_tex_the_tex_is_written_and_the_user_told(tmp_path, toy_registry, monkeypatch):
    monkeypatch.setattr(report.shutil, "which", lambda name: None)
    s = api.run(["sine_below_identity"], db=tmp_path / "wb.sqlite", out=tmp_path / "out",
                registry=toy_registry, progress=False)
    assert "pdf" not in s.report and (tmp_path / "out" / "report.tex").exists()
    assert any("apt-get install" in m for m in s.messages)


def test_a_statement_that_does_not_compile_falls_back_to_plain_text(tmp_path):
    from workbench import Identity, Paper, claim
    from workbench.model import Registry

    reg = Registry()
    p = Paper(slug="bad_tex", title="T", authors=("A",), venue="V", year=2025, arxiv="0")

    @claim(p, role="headline", source="s", evidence="identity", statement=r"tight (Drori & Teboulle) $\frac{1}{2$", registry=reg)
    def bad(ctx):
        """Docstring with $x_1$."""
        return Identity(1.0, 1.0, why="x")

    @bad.control("x")
    def _(ctx):
        return Identity(1.0, 2.0, why="x")

    s = api.run(db=tmp_path / "wb.sqlite", out=tmp_path / "out", registry=reg, progress=False)
    if shutil.which("latexmk"):  # the fallback is part of building the PDF
        assert s.report.get("pdf"), s.messages
        assert any("plain text" in m for m in s.messages)
        assert r"Drori \& Teboulle" in (tmp_path / "out" / "report.tex").read_text()


def test_claims_tex_keeps_other_papers_and_numbers_read_as_text(tmp_path, toy_registry):
    """A run of one paper replaces that paper's macros in claims.tex and keeps the others', so a
    document using both papers' macros still compiles; numbers are written for running text."""
    import re
    import subprocess

    from test_sweeps import build as sweep_registry

    out = tmp_path / "out"
    api.run(["sine_below_identity"], db=tmp_path / "wb.sqlite", out=out, registry=toy_registry, progress=False,
            pdf=False)
    api.run(["square_below_c"], db=tmp_path / "wb.sqlite", out=out, registry=sweep_registry(), progress=False,
            pdf=False)
    macros = (out / "claims.tex").read_text()
    assert r"\newcommand{\wbToyPaperSineBelowIdentityVerdict}{VERIFIED}" in macros
    assert r"\newcommand{\wbSweepPaperSquareBelowCVerdict}{VERIFIED}" in macros
    assert r"\newcommand{\wbClaimsTotal}{2}" in macros and r"\newcommand{\wbClaimsVerified}{2}" in macros
    assert not re.search(r"\d[eE][-+]?\d", macros), "a number in float notation"
    assert (out / "claims-toy_paper.tex").exists() and "SweepPaper" not in (out / "claims-toy_paper.tex").read_text()
    # run the toy paper again: its block is replaced, not repeated
    api.run(["sine_below_identity"], db=tmp_path / "wb.sqlite", out=out, registry=toy_registry, progress=False,
            pdf=False)
    again = (out / "claims.tex").read_text()
    assert again.count(r"\wbToyPaperSineBelowIdentityVerdict}") == 1 and r"\wbSweepPaperSquareBelowCVerdict" in again
    if shutil.which("pdflatex"):
        doc = tmp_path / "doc.tex"
        doc.write_text("\\documentclass{article}\\begin{document}\\input{out/claims.tex}"
                       "\\wbToyPaperSineBelowIdentityVerdict{} and \\wbSweepPaperSquareBelowCVerdict{}; "
                       "margin \\wbToyPaperSineBelowIdentitySmallestMargin{} of \\wbClaimsTotal.\\end{document}\n")
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout[-2000:]


def test_numbers_for_text():
    assert report.tex_number(6.84328e-05) == r"\ensuremath{6.843\times 10^{-5}}"
    assert report.tex_number(15.1187) == "15.12" and report.tex_number(3) == "3"
    assert report.tex_number(-0.25) == r"\ensuremath{-0.25}"


def test_claims_with_no_near_miss_are_counted_apart_among_the_sharp():
    from workbench.report import headline_counts, verdict_counts

    def result(role, grade, outcome):
        return {"role": role, "verdict": "VERIFIED", "grade": grade, "reconstructed": False,
                "outcome": {"decision": {"near_miss": {"outcome": outcome}}}}

    results = [result("headline", "sharp", "refuted"), result("headline", "sharp", "none"),
               result("supporting", "slack", "verified"), result("background", "sharp", "none")]
    counts = verdict_counts(results)
    assert (counts["sharp"], counts["no_near_miss"], counts["slack"], counts["background"]) == (2, 1, 1, 1)
    head = headline_counts(results, [])
    assert (head["sharp"], head["no_near_miss"], head["slack"]) == (2, 1, 0)
