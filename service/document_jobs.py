"""The service's side of document jobs: hand staged documents to the workers, keep a watched folder in step.

Uploads and the watched folder (KB_SOURCES_WATCH) only check and stage a document (kb/documents/library.py) and
hand its id to the workers (kb/documents/worker.py): the request returns at once with the job's status, and the
embedding runs in a worker process at low priority, never on the thread that embeds questions. A job left
`queued` or `embedding` by a stopped replica (its status not updated for STALE_S) is handed out again at start.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from kb.documents.jobs import JobLog, now
from kb.documents.library import Library
from kb.documents.sync import FolderSync
from kb.documents.worker import Workers, workers_for
from service.documents_watch import documents_changed
from service.state import AppState

log = logging.getLogger("kb.service")
STALE_S = 60  # a running job writes its status every batch (well under a second): this long silent, it died


def _no_embedder() -> Any:
    raise RuntimeError("the service only stages documents: its workers embed them")


def staging_library(state: AppState) -> Library:
    """A library that checks and stages (its `embed` is the workers')."""
    s = state.settings
    return Library(s.sources_dir, s.corpus_dir, _no_embedder, usd_cny=s.usd_cny,
                   max_bytes=int(s.max_document_mb * 2**20), max_chunks=s.max_document_chunks)


class DocumentJobs:
    """This replica's workers (made at the first job, or at start with Redis: its worker serves every replica) and
    the watched folder's thread."""

    def __init__(self, state: AppState) -> None:
        self.state = state
        self._workers: Workers | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        folder = state.settings.sources_watch
        self._sync = FolderSync(staging_library(state), Path(folder)) if folder else None
        self._thread = threading.Thread(target=self._watch, name="kb-sources-watch", daemon=True)

    def workers(self) -> Workers:
        with self._lock:
            if self._workers is None:
                self._workers = workers_for(self.state.settings)
            return self._workers

    def submit(self, doc_id: str) -> None:
        """Hand a staged document to the workers; this replica re-reads the store when a local job ends."""
        self.workers().submit(doc_id, self._changed)

    def _changed(self) -> None:
        documents_changed(self.state)

    def start(self) -> None:
        if self.state.settings.redis_url:
            self.workers()  # this replica's RQ worker takes any replica's jobs
        self._requeue_stale()
        if self._sync is not None:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            if self._workers is not None:
                self._workers.close()

    def _requeue_stale(self) -> None:
        library = staging_library(self.state)
        cutoff = _seconds_ago(STALE_S)
        for job in JobLog(self.state.settings.sources_dir).all():
            if job.state in ("queued", "embedding") and job.updated_at < cutoff and \
                    library.store.staged(job.id) is not None:
                log.info("document %s: its job stopped (%s); queued again", job.id, job.status)
                self.submit(job.id)

    def _watch(self) -> None:
        assert self._sync is not None
        while not self._stop.is_set():
            try:
                report = self._sync.sync()
                for doc_id in report.staged:
                    self.submit(doc_id)
                if report.changes:
                    documents_changed(self.state)
                    for line in report.lines():
                        if line.startswith(("added", "changed", "removed")):
                            log.info("%s: %s", self._sync.folder, line)
                for name, why in report.refused:
                    if name in report.newly_refused:
                        log.warning("%s: refused %s: %s", self._sync.folder, name, why)
            except Exception:  # a folder gone or unreadable for a moment: said in the log, tried again
                log.exception("could not read the watched folder %s", self._sync.folder)
            self._stop.wait(self.state.settings.sources_watch_seconds)


def _seconds_ago(seconds: float) -> str:
    import datetime as dt

    return (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ") if seconds \
        else now()
