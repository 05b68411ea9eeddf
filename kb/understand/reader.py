"""The question reader an Engine answers with: the names registry and the exchange rate, fixed at construction.

Every turn of every conversation is read through one of these, so the same words always name the same cards
and models; the fit engine below never reads questions (it takes explicit requests).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from kb.cache import LruCache
from kb.language import Language, check_language
from kb.understand.names import Registry, registry_for
from kb.understand.query import Query
from kb.understand.read import read_query


@dataclass(frozen=True)
class Reader:
    """Questions → Queries, over one corpus's names."""

    registry: Registry
    usd_cny: float = 7.2
    texts_remembered: int = 16384  # texts whose cards are kept (KB_TEXT_CACHE_SIZE)
    _named: LruCache[str, tuple[str, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_named", LruCache(self.texts_remembered))

    @classmethod
    def for_corpus(cls, corpus_dir: Path, usd_cny: float = 7.2, texts_remembered: int = 16384) -> Reader:
        return cls(registry_for(Path(corpus_dir).resolve()), usd_cny, texts_remembered)

    def read(self, question: str, language: Language) -> Query:
        """The question's Query (`language`: the language of its notes; both languages are read either way)."""
        return read_query(question, self.registry, self.usd_cny, check_language(language))

    def gpus_named(self, text: str) -> tuple[str, ...]:
        """The GPU records a text names, first named first (a passage's sentence: is it about the card asked of?).
        The corpus's lines repeat from answer to answer, so each is read once."""
        return self._named.get_or_compute(text, lambda: self._find_gpus(text))

    def _find_gpus(self, text: str) -> tuple[str, ...]:
        found = self.registry.find(unicodedata.normalize("NFKC", text).lower())
        return tuple(dict.fromkeys(f.id for f in found if f.id and f.kind == "gpu"))
