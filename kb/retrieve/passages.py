"""A chunk as the reader sees it: its text in the question's language, the Chinese original, and caveats."""

from __future__ import annotations

import re

from indexer.chunks import Chunk
from kb.language import Language
from kb.models import DocumentSource, Passage, Source
from kb.words.catalog import say


def passage_notes(chunk: Chunk, tables: dict[str, Chunk], language: Language) -> list[str]:
    """Caveats shown beside a passage, in the question's language."""
    notes = []
    if "missing_table" in chunk.notes:
        notes.append(say("missing_table", language))
        table = tables.get(chunk.section)
        notes.append(say("table_link", language, title=table.shown_heading(language)) if table
                     else say("table_none", language))
    if language == "en" and not chunk.text_en:
        notes.append(say("no_english", language))
    return notes


def source_of(chunk: Chunk) -> Source | DocumentSource:
    """The corpus file and lines, or for a team document its record's fields and the place inside it."""
    if chunk.kind != "document":
        return Source(path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line)
    return DocumentSource(path=chunk.path, **chunk.location)


# A concept record's list of the names its term goes by, in both languages: words to search by, which the answer's
# language need not show (an English passage would carry the Chinese names).
_NAMES_SECTION = re.compile(r"\n*^##\s*(?:又称|Also written).*", re.M | re.S | re.I)


def _shown(chunk: Chunk, language: Language) -> str:
    text = chunk.shown_text(language)
    return _NAMES_SECTION.sub("", text).rstrip() if chunk.kind == "concept" else text


def to_passage(chunk: Chunk, rank: int, score: float, tables: dict[str, Chunk], language: Language) -> Passage:
    return Passage(
        id=chunk.id, rank=rank, section=chunk.section, heading=chunk.shown_heading(language),
        kind=chunk.kind,  # type: ignore[arg-type]
        text=_shown(chunk, language), original=chunk.text, score=round(score, 4),
        source=source_of(chunk),
        notes=passage_notes(chunk, tables, language),
    )
