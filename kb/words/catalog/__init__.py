"""Everything kb says, in Chinese and English: one catalog, read through one lookup.

The sentences are kept by topic (an answer's lead sentences, a fit check's working, the notes beside
passages, a follow-up's slot names) in the modules of this package and merged here into one key space,
checked once for a key used twice. `say` fills one sentence (its amounts of money
written with thousands separators, kb/words/money.py); `table` hands a front end its whole label
set (the terminal, the plain-text fit check, Slack, the web page: served to it as /web/words.js). A language
is checked on every lookup (kb.language): nothing falls back to English silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.language import Language, check_language
from kb.words.catalog.answer import ANSWER, SOURCES
from kb.words.catalog.conversation import CONVERSATION
from kb.words.catalog.documents import DOCUMENTS
from kb.words.catalog.fit import FIT
from kb.words.catalog.labels import FIT_TEXT, NOTES, ORIGIN_WORDS, TERMINAL
from kb.words.catalog.page import PAGE
from kb.words.catalog.slack import LABELS
from kb.words.catalog.why import MECHANISMS
from kb.words.money import grouped


def _merge(*parts: Mapping[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for part in parts:
        for key, entry in part.items():
            if key in merged:
                raise RuntimeError(f"words catalog: the key {key!r} is defined twice")
            merged[key] = entry
    return merged


CATALOG = _merge(ANSWER, FIT, NOTES, CONVERSATION, MECHANISMS, DOCUMENTS,
                 {f"source.{k}": v for k, v in SOURCES.items()})
_TABLES: dict[str, Mapping[str, Any]] = {"terminal": TERMINAL, "fit_text": FIT_TEXT, "slack": LABELS, "page": PAGE,
                                         "origins": ORIGIN_WORDS}


def cards(count: Any, gpu: str, language: Language) -> str:
    """'one RTX 4090', '4 × RTX 4090', '4 张 RTX 4090'."""
    if check_language(language) == "zh":
        return f"{count} 张 {gpu}"
    return f"one {gpu}" if count == 1 else f"{count} × {gpu}"


def say(key: str, language: Language, /, **values: Any) -> str:
    """The sentence `key` in `language`, its placeholders filled; {cards} is made from `count` and `gpu`."""
    entry = CATALOG[key][check_language(language)]
    if "{cards}" in entry and "cards" not in values:
        values["cards"] = cards(values["count"], values["gpu"], language)
    return grouped(entry.format(**values))  # an amount quoted from a table or a document gets its separators


def has(key: str) -> bool:
    """Whether the catalog holds `key` (a Note's key from outside, such as a workload kb has no name for)."""
    return key in CATALOG


def table(name: str, language: Language) -> Any:
    """A front end's whole label set ('terminal', 'fit_text', 'slack' or 'page', and 'origins': where a passage
    comes from, for all of them) in `language`."""
    return _TABLES[name][check_language(language)]
