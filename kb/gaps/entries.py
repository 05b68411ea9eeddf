"""What a gap is, whichever store keeps it: the kinds of shortfall, how they are grouped, and the quiet writes.

For every question answered `partial` or `not_covered`, or naming something kb has no record for, the
question text is kept (never who asked) with its coverage and unknown names, for KB_GAPS_RETENTION_DAYS (30),
in one of two stores (kb/gaps/factory.py picks): Redis when KB_REDIS_URL is set, so every replica records into
one log (kb/gaps/redis_store.py), else a local SQLite file (kb/gaps/sqlite_store.py). Either store forgets what
is older than the retention on every write and read. `kb gaps` and GET /v1/gaps group them: the unknown names
most asked, the questions not covered, the partial ones, and those marked wrong.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, Protocol

from kb.errors import BadInput, KbError

_SINCE = re.compile(r"^(\d+)\s*([dhm])$")
DAY_S = 86400


class GapsUnavailable(KbError):
    """The gap log could not be read (Redis down, the SQLite file unreadable); the message says which."""


class GapStore(Protocol):
    """Where shortfalls are kept; `errors` are the failures of its storage, which writes may swallow."""

    errors: tuple[type[Exception], ...]

    def record(self, question: str, coverage: str, unknown: list[str], now: float | None = None) -> bool: ...

    def thumbs_down(self, question: str, now: float | None = None) -> None: ...

    def summary(self, since_s: float | None = None, now: float | None = None, top: int = 20) -> dict[str, Any]: ...


def parse_since(text: str) -> float:
    """Seconds in "7d", "12h" or "30m"; BadInput saying the form otherwise."""
    m = _SINCE.match(text.strip().lower())
    if not m:
        raise BadInput(f"--since {text!r}: give a number and d, h or m, e.g. 7d", field="since")
    return int(m.group(1)) * {"d": DAY_S, "h": 3600, "m": 60}[m.group(2)]


def shortfalls(coverage: str, unknown: list[str]) -> list[str]:
    """The kinds of shortfall an answer is: not_covered or partial, and unknown when it named unknown things."""
    return [k for k, hit in (("not_covered", coverage == "not_covered"), ("partial", coverage == "partial"),
                             ("unknown", bool(unknown))) if hit]


def group(rows: Iterable[tuple[str, str, list[str]]], window_s: float, top: int = 20) -> dict[str, Any]:
    """(question, kind, names) rows grouped: unknown names by how often asked, each kind's questions by count."""
    names: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {"not_covered": Counter(), "partial": Counter(), "wrong": Counter()}
    for question, kind, unknown in rows:
        if kind == "unknown":
            names.update(unknown)
        elif kind in by_kind:
            by_kind[kind][question] += 1
    return {"since_days": round(window_s / DAY_S, 2),
            "unknown_names": [{"name": n, "asked": c} for n, c in names.most_common(top)],
            **{kind: [{"question": q, "asked": c} for q, c in counter.most_common(top)]
               for kind, counter in by_kind.items()}}


def record_quietly(log: GapStore, question: str, coverage: str, unknown: list[str]) -> None:
    """Record, never failing the answer it follows (a read-only disk or Redis down is a lost record)."""
    with contextlib.suppress(*log.errors):
        log.record(question, coverage, unknown)


def thumbs_down_quietly(log: GapStore, question: str) -> None:
    """A 👎 recorded, never failing the vote it follows."""
    with contextlib.suppress(*log.errors):
        log.thumbs_down(question)


def read_summary(log: GapStore, since_s: float | None = None) -> dict[str, Any]:
    """The grouped gaps, or GapsUnavailable naming why the log could not be read (exit 1, HTTP 503)."""
    try:
        return log.summary(since_s)
    except log.errors as e:
        raise GapsUnavailable(f"the gap log cannot be read ({type(e).__name__}: {e}); "
                              "check KB_REDIS_URL or KB_GAPS_PATH") from None
