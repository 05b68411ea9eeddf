"""A bounded, thread-safe set whose members expire: seen event ids, answered messages, threads kb posted in."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol


class Memory(Protocol):
    """What the bot remembers keys in: TtlSet (this process) or shared_limits.SharedSet (Redis, every replica)."""

    def add(self, key: str) -> bool: ...

    def remember(self, key: str) -> None: ...

    def __contains__(self, key: object) -> bool: ...


class TtlSet:
    """Keys remembered for ttl seconds, at most max_size of them (the oldest go first).

    Per process: with KB_REDIS_URL set, the bot uses shared_limits.SharedSet instead, shared by every replica.
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

    def remember(self, key: str) -> None:
        """Remember key, new or not (its time restarts)."""
        with self._lock:
            self._items.pop(key, None)
            self._items[key] = self._clock()
            self._expire(self._clock())

    def __contains__(self, key: object) -> bool:
        with self._lock:
            self._expire(self._clock())
            return key in self._items
