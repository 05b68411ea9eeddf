"""The lexical retriever: BM25 weighed at query time over postings that grow by segments and shrink by tombstones.

A document's chunks arrive as a new segment of postings (term → rows, term frequencies) and leave as
tombstones, so neither an add nor a removal reweighs or rebuilds the rest: document frequencies are
counted over a query term's live postings when it is asked, the average length is kept as a running sum.
Small segments are merged in tiers (MERGE_FANOUT of a size make one of the next), dropping dead rows, so
a query visits a few segments, not one a document. At the guide's size the scores are the ones the
precomputed BM25 gave (the same formula in the same order), so `kb eval` is unchanged.

How a query is weighed and why common terms are looked up rather than scored: kb/retrieve/bm25.py.
"""

from __future__ import annotations

import math
import tempfile
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from indexer.lexical import keep_terms, load_jieba
from indexer.postings import Postings
from kb.cache import LruCache
from kb.retrieve.bm25 import Bm25Scores, Part, rare_weights, score

MERGE_FANOUT = 8  # segments of one size tier merged into one: a query visits O(8 · log₈ n) of them
TERMS_REMEMBERED = 4096  # query terms whose postings and weights a state keeps (the guide's vocabulary is ~3,000)
QUERY_TEXTS_REMEMBERED = 4096  # query texts whose terms are kept (KB_TEXT_CACHE_SIZE), until the vocabulary grows


@dataclass(frozen=True)
class _Segment:
    """Postings of some rows: terms (sorted global term ids) → rows[ptr[i]:ptr[i+1]] ascending, with tf."""

    terms: np.ndarray
    ptr: np.ndarray
    rows: np.ndarray
    tf: np.ndarray
    n_rows: int

    @property
    def tier(self) -> int:
        return int(math.log(max(self.n_rows, 1), MERGE_FANOUT))

    def postings(self, term: int) -> tuple[np.ndarray, np.ndarray] | None:
        i = int(np.searchsorted(self.terms, term))
        if i == len(self.terms) or self.terms[i] != term:
            return None
        lo, hi = self.ptr[i], self.ptr[i + 1]
        return self.rows[lo:hi], self.tf[lo:hi]


def _segment(term_of: np.ndarray, rows: np.ndarray, tf: np.ndarray, n_rows: int) -> _Segment:
    """A segment from postings given one a (term, row, tf); sorted by term, then row."""
    order = np.lexsort((rows, term_of))
    term_of, rows, tf = term_of[order], rows[order], tf[order]
    terms, starts = np.unique(term_of, return_index=True)
    ptr = np.append(starts, len(term_of)).astype(np.int64)
    return _Segment(terms.astype(np.int64), ptr, rows.astype(np.int32), tf.astype(np.float32), n_rows)


def _merge(segments: Sequence[_Segment], dead: np.ndarray) -> _Segment:
    """One segment holding the live postings of these."""
    term_of = np.concatenate([np.repeat(s.terms, np.diff(s.ptr)) for s in segments])
    rows = np.concatenate([s.rows for s in segments])
    tf = np.concatenate([s.tf for s in segments])
    keep = ~dead[rows]
    return _segment(term_of[keep], rows[keep], tf[keep], sum(s.n_rows for s in segments))


@dataclass(frozen=True)
class _State:
    """What a query reads, replaced whole by a writer: a query in flight sees one state throughout."""

    segments: tuple[_Segment, ...]
    lengths: np.ndarray  # float32, by row
    dead: np.ndarray  # bool, by row: removed
    live: int
    total: float  # sum of the live rows' lengths
    # A query term's postings in every segment and its BM25 weights (kb/retrieve/bm25.py's rare_weights), which depend
    # only on this state: kept by term id, so a term asked again is neither looked up nor weighed again. A new
    # state (an add or a removal) starts empty: `replace` does not copy a field outside __init__.
    terms: LruCache[int, tuple[list[Part], tuple[np.ndarray, np.ndarray] | None]] = field(
        default_factory=lambda: LruCache(TERMS_REMEMBERED), init=False, compare=False, repr=False)


