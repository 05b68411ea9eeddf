"""Which gap log the settings name: Redis when KB_REDIS_URL is set, else the local SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.gaps.entries import GapStore
from kb.gaps.sqlite_store import GapLog


def gap_log(settings: Any) -> GapStore:
    """The settings' gap log: Redis when KB_REDIS_URL is set; else KB_GAPS_PATH, or gaps.sqlite in the
    document store's folder."""
    if settings.redis_url:
        from kb.gaps.redis_store import RedisGapLog

        return RedisGapLog.from_url(settings.redis_url, settings.gaps_retention_days)
    path = settings.gaps_path or Path(settings.sources_dir) / "gaps.sqlite"
    return GapLog(path, settings.gaps_retention_days)
