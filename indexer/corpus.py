"""The corpus folder walked: every file that holds passages, chunked, with its English rendering attached."""

from __future__ import annotations

from pathlib import Path

from indexer.chunks import SKIP_FILES, Chunk, guide_chunks, record_chunks
from indexer.english import attach_english
from indexer.errors import CorpusError


def corpus_files(corpus_dir: Path) -> list[Path]:
    """Every markdown file that holds passages, in a stable order (corpus/en/ renders them: not passages)."""
    return sorted(p for p in corpus_dir.rglob("*.md")
                  if p.name not in SKIP_FILES and p.relative_to(corpus_dir).parts[0] != "en")


def load_chunks(corpus_dir: Path) -> list[Chunk]:
    """All chunks of a corpus folder; ids must be unique."""
    if not (corpus_dir / "guide.md").is_file():
        raise CorpusError(f"{corpus_dir} has no guide.md: point --corpus (KB_CORPUS_DIR) at the corpus folder")
    chunks: list[Chunk] = []
    for path in corpus_files(corpus_dir):
        rel_path = path.relative_to(corpus_dir)
        rel = f"corpus/{rel_path.as_posix()}"
        found, body_start = (guide_chunks(path, rel), 0) if path.name == "guide.md" else record_chunks(path, rel)
        attach_english(found, corpus_dir, rel_path, body_start)
        chunks.extend(found)
    seen: set[str] = set()
    for c in chunks:
        if c.id in seen:
            raise CorpusError(f"duplicate passage id {c.id!r} in {c.path}")
        seen.add(c.id)
    return chunks
