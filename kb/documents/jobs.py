"""An embedding job's status, kept in the document store beside the documents: every replica and the CLI read it.

A job embeds one staged document (its id is the document's). Its status is one small JSON file written whole
(temp file, rename) at each step: `queued`, `embedding n/N` (after each batch), `ready`, or `failed: why`. The
store is the volume the replicas share, so a job queued on one replica and embedded by another's worker is seen
the same everywhere, with no server running at all for the CLI.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, computed_field

State = Literal["queued", "embedding", "ready", "failed"]
KEEP_DAYS = 7  # finished jobs' statuses are forgotten after this


def now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class JobStatus(BaseModel):
    """Where one document's embedding stands."""

    id: str = Field(description="The document's id: the job embeds that document")
    file: str
    title: str
    state: State
    done: int = Field(default=0, description="Passages embedded so far")
    total: int = Field(description="Passages the document has")
    error: str | None = None
    warnings: list[str] = Field(default_factory=list, description="What kb read but could not use (at add time)")
    created_at: str
    updated_at: str
    seconds_estimate: float | None = Field(default=None, description="How long kb expects the embedding to take")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def status(self) -> str:
        """As a person reads it: "queued", "embedding 1,200/10,000", "ready" or "failed: why"."""
        if self.state == "embedding":
            return f"embedding {self.done:,}/{self.total:,}"
        if self.state == "failed":
            return f"failed: {self.error or 'unknown error'}"
        return self.state


class JobLog:
    """The status files of one store (`<store>/jobs/<id>.json`)."""

    def __init__(self, root: Path) -> None:
        self.folder = Path(root) / "jobs"

    def path(self, doc_id: str) -> Path:
        return self.folder / f"{doc_id}.json"

    def write(self, status: JobStatus) -> JobStatus:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{status.id}.tmp-{os.getpid()}"
        tmp.write_text(status.model_dump_json(exclude={"status"}), encoding="utf-8")
        os.replace(tmp, self.path(status.id))
        return status

    def update(self, status: JobStatus, **changes: object) -> JobStatus:
        return self.write(status.model_copy(update={**changes, "updated_at": now()}))

    def get(self, doc_id: str) -> JobStatus | None:
        try:
            return JobStatus(**json.loads(self.path(doc_id).read_text(encoding="utf-8")))
        except (FileNotFoundError, json.JSONDecodeError, ValueError):
            return None

    def all(self) -> list[JobStatus]:
        """Every job still remembered, newest first (finished ones older than KEEP_DAYS are forgotten)."""
        if not self.folder.is_dir():
            return []
        cutoff = (dt.datetime.now(dt.UTC) - dt.timedelta(days=KEEP_DAYS)).strftime("%Y-%m-%dT%H:%M:%SZ")
        out = []
        for path in self.folder.glob("doc-*.json"):
            status = self.get(path.stem)
            if status is None:
                continue
            if status.state in ("ready", "failed") and status.updated_at < cutoff:
                path.unlink(missing_ok=True)
                continue
            out.append(status)
        return sorted(out, key=lambda s: s.updated_at, reverse=True)

    def rate(self) -> float | None:
        """Seconds a passage the last finished job took to embed on this machine (for estimates), if known."""
        try:
            return float(json.loads((self.folder / "rate.json").read_text(encoding="utf-8"))["seconds_per_chunk"])
        except (FileNotFoundError, json.JSONDecodeError, KeyError, ValueError, TypeError):
            return None

    def set_rate(self, seconds_per_chunk: float) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".rate.tmp-{os.getpid()}"
        tmp.write_text(json.dumps({"seconds_per_chunk": seconds_per_chunk}), encoding="utf-8")
        os.replace(tmp, self.folder / "rate.json")
