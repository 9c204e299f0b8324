"""What the report's pages show: typeset math and numbers, folded tables, precise margins,
figures that read, page breaks, the closing section, and a LaTeX log free of overfull boxes."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

from workbench import Bound, Comparison, Identity, NotChecked, Paper, Rate, Symbolic, api, claim
from workbench.figures import claimed_line, draw_bound, draw_sweep, figure_label, thin_ticks
from workbench.model import Registry
from workbench.report import fold_rows
from workbench.texsafe import auto_math, typeset


# --------------------------------------------------------------------------- text
def test_prose_is_typeset_math_numbers_and_relations():
    assert typeset(r"a 95\% t interval") == r"a 95\% t interval"  # written with LaTeX's escape: the character
    assert typeset("a 95% t interval") == r"a 95\% t interval"
    assert typeset("f_i(z) against f_i(x)") == "$f_i(z)$ against $f_i(x)$"
    assert typeset("rate O(n^{-1/2})") == "rate $O(n^{-1/2})$"
    assert typeset("noise N(0, 0.1^2 I)") == "noise N(0, $0.1^{2}$ I)"
    assert typeset("rtol 1e-06, margin -2.5e-05 <= 0") == r"rtol $10^{-6}$, margin $-2.5\times 10^{-5}$ $\le$ 0"
    # identifiers stay text; author math stays as written
    assert typeset("n_workers = 4") == r"n\_workers = 4"
    assert typeset(r"$\mathbb{E} X_n$ and n_x") == r"$\mathbb{E} X_n$ and n\_x"
    assert auto_math("min_k F(x_k)") == r"$\min_k$ $F(x_k)$"


def test_numbers_in_prose_never_stay_in_float_notation():
    text = str(typeset("smallest margin 6.843e-05, tightness 1, bound 1e+12"))
    assert not re.search(r"\d[eE][-+]?\d", text), text


# --------------------------------------------------------------------------- evidence tables
def test_repeated_rows_fold_into_one_line_with_a_count():
    rows = [{"quantity": f"expression {i}", "measured": "0", "claimed": "0", "tolerance": "exact",
             "reason": "why" if i == 0 else ""} for i in range(118)]
    rows.append({"quantity": "last", "measured": "1", "claimed": "0", "tolerance": "exact", "reason": ""})
    folded = fold_rows(rows)
    assert len(folded) == 2 and folded[0]["folded"] == 118
    assert folded[0]["quantity"] == "expression 0 ... expression 117" and folded[0]["reason"] == "why"
    assert folded[1]["folded"] == 0
    two = fold_rows(rows[:2])
    assert [r["folded"] for r in two] == [0, 0]


def test_a_margin_below_the_printed_precision_is_shown():
    d = Bound([15.118690, 3.0], [15.118712, 4.0], why="exact", instances=["a", "b"]).decide()
    row = d.rows[0]
    assert row["measured"] != row["claimed"].removeprefix("<= ")
    assert float(row["measured"]) < float(row["claimed"].removeprefix("<= "))


def test_one_instance_reads_in_the_singular_and_a_zero_margin_has_no_sign():
    d = Bound([1.0], [2.0], why="exact").decide()
    assert d.summary.startswith("the single instance satisfies the bound") and "all 1" not in d.summary
    c = Comparison([1.0, 2.0, 3.0, 2.5], [2.0, 3.0, 4.5, 3.1], margin=0.0, why="paired").decide()
    assert c.rows[0]["claimed"] == "< 0"


def test_a_symbolic_counterexample_is_written_as_values_not_a_dict():
    import sympy as sp

    x = sp.Symbol("x")
    d = Symbolic([sp.sin(x) ** 2 - 1], why="not an identity").decide()
    assert d.verdict.value == "REFUTED" and "{" not in d.summary and " at x = " in d.summary


# --------------------------------------------------------------------------- figures
def _lines_with_data(ax, min_points=3):
    return [ln for ln in ax.get_lines() if len(ln.get_xdata()) >= min_points and ln.get_linestyle() not in ("None", "")]


def test_independent_instances_are_points_and_a_sequence_is_lines():
    rng = np.random.default_rng(0)
    m, b = rng.uniform(0, 1, 300), rng.uniform(1, 2, 300)
    loose = Bound(m, b, why="x").decide().figure  # no abscissa: measured against bound
    ax = draw_bound(loose).axes[0]
    (diagonal,) = _lines_with_data(ax)  # only the line measured = bound
    assert np.allclose(diagonal.get_xdata(), diagonal.get_ydata())
    assert ax.get_xlabel() == "bound"
    steps = Bound(np.arange(1, 11) * 0.5, np.arange(1, 11) * 1.0, why="x", x=np.arange(10)).decide().figure
    assert steps["sequence"] and len(_lines_with_data(draw_bound(steps).axes[0])) == 2
    from workbench.context import SearchOrder

    searched = Bound(m, b, why="x", x=SearchOrder(300)).decide().figure
    assert not searched["sequence"]
    ax = draw_bound(searched).axes[0]
    assert not _lines_with_data(ax) and any(ln.get_ydata()[0] == 1.0 for ln in ax.get_lines())  # bound at 1


def test_series_have_their_own_colours_and_names():
    m = np.array([1.0, 2.0, 3.0, 1.5, 2.5, 3.5])
    fig_data = Bound(m, m + 1, why="x", x=[1, 2, 3, 1, 2, 3], series=["f"] * 3 + ["g"] * 3).decide().figure
    ax = draw_bound(fig_data).axes[0]
    measured = [ln for ln in ax.get_lines() if ln.get_label().endswith("measured")]
    assert {ln.get_label() for ln in measured} == {"f: measured", "g: measured"}
    assert measured[0].get_color() != measured[1].get_color()
    with pytest.raises(ValueError, match="one label per instance"):
        Bound(m, m + 1, why="x", series=["f"])


def test_every_one_axis_sweep_shows_the_claimed_value_and_margins_use_symlog():
    points = [{"params": {"n": n}, "claim_verdict": "VERIFIED", "headline": {"slope": -0.5 + 0.01 * i},
               "evidence": {"exponent": -0.5, "tolerance": 0.0}} for i, n in enumerate([10, 100, 1000])]
    fig = draw_sweep({"grid": {"n": [10, 100, 1000]}, "points": points})
    assert any(np.allclose(ln.get_ydata(), -0.5) for ln in fig.axes[0].get_lines())
    margins = [-3e-4, 2e-2, 5.0, -40.0]
    points = [{"params": {"c": c}, "claim_verdict": "VERIFIED" if v >= 0 else "REFUTED",
               "headline": {"smallest_margin": v}, "evidence": {}} for c, v in zip([1, 2, 3, 4], margins, strict=True)]
    ax = draw_sweep({"grid": {"c": [1, 2, 3, 4]}, "points": points}).axes[0]
    assert ax.get_yscale() == "symlog" and any(np.allclose(ln.get_ydata(), 0.0) for ln in ax.get_lines())
    assert claimed_line(points, "smallest_margin")[1] == "margin 0: the bound"


def test_tick_labels_never_overlap():
    from workbench.figures import _overlaps, plt

    fig, ax = plt().subplots(figsize=(3, 2))
    ticks = np.linspace(1.0, 1.5, 40)
    ax.plot(ticks, ticks)
    ax.set_xticks(ticks, [f"{t:.4f}" for t in ticks])
    fig.canvas.draw()
    assert _overlaps(ax.xaxis.get_ticklabels(), fig.canvas.get_renderer())
    thin_ticks(fig, ax)
    fig.canvas.draw()
    assert not _overlaps(ax.xaxis.get_ticklabels(), fig.canvas.get_renderer())
    assert sum(bool(t.get_text()) for t in ax.xaxis.get_ticklabels()) >= 2


def test_axis_labels_typeset_math_the_way_tables_do():
    assert figure_label("(min_k F(x_k) - F*)/F*") == r"($\min_k$ $F(x_k)$ - F*)/F*"
    assert figure_label(r"$\mathbb{E}|X|$ against n") == r"$\mathbb{E}|X|$ against n"
    assert figure_label(r"$\notacommand{x}$ bad") == r"\notacommand{x} bad"  # mathtext cannot: plain text
    wrapped = figure_label("the value of $x_1 + x_2 + x_3 + x_4$ over a very long label text", 20)
    assert all(line.count("$") % 2 == 0 for line in wrapped.split("\n"))


# --------------------------------------------------------------------------- the whole report
A = Paper(slug="paper_a", title="Paper A with $x_1$", authors=("A",), venue="ICML 2025", year=2025,
          arxiv="2501.00001", not_checked=(NotChecked("Theorem 9: a lower bound over all algorithms",
                                                      "a statement over all algorithms", "headline"),))
B = Paper(slug="paper_b", title="Paper B", authors=("B",), venue="ICLR 2025", year=2025, arxiv="2501.00002",
          not_checked=())


def pages_registry() -> Registry:
    reg = Registry()

    @claim(A, role="headline", source="Theorem 1; rate reconstructed", evidence="rate", registry=reg,
           statement=r"$f(x_k) - f^* \le C k^{-1}$", reconstructed_from="the abstract")
    def rate_one_over_k(ctx):
        """The gap f(x_k) - f^* decays as k^{-1}, measured over k = 10^1 ... 10^3."""
        k = np.array([10, 30, 100, 300, 1000])
        return Rate(k, 3.0 / k * (1 + 0.01 * np.sin(k)), exponent=-1.0, tolerance=0.02, max_halfwidth=0.05,
                    why="lower-order terms of size 1e-2 relative; a 95% t interval", size_name="k",
                    cost_name="f(x_k) - f^*")

    @rate_one_over_k.control("claimed exponent -2 instead of -1")
    def _(ctx):
        k = np.array([10, 30, 100, 300, 1000])
        return Rate(k, 3.0 / k, exponent=-2.0, why="exact power law")

    @claim(A, role="headline", source="Lemma 2", evidence="identity", registry=reg,
           statement=r"$\|x\|^2 = \langle x, x\rangle$")
    def many_equal_rows(ctx):
        """Sixty identities with the same numbers: the table folds them (argmin_x psi(x) - z x, max_i a_i)."""
        return Identity(np.zeros(60), np.zeros(60), atol=1e-12, why="exact arithmetic; rounding below 1e-12",
                        labels=[f"case x_{i}" for i in range(60)])

    @many_equal_rows.control("one case off by 1")
    def _(ctx):
        return Identity(np.r_[np.zeros(59), 1.0], np.zeros(60), atol=1e-12, why="exact")

    @claim(B, role="headline", source="Proposition 3", evidence="bound", registry=reg,
           statement=r"$\sin x \le x$ for $x \ge 0$")
    def sine_below_identity(ctx):
        """sin x <= x at instances spread over [0, 10] (independent draws, drawn as points)."""
        x = ctx.rng.uniform(0, 10, 200)
        return Bound(np.sin(x), x, why="float64 rounding: 1e-15 relative", quantity="sin(x_i)",
                     series=["low" if v < 5 else "high" for v in x])

    @sine_below_identity.control("negative arguments")
    def _(ctx):
        x = -ctx.rng.uniform(0, 10, 200)
        return Bound(np.sin(x), x, why="exact")

    return reg


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("pages")
    s = api.run(db=out / "wb.sqlite", out=out / "report", registry=pages_registry(), progress=False, seed=3,
                pdf=bool(shutil.which("latexmk")))
    return s, (out / "report" / "report.tex").read_text()


def test_the_report_ends_with_what_is_open_and_how_to_reproduce(pages):
    s, tex = pages
    assert "What this run leaves open, and how to reproduce it" in tex
    assert "Theorem 9: a lower bound over all algorithms" in tex.split("What this run leaves open")[1]
    assert "workbench run -{}-seed 3 -{}-profile quick -{}-jobs 1" in tex  # everything registered: no selector
    assert f"workbench report -{{}}-run {s.run_id} -{{}}-db" in tex  # plain dashes when pasted


def test_the_reproducing_command_names_whole_papers_and_single_claims():
    from pathlib import Path

    from workbench.report import reproduction

    reg = pages_registry()
    run = {"selection": ["paper_a.rate_one_over_k", "paper_a.many_equal_rows", "paper_b.sine_below_identity"],
           "seed": 5, "profile": "full", "jobs": 2, "backend": "loky",
           "metadata": {"git_revision": "abc1234+modified", "sweeps": True}}
    extra = {"id": 1, "claim_id": "paper_a.rate_one_over_k", "grid": {"n": [1, 2]}, "seed": 5, "profile": "full",
             "metadata": {}}
    got = reproduction(run, [], [extra], reg.claims, Path("r/wb.sqlite"))
    assert got["lines"] == ["git checkout abc1234", "workbench run --seed 5 --profile full --jobs 2 --sweeps"]
    got = reproduction(run | {"selection": ["paper_a.rate_one_over_k", "paper_b.sine_below_identity"]}, [], [],
                       reg.claims, Path("wb.sqlite"))
    assert got["lines"][-1].startswith("workbench run paper_a.rate_one_over_k paper_b --seed 5")
    assert got["extra_sweeps"] == []
    assert reproduction(run, [], [extra], reg.claims, Path("wb.sqlite"))["extra_sweeps"] == [
        "workbench sweep paper_a.rate_one_over_k --grid n=1,2 --seed 5 --profile full"]


def test_papers_do_not_each_start_a_fresh_page(pages):
    _, tex = pages
    body = tex.split(r"\section{")[1:]
    assert len(body) >= 2 and not any(r"\clearpage" in part for part in body)


def test_a_reconstructed_source_is_not_said_twice(pages):
    _, tex = pages
    assert "reconstructed; reconstructed" not in tex and "the reading comes from the abstract" in tex


def test_folded_rows_and_math_in_the_pages(pages):
    _, tex = pages
    assert "(60 rows alike)" in tex and tex.count("case $x_{") < 5
    assert r"$f(x_k)$" in tex and "95\\%" in tex and "textbackslash" not in tex


@pytest.mark.skipif(not shutil.which("latexmk"), reason="needs TeX")
def test_the_pdf_has_no_overfull_box_beyond_a_few_points(pages):
    s, _ = pages
    assert "pdf" in s.report, s.messages
    log = s.report["tex"].with_suffix(".log").read_text(errors="replace")
    widths = [float(w) for w in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log)]
    assert max(widths, default=0.0) <= 3.0, widths


def test_a_source_a_reader_cannot_consult_is_flagged():
    from workbench.report import unfollowable_source

    assert unfollowable_source("Abstract; reconstructed from the research notes' reading") == "research notes"
    assert unfollowable_source("claims-icml2025.md section 14") == "claims-icml2025.md"
    assert unfollowable_source("the abstract (arXiv 2501.00001v2)") is None
    assert unfollowable_source("OpenReview review, https://openreview.net/forum?id=abc") is None


def test_urls_and_long_identifiers_can_break_and_tiny_margins_are_spelled_out():
    text = str(typeset("read from https://openreview.net/forum?id=IQdlPvj4dX and simulations.optim.profiles_x"))
    assert r"openreview.\allowbreak{}net/\allowbreak{}forum" in text and "$" not in text.split("and")[0]
    from workbench.evidence.core import fmt_pair

    assert fmt_pair(0.13888888888888889, 0.1388888888888889 + 1e-16) == ("0.138889 (1e-16 below)", "0.138889")


def test_formulas_inside_brackets_and_hyphenated_words():
    assert auto_math("O~(eps^-2 n^{p/2}) columns") == "O~($eps^{-2}$ $n^{p/2})$ columns"
    assert auto_math("l_q-Lewis-weight sampling with n^(q/2)") == "l_q-Lewis-weight sampling with $n^{(q/2)}$"
    from workbench.figures import tick_text

    assert [tick_text(v) for v in (1600.0, 0.123456, 127000.0, 1e-6)] == [
        "1600", "0.123", r"$1.27\times 10^{5}$", "$10^{-6}$"]
    assert figure_label("iterations to f - f* <= eps") == r"iterations to f - f* $\leq$ eps"


def test_an_identity_sweep_plots_the_error_its_tolerance_bounds():
    from workbench.figures import sweep_key

    points = [{"params": {"n": n}, "claim_verdict": "VERIFIED", "headline": {"max_rel_error": 1e-12 * n,
               "max_abs_error": 1e-13 * n}, "evidence": {"rtol": 0.0, "atol": 2.5e-11}} for n in (1, 2, 3)]
    assert sweep_key(points) == "max_abs_error"  # rtol 0 states no relative threshold
    ax = draw_sweep({"grid": {"n": [1, 2, 3]}, "points": points}).axes[0]
    assert any(np.allclose(ln.get_ydata(), 2.5e-11) for ln in ax.get_lines())


def test_instances_that_are_all_one_point_get_no_figure(tmp_path):
    from workbench.figures import evidence_figure

    same = Bound([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], why="exact count").decide().figure
    assert evidence_figure(same, tmp_path / "same.pdf") is None and not (tmp_path / "same.pdf").exists()
    spread = Bound([0.0, 1.0], [1.0, 2.0], why="x").decide().figure
    assert evidence_figure(spread, tmp_path / "spread.pdf") is not None
