"""The verification report: LaTeX (Jinja2), figures (matplotlib), macros, JSON and the PDF.

Everything is rendered from the results database, so a stored run can be reported again at
any time (``workbench report``).  Every string that comes from code or the user is escaped by
the template environment itself; only claim statements, which authors write as LaTeX on
purpose, pass through unescaped (wrapped in :class:`Latex`).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import jinja2

from .store import Store
from .sweeps import headline_key, transitions
from .texsafe import (
    Latex,
    author_latex,
    breakable,
    build_pdf,
    escape_latex,
    escape_text_with_math,
    latex_hazard,
    tex_error_line,
)

__all__ = ["Latex", "build_pdf", "escape_latex", "escape_text_with_math", "macro_name", "write_report"]

TEMPLATES = Path(__file__).parent / "templates"
VERDICT_COLOURS = {"VERIFIED": "wbgreen", "REFUTED": "wbred", "INCONCLUSIVE": "wbamber", "ERROR": "wbmagenta"}


def environment(plain: bool = False) -> jinja2.Environment:
    """Jinja2 environment with LaTeX-safe delimiters, StrictUndefined and escaping by default.

    With ``plain=True`` the authors' LaTeX (statements, math in docstrings) is escaped too: the
    fallback when it does not compile.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        block_start_string=r"\BLOCK{", block_end_string="}",
        variable_start_string=r"\VAR{", variable_end_string="}",
        comment_start_string=r"\#{", comment_end_string="}",
        line_statement_prefix="%%", line_comment_prefix="%#",
        trim_blocks=True, lstrip_blocks=True, autoescape=False,
        undefined=jinja2.StrictUndefined, finalize=escape_latex,
    )
    env.filters["latex"] = (lambda v: Latex(escape_latex(v))) if plain else author_latex
    env.filters["mathtext"] = (lambda v: Latex(escape_latex(v))) if plain else escape_text_with_math
    env.filters["breakable"] = breakable
    return env


def macro_name(*parts: str) -> str:
    """A LaTeX control word from identifiers: ``wb`` + CamelCase, digits spelled out."""
    digits = "Zero One Two Three Four Five Six Seven Eight Nine".split()
    words = re.split(r"[^A-Za-z0-9]+", " ".join(parts))
    out = "wb"
    for w in words:
        w = re.sub(r"\d", lambda m: digits[int(m.group())], w)
        out += w[:1].upper() + w[1:]
    return out


ROLE_ORDER = {"headline": 0, "supporting": 1, "background": 2}


def headline_counts(claims: list[dict[str, Any]], not_checked: list[dict[str, str]] | None) -> dict[str, int]:
    """Per paper: headline results verified sharply, verified slack, not verified, not checked.

    ``claims`` are stored results (with ``role``, ``verdict`` and ``grade``); ``not_checked`` the
    paper's entries (dicts with ``role``)."""
    head = [r for r in claims if r.get("role") == "headline"]
    return {"sharp": sum(r["grade"] == "sharp" for r in head), "slack": sum(r["grade"] == "slack" for r in head),
            "not_verified": sum(r["verdict"] != "VERIFIED" for r in head),
            "not_checked": sum(e.get("role") == "headline" for e in (not_checked or []))}


def verdict_counts(results: list[dict[str, Any]]) -> dict[str, int]:
    """Counts over the papers' own results (background checks apart): verified sharply and slack,
    refuted (and how many of those are reconstructed statements), inconclusive, error; and the
    number of background checks."""
    own = [r for r in results if r.get("role") != "background"]
    return {"sharp": sum(r["grade"] == "sharp" for r in own), "slack": sum(r["grade"] == "slack" for r in own),
            "REFUTED": sum(r["verdict"] == "REFUTED" for r in own),
            "refuted_reconstructed": sum(r["verdict"] == "REFUTED" and r["reconstructed"] for r in own),
            "INCONCLUSIVE": sum(r["verdict"] == "INCONCLUSIVE" for r in own),
            "ERROR": sum(r["verdict"] == "ERROR" for r in own), "own": len(own),
            "background": len(results) - len(own),
            "VERIFIED": sum(r["verdict"] == "VERIFIED" for r in own)}


