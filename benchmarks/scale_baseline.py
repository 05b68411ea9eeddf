"""benchmarks/scale.py's baseline: search at scale as kb did it before this branch, run in the same session.

Dense: kb/retrieve/dense.py as it was (IVF with √n lists, inner-product k-means, nprobe 16, no direct map), with the
vectors also held in numpy for the candidates' cosine (LoadedIndex.vectors). Lexical: the numpy postings
with query-time BM25 that the previous benchmark measured (every row scored into a dense array, then the
top CANDIDATES by argpartition). Fusion: kb/retrieve/search.py as it was. A document's add or removal re-joined
everything (kb/documents/index.py then: every document's vectors stacked, BM25 and FAISS built again), so
its cost is the build's, measured here.
"""

from __future__ import annotations

import math
import time
from typing import Any

import faiss
import numpy as np

from benchmarks.scale_data import DIM, VOCAB, Synthetic, recall_at_10
from benchmarks.scale_report import load, ms, p50, p95, rss_mb

CANDIDATES, NPROBE, TRAIN_SAMPLE = 256, 16, 40


class Postings:
    """CSR postings (term → rows, tf), document lengths, a deleted mask; BM25 weighed at query time."""

    def __init__(self, terms: np.ndarray) -> None:
        n, width = terms.shape
        rows = np.repeat(np.arange(n, dtype=np.int64), width)
        key = terms.ravel().astype(np.int64) * n + rows
        uniq, tf = np.unique(key, return_counts=True)
        self.term, self.row, self.tf = uniq // n, (uniq % n).astype(np.int32), tf.astype(np.float32)
        self.ptr = np.searchsorted(self.term, np.arange(VOCAB + 1))
        self.length = np.full(n, width, np.float32)
        self.deleted = np.zeros(n, bool)

    def scores(self, query_terms: list[int]) -> np.ndarray:
        n = len(self.length)
        live = n - int(self.deleted.sum())
        avgdl = float(self.length.mean())
        scores = np.zeros(n, np.float32)
        for t in query_terms:
            lo, hi = self.ptr[t], self.ptr[t + 1]
            rows, tf = self.row[lo:hi], self.tf[lo:hi]
            df = hi - lo
            idf = np.log(1 + (live - df + 0.5) / (df + 0.5))
            scores[rows] += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * self.length[rows] / avgdl))
        scores[self.deleted] = 0
        return scores


def _minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = float(x.min()), float(x.max())
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def _ivf(vectors: np.ndarray) -> tuple[Any, Any]:
    n = len(vectors)
    nlist = int(math.sqrt(n))
    quantizer = faiss.IndexFlatIP(DIM)
    ivf: Any = faiss.IndexIVFFlat(quantizer, DIM, nlist, faiss.METRIC_INNER_PRODUCT)
    ivf.train(vectors[np.random.default_rng(0).choice(n, min(n, nlist * TRAIN_SAMPLE), replace=False)])
    ivf.nprobe = NPROBE
    ivf.add_with_ids(vectors, np.arange(n, dtype=np.int64))
    return ivf, quantizer


def _search(ivf: Any, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    scores, rows = ivf.search(q.reshape(1, -1), k)
    return scores[0], rows[0]


def run(n: int, per_doc: int, search_threads: int) -> dict[str, Any]:
    base = rss_mb()
    data = Synthetic(n)
    vectors = np.empty((n, DIM), np.float32)  # LoadedIndex.vectors: the copy beside FAISS's
    terms = np.empty((n, 40), np.int32)
    for start, x, t in data.batches():
        vectors[start:start + len(x)], terms[start:start + len(x)] = x, t
    started = time.perf_counter()
    ivf, quantizer = _ivf(vectors)
    dense_s = time.perf_counter() - started
    started = time.perf_counter()
    postings = Postings(terms)
    lexical_s = time.perf_counter() - started
    out: dict[str, Any] = {"built": {"dense_build_s": dense_s, "lexical_build_s": lexical_s,
                                     "vectors_mb": vectors.nbytes / 2**20 * 2,
                                     "postings_mb": (postings.row.nbytes + postings.tf.nbytes
                                                     + postings.term.nbytes) / 2**20}}
    out["rss_after_build_mb"] = rss_mb(current=True) - base
    faiss.omp_set_num_threads(search_threads)  # built on every core; searched on a replica's share

    def hybrid(q: np.ndarray, qt: list[int]) -> list[int]:
        _, d_rows = _search(ivf, q, CANDIDATES)
        lexical = postings.scores(qt)
        rows = np.unique(np.concatenate([d_rows, np.argpartition(-lexical, CANDIDATES)[:CANDIDATES]]))
        fused = 0.5 * _minmax(vectors[rows] @ q) + 0.5 * _minmax(lexical[rows])
        return rows[np.argsort(-fused, kind="stable")[:5]].tolist()

    dense, lexical, fused = [], [], []
    before = load()
    for q, qt in zip(data.queries, data.query_terms, strict=True):
        dense.append(ms(lambda q=q: _search(ivf, q, CANDIDATES)))
        lexical.append(ms(lambda qt=qt: np.argpartition(-postings.scores(qt), CANDIDATES)[:CANDIDATES]))
        fused.append(ms(lambda q=q, qt=qt: hybrid(q, qt)))
    out["search"] = {"load_before": before, "load_after": load(), "dense_p50": p50(dense), "dense_p95": p95(dense),
                     "lexical_p50": p50(lexical), "lexical_p95": p95(lexical), "hybrid_p50": p50(fused),
                     "hybrid_p95": p95(fused), "nprobe": NPROBE, "kind": f"ivf{ivf.nlist}",
                     "recall": recall_at_10(lambda q, k: _search(ivf, q, k), data)}
    new_vectors, _ = data.new_document(per_doc)
    ids = np.arange(n, n + per_doc, dtype=np.int64)
    out["changes"] = {"load": load(), "index_add_ms": ms(lambda: ivf.add_with_ids(new_vectors, ids)),
                      "index_remove_ms": ms(lambda: ivf.remove_ids(ids)),
                      "rejoin_s": dense_s + lexical_s}
    out["peak_rss_mb"] = rss_mb() - base
    out["rss_start_mb"] = base
    del quantizer
    return out
