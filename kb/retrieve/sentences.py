"""Every prose sentence of the index with its vector: how close each is, in meaning, to what was asked.

The build embeds each sentence of the guide, its cases and tradeoffs in both languages (indexer/sentences.py);
here they are looked up by their passage and text, so an answer can quote the sentence that holds the asked
thing rather than the one that merely shares its words. One matrix product over a passage's few sentences a
question: no embedding at answer time beyond the question's own.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from indexer.chunks import Chunk
from indexer.sentences import split


class Sentences:
    """Sentence vectors by (passage id, language, text)."""

    def __init__(self, rows: dict[tuple[str, str, str], int], vectors: np.ndarray) -> None:
        self._rows = rows
        self._vectors = vectors

    @classmethod
    def load(cls, folder: Path, chunks: list[Chunk]) -> Sentences:
        table = json.loads((folder / "sentences.json").read_text(encoding="utf-8"))
        vectors = np.load(folder / "sentences.npy")
        rows: dict[tuple[str, str, str], int] = {}
        texts: dict[tuple[int, str], list[str]] = {}
        seen: dict[tuple[int, str], int] = {}
        for i, (row, lang) in enumerate(table):  # (a passage's sentences in order, as the build split them)
            said = texts.get((row, lang))
            if said is None:
                chunk = chunks[row]
                said = texts[(row, lang)] = split(chunk.text if lang == "zh" else chunk.text_en, lang)
            n = seen.get((row, lang), 0)
            seen[(row, lang)] = n + 1
            rows[(chunks[row].id, lang, said[n])] = i
        if len(rows) != len(vectors):
            raise ValueError("sentences.json and sentences.npy disagree")
        return cls(rows, np.ascontiguousarray(vectors, dtype=np.float32))

    def __len__(self) -> int:
        return len(self._rows)

    def similarity(self, query: np.ndarray, passage: str, language: str, texts: list[str]) -> list[float | None]:
        """The cosine of each text with the question (None for a text the index did not embed)."""
        at = [self._rows.get((passage, language, t)) for t in texts]
        rows = [i for i in at if i is not None]
        if not rows:
            return [None] * len(texts)
        scores = dict(zip(rows, (self._vectors[rows] @ query).tolist(), strict=True))
        return [scores[i] if i is not None else None for i in at]
