"""What people asked that kb could not answer, so a team knows which document to add next.

For every question answered `partial` or `not_covered`, or naming something kb has no record for, the
question text is kept (never who asked) with its coverage and unknown names, in a local SQLite file
(KB_GAPS_PATH), for KB_GAPS_RETENTION_DAYS (30): older rows are deleted on every write and every read.
`kb gaps` and GET /v1/gaps group them: the unknown names most asked, the questions not covered, the
partial ones, and those marked wrong.
"""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from kb.errors import BadInput

_SINCE = re.compile(r"^(\d+)\s*([dhm])$")
_SCHEMA = """CREATE TABLE IF NOT EXISTS gaps (
    at REAL NOT NULL, question TEXT NOT NULL, kind TEXT NOT NULL, names TEXT NOT NULL DEFAULT '[]')"""


def parse_since(text: str) -> float:
    """Seconds in "7d", "12h" or "30m"; BadInput saying the form otherwise."""
    m = _SINCE.match(text.strip().lower())
    if not m:
        raise BadInput(f"--since {text!r}: give a number and d, h or m, e.g. 7d", field="since")
    return int(m.group(1)) * {"d": 86400, "h": 3600, "m": 60}[m.group(2)]


class GapLog:
    """One SQLite file; safe across threads (a lock) and processes (SQLite's own locking)."""

    def __init__(self, path: Path, retention_days: float = 30.0) -> None:
        self.path, self.retention_s = Path(path), retention_days * 86400
        self._lock = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=5)
        db.execute(_SCHEMA)
        return db

    def _forget(self, db: sqlite3.Connection, now: float) -> None:
        db.execute("DELETE FROM gaps WHERE at < ?", (now - self.retention_s,))

    def record(self, question: str, coverage: str, unknown: list[str], now: float | None = None) -> bool:
        """Keep the question if kb fell short on it; True when it was kept."""
        kinds = [k for k, hit in (("not_covered", coverage == "not_covered"), ("partial", coverage == "partial"),
                                  ("unknown", bool(unknown))) if hit]
        if not kinds:
            return False
        now = time.time() if now is None else now
        with self._lock, self._db() as db:
            self._forget(db, now)
            db.executemany("INSERT INTO gaps (at, question, kind, names) VALUES (?, ?, ?, ?)",
                           [(now, question, k, json.dumps(unknown if k == "unknown" else [], ensure_ascii=False))
                            for k in kinds])
        return True

    def thumbs_down(self, question: str, now: float | None = None) -> None:
        """A 👎 on an answer (Slack): the question is kept as marked wrong."""
        now = time.time() if now is None else now
        with self._lock, self._db() as db:
            self._forget(db, now)
            db.execute("INSERT INTO gaps (at, question, kind) VALUES (?, ?, 'wrong')", (now, question))

    def summary(self, since_s: float | None = None, now: float | None = None, top: int = 20) -> dict[str, Any]:
        """Grouped: unknown names by how often asked, and the questions of each kind by how often asked."""
        now = time.time() if now is None else now
        with self._lock, self._db() as db:
            self._forget(db, now)
            rows = db.execute("SELECT question, kind, names FROM gaps WHERE at >= ?",
                              (now - (since_s if since_s is not None else self.retention_s),)).fetchall()
        names: Counter[str] = Counter()
        by_kind: dict[str, Counter[str]] = {"not_covered": Counter(), "partial": Counter(), "wrong": Counter()}
        for question, kind, raw in rows:
            if kind == "unknown":
                names.update(json.loads(raw))
            elif kind in by_kind:
                by_kind[kind][question] += 1
        return {"since_days": round((since_s or self.retention_s) / 86400, 2),
                "unknown_names": [{"name": n, "asked": c} for n, c in names.most_common(top)],
                **{kind: [{"question": q, "asked": c} for q, c in counter.most_common(top)]
                   for kind, counter in by_kind.items()}}


def gap_log(settings: Any) -> GapLog:
    """The settings' gap log: KB_GAPS_PATH, else gaps.sqlite in the document store's folder."""
    path = settings.gaps_path or Path(settings.sources_dir) / "gaps.sqlite"
    return GapLog(path, settings.gaps_retention_days)


def record_quietly(log: GapLog, question: str, coverage: str, unknown: list[str]) -> None:
    """Record, never failing the answer it follows (a read-only disk is a lost record, not an error)."""
    with contextlib.suppress(OSError, sqlite3.Error):
        log.record(question, coverage, unknown)
