"""A converted document read for what it says of money: its date and validity, its prices, its terms, and warnings.

Runs at add time, before anything is stored or embedded: a refusal (a currency kb does not know, a rate with no
term, a price column of text) is BadInput and nothing is written; what kb read but could not use is a warning
shown with the add. Two different prices for the same card, kind and vendor in one document are both kept, and
the conflict is said.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indexer.chunks import Chunk
from indexer.documents.segments import Converted, Segment
from kb.documents.columns import column
from kb.documents.context import (
    DocumentContext,
    Note,
    currency_in,
    document_kind,
    notes_of,
    tax_in,
    text_lines,
    vendor_of,
)
from kb.documents.dates import not_future, quote_date, today, validity
from kb.documents.money import plain
from kb.documents.names import gpu_named
from kb.documents.prices import PriceFact
from kb.documents.prose import line_prices
from kb.documents.tables import Reading, Row, place, table_prices

HEAD_LINES = 12  # the lines where a document names itself (title, vendor, currency, date)


@dataclass
class DocumentFacts:
    """Everything kb read from one document's money, dated."""

    as_of: str
    as_of_from: str  # "flag", "content", "metadata" or "added"
    valid_until: str | None
    kind: str  # "quoted", "list" or "paid"
    vendor: str | None
    prices: list[PriceFact] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _lines(pairs: list[tuple[Chunk, Segment]]) -> list[tuple[str, str, dict[str, Any]]]:
    """(chunk id, line, location) for each line of running text, in reading order."""
    out = []
    for chunk, seg in pairs:
        if seg.cells is None:
            out += [(chunk.id, line, chunk.location) for _, line in text_lines([Segment(chunk.text, {})])]
    return out


def _dated(converted: Converted, flag: str | None) -> tuple[str, str, str | None]:
    """as_of, where it came from, and the validity: a flag (never in the future), the quote's date, the file's
    properties, or the day it was added."""
    text = converted.plain_text()
    running = "\n".join(s.text for s in converted.segments if s.cells is None)
    found = quote_date(running, text)
    meta = converted.metadata_date
    if meta is not None and meta > (today() + dt.timedelta(days=1)).isoformat():
        meta = None  # a file's clock set ahead dates nothing
    when, source = next((d, s) for d, s in ((flag and not_future(flag), "flag"), (found, "content"),
                                            (meta, "metadata"), (today().isoformat(), "added")) if d)
    return str(when), source, validity(text, found or str(when))


def read_facts(converted: Converted, pairs: list[tuple[Chunk, Segment]], *, name: str, cite: dict[str, str],
               corpus_dir: Path, usd_cny: float, flag_date: str | None = None) -> DocumentFacts:
    """The document's dates, prices, notes and warnings; BadInput for what kb refuses to store."""
    as_of, as_of_from, valid_until = _dated(converted, flag_date)
    lines = _lines(pairs)
    head = [line for _, line, _ in lines[:HEAD_LINES]]
    context = DocumentContext(kind=document_kind("\n".join(head) + "\n" + name, valid_until is not None),
                              currency=currency_in(head, name), vendor=vendor_of(head, converted.metadata_author),
                              tax=tax_in([line for _, line, _ in lines]), notes=notes_of(lines))
    reading = Reading(corpus_dir, usd_cny, name, cite, as_of, valid_until, context)
    facts = DocumentFacts(as_of, as_of_from, valid_until, context.kind, context.vendor, notes=list(context.notes))
    tables: dict[int, list[Row]] = defaultdict(list)
    for chunk, seg in pairs:
        if seg.cells is not None and seg.table is not None:
            tables[seg.table].append(Row(seg, chunk.id, chunk.location))
    for rows in tables.values():
        prices, warnings = table_prices(rows, reading)
        facts.prices += prices
        facts.warnings += warnings
        facts.notes += _row_notes(rows, reading)
    prose, warnings = line_prices(lines, reading)
    facts.prices += prose
    facts.warnings += warnings
    facts.prices, conflicts = _deduplicated(facts.prices)
    facts.warnings += conflicts
    bought = {p.kind for p in facts.prices if p.kind != "rent"}
    if bought == {"paid"}:  # purchase records, whatever they call themselves
        facts.kind = "paid"
    return facts


def _row_notes(rows: list[Row], reading: Reading) -> list[Note]:
    """A card's row's remarks and terms ("交期: 4 周", "备注: 需预付 30%"), as notes of that card."""
    cols = [column(h, reading.file) for h in rows[0].segment.header or []]
    kept = [c.header for c in cols if c.role in ("note", "tax")]
    out: list[Note] = []
    if not kept:
        return out
    for row in rows:
        cells = row.segment.cells or {}
        if not any(cells.get(h) for h in kept):
            continue
        gpu = next((g for v in cells.values() if (g := gpu_named(v, reading.corpus_dir))), None)
        if gpu is None:  # a row's remark is a term of a card's quote; other rows' remarks are their own text
            continue
        for h in kept:
            if cells.get(h):
                found = notes_of([(row.chunk_id, f"{h}: {cells[h]}", row.location)])
                kind = found[0].kind if found else "note"
                out.append(Note(kind, f"{h}: {cells[h]}", row.chunk_id, row.location, gpu))
    return out


def _deduplicated(prices: list[PriceFact]) -> tuple[list[PriceFact], list[str]]:
    """The same price said twice (a table row and a sentence) kept once; two different prices for the same card,
    kind, term and vendor (on the same date) both kept, and said."""
    groups: dict[tuple[Any, ...], list[PriceFact]] = defaultdict(list)
    kept: list[PriceFact] = []
    for p in prices:
        if any((q.gpu, q.kind, q.term, q.per, q.date, q.amount, q.amount_low, q.currency) ==
               (p.gpu, p.kind, p.term, p.per, p.date, p.amount, p.amount_low, p.currency) for q in kept):
            continue  # a table row's price said again in a sentence
        groups[(p.gpu, p.kind, p.term, p.per, p.vendor, p.date)].append(p)
        kept.append(p)
    warnings = []
    for (gpu, kind, term, _, _, _), group in groups.items():
        if len(group) > 1:
            said = " and ".join(f"{plain(p.amount)} {p.currency} ({place(p.location)})" for p in group)
            what = f"{term} rates" if kind == "rent" else f"{kind} prices"
            warnings.append(f"{group[0].file}: two {what} for {gpu}: {said}: both kept, and answers show both")
    return kept, warnings
