"""A token bucket per client (API key fingerprint, or IP address): 429 with Retry-After when it is empty."""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

MAX_CLIENTS = 10_000  # buckets kept; the least recently seen client is forgotten first (it starts full again)


class Limiter(Protocol):
    """What the request middleware needs: this module's RateLimiter, or shared_limits.SharedRateLimiter."""

    capacity: float

    async def acquire(self, client: str) -> int | None: ...


class RateLimiter:
    """`per_minute` requests a minute per client, in bursts of up to `per_minute`; 0 turns it off.

    Used from the event loop only, so it needs no lock. Each worker process has its own buckets; with
    KB_REDIS_URL set, shared_limits.SharedRateLimiter keeps one bucket a client for every replica.
    """

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0  # tokens a second
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, last seen)

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    async def acquire(self, client: str) -> int | None:
        """`retry_after`, with SharedRateLimiter's signature (the middleware awaits either)."""
        return self.retry_after(client)

    def retry_after(self, client: str) -> int | None:
        """Take one token: None if the request may go ahead, else whole seconds until a token is back."""
        if not self.enabled:
            return None
        now = self._clock()
        tokens, last = self._buckets.pop(client, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return None if allowed else max(1, math.ceil((1.0 - tokens) / self.rate))
