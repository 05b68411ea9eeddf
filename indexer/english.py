"""The corpus's English rendering: corpus/en/<path> renders <path> line for line (record bodies only).

A Chinese file's chunk covers lines [start, end]; its English text is the same lines of the rendering
(for a record, counted from the first line after its front matter, since the rendering has none). The
rendering is corpus data, written and reviewed like the Chinese (tests/corpus/test_corpus_english.py holds it to
the Chinese line by line), so English answers never depend on a run-time translation.
"""

from __future__ import annotations

import re
from pathlib import Path

from indexer.chunks import Chunk

EN_DIR = "en"
_GUIDE_HEADING = re.compile(r"^#{2,3}\s+(\d+(?:\.\d+)?)\s+(.*)$")


def english_path(corpus_dir: Path, rel: Path) -> Path:
    """Where the rendering of corpus file `rel` (relative to the corpus folder) lives."""
    return corpus_dir / EN_DIR / rel


def _lines(path: Path) -> list[str] | None:
    return path.read_text(encoding="utf-8").split("\n") if path.is_file() else None


def attach_english(chunks: list[Chunk], corpus_dir: Path, rel: Path, body_start: int) -> None:
    """Fill text_en and heading_en of one file's chunks from its rendering, where one exists.

    `body_start` is the 0-based line where the Chinese file's body begins (0 for guide.md). A rendering
    shorter than a chunk's lines leaves that chunk without English rather than with a misaligned text.
    """
    en = _lines(english_path(corpus_dir, rel))
    if en is None:
        return
    headings: dict[str, str] = {}
    title = ""
    for line in en:
        if m := _GUIDE_HEADING.match(line):
            headings.setdefault(m.group(1), f"{m.group(1)} {m.group(2).strip()}")
        elif not title and line.startswith("# "):
            title = line[2:].strip()
    for c in chunks:
        start, end = c.start_line - 1 - body_start, c.end_line - body_start
        if start < 0 or end > len(en):
            continue
        c.text_en = "\n".join(en[start:end]).strip()
        c.heading_en = headings.get(c.section, "") if c.kind == "guide" else title
