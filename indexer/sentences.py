"""The sentences of a passage worth showing alone, and the table of them an index embeds one by one.

An answer quotes the sentence that holds what was asked, so each sentence (and each table row or list line)
of the guide, its cases and tradeoffs — in Chinese and in the English rendering — gets its own vector at
index time. Lines that only lead into a list, table separators, headings and a record's own retrieval hint
("适用于…这类问题", "For questions such as …") say nothing on their own and are left out.
"""

from __future__ import annotations

import re

from indexer.chunks import Chunk

# The kinds of passage whose sentences are embedded: prose a sentence of which can answer a question. A spec
# record's and a computed table's figures are answered from their structured fields instead.
SENTENCE_KINDS = ("guide", "case", "tradeoff", "concept")
_ZH_SPLIT = re.compile(r"(?<=[。！？!?；])|\n")
_EN_SPLIT = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9\"(§])|\n")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+\.)\s+")
# "案例三：边缘推理部署", "Case three: edge inference deployment": a case's title line, no sentence of its own.
_TITLE = re.compile(r"^(?:案例[一二三四五六七八九十\d]+|Case (?:one|two|three|four|five|six|seven|eight|\d+))\s*[：:]"
                    r"[^。.!?！？；;]*$", re.IGNORECASE)
_HINT = re.compile(r"^(?:出处|适用于|来源|Source|Sources|For questions (?:such as|like)|Applies to)\b", re.IGNORECASE)
# "(memory bandwidth)", "[spec sheet]": the English glosses records add beside Chinese terms.
_LATIN_GLOSS = re.compile(r"\s*[(\[（][^()\[\]（）\u4e00-\u9fff]*[A-Za-z][^()\[\]（）\u4e00-\u9fff]*[)\]）]")
# A concept record's last section lists the names its term goes by: words to search by, not a sentence to quote.
_NAMES_HEADING = re.compile(r"^#+\s*(?:又称|Also written)", re.IGNORECASE)


def split(text: str, language: str) -> list[str]:
    """The sentences of a passage worth showing alone."""
    out = []
    names = False
    for raw in (_ZH_SPLIT if language == "zh" else _EN_SPLIT).split(text):
        if raw.lstrip().startswith("#"):
            names = bool(_NAMES_HEADING.match(raw.strip()))
        if names:
            continue
        s = _BULLET.sub("", raw).strip()
        s = re.sub(r"^#+\s*", "", s)
        if language == "zh":  # (a gloss between two Chinese words leaves no space behind: "键 (key) 和值" → "键和值")
            s = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", _LATIN_GLOSS.sub("", s)).strip()
        if len(s) < 8 or s.endswith(("：", ":")) or s.startswith(("|", "---")) or _HINT.match(s) or _TITLE.match(s):
            continue
        out.append(s)
    return out



def sentence_rows(chunks: list[Chunk]) -> list[tuple[int, str, str]]:
    """(chunk row, language, sentence) for every sentence worth embedding, in chunk order."""
    out: list[tuple[int, str, str]] = []
    for row, c in enumerate(chunks):
        if c.kind not in SENTENCE_KINDS:
            continue
        out += [(row, "zh", s) for s in split(c.text, "zh")]
        if c.text_en:
            out += [(row, "en", s) for s in split(c.text_en, "en")]
    return out
