"""Answer quality on a JSONL answer set: does the answer state the facts a correct answer must hold?

A line is {"q": …, "type": …, "must": [regex …], "en"?: bool, "selection"?: bool, "no_fit"?: bool}: every
regex must be found (case-insensitive) in `answer`; "selection" requires a ranked selection; "no_fit"
requires no fit checks. Patterns state facts, never kb's wording (tests/eval/ANSWERS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.evaluate import parse_jsonl
from kb.models import Answer


@dataclass(frozen=True)
class AnswerCase:
    q: str
    type: str
    must: tuple[re.Pattern[str], ...]
    language: str
    selection: bool = False
    no_fit: bool = False


@dataclass
class Outcome:
    case: AnswerCase
    passed: bool
    why: list[str] = field(default_factory=list)
    answer: str = ""


def _case(item: dict[str, Any]) -> AnswerCase:
    q, kind, must = item["q"], item["type"], item["must"]
    if not isinstance(q, str) or not q.strip() or not isinstance(must, list) or not isinstance(kind, str):
        raise ValueError
    patterns = tuple(re.compile(p, re.IGNORECASE) for p in must)
    return AnswerCase(q, kind, patterns, "en" if item.get("en") else "zh", bool(item.get("selection")),
                      bool(item.get("no_fit")))


def load_answer_cases(path: Path) -> list[AnswerCase]:
    """Parse an answer set; a malformed line or a regex that does not compile is BadInput naming the line."""
    return parse_jsonl(path, "answers", '{"q": …, "type": …, "must": [regex …]} with valid regexes', _case)


def judge(case: AnswerCase, answer: Answer) -> Outcome:
    why = [f"missing /{p.pattern}/" for p in case.must if not p.search(answer.answer)]
    if case.selection and not (answer.selection and answer.selection.rows):
        why.append("no ranked selection")
    if case.no_fit and answer.fit_checks:
        why.append(f"{len(answer.fit_checks)} fit check(s) where none belong")
    return Outcome(case, not why, why, answer.answer)


def run_answers(cases: list[AnswerCase], ask: Callable[[str], Answer]) -> list[Outcome]:
    return [judge(c, ask(c.q)) for c in cases]


def report(outcomes: list[Outcome]) -> dict[str, Any]:
    """Pass rates overall, by type and by language, and every failure with the answer it got."""
    def rate(sub: list[Outcome]) -> dict[str, float]:
        return {"n": len(sub), "pass": sum(o.passed for o in sub) / max(len(sub), 1)}

    types = sorted({o.case.type for o in outcomes})
    return {
        "all": rate(outcomes),
        "by_type": {t: rate([o for o in outcomes if o.case.type == t]) for t in types},
        "by_language": {lang: rate([o for o in outcomes if o.case.language == lang]) for lang in ("zh", "en")},
        "failures": [{"q": o.case.q, "type": o.case.type, "why": o.why, "answer": o.answer}
                     for o in outcomes if not o.passed],
    }
