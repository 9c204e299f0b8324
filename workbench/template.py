"""``workbench new-paper SLUG``: a paper module and its test to start from.

The module written holds one claim that passes the conformance suite as written (a Monte Carlo
rate with a closed-form exponent, sharp, with a control that is a parameter override), so a new
author sees every part of the contract working before replacing it with the paper's own.
"""

from __future__ import annotations

import re
from pathlib import Path

MODULE = '''"""REPLACE: the paper's title (authors, venue).

What is checked, and what is not (with the reason), in a few sentences.
"""

from __future__ import annotations

import numpy as np

from workbench import Paper, Param, Rate, claim

PAPER = Paper(
    slug="{slug}",
    title="REPLACE with the paper's title",
    authors=("REPLACE Author",),
    venue="{venue}",
    year=2025,
    url="https://example.org/REPLACE-with-the-paper",
    # Statements of the paper no computation here checks, as NotChecked(statement, why, role);
    # an empty tuple states that everything the paper states is checked.
    not_checked=(),
)

SIZES = np.array([10, 100, 1_000, 10_000])


@claim(PAPER, role="headline", source="REPLACE: Theorem 1", evidence="rate",
       statement=r"The root-mean-square error of the mean of $n$ independent draws from $U(0, 1)$ "
                 r"is $1/\\sqrt{{12 n}}$: it decays as $n^{{-1/2}}$.",
       params={{"trials": Param(200, full=2000, low=10, high=100_000, doc="Monte Carlo trials per size"),
               "correlated": Param(False, doc="draw one value and repeat it n times (breaks independence)")}})
def sample_mean_error(ctx):
    """The error of the sample mean, fitted over three decades of $n$, has exponent $-1/2$."""
    errors = []
    for n in SIZES:
        draws = ctx.generator("draws", int(n)).random((ctx["trials"], int(n)))
        if ctx["correlated"]:
            draws[:] = draws[:, :1]
        errors.append(float(np.sqrt(np.mean((draws.mean(axis=1) - 0.5) ** 2))))
    return Rate(SIZES, errors, exponent=-0.5, relation="=", max_halfwidth=0.1,
                why="95% t interval of the fitted slope; each error is a mean over the trials, whose "
                    "relative spread (about 1/sqrt(2 trials)) the interval carries",
                size_name="n (draws)", cost_name="RMS error of the sample mean")


sample_mean_error.control("the n draws are one draw repeated (not independent)", params={{"correlated": True}})
'''

TEST = '''"""The paper module {slug} conforms to the workbench's contract and its claim is verified."""

import {module}  # noqa: F401  (registers the paper's claims)
from workbench import REGISTRY
from workbench.conformance import check_paper
from workbench.execute import run_claim


def test_{slug}_conforms():
    problems = {{what: found for what, found in check_paper("{slug}").items() if found}}
    assert problems == {{}}


def test_{slug}_claim_is_verified_sharply():
    result = run_claim(REGISTRY.claims["{slug}.sample_mean_error"])
    assert result.verdict.value == "VERIFIED" and result.grade == "sharp"
'''


def module_path(folder: Path, slug: str) -> str:
    """The import path of ``<folder>/<slug>.py``: ``slug`` prefixed by the packages that contain
    ``folder`` (each with an ``__init__.py``)."""
    parts = [slug]
    folder = Path(folder).resolve()
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    return ".".join(parts)


def write_paper_template(slug: str, folder: Path, *, venue: str = "ICML 2025",
                         tests: Path | None = None) -> list[Path]:
    """Write ``<slug>.py`` into ``folder`` and ``test_<slug>.py`` into ``tests`` (default: a
    ``tests`` folder beside the package that holds ``folder``, or ``folder`` itself when it is not
    a package), creating them if missing.

    Raises:
        ValueError: on a malformed slug.
        FileExistsError: when either file exists (nothing is overwritten).
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", slug):
        raise ValueError(f"paper slug {slug!r} must be lower case letters, digits and underscores, starting with a "
                         "letter")
    folder = Path(folder)
    if tests is None:
        top = folder.resolve()
        while (top / "__init__.py").exists():
            top = top.parent
        tests = top / "tests" if top != folder.resolve() else folder
    module, test = folder / f"{slug}.py", Path(tests) / f"test_{slug}.py"
    for path in (module, test):
        if path.exists():
            raise FileExistsError(f"{path} exists; choose another folder with --dir (or --tests)")
    folder.mkdir(parents=True, exist_ok=True)
    Path(tests).mkdir(parents=True, exist_ok=True)
    module.write_text(MODULE.format(slug=slug, venue=venue))
    test.write_text(TEST.format(slug=slug, module=module_path(folder, slug)))
    return [module, test]
