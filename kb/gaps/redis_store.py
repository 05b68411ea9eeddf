"""kb gaps in Redis (KB_REDIS_URL): every replica records into one log, and `kb gaps` anywhere reads it.

One sorted set, `kb:gaps`: a member a shortfall (a random nonce, the question, its kind, the unknown names; JSON,
no user id), scored by the time it was asked. Each write is one Lua script, one atomic round trip: drop what is
older than the retention, add, keep at most MAX_ENTRIES, and set the key to expire one retention after its newest
member, so the log is forgotten on time even if nobody asks or reads again (the key's TTL, not a sweeper).
Reads trim the same way first. Time is Redis's clock (TIME), as for the shared rate limits, so the replicas'
clocks never matter; a caller may pass `now` (seconds) instead, which is how the tests move time.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from kb.gaps.entries import DAY_S, group, shortfalls

KEY = "kb:gaps"
# Newest kept: bounds the set's memory beside Redis's other state (compose and k8s give Redis 256 MB) at
# ~80 MB in the worst case (50,000 × a 500-character question, KB_MAX_QUESTION_CHARS, in UTF-8), a few MB for
# questions of ordinary length; beyond it, the oldest shortfalls are forgotten first.
MAX_ENTRIES = 50_000
TIMEOUT_S = 1.0  # for kb's own client (the CLI); the service uses its shared client's 250 ms and breaker

_NOW = """local now = tonumber(ARGV[1])
if not now then local t = redis.call('TIME'); now = tonumber(t[1]) + tonumber(t[2]) / 1000000 end
local keep = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. string.format('%.6f', now - keep))
"""
# KEYS[1] the log; ARGV: now ('' for Redis's clock), retention s, most members kept, then the members.
_RECORD = _NOW + """for i = 4, #ARGV do redis.call('ZADD', KEYS[1], string.format('%.6f', now), ARGV[i]) end
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] then
  redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', (tonumber(newest[2]) + keep) * 1000))
end
return #ARGV - 3
"""
# KEYS[1] the log; ARGV: now ('' for Redis's clock), retention s, window s.
_READ = _NOW + """return redis.call('ZRANGEBYSCORE', KEYS[1], string.format('%.6f', now - tonumber(ARGV[3])), '+inf')
"""


class RedisGapLog:
    """The gap log as one Redis sorted set; `errors` are redis-py's (a connection refused or timed out included)."""

    errors: tuple[type[Exception], ...] = (redis.RedisError,)

    def __init__(self, client: redis.Redis, retention_days: float = 30.0, key: str = KEY,
                 max_entries: int = MAX_ENTRIES) -> None:
        self.client, self.key, self.max_entries = client, key, max_entries
        self.retention_s = retention_days * DAY_S
        self._record = client.register_script(_RECORD)
        self._read = client.register_script(_READ)

    @classmethod
    def from_url(cls, url: str, retention_days: float = 30.0) -> RedisGapLog:
        """A log on its own client: short timeouts, no retries (a down Redis is one failed call, not a hang)."""
        client = redis.Redis.from_url(url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S,
                                      retry=Retry(NoBackoff(), 0), health_check_interval=0)
        return cls(client, retention_days)

    def _add(self, kinds: list[tuple[str, list[str]]], question: str, now: float | None) -> None:
        members = [json.dumps([secrets.token_hex(8), question, kind, names], ensure_ascii=False)
                   for kind, names in kinds]
        self._record(keys=[self.key], args=["" if now is None else repr(now), repr(self.retention_s),
                                            self.max_entries, *members])

    def record(self, question: str, coverage: str, unknown: list[str], now: float | None = None,
               about: list[str] | None = None) -> bool:
        """Keep the question if kb fell short on it, with what it was about; True when it was kept."""
        kinds = shortfalls(coverage, unknown)
        if not kinds:
            return False
        self._add([(k, unknown if k == "unknown" else about or []) for k in kinds], question, now)
        return True

    def thumbs_down(self, question: str, now: float | None = None, about: list[str] | None = None) -> None:
        """A 👎 or a "wrong" flag on an answer (Slack, the web page): the question is kept as marked wrong."""
        self._add([("wrong", about or [])], question, now)

    def summary(self, since_s: float | None = None, now: float | None = None, top: int = 20) -> dict[str, Any]:
        """Grouped as the SQLite log groups them (kb.gaps.entries.group), over the last `since_s`
        (default: the retention)."""
        window = since_s if since_s is not None else self.retention_s
        raw = self._read(keys=[self.key], args=["" if now is None else repr(now), repr(self.retention_s),
                                                repr(window)])
        rows = []
        for member in raw:
            _nonce, question, kind, names = json.loads(member)
            rows.append((question, kind, names))
        return group(rows, window, top)
