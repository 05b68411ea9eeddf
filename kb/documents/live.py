"""Keeping an Engine answering from the store as it changes: on open, after an add or removal, on a poll.

The store's manifest is the only thing watched (its inode and mtime): a replica that polls it picks up a
document another replica added to the shared volume, without a message between them. A change is applied
as a difference: the documents that left are removed from the index by id, the ones that arrived are read
(only they) and added, so its cost follows the documents that changed, not the size of the index.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from indexer.embedder import Embedder
from kb.documents.context import Note
from kb.documents.costs import Costs
from kb.documents.index import read_document, together
from kb.documents.pricebook import team_prices
from kb.documents.prices import PriceFact
from kb.documents.store import Store
from kb.fit.gpus import GpuSpec, TeamPrice
from kb.retrieve.search_index import SearchIndex


class Host(Protocol):
    """What the documents join: an index changed in place by id, the embedder of its vectors, and the prices
    the fit engine uses (kb.engine.Engine is one)."""

    index: SearchIndex
    embedder: Embedder

    def set_prices(self, prices: dict[str, TeamPrice]) -> None: ...


@dataclass(frozen=True)
class Joined:
    """A document in the index: its chunk ids (to remove it by) and its price facts."""

    chunk_ids: list[str]
    prices: list[PriceFact]
    notes: list[Note]


class LiveDocuments:
    """The store whose current documents are in the engine's index, and which they are."""

    def __init__(self, engine: Host, store: Store) -> None:
        self.engine = engine
        self.store = store
        self._joined: dict[str, Joined] = {}
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.prices: list[PriceFact] = []
        self.notes: list[Note] = []
        self.generation = 0

    def refresh(self, force: bool = False) -> bool:
        """Apply what changed in the manifest since the last look; True when the engine's index changed."""
        with self._lock:
            stamp = self.store.stamp()
            if stamp == self._stamp and not force:
                return False
            manifest = self.store.manifest()
            current = manifest.current()
            ids = {r.id for r in current}
            gone = [doc_id for doc_id in self._joined if doc_id not in ids]
            arrived = [r for r in current if r.id not in self._joined]
            index = self.engine.index
            for doc_id in gone:
                index.remove(self._joined.pop(doc_id).chunk_ids)
            docs = [read_document(self.store, r, self.engine.embedder) for r in arrived]
            batch = together(docs, self.engine.embedder.dim)
            index.add(batch.chunks, batch.vectors, batch.tokens)  # one add for all that arrived (a start-up)
            for r, d in zip(arrived, docs, strict=True):
                notes = [Note(**n) for n in self.store.read_json(r.id, "notes.json")]
                self._joined[r.id] = Joined([c.id for c in d.chunks], d.prices, notes)
            self.prices = [p for r in current for p in self._joined[r.id].prices]
            self.notes = [n for r in current for n in self._joined[r.id].notes]
            self.engine.set_prices(team_prices(self.prices))
            self._stamp, self.generation = stamp, manifest.generation
            return bool(gone or arrived)


    def costs(self, gpus: dict[str, GpuSpec], energy_cny_per_kwh: float,
              spec_part: Callable[[str, float], str] | None = None) -> Costs:
        """The cost arithmetic over the documents answered from now (kb/documents/costs.py)."""
        return Costs(list(self.prices), list(self.notes), gpus, energy_cny_per_kwh, spec_part=spec_part)
