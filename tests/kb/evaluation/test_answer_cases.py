"""kb/evaluation/answers.py: what a line of an answer set asks of an answer (facts present, wrong facts absent,
an acceptable coverage), judged on real Answer objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.errors import BadInput
from kb.evaluation.answers import judge, load_answer_cases
from kb.models import Answer


def _cases(tmp_path: Path, *lines: dict[str, object]) -> list:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8")
    return load_answer_cases(path)


def _answer(text: str, coverage: str = "answered") -> Answer:
    return Answer(question="q", language="en", answer=text, coverage=coverage, unknown=[], passages=[],
                  fit_checks=[], selection=None, resolved_question="q", state={}, carried=[], changed=[])


def test_a_wrong_fact_stated_fails_the_line(tmp_path: Path) -> None:
    (case,) = _cases(tmp_path, {"q": "int8 is 4x smaller than fp16?", "type": "correction", "en": True,
                                "must": ["fp32"], "must_not": [r"4x smaller than fp16\b"]})
    assert judge(case, _answer("INT8 halves a 16-bit model; 4x is relative to FP32.")).passed
    bad = judge(case, _answer("Yes, FP32 aside, INT8 is 4x smaller than fp16."))
    assert not bad.passed and bad.why == [r"states /4x smaller than fp16\b/"]


def test_coverage_is_held_to_the_listed_values(tmp_path: Path) -> None:
    (case,) = _cases(tmp_path, {"q": "which llm is smartest for legal work?", "type": "out_of_scope", "en": True,
                                "must": [], "coverage": ["not_covered", "partial"]})
    assert judge(case, _answer("The guide does not cover that.", "not_covered")).passed
    assert judge(case, _answer("Only GPU choice is covered.", "partial")).passed
    assert not judge(case, _answer("GPT-4.", "answered")).passed


@pytest.mark.parametrize("line", [{"q": "x", "type": "t", "must": [], "coverage": ["fine"]},
                                  {"q": "x", "type": "t", "must": [], "must_not": "not a list"},
                                  {"q": "x", "type": "t", "must": [], "must_not": ["(unclosed"]}])
def test_a_malformed_line_is_bad_input_naming_it(tmp_path: Path, line: dict[str, object]) -> None:
    with pytest.raises(BadInput, match=r"set\.jsonl:1"):
        _cases(tmp_path, line)
