"""The index artifact: one folder, a manifest, and the verification that loading it is safe.

Layout (FORMAT_VERSION 1):
  manifest.json   corpus hash, embedder name and dimension, versions, chunk count, file sizes + sha256
  chunks.json     chunk metadata and text, in FAISS row order (the row is the id)
  vectors.faiss   IndexFlatIP over L2-normalised vectors
  lexical.npz     term postings (rows, term frequencies) and chunk lengths, BM25 weighed at query time;
                  lexicon.txt: the vocabulary (and the query tokenizer's dictionary)

A flat index is exact and, below ~100k vectors, as fast as an approximate one; the manifest's
`faiss_index` names the type, so a later IVF/HNSW artifact is a new value, not a new layout.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexer.errors import IndexUnavailable

FORMAT_VERSION = 1
MANIFEST = "manifest.json"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def corpus_hash(files: list[Path], root: Path) -> str:
    """A hash of the corpus's file names and contents: the artifact is stale when it changes."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


@dataclass(frozen=True)
class Manifest:
    """What an artifact says about itself."""

    data: dict[str, Any]

    @property
    def embedder(self) -> str:
        return str(self.data["embedder"]["name"])

    @property
    def dim(self) -> int:
        return int(self.data["embedder"]["dim"])

    @property
    def corpus_hash(self) -> str:
        return str(self.data["corpus_hash"])


def read_manifest(folder: Path, rebuild_hint: str) -> Manifest:
    """The manifest of an artifact folder, or an error that says how to fix it."""
    path = folder / MANIFEST
    if not folder.exists():
        raise IndexUnavailable(f"no index at {folder}: build it with `{rebuild_hint}`")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise IndexUnavailable(f"{folder} has no {MANIFEST}: not a kb index; rebuild with `{rebuild_hint}`") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise IndexUnavailable(f"{path} is corrupt; rebuild with `{rebuild_hint}`") from None
    if not isinstance(data, dict) or data.get("format_version") != FORMAT_VERSION:
        found = data.get("format_version") if isinstance(data, dict) else None
        raise IndexUnavailable(
            f"index at {folder} has format version {found}, this kb reads {FORMAT_VERSION}; "
            f"rebuild with `{rebuild_hint}`"
        )
    return Manifest(data)


def verify_files(folder: Path, manifest: Manifest, rebuild_hint: str, checksum: bool = True) -> None:
    """Every file the manifest lists is present, whole, and (optionally) has its recorded sha256."""
    for name, meta in manifest.data["files"].items():
        path = folder / name
        if not path.is_file():
            raise IndexUnavailable(f"index at {folder} lacks {name}; rebuild with `{rebuild_hint}`")
        if path.stat().st_size != meta["size"] or (checksum and sha256_file(path) != meta["sha256"]):
            raise IndexUnavailable(f"index file {path} is truncated or corrupt; rebuild with `{rebuild_hint}`")


def write_manifest(folder: Path, data: dict[str, Any], files: list[str]) -> None:
    data = dict(data, format_version=FORMAT_VERSION, created_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    data["files"] = {n: {"size": (folder / n).stat().st_size, "sha256": sha256_file(folder / n)} for n in files}
    (folder / MANIFEST).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def staging_dir(out: Path) -> Path:
    """A fresh folder beside `out` to build into; never inside `out`, so a crash leaves `out` intact."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.building-{os.getpid()}-{time.monotonic_ns()}"
    tmp.mkdir()
    return tmp


def publish(tmp: Path, out: Path) -> None:
    """Make the finished build in `tmp` the artifact at `out`, atomically.

    `out` is a symlink to a versioned sibling folder; replacing the link is one rename(2), so a
    reader sees the old artifact or the new one, never a mix. A plain folder at `out` (from an
    older layout or a user) is moved aside first.
    """
    final = out.parent / f".{out.name}.{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}-{time.monotonic_ns()}"
    tmp.rename(final)
    link = out.parent / f".{out.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(final.name)
    old_target = out.resolve() if out.is_symlink() else None
    if out.exists() and not out.is_symlink():
        aside = out.parent / f".{out.name}.old-{os.getpid()}"
        out.rename(aside)
        shutil.rmtree(aside, ignore_errors=True)
    os.replace(link, out)
    if old_target is not None and old_target != final.resolve():
        shutil.rmtree(old_target, ignore_errors=True)


def clean_stale(out: Path) -> None:
    """Remove build folders that a killed build left beside `out` (they are never read)."""
    if not out.parent.is_dir():
        return
    keep = out.resolve() if out.is_symlink() else None
    for p in out.parent.glob(f".{out.name}.*"):
        if keep is not None and p.resolve() == keep:
            continue
        if p.is_symlink():
            p.unlink(missing_ok=True)
        elif p.is_dir() and ".building-" in p.name:
            pid = p.name.split(".building-")[1].split("-")[0]
            if not process_alive(int(pid)):
                shutil.rmtree(p, ignore_errors=True)


def process_alive(pid: int) -> bool:
    """Whether a process with this id still runs (a half-built folder of a live build is left alone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