def _paper_groups(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    papers: dict[str, dict[str, Any]] = {}
    for r in results:
        slug = r["paper"]["slug"]
        papers.setdefault(slug, {"paper": r["paper"], "claims": []})["claims"].append(r)
    for slug, group in papers.items():
        group["anchor"] = "paper-" + re.sub(r"[^A-Za-z0-9]+", "-", slug)
        group["claims"].sort(key=lambda r: ROLE_ORDER.get(r.get("role"), 1))
        group["counts"] = headline_counts(group["claims"], group["paper"].get("not_checked"))
        group["own"] = [r for r in group["claims"] if r.get("role") != "background"]
        group["background"] = [r for r in group["claims"] if r.get("role") == "background"]
    return list(papers.values())


def _label_at_values(axis: Any, values: Any) -> None:
    """Label a numeric axis at the measured values (at most 12 distinct) and blank its minor
    labels: on short log axes matplotlib labels every minor tick, and they overlap."""
    from matplotlib.ticker import NullFormatter

    ticks = sorted(set(float(v) for v in values))
    if len(ticks) <= 12:
        axis.set_ticks(ticks, [f"{v:.0f}" if v.is_integer() and abs(v) < 1e6 else f"{v:.3g}" for v in ticks])
        axis.set_minor_formatter(NullFormatter())


def _figures(result: dict[str, Any], folder: Path) -> list[str]:
    """Draw the claim's figures (one per piece of an AllOf); return their file names."""
    fig_data = (result["outcome"] or {}).get("decision", {}).get("figure")
    if not fig_data:
        return []
    base = re.sub(r"[^A-Za-z0-9]+", "-", result["claim_id"])
    if fig_data.get("type") == "parts":
        names = [_figure(part, folder, f"{base}-{i + 1}") for i, part in enumerate(fig_data["parts"])]
        return [n for n in names if n]
    name = _figure(fig_data, folder, base)
    return [name] if name else []


def _figure(fig_data: dict[str, Any], folder: Path, base: str) -> str | None:
    """Draw one figure of evidence (a rate or a bound); return the file name or None."""
    import numpy as np

    plt = _plt()
    fig, ax = plt.subplots(figsize=(5.2, 3.0))
    if fig_data["type"] == "rate":
        x, y = np.asarray(fig_data["x"]), np.asarray(fig_data["y"])
        ax.loglog(x, y, "o", ms=4, label="measured")
        xs = np.geomspace(x.min(), x.max(), 50)
        ax.loglog(xs, np.exp(fig_data["intercept"]) * xs ** fig_data["slope"], "-",
                  label=f"fit: slope {fig_data['slope']:.3f}")
        gx, gy = np.exp(np.mean(np.log(x))), np.exp(np.mean(np.log(y)))
        ax.loglog(xs, gy * (xs / gx) ** fig_data["claimed"], "--", label=f"claimed slope {fig_data['claimed']:.3g}")
        _label_at_values(ax.xaxis, x)
    elif fig_data["type"] == "bound":
        x = np.asarray(fig_data["x"], dtype=float)
        m, b = np.asarray(fig_data["measured"]), np.asarray(fig_data["bound"])
        order = np.argsort(x, kind="stable")
        style = "-" if len(x) <= 400 and len(np.unique(x)) == len(x) else "."
        ax.plot(x[order], b[order], "--" if style == "-" else ".", ms=2, color="C1",
                label=f"bound ({fig_data['relation']})")
        ax.plot(x[order], m[order], style, ms=2, color="C0", label="measured", zorder=3)
        if np.all(m > 0) and np.all(b > 0) and max(m.max(), b.max()) / min(m.min(), b.min()) > 100:
            ax.set_yscale("log")
    else:
        plt.close(fig)
        return None
    import textwrap

    from matplotlib.ticker import MaxNLocator

    ax.set_xlabel(textwrap.fill(str(fig_data.get("xlabel", "")), 60))
    ax.set_ylabel(textwrap.fill(str(fig_data.get("ylabel", "")), 32))
    if fig_data["type"] == "bound" and all(float(v).is_integer() for v in fig_data["x"]):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if fig_data.get("title"):
        ax.set_title(str(fig_data["title"]), fontsize=9)
    ax.legend(frameon=False)
    ax.grid(True, which="both", alpha=0.25)
    fig.tight_layout()
    name = f"{base}.pdf"
    fig.savefig(folder / name)
    plt.close(fig)
    return name


def _registered_claims(registry: Any) -> dict[str, Any]:
    if registry is None:
        from .registry import load

        try:
            registry = load()
        except Exception:  # a broken paper module must not stop the report of a stored run
            return {}
    return registry.claims


def _diagram(claim: Any, result: dict[str, Any], folder: Path, messages: list[str]) -> dict[str, str] | None:
    """Draw the claim's declared diagram at the run's parameters; None when it has none.

    A diagram that fails is left out with a message; the rest of the report is unaffected.
    """
    if claim is None or claim.diagram is None:
        return None
    plt = _plt()
    name = f"diagram-{result['anchor'][len('claim-'):]}.pdf"
    try:
        fig = claim.diagram(dict(result["params"]))
        fig.savefig(folder / name, bbox_inches="tight")
        plt.close(fig)
    except Exception as exc:  # the figure is an illustration: report the failure, keep going
        messages.append(f"the diagram of {claim.id} failed ({type(exc).__name__}: {exc}); left out of the report")
        return None
    return {"file": f"figures/{name}", "caption": diagram_caption(claim)}


def diagram_caption(claim: Any) -> str:
    """The caption of a claim's diagram: the first paragraph of its function's docstring ("" when
    the claim has no diagram)."""
    import inspect

    if claim.diagram is None:
        return ""
    doc = inspect.getdoc(claim.diagram) or ""
    return doc.split("\n\n")[0].replace("\n", " ").strip()


VERDICT_RGB = {"VERIFIED": "#00763e", "REFUTED": "#be1e2d", "INCONCLUSIVE": "#c47800", "ERROR": "#961e96"}


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"pdf.fonttype": 42, "font.size": 9})
    return plt


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def sweep_figure(sweep: dict[str, Any], path: Path) -> Path:
    """Draw a stored sweep.

    Two varying axes: a phase diagram, each point coloured by the evidence's ``finding`` when
    every point has one (a black cross where the claim is not verified), else by its verdict.
    One axis: the headline number against it, each point coloured by its verdict.
    """
    from matplotlib.lines import Line2D

    plt = _plt()
    grid, points = sweep["grid"], sweep["points"]
    varying = [n for n, v in grid.items() if len(v) > 1] or list(grid)
    fig, ax = plt.subplots(figsize=(5.2, 3.2))
    colours = [VERDICT_RGB[p["claim_verdict"]] for p in points]
    seen = [v for v in VERDICT_RGB if any(p["claim_verdict"] == v for p in points)]
    handles = [Line2D([], [], ls="", marker="s" if len(varying) >= 2 else "o", color=VERDICT_RGB[v]) for v in seen]
    labels = [v.lower() for v in seen]

    def axis_values(name: str) -> tuple[list[Any], bool]:
        vals = [p["params"][name] for p in points]
        if _numeric(grid[name]):
            return vals, True
        order = {v: i for i, v in enumerate(grid[name])}
        return [order[v] for v in vals], False

    if len(varying) >= 2:
        (xn, yn) = varying[:2]
        xs, xnum = axis_values(xn)
        ys, ynum = axis_values(yn)
        findings = [(p.get("evidence") or {}).get("finding") for p in points]
        if all(isinstance(f, str) for f in findings):
            palette = {f: f"C{i % 10}" for i, f in enumerate(dict.fromkeys(findings))}
            ax.scatter(xs, ys, c=[palette[f] for f in findings], s=90, marker="s")
            bad = [i for i, p in enumerate(points) if p["claim_verdict"] != "VERIFIED"]
            ax.scatter([xs[i] for i in bad], [ys[i] for i in bad], c="k", marker="x", s=40, zorder=3)
            handles = [Line2D([], [], ls="", marker="s", color=c) for c in palette.values()]
            labels = list(palette)
            if bad:
                handles.append(Line2D([], [], ls="", marker="x", color="k"))
                labels.append("claim not verified")
            ax.set_title("what the measurement found over the grid", fontsize=9)
        else:
            ax.scatter(xs, ys, c=colours, s=60, marker="s")
            ax.set_title("claim verdict over the grid", fontsize=9)
        ax.set_xlabel(xn)
        ax.set_ylabel(yn)
        for name, num, setter, axis in ((xn, xnum, ax.set_xscale, ax.xaxis), (yn, ynum, ax.set_yscale, ax.yaxis)):
            if num and min(grid[name]) > 0 and max(grid[name]) / min(grid[name]) >= 10:
                setter("log")
            if not num:
                axis.set_ticks(range(len(grid[name])), [str(v) for v in grid[name]])
            else:
                _label_at_values(axis, grid[name])
    else:
        xn = varying[0]
        xs, xnum = axis_values(xn)
        key = headline_key(points)
        ys = [p["headline"][key] for p in points] if key else [list(VERDICT_RGB).index(p["claim_verdict"]) for p in points]
        ax.plot(xs, ys, "-", color="0.6", lw=1)
        ax.scatter(xs, ys, c=colours, s=30, zorder=3)
        ref = {"value": "reference", "estimate": "claimed"}.get(key)  # what the measurement is held to
        if ref and all(isinstance(p["headline"].get(ref), (int, float)) for p in points):
            ax.plot(xs, [p["headline"][ref] for p in points], "--", color="C1", lw=1)
            handles.append(Line2D([], [], ls="--", color="C1"))
            labels.append(ref)
        ax.set_xlabel(xn)
        ax.set_ylabel({"estimate": "estimated probability"}.get(key, key.replace("_", " ")) if key else "verdict")
        if not key:
            ax.set_yticks(range(len(VERDICT_RGB)), list(VERDICT_RGB))
        if xnum and min(grid[xn]) > 0 and max(grid[xn]) / min(grid[xn]) >= 10:
            ax.set_xscale("log")
        if xnum:
            _label_at_values(ax.xaxis, grid[xn])
        else:
            ax.set_xticks(range(len(grid[xn])), [str(v) for v in grid[xn]])
    ax.legend(handles, labels, frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(True, which="both", alpha=0.25)
    fig.tight_layout()
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path


def tex_number(value: float | int) -> str:
    """A number for running text: integers as they are; other values with 4 significant digits,
    as a decimal between 0.001 and 10^4 and as ``m \\times 10^{e}`` outside (never ``6.8e-05``,
    which breaks across lines and reads as code); negative numbers in math mode (a minus sign,
    not a hyphen)."""
    import math

    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 1e9):
        text = str(int(value))
        return f"\\ensuremath{{{text}}}" if value < 0 else text
    v = float(value)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "\\ensuremath{\\infty}" if v > 0 else "\\ensuremath{-\\infty}"
    if 1e-3 <= abs(v) < 1e4:
        text = f"{v:.4g}"
    else:
        mantissa, exponent = f"{v:.3e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        text = f"{mantissa}\\times 10^{{{int(exponent)}}}"
        return f"\\ensuremath{{{text}}}"
    return f"\\ensuremath{{{text}}}" if v < 0 else text


