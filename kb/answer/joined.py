"""Several asks answered in one: each ask's answer in the order asked, one set of passages and fit checks.

Each part was composed and verified against its own passages and checks; joining renumbers its markers into
the joined lists ([2] of the second part may become [6]), so every number still points at what supports it.
A part kb could not answer is said at the end, plainly, instead of standing in the way of the others.
"""

from __future__ import annotations

import re

from kb.fit.result import FitResult, Selection
from kb.language import Language
from kb.models import Answer, Passage
from kb.words.catalog import say

_MARKER = re.compile(r"\[(\d+|F\d+|S)\]")
_SENTENCE = {"zh": re.compile(r"(?<=[。！？])"), "en": re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")}


def _renumber(text: str, passages: dict[int, int], checks: int, selection: bool) -> str:
    """A part's markers in the joined numbering; a sentence citing a selection another part holds is dropped."""
    def marker(m: re.Match[str]) -> str:
        tag = m.group(1)
        if tag == "S":
            return "[S]" if selection else "[?]"
        if tag.startswith("F"):
            return f"[F{int(tag[1:]) + checks}]"
        return f"[{passages.get(int(tag), 0)}]"

    return _MARKER.sub(marker, text)


def join(parts: list[tuple[str, Answer]], language: Language, top_k: int) -> Answer:
    """One Answer for the asks of a message, from each ask's (clause, Answer), in the order asked."""
    passages: list[Passage] = []
    checks: list[FitResult] = []
    selection: Selection | None = None
    texts: list[str] = []
    unanswered: list[str] = []
    unknown: list[str] = []
    seen: set[str] = set()
    for clause, part in parts:
        unknown += [u for u in part.unknown if u not in unknown]
        if part.coverage == "not_covered":
            unanswered.append(clause)
            continue
        index: dict[int, int] = {}
        for i, p in enumerate(part.passages, 1):
            at = next((j for j, q in enumerate(passages, 1) if q.id == p.id), None)
            if at is None:
                passages.append(p.model_copy(update={"rank": len(passages) + 1}))
                at = len(passages)
            index[i] = at
        owns_selection = part.selection is not None and selection is None
        text = _renumber(part.answer, index, len(checks), owns_selection)
        if owns_selection:
            selection = part.selection
        checks += part.fit_checks
        kept = [s.strip() for s in _SENTENCE[language].split(text)
                if s.strip() and "[?]" not in s and "[0]" not in s and _MARKER.sub("", s).strip() not in seen]
        seen.update(_MARKER.sub("", s).strip() for s in kept)
        texts.append(("" if language == "zh" else " ").join(kept))
    if unanswered:
        sep = "；" if language == "zh" else "; "
        texts.append(say("asks_unanswered", language, asks=sep.join(unanswered)))
    answered = len(parts) - len(unanswered)
    coverage = "not_covered" if answered == 0 else "partial" if unanswered or unknown else "answered"
    first = parts[0][1]
    return first.model_copy(update={
        "answer": ("" if language == "zh" else " ").join(t for t in texts if t),
        "coverage": coverage, "unknown": unknown, "passages": passages[:max(top_k, len(passages))],
        "fit_checks": checks, "selection": selection})
