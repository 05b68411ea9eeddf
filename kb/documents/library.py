"""Adding and removing documents: convert, chunk, find price rows, embed the new chunks, store atomically.

Every front end calls this (the CLI's `kb docs`, `POST /v1/documents`); what it refuses is BadInput,
before anything is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePath

import numpy as np

from indexer.documents.chunking import document_chunks
from indexer.documents.convert import convert, format_of
from indexer.documents.segments import Unreadable
from indexer.embedder import Embedder
from indexer.lexical import tokenize_corpus
from kb.documents.prices import PriceFact, row_prices
from kb.documents.records import DocumentRecord, clean_name, clean_title, date_in, parse_date
from kb.documents.store import Manifest, Payload, Store
from kb.errors import BadInput


@dataclass(frozen=True)
class Added:
    """What an add did: the record, whether those bytes were there already, and the version it replaced."""

    record: DocumentRecord
    existed: bool = False
    superseded: str | None = None


def document_id(data: bytes) -> str:
    """Stable for the same bytes, whoever adds them and whenever."""
    return "doc-" + hashlib.sha256(data).hexdigest()[:12]


class Library:
    """The store plus what adding needs: the corpus (to know GPU names), the embedder, limits."""

    def __init__(self, root: Path, corpus_dir: Path, embedder: Callable[[], Embedder], *, usd_cny: float = 7.2,
                 max_bytes: int = 20 << 20) -> None:
        self.store = Store(root)
        self.corpus_dir = corpus_dir
        self._embedder = embedder
        self.usd_cny = usd_cny
        self.max_bytes = max_bytes

    def records(self) -> list[DocumentRecord]:
        return self.store.manifest().current()

    def get(self, doc_id: str) -> DocumentRecord:
        record = self.store.manifest().get(doc_id)
        if record is None:
            raise BadInput(f"no document with id {doc_id!r}; `kb docs list` shows the ids", field="id")
        return record

    def prices(self) -> list[PriceFact]:
        """Every price fact of the documents answered from (superseded versions' prices are gone)."""
        out: list[PriceFact] = []
        for r in self.records():
            out += [PriceFact(**p) for p in self.store.read_json(r.id, "prices.json")]
        return out

    def add(self, data: bytes, name: str, title: str | None = None, as_of: str | None = None) -> Added:
        """Add one file's bytes under `name`; the same bytes again are a no-op that names the document."""
        name = clean_name(name)
        try:
            fmt = format_of(name)
        except Unreadable as e:
            raise BadInput(str(e), field="file") from None
        title = clean_title(title, PurePath(name).stem)
        flag_date = parse_date(as_of) if as_of is not None else None
        doc_id = document_id(data)
        existing = self.store.manifest().get(doc_id)
        if existing is not None:
            return Added(existing, existed=True)
        try:
            converted = convert(data, name, self.max_bytes)
        except Unreadable as e:
            raise BadInput(str(e), field="file") from None
        text = converted.plain_text()
        content_date = date_in(text)
        today = dt.datetime.now(dt.UTC).date().isoformat()
        when, source = next((d, s) for d, s in ((flag_date, "flag"), (content_date, "content"),
                                               (converted.metadata_date, "metadata"), (today, "added")) if d)
        suffix = PurePath(name).suffix.lower()
        pairs = document_chunks(doc_id, f"docs/{doc_id}/original{suffix}", converted)
        chunks = [c for c, _ in pairs]
        cite = {"document": doc_id, "title": title, "file": name}
        prices = [p for c, seg in pairs if seg.cells
                  for p in row_prices(seg.cells, corpus_dir=self.corpus_dir, usd_cny=self.usd_cny, as_of=when,
                                      document=cite, chunk_id=c.id, location=c.location)]
        embedder = self._embedder()
        vectors = embedder.embed_passages([c.embed_text() for c in chunks]) if chunks else \
            np.zeros((0, embedder.dim), np.float32)
        record = DocumentRecord(
            id=doc_id, title=title, file=name, format=fmt, size=len(data), sha256=hashlib.sha256(data).hexdigest(),
            added_at=dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), as_of=str(when),
            as_of_from=source, chunks=len(chunks), price_rows=len({p.chunk_id for p in prices}),  # type: ignore[arg-type]
            embedder=embedder.name,
        )
        payload = Payload(data, suffix, text, [c.to_dict() for c in chunks],
                          [tokenize_corpus(f"{c.heading}\n{c.text}") for c in chunks], vectors,
                          [p.model_dump() for p in prices])
        with self.store.locked() as manifest:
            if manifest.get(doc_id) is not None:  # another writer added the same bytes meanwhile
                return Added(manifest.get(doc_id), existed=True)  # type: ignore[arg-type]
            self.store.put(doc_id, payload)
            old = next((r for r in manifest.current() if r.file == name), None)
            records = [r.model_copy(update={"superseded_by": doc_id}) if old and r.id == old.id else r
                       for r in manifest.records]
            record = record.model_copy(update={"supersedes": old.id if old else None})
            self.store.commit(Manifest(manifest.generation + 1, [*records, record]))
        return Added(record, superseded=old.id if old else None)

    def remove(self, doc_id: str) -> DocumentRecord:
        """Remove a document and the versions it superseded: their chunks leave the index with them."""
        with self.store.locked() as manifest:
            record = manifest.get(doc_id)
            if record is None:
                raise BadInput(f"no document with id {doc_id!r}; `kb docs list` shows the ids", field="id")
            gone = {doc_id}
            while True:  # the chain of older versions under the same name
                older = {r.id for r in manifest.records if r.superseded_by in gone} - gone
                if not older:
                    break
                gone |= older
            kept = [r for r in manifest.records if r.id not in gone]
            self.store.commit(Manifest(manifest.generation + 1, kept))
            self.store.sweep(keep=set())
        return record
