"""A converted document → chunks for the one index: a table row each, text split at line boundaries.

Each chunk keeps its exact location (page; sheet and row; lines), so a passage cites the place a reader
can open. Ids are the document's id and the chunk's position: stable for the same bytes.
"""

from __future__ import annotations

import re

from indexer.chunks import MAX_CHUNK_CHARS, Chunk
from indexer.documents.segments import Converted, Location, Segment

_SENTENCE_END = re.compile(r"(?<=[。！？；.!?;])\s*")


def _pieces(seg: Segment) -> list[tuple[str, Location]]:
    """The segment split into parts of at most MAX_CHUNK_CHARS, lines narrowed where it has lines."""
    if len(seg.text) <= MAX_CHUNK_CHARS or seg.cells is not None:
        return [(seg.text, seg.location)]
    lines = seg.text.split("\n")
    first = seg.location.get("start_line")
    out: list[tuple[str, Location]] = []
    buf: list[str] = []
    buf_start = 0
    for i, line in enumerate([*lines, None]):
        if line is not None and len(line) > MAX_CHUNK_CHARS:  # one long line: split at sentence ends
            if buf:
                out.append(("\n".join(buf), _narrow(seg.location, first, buf_start, i - 1)))
                buf = []
            part = ""
            for sentence in _SENTENCE_END.split(line):
                if part and len(part) + len(sentence) > MAX_CHUNK_CHARS:
                    out.append((part, _narrow(seg.location, first, i, i)))
                    part = ""
                part += sentence
            if part:
                out.append((part, _narrow(seg.location, first, i, i)))
            buf_start = i + 1
            continue
        if line is None or (buf and sum(len(x) + 1 for x in buf) + len(line) > MAX_CHUNK_CHARS):
            if buf:
                out.append(("\n".join(buf), _narrow(seg.location, first, buf_start, i - 1)))
            buf, buf_start = [], i
        if line is not None:
            buf.append(line)
    return [(t, loc) for t, loc in out if t.strip()]


def _narrow(location: Location, first: int | None, lo: int, hi: int) -> Location:
    if first is None:
        return dict(location)
    return dict(location, start_line=first + lo, end_line=first + hi)


def document_chunks(doc_id: str, path: str, converted: Converted) -> list[tuple[Chunk, Segment]]:
    """Chunks of kind "document" with the segment each came from, in reading order.

    `path` is the original's place in the store. A table row is never split, so a row's chunk and its
    segment (with the cells the price facts read) stay one to one.
    """
    chunks: list[tuple[Chunk, Segment]] = []
    for seg in converted.segments:
        for text, location in _pieces(seg):
            cid = f"{doc_id}-{len(chunks) + 1}"
            chunks.append((Chunk(
                id=cid, section=doc_id, heading=seg.heading, kind="document", text=text, path=path,
                start_line=int(location.get("start_line", 0)), end_line=int(location.get("end_line", 0)),
                group=cid, location=dict(location),
            ), seg))
    return chunks
