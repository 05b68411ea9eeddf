"""What retrieval searches: the guide's chunks and the teams' documents', by row, changed in place by id.

Rows are appended when a document joins and tombstoned when it leaves, never renumbered, so a question in
flight keeps reading valid rows while the index changes under it: the FAISS index (kb/retrieve/dense.py) and the
postings (kb/retrieve/lexical.py) are updated by id, nothing is rebuilt, embedded or segmented again. The lookups
the answer needs (chunk by id, a group's rows) are kept up to date beside them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping

import numpy as np

from indexer.artifact import Manifest
from indexer.chunks import Chunk
from kb.retrieve.dense import FLAT_MAX, DenseIndex
from kb.retrieve.focus import FRAMING
from kb.retrieve.index import LoadedIndex
from kb.retrieve.lexical import QUERY_TEXTS_REMEMBERED, LexicalIndex


def _is_record(c: Chunk) -> bool:
    """Records restate the guide (kb/retrieve/search.py's RECORD_PRIOR); a team's document is evidence in its
    own right."""
    return c.kind not in ("guide", "document")


def _is_framing(c: Chunk) -> bool:
    """The guide's introduction, outlook and conclusion (kb/retrieve/search.py's FRAMING_PRIOR)."""
    return c.kind == "guide" and c.section.split(".")[0] in FRAMING


class LiveChunks(Mapping[str, Chunk]):
    """The index's live chunks by id, as it holds them at each lookup (a view, not a copy)."""

    def __init__(self, index: SearchIndex) -> None:
        self._index = index

    def __getitem__(self, chunk_id: str) -> Chunk:
        return self._index.rows[self._index.row_of[chunk_id]]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._index.row_of))

    def __len__(self) -> int:
        return len(self._index.row_of)


class SearchIndex:
    """Chunks by row with their FAISS vectors and BM25 postings; the guide's artifact first, documents after."""

    def __init__(self, guide: LoadedIndex, dense: DenseIndex, lexical: LexicalIndex) -> None:
        self.guide = guide
        self.manifest: Manifest = guide.manifest
        self.glossary = guide.glossary
        self.dense, self.lexical = dense, lexical
        self.rows: list[Chunk] = list(guide.chunks)  # by row; a removed row keeps its chunk for reads in flight
        self.is_record = np.array([_is_record(c) for c in self.rows], dtype=bool)
        self.is_framing = np.array([_is_framing(c) for c in self.rows], dtype=bool)
        self.row_of: dict[str, int] = {c.id: row for row, c in enumerate(self.rows)}
        self.group_rows: dict[str, list[int]] = {}
        for row, c in enumerate(self.rows):
            self.group_rows.setdefault(c.group, []).append(row)
        self._write = threading.Lock()

    @classmethod
    def from_loaded(cls, guide: LoadedIndex, flat_max: int = FLAT_MAX,
                    texts_remembered: int = QUERY_TEXTS_REMEMBERED) -> SearchIndex:
        """The guide's artifact as a searchable index (its own FAISS copy: the artifact stays as loaded);
        `texts_remembered`: query texts whose terms the lexical side keeps (KB_TEXT_CACHE_SIZE)."""
        dictionary = guide.folder / "lexicon.txt" if (guide.folder / "lexicon.txt").is_file() else None
        return cls(guide, DenseIndex.build(guide.vectors, flat_max=flat_max),
                   LexicalIndex(guide.lexical, dictionary, texts_remembered))

    @property
    def count(self) -> int:
        """Live chunks."""
        return len(self.row_of)

    @property
    def chunks(self) -> list[Chunk]:
        """The live chunks, in row order (a new list: for reports and tests, not the search path)."""
        return [self.rows[r] for r in sorted(self.row_of.values())]

    def chunk(self, chunk_id: str) -> Chunk | None:
        row = self.row_of.get(chunk_id)
        return self.rows[row] if row is not None else None

    @property
    def by_id(self) -> LiveChunks:
        return LiveChunks(self)

    def group(self, group: str) -> list[Chunk]:
        return [self.rows[r] for r in self.group_rows.get(group, [])]

    def add(self, chunks: list[Chunk], vectors: np.ndarray, tokens: list[list[str]]) -> np.ndarray:
        """Append chunks with their vectors and their terms (cut when the document was added); their rows."""
        if not (len(chunks) == len(vectors) == len(tokens)):
            raise ValueError("chunks, vectors and tokens differ in number")
        with self._write:
            start = len(self.rows)
            # Every structure a row reaches is extended before the retrievers can return the row.
            self.rows.extend(chunks)
            self.is_record = np.concatenate([self.is_record, np.array([_is_record(c) for c in chunks], bool)])
            self.is_framing = np.concatenate([self.is_framing, np.array([_is_framing(c) for c in chunks], bool)])
            rows = self.lexical.add(tokens)
            if len(rows) != len(chunks) or (len(rows) and rows[0] != start):
                raise RuntimeError("the lexical index and the chunks disagree on rows")
            self.dense.add(vectors, rows)
            for row, c in zip(rows.tolist(), chunks, strict=True):
                self.row_of[c.id] = row
                self.group_rows.setdefault(c.group, []).append(row)
            return rows

    def remove(self, chunk_ids: list[str]) -> np.ndarray:
        """Drop these chunks (unknown ids are ignored); the rows they had."""
        with self._write:
            rows = np.array([r for i in chunk_ids if (r := self.row_of.pop(i, None)) is not None], np.int64)
            gone = set(rows.tolist())
            for g in {self.rows[r].group for r in gone}:
                kept = [r for r in self.group_rows[g] if r not in gone]
                if kept:
                    self.group_rows[g] = kept
                else:
                    del self.group_rows[g]
            self.dense.remove(rows)
            self.lexical.remove(rows)
            return rows
