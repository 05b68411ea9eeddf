"""English question → the document's Chinese terms, through the corpus glossary."""

from __future__ import annotations

import re
from functools import lru_cache

from kb.cache import LruCache

TEXTS_REMEMBERED = 4096  # questions whose glossary phrases are kept (KB_TEXT_CACHE_SIZE): translate, expand read them


@lru_cache(maxsize=4096)
def _phrase(en: str) -> re.Pattern[str]:
    """`en` as a whole phrase; compiled when a question first holds it (a glossary has ~850 phrases, and
    compiling them all cost a cold `kb ask` ~0.1 s)."""
    return re.compile(rf"(?<![a-z0-9]){re.escape(en)}(?![a-z0-9])")


class Expander:
    """Finds glossary phrases in an English question (longest first) and returns their Chinese terms."""

    def __init__(self, glossary: list[tuple[list[str], list[str]]], texts_remembered: int = TEXTS_REMEMBERED) -> None:
        pairs = [(en, zh) for ens, zh in glossary for en in ens]
        pairs.sort(key=lambda p: -len(p[0]))
        self._pairs = pairs
        self._found_in: LruCache[str, list[tuple[re.Pattern[str], list[str]]]] = LruCache(texts_remembered)

    def _found(self, text: str) -> list[tuple[re.Pattern[str], list[str]]]:
        """The pairs whose phrase occurs in `text` (lower-cased), longest first. An English question asks this
        twice, for its query vector (translate) and its BM25 terms (expand), and each asking tests every
        glossary phrase (~850): remembered by text (the list is only read)."""
        return self._found_in.get_or_compute(
            text, lambda: [(_phrase(en), zh) for en, zh in self._pairs if en in text])  # a phrase's letters first

    def expand(self, question: str) -> list[str]:
        """Chinese terms for the English phrases in `question`; a phrase inside a longer match is skipped."""
        text = question.lower()
        terms: list[str] = []
        for pattern, zh in self._found(text):
            if pattern.search(text):
                text = pattern.sub(" ", text)
                terms.extend(t for t in zh if t not in terms)
        return terms

    def translate(self, question: str) -> str:
        """The question with each glossary phrase replaced by its first Chinese term.

        e5 matches an English query to English text better than to Chinese text of the same
        meaning; a question moved towards the corpus's language scores the Chinese passages fairly.
        """
        text = question.lower()
        for pattern, zh in self._found(text):
            text = pattern.sub(f" {zh[0]} ", text)
        return " ".join(text.split())
