"""What one app instance holds: settings, the engine (loaded once, in the background), caches, the thread limit."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter

from indexer.embedder import make_embedder
from kb.engine import Engine
from kb.errors import IndexUnavailable
from kb.settings import Settings
from service.answers import AnswerCache
from service.embedding import pin_to_one_thread, submit
from service.gaps import app_gaps
from service.metrics import Metrics
from service.shared import Shared
from service.shared_answers import SharedAnswers, answers_version

T = TypeVar("T")
log = logging.getLogger("kb.service")
# Asked once while loading, so the first user does not pay for lazy start-up work (jieba's dictionary: ~1 s).
WARM_UP_QUESTION = "能用一张4090 QLoRA微调13B模型吗？"


class NotReady(Exception):
    """The index is still loading, or failed to load; the message says which."""


class AppState:
    """One per app: the engine once loaded, the rendered-answer cache, and the pool the core runs in."""

    def __init__(self, settings: Settings, metrics: Metrics, engine: Engine | None = None,
                 shared: Shared | None = None) -> None:
        self.settings = settings
        self.metrics = metrics
        self.shared = shared
        self.gaps = app_gaps(settings, shared)  # kb gaps: Redis on the shared client, or the SQLite file
        self.shared_answers: SharedAnswers | None = None
        self.engine = engine
        self.error: str | None = None
        self.slack_status = "slack: not configured"
        self._loaded = threading.Event()
        # Whole answers as JSON bytes: the index is read-only, so an answer never changes while it is loaded.
        self.answers = AnswerCache(settings.answer_cache_size, int(settings.answer_cache_mb * 2**20))
        self._limiter: CapacityLimiter | None = None
        self._answering = 0  # fresh answers being computed (counted on the event loop, so without a lock)
        if engine is not None:  # opened elsewhere (tests share one index between apps): this app's own over it
            self._attach(engine.serving(pin_to_one_thread, metrics.retrieval.observe))

    def start(self) -> None:
        """In the lifespan: a thread pool for the core, and the index loading in the background."""
        self._limiter = CapacityLimiter(self.settings.threads)
        if self.engine is None and self.error is None:
            threading.Thread(target=self._load, name="kb-load-index", daemon=True).start()

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            # Every embedding on the one embedding thread (service/embedding.py says why), retrievals timed.
            engine = Engine.open(self.settings, build_if_needed=False,
                                 embedder=pin_to_one_thread(make_embedder(self.settings.embedder)),
                                 on_retrieval=self.metrics.retrieval.observe)
            engine.answer(WARM_UP_QUESTION)
        except Exception as e:  # an index problem or anything else: readiness says so, the log has it
            self.error = str(e) if isinstance(e, IndexUnavailable) else f"{type(e).__name__}: {e}"
            log.error("index failed to load: %s", self.error)
            self._loaded.set()
            return
        self._attach(engine)
        log.info("index loaded: %d chunks from %s in %.2f s", engine.index.count,
                 self.settings.index_dir, time.perf_counter() - started)

    def _attach(self, engine: Engine) -> None:
        self.metrics.watch_cache("embed", engine.cache)
        self.metrics.watch_cache("answer", self.answers)
        if self.shared is not None:
            self.shared_answers = SharedAnswers(self.shared, answers_version(self.settings, engine))
            self.metrics.watch_cache("shared_answer", self.shared_answers)
        self.engine = engine
        self._loaded.set()

    @property
    def ready(self) -> bool:
        return self.engine is not None

    def wait_ready(self, timeout: float) -> bool:
        """Block until loading has finished (either way); True when the engine is there."""
        self._loaded.wait(timeout)
        return self.ready

    def require_engine(self) -> Engine:
        """The engine, or NotReady saying why not (loading, or the load error)."""
        if self.engine is None:
            raise NotReady(f"the index failed to load: {self.error}" if self.error else "the index is still loading")
        return self.engine

    def engine_for_slack(self) -> Engine:
        """For the Slack adapter, which runs in its own threads: waits briefly for loading to finish."""
        self._loaded.wait(30)
        try:
            return self.require_engine()
        except NotReady as e:
            raise IndexUnavailable(str(e)) from None

    async def run(self, func: Callable[..., T], *args: object) -> T:
        """Run CPU-bound core code in the pool, at most KB_THREADS at once. A request cancelled while it waits
        (a shutdown's grace period over) is answered at once; the thread's result, when it comes, is dropped."""
        return await anyio.to_thread.run_sync(func, *args, limiter=self._limiter, abandon_on_cancel=True)

    async def _compute(self, func: Callable[[], T]) -> T:
        """A fresh answer: on the embedding thread when no other answer is being computed, else in the pool.

        Alone, the whole answer on the embedding thread costs two thread hand-offs (loop -> thread -> loop)
        instead of four (loop -> pool -> embedding thread -> pool -> loop); with others in flight the pool keeps
        the second core busy composing while this thread embeds (service/embedding.py)."""
        lone = self._answering == 0
        self._answering += 1
        try:
            return await (asyncio.wrap_future(submit(func)) if lone else self.run(func))
        finally:
            self._answering -= 1

    async def answer_json(self, question: str, top_k: int | None, history: list[str] | None = None,
                          state: dict[str, Any] | None = None) -> bytes:
        """The Answer as JSON bytes; a repeated question (in the same conversation) is served from the cache
        without leaving the event loop."""
        engine = self.require_engine()
        context = json.dumps({"history": history, "state": state}, sort_keys=True, ensure_ascii=False) \
            if history or state is not None else ""
        key = (question, top_k, context)
        cached = self.answers.get(key)
        if cached is not None:
            return cached
        if self.shared_answers is not None and self.settings.answer_cache_size:
            shared = await self.shared_answers.get(key)
            if shared is not None:
                self.answers.put(key, shared)
                return shared
        body = await self._compute(lambda: self.answers.get_or_compute(
            key, lambda: engine.answer(question, top_k, history, state).model_dump_json().encode()))
        if self.shared_answers is not None and self.settings.answer_cache_size:
            await self.shared_answers.put(key, body)
        return body
