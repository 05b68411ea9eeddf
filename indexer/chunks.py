"""Corpus markdown → chunks: one subsection or record each, long ones split on block boundaries.

markdown-it-py gives every block its source line range, so each chunk cites exact lines.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from indexer.errors import CorpusError

# e5-small reads at most 512 tokens; ~1 token a Chinese character plus markup, so a chunk of up to
# this many characters is embedded whole. Longer subsections split between paragraphs or lists.
MAX_CHUNK_CHARS = 420

# A trailing part shorter than this joins the part before it: a lone short list embeds poorly.
MIN_TAIL_CHARS = 120

# Sections whose prose points at a comparison table the document does not contain.
MISSING_TABLE_SECTIONS = frozenset({"5.1", "5.2", "5.3", "5.4", "6.2", "7.1", "8.1", "8.2", "8.3"})

# "(memory bandwidth)", "[spec sheet]": English glosses that records add for English readers and the
# lexical index. Left in the embedded text they pull every English question towards the records
# (e5 matches language as well as meaning), so the embedder sees the Chinese without them.
_LATIN_GLOSS = re.compile(r"\s*[(\[（][^()\[\]（）\u4e00-\u9fff]*[A-Za-z][^()\[\]（）\u4e00-\u9fff]*[)\]）]")

SKIP_FILES = frozenset({"README.md", "glossary.md"})
_CHAPTER = re.compile(r"^(\d+) ")
_SUBSECTION = re.compile(r"^(\d+\.\d+) ")


@dataclass
class Chunk:
    """One retrievable passage and its citation."""

    id: str
    section: str
    heading: str
    kind: str
    text: str
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    notes: list[str] = field(default_factory=list)
    group: str = ""  # the subsection or record the chunk is a part of (its first part's id)
    text_en: str = ""  # the same lines of the corpus's English rendering (corpus/en/), "" where none
    heading_en: str = ""
    # A team document's chunk: its place in the original ({"page": n}, {"sheet", "row"}, {"start_line",
    # "end_line"}); empty for the corpus, whose path and lines say it (indexer/documents/).
    location: dict[str, Any] = field(default_factory=dict)
    # The names a concept record's term goes by (its front matter's term and aliases, zh and en), on its first part,
    # the definition: the lexical index reads them with it; no reader sees them there (the body lists them too).
    aliases: list[str] = field(default_factory=list)

    def shown_text(self, language: str) -> str:
        """The text a reader of `language` sees: the English rendering where one exists."""
        return self.text_en if language == "en" and self.text_en else self.text

    def shown_heading(self, language: str) -> str:
        return self.heading_en if language == "en" and self.heading_en else self.heading

    def embed_text(self) -> str:
        """What the embedder sees: the heading gives a short part its context; English glosses go."""
        return _LATIN_GLOSS.sub("", f"{self.heading}\n{self.text}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Block:
    start: int  # 0-based, inclusive
    end: int  # 0-based, exclusive
    heading: tuple[int, str] | None = None  # (level, text) for heading blocks


def _blocks(lines: list[str], offset: int = 0) -> list[_Block]:
    """Top-level blocks (headings, paragraphs, lists…) with their line ranges."""
    from markdown_it import MarkdownIt  # only when chunking the corpus: a query never parses Markdown

    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    blocks: list[_Block] = []
    split_list = False  # inside a top-level list too long for one chunk: its items are the blocks
    for i, tok in enumerate(tokens):
        if tok.map is None or tok.nesting == -1:
            continue
        start, end = tok.map[0] + offset, tok.map[1] + offset
        if tok.level == 0:
            split_list = tok.type.endswith("list_open") and \
                len("\n".join(lines[start - offset:end - offset])) > MAX_CHUNK_CHARS
            if tok.type == "heading_open":
                blocks.append(_Block(start, end, (int(tok.tag[1]), tokens[i + 1].content.strip())))
            elif not split_list:
                blocks.append(_Block(start, end))
        elif split_list and tok.level == 1 and tok.type == "list_item_open":
            blocks.append(_Block(start, end))
    return blocks


def _split(blocks: list[_Block], lines: list[str]) -> list[tuple[int, int]]:
    """Group consecutive blocks into (start, end) ranges of at most MAX_CHUNK_CHARS where possible.

    A paragraph ending in a colon introduces the list after it, so the two stay together.
    """
    units: list[tuple[int, int]] = []
    for b in blocks:
        if units and lines[units[-1][1] - 1].rstrip().endswith(("：", ":")):
            units[-1] = (units[-1][0], b.end)
        else:
            units.append((b.start, b.end))
    parts: list[tuple[int, int]] = []
    for start, end in units:
        size = len("\n".join(lines[start:end]))
        if parts:
            p_start, p_end = parts[-1]
            if len("\n".join(lines[p_start:p_end])) + size <= MAX_CHUNK_CHARS:
                parts[-1] = (p_start, end)
                continue
        parts.append((start, end))
    if len(parts) > 1 and len(_text(lines, *parts[-1])) < MIN_TAIL_CHARS:
        parts[-2:] = [(parts[-2][0], parts[-1][1])]
    return parts


def _text(lines: list[str], start: int, end: int) -> str:
    return "\n".join(lines[start:end]).strip()


def _emit(base_id: str, section: str, heading: str, kind: str, path: str, lines: list[str],
          blocks: list[_Block], notes: list[str]) -> list[Chunk]:
    chunks = []
    for n, (start, end) in enumerate(_split(blocks, lines), 1):
        while end > start and not lines[end - 1].strip():
            end -= 1
        chunk_id = base_id if n == 1 else f"{base_id}-{n}"
        chunks.append(Chunk(chunk_id, section, heading, kind, _text(lines, start, end), path,
                            start + 1, end, list(notes), base_id))
    return chunks


def guide_chunks(path: Path, rel_path: str) -> list[Chunk]:
    """The source document: a chunk per subsection, and one for a chapter's own lead text."""
    lines = path.read_text(encoding="utf-8").split("\n")
    chunks: list[Chunk] = []
    section, heading = "", ""
    body: list[_Block] = []

    def flush() -> None:
        if section and body:
            notes = ["missing_table"] if section in MISSING_TABLE_SECTIONS else []
            chunks.extend(_emit(f"guide-{section}", section, heading, "guide", rel_path, lines, body, notes))

    for block in _blocks(lines):
        if block.heading is None:
            body.append(block)
            continue
        level, title = block.heading
        m = (_CHAPTER if level == 2 else _SUBSECTION).match(title) if level in (2, 3) else None
        if m is None:
            continue  # the title line; a heading without a section id
        flush()
        section, heading, body = m.group(1), title, []
    flush()
    return chunks


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the C loader when built: about 10x faster


