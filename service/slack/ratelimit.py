"""A per-user sliding-window limit, so one person cannot flood a channel with answers."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

WINDOW_S = 60.0


class UserRateLimiter:
    """At most per_minute questions a user in any 60 seconds; 0 turns the limit off."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, user: str) -> int:
        """0 and the question counts if the user is within the limit; else the seconds until they are."""
        if self.per_minute <= 0:
            return 0
        with self._lock:
            now = self._clock()
            times = self._seen.setdefault(user, deque())
            while times and now - times[0] >= WINDOW_S:
                times.popleft()
            if len(times) >= self.per_minute:
                return max(1, math.ceil(WINDOW_S - (now - times[0])))
            times.append(now)
            if len(self._seen) > 10_000:  # forget users idle for a whole window, so memory stays bounded
                self._seen = {u: q for u, q in self._seen.items() if q and now - q[-1] < WINDOW_S}
            return 0
