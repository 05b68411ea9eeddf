"""The document store at KB_SOURCES_DIR: originals, extracted text, chunks, vectors and one manifest.

  manifest.json          every record (superseded versions too) and a generation number
  docs/<id>/original.*   the bytes as added
  docs/<id>/text.txt     the extracted text (DOCX locations are its lines)
  docs/<id>/chunks.json  chunks with locations; tokens.json their lexical terms; vectors.npy their vectors
  docs/<id>/prices.json  price facts found in its table rows and sentences
  docs/<id>/notes.json   a quote's terms (lead time, payment, tax, validity) with the passages that state them
  staging/<id>/          a document converted and checked, waiting for its embedding job (kb/documents/jobs.py)
  jobs/<id>.json         that job's status: queued, embedding n/N, ready, failed: why

The manifest is the one commit point. A document's folder is written under a temporary name and
renamed into place, then the manifest is replaced (temp file, fsync, rename). A process killed at
any moment leaves either the old manifest (the new folder, unlisted, is never read and is swept by the
next write) or the new one, whose folder is complete. Writers take an exclusive lock on `.lock`.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from indexer.artifact import process_alive
from kb.documents.records import DocumentRecord

MANIFEST = "manifest.json"
FORMAT = 1


@dataclass(frozen=True)
class Manifest:
    generation: int
    records: list[DocumentRecord]

    def current(self) -> list[DocumentRecord]:
        """The documents answered from: every record no newer version has superseded."""
        return [r for r in self.records if r.superseded_by is None]

    def get(self, doc_id: str) -> DocumentRecord | None:
        return next((r for r in self.records if r.id == doc_id), None)


@dataclass(frozen=True)
class Payload:
    """Everything one document adds, written into its folder before the manifest names it."""

    original: bytes
    suffix: str
    text: str
    chunks: list[dict[str, Any]]
    tokens: list[list[str]]
    vectors: np.ndarray | None  # None while staged: the embedding job adds them
    prices: list[dict[str, Any]]
    notes: list[dict[str, Any]]


def _write(path: Path, data: bytes) -> None:
    with path.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _json(data: Any) -> bytes:
    """Compact JSON (without `indent`, json uses its C encoder: 10,000 chunks in a tenth of the time)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Store:
    """One folder of documents; every read goes through the manifest."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.docs = self.root / "docs"
        self.staging = self.root / "staging"
        self.jobs = self.root / "jobs"

    def manifest(self) -> Manifest:
        try:
            data = json.loads((self.root / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return Manifest(0, [])
        return Manifest(int(data["generation"]), [DocumentRecord(**r) for r in data["documents"]])

    def stamp(self) -> tuple[int, int]:
        """A cheap change marker for polling replicas: the manifest's inode and mtime (0s when absent)."""
        try:
            st = (self.root / MANIFEST).stat()
        except FileNotFoundError:
            return (0, 0)
        return (st.st_ino, st.st_mtime_ns)

    @contextmanager
    def locked(self) -> Iterator[Manifest]:
        """Exclusive write access, with the manifest as it stands once the lock is held."""
        self.docs.mkdir(parents=True, exist_ok=True)
        with (self.root / ".lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield self.manifest()
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def commit(self, manifest: Manifest) -> None:
        """Replace the manifest (call under `locked`): the one step that makes a change visible."""
        body = {"format": FORMAT, "generation": manifest.generation,
                "documents": [r.model_dump() for r in manifest.records]}
        tmp = self.root / f".{MANIFEST}.tmp-{os.getpid()}"
        _write(tmp, _json(body))
        os.replace(tmp, self.root / MANIFEST)
        self._sync_dir(self.root)

    def put(self, doc_id: str, payload: Payload) -> None:
        """Write a document's folder whole (call under `locked`, before `commit` names it)."""
        self.sweep(keep=set())
        self._write_folder(self.docs, doc_id, payload)

    def _write_folder(self, parent: Path, doc_id: str, payload: Payload) -> None:
        """`parent/doc_id` written whole under a temporary name, then renamed into place."""
        parent.mkdir(parents=True, exist_ok=True)
        tmp = parent / f".tmp-{doc_id}-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        _write(tmp / f"original{payload.suffix}", payload.original)
        _write(tmp / "text.txt", payload.text.encode("utf-8"))
        _write(tmp / "chunks.json", _json(payload.chunks))
        _write(tmp / "tokens.json", _json(payload.tokens))
        _write(tmp / "prices.json", _json(payload.prices))
        _write(tmp / "notes.json", _json(payload.notes))
        if payload.vectors is not None:
            with (tmp / "vectors.npy").open("wb") as f:
                np.save(f, np.ascontiguousarray(payload.vectors, dtype=np.float32))
                f.flush()
                os.fsync(f.fileno())
        final = parent / doc_id
        if final.exists():  # left by an add that was killed before its commit: never listed, so never read
            shutil.rmtree(final)
        os.rename(tmp, final)
        self._sync_dir(parent)

    def stage(self, doc_id: str, payload: Payload, record: dict[str, Any]) -> None:
        """Keep a checked document (no vectors yet) and its draft record until its embedding job takes it."""
        self._write_folder(self.staging, doc_id, payload)
        _write(self.staging / doc_id / "record.json", _json(record))

    def staged(self, doc_id: str) -> tuple[Payload, dict[str, Any]] | None:
        """A staged document's payload and draft record, or None when nothing is staged under that id."""
        folder = self.staging / doc_id
        try:
            record = json.loads((folder / "record.json").read_text(encoding="utf-8"))
            original = next(folder.glob("original*"))
            read = lambda name: json.loads((folder / name).read_text(encoding="utf-8"))  # noqa: E731
            payload = Payload(original.read_bytes(), original.suffix, (folder / "text.txt").read_text("utf-8"),
                              read("chunks.json"), read("tokens.json"), None, read("prices.json"),
                              read("notes.json"))
        except (FileNotFoundError, StopIteration):
            return None
        return payload, record

    def unstage(self, doc_id: str) -> None:
        shutil.rmtree(self.staging / doc_id, ignore_errors=True)

    def sweep(self, keep: set[str]) -> None:
        """Remove folders no manifest entry names (killed adds, removed documents); call under `locked`."""
        if not self.docs.is_dir():
            return
        listed = {r.id for r in self.manifest().records} | keep
        for p in self.docs.iterdir():
            if p.name.startswith(".tmp-"):
                pid = p.name.rsplit("-", 1)[-1]
                if pid.isdigit() and int(pid) != os.getpid() and process_alive(int(pid)):
                    continue
                shutil.rmtree(p, ignore_errors=True)
            elif p.is_dir() and p.name not in listed:
                shutil.rmtree(p, ignore_errors=True)

    def folder(self, doc_id: str) -> Path:
        return self.docs / doc_id

    def original(self, record: DocumentRecord) -> Path:
        return next(self.folder(record.id).glob("original*"))

    def read_json(self, doc_id: str, name: str) -> Any:
        try:
            return json.loads((self.folder(doc_id) / name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            if name == "notes.json":  # a document stored before notes were kept has none
                return []
            raise

    def vectors(self, doc_id: str) -> np.ndarray:
        return np.load(self.folder(doc_id) / "vectors.npy")

    @staticmethod
    def _sync_dir(path: Path) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
