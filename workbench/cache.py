"""Caching of claim results with joblib.Memory, keyed so that any edit of the computation misses.

joblib hashes a cached function's own code, not the functions it calls.  The key here covers
all the code a claim reaches that is not an installed, versioned distribution: its module, every
module of its own top-level package and of ``simulations`` it reaches (through the objects its
modules import, followed transitively), modules on the path that no distribution provides, and
editable installs; installed distributions it imports from enter by name and version, beside the
numerical packages and solvers.  The engine modules that seed its streams and decide its verdict
are hashed too, and so are the parameters, the seed and the profile.  Code is hashed as Python
parses it, so an edit of comments or layout keeps the cache.  Beside the cache, the last key of
each claim is kept, so a miss can say why the claim runs again.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import sys
import types
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import joblib

from .model import Claim

SCIENCE_PACKAGES = ("simulations", "theorems")
NUMERICAL = ("numpy", "scipy", "sympy", "mpmath", "cvxpy", "qiskit", "qiskit-aer", "joblib")
SOLVERS = ("clarabel", "scs", "highspy", "osqp", "PEPit", "networkx", "nashpy", "python-sat")
"""Solvers and libraries whose answers decide certificates and exact values: their versions are in
every cache key and in every run's provenance."""


def _module_of(obj: Any) -> types.ModuleType | None:
    if isinstance(obj, types.ModuleType):
        return obj
    name = getattr(obj, "__module__", None)
    return sys.modules.get(name) if isinstance(name, str) else None


@functools.lru_cache(maxsize=1)
def _top_level_distributions() -> dict[str, tuple[str, ...]]:
    """Top-level import names -> the installed distributions providing them."""
    from importlib.metadata import packages_distributions

    return {k: tuple(v) for k, v in packages_distributions().items()}


@functools.cache
def _editable(dist_name: str) -> bool:
    """True when ``dist_name`` is installed in editable (development) mode: its files are code."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution(dist_name).read_text("direct_url.json") or ""
    except PackageNotFoundError:
        return False
    try:
        return bool(json.loads(text).get("dir_info", {}).get("editable"))
    except ValueError:
        return False


def _owner(name: str, root: str, has_file: bool) -> str | None:
    """What a module reached from a claim contributes to its cache key.

    ``"code"``: its source is hashed (the claim's own top-level package, ``simulations`` and
    ``theorems``, a module on the path that no installed distribution provides, a distribution
    installed in editable mode); ``"dist:<name>"``: an installed distribution, which enters by
    name and version; None: the standard library and the engine (hashed on its own).
    """
    top = name.split(".")[0]
    if top in SCIENCE_PACKAGES or top == root:
        return "code"
    if top == "workbench" or top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return None
    dists = _top_level_distributions().get(top, ())
    if not dists:
        return "code" if has_file else None
    if any(_editable(d) for d in dists):
        return "code"
    return f"dist:{dists[0]}"


def _module_file(name: str) -> str | None:
    """The source file of module ``name`` (None for a name that is not a module with a source:
    a function imported from a module, a builtin, a missing module)."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None) if module is not None else None
    if path is None:
        import importlib.util

        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError, AttributeError):
            return None
        path = spec.origin if spec is not None and spec.has_location else None
    return path if path and path.endswith(".py") else None