MACRO_HEADER = """% Verdicts and headline numbers of workbench runs, for \\input{claims.tex} in a paper.
% One block per paper: a run of some papers replaces their blocks and keeps the others', so a
% document that uses the macros of several papers keeps compiling. The totals at the end count
% every paper in this file. Numbers have 4 significant digits (claims-PAPER.tex: one paper alone).
"""
_BLOCK_RE = re.compile(r"^% paper (?P<slug>[a-z][a-z0-9_]*): .*?^% end of paper (?P=slug)\n", re.M | re.S)
_COUNTS_RE = re.compile(r"^% counts (\{.*\})$", re.M)


def _paper_macros(run: dict[str, Any], slug: str, results: list[dict[str, Any]],
                  not_checked: list[dict[str, str]] | None) -> str:
    """The block of one paper's macros (its claims in this run), with its counts for the totals."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    vc = verdict_counts(results)
    counts |= {"claims": len(results), "sharp": vc["sharp"], "slack": vc["slack"], "background": vc["background"]}
    lines = [f"% paper {slug}: run {run['id']} (seed {run['seed']}, {run['profile']} profile, "
             f"{run.get('finished') or run.get('started')})",
             f"% counts {json.dumps(counts, sort_keys=True)}"]
    for r in results:
        base = macro_name(slug, r["name"])
        lines.append(f"\\newcommand{{\\{base}Verdict}}{{{r['verdict']}}}")
        lines.append(f"\\newcommand{{\\{base}Role}}{{{r.get('role', '')}}}")
        lines.append(f"\\newcommand{{\\{base}Grade}}{{{r.get('grade') or 'none'}}}")
        decision = (r["outcome"] or {}).get("decision", {})
        sharp = decision.get("sharpness") or {}
        if isinstance(sharp.get("value"), (int, float)):
            lines.append(f"\\newcommand{{\\{base}Sharpness}}{{{tex_number(sharp['value'])}}}")
        for i, end in enumerate(sharp.get("range") or []):
            lines.append(f"\\newcommand{{\\{base}Sharpness{'Low' if i == 0 else 'High'}}}{{{tex_number(end)}}}")
        for key, value in (decision.get("headline") or {}).items():
            if isinstance(value, (int, float)):
                lines.append(f"\\newcommand{{\\{macro_name(base[2:], key)}}}{{{tex_number(value)}}}")
    head = headline_counts(results, not_checked)
    for key, name in (("sharp", "headline sharp"), ("slack", "headline slack"),
                      ("not_verified", "headline not verified"), ("not_checked", "headline not checked")):
        lines.append(f"\\newcommand{{\\{macro_name(slug, name)}}}{{{head[key]}}}")
    lines.append(f"% end of paper {slug}")
    return "\n".join(lines) + "\n"


def _macros(run: dict[str, Any], results: list[dict[str, Any]], existing: str = "") -> str:
    """``claims.tex``: this run's papers' blocks, the blocks of other papers kept from ``existing``
    (the file a previous run left in the same folder), and totals over every block."""
    papers = _paper_groups([dict(r) for r in results])
    blocks = {g["paper"]["slug"]: _paper_macros(run, g["paper"]["slug"], g["claims"], g["paper"].get("not_checked"))
              for g in papers}
    for m in _BLOCK_RE.finditer(existing):
        blocks.setdefault(m.group("slug"), m.group(0))
    totals: dict[str, int] = {}
    for block in blocks.values():
        found = _COUNTS_RE.search(block)
        for key, n in (json.loads(found.group(1)) if found else {}).items():
            totals[key] = totals.get(key, 0) + int(n)
    lines = [MACRO_HEADER]
    lines += [blocks[slug] for slug in sorted(blocks)]
    lines.append(f"% totals over the {len(blocks)} paper{'s' * (len(blocks) != 1)} above")
    lines.append(f"\\newcommand{{\\wbClaimsTotal}}{{{totals.get('claims', 0)}}}")
    for verdict in ("VERIFIED", "REFUTED", "INCONCLUSIVE", "ERROR"):
        lines.append(f"\\newcommand{{\\{macro_name('claims', verdict.lower())}}}{{{totals.get(verdict, 0)}}}")
    for key, name in (("sharp", "verified sharp"), ("slack", "verified slack"), ("background", "background")):
        lines.append(f"\\newcommand{{\\{macro_name('claims', name)}}}{{{totals.get(key, 0)}}}")
    return "\n".join(lines) + "\n"


def _json(run: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    papers = _paper_groups([dict(r) for r in results])
    return {
        "run": {k: run[k] for k in ("id", "started", "finished", "status", "seed", "profile", "jobs", "backend")}
        | {"metadata": run["metadata"]},
        "counts": verdict_counts(results),
        "papers": [{"slug": g["paper"]["slug"], "headline": g["counts"], "not_checked": g["paper"].get("not_checked")}
                   for g in papers],
        "claims": [
            {"id": r["claim_id"], "paper": r["paper"]["slug"], "verdict": r["verdict"], "note": r["note"],
             "role": r.get("role"), "grade": r.get("grade"), "slack": r.get("grade") == "slack",
             "claim_verdict": (r["outcome"] or {}).get("verdict"),
             "evidence_kind": r["evidence_kind"], "reconstructed": r["reconstructed"],
             "reconstructed_from": r.get("reconstructed_from"),
             "sharpness": (r["outcome"] or {}).get("decision", {}).get("sharpness"),
             "near_miss": (r["outcome"] or {}).get("decision", {}).get("near_miss"),
             "declared_near_miss": r.get("near_miss"),
             "evidence": {k: (r["outcome"] or {}).get("decision", {}).get(k)
                          for k in ("summary", "error_probability", "headline", "counterexample")},
             "controls": [{"id": c["outcome_id"], "broken": c["broken"], "verdict": c["verdict"],
                           "near_miss": c.get("near_miss", False),
                           "summary": c["decision"]["summary"]} for c in r["controls"]],
             "params": r["params"], "seconds": r["seconds"], "provenance": r["provenance"],
             "expect": r["expect"], "expect_reason": r["expect_reason"]}
            for r in results
        ],
    }


FIGURES_PARALLEL_MIN = 12
"""Figures are drawn on worker processes when there are at least this many (and jobs > 1): a
worker must first import matplotlib (about a second), which a few figures do not repay."""


def _draw_task(kind: str, data: dict[str, Any], folder: Path) -> tuple[list[str], str, float]:
    """Draw one claim's figures or one sweep's figure (in a worker, or here); return the file
    names, an error message ("" when it worked) and the CPU seconds spent."""
    import time

    cpu = time.process_time()
    try:
        if kind == "sweep":
            name = f"sweep-{data['id']}.pdf"
            sweep_figure(data, folder / name)
            names = [name]
        else:
            names = _figures(data, folder)
        error = ""
    except Exception as exc:  # noqa: BLE001 - a figure is an illustration: report it, keep going
        names, error = [], f"{type(exc).__name__}: {exc}"
    finally:
        _plt().close("all")
    return names, error, time.process_time() - cpu


def draw_figures(results: list[dict[str, Any]], sweeps: list[dict[str, Any]], folder: Path, *, jobs: int = 1,
                 progress: Any = None) -> tuple[dict[tuple[str, str], list[str]], list[str], float]:
    """Draw every claim's figures and every sweep's figure into ``folder``, on ``jobs`` worker
    processes when there are enough of them (:data:`FIGURES_PARALLEL_MIN`).

    Returns:
        (file names by ``("claim", claim id)`` / ``("sweep", sweep id)``, messages naming the
        figures that failed, CPU seconds the workers spent).
    """
    tasks = [("sweep", str(sw["id"]), sw) for sw in sweeps]
    tasks += [("claim", r["claim_id"], {"claim_id": r["claim_id"], "outcome": {"decision": {
        "figure": ((r["outcome"] or {}).get("decision") or {}).get("figure")}}})
              for r in results if ((r["outcome"] or {}).get("decision") or {}).get("figure")]
    names: dict[tuple[str, str], list[str]] = {}
    messages: list[str] = []
    worker_cpu = 0.0
    if jobs > 1 and len(tasks) >= FIGURES_PARALLEL_MIN:
        from .schedule import parallel_unordered

        drawn = parallel_unordered([(_draw_task, (kind, data, folder), {}) for kind, _, data in tasks], jobs, "loky")
    else:
        drawn = ((i, _draw_task(kind, data, folder)) for i, (kind, _, data) in enumerate(tasks))
    for i, (files, error, cpu) in drawn:
        kind, key, _ = tasks[i]
        names[(kind, key)] = files
        if jobs > 1 and len(tasks) >= FIGURES_PARALLEL_MIN:
            worker_cpu += cpu
        if error:
            messages.append(f"the figure of {kind} {key} failed ({error}); left out of the report")
        if progress is not None:
            progress()
    return names, messages, worker_cpu


def write_report(store: Store, run_id: int, out: Path, *, pdf: bool = True, registry: Any = None, jobs: int = 1,
                 progress: bool = False, clock: Any = None) -> tuple[dict[str, Path], list[str]]:
    """Write ``report.tex``, figures, ``claims.tex``, ``results.json`` and (with TeX) ``report.pdf``.

    Args:
        store: the results database; run_id: the run to report.
        out: output folder (created if missing).
        pdf: build the PDF with ``latexmk -pdf`` (shell escape off).
        registry: where to find the claims' diagram functions (default: every installed paper
            module); a claim no longer registered is reported without its diagram.
        jobs: worker processes for drawing the figures (see :func:`draw_figures`).
        progress: show progress bars on stderr (figures drawn; TeX passes and pages).
        clock: a :class:`workbench.schedule.PhaseClock` that times the ``figures`` and ``pdf`` phases.

    Returns:
        (paths written by key, messages for the user).
    """
    from .schedule import PhaseClock

    clock = clock or PhaseClock()
    out.mkdir(parents=True, exist_ok=True)
    figures = out / "figures"
    figures.mkdir(exist_ok=True)
    run = store.run(run_id)
    results = store.results(run_id)
    previous = store.previous_verdicts(run_id)
    scope = store.report_scope(run_id)  # sweeps and searches as of the run, not stored after it
    sweeps = store.latest_sweeps([r["claim_id"] for r in results], upto=scope["sweep"])
    messages: list[str] = []
    claims = _registered_claims(registry)
    bar = _bar(progress)
    with clock.phase("figures"), bar:
        with_diagram = [r for r in results if getattr(claims.get(r["claim_id"]), "diagram", None) is not None]
        n_figures = len(sweeps) + sum(bool(((r["outcome"] or {}).get("decision") or {}).get("figure"))
                                      for r in results) + len(with_diagram)
        task = bar.add_task(f"figures on {jobs} workers" if jobs > 1 and n_figures >= FIGURES_PARALLEL_MIN
                            else "figures", total=n_figures)
        drawn, failed, worker_cpu = draw_figures(results, sweeps, figures, jobs=jobs,
                                                 progress=lambda: bar.advance(task))
        clock.add_cpu("figures", worker_cpu)
        messages.extend(failed)
        for sw in sweeps:
            files = drawn.get(("sweep", str(sw["id"])), [])
            sw["figure"] = f"figures/{files[0]}" if files else None
            sw["changes"] = transitions(sw["grid"], [(p["params"], p["claim_verdict"]) for p in sw["points"]])
        for r in results:
            r["figures"] = [f"figures/{name}" for name in drawn.get(("claim", r["claim_id"]), [])]
            r["previous"] = previous.get(r["claim_id"])
            r["anchor"] = "claim-" + re.sub(r"[^A-Za-z0-9]+", "-", r["claim_id"])
            r["sweeps"] = [sw for sw in sweeps if sw["claim_id"] == r["claim_id"]]
            r["diagram"] = _diagram(claims.get(r["claim_id"]), r, figures, messages)
            if r["diagram"] is not None or r in with_diagram:
                bar.advance(task)
    messages.extend(refused_text(results))
    counts = verdict_counts(results)
    searches = store.latest_searches([r["claim_id"] for r in results], upto=scope["search"])
    papers = _paper_groups(results)
    totals = {k: sum(g["counts"][k] for g in papers) for k in ("sharp", "slack", "not_verified", "not_checked")}

    def render(plain: bool) -> str:
        return environment(plain).get_template("report.tex.j2").render(
            run=run, papers=papers, results=results, counts=counts, colours=VERDICT_COLOURS,
            searches=searches, totals=totals, undeclared=[g["paper"]["slug"] for g in papers
                                                          if g["paper"].get("not_checked") is None])

    paths = {"tex": out / "report.tex", "macros": out / "claims.tex", "json": out / "results.json"}
    paths["tex"].write_text(render(plain=False))
    existing = paths["macros"].read_text(errors="replace") if paths["macros"].exists() else ""
    paths["macros"].write_text(_macros(run, results, existing))
    for g in papers:  # each paper alone, for a document about one paper
        slug = g["paper"]["slug"]
        (out / f"claims-{slug}.tex").write_text(
            MACRO_HEADER.splitlines()[0] + "\n" + _paper_macros(run, slug, g["claims"], g["paper"].get("not_checked")))
    paths["json"].write_text(json.dumps(_json(run, results), indent=2, default=str))
    if pdf:
        with clock.phase("pdf"):
            built, message = _build_with_progress(paths["tex"], progress)
        if built is None and shutil.which("latexmk"):
            with clock.phase("pdf"):
                built, message = _fallback_build(paths, out, results, papers, render, message, progress)
        if built:
            paths["pdf"] = built
        if message:
            messages.append(message)
    return paths, messages


def _fallback_build(paths: dict[str, Path], out: Path, results: list[dict[str, Any]], papers: list[dict[str, Any]],
                    render: Any, message: str, progress: bool) -> tuple[Path | None, str]:
    """The authors' LaTeX (a statement or docstring math) may not compile: keep the log, and build
    the report again with that LaTeX shown as plain text."""
    log = paths["tex"].with_suffix(".log")
    failed = out / "report-failed.log"
    if log.exists():
        shutil.copy(log, failed)
    names = {r["anchor"]: f"claim {r['claim_id']}" for r in results} | {
        g["anchor"]: f"paper {g['paper']['slug']}" for g in papers}
    culprit = _claim_at_line(paths["tex"], tex_error_line(failed), names)
    paths["tex"].write_text(render(plain=True))
    built, retry = _build_with_progress(paths["tex"], progress)
    where = f" (it stopped in the text of {culprit})" if culprit else ""
    message = (f"the claims' LaTeX did not compile{where}: {message}; the PDF shows every statement as plain "
               f"text (the failed build's log is {failed})" if built else f"{message}; then {retry}")
    return built, message


def _bar(enabled: bool) -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True, quiet=not enabled, soft_wrap=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=console, transient=True, disable=not enabled)


def _build_with_progress(tex: Path, progress: bool) -> tuple[Path | None, str]:
    """:func:`build_pdf` with a progress bar over TeX's passes and the pages each one writes (the
    page count of the previous pass, or of the previous build, sets the bar's length)."""
    bar = _bar(progress)
    state = {"pass": 1, "pages": _previous_pages(tex), "last": 0}
    with bar:
        task = bar.add_task("PDF: TeX pass 1", total=state["pages"])

        def on_page(pass_no: int, page: int) -> None:
            if pass_no != state["pass"]:  # a new pass: it writes as many pages as the last one did
                state.update({"pass": pass_no, "pages": state["last"]})
                bar.update(task, description=f"PDF: TeX pass {pass_no}", completed=0, total=state["pages"])
            state["last"] = page
            total = state["pages"]
            bar.update(task, completed=page, total=max(total, page) if total else None)

        built, message = build_pdf(tex, on_page=on_page)
    return built, message


