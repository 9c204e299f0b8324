"""The claim model: papers, claims, their parameters and negative controls.

A paper module in ``theorems/`` declares one :class:`Paper` and registers each checkable
statement with :func:`claim`.  A claim is a function ``f(ctx) -> Evidence``; it measures and
hands back evidence, and the engine (``workbench.evidence``) decides the verdict.  Every claim
carries at least one negative control, registered with ``@the_claim.control("what is broken")``,
which runs the same check with one hypothesis violated and must come out REFUTED.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

EVIDENCE_KINDS = ("identity", "symbolic", "bound", "rate", "proportion", "certificate", "comparison", "all")
PROFILES = ("quick", "full")
ROLES = ("headline", "supporting", "background")
"""A claim's role: ``headline`` (a main result of the paper as its abstract and theorems state
it), ``supporting`` (a lemma, proposition or secondary result of the paper) or ``background`` (a
classical fact or a derivation of our own that the check needs: shown marked, never counted as
the paper's result)."""

_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class ClaimDefinitionError(ValueError):
    """A paper module declared a paper, claim or parameter that breaks the claim contract."""


@dataclass(frozen=True)
class NotChecked:
    """A statement of a paper that no computation here checks, and why.

    Attributes:
        statement: the statement, in the paper's words or notation (LaTeX math in ``$...$``).
        why: why no computation checks it (a statement over all algorithms, a purely asymptotic
            statement, an experiment on a large model that does not fit this machine).
        role: ``"headline"`` (a main result of the paper) or ``"supporting"``.

    Raises:
        ClaimDefinitionError: on an empty statement or reason, or an unknown role.
    """

    statement: str
    why: str
    role: str

    def __post_init__(self) -> None:
        if not all(isinstance(x, str) and x.strip() for x in (self.statement, self.why)):
            raise ClaimDefinitionError(f"a not_checked entry needs a statement and the reason it is not checked, "
                                       f"not {(self.statement, self.why)!r}")
        if self.role not in ("headline", "supporting"):
            raise ClaimDefinitionError(f"a not_checked entry's role is 'headline' or 'supporting', not {self.role!r} "
                                       f"({self.statement[:60]!r})")

    def as_dict(self) -> dict[str, str]:
        return {"statement": self.statement, "why": self.why, "role": self.role}


def _not_checked_entry(slug: str, entry: Any) -> NotChecked:
    if isinstance(entry, NotChecked):
        return entry
    if isinstance(entry, dict):
        return NotChecked(**entry)
    entry = tuple(entry)
    if len(entry) == 3:
        return NotChecked(*entry)
    raise ClaimDefinitionError(
        f"paper {slug!r}: each not_checked entry is NotChecked(statement, why, role) with role 'headline' or "
        f"'supporting', not {entry!r}")


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
        not_checked: statements of the paper that no computation here checks (lower bounds
            over all algorithms, purely asymptotic statements, experiments too large for this
            machine), each a :class:`NotChecked` (or a triple ``(statement, why, role)``); the
            report lists them with the paper and counts the headline ones.  ``()`` states that
            everything the paper states is checked; ``None`` (the default) means the paper has
            not said, which the conformance suite rejects.

    Raises:
        ClaimDefinitionError: on a malformed slug, an empty title/author list or a malformed
            ``not_checked`` entry.
    """

    slug: str
    title: str
    authors: tuple[str, ...]
    venue: str
    year: int
    arxiv: str | None = None
    identifier: str | None = None
    url: str | None = None
    not_checked: tuple[NotChecked, ...] | None = None

    def __post_init__(self) -> None:
        if not _SLUG.match(self.slug):
            raise ClaimDefinitionError(
                f"paper slug {self.slug!r} must be lower case letters, digits and underscores"
            )
        if not self.title or not self.authors:
            raise ClaimDefinitionError(f"paper {self.slug!r} needs a title and at least one author")
        object.__setattr__(self, "authors", tuple(self.authors))
        if self.not_checked is not None:
            if isinstance(self.not_checked, (str, NotChecked)):
                raise ClaimDefinitionError(f"paper {self.slug!r}: not_checked is a tuple of NotChecked entries")
            object.__setattr__(self, "not_checked",
                               tuple(_not_checked_entry(self.slug, e) for e in self.not_checked))

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
            "not_checked": None if self.not_checked is None else [e.as_dict() for e in self.not_checked],
        }


@dataclass(frozen=True)
class Param:
    """A parameter of a claim that sweeps may vary; the profiles choose its value.

    Args:
        quick: value used by the ``quick`` profile.
        full: value used by the ``full`` profile (defaults to ``quick``).
        low, high: inclusive numeric range accepted from a sweep or the command line.  A sweep may
            go beyond the theorem's hypotheses to show where the claim stops holding.
        choices: the admissible values, for categorical parameters.
        doc: what the parameter is, with its unit.
        hypothesis: the range the theorem's hypotheses allow, ``(low, high)``, when narrower than
            the sweep range: ``workbench search`` looks for counterexamples there only.

    The parameter's type is the type of ``quick``; values given as strings (from the command
    line) are converted to it.
    """

    quick: Any
    full: Any = None
    low: float | None = None
    high: float | None = None
    choices: Sequence[Any] | None = None
    doc: str = ""
    hypothesis: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.hypothesis is not None:
            lo, hi = self.hypothesis
            if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
                raise ClaimDefinitionError(f"a parameter's hypothesis range must be (low, high) with low <= high, "
                                           f"not {self.hypothesis!r}")
            if (self.low is not None and lo < self.low) or (self.high is not None and hi > self.high):
                raise ClaimDefinitionError(f"the hypothesis range {self.hypothesis} must lie inside the parameter's "
                                           f"range [{self.low}, {self.high}]")

    def search_range(self) -> tuple[float, float] | None:
        """Where a counterexample search looks: the hypothesis range, else the declared range."""
        if self.hypothesis is not None:
            return self.hypothesis
        if self.low is not None and self.high is not None:
            return (self.low, self.high)
        return None

    def value(self, profile: str) -> Any:
        return self.quick if profile == "quick" or self.full is None else self.full

    def coerce(self, name: str, raw: Any, check_range: bool = True) -> Any:
        """Convert ``raw`` to this parameter's type and check its range (unless ``check_range`` is
        False: a control's override may leave the range on purpose; its choices still apply).

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
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"parameter {name!r} must be a finite number, not {raw!r}")
        if check_range and (self.low is not None and value < self.low or self.high is not None and value > self.high):
            raise ValueError(
                f"parameter {name!r} must lie in [{self.low}, {self.high}], not {raw!r}"
            )
        return value


