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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("kb.documents")
QUEUE = "kb-documents"
JOB_TIMEOUT_S = 4 * 3600  # RQ's bound on one job: the largest document kb accepts takes well under it


def _worker_environment(threads: int, nice: int) -> None:
    """In a worker process, before anything loads the embedder: its OpenMP threads, its priority."""
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # a waiting thread sleeps: it never spins on a core
    if nice:
        os.nice(nice)


def run_job(store: str, corpus_dir: str, embedder: str, usd_cny: float, doc_id: str) -> str:
    """The job, in a worker process: embed one staged document and make it current; its status as a person
    reads it."""
    from indexer.embedder import make_embedder
    from kb.documents.library import Library

    made: list[Any] = []

    def embedder_once() -> Any:
        if not made:
            made.append(make_embedder(embedder))
        return made[0]

    status = Library(Path(store), Path(corpus_dir), embedder_once, usd_cny=usd_cny).embed(doc_id)
    log.info("document %s: %s", doc_id, status.status)
    return status.status


class Workers(Protocol):
    def submit(self, doc_id: str) -> None: ...

    def close(self) -> None: ...


class LocalWorkers:
    """Jobs in this machine's worker processes (no Redis): a spawned process pool, started at the first job."""

    def __init__(self, settings: Any) -> None:
        self.settings = settings
        self._pool: ProcessPoolExecutor | None = None

    def _args(self, doc_id: str) -> tuple[Any, ...]:
        s = self.settings
        return str(s.sources_dir), str(s.corpus_dir), s.embedder, s.usd_cny, doc_id

    def submit(self, doc_id: str) -> None:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.settings.document_workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_environment,
                initargs=(self.settings.document_worker_threads, self.settings.document_worker_nice))
        self._pool.submit(run_job, *self._args(doc_id))

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
        env = {**os.environ, "KB_WORKER_THREADS": str(settings.document_worker_threads),
               "KB_WORKER_NICE": str(settings.document_worker_nice)}
        self.process = subprocess.Popen([sys.executable, "-m", "kb.documents.worker", settings.redis_url], env=env)

    def submit(self, doc_id: str) -> None:
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
    """`python -m kb.documents.worker REDIS_URL`: one RQ worker on kb's queue (started by each replica)."""
    import redis
    from rq import Queue, SimpleWorker

    _worker_environment(int(os.environ.get("KB_WORKER_THREADS", "1")), int(os.environ.get("KB_WORKER_NICE", "19")))
    logging.basicConfig(level=logging.WARNING)
    connection = redis.Redis.from_url(sys.argv[1])
    SimpleWorker([Queue(QUEUE, connection=connection)], connection=connection).work(logging_level="WARNING")


if __name__ == "__main__":
    main()
