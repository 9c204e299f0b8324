"""The ``workbench`` command: list, run, report, show.

Exit status: 0 when every selected claim is VERIFIED with its controls refuted, 1 otherwise,
2 for a usage or input error (nothing already computed is lost).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import api
from .evidence import describe_near_miss, fmt
from .store import Store, StoreError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
COLOURS = {"VERIFIED": "green", "REFUTED": "red", "INCONCLUSIVE": "yellow", "ERROR": "magenta"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 on usage errors; keep that, say it clearly
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"workbench: error: {message}\n")


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"seed must lie in [0, 2^63), not {value}")
    return value


def _positive(what: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a whole number >= 1, not {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be >= 1, not {value}")
        return value

    return parse


_jobs = _positive("jobs")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="workbench", description="Verify the claims of ML-theory papers and report on them.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    parser.subcommands = sub.choices  # each subcommand's parser, to name its own usage on an unknown option

    p = sub.add_parser("list", help="list papers and their claims")
    p.add_argument("selectors", nargs="*", help="paper slugs, claim ids or globs")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("run", help="run claims, store every result, write the report")
    p.add_argument("selectors", nargs="*", help="paper slugs, claim ids or globs (default: all)")
    p.add_argument("-k", dest="keyword", help="expression over claim ids and paper slugs, e.g. 'soap and not control'")
    p.add_argument("--profile", choices=["quick", "full"], default="quick", help="problem sizes (default quick)")
    p.add_argument("--jobs", "-j", type=_jobs, default=1, help="parallel workers for trials (default 1)")
    p.add_argument("--seed", type=_seed, default=0, help="root seed (default 0)")
    p.add_argument("--backend", choices=list(api.BACKENDS), default="loky", help="joblib backend")
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB,
                   help=f"results database; its folder must exist (default {api.DEFAULT_DB}, whose folder is created)")
    p.add_argument("--out", type=Path, default=None, help="report folder (default: the database's folder)")
    p.add_argument("--no-pdf", action="store_true", help="write the .tex but do not build the PDF")
    p.add_argument("--no-report", action="store_true", help="store results only")
    p.add_argument("--resume", action="store_true",
                   help="finish the latest unfinished run in the database (its selection, seed, profile, cache choice "
                        "and sweeps)")
    p.add_argument("--no-cache", action="store_true", help="run every claim even when a cached result is valid")
    p.add_argument("--sweeps", action="store_true",
                   help="after the claims, run the parameter sweeps they declare (drawn in the report)")
    p.add_argument("--scheduler", default=None,
                   help=f"dask scheduler address tcp://HOST:PORT (or ${api.SCHEDULER_ENV}); runs trials there")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")

    p = sub.add_parser("sweep", help="run one claim over a grid of its parameters")
    p.add_argument("claim", help="claim id")
    p.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="values of one declared parameter (repeat for more axes)")
    p.add_argument("--trials", type=_positive("trials"), default=None,
                   help="set the claim's 'trials' parameter at every point")
    p.add_argument("--profile", choices=["quick", "full"], default="quick")
    p.add_argument("--jobs", "-j", type=_jobs, default=1, help="grid points run in parallel")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--backend", choices=list(api.BACKENDS), default="loky")
    p.add_argument("--scheduler", default=None, help="dask scheduler address tcp://HOST:PORT")
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB, help=f"results database (default {api.DEFAULT_DB})")
    p.add_argument("--out", type=Path, default=None,
                   help="the figure goes to OUT/sweeps/ (default: the database's folder)")
    p.add_argument("--no-cache", action="store_true", help="run every point even when a cached result is valid")
    p.add_argument("--quiet", "-q", action="store_true")

    p = sub.add_parser("search", help="look for a counterexample to a bound claim over its parameters")
    p.add_argument("claim", help="claim id of a bound claim")
    p.add_argument("--examples", type=_positive("examples"), default=40, help="instances tried for the claim and for each control")
    p.add_argument("--profile", choices=["quick", "full"], default="quick")
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB)

    p = sub.add_parser("bench", help="measure the engine: parallel speed-up, overhead, cache, dask")
    p.add_argument("--trials", type=_positive("trials"), default=8000, help="Monte Carlo trials of the standard workload")
    p.add_argument("--size", type=_positive("size"), default=64, help="matrix size of one trial")
    p.add_argument("--repeats", type=_positive("repeats"), default=7, help="interleaved rounds per figure: ratios are the median over rounds, times the best round (default 7)")
    p.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    p.add_argument("--no-full-run", action="store_true",
                   help="skip the full quick run with one worker and with two (it takes minutes)")
    p.add_argument("--full-run", nargs="*", default=None, metavar="SELECTOR",
                   help="run only these papers or claims in the full-run comparison (default: all)")
    p.add_argument("--full-rounds", type=_positive("rounds"), default=1,
                   help="interleaved rounds of the full-run comparison (default 1)")

    p = sub.add_parser("cache", help="manage the result cache")
    p.add_argument("action", choices=["clear", "info"], help="clear: delete every cached result")
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB, help="the cache lives beside this database")

    p = sub.add_parser("report", help="render a stored run as a report again")
    p.add_argument("--run", type=int, default=None, help="run id (default: the latest)")
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB, help=f"results database (default {api.DEFAULT_DB})")
    p.add_argument("--out", type=Path, default=None, help="report folder (default: the database's folder)")
    p.add_argument("--no-pdf", action="store_true")
    p.add_argument("--jobs", "-j", type=_jobs, default=None,
                   help="worker processes drawing the figures (default: the machine's CPUs, at most 4)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")

    p = sub.add_parser("check", help="run the conformance suite on papers (yours, from another package, too)")
    p.add_argument("slugs", nargs="+", help="paper slugs")
    p.add_argument("--no-run", action="store_true", help="check declarations only; do not run the quick profile")

    p = sub.add_parser("new-paper", help="write a paper module (one claim, one control) and its test to start from")
    p.add_argument("slug", help="the paper's slug: lower case letters, digits and underscores")
    p.add_argument("--dir", type=Path, default=Path("."),
                   help="folder for <slug>.py and test_<slug>.py (default: the current folder)")
    p.add_argument("--venue", default="ICML 2025", help="the paper's venue (default ICML 2025)")
    p.add_argument("--tests", type=Path, default=None,
                   help="folder for test_<slug>.py (default: tests/ beside the package holding --dir)")

    p = sub.add_parser("show", help="a claim's statement, latest evidence and verdict history")
    p.add_argument("claim", help="claim id (or a unique paper slug / claim name)")
    p.add_argument("--db", type=Path, default=api.DEFAULT_DB)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # named by the subcommand's own usage line, not the general one
        parser.subcommands[args.command].error(
            f"unrecognized arguments: {' '.join(unknown)}")
    if getattr(args, "out", "") is None and getattr(args, "db", None) is not None:
        args.out = args.db.parent  # the report goes beside its database unless told otherwise
    out = Console(soft_wrap=True)
    err = Console(stderr=True, soft_wrap=True)
    try:
        commands = {"list": _list, "run": _run, "report": _report, "show": _show, "cache": _cache,
                    "sweep": _sweep, "search": _search, "bench": _bench, "check": _check, "new-paper": _new_paper}
        if args.command in ("run", "sweep", "search"):
            api.check_db(args.db)  # a mistyped --db is an error, not a new database elsewhere
        if args.command in ("list", "run", "show", "sweep", "search", "check"):
            from .registry import load

            if not err.is_terminal and args.command in ("run", "sweep", "search"):
                err.print("loading the papers' modules ...")  # a log otherwise shows nothing for these seconds
            with err.status("loading the papers' modules", spinner="dots"):  # a few seconds; shown on a terminal
                load()
            _warn_load_errors()
        return commands[args.command](args, out)
    except (api.UsageError, StoreError) as exc:
        err.print(f"[red]workbench: error:[/] {exc}", highlight=False)
        return EXIT_USAGE
    except KeyboardInterrupt:
        err.print("interrupted")
        return EXIT_FAILED


def _select(selectors: list[str] | None, keyword: str | None = None):
    from .registry import SelectionError, select

    try:
        return select(selectors or None, keyword)
    except SelectionError as exc:
        raise api.UsageError(str(exc)) from None


def _warn_load_errors() -> None:
    """Say which paper modules could not be loaded (they are skipped; the others run)."""
    from .registry import LOAD_ERRORS

    err = Console(stderr=True, soft_wrap=True)
    for message in LOAD_ERRORS:
        err.print(f"[yellow]workbench: warning:[/] {escape(message)}", highlight=False)
    LOAD_ERRORS.clear()


def _plain(text: str) -> str:
    """Text with its ``$...$`` math turned into Unicode for the terminal (pylatexenc)."""
    from pylatexenc.latex2text import LatexNodes2Text

    parts = str(text).split("$")
    if len(parts) % 2 == 0:  # unbalanced dollars: leave the text as written
        return str(text)
    convert = LatexNodes2Text().latex_to_text
    # operator names (\log, \sin, ...) print without the space that followed them
    ops = r"(\\(?:log|ln|exp|sin|cos|max|min|det|sup|inf|lim)) "
    return "".join(convert(re.sub(ops, r"\1{} ", p)) if i % 2 else p for i, p in enumerate(parts))


def _list(args: argparse.Namespace, out: Console) -> int:
    claims = _select(args.selectors)
    if args.json:
        data = [{"id": c.id, "paper": c.paper.slug, "title": c.paper.title, "venue": c.paper.venue,
                 "source": c.source, "evidence": c.evidence, "role": c.role, "reconstructed": c.reconstructed,
                 "reconstructed_from": c.reconstructed_from, "near_miss": describe_near_miss(c.evidence, c.near_miss),
                 "statement": c.statement,
                 "controls": [{"id": k.id, "broken": k.broken, "near_miss": k.near_miss, "params": k.params}
                              for k in c.controls],
                 "params": {n: {"quick": p.quick, "full": p.value("full"), "low": p.low, "high": p.high,
                                "hypothesis": p.hypothesis, "doc": p.doc} for n, p in c.params.items()},
                 "sweeps": c.sweeps, "expect": c.expect,
                 "not_checked": [e.as_dict() for e in c.paper.not_checked or ()]} for c in claims]
        print(json.dumps(data, indent=2, default=str))
        return EXIT_OK
    # Plain lines, not a table: claim ids are what users copy, and must never be cut.
    papers = {c.paper.slug: c.paper for c in claims}
    out.print(f"{len(papers)} paper{'s' * (len(papers) != 1)}, {len(claims)} claim{'s' * (len(claims) != 1)}",
              highlight=False)
    for slug, paper in papers.items():
        out.print(f"\n[bold]{slug}[/]  {paper.venue}: {_plain(paper.title)}", highlight=False)
        for c in claims:
            if c.paper.slug == slug:
                flags = f"{c.role}; {_plain(c.source)}; {c.evidence}; " \
                    f"{len(c.controls)} control{'s' * (len(c.controls) != 1)}" \
                    + (f"; reconstructed from {_plain(c.reconstructed_from)}" if c.reconstructed else "")
                out.print(f"  {c.id}  [dim]({flags})[/]", highlight=False, soft_wrap=True)
        if paper.not_checked is None:
            out.print("  [yellow]the paper does not say what it leaves unchecked (not_checked)[/]", highlight=False)
        for entry in paper.not_checked or ():
            out.print(f"  [dim]not checked ({entry.role}): {escape(_plain(entry.statement))} "
                      f"({escape(_plain(entry.why))})[/]", highlight=False, soft_wrap=True)
    return EXIT_OK


def _run(args: argparse.Namespace, out: Console) -> int:
    if args.resume and (args.selectors or args.keyword):
        raise api.UsageError("--resume finishes the interrupted run's own selection: give no papers, claims or -k")
    summary = api.run(args.selectors or None, keyword=args.keyword, profile=args.profile, seed=args.seed,
                      jobs=args.jobs, backend=args.backend, db=args.db,
                      out=None if args.no_report else args.out, pdf=not args.no_pdf, resume=args.resume,
                      progress=not args.quiet, cache=False if args.no_cache else None, scheduler=args.scheduler, sweeps=args.sweeps)
    counts: dict[str, int] = {}
    for r in summary.results:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    line = ", ".join(f"[{COLOURS[v]}]{n} {v.lower()}[/]" for v, n in sorted(counts.items()))
    grades = [r["grade"] for r in summary.results if r["grade"]]
    if grades:
        from .report import no_near_miss

        none = sum(no_near_miss(r) for r in summary.results)
        line += (f" ({grades.count('sharp')} sharp{f', {none} of them with no near miss' if none else ''}, "
                 f"{grades.count('slack')} slack)")
    background = sum(r.get("role") == "background" for r in summary.results)
    if background:
        line += f"; {background} of the claims are background checks, which the report does not count"
    n = len(summary.results)
    state = " (interrupted)" if summary.interrupted else ""
    if summary.resumed and args.quiet:
        out.print(summary.resumed, highlight=False, markup=False)
    out.print(f"run {summary.run_id}{state}: {n} claim{'s' * (n != 1)}: {line or 'none'}", highlight=False)
    for name, path in summary.report.items():
        out.print(f"  {name}: {path}", highlight=False)
    if summary.timings:
        from .schedule import timings_sentence

        out.print(f"time: {timings_sentence(summary.timings)}", highlight=False)
    for message in summary.messages:
        out.print(f"[yellow]{escape(message)}[/]", highlight=False)
    declared = [r for r in summary.results if r.get("expect", "VERIFIED") != "VERIFIED" and r["verdict"] == r["expect"]]
    if declared:
        as_declared = len(summary.results) - len(summary.unexpected)
        out.print(f"{as_declared} of {len(summary.results)} claims reached their declared outcome; "
                  f"{len(declared)} of them {'were' if len(declared) != 1 else 'was'} declared inconclusive or refuted "
                  "in advance (an honest inconclusive or a refuted finding, with its reason)", highlight=False)
    for r in summary.unexpected:
        out.print(f"[red]not as declared:[/] {r['claim_id']} is {r['verdict']} (declared {r.get('expect', 'VERIFIED')})",
                  highlight=False)
    return EXIT_OK if summary.passed else EXIT_FAILED


def _sweep(args: argparse.Namespace, out: Console) -> int:
    summary = api.sweep(args.claim, args.grid, profile=args.profile, seed=args.seed, jobs=args.jobs,
                        backend=args.backend, scheduler=args.scheduler, trials=args.trials, db=args.db,
                        out=args.out, progress=not args.quiet, cache=not args.no_cache)
    names = list(summary.grid)
    table = Table(title=f"sweep {summary.sweep_id} of {summary.claim_id}")
    for col in [*names, "claim evidence", "verdict", "controls", "summary"]:
        table.add_column(col)
    for p in summary.points:
        r = p.result
        table.add_row(*[fmt(p.params[n]) for n in names],
                      f"[{COLOURS[p.claim_verdict]}]{p.claim_verdict}[/]",
                      f"[{COLOURS[r.verdict.value]}]{r.verdict.value}[/]",
                      ", ".join(o.verdict.value.lower() for _, o in r.controls), r.outcome.decision.summary)
    out.print(table)
    if summary.transitions:
        out.print("where the claim's verdict changes:", highlight=False)
        for t in summary.transitions:
            out.print(f"  {t}", highlight=False, markup=False)
    else:
        out.print("the claim's verdict is the same at every grid point", highlight=False)
    if summary.figure:
        out.print(f"figure: {summary.figure}", highlight=False)
    errors = [p for p in summary.points if p.claim_verdict == "ERROR"]
    if errors:
        out.print(f"[magenta]{len(errors)} of {len(summary.points)} points ended in ERROR[/] (the check itself failed "
                  f"there; `workbench show {summary.claim_id}` and the database keep the reasons)", highlight=False)
        return EXIT_FAILED
    return EXIT_OK


def _check(args: argparse.Namespace, out: Console) -> int:
    from . import conformance

    failed = 0
    for slug in args.slugs:
        verdicts: dict[str, str] = {}
        try:
            report = conformance.check_paper(slug, run=not args.no_run, verdicts=verdicts)
        except ValueError as exc:
            raise api.UsageError(str(exc)) from None
        for what, problems in report.items():
            mark = "[green]ok[/]" if not problems else f"[red]{len(problems)} problem{'s' * (len(problems) != 1)}[/]"
            verdict = verdicts.get(what)
            shown = f"  [{COLOURS[verdict.split()[0]]}]{verdict}[/]" if verdict else ""
            out.print(f"{mark}  {escape(what)}{shown}", highlight=False)
            for problem in problems:
                out.print(f"    - {escape(problem)}", highlight=False)
            failed += bool(problems)
    out.print("conforms (conformance says nothing of the verdicts shown beside each claim)" if not failed else
              f"{failed} item{'s do' if failed != 1 else ' does'} not conform", highlight=False)
    return EXIT_OK if not failed else EXIT_FAILED


def _new_paper(args: argparse.Namespace, out: Console) -> int:
    from .template import write_paper_template

    try:
        paths = write_paper_template(args.slug, args.dir, venue=args.venue, tests=args.tests)
    except (ValueError, FileExistsError) as exc:
        raise api.UsageError(str(exc)) from None
    for path in paths:
        out.print(f"wrote {path}", highlight=False)
    out.print(f"next: fill in the paper's record and its claim, then `workbench check {args.slug}` "
              f"(see the README's 'Adding a paper')", highlight=False)
    return EXIT_OK


def _search(args: argparse.Namespace, out: Console) -> int:
    summary = api.search(args.claim, examples=args.examples, profile=args.profile, seed=args.seed, db=args.db)
    space = ", ".join(f"{n} in [{lo}, {hi}]" for n, (lo, hi) in summary.space.items())
    out.print(f"search {summary.search_id} over {space}", highlight=False)
    colour = "red" if summary.claim.violated else "green"
    out.print(f"[{colour}]claim[/] {summary.claim.sentence()}", highlight=False)
    for c in summary.controls:
        colour = "green" if c.violated else "red"
        out.print(f"[{colour}]control[/] {c.sentence()}" + ("" if c.violated else "  (a control must be violated)"),
                  highlight=False)
    return EXIT_OK if summary.passed else EXIT_FAILED


def _bench(args: argparse.Namespace, out: Console) -> int:
    from .bench import run_benchmarks

    res = run_benchmarks(trials=args.trials, size=args.size, repeats=args.repeats, full=not args.no_full_run,
                         full_selectors=args.full_run or None, full_rounds=args.full_rounds)
    mc, ca, da = res["monte_carlo"], res["cache"], res["dask"]
    table = Table(title=f"workbench bench ({res['cpus']} CPUs; {args.repeats} interleaved rounds)",
                  caption="ratios: median over rounds of the ratio within a round; times: best round")
    for col in ("figure", "value", "target", "measured from"):
        table.add_column(col)

    def mark(name: str) -> str:
        t = res["targets"][name]
        return f"{t['target']} [{'green' if t['met'] else 'red'}]{'met' if t['met'] else 'missed'}[/]"

    table.add_row("Monte Carlo throughput, 1 job", f"{mc['trials_per_second_1_job']:.0f} trials/s", "",
                  f"{mc['trials']} eigenproblems {mc['matrix_size']}x{mc['matrix_size']}")
    table.add_row("speed-up, 2 jobs / 1 job", f"{mc['speedup_2_jobs']:.2f}x", mark("speedup_2_jobs"),
                  f"best {mc['seconds_1_job']:.2f} s / {mc['seconds_2_jobs']:.2f} s")
    table.add_row("the same with bare joblib (the machine's ceiling)", f"{mc['speedup_bare_joblib']:.2f}x", "",
                  f"best {mc['seconds_1_job']:.2f} s / {mc['seconds_bare_joblib']:.2f} s")
    table.add_row("engine overhead vs bare joblib", f"{100 * mc['engine_overhead']:+.1f} %", mark("engine_overhead"),
                  f"best {mc['seconds_2_jobs']:.2f} s / {mc['seconds_bare_joblib']:.2f} s"
                  + ("" if mc["same_numbers_as_bare_joblib"] else " (numbers differ!)"))
    table.add_row("cached claim, cold / warm", f"{ca['cache_speedup']:.0f}x", mark("cache_speedup"),
                  f"{ca['claim']}: {ca['seconds_cold']:.2f} s / {ca['seconds_warm'] * 1e3:.1f} ms")
    if "dask_over_loky" in da:
        table.add_row("dask LocalCluster / loky", f"{da['dask_over_loky']:.2f}x time", "",
                      f"{da['seconds_dask_local']:.2f} s / {da['seconds_loky']:.2f} s"
                      + ("" if da["same_numbers"] else " (numbers differ!)"))
    if "full_run" in res:
        fr = res["full_run"]
        what = f"{fr['claims']} claims" + (" and their sweeps" if fr["sweeps"] else "")
        for jobs, key in ((1, "1_job"), (2, "2_jobs")):
            table.add_row(f"full quick run, {jobs} worker{'s' * (jobs > 1)}", f"{fr['seconds_' + key]:.0f} s",
                          "", f"CPU {fr['cpu_seconds_' + key]:.0f} s ({100 * fr['cpu_use_' + key]:.0f} % of one "
                          f"core); {what}, no cache, no report")
        table.add_row("full quick run, 2 workers / 1", f"{fr['full_run_speedup']:.2f}x", mark("full_run_speedup"),
                      "median over rounds" + ("" if fr["same_numbers"] else " (numbers differ!)")
                      + ("; every stored number the same" if fr["same_numbers"] else ""))
    out.print(table)
    text = json.dumps(res, indent=2, default=str)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text)
        out.print(f"JSON: {args.json}", highlight=False)
    else:
        print(text)
    return EXIT_OK


def _cache(args: argparse.Namespace, out: Console) -> int:
    from .cache import ResultCache

    folder = args.db.parent / "cache"
    if args.action == "clear":
        if folder.exists():
            ResultCache(folder).clear()
        out.print(f"cleared the result cache {folder}", highlight=False)
    else:
        size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) if folder.exists() else 0
        out.print(f"result cache {folder}: {size / 1e6:.1f} MB", highlight=False)
    return EXIT_OK


def _report(args: argparse.Namespace, out: Console) -> int:
    from .report import write_report
    from .schedule import PhaseClock

    if not args.db.exists():
        raise api.UsageError(f"no database at {args.db}; run `workbench run` first or give --db")
    api.check_writable(args.out)
    store = Store(args.db)
    try:
        run = store.run(args.run)
        jobs = args.jobs or max(1, min(4, os.cpu_count() or 1))
        clock = PhaseClock()
        paths, messages = write_report(store, run["id"], args.out, pdf=not args.no_pdf, jobs=jobs,
                                       progress=not args.quiet, clock=clock)
    finally:
        store.close()
    for name, path in paths.items():
        out.print(f"{name}: {path}", highlight=False)
    out.print(f"time: {clock.sentence()}", highlight=False)
    for message in messages:
        out.print(f"[yellow]{escape(message)}[/]", highlight=False)
    return EXIT_OK if "pdf" in paths or args.no_pdf else EXIT_FAILED


def _show(args: argparse.Namespace, out: Console) -> int:
    from .registry import SelectionError, find_claim

    try:
        c = find_claim(args.claim)
    except SelectionError as exc:
        raise api.UsageError(str(exc)) from None
    out.print(f"[bold]{c.id}[/] ({c.role}; {c.paper.venue}, {escape(c.source)}"
              f"{f'; reconstructed from {escape(c.reconstructed_from)}' if c.reconstructed else ''})", highlight=False)
    out.print(f"{c.paper.title}", highlight=False)
    out.print(f"statement: {c.statement}", highlight=False, markup=False)
    if c.description:
        out.print(f"checked: {c.description}", highlight=False, markup=False)
    out.print(f"near miss: {describe_near_miss(c.evidence, c.near_miss)}", highlight=False, markup=False)
    for k in c.controls:
        out.print(f"control {k.name}{' (near miss)' if k.near_miss else ''}: {k.broken}", highlight=False, markup=False)
    if not args.db.exists():
        out.print(f"no results yet ({args.db} does not exist)")
        return EXIT_OK
    store = Store(args.db)
    try:
        history = store.history(c.id)
        if not history:
            out.print("no stored results for this claim yet")
            return EXIT_OK
        latest = history[-1]
        rows = [r for r in store.results(latest["run_id"]) if r["claim_id"] == c.id][0]
    finally:
        store.close()
    out.print(f"\nlatest (run {latest['run_id']}): [{COLOURS[latest['verdict']]}]{latest['verdict']}[/]"
              + (f" ({rows['grade']})" if rows.get("grade") else "")
              + (f" - {escape(latest['note'])}" if latest["note"] else ""), highlight=False)
    decision = rows["outcome"]["decision"]
    out.print(f"  evidence: {rows['outcome']['verdict']}: {decision['summary']}", highlight=False, markup=False)
    if decision.get("sharpness"):
        out.print(f"  sharpness: {decision['sharpness']['sentence']}", highlight=False, markup=False)
    if decision.get("near_miss"):
        cases = "; ".join(f"{x['description']}: {x['verdict'].lower()}" for x in decision["near_miss"]["cases"])
        out.print(f"  near miss: {decision['near_miss']['sentence']}" + (f" ({cases})" if cases else ""),
                  highlight=False, markup=False)
    for ctl in rows["controls"]:
        out.print(f"  control {ctl['outcome_id']}: {ctl['verdict']}: {ctl['decision']['summary']}",
                  highlight=False, markup=False)
    table = Table(title="history")
    for col in ("run", "started", "seed", "profile", "verdict", "seconds"):
        table.add_column(col)
    for h in history:
        table.add_row(str(h["run_id"]), h["started"], str(h["seed"]), h["profile"],
                      f"[{COLOURS[h['verdict']]}]{h['verdict']}[/]", f"{h['seconds']:.2f}")
    out.print(table)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
