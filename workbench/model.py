"""The claim model: papers, claims, their parameters and negative controls.

A paper module in ``theorems/`` declares one :class:`Paper` and registers each checkable
statement with :func:`claim`.  A claim is a function ``f(ctx) -> Evidence``; it measures and
hands back evidence, and the engine (``workbench.evidence``) decides the verdict.  Every claim
carries at least one negative control, registered with ``@the_claim.control("what is broken")``,
which runs the same check with one hypothesis violated and must come out REFUTED.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

EVIDENCE_KINDS = ("identity", "symbolic", "bound", "rate", "proportion", "certificate", "comparison")
PROFILES = ("quick", "full")

_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class ClaimDefinitionError(ValueError):
    """A paper module declared a paper, claim or parameter that breaks the claim contract."""


@dataclass(frozen=True)
class Paper:
    """Bibliographic record of one paper.

    Attributes:
        slug: module-style identifier, lower case with underscores (``soap_shampoo_adam``).
        title: the paper's title.
        authors: author names in the paper's order.
        venue: e.g. ``"ICLR 2025"``.
        year: publication year.
        arxiv: arXiv identifier (``"2409.11321"``) when there is one.
        identifier: any other stable identifier (PMLR volume and pages, OpenReview id).
        url: a link to the paper.
        not_checked: statements of the paper that no computation here can check (hardness,
            lower bounds over all algorithms, purely asymptotic statements), each as a pair
            ``(statement, why it is not checked)``; the report lists them with the paper.

    Raises:
        ClaimDefinitionError: on a malformed slug, an empty title/author list or a
            ``not_checked`` entry that is not a pair of non-empty strings.
    """

    slug: str
    title: str
    authors: tuple[str, ...]
    venue: str
    year: int
    arxiv: str | None = None
    identifier: str | None = None
    url: str | None = None
    not_checked: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not _SLUG.match(self.slug):
            raise ClaimDefinitionError(
                f"paper slug {self.slug!r} must be lower case letters, digits and underscores"
            )
        if not self.title or not self.authors:
            raise ClaimDefinitionError(f"paper {self.slug!r} needs a title and at least one author")
        object.__setattr__(self, "authors", tuple(self.authors))
        entries = tuple(tuple(e) for e in self.not_checked)
        for e in entries:
            if len(e) != 2 or not all(isinstance(x, str) and x.strip() for x in e):
                raise ClaimDefinitionError(
                    f"paper {self.slug!r}: each not_checked entry is (statement, why it is not checked), not {e!r}")
        object.__setattr__(self, "not_checked", entries)

    @property
    def citation(self) -> str:
        """One-line bibliographic entry: authors, title, venue, identifiers."""
        ids = []
        if self.arxiv:
            ids.append(f"arXiv:{self.arxiv}")
        if self.identifier:
            ids.append(self.identifier)
        tail = f" ({'; '.join(ids)})" if ids else ""
        return f"{', '.join(self.authors)}. {self.title}. {self.venue}{tail}."

    def as_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug, "title": self.title, "authors": list(self.authors),
            "venue": self.venue, "year": self.year, "arxiv": self.arxiv,
            "identifier": self.identifier, "url": self.url,
            "not_checked": [list(e) for e in self.not_checked],
        }


@dataclass(frozen=True)
class Param:
    """A parameter of a claim that sweeps may vary; the profiles choose its value.

    Args:
        quick: value used by the ``quick`` profile.
        full: value used by the ``full`` profile (defaults to ``quick``).
        low, high: inclusive numeric range accepted from a sweep or the command line.
        choices: the admissible values, for categorical parameters.
        doc: what the parameter is, with its unit.

    The parameter's type is the type of ``quick``; values given as strings (from the command
    line) are converted to it.
    """

    quick: Any
    full: Any = None
    low: float | None = None
    high: float | None = None
    choices: Sequence[Any] | None = None
    doc: str = ""

    def value(self, profile: str) -> Any:
        return self.quick if profile == "quick" or self.full is None else self.full

    def coerce(self, name: str, raw: Any) -> Any:
        """Convert ``raw`` to this parameter's type and check its range.

        Raises:
            ValueError: with a message naming the parameter, the value and what is accepted.
        """
        kind = type(self.quick)
        try:
            if kind is bool and isinstance(raw, str):
                if raw.lower() not in ("true", "false", "1", "0"):
                    raise ValueError
                value = raw.lower() in ("true", "1")
            elif kind is int:
                as_float = float(raw)
                if not as_float.is_integer():
                    raise ValueError
                value = int(as_float)
            else:
                value = kind(raw)
        except (TypeError, ValueError):
            article = "an" if kind.__name__[0] in "aeiou" else "a"
            raise ValueError(
                f"parameter {name!r} takes {article} {kind.__name__}, not {raw!r}"
            ) from None
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"parameter {name!r} must be one of {list(self.choices)}, not {raw!r}")
        if self.low is not None and value < self.low or self.high is not None and value > self.high:
            raise ValueError(
                f"parameter {name!r} must lie in [{self.low}, {self.high}], not {raw!r}"
            )
        return value


@dataclass
class Control:
    """A negative control: the claim's check with one hypothesis broken; must be REFUTED."""

    id: str
    name: str
    broken: str
    func: Callable[..., Any]