class LexicalIndex:
    """BM25 over chunk rows; rows are appended by `add` and tombstoned by `remove`, never renumbered."""

    def __init__(self, postings: Postings, dictionary: Path | None = None,
                 texts_remembered: int = QUERY_TEXTS_REMEMBERED) -> None:
        self.vocab = list(postings.vocab)
        self.term_ids = {t: i for i, t in enumerate(self.vocab)}
        n = postings.n_docs
        base = _Segment(np.arange(len(self.vocab), dtype=np.int64), postings.ptr, postings.rows.astype(np.int32),
                        postings.tf.astype(np.float32), n)
        lengths = postings.lengths.astype(np.float32)
        self._state = _State((base,) if n else (), lengths, np.zeros(n, bool), n, float(lengths.sum()))
        self._write = threading.Lock()  # one writer at a time; readers never wait
        self._tokenizing = threading.Lock()
        self._dictionary = dictionary
        self._tokenizer: Any = None
        self._pending: list[str] = []  # terms added since the tokenizer was made
        # A text's query terms, for the vocabulary as it stands: replaced (not cleared) when terms are added, so
        # a query cut by the old tokenizer can only store into the old one.
        self._texts_remembered = texts_remembered
        self._terms_of: LruCache[str, tuple[str, ...]] = LruCache(texts_remembered)

    @classmethod
    def build(cls, docs: list[list[str]]) -> LexicalIndex:
        return cls(Postings.build(docs))

    @property
    def n_docs(self) -> int:
        """Live rows (removed ones not counted)."""
        return self._state.live

    @property
    def size(self) -> int:
        """Rows ever added, live or removed: the next add starts here."""
        return len(self._state.lengths)

    @property
    def segments(self) -> int:
        return len(self._state.segments)

    def add(self, docs: list[list[str]]) -> np.ndarray:
        """Append these chunks' terms (cut once, at add time) as rows size.., and return those rows."""
        with self._write:
            st = self._state
            start = len(st.lengths)
            new = list(dict.fromkeys(t for d in docs for t in d if t not in self.term_ids))
            for t in new:
                self.term_ids[t] = len(self.vocab)
                self.vocab.append(t)
            with self._tokenizing:
                self._pending += new
            if new:
                self._terms_of = LruCache(self._texts_remembered)
            lens = np.array([len(d) for d in docs], dtype=np.int64)
            ids = np.fromiter((self.term_ids[t] for d in docs for t in d), dtype=np.int64, count=int(lens.sum()))
            width = max(len(docs), 1)
            keys, tf = np.unique(ids * width + np.repeat(np.arange(len(docs)), lens), return_counts=True)
            rows = np.arange(start, start + len(docs))
            lengths = np.concatenate([st.lengths, lens.astype(np.float32)])
            dead = np.concatenate([st.dead, np.zeros(len(docs), bool)])
            segments = [*st.segments]
            if len(keys):
                segments.append(_segment(keys // width, start + keys % width, tf, len(docs)))
            segments = _tiered(segments, dead)
            self._state = _State(tuple(segments), lengths, dead, st.live + len(docs),
                                 st.total + float(lens.sum()))
            return rows

    def remove(self, rows: np.ndarray) -> int:
        """Tombstone these rows (their postings go at the next merge); return how many were live."""
        with self._write:
            st = self._state
            rows = np.unique(rows[(rows >= 0) & (rows < len(st.lengths))])
            rows = rows[~st.dead[rows]]
            if len(rows):
                dead = st.dead.copy()
                dead[rows] = True
                self._state = replace(st, dead=dead, live=st.live - len(rows),
                                      total=st.total - float(st.lengths[rows].sum()))
            return len(rows)

    def tokenize_query(self, text: str) -> list[str]:
        """Query terms found in the vocabulary (a jieba tokenizer over the index's own lexicon: it loads in
        under a millisecond where the full dictionary takes ~0.6 s, and a term outside it scores nothing).

        Remembered by text: a question is cut twice (its BM25 and its answer's sentence terms), and the glossary
        translations and the focus terms added to its query are the same few hundred phrases for every question;
        cutting them was two thirds of the BM25 step (benchmarks/answer_work.py)."""
        cache = self._terms_of
        return list(cache.get_or_compute(text, lambda: self._cut(text)))

    def _cut(self, text: str) -> tuple[str, ...]:
        tok = self._query_tokenizer()
        terms = keep_terms(tok.cut_for_search(text.lower(), HMM=False))
        return tuple(t for t in terms if t in self.term_ids)

    def _query_tokenizer(self) -> Any:
        if self._tokenizer is not None and not self._pending:
            return self._tokenizer
        with self._tokenizing:
            if self._tokenizer is None:
                path = self._dictionary
                if path is None:  # built in memory: the vocabulary so far becomes its dictionary file
                    folder = tempfile.mkdtemp(prefix="kb-lexicon-")
                    weakref.finalize(self, _rmtree, folder)
                    path = Path(folder) / "lexicon.txt"
                    path.write_text("".join(f"{t} {10 * len(t)}\n" for t in self.vocab), encoding="utf-8")
                    self._pending.clear()
                self._tokenizer = load_jieba().Tokenizer(dictionary=str(path))
            for t in self._pending:  # the same count a rebuilt lexicon.txt would give the term
                self._tokenizer.add_word(t, 10 * len(t))
            self._pending.clear()
            return self._tokenizer

    def scores(self, terms: list[str], weights: list[float] | None = None) -> Bm25Scores:
        """BM25 of the live rows for these query terms (optionally weighted, for expansions): kb/retrieve/bm25.py."""
        st = self._state
        parts_of, query_weights, rare_of = [], [], []
        for k, term in enumerate(terms):
            t = self.term_ids.get(term)
            if t is None:
                continue
            parts, rare = st.terms.get_or_compute(t, partial(self._term, st, t))
            if parts:
                parts_of.append(parts)
                query_weights.append(1.0 if weights is None else weights[k])
                rare_of.append(rare)
        return score(parts_of, query_weights, st.lengths, st.dead, st.live, st.total, rare_of)

    @staticmethod
    def _term(st: _State, t: int) -> tuple[list[Part], tuple[np.ndarray, np.ndarray] | None]:
        """A term's postings in every segment of `st` (empty: none live) and, unless common, its weights."""
        parts = [p for s in st.segments if (p := s.postings(t)) is not None and len(p[0])]
        return parts, rare_weights(parts, st.lengths, st.dead, st.live, st.total) if parts else None


def _tiered(segments: list[_Segment], dead: np.ndarray) -> list[_Segment]:
    """Merge MERGE_FANOUT segments of one tier into one, repeatedly, until no tier is full."""
    while True:
        tiers: dict[int, list[int]] = {}
        for i, s in enumerate(segments):
            tiers.setdefault(s.tier, []).append(i)
        full = next((ix for ix in tiers.values() if len(ix) >= MERGE_FANOUT), None)
        if full is None:
            return segments
        merged = _merge([segments[i] for i in full], dead)
        segments = [s for i, s in enumerate(segments) if i not in full] + [merged]


def _rmtree(folder: str) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
