"""What a gap is, whichever store keeps it: the kinds of shortfall, how they are grouped, and the quiet writes.

For every question answered `partial` or `not_covered`, or naming something kb has no record for, and every 👎 or
"wrong" flag (Slack, the web page), the question text is kept (never who asked) with its coverage, its unknown
names and what it was about (the cards, models and topics of its answer's state), for KB_GAPS_RETENTION_DAYS (30),
in one of two stores (kb/gaps/factory.py picks): Redis when KB_REDIS_URL is set, so every replica records into
one log (kb/gaps/redis_store.py), else a local SQLite file (kb/gaps/sqlite_store.py). Either store forgets what
is older than the retention on every write and read. `kb gaps` and GET /v1/gaps group them: the unknown names
most asked, the questions not covered, the partial ones, and those marked wrong; and all of them by the names
(`by_name`) and topics (`by_topic`) they were about, each with how often and in which ways kb fell short.
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
_ID = re.compile(r"^[a-z0-9][a-z0-9._\-]{0,63}$")  # a record, preset or topic id as an answer's state writes it
MAX_ABOUT = 12  # names and topics kept for one question
EXAMPLES = 3  # questions shown under each name or topic


class GapsUnavailable(KbError):
    """The gap log could not be read (Redis down, the SQLite file unreadable); the message says which."""


class GapStore(Protocol):
    """Where shortfalls are kept; `errors` are the failures of its storage, which writes may swallow."""

    errors: tuple[type[Exception], ...]

    def record(self, question: str, coverage: str, unknown: list[str], now: float | None = None,
               about: list[str] | None = None) -> bool: ...

    def thumbs_down(self, question: str, now: float | None = None, about: list[str] | None = None) -> None: ...

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


def about(state: Any) -> list[str]:
    """What an answer was about, from its `state`: "gpu:<id>" and "model:<id>" for the names it read,
    "topic:<key>" for what it asked (price, rent_or_buy, vram …), its workload and its intent. Anything in a state
    that is not an id as kb writes one is left out (a state may come from a client)."""
    if not isinstance(state, dict):
        return []
    out: list[str] = []

    def add(prefix: str, value: Any) -> None:
        if isinstance(value, str) and _ID.match(value) and f"{prefix}:{value}" not in out:
            out.append(f"{prefix}:{value}")

    def listed(key: str) -> list[Any]:
        value = state.get(key)
        return value[:MAX_ABOUT] if isinstance(value, list) else [value]

    for g in listed("gpus"):
        add("gpu", g.get("id") if isinstance(g, dict) else None)
    for m in listed("models"):
        add("model", m)
    add("topic", state.get("asked"))
    for a in listed("attributes"):
        add("topic", a)
    for w in listed("workload"):
        add("topic", w)
    if state.get("intent") not in ("general", None):
        add("topic", state.get("intent"))
    return out[:MAX_ABOUT]


def about_of(carried: Any) -> list[str]:
    """An `about` list carried back by a client (a Slack button's value, the web page's flag): its items kept only
    when they are ids as `about` writes them."""
    if not isinstance(carried, list):
        return []
    kept = [a for a in carried[:MAX_ABOUT] if isinstance(a, str) and a.partition(":")[0] in ("gpu", "model", "topic")
            and _ID.match(a.partition(":")[2])]
    return list(dict.fromkeys(kept))


def group(rows: Iterable[tuple[str, str, list[str]]], window_s: float, top: int = 20) -> dict[str, Any]:
    """(question, kind, names) rows grouped: unknown names by how often asked, each kind's questions by count, and
    every shortfall under the names and topics it was about (an unknown name counts as a name)."""
    names: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {"not_covered": Counter(), "partial": Counter(), "wrong": Counter()}
    grouped: dict[str, dict[str, Any]] = {}
    for question, kind, mentioned in rows:
        if kind == "unknown":
            names.update(mentioned)
        elif kind in by_kind:
            by_kind[kind][question] += 1
        for item in mentioned:
            key = f"name:{item}" if kind == "unknown" else item
            entry = grouped.setdefault(key, {"kinds": Counter(), "questions": Counter()})
            entry["kinds"][kind] += 1
            entry["questions"][question] += 1

    def listed(prefixes: tuple[str, ...]) -> list[dict[str, Any]]:
        items = [(k.partition(":"), v) for k, v in grouped.items() if k.startswith(prefixes)]
        items.sort(key=lambda kv: (-sum(kv[1]["kinds"].values()), kv[0][2]))
        return [{"name": name, "of": of, "asked": sum(v["kinds"].values()), "kinds": dict(v["kinds"].most_common()),
                 "questions": [q for q, _ in v["questions"].most_common(EXAMPLES)]}
                for (of, _, name), v in items[:top]]

    return {"since_days": round(window_s / DAY_S, 2),
            "unknown_names": [{"name": n, "asked": c} for n, c in names.most_common(top)],
            **{kind: [{"question": q, "asked": c} for q, c in counter.most_common(top)]
               for kind, counter in by_kind.items()},
            "by_name": listed(("gpu:", "model:", "name:")), "by_topic": listed(("topic:",))}


def record_quietly(log: GapStore, question: str, coverage: str, unknown: list[str],
                   about: list[str] | None = None) -> None:
    """Record, never failing the answer it follows (a read-only disk or Redis down is a lost record)."""
    with contextlib.suppress(*log.errors):
        log.record(question, coverage, unknown, about=about)


def thumbs_down_quietly(log: GapStore, question: str, about: list[str] | None = None) -> None:
    """A 👎 (or a "wrong" flag) recorded, never failing the vote it follows."""
    with contextlib.suppress(*log.errors):
        log.thumbs_down(question, about=about)


def read_summary(log: GapStore, since_s: float | None = None) -> dict[str, Any]:
    """The grouped gaps, or GapsUnavailable naming why the log could not be read (exit 1, HTTP 503)."""
    try:
        return log.summary(since_s)
    except log.errors as e:
        raise GapsUnavailable(f"the gap log cannot be read ({type(e).__name__}: {e}); "
                              "check KB_REDIS_URL or KB_GAPS_PATH") from None