@dataclass
class Control:
    """A negative control: the claim's check with one hypothesis broken; must be REFUTED.

    Attributes:
        id: ``claim_id:name``.
        broken: which hypothesis is broken, in words.
        func: the control's function ``f(ctx) -> Evidence``; for a parameter override, the
            claim's own function.
        params: parameter overrides the control runs the claim's function with (None for a
            control with its own body); they may lie outside the parameters' declared ranges.
        near_miss: True for a near-miss control (a constant just beyond the claimed one, the
            predecessor method, noise just above the stated level), False for a gross break.
    """

    id: str
    name: str
    broken: str
    func: Callable[..., Any]
    params: dict[str, Any] | None = None
    near_miss: bool = False


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
    method: str = ""
    params: dict[str, Param] = field(default_factory=dict)
    budget: float = 120.0
    controls: list[Control] = field(default_factory=list)
    module: str = ""
    expect: str | dict[str, str] = "VERIFIED"
    expect_reason: str = ""
    sweeps: list[dict[str, list[Any]]] = field(default_factory=list)
    diagram: Callable[[dict[str, Any]], Any] | None = None
    role: str = "supporting"
    reconstructed_from: str | None = None
    near_miss: Any = None

    @property
    def reconstructed(self) -> bool:
        """True when the statement is our reading of the paper (see ``reconstructed_from``)."""
        return self.reconstructed_from is not None

    @property
    def description(self) -> str:
        """First paragraph of the claim function's docstring."""
        doc = inspect.getdoc(self.func) or ""
        return doc.split("\n\n")[0].replace("\n", " ").strip()

    def expected(self, profile: str) -> str:
        """The verdict the check declares it reaches in ``profile`` (VERIFIED unless declared)."""
        return self.expect if isinstance(self.expect, str) else self.expect.get(profile, "VERIFIED")

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

    def control(self, broken: str, *, params: dict[str, Any] | None = None, near_miss: bool = False,
                name: str | None = None) -> Any:
        """Register a negative control; ``broken`` says which hypothesis is violated.

        Two forms:

        - ``claim.control("step size above 2/L", params={"step": 2.5})`` registers the claim's own
          function run with those parameter overrides and returns the :class:`Control` (the
          overrides may lie outside the parameters' declared ranges);
        - ``@claim.control("no weight decay")`` decorates a function ``f(ctx) -> Evidence`` with
          its own body.

        Args:
            broken: the hypothesis broken, in words, for the report.
            params: overrides of the claim's declared parameters (first form).
            near_miss: True for a near-miss control (a constant just beyond the claimed one, the
                predecessor method, noise just above the stated level) rather than a gross break.
            name: the control's name (default: the function's name, or ``control<N>``).

        Raises:
            ClaimDefinitionError: on an empty ``broken``, an override of an undeclared
                parameter or of the wrong type, or a control registered twice.
        """
        if not isinstance(broken, str) or not broken.strip():
            raise ClaimDefinitionError(f"a control of {self.id} must say which hypothesis it breaks")

        def add(ctl_name: str, func: Callable[..., Any], overrides: dict[str, Any] | None) -> Control:
            ctl = Control(id=f"{self.id}:{ctl_name}", name=ctl_name, broken=broken, func=func, params=overrides,
                          near_miss=bool(near_miss))
            if any(c.id == ctl.id for c in self.controls):
                raise ClaimDefinitionError(f"control {ctl.id} is registered twice")
            self.controls.append(ctl)
            return ctl

        if params is not None:
            if not params:
                raise ClaimDefinitionError(f"a parameter control of {self.id} needs at least one override")
            checked = {}
            for key, raw in params.items():
                if key not in self.params:
                    known = ", ".join(sorted(self.params)) or "none"
                    raise ClaimDefinitionError(f"control of {self.id} overrides {key!r}, which is not a declared "
                                               f"parameter (declared: {known})")
                try:
                    checked[key] = self.params[key].coerce(key, raw, check_range=False)
                except ValueError as exc:
                    raise ClaimDefinitionError(f"control of {self.id}: {exc}") from None
            auto = "_".join(f"{k}_{v}" for k, v in checked.items())
            ctl_name = name or re.sub(r"[^A-Za-z0-9_]+", "_", auto).strip("_") or f"control{len(self.controls) + 1}"
            return add(ctl_name, self.func, checked)

        def register(func: Callable[..., Any]) -> Control:
            ctl_name = name or (func.__name__ if func.__name__ != "_" else f"control{len(self.controls) + 1}")
            return add(ctl_name, func, None)

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

    def remove(self, claim_id: str) -> None:
        """Forget a claim (and its paper when it has no other claim): a module that failed to load."""
        c = self.claims.pop(claim_id)
        if not any(other.paper.slug == c.paper.slug for other in self.claims.values()):
            self.papers.pop(c.paper.slug, None)

    def claims_of(self, slug: str) -> list[Claim]:
        return [c for c in self.claims.values() if c.paper.slug == slug]


