"""The results database (SQLite): runs, and one row per finished claim and control.

Every finished claim is committed in its own transaction, so an interrupted run keeps what
finished and ``--resume`` completes it.  The history of every claim over all runs stays in the
database; the report and ``workbench show`` read from it alone.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from pathlib import Path
from typing import Any

from .execute import ClaimResult, grade

SCHEMA_VERSION = 2

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    finished TEXT,
    status TEXT NOT NULL,              -- running | finished | interrupted
    seed INTEGER NOT NULL,
    profile TEXT NOT NULL,
    jobs INTEGER NOT NULL,
    backend TEXT NOT NULL,
    selection TEXT NOT NULL,           -- JSON list of claim ids
    metadata TEXT NOT NULL             -- JSON: versions, git revision, host, python
);
CREATE TABLE IF NOT EXISTS claims (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    claim_id TEXT NOT NULL,
    paper TEXT NOT NULL,               -- JSON record of the paper
    name TEXT NOT NULL,
    statement TEXT NOT NULL,
    source TEXT NOT NULL,
    description TEXT NOT NULL,
    method TEXT NOT NULL,
    evidence_kind TEXT NOT NULL,
    reconstructed INTEGER NOT NULL,
    params TEXT NOT NULL,              -- JSON
    verdict TEXT NOT NULL,             -- the verdict the report shows (claim and controls combined)
    note TEXT NOT NULL,
    seconds REAL NOT NULL,
    finished TEXT NOT NULL,
    provenance TEXT NOT NULL,          -- 'cache', or 'ran: <why it was not taken from the cache>'
    expect TEXT NOT NULL,              -- the verdict the check is declared to reach
    expect_reason TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'supporting', -- headline | supporting | background
    reconstructed_from TEXT,           -- where a reconstructed statement's reading comes from
    near_miss TEXT,                    -- JSON of the claim's declared near miss, NULL for the default
    PRIMARY KEY (run_id, claim_id)
);
CREATE TABLE IF NOT EXISTS outcomes (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    claim_id TEXT NOT NULL,
    role TEXT NOT NULL,                -- claim | control
    outcome_id TEXT NOT NULL,
    broken TEXT NOT NULL,              -- for controls: the hypothesis that is broken
    verdict TEXT NOT NULL,
    decision TEXT NOT NULL,            -- JSON of workbench.evidence.Decision
    evidence TEXT,                     -- JSON of the raw evidence, NULL on error
    traceback TEXT NOT NULL,
    seconds REAL NOT NULL,
    near_miss INTEGER NOT NULL DEFAULT 0, -- for controls: 1 for a near-miss control
    PRIMARY KEY (run_id, outcome_id)
);
CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    seed INTEGER NOT NULL,
    profile TEXT NOT NULL,
    grid TEXT NOT NULL,                -- JSON: parameter name -> list of values
    metadata TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sweep_points (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id),
    idx INTEGER NOT NULL,
    params TEXT NOT NULL,              -- JSON
    claim_verdict TEXT NOT NULL,       -- the claim's own evidence at this point
    verdict TEXT NOT NULL,             -- combined with its controls
    controls TEXT NOT NULL,            -- JSON list of control verdicts
    summary TEXT NOT NULL,
    headline TEXT NOT NULL,            -- JSON
    evidence TEXT,                     -- JSON
    seconds REAL NOT NULL,
    PRIMARY KEY (sweep_id, idx)
);
CREATE TABLE IF NOT EXISTS searches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id TEXT NOT NULL,
    started TEXT NOT NULL,
    seed INTEGER NOT NULL,
    profile TEXT NOT NULL,
    examples INTEGER NOT NULL,
    space TEXT NOT NULL,               -- JSON: parameter -> [low, high]
    outcomes TEXT NOT NULL,            -- JSON list: target, evaluations, errors, violated, worst, sentence
    passed INTEGER NOT NULL
);
"""


class StoreError(RuntimeError):
    """The database cannot be used (locked, corrupt, not writable, from a newer version)."""


