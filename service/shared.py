"""State shared by every replica, in Redis when KB_REDIS_URL is set: one client, its health, and its failure policy.

Each call names what the caller gets when Redis cannot answer (`default`), so the failure policy is decided where
the state is used: Slack de-duplication fails safe (treat as seen: no double post), rate limits fail open.
After a failure Redis is skipped for `BREAKER_S`, so an outage costs one timeout a second, not one a request;
the next call after that tries again, which is how kb reconnects when Redis returns (no restart).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis
import redis.asyncio
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.metrics import Metrics

T = TypeVar("T")
log = logging.getLogger("kb.shared")
PREFIX = "kb:"
TIMEOUT_S = 0.25  # Redis answers in well under a millisecond on a LAN; past this it is treated as down
BREAKER_S = 1.0


def _options(timeout: float) -> dict[str, Any]:
    # No retries inside redis-py: the breaker decides when to try again, and a request never waits for retries.
    return {"socket_timeout": timeout, "socket_connect_timeout": timeout, "retry": Retry(NoBackoff(), 0),
            "decode_responses": False, "health_check_interval": 0}


class Shared:
    """One Redis for an app: a blocking client (Slack's worker threads) and an asyncio one (the event loop)."""

    def __init__(self, url: str, metrics: Metrics | None = None, timeout: float = TIMEOUT_S,
                 prefix: str = PREFIX) -> None:
        self.url, self.prefix, self.timeout = url, prefix, timeout
        self.metrics = metrics or Metrics()
        self.client = redis.Redis.from_url(url, **_options(timeout))
        self._aio: redis.asyncio.Redis | None = None
        self._lock = threading.Lock()
        self._down_until = 0.0
        self.last_error: str | None = None

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    @property
    def aio(self) -> redis.asyncio.Redis:
        """The asyncio client, made on first use inside the server's event loop."""
        if self._aio is None:
            self._aio = redis.asyncio.Redis.from_url(self.url, **_options(self.timeout))
        return self._aio

    # -- health ----------------------------------------------------------------------------------

    @property
    def down(self) -> bool:
        return self.last_error is not None

    def _skipping(self, op: str) -> bool:
        if time.monotonic() < self._down_until:
            self.metrics.redis_failures.labels(op).inc()
            return True
        return False

    def _failed(self, op: str, error: Exception) -> None:
        self.metrics.redis_failures.labels(op).inc()
        with self._lock:
            self._down_until = time.monotonic() + BREAKER_S
            if self.last_error is None:
                log.warning("redis at %s is unavailable (%s: %s): rate limits are open and Slack events are "
                            "dropped until it returns", self.url_shown, type(error).__name__, error)
            self.last_error = f"{type(error).__name__}: {error}"

    def _ok(self) -> None:
        if self.last_error is not None:
            with self._lock:
                if self.last_error is not None:
                    log.warning("redis at %s is back", self.url_shown)
                self.last_error = None
                self._down_until = 0.0

    @property
    def url_shown(self) -> str:
        """The URL without a password, for logs and /readyz."""
        head, at, tail = self.url.rpartition("@")
        return f"{head.split('//', 1)[0]}//***@{tail}" if at else self.url

    # -- calls -------------------------------------------------------------------------------------

    def call(self, op: str, func: Callable[[redis.Redis], T], default: T) -> T:
        """func(client), or `default` when Redis is down or fails (counted, logged once per outage)."""
        if self._skipping(op):
            return default
        try:
            result = func(self.client)
        except redis.RedisError as e:
            self._failed(op, e)
            return default
        self._ok()
        return result

    async def acall(self, op: str, func: Callable[[redis.asyncio.Redis], Awaitable[T]], default: T) -> T:
        """`call` for the event loop."""
        if self._skipping(op):
            return default
        try:
            result = await func(self.aio)
        except (redis.RedisError, OSError) as e:
            self._failed(op, e)
            return default
        self._ok()
        return result

    async def status(self) -> str:
        """One line for /readyz: Redis answering, or down with what that means (kb stays ready either way)."""
        async def ping(r: redis.asyncio.Redis) -> bool:
            return bool(await r.ping())

        self._down_until = 0.0  # a readiness probe always asks Redis itself
        if await self.acall("ping", ping, False):
            return f"redis: ok ({self.url_shown})"
        return (f"redis: down ({self.url_shown}: {self.last_error}); answers go on, rate limits are open, "
                "Slack events are dropped until it returns")

    async def aclose(self) -> None:
        """On shutdown: both clients' connections closed."""
        self.client.close()
        if self._aio is not None:
            await self._aio.aclose()
