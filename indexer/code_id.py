"""Which code made something: a hash of kb's Python sources, so caches and the index follow the code.

The package version (0.1.0 for a hundred commits) says nothing about what the code does; a hash of the
sources does, the same for a checkout and for a wheel built from it (the same files, the same bytes), and
it catches an uncommitted edit that a git commit would not. Read once a process (~150 files, a few ms).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the folder holding the kb, indexer and service packages
# What decides an index artifact: chunking, the English renderings, BM25's tokenizer.
INDEX_CODE = ("indexer",)
# What decides an answer or a response: everything kb ships.
BUILD_CODE = ("kb", "indexer", "service")
SHOWN = 12  # hex digits shown to people: enough to tell builds apart


@cache
def source_hash(packages: tuple[str, ...], root: Path = ROOT) -> str:
    """sha256 over the relative path and bytes of every .py file in these packages, in path order."""
    h = hashlib.sha256()
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def index_code_id() -> str:
    """The hash the index manifest records: an artifact made by other indexing code is stale."""
    return source_hash(INDEX_CODE)[:32]


def build_id() -> str:
    """The hash of everything kb ships: the shared answer cache's key and `kb --version`."""
    return source_hash(BUILD_CODE)[:32]
