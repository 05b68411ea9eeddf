"""The synthetic corpus benchmarks/scale.py searches: clustered unit vectors and Zipf terms, made in batches.

Batches are made from their own seeds, so every implementation sees the same million chunks without any
process holding them all twice; the queries (new points of the same topics, and 5 terms each) and each
recall query's exact 10 nearest neighbours (kept as the batches go by) are known up front. Recall is
also measured on off-topic queries (a topic's point buried in noise of 0.3 a dimension, as the previous
benchmark made its queries): their neighbours are spread over many lists, the hard case for an IVF.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

DIM, VOCAB, TOKENS, STOP = 384, 50_000, 40, 200  # STOP: the most frequent ids, dropped as stop words are
TOPICS, NOISE = 2000, 0.6
BATCH = 100_000
QUERIES, RECALL_QUERIES, QUERY_TERMS = 200, 50, 5


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def terms_of(rng: np.random.Generator, rows: int) -> np.ndarray:
    return (np.minimum(rng.zipf(1.3, (rows, TOKENS)), VOCAB) - 1).astype(np.int32)


def name(term: int) -> str:
    """A term id as the string a tokenizer cut: fixed width, so that no term is a prefix of another (jieba's
    search mode would add "t4" and "t44" of "t448" to a query, words 4 and 44 of the most frequent)."""
    return f"t{term:05d}"


def text_of(term_ids: np.ndarray) -> list[str]:
    return [name(t) for t in term_ids.tolist()]


@dataclass
class Synthetic:
    """n chunks in batches; `exact` is complete once every batch has been read."""

    n: int
    seed: int = 17
    queries: np.ndarray = field(init=False)
    query_terms: list[list[int]] = field(init=False)
    recall_queries: np.ndarray = field(init=False)
    exact: np.ndarray = field(init=False)  # (2 · RECALL_QUERIES, 10) rows, best first

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        self._centers = rng.standard_normal((TOPICS, DIM)).astype(np.float32)
        topic = rng.integers(0, TOPICS, QUERIES)
        self.queries = _unit(self._centers[topic] + NOISE * rng.standard_normal((QUERIES, DIM)).astype(np.float32))
        self.query_terms = []
        while len(self.query_terms) < QUERIES:  # a question's terms as kb cuts them: stop words dropped
            kept = [int(t) for t in terms_of(rng, 1)[0] if t >= STOP][:QUERY_TERMS]
            if kept:
                self.query_terms.append(kept)
        near = self.queries[:RECALL_QUERIES] + 0.3 * rng.standard_normal((RECALL_QUERIES, DIM)).astype(np.float32)
        self.recall_queries = np.vstack([self.queries[:RECALL_QUERIES], _unit(near)])  # topic, then off-topic
        self._best = np.full((2 * RECALL_QUERIES, 10), -np.inf, np.float32)
        self.exact = np.zeros((2 * RECALL_QUERIES, 10), np.int64)

    def batch(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows b·BATCH.. : their vectors (float32, unit) and term ids (TOKENS a row)."""
        rng = np.random.default_rng((self.seed, b))
        rows = min(BATCH, self.n - b * BATCH)
        x = self._centers[rng.integers(0, TOPICS, rows)] + NOISE * rng.standard_normal((rows, DIM)).astype(np.float32)
        return _unit(x), terms_of(rng, rows)

    def batches(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """(first row, vectors, term ids) a batch, keeping the recall queries' exact neighbours up to date."""
        for b in range((self.n + BATCH - 1) // BATCH):
            x, terms = self.batch(b)
            start = b * BATCH
            self._keep_best(start, x)
            yield start, x, terms

    def _keep_best(self, start: int, x: np.ndarray) -> None:
        scores = self.recall_queries @ x.T  # (queries, rows)
        top = np.argpartition(-scores, 10, axis=1)[:, :10]
        cand_scores = np.concatenate([self._best, np.take_along_axis(scores, top, 1)], axis=1)
        cand_rows = np.concatenate([self.exact, top + start], axis=1)
        order = np.argsort(-cand_scores, axis=1)[:, :10]
        self._best = np.take_along_axis(cand_scores, order, 1)
        self.exact = np.take_along_axis(cand_rows, order, 1)

    def new_document(self, chunks: int) -> tuple[np.ndarray, list[list[str]]]:
        """One more document's vectors and terms (rows past the corpus)."""
        rng = np.random.default_rng((self.seed, 10**6))
        x = self._centers[rng.integers(0, TOPICS, chunks)] + NOISE * rng.standard_normal((chunks, DIM))
        return _unit(x.astype(np.float32)), [text_of(t) for t in terms_of(rng, chunks)]


def recall_at_10(search: object, data: Synthetic) -> tuple[float, float]:
    """Mean share of each recall query's exact 10 nearest that `search(query, 10)` returns: on-topic, off-topic."""
    got = [len(set(search(q, 10)[1].tolist()) & set(e.tolist())) / 10  # type: ignore[operator]
           for q, e in zip(data.recall_queries, data.exact, strict=True)]
    return float(np.mean(got[:RECALL_QUERIES])), float(np.mean(got[RECALL_QUERIES:]))
