"""Note: a language-free record of one assumption or working step (a message key and its numbers).

Calculators return Notes; kb.words.fit renders them into Chinese or English once, at the edge, so the
arithmetic never holds a sentence and both languages carry the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Note:
    """A message key and the values its template formats (values may be Notes or lists of Notes)."""

    key: str
    values: dict[str, Any] = field(default_factory=dict)


def note(key: str, /, **values: Any) -> Note:
    return Note(key, values)