REGISTRY = Registry()


def claim(
    paper: Paper,
    *,
    source: str,
    evidence: str,
    statement: str,
    role: str | None = None,
    reconstructed_from: str | None = None,
    near_miss: Any = None,
    reconstructed: bool | None = None,
    method: str = "",
    params: dict[str, Param] | None = None,
    budget: float = 120.0,
    registry: Registry | None = None,
    expect: str | Mapping[str, str] = "VERIFIED",
    expect_reason: str = "",
    sweeps: Sequence[dict[str, Sequence[Any]]] = (),
    diagram: Callable[[dict[str, Any]], Any] | None = None,
) -> Callable[[Callable[..., Any]], Claim]:
    """Register a claim of ``paper``.

    Args:
        paper: the paper the claim is from.
        source: where it stands in the paper (``"Theorem 3.2"``, ``"Claim 1, Sec. 3"``).
        evidence: one of ``identity, symbolic, bound, rate, proportion, certificate,
            comparison, all``: the kind of evidence the function returns (``all``: an
            :class:`workbench.evidence.AllOf` of several pieces).
        statement: the claim in LaTeX (math in ``$...$``), written for the report.
        role: required: ``"headline"`` (a main result of the paper, as its abstract and main
            theorems state it), ``"supporting"`` (a lemma, proposition or secondary result of
            the paper) or ``"background"`` (a classical fact, or a derivation of our own, that the
            check needs; shown marked in the report and never counted as the paper's result).
        reconstructed_from: when the exact statement could not be read in full and this is our
            most faithful reading: where the reading comes from, a source a reader can find
            ("the abstract", "arXiv v2 HTML, Sec. 4", an OpenReview review with its address).
            A refuted reconstruction is shown as "REFUTED, reconstructed statement".
        near_miss: the claim's near miss (:class:`workbench.evidence.NearMiss`) when the
            kind's default is meaningless; None uses the default (see each evidence kind).
        reconstructed: replaced by ``reconstructed_from``; passing it raises.
        method: how the check is done, one or two sentences for the report.
        params: parameters a sweep may vary, with the values each profile uses.
        budget: time limit for the claim and its controls in the quick profile, in seconds
            (the full profile gets ten times as much).
        registry: where to register (default: the global :data:`REGISTRY`).
        expect: the verdict the check is known to reach, when it is not VERIFIED: an honest
            INCONCLUSIVE (the claim cannot be decided by simulation at this size) or a REFUTED
            finding. The pytest item passes when the verdict is the expected one; the report and
            the command line still show the verdict itself.  Needs ``expect_reason``.  A mapping
            ``{"quick": "INCONCLUSIVE", "full": "REFUTED"}`` declares it per profile (a profile
            not named expects VERIFIED): a finding the quick sizes cannot resolve.
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
    declared = {profile: expect for profile in PROFILES} if isinstance(expect, str) else dict(expect)
    if set(declared) - set(PROFILES):
        raise ClaimDefinitionError(f"expect names unknown profiles {sorted(set(declared) - set(PROFILES))}; "
                                   f"the profiles are {list(PROFILES)}")
    for value in declared.values():
        if value not in ("VERIFIED", "INCONCLUSIVE", "REFUTED"):
            raise ClaimDefinitionError(f"expect must be VERIFIED, INCONCLUSIVE or REFUTED, not {value!r}")
    unusual = sorted(set(declared.values()) - {"VERIFIED"})
    if unusual and not expect_reason.strip():
        raise ClaimDefinitionError(f"a claim expected to be {' / '.join(unusual)} needs expect_reason saying why")
    expect = expect if isinstance(expect, str) else dict(expect)

    if diagram is not None and not callable(diagram):
        raise ClaimDefinitionError("diagram must be a function of the claim's parameters returning a figure")

    def check(claim_id: str) -> None:
        """Checks whose message names the claim (they need its function's name)."""
        from .texsafe import latex_hazard

        for name, text in (("statement", statement), ("source", source), ("method", method),
                           ("reconstructed_from", reconstructed_from or "")):
            hazard = latex_hazard(text)
            if hazard:
                raise ClaimDefinitionError(f"claim {claim_id}: its {name} uses {hazard}, which the report refuses (it "
                                           "can read or write files, define macros or loop): write the mathematics "
                                           "without it")
        if role not in ROLES:
            raise ClaimDefinitionError(
                f"claim {claim_id} needs role= one of {', '.join(ROLES)} (headline: a main result of the paper; "
                f"supporting: a lemma or secondary result; background: a classical fact or our own derivation), not "
                f"{role!r}")
        if reconstructed is not None:
            raise ClaimDefinitionError(f"claim {claim_id}: `reconstructed=` is replaced by `reconstructed_from=`: say "
                                       "where the reading of the statement comes from (e.g. reconstructed_from=\"the "
                                       "abstract\")")
        if reconstructed_from is not None and (not isinstance(reconstructed_from, str) or not reconstructed_from.strip()):
            raise ClaimDefinitionError(f"claim {claim_id}: reconstructed_from names the source of the reading (the "
                                       "abstract, a section, a review with its address), not an empty value")
        if near_miss is not None:
            from .evidence import NearMiss

            if not isinstance(near_miss, NearMiss):
                raise ClaimDefinitionError(f"claim {claim_id}: near_miss must be a workbench.NearMiss, not "
                                           f"{type(near_miss).__name__}")

    def register(func: Callable[..., Any]) -> Claim:
        claim_id = f"{paper.slug}.{func.__name__}"
        check(claim_id)
        grids = [_check_grid(claim_id, dict(params or {}), g) for g in sweeps]
        c = Claim(
            id=claim_id, name=func.__name__, paper=paper, func=func,
            statement=statement, source=source, evidence=evidence,
            method=method, params=dict(params or {}), budget=float(budget), module=func.__module__,
            expect=expect, expect_reason=expect_reason, sweeps=grids, diagram=diagram, role=role,
            reconstructed_from=reconstructed_from, near_miss=near_miss,
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
