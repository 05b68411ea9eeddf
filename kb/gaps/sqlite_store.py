"""The gap log in one local SQLite file (KB_GAPS_PATH): for a single replica, or the CLI without Redis."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from kb.gaps.entries import DAY_S, group, shortfalls

_SCHEMA = """CREATE TABLE IF NOT EXISTS gaps (
    at REAL NOT NULL, question TEXT NOT NULL, kind TEXT NOT NULL, names TEXT NOT NULL DEFAULT '[]')"""


class GapLog:
    """One SQLite file; safe across threads (a lock) and processes (SQLite's own locking)."""

    errors: tuple[type[Exception], ...] = (OSError, sqlite3.Error)

    def __init__(self, path: Path, retention_days: float = 30.0) -> None:
        self.path, self.retention_s = Path(path), retention_days * DAY_S
        self._lock = threading.Lock()

    def _db(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=5)
        db.execute(_SCHEMA)
        return db

    def _forget(self, db: sqlite3.Connection, now: float) -> None:
        db.execute("DELETE FROM gaps WHERE at < ?", (now - self.retention_s,))

    def record(self, question: str, coverage: str, unknown: list[str], now: float | None = None,
               about: list[str] | None = None) -> bool:
        """Keep the question if kb fell short on it, with what it was about; True when it was kept."""
        kinds = shortfalls(coverage, unknown)
        if not kinds:
            return False
        now = time.time() if now is None else now
        with self._lock, self._db() as db:
            self._forget(db, now)
            db.executemany("INSERT INTO gaps (at, question, kind, names) VALUES (?, ?, ?, ?)",
                           [(now, question, k, json.dumps(unknown if k == "unknown" else about or [],
                                                          ensure_ascii=False)) for k in kinds])
        return True

    def thumbs_down(self, question: str, now: float | None = None, about: list[str] | None = None) -> None:
        """A 👎 or a "wrong" flag on an answer (Slack, the web page): the question is kept as marked wrong."""
        now = time.time() if now is None else now
        with self._lock, self._db() as db:
            self._forget(db, now)
            db.execute("INSERT INTO gaps (at, question, kind, names) VALUES (?, ?, 'wrong', ?)",
                       (now, question, json.dumps(about or [], ensure_ascii=False)))

    def summary(self, since_s: float | None = None, now: float | None = None, top: int = 20) -> dict[str, Any]:
        """Grouped: unknown names by how often asked, and the questions of each kind by how often asked."""
        now = time.time() if now is None else now
        window = since_s if since_s is not None else self.retention_s
        with self._lock, self._db() as db:
            self._forget(db, now)
            rows = db.execute("SELECT question, kind, names FROM gaps WHERE at >= ?", (now - window,)).fetchall()
        return group(((q, kind, json.loads(raw)) for q, kind, raw in rows), window, top)
