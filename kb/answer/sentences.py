"""Supporting sentences: the passage sentence that best matches the question, in the passage's shown language.

A sentence scores by the question's terms it contains (longer terms count more), or — where no direct answer
leads — by what it means: its vector (made at index time) against the question's, with the asked figure's
words and a figure of the asked kind counting for it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from indexer.sentences import split
from kb.language import Language
from kb.models import Passage

_STOPWORDS = (
    "a an the of for to in on at by with and or is are was were be been do does did can could should "
    "would will what which who whom whose when where why how much many this that these those it its i me "
    "my we our you your they them their there than then so if as about into from any some more most very "
    "just also vs versus get got use using used need needs one card cards gpu gpus have has had does "
    "doing tell say like want give"
)
_STOP = frozenset(_STOPWORDS.split())


def question_terms(question: str, language: Language, zh_terms: list[str]) -> list[str]:
    """The terms a supporting sentence is scored by: Chinese words for zh, English content words for en."""
    if language == "zh":
        return zh_terms
    words = re.findall(r"[a-z0-9][a-z0-9.+-]*", question.lower())
    return [w.rstrip("s") if len(w) > 4 else w for w in words if w not in _STOP and len(w) >= 3]


def sentences(text: str, language: Language) -> list[str]:
    """The sentences of a passage worth showing alone (indexer/sentences.py: the index embeds the same)."""
    return split(text, language)


# After a direct answer a supporting sentence must share a word of substance with the question: a GPU's or
# model's name alone ("4090", "A100", "70b") is why the passage was retrieved, not evidence that it helps.
_NAME = re.compile(r"\d|^(?:rtx|gtx|geforce|nvidia|gpu|gpus|card|cards|显卡|卡|张)$", re.IGNORECASE)


Meaning = Callable[[Passage, list[str]], list[float | None]]
# How much closer in meaning a later sentence must be to be quoted before an earlier one of the same words: an
# e5 cosine moves by a few hundredths between paraphrases, so closer than that is a tie, and order decides.
_CLOSER = 0.03


def best_sentences(ranked: list[tuple[int, Passage]], terms: list[str], language: Language, n: int,
                   require_match: bool = False, per_passage: int = 1,
                   about: Callable[[Passage, str], bool] | None = None, meaning: Meaning | None = None,
                   units: list[re.Pattern[str]] | None = None) -> list[tuple[int, str]]:
    """Up to n (marker, sentence) pairs: each passage's best sentence; the first passage always contributes unless
    `require_match` (after a direct answer, a sentence that shares no term with the question adds nothing).
    `about`, when given, keeps only the sentences it accepts (those about the entity asked of, in the passage).
    `meaning` and `units`, when given, rank sentences that share as many of the question's words: one stating a
    figure of the kind asked first, then the one closest in meaning to the question (its vector's cosine)."""
    picked: list[tuple[int, str]] = []
    if require_match:
        terms = [t for t in terms if not _NAME.search(t)]
    # A single Chinese character ranks sentences but is no match alone: "多" of "多少" is in "多篇论文" too.
    strong = [t for t in terms if t and not re.fullmatch(r"[\u4e00-\u9fff]", t)]
    for order, (marker, p) in enumerate(ranked):
        candidates = sentences(p.text, language) if (language == "zh" or p.text != p.original) else []
        sims = meaning(p, candidates) if meaning is not None and candidates else [None] * len(candidates)
        ranked_by = sorted(((sum(len(t) for t in terms if t and t in s.lower())
                             if any(t in s.lower() for t in strong) else 0,
                             any(u.search(s) for u in units or ()), round((sim or 0.0) / _CLOSER), -i, s)
                            for i, (s, sim) in enumerate(zip(candidates, sims, strict=True))), reverse=True)
        scored = [(x[0], x[3], x[4]) for x in ranked_by]
        if about is not None:  # asked of the best-scoring first, and only as far as needed: it reads names
            scored = list(itertools.islice((x for x in scored if about(p, x[2])), per_passage))
        for rank, (best, _, sentence) in enumerate(scored[:per_passage]):
            if best == 0 and (order > 0 or require_match or rank > 0):
                break
            picked.append((marker, sentence))
            if len(picked) == n:
                return picked
    return picked


# The unit a figure of each asked kind is written with: a sentence stating one is likelier to hold the answer.
_UNITS = {"bandwidth": r"[GT]B/s", "bus_width": r"\d\s*-?\s*bit|位宽", "vram": r"\d\s*(?:GB|GiB|G)\b",
          "power": r"\d\s*(?:W|瓦)\b", "price": r"\d\s*(?:元|万|CNY|RMB)|[¥$]\s*\d",
          "compute": r"\d\s*(?:TFLOPS|TOPS)", "latency": r"\d\s*(?:ms|毫秒)", "share": r"\d\s*%|\d\s*成"}
ASKED_KIND = {"latency": r"延迟|latency|\bms\b|毫秒|响应", "share": r"多少比例|比例|share|percent|%|几成|多少负载"}


def asked_units(question: str, attributes: list[str]) -> list[re.Pattern[str]]:
    """The units of the figures a question asks for: from its spec attributes, and latency or shares said."""
    kinds = [a for a in attributes if a in _UNITS]
    kinds += [k for k, words in ASKED_KIND.items() if re.search(words, question, re.IGNORECASE)]
    return [re.compile(_UNITS[k], re.IGNORECASE) for k in dict.fromkeys(kinds)]