@functools.lru_cache(maxsize=4096)
def _imports_in(path: str, mtime_ns: int, package: str) -> tuple[str, ...]:
    """Every absolute module name a file imports, anywhere in it (inside functions too), with
    ``from m import x`` also giving ``m.x`` (a submodule when it is one)."""
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return ()
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level - 1 > len(parts):
                    continue
                base = ".".join(parts[: len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base:
                names.append(base)
                names += [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    return tuple(dict.fromkeys(names))


@dataclass
class Reach:
    """What a claim's computation reaches: ``files`` (module name -> source file) whose code is
    hashed, the installed distributions it imports from, and every module name imported."""

    files: dict[str, str]
    dists: set[str]
    imports: set[str]


def reach(claim: Claim) -> Reach:
    """Follow the claim's module through every import in its source and in the sources it reaches
    (imports inside functions included, so a helper imported lazily is covered), and through the
    objects its modules hold (re-exports)."""
    root = claim.module.split(".")[0]
    files: dict[str, str] = {}
    dists: set[str] = set()
    imports: set[str] = set()
    todo = [claim.module]
    seen = {claim.module}
    while todo:
        name = todo.pop()
        path = _module_file(name)
        if path is None:
            continue
        files[name] = path
        module = sys.modules.get(name)
        is_package = Path(path).name == "__init__.py"
        package = name if is_package else name.rpartition(".")[0]
        candidates = list(_imports_in(path, Path(path).stat().st_mtime_ns, package))
        if module is not None:
            for obj in list(vars(module).values()):
                dep = _module_of(obj)
                if dep is not None:
                    candidates.append(dep.__name__)
        for dep in candidates:
            imports.add(dep)
            if dep in seen:
                continue
            seen.add(dep)
            owner = _owner(dep, root, has_file=True)
            if owner is None:
                continue
            if owner.startswith("dist:"):
                dists.add(owner[5:])
                continue
            todo.append(dep)
            # A name imported from a package may live in a parent package's file.
            parent = dep.rpartition(".")[0]
            if parent and parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return Reach(files, dists, imports)


def code_modules(claim: Claim) -> list[types.ModuleType]:
    """The loaded modules among those :func:`reach` finds, sorted by name."""
    found = reach(claim).files
    return [sys.modules[k] for k in sorted(found) if k in sys.modules]


def reached_distributions(claim: Claim) -> dict[str, str]:
    """Name and version of every installed distribution the claim's code imports from (PEPit,
    nashpy, cvxpy...), beyond the fixed numerical and solver set."""
    return package_versions(tuple(sorted(reach(claim).dists)))


ENGINE_PACKAGES = ("workbench.context", "workbench.evidence", "workbench.execute")


def _engine_modules() -> list[str]:
    """The engine modules that seed a claim's streams and decide its verdict (packages expanded)."""
    import importlib
    import pkgutil

    names = []
    for name in ENGINE_PACKAGES:
        module = importlib.import_module(name)
        names.append(name)
        names += [info.name for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix=f"{name}.")]
    return names


ENGINE_MODULES = tuple(_engine_modules())


def code_digests(claim: Claim) -> dict[str, str]:
    """SHA-256 (16 hex digits) of the source of each module the claim's computation uses,
    and of the engine modules that draw its random streams and decide its verdict."""
    import importlib

    out = {}
    for name, path in sorted(reach(claim).files.items()):
        stat = Path(path).stat()
        out[name] = _file_digest(path, stat.st_mtime_ns, stat.st_size)
    for module in map(importlib.import_module, ENGINE_MODULES):
        out[module.__name__] = source_digest(module)
    return out


def source_digest(module: types.ModuleType) -> str:
    """SHA-256 (16 hex digits) of a module's code as Python parses it: comments and layout do not
    count, so an edit that only touches them keeps the cache."""
    try:
        path = Path(inspect.getfile(module))
        stat = path.stat()
    except (OSError, TypeError):
        return hashlib.sha256(repr(sorted(vars(module))).encode()).hexdigest()[:16]
    return _file_digest(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4096)
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    """The digest of one file's parsed code (cached while the file is unchanged)."""
    source = Path(path).read_bytes()
    try:
        text = ast.dump(ast.parse(source), include_attributes=False).encode()
    except (SyntaxError, ValueError):
        text = source
    return hashlib.sha256(text).hexdigest()[:16]


def package_versions(names: tuple[str, ...] = NUMERICAL + SOLVERS) -> dict[str, str]:
    """Installed version of each distribution in ``names`` ("not installed" when absent)."""
    return {name: _version(name) for name in names}


@functools.cache
def _version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


@dataclass
class CacheKey:
    """Everything a claim's result depends on."""

    claim_id: str
    profile: str
    seed: int
    params: dict[str, Any]
    code: dict[str, str]
    versions: dict[str, str]

    def as_dict(self) -> dict[str, Any]:
        return {"claim_id": self.claim_id, "profile": self.profile, "seed": self.seed,
                "params": self.params, "code": self.code, "versions": self.versions}

    @classmethod
    def of(cls, claim: Claim, profile: str, seed: int, params: dict[str, Any], stream: str | None = None) -> CacheKey:
        """The key of ``claim`` run with these values; ``stream`` names the random streams when
        they are not the claim's own (a sweep point, see :func:`workbench.sweeps.point_stream`)."""
        return cls(stream or claim.id, profile, int(seed), json.loads(json.dumps(params, default=str)),
                   code_digests(claim), package_versions() | reached_distributions(claim))


def why_missed(old: dict[str, Any] | None, new: CacheKey) -> str:
    """Say in words what differs between the last key stored for a claim and the new one."""
    if old is None:
        return "not in the cache"
    reasons = []
    for name in sorted(set(old.get("code", {})) | set(new.code)):
        a, b = old.get("code", {}).get(name), new.code.get(name)
        if a != b:
            what = "is new" if a is None else "is no longer used" if b is None else "changed"
            reasons.append(f"{name} {what}")
    for field in ("profile", "seed"):
        if old.get(field) != getattr(new, field):
            reasons.append(f"{field} {old.get(field)} -> {getattr(new, field)}")
    if old.get("params") != new.params:
        changed = sorted(k for k in set(old.get("params", {})) | set(new.params)
                         if old.get("params", {}).get(k) != new.params.get(k))
        reasons.append("parameters changed: " + ", ".join(changed))
    for pkg in sorted(new.versions):
        if old.get("versions", {}).get(pkg) != new.versions[pkg]:
            reasons.append(f"{pkg} {old.get('versions', {}).get(pkg)} -> {new.versions[pkg]}")
    return "; ".join(reasons) or "cache entry missing"


class ResultCache:
    """A joblib.Memory cache of claim results under ``folder``.

    ``lookup(key)`` returns the stored value or None with the reason of the miss; ``store``
    saves one.  Values must be picklable (plain records, not claim objects).
    """

    def __init__(self, folder: str | Path, warn: Any = None, read: bool = True) -> None:
        self.folder = Path(folder)
        self.read = read  # False: every lookup misses (``--no-cache``), but fresh results still replace stale ones
        self.memory = joblib.Memory(self.folder, verbose=0)
        self._entry = self.memory.cache(_entry, ignore=["value"])
        self._keys = self.folder / "last-keys.json"
        self._warn = warn or (lambda message: None)
        self._warned = False

    def _last_keys(self) -> dict[str, Any]:
        try:
            return json.loads(self._keys.read_text())
        except (OSError, ValueError):
            return {}

    def lookup(self, key: CacheKey) -> tuple[Any | None, str]:
        """The stored value for ``key`` and "", or None and why it missed.  A cache that cannot be
        read is a miss (with a warning), never a failure of the run."""
        if not self.read:
            return None, "cache off"
        try:
            if self._entry.check_call_in_cache(key.as_dict(), None):
                return self._entry(key.as_dict(), None), ""
        except Exception as exc:  # noqa: BLE001 - a damaged or unreadable cache entry is a miss
            self._warn_once(f"the cache in {self.folder} cannot be read ({type(exc).__name__}: {exc}); "
                            "claims run again")
            return None, "cache unreadable"
        return None, why_missed(self._last_keys().get(key.claim_id), key)

    def store(self, key: CacheKey, value: Any) -> bool:
        """Keep ``value`` for ``key``; return False (with a warning) when the cache cannot be
        written: the result itself is stored in the database either way."""
        try:
            self._entry.call(key.as_dict(), value)
            keys = self._last_keys()
            keys[key.claim_id] = key.as_dict()
            self._keys.write_text(json.dumps(keys, indent=1, sort_keys=True))
        except Exception as exc:  # noqa: BLE001 - a cache that cannot be written costs a rerun, not a result
            self._warn_once(f"the cache in {self.folder} cannot be written ({type(exc).__name__}: {exc}); "
                            "results are stored in the database, but the next run computes them again")
            return False
        return True

    def _warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(message)

    def clear(self) -> None:
        self.memory.clear(warn=False)
        self._keys.unlink(missing_ok=True)


def _entry(key: dict[str, Any], value: Any) -> Any:
    """The cached function: its result is the value stored with the key."""
    return value
