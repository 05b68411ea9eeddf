"""Who embeds documents: a worker process beside each replica, never the process that answers questions.

Without Redis a replica's jobs go to a local process pool (the standard library's: one worker process, spawned,
so it shares no OpenMP pool with the server). With KB_REDIS_URL they go to one RQ queue over that Redis, and each
replica runs one RQ worker process on it, so any replica's worker takes the next job and a large folder sync
spreads over the replicas. RQ was chosen by benchmarks/job_queues.py (benchmarks/README.md): its SimpleWorker
starts a job ~12 ms after it is queued and costs nothing while idle (a blocking pop), on the Redis client kb
already uses; arq polls (~0.5 s a job, CPU while idle), Dramatiq starts faster but keeps heartbeats and needs its
own broker setup.

A worker runs at the lowest CPU priority (nice 19) with KB_DOCUMENT_WORKER_THREADS OpenMP threads (1): on a
2-core machine an embedding job then takes what the answers leave, and fresh questions keep their latency
(benchmarks/ingestion.py). The job's status is written to the store as it goes (kb/documents/jobs.py).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("kb.documents")
QUEUE = "kb-documents"
JOB_TIMEOUT_S = 4 * 3600  # RQ's bound on one job: the largest document kb accepts takes well under it


def _worker_environment(threads: int, nice: int, embedder: str | None = None) -> None:
    """In a worker process, before anything loads the embedder: its OpenMP threads; then warm (at the priority it
    was started with: a replica starting is answering nothing yet), then its low priority for the jobs."""
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # a waiting thread sleeps: it never spins on a core
    if embedder is not None:
        warm_up(embedder)
    if nice:
        os.nice(nice)


_EMBEDDERS: dict[str, Any] = {}  # a worker process's embedders, made once (the first job, or warm_up)


def _embedder(name: str) -> Any:
    if name not in _EMBEDDERS:
        from indexer.embedder import make_embedder

        _EMBEDDERS[name] = make_embedder(name)
    return _EMBEDDERS[name]


def warm_up(embedder: str) -> None:
    """Load what every job needs before the first one comes: the library's modules, the embedder, jieba's
    dictionary (seconds on a busy machine, paid once a worker, not by the first document)."""
    from indexer.lexical import tokenize_corpus
    from kb.documents import library  # noqa: F401

    _embedder(embedder).embed_passages(["warm up"])
    tokenize_corpus("预热 warm up")


def run_job(store: str, corpus_dir: str, embedder: str, usd_cny: float, doc_id: str) -> str:
    """The job, in a worker process: embed one staged document and make it current; its status as a person
    reads it."""
    from kb.documents.library import Library

    status = Library(Path(store), Path(corpus_dir), lambda: _embedder(embedder), usd_cny=usd_cny).embed(doc_id)
    log.info("document %s: %s", doc_id, status.status)
    return status.status


class Workers(Protocol):
    def submit(self, doc_id: str, done: Callable[[], None] | None = None) -> None: ...

    def close(self) -> None: ...


class LocalWorkers:
    """Jobs in this machine's worker processes (no Redis): a spawned process pool, started at the first job."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self._pool: ProcessPoolExecutor | None = None

    def _args(self, doc_id: str) -> tuple[Any, ...]:
        s = self.settings
        return str(s.sources_dir), str(s.corpus_dir), s.embedder, s.usd_cny, doc_id

    def submit(self, doc_id: str, done: Callable[[], None] | None = None) -> None:
        """Queue the job; `done` is called (in a thread of this process) once it has ended, either way. A pool
        whose process died (killed, out of memory) is replaced: the job goes to a new one."""
        if self._pool is not None and getattr(self._pool, "_broken", False):
            self.close()
            self._pool = None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.settings.document_workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_environment,
                initargs=(self.settings.document_worker_threads, self.settings.document_worker_nice,
                          self.settings.embedder))
        future = self._pool.submit(run_job, *self._args(doc_id))
        if done is not None:
            future.add_done_callback(lambda _: done())

    def close(self) -> None:
        """Stop the worker processes (by their ids): a job cut short is queued again at the next start."""
        if self._pool is None:
            return
        processes = list(getattr(self._pool, "_processes", {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            if p.is_alive():
                p.terminate()
                p.join(5)


class RedisWorkers:
    """Jobs on the RQ queue in KB_REDIS_URL; this replica's own RQ worker process takes them with the others'."""

    def __init__(self, settings: Any) -> None:
        import redis
        from rq import Queue

        self.settings = settings
        self.queue = Queue(QUEUE, connection=redis.Redis.from_url(settings.redis_url))
        self.process = subprocess.Popen([sys.executable, "-m", "kb.documents.worker", settings.redis_url,
                                         str(settings.document_worker_threads), str(settings.document_worker_nice),
                                         settings.embedder])

    def submit(self, doc_id: str, done: Callable[[], None] | None = None) -> None:
        """Queue the job for any replica's worker (`done` is not called: replicas see the store change by polling)."""
        s = self.settings
        self.queue.enqueue(run_job, str(s.sources_dir), str(s.corpus_dir), s.embedder, s.usd_cny, doc_id,
                           job_id=f"embed-{doc_id}", job_timeout=JOB_TIMEOUT_S, result_ttl=3600, failure_ttl=86400)

    def close(self) -> None:
        """SIGTERM to the worker process (RQ finishes nothing half: the job is left to be queued again)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def workers_for(settings: Any) -> Workers:
    """An RQ queue and worker when KB_REDIS_URL is set, else a local process pool."""
    return RedisWorkers(settings) if settings.redis_url else LocalWorkers(settings)


def main() -> None:
    """`python -m kb.documents.worker REDIS_URL THREADS NICE EMBEDDER`: one RQ worker on kb's queue (each replica
    starts one)."""
    import redis
    from rq import Queue, SimpleWorker

    url, threads, nice, embedder = sys.argv[1:5]
    _worker_environment(int(threads), int(nice), embedder)
    logging.basicConfig(level=logging.WARNING)
    connection = redis.Redis.from_url(url)
    SimpleWorker([Queue(QUEUE, connection=connection)], connection=connection).work(logging_level="WARNING")


if __name__ == "__main__":
    main()
