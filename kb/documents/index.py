"""The guide's index joined by the current documents' chunks: one list of chunks, one set of vectors, one BM25.

Adding a document embeds only its own chunks (at add time, stored beside it); joining reads those vectors
and the lexical terms stored with them, so nothing is embedded or segmented twice. BM25's weights depend on
every chunk (document frequencies, lengths), so the postings are recomputed over the cached terms: ~0.1 s
for the guide and a few documents. The guide's own terms are cut once a process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from indexer.chunks import Chunk
from indexer.embedder import Embedder
from indexer.lexical import Bm25Index, tokenize_corpus
from kb.documents.prices import PriceFact
from kb.documents.records import DocumentRecord
from kb.documents.store import Store
from kb.index import LoadedIndex


@dataclass(frozen=True)
class DocumentChunks:
    """The current documents' chunks (locations completed with their record), vectors and terms."""

    records: list[DocumentRecord]
    chunks: list[Chunk]
    vectors: np.ndarray
    tokens: list[list[str]]
    prices: list[PriceFact]


def read_documents(store: Store, embedder: Embedder) -> DocumentChunks:
    """Everything the current manifest names; a document embedded by another embedder is embedded again."""
    records = store.manifest().current()
    chunks: list[Chunk] = []
    vectors: list[np.ndarray] = []
    tokens: list[list[str]] = []
    prices: list[PriceFact] = []
    for r in records:
        own = [Chunk(**c) for c in store.read_json(r.id, "chunks.json")]
        cite = {"document": r.id, "title": r.title, "file": r.file, "as_of": r.as_of}
        chunks += [replace(c, location=cite | c.location) for c in own]
        v = store.vectors(r.id)
        if r.embedder != embedder.name or v.shape[1:] != (embedder.dim,):
            v = embedder.embed_passages([c.embed_text() for c in own]) if own else np.zeros((0, embedder.dim))
        vectors.append(np.asarray(v, dtype=np.float32).reshape(len(own), embedder.dim))
        tokens += store.read_json(r.id, "tokens.json")
        prices += [PriceFact(**p) for p in store.read_json(r.id, "prices.json")]
    matrix = np.concatenate(vectors) if vectors else np.zeros((0, embedder.dim), np.float32)
    return DocumentChunks(records, chunks, matrix, tokens, prices)


def guide_tokens(index: LoadedIndex) -> list[list[str]]:
    """The lexical terms of the guide's chunks, cut exactly as `indexer/build.py` cuts them."""
    return [tokenize_corpus(f"{c.heading}\n{c.text}\n{c.heading_en}\n{c.text_en}") for c in index.chunks]


class Lexicons:
    """Folders for the joined BM25's query dictionary (jieba reads it from a file), one per process."""

    def __init__(self) -> None:
        self._dir: Path | None = None

    def write(self, lexical: Bm25Index) -> Bm25Index:
        old = self._dir
        self._dir = Path(tempfile.mkdtemp(prefix=f"kb-lexicon-{os.getpid()}-"))
        lexical.save(self._dir)
        loaded = Bm25Index.load(self._dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return loaded


def joined(guide: LoadedIndex, tokens: list[list[str]], docs: DocumentChunks, lexicons: Lexicons) -> LoadedIndex:
    """The guide's index with the documents' chunks after its own (rows of the guide are unchanged)."""
    if not docs.chunks:
        return guide
    lexical = lexicons.write(Bm25Index.build(tokens + docs.tokens))
    vectors = np.ascontiguousarray(np.vstack([guide.vectors, docs.vectors]), dtype=np.float32)
    return LoadedIndex(guide.folder, guide.manifest, guide.chunks + docs.chunks, vectors, lexical, guide.glossary)
