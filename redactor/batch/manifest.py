"""The manifest of a batch run: one SQLite row per input, the single record of what is done.

Only the parent process of a run writes it (workers send their results back), and one run
at a time holds it (an exclusive lock on ``<manifest>.lock``, released by the kernel even
when the run is killed). WAL mode lets anyone read it while a run is going
(``sqlite3 FILE "select status, count(*) from inputs group by status"``); every state
change is its own committed transaction with ``synchronous=FULL``, so what the manifest
says survives a crash or a power cut.

A row is ``done`` only after its outputs are in place. Before writing them the run records
the outputs' sha256 (the write intent); a run killed between the two finds, on restart, a
``running`` row whose outputs are all present with those hashes and marks it done without
redoing it. Any other ``running`` row was interrupted and is redone.
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from redactor.errors import InputError, OutputError

SCHEMA_VERSION = 1
STATUSES = ("pending", "running", "done", "failed", "quarantined")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
    rel_path      TEXT PRIMARY KEY,           -- relative to SRC, '/'-separated
    sha256        TEXT,                       -- of the bytes that were redacted
    size          INTEGER,
    mtime_ns      INTEGER,
    status        TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN ({", ".join(repr(s) for s in STATUSES)})),
    error         TEXT,
    attempts      INTEGER NOT NULL DEFAULT 0, -- times handed to a worker
    crashes       INTEGER NOT NULL DEFAULT 0, -- worker deaths while holding this input
    pages         INTEGER,
    redactions    INTEGER,
    verification  TEXT,                       -- 'not run', 'passed', 'failed' + detail JSON
    config        TEXT,                       -- fingerprint of the pipeline configuration
    outputs       TEXT,                       -- JSON {{relative output path: sha256}}
    worker        TEXT,                       -- pid or Ray actor of the last attempt
    queued_at     REAL,
    finished_at   REAL,
    worker_seconds REAL                       -- time the worker spent on it
);
CREATE INDEX IF NOT EXISTS inputs_status ON inputs(status);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at REAL NOT NULL, finished_at REAL,
    executor TEXT, workers INTEGER, config TEXT,
    done INTEGER, failed INTEGER, skipped INTEGER, quarantined INTEGER,
    interrupted INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True)
class Row:
    rel_path: str
    sha256: str | None
    size: int | None
    mtime_ns: int | None
    status: str
    error: str | None
    attempts: int
    crashes: int
    pages: int | None
    redactions: int | None
    verification: str | None
    config: str | None
    outputs: dict[str, str]
    worker: str | None

    @classmethod
    def from_sql(cls, r: sqlite3.Row) -> "Row":
        return cls(r["rel_path"], r["sha256"], r["size"], r["mtime_ns"], r["status"], r["error"],
                   r["attempts"], r["crashes"], r["pages"], r["redactions"], r["verification"],
                   r["config"], json.loads(r["outputs"] or "{}"), r["worker"])


class Manifest:
    """An open manifest, locked for this run."""

    def __init__(self, path: Path, src: Path, dst: Path):
        self.path = Path(path)
        self._lock = self._acquire_lock()
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(_SCHEMA)
            self._check_meta(src, dst)
        except sqlite3.OperationalError as exc:
            # a full disk or an unwritable folder: the manifest cannot be written, not bad input
            self.close()
            raise OutputError(f"manifest {self.path} cannot be written: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self.close()
            raise InputError(f"manifest {self.path} cannot be used: {exc}") from None

    def _acquire_lock(self):
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fh = open(self.path.with_name(self.path.name + ".lock"), "a+")
        except OSError as exc:
            raise OutputError(f"cannot create manifest {self.path}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.close()
            raise InputError(f"manifest {self.path} is in use by another batch run") from None
        return fh

    def _check_meta(self, src: Path, dst: Path) -> None:
        meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
        want = {"schema": str(SCHEMA_VERSION), "src": str(Path(src).resolve()),
                "dst": str(Path(dst).resolve())}
        if not meta:
            with self.transaction():
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(want.items()))
            return
        if meta.get("schema") != want["schema"]:
            raise InputError(f"manifest {self.path} has schema {meta.get('schema')}, "
                             f"this version writes {SCHEMA_VERSION}; use a new --manifest")
        for key in ("src", "dst"):
            if meta.get(key) != want[key]:
                raise InputError(f"manifest {self.path} records {key.upper()} {meta.get(key)}, "
                                 f"not {want[key]}; use another --manifest for another folder")

    @contextlib.contextmanager
    def transaction(self):
        """One committed state change. SQLite's own failures (above all a full disk: "database
        or disk is full") are the run's output failing to be written, as for any output."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            raise OutputError(f"manifest {self.path} cannot be written: {exc}") from None

    def close(self) -> None:
        db = getattr(self, "db", None)
        if db is not None:
            db.close()
            self.db = None
        if self._lock is not None:
            self._lock.close()   # releases the flock
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- reading --------------------------------------------------------------------------
    def rows(self) -> dict[str, Row]:
        return {r["rel_path"]: Row.from_sql(r) for r in self.db.execute("SELECT * FROM inputs")}

    def counts(self, rels: list[str] | None = None) -> dict[str, int]:
        """Rows per status, over ``rels`` (default: every row)."""
        out = dict.fromkeys(STATUSES, 0)
        if rels is None:
            for status, n in self.db.execute("SELECT status, count(*) FROM inputs GROUP BY status"):
                out[status] = n
        else:
            rows = self.rows()
            for rel in rels:
                if rel in rows:
                    out[rows[rel].status] += 1
        return out

    # -- state changes (each one committed) ------------------------------------------------
    def add_pending(self, items) -> None:
        """Rows for inputs seen for the first time (``items``: rel, size, mtime_ns)."""
        with self.transaction() as db:
            db.executemany("INSERT OR IGNORE INTO inputs (rel_path, size, mtime_ns, status) "
                           "VALUES (?, ?, ?, 'pending')", items)

    def update_stat(self, rel: str, size: int, mtime_ns: int) -> None:
        """The file was touched but its content hash is unchanged."""
        with self.transaction() as db:
            db.execute("UPDATE inputs SET size=?, mtime_ns=? WHERE rel_path=?", (size, mtime_ns, rel))

    def mark_running(self, rel: str, config: str, worker: str | None) -> None:
        with self.transaction() as db:
            db.execute("UPDATE inputs SET status='running', attempts=attempts+1, config=?, "
                       "worker=?, error=NULL, outputs=NULL, queued_at=?, finished_at=NULL "
                       "WHERE rel_path=?", (config, worker, time.time(), rel))

    def record_write_intent(self, rel: str, outputs: dict[str, str], *, sha256: str,
                            size: int, mtime_ns: int) -> None:
        """Before the outputs are written: their hashes, and what input they come from."""
        with self.transaction() as db:
            db.execute("UPDATE inputs SET outputs=?, sha256=?, size=?, mtime_ns=? WHERE rel_path=?",
                       (json.dumps(outputs, sort_keys=True), sha256, size, mtime_ns, rel))

    def mark_done(self, rel: str, *, pages: int, redactions: int, verification: str,
                  worker_seconds: float) -> None:
        with self.transaction() as db:
            db.execute("UPDATE inputs SET status='done', pages=?, redactions=?, verification=?, "
                       "worker_seconds=?, error=NULL, finished_at=? WHERE rel_path=?",
                       (pages, redactions, verification, worker_seconds, time.time(), rel))

    def mark_recovered(self, rel: str) -> None:
        """A run died after writing this input's outputs and before recording them."""
        with self.transaction() as db:
            db.execute("UPDATE inputs SET status='done', finished_at=? WHERE rel_path=?",
                       (time.time(), rel))

    def mark_failed(self, rel: str, error: str, *, status: str = "failed",
                    sha256: str | None = None, pages: int | None = None,
                    verification: str | None = None, worker_seconds: float | None = None,
                    crashed: bool = False, outputs: dict[str, str] | None = None) -> None:
        """``outputs``: files kept aside (the quarantine folder), removed when it is redone."""
        assert status in ("failed", "quarantined")
        with self.transaction() as db:
            db.execute("UPDATE inputs SET status=?, error=?, sha256=coalesce(?, sha256), "
                       "pages=?, redactions=NULL, verification=?, worker_seconds=?, outputs=?, "
                       "crashes=crashes+?, finished_at=? WHERE rel_path=?",
                       (status, error, sha256, pages, verification, worker_seconds,
                        json.dumps(outputs, sort_keys=True) if outputs else None,
                        int(crashed), time.time(), rel))

    def count_crash(self, rel: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE inputs SET crashes=crashes+1 WHERE rel_path=?", (rel,))

    def release(self, rels: list[str]) -> None:
        """Inputs handed out when the run was interrupted go back to pending."""
        with self.transaction() as db:
            db.executemany("UPDATE inputs SET status='pending', outputs=NULL "
                           "WHERE rel_path=? AND status='running'", [(r,) for r in rels])

    def start_run(self, executor: str, workers: int, config: str) -> int:
        with self.transaction() as db:
            cur = db.execute("INSERT INTO runs (started_at, executor, workers, config) "
                             "VALUES (?, ?, ?, ?)", (time.time(), executor, workers, config))
            return int(cur.lastrowid)

    def finish_run(self, run_id: int, summary: dict[str, int], interrupted: bool) -> None:
        with self.transaction() as db:
            db.execute("UPDATE runs SET finished_at=?, done=?, failed=?, skipped=?, quarantined=?, "
                       "interrupted=? WHERE id=?",
                       (time.time(), summary.get("done", 0), summary.get("failed", 0),
                        summary.get("skipped", 0), summary.get("quarantined", 0),
                        int(interrupted), run_id))
