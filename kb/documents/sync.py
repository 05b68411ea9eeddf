"""A folder kb keeps in step with the store: new and changed files added, deleted ones removed, the rest untouched.

`kb docs sync DIR` runs it once (embedding in its own process); the service runs it on KB_SOURCES_WATCH every
KB_SOURCES_WATCH_SECONDS, staging jobs for the workers (service/documents_watch.py). Documents synced from a
folder carry it in their record, so a file deleted there removes only what that folder put in, never a document
added by hand. A file is read again only when its size or modification time moved (a stat a poll); every
replica may poll the same folder: the store's lock and the document ids (the bytes' hash) make a second replica's
add of the same file a no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.documents.convert import CONVERTERS
from kb.documents.library import Added, Library, document_id
from kb.errors import BadInput

HIDDEN = (".", "~$", ".~lock")  # dot files, Office's lock and owner files


@dataclass
class SyncReport:
    """What one pass did, file by file."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # staged: a worker is embedding it
    refused: list[tuple[str, str]] = field(default_factory=list)  # (file, why)
    skipped: list[str] = field(default_factory=list)  # not a format kb reads, or a folder
    staged: list[str] = field(default_factory=list)  # document ids this pass staged (for the caller's workers)
    newly_refused: list[str] = field(default_factory=list)  # refused this pass (not known refused before)

    def lines(self) -> list[str]:
        out = [f"added {f}" for f in self.added] + [f"changed {f} (a new version)" for f in self.changed]
        out += [f"removed {f}" for f in self.removed] + [f"embedding {f}" for f in self.pending]
        out += [f"refused {f}: {why}" for f, why in self.refused] + [f"unchanged {f}" for f in self.unchanged]
        return out + [f"skipped {f} (not a file kb reads)" for f in self.skipped]

    @property
    def changes(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.staged)


class FolderSync:
    """One folder against one library; remembers what it read (size, mtime → document id) between passes."""

    def __init__(self, library: Library, folder: Path) -> None:
        self.library = library
        self.folder = Path(folder)
        self.key = str(self.folder.resolve())
        self._seen: dict[str, tuple[int, int, str]] = {}  # file → (size, mtime_ns, document id)
        self._refused: dict[str, tuple[str, str]] = {}  # file → (document id, why): not tried again unchanged

    def files(self) -> tuple[dict[str, Path], list[str]]:
        """The files kb reads directly in the folder, by name; and the names it skips."""
        if not self.folder.is_dir():
            raise BadInput(f"{self.folder}: no such folder", field="path")
        keep, skip = {}, []
        for p in sorted(self.folder.iterdir()):
            if p.name.startswith(HIDDEN):
                continue
            if p.is_file() and p.suffix.lower() in CONVERTERS:
                keep[p.name] = p
            else:
                skip.append(p.name)
        return keep, skip

    def sync(self, add: Callable[..., Added] | None = None) -> SyncReport:
        """One pass: `add` is Library.add (embed here) or Library.submit (stage for the workers, the default)."""
        add = add or self.library.submit
        report = SyncReport()
        files, report.skipped = self.files()
        records = self.library.records()
        by_name = {r.file: r for r in records}
        for name, path in files.items():
            try:
                st = path.stat()
                seen = self._seen.get(name)
                doc_id = seen[2] if seen and seen[:2] == (st.st_size, st.st_mtime_ns) else None
                current = by_name.get(name)
                if doc_id is not None and current is not None and current.id == doc_id:
                    report.unchanged.append(name)
                    continue
                if doc_id is not None and self._refused.get(name, ("",))[0] == doc_id:
                    report.refused.append((name, self._refused[name][1]))
                    continue
                data = path.read_bytes()
                doc_id = document_id(data)
                self._seen[name] = (st.st_size, st.st_mtime_ns, doc_id)
                if current is not None and current.id == doc_id:
                    report.unchanged.append(name)
                    continue
                added = add(data, name, folder=self.key)
            except BadInput as e:
                report.refused.append((name, str(e)))
                report.newly_refused.append(name)
                if doc_id is not None:
                    self._refused[name] = (doc_id, str(e))
                continue
            except OSError as e:  # a file half-copied or removed while read: the next pass sees it again
                report.refused.append((name, f"could not read it ({e.strerror or e})"))
                self._seen.pop(name, None)
                continue
            if added.existed:
                report.unchanged.append(name)
            elif added.job is not None and added.job.state in ("queued", "embedding") and not added.staged:
                report.pending.append(name)
            else:
                (report.changed if current is not None else report.added).append(name)
                if added.staged:
                    report.staged.append(added.record.id)
        for r in records:
            if r.folder == self.key and r.file not in files:
                try:
                    self.library.remove(r.id)
                except BadInput:  # another replica removed it first
                    continue
                report.removed.append(r.file)
                self._seen.pop(r.file, None)
        return report
