"""kb's own development sets (retrieval questions, answer cases): `kb eval`'s defaults.

A checkout reads them from tests/eval/; a wheel carries a copy as package data (kb/eval/, copied there by
setup.py's build hook, as it copies the corpus), so an installed kb's `kb eval` runs with no file given.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent / "tests" / "eval"
SHIPPED = ("questions.jsonl", "answers.jsonl")


def development_set(name: str) -> Path:
    """The path of one shipped set (`questions.jsonl` or `answers.jsonl`): the wheel's copy, else the checkout's."""
    packaged = Path(str(resources.files("kb") / "eval" / name))
    return packaged if packaged.is_file() else CHECKOUT / name
