"""Turning ranked chunks into the Answer: passages with citations, notes, and an extractive summary."""

from __future__ import annotations

import re

from indexer.chunks import Chunk
from kb.models import Passage, Source

SUMMARY_SENTENCES = 3
_SPLIT = re.compile(r"(?<=[。！？!?])|\n")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+\.)\s+")

NOTES = {
    "missing_table": {
        "zh": "原文此处提到的对比表格并未包含在文档中。",
        "en": "The document refers to a comparison table here that it does not contain.",
    },
    "table_link": {
        "zh": "kb 根据规格记录计算的对比表：{id}。",
        "en": "kb's table computed from the spec records: {id}.",
    },
    "table_none": {
        "zh": "kb 没有可替代它的计算表：原文未给出所需数据。",
        "en": "kb has no computed table for it: the document gives no data to build one from.",
    },
}


def passage_notes(chunk: Chunk, tables: dict[str, str], language: str) -> list[str]:
    """Caveats shown beside a passage, in the question's language."""
    notes = []
    if "missing_table" in chunk.notes:
        notes.append(NOTES["missing_table"][language])
        table = tables.get(chunk.section)
        notes.append(NOTES["table_link"][language].format(id=table) if table else NOTES["table_none"][language])
    return notes


def to_passage(chunk: Chunk, rank: int, score: float, tables: dict[str, str], language: str) -> Passage:
    return Passage(
        id=chunk.id, rank=rank, section=chunk.section, heading=chunk.heading, kind=chunk.kind,  # type: ignore[arg-type]
        text=chunk.text, score=round(score, 4),
        source=Source(path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line),
        notes=passage_notes(chunk, tables, language),
    )


def _sentences(text: str) -> list[str]:
    out = []
    for raw in _SPLIT.split(text):
        s = _BULLET.sub("", raw).strip()
        s = re.sub(r"^#+\s*", "", s)
        # Lead-ins ("计算能力：") and fragments say nothing on their own.
        if len(s) >= 8 and not s.endswith(("：", ":")) and not s.startswith(("|", "---")):
            out.append(s)
    return out


def summarise(passages: list[Passage], terms: list[str]) -> str:
    """The best-matching sentence of each of the top passages, each ending in its [n] marker.

    A sentence scores by the query terms it contains (longer terms count more); the first passage
    always contributes, later ones only when they match at least one term.
    """
    picked: list[str] = []
    for n, p in enumerate(passages[:SUMMARY_SENTENCES], 1):
        candidates = _sentences(p.text)
        if not candidates:
            continue
        scored = [(sum(len(t) for t in terms if t in s.lower()), -i, s) for i, s in enumerate(candidates)]
        best, _, sentence = max(scored)
        if best == 0 and n > 1:
            continue
        if sentence.endswith(("。", "！", "？", ".", "!", "?")):
            sentence = sentence[:-1]
        picked.append(f"{sentence} [{n}]。" if re.search(r"[\u4e00-\u9fff]", sentence) else f"{sentence} [{n}].")
    return " ".join(picked)
