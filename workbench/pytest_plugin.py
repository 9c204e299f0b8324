"""pytest plugin: every registered claim is a test item.

An item passes when its claim is VERIFIED and every control REFUTED (or, for a claim declared
with ``expect=``, when it reaches that verdict: an honest INCONCLUSIVE or a REFUTED finding);
a failure shows the evidence.  Claims are collected when the ini option ``wb_claims`` is true (this project sets
it) and pytest was not pointed at explicit files, or always with ``--wb-claims``.  Options:
``--wb-profile`` (quick), ``--wb-seed`` (0), ``--wb-jobs`` (1), ``--wb-paper SLUG`` (only that paper's
claims; ``-k SLUG`` selects by slug too, wherever the paper's modules live).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("workbench", "verification of paper claims")
    group.addoption("--wb-claims", action="store_true", default=False,
                    help="collect every registered claim as a test item")
    group.addoption("--wb-profile", choices=["quick", "full"], default="quick",
                    help="profile the claim items run with (default quick)")
    group.addoption("--wb-seed", type=int, default=0, help="root seed of the claim items (default 0)")
    group.addoption("--wb-jobs", type=int, default=1, help="joblib workers inside each claim (default 1)")
    group.addoption("--wb-paper", action="append", default=[], metavar="SLUG",
                    help="collect only this paper's claims (repeat for more; implies --wb-claims)")
    parser.addini("wb_claims", type="bool", default=False,
                  help="collect registered claims when pytest runs without explicit paths")


class ClaimFailure(Exception):
    """A claim was not VERIFIED with all controls REFUTED."""

    def __init__(self, result: Any) -> None:
        super().__init__(result.claim.id)
        self.result = result


class ClaimItem(pytest.Item):
    """One registered claim with its controls."""

    def __init__(self, *, claim: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.add_marker(pytest.mark.workbench)
        # `pytest -k SLUG` selects a paper by its slug wherever its modules live (one paper may be
        # spread over several files), and `-k` matches claim ids and roles too.
        self.extra_keyword_matches.update({claim.paper.slug, claim.id, claim.name, claim.role})

    def runtest(self) -> None:
        from .execute import run_claim

        opt = self.config.getoption
        result = run_claim(self.claim, profile=opt("wb_profile"), seed=opt("wb_seed"), jobs=opt("wb_jobs"))
        self.user_properties.append(("verdict", result.verdict.value))
        self.user_properties.append(("grade", result.grade or ""))
        self.user_properties.append(("role", self.claim.role))
        if result.verdict.value != result.expected:
            raise ClaimFailure(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if not isinstance(excinfo.value, ClaimFailure):
            return super().repr_failure(excinfo)
        r = excinfo.value.result
        lines = [f"{r.claim.id}: {r.verdict.value}" + (f" ({r.note})" if r.note else "")
                 + (f"; expected {r.expected}" if r.expected != "VERIFIED" else ""),
                 f"  statement ({r.claim.source}): {r.claim.statement}",
                 f"  evidence ({r.claim.evidence}): {r.outcome.verdict.value}: {r.outcome.decision.summary}"]
        if r.outcome.decision.sharpness:
            lines.append(f"  sharpness: {r.outcome.decision.sharpness['sentence']}")
        for row in r.outcome.decision.rows:
            lines.append(f"    {row['quantity']}: measured {row['measured']}, claimed {row['claimed']}, "
                         f"tolerance {row['tolerance']} ({row['reason']})")
        if r.outcome.decision.counterexample:
            lines.append(f"    counterexample: {r.outcome.decision.counterexample}")
        if r.outcome.traceback:
            lines.append(r.outcome.traceback)
        for ctl, o in r.controls:
            lines.append(f"  control {ctl.name} ({ctl.broken}): {o.verdict.value}: {o.decision.summary}")
            if o.traceback:
                lines.append(o.traceback)
        lines.append(f"  parameters: {r.params}")
        return "\n".join(lines)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"claim {self.claim.id}"


def _wanted(config: pytest.Config) -> bool:
    if config.getoption("wb_claims") or config.getoption("wb_paper"):
        return True
    if not config.getini("wb_claims"):
        return False
    return config.args_source != pytest.Config.ArgsSource.ARGS


class ClaimCollector(pytest.Collector):
    """The registered claims, collected as one node of the session, so that pytest counts them
    with the test files' items ("collected N items / M deselected / K selected")."""

    def __init__(self, *, claims: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claims = claims

    def collect(self) -> list[pytest.Item]:
        import sys

        root = Path(self.config.rootpath)
        items = []
        for claim in self.claims:
            module = sys.modules.get(claim.module)
            path = Path(getattr(module, "__file__", root)).resolve()
            try:
                label = path.relative_to(root).as_posix()
            except ValueError:
                label = claim.module.replace(".", "/") + ".py"
            name = f"{label}::{claim.name}"
            items.append(ClaimItem.from_parent(self, name=name, nodeid=name, claim=claim, path=path))
        return items


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _wanted(config):
        return
    from _pytest.runner import collect_one_node

    from .registry import LOAD_ERRORS, load

    registry = load()
    for message in LOAD_ERRORS:  # a paper module that fails to import is reported, not silent
        warnings.warn(pytest.PytestWarning(f"workbench: {message}"), stacklevel=1)
    papers = config.getoption("wb_paper")
    unknown = [slug for slug in papers if slug not in registry.papers]
    if unknown:
        skipped = f" (modules that failed to load: {'; '.join(LOAD_ERRORS)})" if LOAD_ERRORS else ""
        raise pytest.UsageError(f"--wb-paper: no registered paper {', '.join(unknown)}; registered: "
                                f"{', '.join(sorted(registry.papers))}{skipped}")
    claims = [c for c in registry.claims.values() if not papers or c.paper.slug in papers]
    collector = ClaimCollector.from_parent(session, name="workbench-claims", nodeid="workbench-claims",
                                           claims=claims, path=Path(config.rootpath))
    # Collected as pytest collects a file (collectstart, the report, the itemcollected hooks), before
    # -k and -m deselect: the terminal's counts then include the claims.
    report = collect_one_node(collector)
    session.ihook.pytest_collectreport(report=report)
    if report.passed:
        for node in report.result:
            items.extend(session.genitems(node))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "workbench: a registered paper claim run as a test")
