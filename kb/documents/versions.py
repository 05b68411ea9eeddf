"""Versions of one document (the same file name): never run backwards, restored by adding the right file again.

A new version dated before the one in force is refused with both dates (`--force` takes it anyway); adding a
file whose bytes are an earlier version makes that version current again (the same rule on dates applies), so
any mishap is undone by adding the file that should be in force. Removing the version in force removes the
versions it replaced; removing an older one removes only it.
"""

from __future__ import annotations

from kb.documents.records import DocumentRecord
from kb.errors import BadInput


def versions(records: list[DocumentRecord], file: str) -> list[DocumentRecord]:
    """Every version stored under `file`, oldest first (by as_of, then by when it was added)."""
    return sorted((r for r in records if r.file == file), key=lambda r: (r.as_of, r.added_at))


def in_force(records: list[DocumentRecord], file: str) -> DocumentRecord | None:
    return next((r for r in records if r.file == file and r.superseded_by is None), None)


def check_order(records: list[DocumentRecord], file: str, doc_id: str, as_of: str, force: bool) -> None:
    """BadInput when a version dated `as_of` would replace a newer one in force (unless `force`)."""
    current = in_force(records, file)
    if current is None or current.id == doc_id or force or as_of >= current.as_of:
        return
    raise BadInput(f"{file}: this version is dated {as_of}, older than the one in force ({current.id}, dated "
                   f"{current.as_of}): kb keeps the newer one; add it with --force (force=true) to replace it "
                   "anyway", field="file")


def made_current(records: list[DocumentRecord], record: DocumentRecord) -> tuple[list[DocumentRecord], str | None]:
    """The records with `record` the version in force of its file (added, or restored if stored), and the id of
    the version it replaced."""
    current = in_force(records, record.file)
    old = current.id if current is not None and current.id != record.id else None
    out = []
    for r in records:
        if r.id == record.id:
            continue
        out.append(r.model_copy(update={"superseded_by": record.id}) if r.id == old else r)
    return [*out, record.model_copy(update={"superseded_by": None, "supersedes": old or record.supersedes})], old


def removed(records: list[DocumentRecord], doc_id: str) -> list[DocumentRecord]:
    """The records left once `doc_id` is removed: with the versions it replaced when it is the one in force."""
    record = next(r for r in records if r.id == doc_id)
    gone = {doc_id}
    if record.superseded_by is None:
        gone |= {r.id for r in records if r.file == record.file}
    return [r for r in records if r.id not in gone]
