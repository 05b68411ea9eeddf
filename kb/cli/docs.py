"""`kb docs add/list/show/status/sync/prices/remove`: teams' own documents. Thin: parse, call kb/documents, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from kb.documents.jobs import JobStatus
from kb.documents.library import Added, Library
from kb.documents.records import DocumentRecord
from kb.errors import BadInput


def _library() -> Library:
    from indexer.embedder import make_embedder
    from kb.settings import get_settings

    s = get_settings()
    made: list[Any] = []

    def embedder() -> Any:  # loaded once, and only when a job embeds
        if not made:
            made.append(make_embedder(s.embedder))
        return made[0]

    return Library(s.sources_dir, s.corpus_dir, embedder, usd_cny=s.usd_cny, max_bytes=int(s.max_document_mb * 2**20),
                   max_chunks=s.max_document_chunks)


def _line(r: DocumentRecord) -> str:
    valid = f", valid until {r.valid_until}" if r.valid_until else ""
    return (f"{r.id}  {r.title}  ({r.file}, {r.format}, as of {r.as_of} [{r.as_of_from}]{valid}, "
            f"{r.chunks} chunks, {r.price_rows} price rows)")


def _progress(status: JobStatus) -> None:
    """The job's status on stderr: rewritten in place on a terminal, each step on its own line otherwise."""
    if sys.stderr.isatty():
        click.echo(f"\r  {status.status}\033[K", err=True, nl=status.state in ("ready", "failed"))
    elif status.state != "embedding" or status.done == status.total:
        click.echo(f"  {status.status}", err=True)


def _said(path: Path | str, added: Added) -> None:
    r = added.record
    if added.existed:
        click.echo(f"unchanged: {path} is already {_line(r)}")
        return
    click.echo(f"{'restored' if added.restored else 'added'} {_line(r)}")
    if added.superseded:
        click.echo(f"  supersedes {added.superseded} (same file name; it is no longer answered from)")
    for w in added.warnings:
        click.echo(f"  warning: {w}")


@click.group()
def docs() -> None:
    """Teams' own documents (quotes, price lists, purchase records, reports) that kb answers from, cited and dated."""


@docs.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--title", default=None, help="Title shown with every citation (default: the file name).")
@click.option("--as-of", "as_of", default=None, help="YYYY-MM-DD the figures hold for, not in the future (default: "
                                                    "the quote's date, a date in the content, the file's metadata, "
                                                    "or today).")
@click.option("--force", is_flag=True, help="Accept a version dated before the one in force under the same name.")
def add(paths: tuple[Path, ...], title: str | None, as_of: str | None, force: bool) -> None:
    """Add PATH… (Markdown, HTML, PDF, DOCX, XLSX, CSV, text); the same bytes again change nothing, an earlier
    version's bytes restore it."""
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
        _said(path, library.add(data, path.name, title, as_of, force=force, progress=_progress))


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
@click.option("--json", "as_json", is_flag=True, help="Print the record, its versions, prices and notes as JSON.")
def show(doc_id: str, as_json: bool) -> None:
    """One document: its record, its versions, its price facts and terms, and its chunks with their places."""
    from kb.documents.context import Note
    from kb.documents.shown import price_text
    from kb.documents.tables import place

    library = _library()
    r = library.get(doc_id)
    prices = _stored_prices(library, r.id)
    notes = [Note(**n) for n in library.store.read_json(r.id, "notes.json")]
    versions = library.versions(doc_id)
    if as_json:
        click.echo(json.dumps({"record": r.model_dump(), "versions": [v.model_dump() for v in versions],
                               "prices": [p.model_dump() for p in prices], "notes": [n.dump() for n in notes]},
                              ensure_ascii=False, indent=2))
        return
    click.echo(_line(r))
    if r.superseded_by:
        click.echo(f"superseded by {r.superseded_by}: no longer answered from")
    if r.vendor or r.kind:
        click.echo(f"{r.kind or 'document'}{' from ' + r.vendor if r.vendor else ''}")
    for w in r.warnings:
        click.echo(f"warning: {w}")
    click.echo(f"versions of {r.file} (oldest first):")
    for v in versions:
        state = "in force" if v.superseded_by is None else f"superseded by {v.superseded_by}"
        click.echo(f"  {v.id}  as of {v.as_of}  added {v.added_at}  ({state})")
    for p in prices:
        term = f" {p.term}" if p.term else ""
        expired = " EXPIRED" if p.expired() else ""
        click.echo(f"  price: {p.gpu} {p.kind}{term} {price_text(p, 'en')} ({p.vendor or 'vendor not stated'}, "
                   f"{p.date}{', valid until ' + p.valid_until if p.valid_until else ''}{expired}) at "
                   f"{place(p.location)}")
    for n in notes:
        click.echo(f"  {n.kind}: {n.text} ({place(n.location)})")
    for chunk in library.store.read_json(r.id, "chunks.json"):
        click.echo(f"  [{place(chunk['location'])}] {chunk['text']}")


