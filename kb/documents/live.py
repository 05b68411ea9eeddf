"""Keeping an Engine answering from the store as it changes: on open, after an add or removal, on a poll.

The store's manifest is the only thing watched (its inode and mtime): a replica that polls it picks up a
document another replica added to the shared volume, without a message between them.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from kb.documents.index import Lexicons, guide_tokens, joined, read_documents
from kb.documents.pricebook import team_prices
from kb.documents.prices import PriceFact
from kb.documents.store import Store
from kb.index import LoadedIndex

if TYPE_CHECKING:
    from kb.engine import Engine


class LiveDocuments:
    """The guide's own index, its terms (cut once), and the store whose documents join it."""

    def __init__(self, engine: Engine, store: Store) -> None:
        self.engine = engine
        self.store = store
        self.guide: LoadedIndex = engine.index
        self._tokens: list[list[str]] | None = None
        self._lexicons = Lexicons()
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.prices: list[PriceFact] = []
        self.generation = 0

    def refresh(self, force: bool = False) -> bool:
        """Re-join when the manifest changed since the last look; True when the engine's index changed."""
        with self._lock:
            stamp = self.store.stamp()
            if stamp == self._stamp and not force:
                return False
            manifest_generation = self.store.manifest().generation
            docs = read_documents(self.store, self.engine.embedder)
            if docs.chunks and self._tokens is None:
                self._tokens = guide_tokens(self.guide)
            index = joined(self.guide, self._tokens or [], docs, self._lexicons)
            self.engine.set_index(index, team_prices(docs.prices))
            self.prices = docs.prices
            changed = self._stamp is not None or bool(docs.chunks)
            self._stamp, self.generation = stamp, manifest_generation
            return changed


def attach(engine: Engine) -> LiveDocuments:
    """Join the store at the engine's settings' sources_dir (nothing to do when it holds no documents)."""
    live = LiveDocuments(engine, Store(engine.settings.sources_dir))
    engine.documents = live
    live.refresh()
    return live