def _previous_pages(tex: Path) -> int | None:
    """The page count of the last build of ``tex`` (from its log), to size the progress bar."""
    log = tex.with_suffix(".log")
    try:
        m = re.search(r"Output written on .*?\((\d+) pages?", log.read_text(errors="replace"))
    except OSError:
        return None
    return int(m.group(1)) if m else None


LATEX_FIELDS = ("statement", "source", "description", "method", "reconstructed_from")


def refused_text(results: list[dict[str, Any]]) -> list[str]:
    """Messages naming each claim whose LaTeX the report refuses (see
    :func:`workbench.texsafe.latex_hazard`); the refused text is then shown as plain text."""
    messages, seen_papers = [], set()
    for r in results:
        for name in LATEX_FIELDS:
            hazard = latex_hazard(r.get(name) or "")
            if hazard:
                messages.append(f"{r['claim_id']}: its {name.replace('_', ' ')} uses {hazard}, which the report "
                                "refuses (it can read or write files, define macros or loop); shown as plain text")
        paper = r["paper"]
        if paper["slug"] in seen_papers:
            continue
        seen_papers.add(paper["slug"])
        texts = [("title", paper.get("title", ""))] + [
            ("list of statements not checked", f"{e.get('statement', '')} {e.get('why', '')}")
            for e in paper.get("not_checked") or []]
        for name, text in texts:
            hazard = latex_hazard(text)
            if hazard:
                messages.append(f"paper {paper['slug']}: its {name} uses {hazard}, which the report refuses; shown as "
                                "plain text")
    return messages


def _claim_at_line(tex: Path, line: int | None, names: dict[str, str]) -> str | None:
    """The claim (or paper) whose section holds ``line`` of the report's source, found by the
    last ``\\label`` before it; ``names`` maps labels to what to call them."""
    if line is None:
        return None
    try:
        lines = tex.read_text().splitlines()[:line]
    except OSError:
        return None
    for text in reversed(lines):
        m = re.search(r"\\label\{((?:claim|paper)-[^}]*)\}", text)
        if m:
            return names.get(m.group(1), m.group(1))
    return None
