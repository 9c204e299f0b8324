"""Finding claims: paper modules register themselves on import; entry points name them.

Packages that ship papers declare an entry point in the group ``workbench.theorems`` whose
value is a module or package; :func:`load` imports each (and every submodule of a package),
which fills :data:`workbench.model.REGISTRY`.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from .model import REGISTRY, Claim, Registry

GROUP = "workbench.theorems"
_loaded = False


LOAD_ERRORS: list[str] = []
"""Paper modules that could not be loaded, each with the reason (filled by :func:`load`)."""


def import_tree(name: str, registry: Registry | None = None) -> list[str]:
    """Import module ``name`` and, if it is a package, all its submodules.

    A module that fails to import (a syntax error, a claim that breaks the contract, a paper
    slug already used by another package) is skipped with its claims, so one broken paper never
    stops the others.

    Returns:
        One message per skipped module, saying what went wrong.
    """
    reg = registry or REGISTRY
    errors: list[str] = []

    def attempt(module_name: str) -> Any:
        before = set(reg.claims)
        try:
            return importlib.import_module(module_name)
        except Exception as exc:  # noqa: BLE001 - any failure of an outside module is reported, not fatal
            for cid in set(reg.claims) - before:
                reg.remove(cid)
            errors.append(f"paper module {module_name} was skipped: {type(exc).__name__}: {exc}")
            return None

    module = attempt(name)
    if module is not None:
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{name}.",
                                          onerror=lambda n: errors.append(f"paper package {n} could not be read")):
            attempt(info.name)
    return errors


def load() -> Registry:
    """Import every registered paper module once and return the filled registry.

    Modules that fail to load are skipped; :data:`LOAD_ERRORS` says which and why.
    """
    global _loaded
    if not _loaded:
        names = {ep.value for ep in entry_points(group=GROUP)} or {"theorems"}
        for name in sorted(names):
            LOAD_ERRORS.extend(import_tree(name))
        _loaded = True
    return REGISTRY


class SelectionError(ValueError):
    """A selector matched nothing; the message suggests close matches."""


def select(selectors: list[str] | None = None, keyword: str | None = None,
           registry: Registry | None = None) -> list[Claim]:
    """Claims named by ``selectors`` (paper slugs, claim ids, glob patterns) and ``keyword``.

    Args:
        selectors: each a paper slug (``soap_shampoo_adam``), a claim id
            (``soap_shampoo_adam.soap_is_adam_in_rotated_coordinates``), a claim name, or a
            glob over claim ids; none selects every claim.
        keyword: a pytest-like ``-k`` expression over claim ids, paper slugs and venues
            (words joined with ``and``, ``or``, ``not`` and parentheses).

    Raises:
        SelectionError: naming the selector that matched nothing, with close matches.
    """
    reg = registry or load()
    claims = list(reg.claims.values())
    if selectors:
        chosen: dict[str, Claim] = {}
        for sel in selectors:
            hits = [c for c in claims if sel in (c.paper.slug, c.id, c.name) or fnmatch.fnmatch(c.id, sel)]
            if not hits:
                names = list(reg.papers) + [c.id for c in claims]
                close = difflib.get_close_matches(sel, names, n=3, cutoff=0.7)
                hint = f"; did you mean {', '.join(close)}?" if close else "; `workbench list` shows them all"
                raise SelectionError(f"no paper or claim matches {sel!r}{hint}")
            chosen.update((c.id, c) for c in hits)
        claims = [c for c in claims if c.id in chosen]
    if keyword:
        claims = [c for c in claims if _matches(keyword, c)]
        if not claims:
            raise SelectionError(f"no claim matches -k {keyword!r}")
    return claims


def _matches(expr: str, c: Claim) -> bool:
    import re

    haystack = " ".join([c.id, c.paper.slug, c.paper.venue, c.evidence]).lower()
    tokens = re.findall(r"\(|\)|[^\s()]+", expr)
    code = []
    for tok in tokens:
        low = tok.lower()
        if low in ("and", "or", "not", "(", ")"):
            code.append(low)
        else:
            code.append(repr(low in haystack))
    try:
        return bool(eval(" ".join(code), {"__builtins__": {}}, {}))  # noqa: S307 - only booleans and operators
    except SyntaxError:
        raise SelectionError(f"cannot parse -k expression {expr!r}") from None


def find_claim(name: str, registry: Registry | None = None) -> Claim:
    """The one claim ``name`` selects (a claim id, or a claim name unique across papers).

    Raises:
        SelectionError: when ``name`` selects no claim (with close matches) or several.
    """
    hits = select([name], registry=registry)
    if len(hits) != 1:
        raise SelectionError(f"{name!r} names {len(hits)} claims; give one claim id: "
                             + ", ".join(c.id for c in hits))
    return hits[0]
