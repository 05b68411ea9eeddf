"""What every converter returns: text pieces, each with the exact place it came from."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any


class Unreadable(ValueError):
    """The file cannot be turned into text (corrupt, empty, a scan without a text layer, a zip bomb…).

    The message is one line for a person: what is wrong and what is accepted.
    """


# A location is one of the contract's shapes: {"page": n}, {"sheet": s, "row": r} or
# {"start_line": a, "end_line": b} (lines of the original file, or of the extracted text where the
# format has none: DOCX). A PDF table row carries {"page": p, "row": r}.
Location = dict[str, Any]


@dataclass
class Segment:
    """A heading's text, a page, or one table row, verbatim, with its location."""

    text: str
    location: Location
    heading: str = ""
    # A table row: header → cell, as written (numbers kept as they stand); None for running text.
    cells: dict[str, str] | None = None
    table: int | None = None  # which table a row (or a table's title or footer) belongs to, in reading order
    header: list[str] | None = None  # that table's column names, in order (a row's cells omit its empty ones)


@dataclass
class Converted:
    """A document as text: its format, its segments in reading order, and a date its metadata gives."""

    format: str
    segments: list[Segment] = field(default_factory=list)
    metadata_date: str | None = None  # YYYY-MM-DD from the file's own properties (PDF, DOCX, XLSX)
    pages: int = 0
    metadata_author: str | None = None  # who the file's properties say made it (PDF Author, an Office company)

    def plain_text(self) -> str:
        """The extracted text as the store keeps it: one segment after another."""
        return "\n\n".join(s.text for s in self.segments)


def row_text(cells: dict[str, str]) -> str:
    """A table row as one line a reader and the lexical index both read: "型号: H200；单价: 230000"."""
    return "；".join(f"{k}: {v}" if k else v for k, v in cells.items() if v)


_TABLES = itertools.count(1)
# A row below the header with one filled cell that starts so is the table's footnote, not a row of it.
NOTE_STARTS = ("注", "备注", "说明", "附注", "*", "※", "note", "remark", "footnote", "terms", "prices ", "all prices")
NOTE_MIN_CHARS = 40  # a lone cell this long below the header is a sentence (a footnote), not a value


def _footnote(row: list[str]) -> bool:
    filled = [c for c in row if c]
    if len(filled) != 1 or len(row) < 2:
        return False
    text = filled[0].lower()
    return text.startswith(NOTE_STARTS) or len(text) >= NOTE_MIN_CHARS


def table_segments(rows: list[list[str]], make_location: Any, heading: str = "") -> list[Segment]:
    """Rows of a table (the first with two or more cells is the header) as one Segment a row.

    `make_location(i)` gives the location of rows[i]. Columns without a header are named by position. A title
    above the header and a footnote below it ("注：以上价格含税") are text segments of the table, not rows.
    """
    out: list[Segment] = []
    header: list[str] | None = None
    table = next(_TABLES)
    for i, raw in enumerate(rows):
        row = [_clean(c) for c in raw]
        if not any(row):
            continue
        if header is None:
            if sum(1 for c in row if c) < 2:  # a title above the header ("2026年11月 GPU 报价"): text
                out.append(Segment(" ".join(c for c in row if c), make_location(i), heading, table=table))
                continue
            header = [h or f"col{j + 1}" for j, h in enumerate(row)]
            continue  # the header names every later row's cells; it is no passage of its own
        if _footnote(row):
            out.append(Segment(" ".join(c for c in row if c), make_location(i), heading, table=table))
            continue
        names = header + [f"col{j + 1}" for j in range(len(header), len(row))]
        cells = {names[j]: v for j, v in enumerate(row) if v}
        out.append(Segment(row_text(cells), make_location(i), heading, cells, table=table, header=header))
    return out


def _clean(cell: Any) -> str:
    if cell is None:
        return ""
    if isinstance(cell, float) and cell.is_integer():
        cell = int(cell)
    return " ".join(str(cell).split())
