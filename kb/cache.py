"""A small thread-safe LRU cache with hit/miss counters (query embeddings; the counters feed /metrics).

Every cache of work done on what a client sends (a question's text, a fit check, an answer) is one of these, bounded
by entries and, where its values' sizes vary (whole answers), by bytes too; the bounds come from Settings.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """Bounded LRU; `get_or_compute` runs `compute` outside the lock, so a slow miss blocks no hit.

    `max_bytes` (0: none) bounds the sum of `size_of(value)` too; a value larger than the whole bound is not kept."""

    def __init__(self, maxsize: int, max_bytes: int = 0, size_of: Callable[[V], int] | None = None) -> None:
        self.maxsize = maxsize
        self.max_bytes = max_bytes
        self.size_of = size_of
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        value = compute()
        self._keep(key, value)
        return value

    def _keep(self, key: K, value: V) -> None:
        measure = self.size_of if self.max_bytes > 0 else None
        size = measure(value) if measure else 0
        if self.maxsize <= 0 or size > self.max_bytes > 0:
            return
        with self._lock:
            old = self._data.pop(key, None)
            self._data[key] = value
            self.bytes += size - (measure(old) if measure and old is not None else 0)
            while len(self._data) > self.maxsize or (measure and self.bytes > self.max_bytes):
                _, dropped = self._data.popitem(last=False)
                self.bytes -= measure(dropped) if measure else 0

    def __len__(self) -> int:
        return len(self._data)
