"""`kb docs add/list/show/remove`: teams' own documents. Thin: parse, call kb/documents/library.py, print."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kb.documents.library import Library
from kb.documents.records import DocumentRecord
from kb.errors import BadInput


def _library() -> Library:
    from indexer.embedder import make_embedder
    from kb.settings import get_settings

    s = get_settings()
    return Library(s.sources_dir, s.corpus_dir, lambda: make_embedder(s.embedder), usd_cny=s.usd_cny,
                   max_bytes=int(s.max_document_mb * 2**20))


def _line(r: DocumentRecord) -> str:
    return (f"{r.id}  {r.title}  ({r.file}, {r.format}, as of {r.as_of} [{r.as_of_from}], "
            f"{r.chunks} chunks, {r.price_rows} price rows)")


@click.group()
def docs() -> None:
    """Teams' own documents (quotes, price lists, benchmarks) that kb answers from, cited and dated."""


@docs.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--title", default=None, help="Title shown with every citation (default: the file name).")
@click.option("--as-of", "as_of", default=None, help="YYYY-MM-DD the figures hold for (default: a date in the "
                                                    "content, the file's metadata, or today).")
def add(paths: tuple[Path, ...], title: str | None, as_of: str | None) -> None:
    """Add PATH… (Markdown, HTML, PDF, DOCX, XLSX, CSV, text); the same bytes again change nothing."""
    if title is not None and len(paths) > 1:
        raise BadInput("--title names one document: give one PATH with it", field="title")
    files: list[tuple[Path, bytes]] = []
    for path in paths:  # every file is read and checked before any is added
        if ".." in path.parts:
            raise BadInput(f"{path}: give the path without '..' (an absolute path works)", field="path")
        if not path.is_file():
            raise BadInput(f"{path}: no such file", field="path")
        files.append((path, path.read_bytes()))
    library = _library()
    for path, data in files:
        added = library.add(data, path.name, title, as_of)
        r = added.record
        if added.existed:
            click.echo(f"unchanged: {path} is already {_line(r)}")
            continue
        click.echo(f"added {_line(r)}")
        if added.superseded:
            click.echo(f"  supersedes {added.superseded} (same file name; it is no longer answered from)")


@docs.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print the records as JSON.")
def list_(as_json: bool) -> None:
    """The documents kb answers from: id, title, file, format, as_of, added_at, chunks, price rows."""
    records = _library().records()
    if as_json:
        click.echo(json.dumps([r.model_dump() for r in records], ensure_ascii=False, indent=2))
        return
    if not records:
        click.echo("no documents yet: add one with `kb docs add PATH`")
    for r in records:
        click.echo(f"{_line(r)}  added {r.added_at}")


@docs.command("show")
@click.argument("doc_id")
@click.option("--json", "as_json", is_flag=True, help="Print the record and its price facts as JSON.")
def show(doc_id: str, as_json: bool) -> None:
    """One document's record, its price facts, and its chunks with where each sits in the original."""
    library = _library()
    r = library.get(doc_id)
    prices = [p for p in library.prices() if p.document == r.id]
    if as_json:
        click.echo(json.dumps({"record": r.model_dump(), "prices": [p.model_dump() for p in prices]},
                              ensure_ascii=False, indent=2))
        return
    click.echo(_line(r))
    if r.superseded_by:
        click.echo(f"superseded by {r.superseded_by}: no longer answered from")
    for p in prices:
        click.echo(f"  price: {p.gpu} {p.kind} {p.quoted} ({p.currency}, {p.vendor or 'vendor not stated'}, "
                   f"{p.date}) at {p.location}")
    for chunk in library.store.read_json(r.id, "chunks.json"):
        click.echo(f"  [{_where(chunk['location'])}] {chunk['text']}")


def _where(location: dict[str, object]) -> str:
    """"page 2", "sheet 报价 row 3", "lines 4-6": where a chunk sits in the original."""
    if "sheet" in location:
        return f"sheet {location['sheet']} row {location['row']}"
    if "page" in location:
        return f"page {location['page']}" + (f" row {location['row']}" if "row" in location else "")
    start, end = location.get("start_line"), location.get("end_line")
    return f"line {start}" if start == end else f"lines {start}-{end}"


@docs.command("prices")
@click.option("--json", "as_json", is_flag=True, help="Print the prices and break-evens as JSON.")
def prices(as_json: bool) -> None:
    """Each card's newest team price beside the guide's, and rent-or-buy break-even where both are known."""
    from kb.documents.pricebook import break_even, newest
    from kb.documents.prices import PriceKind
    from kb.fit.gpus import load_gpus
    from kb.settings import get_settings

    s = get_settings()
    facts = _library().prices()
    gpus = load_gpus(s.corpus_dir)
    rows: list[dict[str, Any]] = []
    kinds: tuple[PriceKind, ...] = ("buy", "rent_hour", "rent_month")
    for kind in kinds:
        for gpu, f in sorted(newest(facts, kind).items()):
            guide = gpus[gpu].price_cny if kind == "buy" and gpu in gpus else None
            rows.append({"gpu": gpu, "kind": kind, "quoted": f.quoted, "cny": f.amount_cny, "date": f.date,
                         "title": f.title, "vendor": f.vendor, "cites": f.chunk_id, "guide_cny": guide})
    evens = [b for b in (break_even(gpus[g], facts, s.energy_price_cny_per_kwh) for g in sorted(gpus)) if b]
    if as_json:
        click.echo(json.dumps({"prices": rows, "break_even": [b.model_dump() for b in evens]}, ensure_ascii=False,
                              indent=2))
        return
    for r in rows:
        beside = f"; guide (2025): {r['guide_cny']:,.0f} CNY" if r["guide_cny"] else ""
        click.echo(f"{r['gpu']:<14} {r['kind']:<10} {r['quoted']} = {r['cny']:,.2f} CNY  ({r['title']}, "
                   f"{r['date']}{beside}) [{r['cites']}]")
    for b in evens:
        click.echo(f"{b.gpu}: rent or buy")
        for step in b.steps:
            click.echo(f"  {step}")


@docs.command("remove")
@click.argument("doc_id")
def remove(doc_id: str) -> None:
    """Remove a document (and its older versions): kb stops answering from it."""
    r = _library().remove(doc_id)
    click.echo(f"removed {_line(r)}")
