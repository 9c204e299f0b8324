"""The report as an attack surface: text that reads files, writes files, loops, or holds Unicode
and percent signs, from a paper module or from a stored database made elsewhere."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time

import pytest

from workbench import Identity, NotChecked, Paper, api, claim
from workbench.model import ClaimDefinitionError, Registry
from workbench.report import write_report
from workbench.store import Store
from workbench.texsafe import (
    author_latex,
    build_pdf,
    escape_latex,
    escape_text_with_math,
    latex_hazard,
)

needs_tex = pytest.mark.skipif(shutil.which("latexmk") is None or shutil.which("pdftotext") is None,
                               reason="needs latexmk and pdftotext")


def test_hazards_are_named():
    assert latex_hazard(r"$x$ \input{/etc/hostname}") == r"\input"
    assert latex_hazard(r"\def\x{\x}\x") == r"\def"
    assert latex_hazard(r"\immediate\openout5=results.json") == r"\immediate"
    assert latex_hazard(r"^^5cinput{/etc/passwd}") == "^^"
    assert latex_hazard(r"\catcode`\^^M=13") in (r"\catcode", "^^")
    # Ordinary mathematics passes.
    assert latex_hazard(r"$\|\nabla f(x)\|^2 \le \frac{2L}{T}\,\operatorname{tr} L$, \emph{tight}") is None
    assert latex_hazard(r"\left( \inputs \right)") is None  # \inputs is not \input


def test_unicode_and_percent_survive_escaping():
    assert escape_latex("ℓ ≤ 5%") == r"{\ensuremath{\ell}} {\ensuremath{\leq}} 5\%"
    assert author_latex(r"$\alpha$ is 50% of ℓ") == r"$\alpha$ is 50\% of {\ensuremath{\ell}}"
    assert author_latex(r"already 5\% here") == r"already 5\% here"
    assert escape_text_with_math("rate $n^{-α}$ for 5% of x_1") == (
        r"rate $n^{-{\ensuremath{\alpha}}}$ for 5\% of x\_1")
    # A refused primitive inside a math span turns the whole text into plain text.
    assert escape_text_with_math(r"$\input{/etc/hostname}$") == r"\$\textbackslash{}input\{/etc/hostname\}\$"


HOSTILE = Paper(slug="hostile_paper", title="Über ℓ-smooth ≤ bounds: 100% sure, α-β", authors=("Zoë Ω",),
                venue="ICML 2025", year=2025, arxiv="0000.00000",
                not_checked=(NotChecked("A lower bound of 50% (Thm. 9) with ε ≥ 0", "over all algorithms: ∀ A",
                                        "headline"),))


HOSTILE_STATEMENTS = {
    "reads_a_file": r"$x \le 1$ and \input{SECRET}",
    "writes_a_file": r"\immediate\openout5=results.json \immediate\write5{owned}\immediate\closeout5",
    "loops": r"\def\x{\x}\x",
    "unicode_everywhere": "ℓ-smooth f with ‖∇f‖ ≤ α·β, 100% of the time",
    "percent": r"$p \ge 95%$ of runs % and this text after the percent sign must show",
}


def _registry() -> Registry:
    reg = Registry()
    for name in HOSTILE_STATEMENTS:
        def one(ctx):
            """Checks ℓ ≤ 1 at 95% confidence."""
            return Identity(1.0, 1.0, rtol=1e-12, why="exact: 1 = 1 (ℓ, ≤, 50%)")

        one.__name__ = name
        c = claim(HOSTILE, role="headline", source="Thm. 1 — “quoted” (§2)", evidence="identity",
                  statement="placeholder", registry=reg, reconstructed_from="the abstract §1 ∎")(one)
        c.control("a reference of 2 instead of 1 (ε → 0)")(lambda ctx: Identity(1.0, 2.0, rtol=1e-12, why="exact"))
    return reg


def test_claims_with_refused_latex_are_rejected_where_they_are_written():
    with pytest.raises(ClaimDefinitionError, match=r"\\input"):
        claim(HOSTILE, role="headline", source="s", evidence="identity", statement=r"\input{/etc/passwd}",
              registry=Registry())(lambda ctx: None)


@needs_tex
def test_a_hostile_database_gives_a_readable_pdf_and_names_the_refused_claims(tmp_path):
    """A database made elsewhere, whose statements read a file, write beside the report, loop, and
    hold Unicode and percent signs, is reported: the refused text is named and shown as plain
    text, the rest prints, and nothing outside the output folder is read or written."""
    before = set(_tex_processes())
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRETMARKER\n")
    db = tmp_path / "wb.sqlite"
    summary = api.run(db=db, out=None, registry=_registry(), progress=False)
    with sqlite3.connect(db) as conn:
        for name, statement in HOSTILE_STATEMENTS.items():
            conn.execute("UPDATE claims SET statement=? WHERE claim_id=?",
                         (statement.replace("SECRET", str(secret)), f"hostile_paper.{name}"))
    out = tmp_path / "out"
    store = Store(db)
    try:
        paths, messages = write_report(store, summary.run_id, out, registry=Registry())
    finally:
        store.close()
    assert "pdf" in paths, messages
    text = subprocess.run(["pdftotext", str(paths["pdf"]), "-"], capture_output=True, text=True).stdout
    assert "TOPSECRETMARKER" not in text, "the PDF shows the content of a file outside the report"
    assert "secret.txt" in text  # the refused statement is shown as plain text
    for name in ("reads_a_file", "writes_a_file", "loops"):
        assert any(f"hostile_paper.{name}" in m and "refuses" in m for m in messages), messages
    json.loads((out / "results.json").read_text())  # not overwritten by TeX
    assert "owned" not in (out / "results.json").read_text()
    assert "ℓ" in text and "≤" in text and "α" in text  # Unicode prints
    assert "this text after the percent sign must show" in text
    assert "100%" in text.replace(" ", "")
    assert set(_tex_processes()) <= before


def _tex_processes() -> list[str]:
    proc = subprocess.run(["pgrep", "-a", "pdflatex"], capture_output=True, text=True)
    return [line for line in proc.stdout.splitlines() if line.strip()]


@needs_tex
def test_a_looping_document_is_stopped_with_its_process_group(tmp_path):
    (tmp_path / "figures").mkdir()
    tex = tmp_path / "loop.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\\def\\x{\\x}\\x\\end{document}\n")
    start = time.monotonic()
    built, message = build_pdf(tex, time_limit=4.0)
    assert built is None and "did not finish within 4 s" in message
    assert time.monotonic() - start < 30
    time.sleep(0.5)
    assert not [p for p in _tex_processes() if "loop" in p], "pdflatex left running"


@needs_tex
def test_the_build_cannot_read_outside_its_folder_or_write_beside_the_report(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "results.json").write_text('{"ok": true}')
    tex = tmp_path / "report.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\\immediate\\openout5=../results.json"
                   "\\immediate\\write5{owned}\\immediate\\closeout5 \\input{/etc/hostname}\\end{document}\n")
    built, _ = build_pdf(tex, time_limit=60)
    assert (tmp_path / "results.json").read_text() == '{"ok": true}'
    assert built is None  # pdflatex refuses to read /etc/hostname (openin_any = p) and stops
