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

from . import execute
from .figures import evidence_figure, sweep_figure
from .figures import plt as _plt
from .store import Store
from .sweeps import transitions
from .texsafe import (
    Latex,
    author_latex,
    breakable,
    build_pdf,
    escape_latex,
    escape_text_with_math,
    latex_hazard,
    tex_error_line,
    typeset,
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
    env.filters["command"] = lambda v: Latex(breakable(v).replace("--", "-{}-"))  # no en dash in a command
    env.filters["typeset"] = (lambda v: Latex(escape_latex(v))) if plain else typeset
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


def no_near_miss(result: dict[str, Any]) -> bool:
    """:func:`workbench.execute.no_near_miss` for a stored result."""
    decision = (result.get("outcome") or {}).get("decision") or {}
    return execute.no_near_miss(result.get("grade"), decision.get("near_miss"))


def headline_counts(claims: list[dict[str, Any]], not_checked: list[dict[str, str]] | None) -> dict[str, int]:
    """Per paper: headline results verified sharply (and how many of those have no near miss),
    verified slack, not verified, not checked.

    ``claims`` are stored results (with ``role``, ``verdict`` and ``grade``); ``not_checked`` the
    paper's entries (dicts with ``role``)."""
    head = [r for r in claims if r.get("role") == "headline"]
    return {"sharp": sum(r["grade"] == "sharp" for r in head), "slack": sum(r["grade"] == "slack" for r in head),
            "no_near_miss": sum(no_near_miss(r) for r in head),
            "not_verified": sum(r["verdict"] != "VERIFIED" for r in head),
            "not_checked": sum(e.get("role") == "headline" for e in (not_checked or []))}


def verdict_counts(results: list[dict[str, Any]]) -> dict[str, int]:
    """Counts over the papers' own results (background checks apart): verified sharply and slack,
    refuted (and how many of those are reconstructed statements), inconclusive, error; and the
    number of background checks."""
    own = [r for r in results if r.get("role") != "background"]
    return {"sharp": sum(r["grade"] == "sharp" for r in own), "slack": sum(r["grade"] == "slack" for r in own),
            "no_near_miss": sum(no_near_miss(r) for r in own),
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


_PRIVATE_SOURCE = re.compile(r"research notes?|our (own )?notes|\bnotes'|[\w-]+\.md\b|derived in the notes", re.I)


def unfollowable_source(text: str | None) -> str | None:
    """The words of a source or reconstruction source that name material a reader of the report
    cannot consult (the project's research notes, a notes file), or None.  A reconstructed
    statement must name a public source: the abstract, a section of the paper, a summary or
    review with its address."""
    m = _PRIVATE_SOURCE.search(text or "")
    return m.group(0) if m else None


FOLD_MIN = 3
"""Consecutive evidence rows with the same measured, claimed and tolerance values (and no other
reason) are folded into one row with a count once there are this many."""


def fold_rows(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    """The evidence table with runs of at least :data:`FOLD_MIN` alike rows (same measured value,
    claimed value and tolerance; a reason only on the first) folded into one: its quantity names
    the first and the last row, and ``folded`` counts them (0 for a row on its own)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(rows):
        j = i + 1
        key = (rows[i].get("measured"), rows[i].get("claimed"), rows[i].get("tolerance"))
        while j < len(rows) and (rows[j].get("measured"), rows[j].get("claimed"), rows[j].get("tolerance")) \
                in (key, (key[0], key[1], "")) and not rows[j].get("reason"):
            j += 1
        if j - i >= FOLD_MIN:
            first, last = rows[i], rows[j - 1]
            out.append(dict(first) | {"quantity": f"{first.get('quantity', '')} ... {last.get('quantity', '')}",
                                      "folded": j - i})
        else:
            out.extend(dict(r) | {"folded": 0} for r in rows[i:j])
        i = j
    for r in out:  # a sentence with nothing to compare (how the instances were found): across the table
        r["wide"] = not (r.get("claimed") or r.get("tolerance") or r.get("reason")) and len(str(r.get("measured", ""))) > 40
    return out


def reproduction(run: dict[str, Any], results: list[dict[str, Any]], sweeps: list[dict[str, Any]],
                 registered: dict[str, Any], db: Path) -> dict[str, Any]:
    """The commands that reproduce a run: the checkout of its revision and the ``workbench run``
    with its selection (no selector when it is everything registered; a paper's slug when the
    run has all its claims; claim ids otherwise), seed, profile, workers and sweeps."""
    selection = list(run.get("selection") or [r["claim_id"] for r in results])
    if registered and set(selection) == set(registered):
        selectors: list[str] = []
    else:
        selectors, chosen = [], set(selection)
        by_paper: dict[str, list[str]] = {}
        for cid in selection:
            by_paper.setdefault(cid.split(".")[0], []).append(cid)
        for slug, ids in by_paper.items():
            of_paper = {cid for cid in registered if cid.split(".")[0] == slug}
            selectors += [slug] if of_paper and of_paper <= chosen else ids
    declared = bool(run["metadata"].get("sweeps")) or any(sw["metadata"].get("declared") for sw in sweeps)
    command = ["workbench", "run", *selectors, "--seed", str(run["seed"]), "--profile", run["profile"],
               "--jobs", str(run["jobs"])]
    if run.get("backend") not in (None, "loky"):
        command += ["--backend", run["backend"]]
    if declared:
        command.append("--sweeps")
    revision = (run["metadata"].get("git_revision") or "").removesuffix("+modified")
    lines = ([f"git checkout {revision}"] if revision else []) + [" ".join(command)]
    extra = []
    for sw in sweeps:
        if not sw["metadata"].get("declared"):
            grid = " ".join(f"--grid {k}={','.join(str(v) for v in vals)}" for k, vals in sw["grid"].items())
            extra.append(f"workbench sweep {sw['claim_id']} {grid} --seed {sw['seed']} --profile {sw['profile']}")
    return {"lines": lines, "sweeps": bool(sweeps), "extra_sweeps": extra, "db": str(db)}


def _figures(result: dict[str, Any], folder: Path) -> list[str]:
    """Draw the claim's figures (one per piece of an AllOf); return their file names."""
    fig_data = (result["outcome"] or {}).get("decision", {}).get("figure")
    if not fig_data:
        return []
    base = re.sub(r"[^A-Za-z0-9]+", "-", result["claim_id"])
    parts = fig_data["parts"] if fig_data.get("type") == "parts" else [fig_data]
    names = []
    for i, part in enumerate(parts):
        if not part:
            continue
        name = f"{base}-{i + 1}.pdf" if fig_data.get("type") == "parts" else f"{base}.pdf"
        if evidence_figure(part, folder / name) is not None:
            names.append(name)
    return names


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
            r["private_source"] = unfollowable_source(r.get("reconstructed_from")) or unfollowable_source(r["source"])
            r["rows"] = fold_rows(((r["outcome"] or {}).get("decision") or {}).get("rows") or [])
            if r["diagram"] is not None or r in with_diagram:
                bar.advance(task)
    messages.extend(refused_text(results))
    counts = verdict_counts(results)
    searches = store.latest_searches([r["claim_id"] for r in results], upto=scope["search"])
    papers = _paper_groups(results)
    totals = {k: sum(g["counts"][k] for g in papers)
              for k in ("sharp", "slack", "no_near_miss", "not_verified", "not_checked")}

    reproduce = reproduction(run, results, sweeps, claims, store.path)

    def render(plain: bool) -> str:
        return environment(plain).get_template("report.tex.j2").render(
            run=run, papers=papers, results=results, counts=counts, colours=VERDICT_COLOURS,
            searches=searches, totals=totals, reproduce=reproduce,
            undeclared=[g["paper"]["slug"] for g in papers if g["paper"].get("not_checked") is None])

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
    from .progress import progress_bar

    return progress_bar(enabled)


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