def _stored_prices(library: Library, doc_id: str) -> list[Any]:
    from kb.documents.prices import PriceFact

    return [PriceFact(**p) for p in library.store.read_json(doc_id, "prices.json")]


@docs.command("status")
@click.argument("doc_id", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the jobs as JSON.")
def status(doc_id: str | None, as_json: bool) -> None:
    """Embedding jobs (yours and the service's): queued, embedding n/N, ready, or failed: why."""
    library = _library()
    if doc_id is not None:
        job = library.jobs.get(doc_id)
        if job is None:
            raise BadInput(f"no job for {doc_id!r}; `kb docs status` lists them", field="id")
        jobs = [job]
    else:
        jobs = library.jobs.all()
    if as_json:
        click.echo(json.dumps([j.model_dump() for j in jobs], ensure_ascii=False, indent=2))
        return
    if not jobs:
        click.echo("no embedding jobs")
    for j in jobs:
        click.echo(f"{j.id}  {j.file}  {j.status}  (updated {j.updated_at})")


@docs.command("sync")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print what changed as JSON.")
def sync(folder: Path, as_json: bool) -> None:
    """Keep FOLDER in step: new and changed files added, deleted ones removed, unchanged ones left; each said."""
    from dataclasses import asdict

    from kb.documents.sync import FolderSync

    library = _library()
    report = FolderSync(library, folder).sync(library.add)
    if as_json:
        click.echo(json.dumps(asdict(report), ensure_ascii=False, indent=2))
    else:
        for line in report.lines() or [f"{folder}: no files kb reads"]:
            click.echo(line)
    if report.refused:
        raise SystemExit(2)


@docs.command("prices")
@click.option("--json", "as_json", is_flag=True, help="Print the prices and break-evens as JSON.")
def prices(as_json: bool) -> None:
    """Each card's newest team price of each kind beside the guide's, and rent-or-buy break-even."""
    from kb.documents.pricebook import break_even, newest
    from kb.documents.shown import price_text
    from kb.fit.gpus import load_gpus
    from kb.settings import get_settings

    s = get_settings()
    facts = _library().prices()
    gpus = load_gpus(s.corpus_dir)
    rows: list[dict[str, Any]] = []
    for kind, term in (("quoted", None), ("list", None), ("paid", None), ("rent", "on_demand"), ("rent", "monthly"),
                       ("rent", "reserved_1y"), ("rent", "reserved_3y")):
        for gpu, f in sorted(newest(facts, kind, term).items()):  # type: ignore[arg-type]
            guide = gpus[gpu].price_cny if kind != "rent" and gpu in gpus else None
            rows.append({"gpu": gpu, "kind": kind, "term": term, "price": price_text(f, "en"), "cny": f.amount_cny,
                         "currency": f.currency, "date": f.date, "valid_until": f.valid_until, "title": f.title,
                         "vendor": f.vendor, "cites": f.chunk_id, "guide_cny": guide})
    evens = [b for b in (break_even(gpus[g], facts, s.energy_price_cny_per_kwh) for g in sorted(gpus)) if b]
    if as_json:
        click.echo(json.dumps({"prices": rows, "break_even": [b.model_dump() for b in evens]}, ensure_ascii=False,
                              indent=2))
        return
    for r in rows:
        beside = f"; guide (2025): {r['guide_cny']:,.0f} CNY" if r["guide_cny"] else ""
        kind = f"{r['kind']} {r['term']}" if r["term"] else r["kind"]
        click.echo(f"{r['gpu']:<14} {kind:<20} {r['price']}  ({r['title']}, {r['date']}{beside}) [{r['cites']}]")
    for b in evens:
        click.echo(f"{b.gpu}: rent or buy")
        for step in b.steps:
            click.echo(f"  {step}")


@docs.command("remove")
@click.argument("doc_id")
def remove(doc_id: str) -> None:
    """Remove a document (the version in force takes the versions it replaced with it)."""
    r = _library().remove(doc_id)
    click.echo(f"removed {_line(r)}")
