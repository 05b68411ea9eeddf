"""Where the repository's parts are, for tests wherever they sit in the tree."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
SHARED = REPO.parent / "shared"
MINI = REPO / "tests" / "fixtures" / "mini"
EVAL = REPO / "tests" / "eval"
