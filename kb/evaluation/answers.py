"""Answer quality on a JSONL answer set: does the answer state the facts a correct answer must hold?

A line is {"q": …, "type": …, "must": [regex …], "en"?: bool, "selection"?: bool, "no_fit"?: bool,
"fit"?: {…}, "must_not"?: [regex …], "coverage"?: [str …]}, or a conversation {"turns": [q1, …, qN], …}
judged on the answer to its last turn asked with the earlier turns as history. Every `must` regex must be
found (case-insensitive) in `answer` and no `must_not` regex (a wrong fact); "selection" requires a ranked
selection; "no_fit" requires no fit checks; "coverage" lists the answer's acceptable coverage values; "fit"
requires some fit check to match every field it gives (`params` [low, high] on model_params, `gpu`, `count`,
`workload`, `precision` one of a list, `fits`, `seq_len` [low, high], `concurrency`). Other keys (`rel`,
`url`) are the set's own. Patterns state facts, never kb's wording (tests/eval/ANSWERS.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.evaluation.retrieval import parse_jsonl
from kb.language import Language
from kb.models import Answer


@dataclass(frozen=True)
class AnswerCase:
    q: str
    type: str
    must: tuple[re.Pattern[str], ...]
    language: Language
    selection: bool = False
    no_fit: bool = False
    history: tuple[str, ...] = ()  # earlier turns of a conversation, oldest first
    fit: tuple[tuple[str, Any], ...] = ()  # fields some fit check must match
    must_not: tuple[re.Pattern[str], ...] = ()  # wrong facts the answer must not state
    coverage: tuple[str, ...] = ()  # acceptable coverage values (any, when empty)


@dataclass
class Outcome:
    case: AnswerCase
    passed: bool
    why: list[str] = field(default_factory=list)
    answer: str = ""


_FIT_FIELDS = ("params", "gpu", "count", "workload", "precision", "fits", "seq_len", "concurrency")


def _case(item: dict[str, Any]) -> AnswerCase:
    turns = item.get("turns")
    if turns is not None and (not isinstance(turns, list) or not turns or not all(isinstance(t, str) for t in turns)):
        raise ValueError
    q, kind, must = (turns[-1] if turns else item["q"]), item["type"], item.get("must", [])
    if not isinstance(q, str) or not q.strip() or not isinstance(must, list) or not isinstance(kind, str):
        raise ValueError
    fit = item.get("fit") or {}
    if not isinstance(fit, dict) or set(fit) - set(_FIT_FIELDS):
        raise ValueError
    must_not, coverage = item.get("must_not", []), item.get("coverage", [])
    if not isinstance(must_not, list) or not isinstance(coverage, list) or \
            not set(coverage) <= {"answered", "partial", "not_covered"}:
        raise ValueError
    patterns = tuple(re.compile(p, re.IGNORECASE) for p in must)
    return AnswerCase(q, kind, patterns, "en" if item.get("en") else "zh", bool(item.get("selection")),
                      bool(item.get("no_fit")), tuple(turns[:-1]) if turns else (), tuple(sorted(fit.items())),
                      tuple(re.compile(p, re.IGNORECASE) for p in must_not), tuple(coverage))


def _fit_matches(check: Any, want: dict[str, Any]) -> bool:
    serving = check.serving
    got = {"params": check.model_params, "gpu": check.gpu, "count": check.gpu_count, "workload": check.workload,
           "precision": check.precision, "fits": check.fits, "seq_len": check.seq_len,
           "concurrency": serving.concurrency if serving else None}
    for name, value in want.items():
        have = got[name]
        if name in ("params", "seq_len"):
            if have is None or not value[0] <= have <= value[1]:
                return False
        elif name == "precision":
            if have not in value:
                return False
        elif have != value:
            return False
    return True


def load_answer_cases(path: Path) -> list[AnswerCase]:
    """Parse an answer set; a malformed line or a regex that does not compile is BadInput naming the line."""
    return parse_jsonl(path, "answers", '{"q": …, "type": …, "must": [regex …]} with valid regexes', _case)


def judge(case: AnswerCase, answer: Answer) -> Outcome:
    why = [f"missing /{p.pattern}/" for p in case.must if not p.search(answer.answer)]
    why += [f"states /{p.pattern}/" for p in case.must_not if p.search(answer.answer)]
    if case.coverage and answer.coverage not in case.coverage:
        why.append(f"coverage {answer.coverage}, expected one of {list(case.coverage)}")
    if case.selection and not (answer.selection and answer.selection.rows):
        why.append("no ranked selection")
    if case.no_fit and answer.fit_checks:
        why.append(f"{len(answer.fit_checks)} fit check(s) where none belong")
    want = dict(case.fit)
    if want and not any(_fit_matches(c, want) for c in answer.fit_checks):
        got = [f"{c.gpu}×{c.gpu_count} {c.workload} {c.precision} {c.model_params:.3g} fits={c.fits} "
               f"seq={c.seq_len} conc={c.serving.concurrency if c.serving else None}" for c in answer.fit_checks]
        why.append(f"no fit check matches {want} (got {got or 'none'})")
    return Outcome(case, not why, why, answer.answer)


def run_answers(cases: list[AnswerCase], ask: Callable[..., Answer]) -> list[Outcome]:
    """Each case's answer judged; a conversation's last turn is asked with its earlier turns as history."""
    return [judge(c, ask(c.q, history=list(c.history)) if c.history else ask(c.q)) for c in cases]


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
