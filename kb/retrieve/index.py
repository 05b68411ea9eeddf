"""Opening the index artifact: verify it, match its embedder, rebuild it when the corpus moved on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import faiss
import numpy as np

from indexer.artifact import Manifest, read_manifest, verify_files
from indexer.chunks import Chunk
from indexer.embedder import Embedder, make_embedder
from indexer.freshness import embedder_name, staleness
from indexer.postings import Postings
from kb.retrieve.sentences import Sentences

if TYPE_CHECKING:
    from indexer.build import Progress
from kb.errors import IndexUnavailable
from kb.settings import Settings

REBUILD = "kb index"


@dataclass
class LoadedIndex:
    """A verified artifact in memory: the guide's chunks by FAISS row, vectors, postings, glossary.

    Read-only: kb/retrieve/search_index.py copies it into the structures search changes (the guide is a few
    hundred chunks, so its vectors here are the only ones kept twice; teams' documents are not)."""

    folder: Path
    manifest: Manifest
    chunks: list[Chunk]
    vectors: np.ndarray  # (n, dim), L2-normalised
    lexical: Postings  # term frequencies and lengths: BM25 is weighed at query time (kb/retrieve/lexical.py)
    glossary: list[tuple[list[str], list[str]]]
    sentences: Sentences = field(default_factory=lambda: Sentences({}, np.zeros((0, 0), np.float32)))  # each prose
    # sentence's vector, for quoting the one that holds what was asked (none for an index built in a test)

    def by_id(self) -> dict[str, int]:
        return {c.id: row for row, c in enumerate(self.chunks)}


def load_index(folder: Path, expected_embedder: str | None = None) -> LoadedIndex:
    """Load and verify the artifact at `folder`; every failure says how to fix it."""
    manifest = read_manifest(folder, REBUILD)
    if expected_embedder is not None and manifest.embedder != expected_embedder:
        raise IndexUnavailable(
            f"index at {folder} was built with embedder {manifest.embedder!r} but kb is set to use "
            f"{expected_embedder!r}: rebuild with `{REBUILD}`, or set KB_EMBEDDER to match the index"
        )
    verify_files(folder, manifest, REBUILD)
    try:
        raw: list[dict[str, Any]] = json.loads((folder / "chunks.json").read_text(encoding="utf-8"))
        chunks = [Chunk(**c) for c in raw]
        flat = faiss.read_index(str(folder / "vectors.faiss"))
        vectors = flat.reconstruct_n(0, flat.ntotal) if flat.ntotal else np.zeros((0, flat.d), np.float32)
        lexical = Postings.load(folder)
        glossary = [(list(en), list(zh)) for en, zh in
                    json.loads((folder / "glossary.json").read_text(encoding="utf-8"))]
        said = Sentences.load(folder, chunks)
    except (OSError, ValueError, TypeError, LookupError, RuntimeError) as e:
        raise IndexUnavailable(f"index at {folder} cannot be read ({e}); rebuild with `{REBUILD}`") from None
    if flat.d != manifest.dim or len(chunks) != flat.ntotal or lexical.n_docs != len(chunks):
        raise IndexUnavailable(f"index at {folder} is inconsistent (vectors, chunks and BM25 disagree); "
                          f"rebuild with `{REBUILD}`")
    return LoadedIndex(folder, manifest, chunks, np.ascontiguousarray(vectors, dtype=np.float32), lexical, glossary,
                       said)


def is_stale(folder: Path, corpus_dir: Path) -> bool:
    """True when the artifact is missing or damaged, or was built from another corpus or by other indexing code."""
    return staleness(folder, corpus_dir) is not None


def open_index(settings: Settings, embedder: Embedder | None = None, build_if_needed: bool = True,
               progress: Progress | None = None) -> tuple[LoadedIndex, Embedder]:
    """The index for these settings and the embedder that queries it, building it first if needed."""
    folder, corpus = settings.index_dir, settings.corpus_dir
    if build_if_needed and corpus.is_dir() and is_stale(folder, corpus):
        embedder = embedder or make_embedder(settings.embedder)
        from indexer.build import build_index  # building is rare: a query on a current index never imports it

        build_index(corpus, folder, embedder, progress)
    index = load_index(folder, embedder.name if embedder else embedder_name(settings.embedder))
    return index, embedder or make_embedder(settings.embedder)
