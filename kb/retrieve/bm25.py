"""BM25 for one query over kb/retrieve/lexical.py's segments: weighed at query time, common terms looked up,
not scattered.

A term's weight needs its live document frequency and the average length, both of which change as
documents come and go, so it is computed when asked. Scoring every posting of a term found in most chunks
(a word like "GPU" across a million chunks) was most of a query's time, so
a term with more than COMMON_MIN postings (or COMMON_SHARE of the rows) is kept aside: the rarer terms
score their rows, the k-th best of those is a floor, and a common term can only add its bound
(idf · (k1 + 1)) to a row; when the bound stays under the floor (MaxScore, Turtle & Flood 1995), only rows
within the bound of it are looked up in the common postings (sorted, so a binary search each), and the
top k is exact. Otherwise every posting is scored. At 1M synthetic chunks (benchmarks/scale.py) a 5-term
query took p50 5.1 ms against 23.7 ms for scoring every posting into a dense array, and 14.3 ms for
tantivy from Python. At the guide's size no term is common, and the scores are those of the BM25 kb
precomputed before, added in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# BM25's usual constants (Robertson & Zaragoza); chunks are of similar length, so b matters little.
K1 = 1.2
B = 0.75
COMMON_MIN = 10_000
COMMON_SHARE = 1 / 50

Part = tuple[np.ndarray, np.ndarray]  # a segment's postings of a term: rows ascending, term frequencies


def idf(live: int, df: int) -> float:
    return math.log(1 + (live - df + 0.5) / (df + 0.5))


def weights(tf: np.ndarray, lengths: np.ndarray, term_idf: float, avgdl: float) -> np.ndarray:
    """BM25's weight of each posting, in float64 and then float32, as the precomputed index had it."""
    tf = tf.astype(np.float64)
    norm = K1 * (1 - B + B * lengths.astype(np.float64) / avgdl)
    return (term_idf * tf * (K1 + 1) / (tf + norm)).astype(np.float32)