@dataclass
class Claim:
    """One checkable statement of a paper (see :func:`claim`)."""

    id: str
    name: str
    paper: Paper
    func: Callable[..., Any]
    statement: str
    source: str
    evidence: str
    reconstructed: bool = False
    method: str = ""
    params: dict[str, Param] = field(default_factory=dict)
    budget: float = 120.0
    controls: list[Control] = field(default_factory=list)
    module: str = ""
    expect: str = "VERIFIED"
    expect_reason: str = ""
    sweeps: list[dict[str, list[Any]]] = field(default_factory=list)
    diagram: Callable[[dict[str, Any]], Any] | None = None

    @property
    def description(self) -> str:
        """First paragraph of the claim function's docstring."""
        doc = inspect.getdoc(self.func) or ""
        return doc.split("\n\n")[0].replace("\n", " ").strip()

    def parameters(self, profile: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        """Parameter values for ``profile`` with ``overrides`` applied and checked.

        Raises:
            ValueError: on an unknown parameter name or a value out of range.
        """
        values = {name: p.value(profile) for name, p in self.params.items()}
        for name, raw in (overrides or {}).items():
            if name not in self.params:
                known = ", ".join(sorted(self.params)) or "none"
                raise ValueError(f"claim {self.id} has no parameter {name!r} (it has: {known})")
            values[name] = self.params[name].coerce(name, raw)
        return values

    def control(self, broken: str) -> Callable[[Callable[..., Any]], Control]:
        """Decorator registering a negative control; ``broken`` says which hypothesis is violated."""

        def register(func: Callable[..., Any]) -> Control:
            name = func.__name__ if func.__name__ != "_" else f"control{len(self.controls) + 1}"
            ctl = Control(id=f"{self.id}:{name}", name=name, broken=broken, func=func)
            if any(c.id == ctl.id for c in self.controls):
                raise ClaimDefinitionError(f"control {ctl.id} is registered twice")
            self.controls.append(ctl)
            return ctl

        return register

    def __call__(self, ctx: Any) -> Any:
        return self.func(ctx)


class Registry:
    """All registered papers and claims, in registration order."""

    def __init__(self) -> None:
        self.papers: dict[str, Paper] = {}
        self.claims: dict[str, Claim] = {}

    def add(self, c: Claim) -> None:
        known = self.papers.get(c.paper.slug)
        if known is not None and known != c.paper:
            raise ClaimDefinitionError(f"two different papers use the slug {c.paper.slug!r}")
        if c.id in self.claims:
            raise ClaimDefinitionError(f"claim {c.id} is registered twice")
        self.papers[c.paper.slug] = c.paper
        self.claims[c.id] = c

    def claims_of(self, slug: str) -> list[Claim]:
        return [c for c in self.claims.values() if c.paper.slug == slug]


REGISTRY = Registry()


def claim(
    paper: Paper,
    *,
    source: str,
    evidence: str,
    statement: str,
    reconstructed: bool = False,
    method: str = "",
    params: dict[str, Param] | None = None,
    budget: float = 120.0,
    registry: Registry | None = None,
    expect: str = "VERIFIED",
    expect_reason: str = "",
    sweeps: Sequence[dict[str, Sequence[Any]]] = (),
    diagram: Callable[[dict[str, Any]], Any] | None = None,
) -> Callable[[Callable[..., Any]], Claim]:
    """Register a claim of ``paper``.

    Args:
        paper: the paper the claim is from.
        source: where it stands in the paper (``"Theorem 3.2"``, ``"Claim 1, Sec. 3"``).
        evidence: one of ``identity, symbolic, bound, rate, proportion, certificate,
            comparison``: the kind of evidence the function returns.
        statement: the claim in LaTeX (math in ``$...$``), written for the report.
        reconstructed: True when the exact statement could not be read and this is our most
            faithful reading; a refutation then makes the verdict INCONCLUSIVE, not REFUTED.
        method: how the check is done, one or two sentences for the report.
        params: parameters a sweep may vary, with the values each profile uses.
        budget: time limit for the claim and its controls in the quick profile, in seconds
            (the full profile gets ten times as much).
        registry: where to register (default: the global :data:`REGISTRY`).
        expect: the verdict the check is known to reach, when it is not VERIFIED: an honest
            INCONCLUSIVE (the claim cannot be decided by simulation at this size) or a REFUTED
            finding. The pytest item passes when the verdict is the expected one; the report and
            the command line still show the verdict itself.  Needs ``expect_reason``.
        sweeps: grids over declared parameters (``{"n": [8, 16, 32], "lr": [0.1, 1.0]}``, the
            first axis slowest) that ``workbench run --sweeps`` runs after the claims; the
            report draws each (a curve for one axis, a phase diagram of verdicts for two).
        diagram: ``f(params) -> matplotlib.figure.Figure`` drawing the claim's instance at the
            given parameter values (a circuit, a network, a game); the report calls it and shows
            the figure with the first paragraph of ``f``'s docstring as its caption.

    Returns:
        A decorator turning ``f(ctx) -> Evidence`` into a registered :class:`Claim`.

    Raises:
        ClaimDefinitionError: for an unknown evidence kind, an empty statement or source, or a
            sweep grid naming an undeclared parameter or a value outside its range.
    """
    if evidence not in EVIDENCE_KINDS:
        raise ClaimDefinitionError(f"evidence kind {evidence!r} is not one of {EVIDENCE_KINDS}")
    if not statement.strip() or not source.strip():
        raise ClaimDefinitionError("a claim needs a statement and its source in the paper")
    if expect not in ("VERIFIED", "INCONCLUSIVE", "REFUTED"):
        raise ClaimDefinitionError(f"expect must be VERIFIED, INCONCLUSIVE or REFUTED, not {expect!r}")
    if expect != "VERIFIED" and not expect_reason.strip():
        raise ClaimDefinitionError(f"a claim expected to be {expect} needs expect_reason saying why")

    if diagram is not None and not callable(diagram):
        raise ClaimDefinitionError("diagram must be a function of the claim's parameters returning a figure")

    def register(func: Callable[..., Any]) -> Claim:
        claim_id = f"{paper.slug}.{func.__name__}"
        grids = [_check_grid(claim_id, dict(params or {}), g) for g in sweeps]
        c = Claim(
            id=claim_id, name=func.__name__, paper=paper, func=func,
            statement=statement, source=source, evidence=evidence, reconstructed=reconstructed,
            method=method, params=dict(params or {}), budget=float(budget), module=func.__module__,
            expect=expect, expect_reason=expect_reason, sweeps=grids, diagram=diagram,
        )
        (registry or REGISTRY).add(c)
        return c

    return register


def _check_grid(claim_id: str, params: dict[str, Param], grid: dict[str, Sequence[Any]]) -> dict[str, list[Any]]:
    """A declared sweep grid with its values converted and checked against the parameters."""
    if not grid:
        raise ClaimDefinitionError(f"claim {claim_id}: a declared sweep needs at least one parameter")
    out = {}
    for name, values in grid.items():
        if name not in params:
            raise ClaimDefinitionError(f"claim {claim_id}: sweep over {name!r}, which is not a declared parameter "
                                       f"(declared: {', '.join(params) or 'none'})")
        if isinstance(values, (str, bytes)) or len(values) == 0:
            raise ClaimDefinitionError(f"claim {claim_id}: sweep values of {name!r} must be a non-empty list")
        try:
            out[name] = [params[name].coerce(name, v) for v in values]
        except ValueError as exc:
            raise ClaimDefinitionError(f"claim {claim_id}: declared sweep: {exc}") from None
    return out
