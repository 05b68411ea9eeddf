"""Term postings as the artifact stores them: term → (chunk rows, term frequencies), and each chunk's length.

BM25's weights depend on every chunk (document frequencies, the average length), so they are not stored:
kb weighs the postings at query time (kb/retrieve/lexical.py), which lets a document's chunks join or leave the
index without reweighing the rest. Building is vectorised (one sort over (term, row) keys), so a million
chunks of 40 terms build in seconds rather than the minutes a Counter a chunk takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

FILES = ("lexical.npz", "lexicon.txt")


@dataclass(frozen=True)
class Postings:
    """CSR postings over a vocabulary: rows[ptr[i]:ptr[i+1]] hold term i, ascending, with their tf."""

    vocab: list[str]
    ptr: np.ndarray  # int64, len(vocab) + 1
    rows: np.ndarray  # int32
    tf: np.ndarray  # float32
    lengths: np.ndarray  # float32, terms in each chunk

    @property
    def n_docs(self) -> int:
        return len(self.lengths)

    @classmethod
    def from_ids(cls, vocab: list[str], doc_ptr: np.ndarray, term_ids: np.ndarray) -> Postings:
        """From every chunk's term ids, concatenated (chunk i's are term_ids[doc_ptr[i]:doc_ptr[i+1]])."""
        n = len(doc_ptr) - 1
        lengths = np.diff(doc_ptr).astype(np.float32)
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(doc_ptr))
        keys, tf = np.unique(term_ids.astype(np.int64) * max(n, 1) + rows, return_counts=True)
        terms = keys // max(n, 1)
        ptr = np.searchsorted(terms, np.arange(len(vocab) + 1)).astype(np.int64)
        return cls(vocab, ptr, (keys % max(n, 1)).astype(np.int32), tf.astype(np.float32), lengths)

    @classmethod
    def build(cls, docs: list[list[str]]) -> Postings:
        """From each chunk's terms (as indexer/lexical.py cuts them); the vocabulary is sorted."""
        vocab = sorted({t for d in docs for t in d})
        ids = {t: i for i, t in enumerate(vocab)}
        doc_ptr = np.zeros(len(docs) + 1, dtype=np.int64)
        doc_ptr[1:] = np.cumsum([len(d) for d in docs])
        term_ids = np.fromiter((ids[t] for d in docs for t in d), dtype=np.int64, count=int(doc_ptr[-1]))
        return cls.from_ids(vocab, doc_ptr, term_ids)

    def save(self, folder: Path) -> list[str]:
        """Write lexical.npz and lexicon.txt (the query tokenizer's dictionary); return the file names."""
        np.savez(folder / FILES[0], ptr=self.ptr, rows=self.rows, tf=self.tf, lengths=self.lengths)
        # jieba dictionary lines are "word freq"; longer words get higher counts so they win the DAG.
        # Terms never hold whitespace (indexer/lexical.py's pattern), so each is one line.
        lines = [f"{t} {10 * len(t)}" for t in self.vocab]
        (folder / FILES[1]).write_text("\n".join(lines) + "\n", encoding="utf-8")
        return list(FILES)

    @classmethod
    def load(cls, folder: Path) -> Postings:
        with np.load(folder / FILES[0]) as z:
            ptr, rows, tf, lengths = z["ptr"], z["rows"], z["tf"], z["lengths"]
        lines = (folder / FILES[1]).read_text(encoding="utf-8").split("\n")
        vocab = [line.rsplit(" ", 1)[0] for line in lines if line]
        if len(vocab) + 1 != len(ptr) or len(rows) != len(tf):
            raise ValueError("lexicon.txt and lexical.npz disagree on the vocabulary size")
        return cls(vocab, ptr, rows, tf, lengths)
