"""👍 / 👎 votes appended to a local JSONL file: one line a vote, the voter's id hashed, never a token."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kb.gaps.entries import GapStore, thumbs_down_quietly
from kb.language import Language

try:  # an advisory lock keeps lines whole across worker processes; threads share the lock below
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]


def hash_user(user_id: str, salt: bytes) -> str:
    """A stable pseudonym: HMAC-SHA256 of the Slack user id under a secret salt, so ids cannot be guessed back."""
    return hmac.new(salt, user_id.encode(), hashlib.sha256).hexdigest()


class FeedbackLog:
    """Appends vote records to path; each record is one write of one line, under a thread and a file lock."""

    def __init__(self, path: Path, salt: bytes, gaps: GapStore | None = None) -> None:
        self.path = path
        self._salt = salt
        self._lock = threading.Lock()
        self.gaps = gaps  # a 👎 is also a question kb answered wrongly: `kb gaps` lists it (no user id)

    def record(self, *, vote: str, question: str, language: Language, passages: list[str], user_id: str,
               team_id: str | None = None, message: str | None = None,
               about: list[str] | None = None) -> dict[str, Any]:
        """Append one vote and return the record as written."""
        rec: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="seconds"),
            "vote": vote, "question": question, "language": language, "passages": passages,
            "user": hash_user(f"{team_id or ''}:{user_id}", self._salt),
            "message": message,  # "channel/ts" of the answer voted on: lets a reader count one vote a user
        }
        line = (json.dumps(rec, ensure_ascii=False) + "\n").encode()
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            try:
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                while line:  # a regular file takes it in one write; loop in case it does not
                    line = line[os.write(fd, line):]
            finally:
                os.close(fd)  # closing releases the flock
        if vote == "down" and self.gaps is not None:
            thumbs_down_quietly(self.gaps, question, about)
        return rec
