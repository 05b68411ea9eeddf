"""Retrieval quality on a labelled question set: recall@1, recall@5 and MRR, by language.

A question is a JSONL line {"q": …, "rel": ["3.2", …]}; a hit is a passage whose section is in rel, or whose
record is (a record's id, e.g. "concept-kv-cache": a concept record answers "what is X", not its section's text).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kb.errors import BadInput
from kb.language import Language, detect_language

if TYPE_CHECKING:
    from kb.engine import Engine
    from kb.models import Passage
    from kb.retrieve.search import SearchConfig

T = TypeVar("T")


@dataclass(frozen=True)
class Question:
    q: str
    rel: frozenset[str]
    language: Language


def parse_jsonl(path: Path, field: str, expected: str, parse: Callable[[Any], T]) -> list[T]:
    """Every non-blank line of a JSONL file through `parse`; an unreadable file, a line that is not JSON or that
    `parse` rejects (KeyError, TypeError, ValueError) is BadInput naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise BadInput(f"cannot read {field} file {path}: {e.strerror}", field=field) from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(parse(json.loads(line)))
        except (KeyError, TypeError, ValueError, re.error):  # json.JSONDecodeError is a ValueError
            raise BadInput(f"{path}:{n}: expected {expected}", field=field) from None
    if not out:
        raise BadInput(f"{path} holds no questions", field=field)
    return out


def _question(item: dict[str, Any]) -> Question | None:
    if "rel" not in item and "must" in item:
        return None  # an answer case with no retrieval label (a question outside the guide)
    q, rel = item["q"], item["rel"]
    if not isinstance(q, str) or not q.strip() or not isinstance(rel, list) or not rel:
        raise ValueError
    return Question(q, frozenset(str(r) for r in rel), detect_language(q))


def load_questions(path: Path) -> list[Question]:
    """Parse a question file; a malformed line is BadInput naming the line."""
    found = parse_jsonl(path, "questions", '{"q": "question", "rel": ["3.2", …]}', _question)
    return [q for q in found if q is not None]


def first_hit(labels: list[str | frozenset[str]], rel: frozenset[str]) -> int | None:
    """1-based rank of the first relevant passage, or None; a passage is labelled by its section or by the set of
    its section and its record's id."""
    return next((i for i, s in enumerate(labels, 1) if (s in rel if isinstance(s, str) else s & rel)), None)


def metrics(ranks: list[int | None]) -> dict[str, float]:
    n = max(len(ranks), 1)
    return {
        "n": len(ranks),
        "recall@1": sum(1 for r in ranks if r == 1) / n,
        "recall@5": sum(1 for r in ranks if r is not None and r <= 5) / n,
        "mrr": sum(1 / r for r in ranks if r is not None) / n,
    }


def summarise_ranks(questions: list[Question], ranks: list[int | None]) -> dict[str, dict[str, float]]:
    """Metrics over all questions and per language."""
    out = {"all": metrics(ranks)}
    for lang in ("zh", "en"):
        sub = [r for q, r in zip(questions, ranks, strict=True) if q.language == lang]
        if sub:
            out[lang] = metrics(sub)
    return out


def evaluate(engine: Engine, questions: list[Question], config: SearchConfig | None = None,
             k: int = 5) -> dict[str, dict[str, float]]:
    """Recall@1, recall@k and MRR of `engine`'s retrieval (or of another search configuration over its index:
    a searcher of its own, the engine unchanged) on `questions`. `kb eval` and the tests both call this."""
    from kb.retrieve.search import HybridSearcher

    searcher = engine.searcher if config is None else HybridSearcher(engine.index, config)
    index = searcher.index

    def labels(passage: Passage) -> frozenset[str]:
        row = index.row_of.get(passage.id)
        return frozenset({passage.section, index.rows[row].group if row is not None else passage.id})

    ranks = [first_hit([labels(p) for p in engine.search(q.q, k, q.language, searcher)], q.rel) for q in questions]
    return summarise_ranks(questions, ranks)