def read_front_matter(path: Path) -> tuple[dict[str, Any], int]:
    """A record file's front matter and body start, parsed once a process while the file is unchanged: the
    names registry and the fit engine both read every spec record on a cold `kb ask` (~30 ms of YAML each).
    The mapping is shared: read it, never change it."""
    stat = path.stat()
    return _front_matter_of(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=512)
def _front_matter_of(path: Path, mtime_ns: int, size: int) -> tuple[dict[str, Any], int]:
    return split_front_matter(path.read_text(encoding="utf-8"), str(path))


def split_front_matter(raw: str, where: str) -> tuple[dict[str, Any], int]:
    """(front matter, line index where the body starts) of a record: the one parser of the record format."""
    lines = raw.split("\n")
    if not lines or lines[0].strip() != "---":
        raise CorpusError(f"{where}: a record must start with '---' front matter")
    try:
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise CorpusError(f"{where}: front matter is not closed with '---'") from None
    try:
        meta = yaml.load("\n".join(lines[1:close]), Loader=_YAML_LOADER) or {}
    except yaml.YAMLError as e:
        raise CorpusError(f"{where}: front matter is not YAML ({e})") from None
    if not isinstance(meta, dict):
        raise CorpusError(f"{where}: front matter must be a mapping")
    for key in ("id", "kind", "section", "title"):
        if key not in meta:
            raise CorpusError(f"{where}: front matter lacks '{key}'")
    return meta, close + 1


def record_chunks(path: Path, rel_path: str) -> tuple[list[Chunk], int]:
    """A spec, case, tradeoff, table or concept record: one chunk, split if long, under the record's title.

    Returns the chunks and the 0-based line where the body starts (the English rendering counts from there).
    """
    raw = path.read_text(encoding="utf-8")
    meta, body_start = split_front_matter(raw, rel_path)
    lines = raw.split("\n")
    blocks = [b for b in _blocks(lines[body_start:], body_start) if b.heading is None or b.heading[0] > 1]
    if not blocks:
        raise CorpusError(f"{rel_path}: the record has no body")
    chunks = _emit(str(meta["id"]), str(meta["section"]), str(meta["title"]), str(meta["kind"]),
                   rel_path, lines, blocks, [])
    if meta["kind"] == "concept":  # the names find the definition, the part that says what the term is
        chunks[0].aliases = _names(meta, rel_path)
    return chunks, body_start


def _names(meta: dict[str, Any], where: str) -> list[str]:
    """A concept's term and aliases, each once; a concept without them is a corpus error (they are how it is found)."""
    aliases = meta.get("aliases")
    if not isinstance(aliases, list) or not aliases or not all(isinstance(a, str | int | float) for a in aliases):
        raise CorpusError(f"{where}: a concept record needs 'aliases', a list of the names its term goes by")
    return list(dict.fromkeys(str(n) for n in [meta.get("term") or "", *aliases] if str(n).strip()))
