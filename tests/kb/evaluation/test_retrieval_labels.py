"""kb/evaluation/retrieval.py: a label names a section or a record, and a passage is hit by either."""

from __future__ import annotations

import json
from pathlib import Path

from kb.evaluation.retrieval import first_hit, load_questions


def test_a_passage_is_hit_by_its_section_or_its_record() -> None:
    labels: list[str | frozenset[str]] = [frozenset({"6.3", "guide-6.3"}), frozenset({"6.3", "concept-zero"})]
    assert first_hit(labels, frozenset({"concept-zero"})) == 2  # a concept record answers "what is ZeRO-2"
    assert first_hit(labels, frozenset({"6.3"})) == 1
    assert first_hit(labels, frozenset({"7.3"})) is None
    assert first_hit(["4.2", "3.2"], frozenset({"3.2"})) == 2  # plain section labels still read as before


def test_a_set_may_label_records_by_id(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({"q": "What is tensor parallelism?", "rel": ["concept-tensor-parallelism"]}) + "\n",
                    encoding="utf-8")
    (q,) = load_questions(path)
    assert q.rel == frozenset({"concept-tensor-parallelism"}) and q.language == "en"
