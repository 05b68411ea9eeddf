"""Every replica answers from a document another one added or removed: a poll of the store's manifest.

Replicas share KB_SOURCES_DIR (a compose volume, a ReadWriteMany claim). Each polls the manifest's inode
and mtime every KB_DOCUMENTS_POLL_SECONDS (a stat: microseconds), re-joins the store when it moved, and
drops its rendered answers and moves its shared-answer version on, so no replica serves an answer that
cites a removed document. A 2 s poll keeps propagation well within the 10 s the issue asks for.
"""

from __future__ import annotations

import logging
import threading

from service.shared_answers import answers_version
from service.state import AppState

log = logging.getLogger("kb.service")


def documents_changed(state: AppState) -> bool:
    """Re-join the store if it changed; when it did, forget answers given before. True when it changed."""
    engine = state.engine
    if engine is None or engine.documents is None or not engine.documents.refresh():
        return False
    state.answers.clear()
    if state.shared_answers is not None:
        state.shared_answers.version = answers_version(state.settings, engine)
    log.info("documents changed: %d chunks now (store generation %d)", engine.index.count,
             engine.documents.generation)
    return True


class DocumentWatch:
    """A daemon thread polling the store; stopped in the lifespan's shutdown."""

    def __init__(self, state: AppState, interval: float) -> None:
        self.state, self.interval = state, interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kb-documents-watch", daemon=True)

    def start(self) -> None:
        if self.interval > 0:
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                documents_changed(self.state)
            except Exception:  # a half-copied volume, a permission change: log it, try again next poll
                log.exception("could not re-read the document store")
