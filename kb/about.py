"""What `kb --version` and `kb index --info` say: which kb, which corpus (its hash), which index, and whether
the index is current. Reads files only; never builds or loads a model."""

from __future__ import annotations

from importlib import metadata

from indexer.artifact import read_manifest
from indexer.embed_cache import cache_path
from indexer.freshness import current_corpus_hash, staleness
from kb.errors import IndexUnavailable
from kb.locations import packaged_corpus
from kb.settings import Settings

HASH_SHOWN = 12  # hex digits of a sha256: enough to tell corpora apart at a glance


def kb_version() -> str:
    try:
        return metadata.version("kb")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def corpus_line(settings: Settings) -> str:
    folder = settings.corpus_dir
    if not folder.is_dir():
        return f"corpus   none at {folder}"
    where = "packaged" if folder == packaged_corpus() else "folder"
    return f"corpus   {current_corpus_hash(folder)[:HASH_SHOWN]} ({where}: {folder})"


def index_line(settings: Settings) -> str:
    folder = settings.index_dir
    try:
        manifest = read_manifest(folder, "kb index")
    except IndexUnavailable:
        return f"index    none at {folder} (`kb index` builds it; `kb ask` builds it on first use)"
    built = manifest.corpus_hash
    why = staleness(folder, settings.corpus_dir) if settings.corpus_dir.is_dir() else "no corpus to compare with"
    state = "current" if why is None else f"stale: {why}"
    return f"index    {folder} (corpus {built[:HASH_SHOWN]}, {state})"


def version_lines(settings: Settings) -> list[str]:
    from kb.build_info import build_line

    return [f"kb {kb_version()}", build_line(), corpus_line(settings), index_line(settings)]


def index_lines(settings: Settings) -> list[str]:
    """The --info report: the version lines, then what the artifact's manifest and the embedding cache say."""
    lines = version_lines(settings)
    folder = settings.index_dir
    try:
        data = read_manifest(folder, "kb index").data
    except IndexUnavailable:
        data = None
    if data is not None:
        target = folder.resolve()
        lines += [
            f"folder   {target}" + (" (via the symlink kb swaps on each build)" if folder.is_symlink() else ""),
            f"built    {data.get('created_at')}: {data.get('chunk_count')} chunks from {data.get('corpus_files')} "
            f"files, embedder {data['embedder']['name']} (dim {data['embedder']['dim']}), "
            f"{data.get('faiss_index')}",
        ]
    cache = cache_path(folder)
    size = cache.stat().st_size if cache.is_file() else None
    lines.append(f"cache    {cache} ({size} bytes)" if size is not None else f"cache    none at {cache}")
    return lines