def _top(rows: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """The (at most) k best rows, ascending; of rows tied at the k-th score, the first ones."""
    if len(rows) <= k:
        return rows
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    above = rows[scores > kth]
    return np.sort(np.concatenate([above, rows[scores == kth][:k - len(above)]]))


@dataclass(frozen=True)
class Common:
    """A query term found in too many rows to score them all: its postings, its idf and query weight."""

    parts: tuple[Part, ...]
    idf: float
    weight: float

    @property
    def bound(self) -> float:
        return self.weight * self.idf * (K1 + 1)

    def at(self, rows: np.ndarray, lengths: np.ndarray, avgdl: float) -> np.ndarray:
        out = np.zeros(len(rows), np.float32)
        for prow, tf in self.parts:
            i = np.minimum(np.searchsorted(prow, rows), len(prow) - 1)
            hit = prow[i] == rows
            out[hit] += weights(tf[i[hit]], lengths[rows[hit]], self.idf, avgdl) * self.weight
        return out


@dataclass(frozen=True)
class Bm25Scores:
    """One query's scores: the rows its rarer terms matched (ascending) with those terms' scores, and the
    common terms, added where a row needs its whole score."""

    touched: np.ndarray
    partial: np.ndarray
    common: tuple[Common, ...] = ()
    lengths: np.ndarray | None = None
    dead: np.ndarray | None = None
    avgdl: float = 1.0

    @classmethod
    def of(cls, rows: np.ndarray, scores: np.ndarray) -> Bm25Scores:
        """Scores another retriever gave these rows (0 for every other row)."""
        order = np.argsort(rows)
        return cls(np.asarray(rows)[order], np.asarray(scores, np.float32)[order])

    def at(self, rows: np.ndarray) -> np.ndarray:
        """The whole score of each of these rows (0 for a row no term matched)."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros(len(rows), np.float32)
        if len(self.touched):
            i = np.minimum(np.searchsorted(self.touched, rows), len(self.touched) - 1)
            hit = self.touched[i] == rows
            out[hit] = self.partial[i[hit]]
        if self.common and self.lengths is not None:
            for c in self.common:
                out += c.at(rows, self.lengths, self.avgdl)
        return out

    def top(self, k: int) -> np.ndarray:
        """The (at most) k best rows by whole score, ascending."""
        if not self.common:
            return _top(self.touched, self.partial, k)
        bound = sum(c.bound for c in self.common)
        if len(self.touched) >= k:
            floor = np.partition(self.partial, len(self.partial) - k)[len(self.partial) - k]
            if bound < floor:  # a row only common terms matched scores at most `bound`
                rows = self.touched[self.partial + bound >= floor]
                return _top(rows, self.at(rows), k)
        rows, scores = self._everything()
        return _top(rows, scores, k)

    def _everything(self) -> tuple[np.ndarray, np.ndarray]:
        assert self.lengths is not None and self.dead is not None
        dense = np.zeros(len(self.lengths), np.float32)
        dense[self.touched] = self.partial
        for c in self.common:
            for prow, tf in self.parts_alive(c):
                dense[prow] += weights(tf, self.lengths[prow], c.idf, self.avgdl) * c.weight
        rows = np.flatnonzero(dense)
        return rows, dense[rows]

    def parts_alive(self, c: Common) -> list[Part]:
        assert self.dead is not None
        return [(r[~self.dead[r]], f[~self.dead[r]]) for r, f in c.parts]


def rare_weights(parts: list[Part], lengths: np.ndarray, dead: np.ndarray, live: int,
                 total: float) -> tuple[np.ndarray, np.ndarray] | None:
    """A term's live rows and their BM25 weights at query weight 1 (float32), or None for a common term (more
    than COMMON_MIN postings, or COMMON_SHARE of the rows), which `score` looks up rather than scores. Depends
    only on the index's state, so kb/retrieve/lexical.py keeps it by term until the state changes."""
    size = sum(len(r) for r, _ in parts)
    if size > max(COMMON_MIN, int(len(lengths) * COMMON_SHARE)):
        return None
    rows = np.concatenate([r for r, _ in parts]) if len(parts) != 1 else parts[0][0]
    tf = np.concatenate([f for _, f in parts]) if len(parts) != 1 else parts[0][1]
    if live < len(lengths):
        alive = ~dead[rows]
        rows, tf = rows[alive], tf[alive]
    return rows, weights(tf, lengths[rows], idf(live, len(rows)), total / live if live else 1.0)


def score(parts_of: Sequence[list[Part]], query_weights: Sequence[float], lengths: np.ndarray, dead: np.ndarray,
          live: int, total: float, rare_of: Sequence[tuple[np.ndarray, np.ndarray] | None] | None = None
          ) -> Bm25Scores:
    """BM25 for a query: for each of its terms, its postings in every segment and its query weight; `rare_of`,
    each term's `rare_weights` when the caller kept them (else they are computed here)."""
    avgdl = total / live if live else 1.0
    any_dead = live < len(lengths)
    rare: list[tuple[np.ndarray, np.ndarray]] = []
    common: list[Common] = []
    for k, (parts, weight) in enumerate(zip(parts_of, query_weights, strict=True)):
        found = rare_weights(parts, lengths, dead, live, total) if rare_of is None else rare_of[k]
        if found is None:
            size = sum(len(r) for r, _ in parts)
            df = size - (sum(int(dead[r].sum()) for r, _ in parts) if any_dead else 0)
            if df:
                common.append(Common(tuple(parts), idf(live, df), weight))
            continue
        rows, w = found
        if len(rows):
            rare.append((rows, w * weight))
    touched = np.unique(np.concatenate([r for r, _ in rare])).astype(np.int64) if rare else np.zeros(0, np.int64)
    partial = np.zeros(len(touched), np.float32)
    for rows, w in rare:  # term by term, in the query's order: the sums the dense scoring made
        partial[np.searchsorted(touched, rows)] += w
    return Bm25Scores(touched, partial, tuple(common), lengths, dead, avgdl)