def _now() -> str:
    from datetime import datetime

    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """A results database at ``path`` (created with its folder if missing).

    Raises:
        StoreError: when the file is not a workbench database, is locked by another process, or
            cannot be created; the message says what to do.
    """

    def __init__(self, path: str | Path, timeout: float = 5.0) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a database file; give a file such as "
                             f"{self.path / 'workbench.sqlite'} with --db")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(self.path, timeout=timeout)
            self.conn.row_factory = sqlite3.Row
            with self._guard("open"):
                self.conn.executescript(SCHEMA)
                row = self.conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self.conn.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif int(row[0]) > SCHEMA_VERSION:
                    raise StoreError(f"{self.path} was written by a newer workbench (schema {row[0]}); upgrade workbench")
                elif int(row[0]) < SCHEMA_VERSION:
                    self._migrate(int(row[0]))
                self.conn.commit()
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot create or open the database {self.path}: {getattr(exc, 'strerror', None) or exc}; "
                             "choose another path with --db") from None

    def _migrate(self, version: int) -> None:
        """Bring a database of an older schema up to date (columns added, nothing removed)."""
        if version < 2:
            # Schema 2: claim roles, reconstruction sources, declared near misses, near-miss controls.
            for table, column, decl in (("claims", "role", "TEXT NOT NULL DEFAULT 'supporting'"),
                                        ("claims", "reconstructed_from", "TEXT"),
                                        ("claims", "near_miss", "TEXT"),
                                        ("outcomes", "near_miss", "INTEGER NOT NULL DEFAULT 0")):
                have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")
            # A version-1 row knew only whether it was reconstructed, not from where.
            self.conn.execute("UPDATE claims SET reconstructed_from='not recorded' WHERE reconstructed=1 "
                              "AND reconstructed_from IS NULL")
        self.conn.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(f"the database {self.path} is locked by another process; wait for it to "
                                 "finish or use another file with --db") from None
            raise StoreError(f"cannot {action} the database {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path} is not a usable workbench database ({exc}); move it away or "
                             "use another file with --db") from None

    def close(self) -> None:
        self.conn.close()

    # ---------------------------------------------------------------- runs
    def start_run(self, *, seed: int, profile: str, jobs: int, backend: str, selection: list[str],
                  metadata: dict[str, Any]) -> int:
        with self._guard("write"), self.conn:
            cur = self.conn.execute(
                "INSERT INTO runs (started, status, seed, profile, jobs, backend, selection, metadata)"
                " VALUES (?, 'running', ?, ?, ?, ?, ?, ?)",
                (_now(), seed, profile, jobs, backend, json.dumps(selection), json.dumps(metadata)),
            )
            return int(cur.lastrowid)

    def finish_run(self, run_id: int, status: str = "finished",
                   timings: dict[str, dict[str, float]] | None = None) -> None:
        """Mark the run finished (or interrupted), and note the latest sweep and search stored by
        then: the run's report shows those, whatever is stored later (see :meth:`report_scope`).
        ``timings``: wall-clock and CPU seconds of its phases, kept in its metadata."""
        with self._guard("write"), self.conn:
            row = self.conn.execute("SELECT metadata FROM runs WHERE id=?", (run_id,)).fetchone()
            metadata = json.loads(row[0]) if row else {}
            if timings:
                metadata["timings"] = timings
            metadata["stored_upto"] = {
                "sweep": self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM sweeps").fetchone()[0],
                "search": self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM searches").fetchone()[0]}
            self.conn.execute("UPDATE runs SET finished=?, status=?, metadata=? WHERE id=?",
                              (_now(), status, json.dumps(metadata), run_id))

    def report_scope(self, run_id: int) -> dict[str, int | None]:
        """The latest sweep id and search id a report of run ``run_id`` may show: those stored when
        the run finished (for a run stored before this was recorded: those finished by then by the
        clock; None for a run still going, which may show everything)."""
        run = self.run(run_id)
        upto = run["metadata"].get("stored_upto")
        if upto:
            return {"sweep": int(upto["sweep"]), "search": int(upto["search"])}
        if not run["finished"]:
            return {"sweep": None, "search": None}
        with self._guard("read"):
            sweep = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM sweeps WHERE finished IS NOT NULL "
                                      "AND finished <= ?", (run["finished"],)).fetchone()[0]
            search = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM searches WHERE started <= ?",
                                       (run["finished"],)).fetchone()[0]
        return {"sweep": int(sweep), "search": int(search)}

    def run(self, run_id: int | None = None) -> dict[str, Any]:
        """The run ``run_id`` (the latest when None) as a dict.

        Raises:
            StoreError: when there is no such run.
        """
        with self._guard("read"):
            if run_id is None:
                row = self.conn.execute("SELECT * FROM runs ORDER BY id DESC LIMIT 1").fetchone()
            else:
                row = self.conn.execute("SELECT * FROM runs WHERE id=?", (run_id,)).fetchone()
            ids = [r[0] for r in self.conn.execute("SELECT id FROM runs ORDER BY id").fetchall()] if row is None else []
        if row is None:
            if not ids:
                raise StoreError(f"{self.path} has no run yet; start one with `workbench run`")
            shown = ", ".join(map(str, ids)) if len(ids) <= 10 else f"{ids[0]} to {ids[-1]}"
            raise StoreError(f"{self.path} has no run {run_id}; its runs are {shown}")
        out = dict(row)
        out["selection"] = json.loads(out["selection"])
        out["metadata"] = json.loads(out["metadata"])
        return out

    def unfinished_run(self) -> dict[str, Any] | None:
        """The latest run that did not finish, or None."""
        with self._guard("read"):
            row = self.conn.execute(
                "SELECT id FROM runs WHERE status != 'finished' ORDER BY id DESC LIMIT 1").fetchone()
        return self.run(row[0]) if row else None

    def done_claims(self, run_id: int) -> set[str]:
        with self._guard("read"):
            return {r[0] for r in self.conn.execute("SELECT claim_id FROM claims WHERE run_id=?", (run_id,))}

    # ---------------------------------------------------------------- results
    def record(self, run_id: int, result: ClaimResult, provenance: str = "ran") -> None:
        """Commit one claim with its controls (one transaction); ``provenance`` says whether it
        ran or came from the cache, and why it ran."""
        c = result.claim
        with self._guard("write"), self.conn:
            record = {
                "run_id": run_id, "claim_id": c.id, "paper": json.dumps(c.paper.as_dict()), "name": c.name,
                "statement": c.statement, "source": c.source, "description": c.description, "method": c.method,
                "evidence_kind": c.evidence, "reconstructed": int(c.reconstructed),
                "params": json.dumps(result.params, default=str), "verdict": result.verdict.value,
                "note": result.note, "seconds": result.seconds, "finished": _now(), "provenance": provenance,
                "expect": result.expected, "expect_reason": c.expect_reason, "role": c.role,
                "reconstructed_from": c.reconstructed_from,
                "near_miss": json.dumps(c.near_miss.as_dict()) if c.near_miss is not None else None,
            }
            self.conn.execute(f"INSERT OR REPLACE INTO claims ({', '.join(record)}) "
                              f"VALUES ({', '.join(':' + k for k in record)})", record)
            rows = [("claim", result.outcome, "", False)] + [("control", o, ctl.broken, ctl.near_miss)
                                                              for ctl, o in result.controls]
            for role, o, broken, near in rows:
                self.conn.execute(
                    "INSERT OR REPLACE INTO outcomes (run_id, claim_id, role, outcome_id, broken, verdict, decision, "
                    "evidence, traceback, seconds, near_miss) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (run_id, c.id, role, o.id, broken, o.verdict.value, json.dumps(o.decision.as_dict(), default=float),
                     json.dumps(o.evidence, default=str) if o.evidence is not None else None, o.traceback, o.seconds,
                     int(near)),
                )

    def results(self, run_id: int) -> list[dict[str, Any]]:
        """Claims of a run in the order of its selection, each with ``outcome``, ``controls`` and
        ``grade`` (``"sharp"``/``"slack"`` for a VERIFIED claim, else None)."""
        with self._guard("read"):
            claims = self.conn.execute("SELECT * FROM claims WHERE run_id=? ORDER BY rowid", (run_id,)).fetchall()
            selection = self.conn.execute("SELECT selection FROM runs WHERE id=?", (run_id,)).fetchone()
            outs = self.conn.execute("SELECT * FROM outcomes WHERE run_id=? ORDER BY rowid", (run_id,)).fetchall()
        by_claim: dict[str, list[dict[str, Any]]] = {}
        for o in outs:
            d = dict(o)
            d["decision"] = json.loads(d["decision"])
            for key in ("rows", "headline"):
                d["decision"].setdefault(key, [] if key == "rows" else {})
            for key in ("error_probability", "counterexample", "figure", "sharpness", "near_miss"):
                d["decision"].setdefault(key, None)  # a decision stored before these fields existed
            d["evidence"] = json.loads(d["evidence"]) if d["evidence"] else None
            d["near_miss"] = bool(d.get("near_miss"))
            by_claim.setdefault(d["claim_id"], []).append(d)
        out = []
        for row in claims:
            d = dict(row)
            d["paper"] = json.loads(d["paper"])
            for key in ("arxiv", "identifier", "url", "not_checked"):
                d["paper"].setdefault(key, None)  # a record stored before these fields existed
            d["paper"].setdefault("authors", [])
            d["params"] = json.loads(d["params"])
            d["reconstructed"] = bool(d["reconstructed"])
            d["near_miss"] = json.loads(d["near_miss"]) if d.get("near_miss") else None
            parts = by_claim.get(d["claim_id"], [])
            d["outcome"] = next((p for p in parts if p["role"] == "claim"), None)
            d["controls"] = [p for p in parts if p["role"] == "control"]
            d["grade"] = grade(d["verdict"], (d["outcome"] or {}).get("decision", {}).get("near_miss"))
            out.append(d)
        # The run's own order (claims may finish in any order on several workers).
        order = {cid: i for i, cid in enumerate(json.loads(selection[0]) if selection else [])}
        return sorted(out, key=lambda d: order.get(d["claim_id"], len(order)))

    def history(self, claim_id: str) -> list[dict[str, Any]]:
        """Every stored verdict of ``claim_id``, oldest first, with run seed, profile and time."""
        with self._guard("read"):
            rows = self.conn.execute(
                "SELECT r.id AS run_id, r.started, r.seed, r.profile, c.verdict, c.note, c.seconds"
                " FROM claims c JOIN runs r ON r.id = c.run_id WHERE c.claim_id=? ORDER BY r.id",
                (claim_id,)).fetchall()
        return [dict(r) for r in rows]

    def last_seconds(self, claim_ids: list[str]) -> dict[str, float]:
        """For each claim that has one, the time it took in the latest stored run (claim and
        controls; a result from the cache keeps the time of the run that computed it)."""
        wanted = set(claim_ids)
        with self._guard("read"):
            rows = self.conn.execute("SELECT claim_id, seconds FROM claims ORDER BY run_id").fetchall()
        return {cid: float(sec) for cid, sec in rows if cid in wanted}

    def previous_verdicts(self, run_id: int) -> dict[str, str]:
        """For each claim, its verdict in the latest earlier run that has it."""
        with self._guard("read"):
            rows = self.conn.execute(
                "SELECT claim_id, verdict FROM claims WHERE run_id < ? ORDER BY run_id", (run_id,)).fetchall()
        return {r[0]: r[1] for r in rows}

    # ---------------------------------------------------------------- sweeps
    def start_sweep(self, claim_id: str, *, grid: dict[str, list[Any]], seed: int, profile: str,
                    metadata: dict[str, Any]) -> int:
        with self._guard("write"), self.conn:
            cur = self.conn.execute(
                "INSERT INTO sweeps (claim_id, started, seed, profile, grid, metadata) VALUES (?,?,?,?,?,?)",
                (claim_id, _now(), seed, profile, json.dumps(grid, default=str), json.dumps(metadata, default=str)))
            return int(cur.lastrowid)

    def record_point(self, sweep_id: int, index: int, params: dict[str, Any], result: ClaimResult) -> None:
        """Commit one grid point of a sweep."""
        o = result.outcome
        with self._guard("write"), self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO sweep_points VALUES (?,?,?,?,?,?,?,?,?,?)",
                (sweep_id, index, json.dumps(params, default=str), o.verdict.value, result.verdict.value,
                 json.dumps([c.verdict.value for _, c in result.controls]), o.decision.summary,
                 json.dumps(o.decision.headline, default=float),
                 json.dumps(o.evidence, default=str) if o.evidence is not None else None, result.seconds))

    def finish_sweep(self, sweep_id: int) -> None:
        with self._guard("write"), self.conn:
            self.conn.execute("UPDATE sweeps SET finished=? WHERE id=?", (_now(), sweep_id))

    def sweep(self, sweep_id: int) -> dict[str, Any]:
        """A stored sweep with its points in grid order.

        Raises:
            StoreError: when there is no such sweep.
        """
        with self._guard("read"):
            row = self.conn.execute("SELECT * FROM sweeps WHERE id=?", (sweep_id,)).fetchone()
            points = self.conn.execute("SELECT * FROM sweep_points WHERE sweep_id=? ORDER BY idx",
                                       (sweep_id,)).fetchall()
        if row is None:
            raise StoreError(f"{self.path} has no sweep {sweep_id}")
        out = dict(row)
        out["grid"] = json.loads(out["grid"])
        out["metadata"] = json.loads(out["metadata"])
        out["points"] = []
        for p in points:
            d = dict(p)
            for k in ("params", "controls", "headline"):
                d[k] = json.loads(d[k])
            d["evidence"] = json.loads(d["evidence"]) if d["evidence"] else None
            out["points"].append(d)
        return out

    def latest_sweeps(self, claim_ids: list[str], upto: int | None = None) -> list[dict[str, Any]]:
        """The latest finished sweep of each grid of each of ``claim_ids``, oldest grid first;
        with ``upto``, among the sweeps with id at most ``upto`` (as a run's report saw them)."""
        out = []
        limit = upto if upto is not None else 2**62
        with self._guard("read"):
            for cid in claim_ids:
                rows = self.conn.execute("SELECT id, grid FROM sweeps WHERE claim_id=? AND finished IS NOT NULL "
                                         "AND id <= ? ORDER BY id", (cid, limit)).fetchall()
                latest = {grid: sweep_id for sweep_id, grid in rows}
                out.extend(sorted(latest.values()))
        return [self.sweep(i) for i in out]

    # ---------------------------------------------------------------- counterexample searches
    def record_search(self, summary: Any, *, seed: int, profile: str, examples: int) -> int:
        """Store a :class:`workbench.counterexamples.SearchSummary`; return its id."""
        from dataclasses import asdict

        outcomes = [asdict(o) | {"sentence": o.sentence(), "role": "claim" if i == 0 else "control"}
                    for i, o in enumerate([summary.claim, *summary.controls])]
        with self._guard("write"), self.conn:
            cur = self.conn.execute(
                "INSERT INTO searches (claim_id, started, seed, profile, examples, space, outcomes, passed)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (summary.claim_id, _now(), seed, profile, examples, json.dumps(summary.space),
                 json.dumps(outcomes, default=str), int(summary.passed)))
            return int(cur.lastrowid)

    def latest_searches(self, claim_ids: list[str], upto: int | None = None) -> list[dict[str, Any]]:
        """The latest counterexample search of each of ``claim_ids`` that has one (with ``upto``,
        among the searches with id at most ``upto``)."""
        out = []
        limit = upto if upto is not None else 2**62
        with self._guard("read"):
            for cid in claim_ids:
                row = self.conn.execute("SELECT * FROM searches WHERE claim_id=? AND id <= ? ORDER BY id DESC LIMIT 1",
                                        (cid, limit)).fetchone()
                if row:
                    d = dict(row)
                    d["space"] = json.loads(d["space"])
                    d["outcomes"] = json.loads(d["outcomes"])
                    out.append(d)
        return out
