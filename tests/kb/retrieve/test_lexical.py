"""kb/retrieve/lexical.py and kb/retrieve/bm25.py: BM25 weighed at query time, rows added by segment and removed
by tombstone."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import kb.retrieve.bm25
from kb.retrieve.bm25 import K1, B
from kb.retrieve.lexical import LexicalIndex


def _docs(n: int, seed: int = 0, vocab: int = 300) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    return [list(rng.choice(words, int(rng.integers(0, 25)))) for _ in range(n)]


def _reference(docs: list[list[str] | None], terms: list[str]) -> np.ndarray:
    """BM25 by the book over the docs that are there (None: removed), one Counter a doc."""
    live = [d for d in docs if d is not None]
    avgdl = sum(len(d) for d in live) / len(live)
    df = Counter(t for d in live for t in set(d))
    out = np.zeros(len(docs))
    for row, d in enumerate(docs):
        if d is None:
            continue
        tf = Counter(d)
        for t in terms:
            if tf[t]:
                idf = math.log(1 + (len(live) - df[t] + 0.5) / (df[t] + 0.5))
                out[row] += idf * tf[t] * (K1 + 1) / (tf[t] + K1 * (1 - B + B * len(d) / avgdl))
    return out


def _queries(seed: int = 1) -> list[list[str]]:
    rng = np.random.default_rng(seed)
    return [[f"w{i}" for i in rng.integers(0, 300, 4)] for _ in range(30)]


def test_scores_are_bm25_of_every_row() -> None:
    docs = _docs(800)
    index = LexicalIndex.build(docs)  # type: ignore[arg-type]
    for terms in _queries():
        want = _reference(docs, terms)  # type: ignore[arg-type]
        got = index.scores(terms)
        assert np.allclose(got.at(np.arange(800)), want, rtol=1e-5)
        assert set(got.touched.tolist()) == set(np.flatnonzero(want).tolist())


def test_adds_and_removals_score_as_a_fresh_index_of_what_is_left() -> None:
    docs: list[list[str] | None] = list(_docs(1200))
    index = LexicalIndex.build(docs[:500])  # type: ignore[arg-type]
    for start in range(500, 1200, 10):  # documents of 10 chunks, one at a time
        rows = index.add(docs[start:start + 10])  # type: ignore[arg-type]
        assert rows.tolist() == list(range(start, start + 10))  # rows appended, never renumbered
    gone = np.arange(100, 1200, 3)
    assert index.remove(gone) == len(gone) and index.remove(gone) == 0  # a second removal is a no-op
    for row in gone:
        docs[row] = None
    assert index.n_docs == 1200 - len(gone) and index.size == 1200
    assert index.segments < 1 + 7 * 3  # merged in tiers, not one segment a document
    for terms in _queries():
        got = index.scores(terms).at(np.arange(1200))
        assert np.allclose(got, _reference(docs, terms), rtol=1e-5)
        assert not got[gone].any()


def test_a_common_term_is_looked_up_and_the_top_is_still_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """A term in 90% of the rows is kept aside (MaxScore): the k best are the ones scoring every posting gives."""
    monkeypatch.setattr(kb.retrieve.bm25, "COMMON_MIN", 500)
    rng = np.random.default_rng(2)
    docs = [(["gpu"] if rng.random() < 0.9 else []) + d for d in _docs(3000, seed=3)]
    index = LexicalIndex.build(docs)
    index.remove(np.arange(0, 3000, 11))
    pruned = 0
    for terms in _queries(4):
        s = index.scores(["gpu", *terms])
        assert [c.weight for c in s.common] == [1.0]
        rows, full = s._everything()
        assert np.allclose(s.at(rows), full, rtol=1e-6)
        best = np.sort(full)[-20:]
        assert np.allclose(np.sort(s.at(s.top(20))), best, rtol=1e-6)
        pruned += bool(s.partial.size >= 20 and sum(c.bound for c in s.common) < np.sort(s.partial)[-20])
    assert pruned == len(_queries(4))  # every one of them took the short way


def test_the_query_tokenizer_learns_the_terms_of_added_chunks() -> None:
    index = LexicalIndex.build([["显存", "带宽"], ["h100"]])
    assert index.tokenize_query("H200 的显存") == ["显存"]
    index.add([["h200", "报价"]])
    assert index.tokenize_query("H200 的显存") == ["h200", "显存"]
    assert index.scores(["h200"]).top(5).tolist() == [2]
