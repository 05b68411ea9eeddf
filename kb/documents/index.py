"""One stored document as the index takes it: its chunks (locations completed with its record), vectors, terms.

Adding a document embeds and segments its own chunks once, at add time, and stores the vectors and the
terms beside it; joining reads them back, so nothing is embedded or segmented twice. The index takes them
by id (kb/retrieve/search_index.py): the guide's and the other documents' rows are not touched.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from indexer.chunks import Chunk
from indexer.embedder import Embedder
from kb.documents.prices import PriceFact
from kb.documents.records import DocumentRecord
from kb.documents.store import Store


@dataclass(frozen=True)
class DocumentChunks:
    """Documents' chunks, vectors (one row a chunk), terms and price facts."""

    chunks: list[Chunk]
    vectors: np.ndarray
    tokens: list[list[str]]
    prices: list[PriceFact]


def read_document(store: Store, record: DocumentRecord, embedder: Embedder) -> DocumentChunks:
    """What the store holds for one current document; one embedded by another embedder is embedded again."""
    own = [Chunk(**c) for c in store.read_json(record.id, "chunks.json")]
    cite: dict[str, Any] = {"document": record.id, "title": record.title, "file": record.file, "as_of": record.as_of}
    if record.valid_until:  # a quote's validity goes with every passage of it: an expired one is flagged where cited
        today = dt.datetime.now(dt.UTC).date().isoformat()
        cite |= {"valid_until": record.valid_until, "expired": record.valid_until < today}
    chunks = [replace(c, location=cite | c.location) for c in own]
    v = store.vectors(record.id)
    if record.embedder != embedder.name or v.shape[1:] != (embedder.dim,):
        v = embedder.embed_passages([c.embed_text() for c in own]) if own else np.zeros((0, embedder.dim))
    vectors = np.asarray(v, dtype=np.float32).reshape(len(own), embedder.dim)
    tokens: list[list[str]] = store.read_json(record.id, "tokens.json")
    prices = [PriceFact(**p) for p in store.read_json(record.id, "prices.json")]
    return DocumentChunks(chunks, vectors, tokens, prices)


def together(docs: list[DocumentChunks], dim: int) -> DocumentChunks:
    """Several documents as one batch (one add to the index: one FAISS add, one postings segment)."""
    vectors = np.concatenate([d.vectors for d in docs]) if docs else np.zeros((0, dim), np.float32)
    return DocumentChunks([c for d in docs for c in d.chunks], vectors, [t for d in docs for t in d.tokens],
                          [p for d in docs for p in d.prices])
