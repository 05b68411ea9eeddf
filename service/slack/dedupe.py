"""A bounded, thread-safe set whose members expire: seen event ids, answered messages, threads kb posted in."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable


class TtlSet:
    """Keys remembered for ttl seconds, at most max_size of them (the oldest go first).

    Per process: replicas behind a load balancer each keep their own (see the README's note on retries).
    """

    def __init__(self, ttl: float, max_size: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.max_size = max_size
        self._clock = clock
        self._items: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        while self._items:
            key, added = next(iter(self._items.items()))
            if now - added < self.ttl and len(self._items) <= self.max_size:
                break
            del self._items[key]

    def add(self, key: str) -> bool:
        """Remember key; True if it was new, False if it was already there (check and add are one step)."""
        with self._lock:
            now = self._clock()
            self._expire(now)
            if key in self._items:
                return False
            self._items[key] = now
            self._expire(now)
            return True

    def __contains__(self, key: object) -> bool:
        with self._lock:
            self._expire(self._clock())
            return key in self._items
