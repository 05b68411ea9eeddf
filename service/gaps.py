"""The service's gap log: in Redis on the app's shared client when KB_REDIS_URL is set, else the SQLite file.

On Redis, recording goes through the shared client's breaker (service/shared.py): an outage costs one timeout
a second, not one a shortfall answer, is counted in kb_redis_failures_total{op="gaps"}, and loses the record,
never the answer. Reading (GET /v1/gaps) asks Redis itself and is a 503 while it cannot.
"""

from __future__ import annotations

from kb.gaps.entries import GapStore, record_quietly, thumbs_down_quietly
from kb.gaps.factory import gap_log
from kb.gaps.redis_store import RedisGapLog
from kb.settings import Settings
from service.shared import Shared


def app_gaps(settings: Settings, shared: Shared | None) -> GapStore:
    """One gap log an app: every replica's into one Redis set, or this machine's SQLite file."""
    if shared is None:
        return gap_log(settings)
    return RedisGapLog(shared.client, settings.gaps_retention_days, key=shared.key("gaps"))


def record_gap(gaps: GapStore, shared: Shared | None, question: str, coverage: str, unknown: list[str],
               about: list[str] | None = None) -> None:
    """Record a shortfall answer with what it was about; never raises (a lost record is logged and counted, the
    answer goes out)."""
    if shared is None or not isinstance(gaps, RedisGapLog):
        record_quietly(gaps, question, coverage, unknown, about)
        return
    shared.call("gaps", lambda _client: gaps.record(question, coverage, unknown, about=about), False)


def flag_wrong(gaps: GapStore, shared: Shared | None, question: str, about: list[str] | None = None) -> None:
    """A 👎 or "wrong" flag from the web page; never raises, as a shortfall's record."""
    if shared is None or not isinstance(gaps, RedisGapLog):
        thumbs_down_quietly(gaps, question, about)
        return
    shared.call("gaps", lambda _client: gaps.thumbs_down(question, about=about), None)
