"""Rate limits and remembered keys kept in Redis, so N replicas enforce one limit and share one memory.

Algorithms (each one Lua script: one round trip, atomic in Redis, on Redis's clock so replicas' clocks never
matter), the same as the in-process ones, so a limit means the same with or without Redis:
  - HTTP clients: a token bucket (KB_RATE_LIMIT_PER_MINUTE tokens, refilled continuously): bursts allowed,
    one small hash a client, expiring once the bucket would be full again.
  - Slack users: a sliding-window log (at most N questions in any 60 s): exact, and N is small (10), so the
    sorted set of timestamps stays tiny; it expires a window after the last question.
  - Remembered keys (Slack event ids, claimed messages, kb's threads): SET NX EX, atomic set-if-absent.
Failure policy: limits fail open (counted in kb_ratelimit_fail_open_total); `SharedSet.add` fails safe
(answers "already seen", so no replica double-posts; the cost is that a delivery during an outage is dropped).
"""

from __future__ import annotations

import math
import uuid

import redis
import redis.asyncio

from service.shared import Shared

TOKEN_BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local cap, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local v = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens, ts = tonumber(v[1]), tonumber(v[2])
if tokens == nil or ts == nil then tokens, ts = cap, now end
tokens = math.min(cap, tokens + math.max(0, now - ts) * rate)
local allowed = tokens >= 1
if allowed then tokens = tokens - 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate * 1000) + 1000)
if allowed then return 0 end
return math.max(1, math.ceil((1 - tokens) / rate))
"""

SLIDING_LOG = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, math.ceil((tonumber(oldest[2]) + window - now) / 1000))
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""


class SharedRateLimiter:
    """The HTTP per-client token bucket in Redis; `acquire` is RateLimiter's, awaited on the event loop."""

    def __init__(self, per_minute: int, shared: Shared) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.shared = shared
        self._script = shared.aio.register_script(TOKEN_BUCKET)

    @property
    def enabled(self) -> bool:
        return self.capacity > 0

    async def acquire(self, client: str) -> int | None:
        """None if the request may go ahead, else whole seconds until a token is back; open when Redis is down."""
        if not self.enabled:
            return None

        async def take(r: redis.asyncio.Redis) -> int:
            return int(await self._script(keys=[self.shared.key("rl", "http", client)],
                                          args=[self.capacity, self.rate], client=r))

        wait = await self.shared.acall("ratelimit", take, -1)
        if wait < 0:
            self.shared.metrics.fail_open.labels("http").inc()
            return None
        return wait or None


class SharedUserRateLimiter:
    """UserRateLimiter (Slack, per user) in Redis: at most per_minute questions in any 60 s, across replicas."""

    WINDOW_MS = 60_000

    def __init__(self, per_minute: int, shared: Shared) -> None:
        self.per_minute = per_minute
        self.shared = shared
        self._script = shared.client.register_script(SLIDING_LOG)

    def check(self, user: str) -> int:
        """0 and the question counts if the user is within the limit; else the seconds until they are."""
        if self.per_minute <= 0:
            return 0

        def take(r: redis.Redis) -> int:
            member = uuid.uuid4().hex
            return int(self._script(keys=[self.shared.key("rl", "slack", user)],
                                    args=[self.per_minute, self.WINDOW_MS, member], client=r))

        wait = self.shared.call("ratelimit", take, -1)
        if wait < 0:
            self.shared.metrics.fail_open.labels("slack").inc()
            return 0
        return wait


class SharedSet:
    """TtlSet in Redis: keys remembered for ttl seconds by every replica; `add` is one SET NX EX."""

    def __init__(self, name: str, ttl: float, shared: Shared) -> None:
        self.name, self.ttl, self.shared = name, max(1, math.ceil(ttl)), shared

    def add(self, key: str) -> bool:
        """True if key was new (this replica has it now); False if seen, or if Redis cannot say (fail safe)."""
        def set_nx(r: redis.Redis) -> bool:
            return bool(r.set(self.shared.key(self.name, key), b"1", nx=True, ex=self.ttl))

        return self.shared.call(self.name, set_nx, False)

    def remember(self, key: str) -> None:
        """Remember key whether or not it was there (kb's threads: refreshes the TTL)."""
        def set_ex(r: redis.Redis) -> None:
            r.set(self.shared.key(self.name, key), b"1", ex=self.ttl)

        self.shared.call(self.name, set_ex, None)

    def __contains__(self, key: object) -> bool:
        def exists(r: redis.Redis) -> bool:
            return bool(r.exists(self.shared.key(self.name, str(key))))

        return self.shared.call(self.name, exists, False)
