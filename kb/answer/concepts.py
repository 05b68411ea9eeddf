"""What a term is, from the concept records: the definition leads an answer that asks what something is.

A question that names a term a concept record holds ("MIG", "张量并行", "NF4", "MFU") and asks what it is,
what it means or how two of them differ gets the record's own definition first — the opening sentences of
its "what it is" section — cited to that record; whatever else the answer computes (a card's MIG instances, a
model's KV cache) follows it. A term is found by the record's name and aliases, as the lexical index finds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from indexer.chunks import Chunk
from indexer.sentences import split
from kb.answer.parts import Sentence
from kb.language import Language
from kb.understand.terms import terms

LEAD_SENTENCES = 2  # of one term's definition; one each when two terms are set side by side
_SECTION = {"zh": re.compile(r"^##\s*是什么.*$", re.M), "en": re.compile(r"^##\s*What it is.*$", re.M | re.I)}
_NEXT = re.compile(r"^##\s", re.M)
_VERSUS = re.compile(r"\bvs\.?\b|versus|区别|差别|不同|differ|difference|compared? (?:to|with)", re.I)
# "what exactly is …", "what actually does … do": a what-is with words between the cue's parts
_WHAT_IS = re.compile(r"\bwhat(?:\s+(?:exactly|actually|really|even|precisely))?\s+(?:is|are)\b|"
                      r"\bwhat\s+does\b.{0,40}\bmean\b|是(?:个)?(?:什么|啥)", re.I)


def asks_what(question: str) -> bool:
    """The question asks what something is or means (the cue words' "define", "what exactly is …")."""
    q = question.lower()
    return bool(_WHAT_IS.search(q)) or any(h.kind == "operation" and h.key == "define"
                                           for h in terms("cues.yaml").find(q))


def asks_versus(question: str) -> bool:
    """The question sets two things against each other ("张量并行 vs 流水线并行", "hbm vs gddr")."""
    return bool(_VERSUS.search(question))


@lru_cache(maxsize=4096)
def _alias_pattern(alias: str) -> re.Pattern[str]:
    a = re.escape(alias.lower())
    return re.compile(rf"(?<![a-z0-9]){a}(?![a-z0-9])" if alias.isascii() else a)


def named_concepts(question: str, chunks: Iterable[Chunk]) -> list[Chunk]:
    """The concept records whose name or an alias the question says, in the order it says them."""
    q = question.lower()
    found: list[tuple[int, Chunk]] = []
    for c in chunks:
        if c.kind != "concept" or not c.aliases:
            continue
        starts = [m.start() for a in c.aliases if len(a) >= 2 for m in [_alias_pattern(a).search(q)] if m]
        if starts:
            found.append((min(starts), c))
    return [c for _, c in sorted(found, key=lambda sc: sc[0])]


def definition(chunk: Chunk, language: Language, n: int = LEAD_SENTENCES) -> list[str]:
    """The first `n` sentences of the record's "what it is" section, in the answer's language."""
    text = chunk.text if language == "zh" else (chunk.text_en or "")
    head = _SECTION[language].search(text)
    if head is None:
        return []
    rest = text[head.end():]
    end = _NEXT.search(rest)
    return split(rest[: end.start()] if end else rest, language)[:n]


def concept_lead(question: str, chunks: Iterable[Chunk], language: Language,
                 cite: Callable[[Chunk], str]) -> list[Sentence]:
    """The definitions an answer leads with: of the terms the question names, when it asks what they are or sets
    two of them against each other (`question`: with the cards' and models' names read out, so "A800 PCIe" names
    no PCIe term)."""
    named = named_concepts(question, chunks)[:2]
    if not (asks_what(question) or (asks_versus(question) and len(named) == 2)):
        return []
    each = LEAD_SENTENCES if len(named) == 1 else 1
    return [Sentence(s, [cite(c)], exempt=tuple(c.aliases)) for c in named for s in definition(c, language, each)]
