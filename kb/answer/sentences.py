"""Supporting sentences: the passage sentence that best matches the question, in the passage's shown language.

A sentence scores by the question's terms it contains (longer terms count more). Lines that only lead
into a list, table rows, headings and a record's own retrieval hint ("适用于…这类问题", "For questions
such as …") say nothing on their own and are never picked.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from kb.language import Language
from kb.models import Passage

_ZH_SPLIT = re.compile(r"(?<=[。！？!?；])|\n")
_EN_SPLIT = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9\"(§])|\n")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+\.)\s+")
# "案例三：边缘推理部署", "Case three: edge inference deployment": a case's title line, no sentence of its own.
_TITLE = re.compile(r"^(?:案例[一二三四五六七八九十\d]+|Case (?:one|two|three|four|five|six|seven|eight|\d+))\s*[：:]"
                    r"[^。.!?！？；;]*$", re.IGNORECASE)
_HINT = re.compile(r"^(?:出处|适用于|来源|Source|Sources|For questions (?:such as|like)|Applies to)\b", re.IGNORECASE)
# "(memory bandwidth)", "[spec sheet]": the English glosses records add beside Chinese terms.
_LATIN_GLOSS = re.compile(r"\s*[(\[（][^()\[\]（）\u4e00-\u9fff]*[A-Za-z][^()\[\]（）\u4e00-\u9fff]*[)\]）]")
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
    """The sentences of a passage worth showing alone."""
    out = []
    for raw in (_ZH_SPLIT if language == "zh" else _EN_SPLIT).split(text):
        s = _BULLET.sub("", raw).strip()
        s = re.sub(r"^#+\s*", "", s)
        if language == "zh":
            s = _LATIN_GLOSS.sub("", s).strip()
        if len(s) < 8 or s.endswith(("：", ":")) or s.startswith(("|", "---")) or _HINT.match(s) or _TITLE.match(s):
            continue
        out.append(s)
    return out


# After a direct answer a supporting sentence must share a word of substance with the question: a GPU's or
# model's name alone ("4090", "A100", "70b") is why the passage was retrieved, not evidence that it helps.
_NAME = re.compile(r"\d|^(?:rtx|gtx|geforce|nvidia|gpu|gpus|card|cards|显卡|卡|张)$", re.IGNORECASE)


def best_sentences(ranked: list[tuple[int, Passage]], terms: list[str], language: Language, n: int,
                   require_match: bool = False, per_passage: int = 1,
                   about: Callable[[Passage, str], bool] | None = None) -> list[tuple[int, str]]:
    """Up to n (marker, sentence) pairs: each passage's best sentence; the first passage always contributes unless
    `require_match` (after a direct answer, a sentence that shares no term with the question adds nothing).
    `about`, when given, keeps only the sentences it accepts (those about the entity asked of, in the passage)."""
    picked: list[tuple[int, str]] = []
    if require_match:
        terms = [t for t in terms if not _NAME.search(t)]
    # A single Chinese character ranks sentences but is no match alone: "多" of "多少" is in "多篇论文" too.
    strong = [t for t in terms if t and not re.fullmatch(r"[\u4e00-\u9fff]", t)]
    for order, (marker, p) in enumerate(ranked):
        candidates = sentences(p.text, language) if (language == "zh" or p.text != p.original) else []
        scored = sorted(((sum(len(t) for t in terms if t and t in s.lower())
                          if any(t in s.lower() for t in strong) else 0, -i, s) for i, s in enumerate(candidates)),
                        reverse=True)
        if about is not None:  # asked of the best-scoring first, and only as far as needed: it reads names
            scored = list(itertools.islice((x for x in scored if about(p, x[2])), per_passage))
        for rank, (best, _, sentence) in enumerate(scored[:per_passage]):
            if best == 0 and (order > 0 or require_match or rank > 0):
                break
            picked.append((marker, sentence))
            if len(picked) == n:
                return picked
    return picked
