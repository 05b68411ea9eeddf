"""The question reader an Engine answers with: the names registry and the exchange rate, fixed at construction.

Every turn of every conversation is read through one of these, so the same words always name the same cards
and models; the fit engine below never reads questions (it takes explicit requests).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from kb.cache import LruCache
from kb.fit.gpus import card_family
from kb.language import Language, check_language
from kb.understand.mentions import Mention, read_mentions
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
    _said: LruCache[str, tuple[Mention, ...]] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_named", LruCache(self.texts_remembered))
        object.__setattr__(self, "_said", LruCache(self.texts_remembered))

    @classmethod
    def for_corpus(cls, corpus_dir: Path, usd_cny: float = 7.2, texts_remembered: int = 16384) -> Reader:
        return cls(registry_for(Path(corpus_dir).resolve()), usd_cny, texts_remembered)

    def read(self, question: str, language: Language) -> Query:
        """The question's Query (`language`: the language of its notes; both languages are read either way).
        A workload the question rules out ("full params, not lora", "不要LoRA") is not one of its workloads."""
        q = read_query(question, self.registry, self.usd_cny, check_language(language))
        found = self.mentions(question)
        if q.wants_selection and q.model and q.gpus and all(c for _, c in q.gpus) \
                and not any(m.kind == "operation" and m.key == "pick" for m in found):
            q.wants_selection = False  # "预算130万…想确认8张40G做全参够不够": a verdict on their cards, not a pick
        places = {m.key for m in found if m.kind == "setting" and not m.negated}
        q.no_datacenter = bool(places & {"office", "no_server_room"}) and "server_room" not in places
        if q.wants_selection and len(q.gpus) >= 2 and (q.model or q.workloads or q.budget_cny is not None) \
                and any(m.kind == "operation" and m.key == "pick" for m in found):
            families = {card_family(g) for g, _ in q.gpus}  # "A100和4090选哪个": the pick is between these
            q.among = [g for g in self.registry.gpu_ids if card_family(g) in families]
        said = [m for m in found if m.kind == "workload"]
        if any(m.negated for m in said):
            q.workloads = workloads_of({m.key for m in said if not m.negated}) or \
                [w for w in q.workloads if w not in {_DENIES.get(m.key, m.key) for m in said if m.negated}]
        return q

    def mentions(self, text: str) -> list[Mention]:
        """The question's typed mentions (kb/understand/mentions.py), money in CNY at this reader's rate."""
        return list(self._said.get_or_compute(text, lambda: tuple(read_mentions(text, self.registry, self.usd_cny))))

    def gpus_named(self, text: str) -> tuple[str, ...]:
        """The GPU records a text names, first named first (a passage's sentence: is it about the card asked of?).
        The corpus's lines repeat from answer to answer, so each is read once."""
        return self._named.get_or_compute(text, lambda: self._find_gpus(text))

    def _find_gpus(self, text: str) -> tuple[str, ...]:
        found = self.registry.find(unicodedata.normalize("NFKC", text).lower())
        return tuple(dict.fromkeys(f.id for f in found if f.id and f.kind == "gpu"))


# A workload word ruled out → the fit engine's workload it rules out.
_DENIES = {"pretrain": "full", "train": "full"}


def workloads_of(keys: set[str]) -> list[str]:
    """The fit engine's workloads for the workload words said (adapters named win; a fine-tune that names no
    method is full training or LoRA, as the reader takes it)."""
    if keys & {"qlora", "lora"}:
        return [w for w in ("qlora", "lora") if w in keys]
    if keys & {"full", "pretrain", "train"}:
        return ["full"]
    if "fine-tune" in keys:
        return ["full", "lora"]
    return ["inference"] if "inference" in keys else []

