"""The lexical index: jieba terms for Chinese, plain lower-cased terms for Latin text, BM25 weights.

BM25 over a few hundred chunks is a dozen lines of numpy, so it is written here rather than pulled in.
Per-(term, chunk) weights are precomputed at build time; a query sums the columns of its terms.
Queries are cut by a jieba tokenizer whose dictionary is the index's own vocabulary: it loads in
under a millisecond (the full dictionary takes ~0.6 s) and a term outside the vocabulary scores
nothing anyway.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

# BM25's usual constants (Robertson & Zaragoza); chunks are of similar length, so b matters little.
K1 = 1.2
B = 0.75

_KEEP = re.compile(r"[0-9a-z\u4e00-\u9fff][0-9a-z.\-+\u4e00-\u9fff]*")
_ZH_STOP = (
    "的 了 和 是 在 与 及 或 等 中 也 都 而 对 为 以 将 把 被 这 那 这些 那些 一个 可以 能 会 有 "
    "吗 呢 吧 啊 什么 怎么 如何 哪些 哪 多少 是否 我 我们 你 您 他们 其 之 上 下"
)
_EN_STOP = (
    "a an the of to in on for and or is are was were be been what which how why who whom does do did can could "
    "should would will with by from at as it its this that these those than then i we you they my our your their "
    "me us much many"
)
STOPWORDS = frozenset(_ZH_STOP.split()) | frozenset(_EN_STOP.split())


def _jieba() -> Any:
    import jieba

    jieba.setLogLevel(logging.WARNING)  # its "Building prefix dict" lines are noise on stderr
    return jieba


def _terms(pieces: Any) -> list[str]:
    out = []
    for piece in pieces:
        term = piece.strip().lower()
        if term and term not in STOPWORDS and _KEEP.fullmatch(term):
            out.append(term)
    return out


def tokenizer_version() -> str:
    """What decides index-time tokens: jieba's version and this module's code (stopwords, the term pattern)."""
    import hashlib
    from importlib import metadata

    try:
        jieba_version = metadata.version("jieba")
    except metadata.PackageNotFoundError:
        jieba_version = "unknown"
    return f"jieba {jieba_version} {hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]}"


def lexical_text(heading: str, text: str, heading_en: str, text_en: str) -> str:
    """What BM25 indexes for a chunk: its headings and text in both languages."""
    return f"{heading}\n{text}\n{heading_en}\n{text_en}"


def tokenize_corpus(text: str) -> list[str]:
    """Index-time terms: jieba's search mode (words and their sub-words), Latin words lower-cased."""
    return _terms(_jieba().cut_for_search(text.lower(), HMM=True))


class Bm25Index:
    """Precomputed BM25 weights, stored as postings: term → (chunk rows, weights)."""

    def __init__(self, vocab: list[str], ptr: np.ndarray, rows: np.ndarray, weights: np.ndarray,
                 n_docs: int) -> None:
        self.vocab = vocab
        self.term_ids = {t: i for i, t in enumerate(vocab)}
        self.ptr, self.rows, self.weights, self.n_docs = ptr, rows, weights, n_docs
        self._tokenizer: Any = None
        self._dict_path: Path | None = None

    @classmethod
    def build(cls, docs: list[list[str]]) -> Bm25Index:
        n = len(docs)
        avgdl = sum(len(d) for d in docs) / max(n, 1)
        df: Counter[str] = Counter()
        for d in docs:
            df.update(set(d))
        vocab = sorted(df)
        postings: list[list[tuple[int, float]]] = [[] for _ in vocab]
        ids = {t: i for i, t in enumerate(vocab)}
        for row, d in enumerate(docs):
            norm = K1 * (1 - B + B * len(d) / avgdl)
            for term, tf in Counter(d).items():
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                postings[ids[term]].append((row, idf * tf * (K1 + 1) / (tf + norm)))
        ptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        ptr[1:] = np.cumsum([len(p) for p in postings])
        rows = np.array([r for p in postings for r, _ in p], dtype=np.int32)
        weights = np.array([w for p in postings for _, w in p], dtype=np.float32)
        return cls(vocab, ptr, rows, weights, n)

    def save(self, folder: Path) -> list[str]:
        """Write lexical.npz and lexicon.txt (the query tokenizer's dictionary); return the file names."""
        np.savez(folder / "lexical.npz", ptr=self.ptr, rows=self.rows, weights=self.weights,
                 n_docs=np.array([self.n_docs]))
        # jieba dictionary lines are "word freq"; longer words get higher counts so they win the DAG.
        lines = [f"{t} {10 * len(t)}" for t in self.vocab if " " not in t]
        (folder / "lexicon.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return ["lexical.npz", "lexicon.txt"]

    @classmethod
    def load(cls, folder: Path) -> Bm25Index:
        with np.load(folder / "lexical.npz") as z:
            ptr, rows, weights, n = z["ptr"], z["rows"], z["weights"], int(z["n_docs"][0])
        vocab = (folder / "lexicon.txt").read_text(encoding="utf-8").split("\n")
        vocab = [line.rsplit(" ", 1)[0] for line in vocab if line]
        if len(vocab) + 1 != len(ptr):
            raise ValueError("lexicon.txt and lexical.npz disagree on the vocabulary size")
        index = cls(vocab, ptr, rows, weights, n)
        index._dict_path = folder / "lexicon.txt"
        return index

    def tokenize_query(self, text: str) -> list[str]:
        """Query terms found in the vocabulary (a jieba tokenizer over the index's own lexicon)."""
        if self._tokenizer is None:
            jieba = _jieba()
            tok = jieba.Tokenizer(dictionary=str(self._dict_path)) if self._dict_path else jieba.dt
            self._tokenizer = tok
        terms = _terms(self._tokenizer.cut_for_search(text.lower(), HMM=False))
        return [t for t in terms if t in self.term_ids]

    def scores(self, terms: list[str], weights: list[float] | None = None) -> np.ndarray:
        """BM25 score of every chunk for these query terms (optionally weighted, for expansions)."""
        out = np.zeros(self.n_docs, dtype=np.float32)
        for k, term in enumerate(terms):
            i = self.term_ids.get(term)
            if i is None:
                continue
            lo, hi = self.ptr[i], self.ptr[i + 1]
            out[self.rows[lo:hi]] += self.weights[lo:hi] * (1.0 if weights is None else weights[k])
        return out


def save_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
