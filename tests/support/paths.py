"""Where the repository's parts are, for tests wherever they sit in the tree."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
MINI = REPO / "tests" / "fixtures" / "mini"
EVAL = REPO / "tests" / "eval"
DEV = EVAL / "dev"  # the starter development sets (tests/eval/dev/README.md says where they came from)
SEED = REPO / "tests" / "fixtures" / "seed" / "000_963387c57dc9a615.txt"  # the source document, as received
