"""Answers for people in a terminal: summary, cited passages, fit checks; labels in the question's language."""

from __future__ import annotations

import re
import unicodedata

from kb.models import Answer

LABELS = {
    "zh": {"answer": "回答", "passages": "引用段落", "section": "章节", "lines": "行", "note": "注",
           "fit": "适配检查", "selection": "选型排序", "none": "（没有找到相关段落）"},
    "en": {"answer": "Answer", "passages": "Passages", "section": "section", "lines": "lines", "note": "Note",
           "fit": "Fit checks", "selection": "Ranked configurations", "none": "(no passages found)"},
}
WIDTH = 88
EXCERPT_CHARS = 360


_TOKEN = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+|\s+")


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def wrap(text: str, indent: str = "  ", width: int = WIDTH) -> str:
    """Greedy wrap by display width: a Chinese character takes two columns, a Latin word stays whole."""
    lines, line, used = [], indent, _width(indent)
    for tok in _TOKEN.findall(text):
        w = _width(tok)
        if tok.isspace():
            if used > _width(indent):
                line, used = line + " ", used + 1
            continue
        if used + w > width and used > _width(indent):
            lines.append(line.rstrip())
            line, used = indent, _width(indent)
        line, used = line + tok, used + w
    lines.append(line.rstrip())
    return "\n".join(lines)


def _excerpt(text: str) -> str:
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "…"


def render_answer(answer: Answer) -> str:
    """The whole answer as plain text: wraps Chinese and English alike, no colour codes."""
    from kb.fit.render import render_fit_text, render_selection_text

    lang = answer.language
    t = LABELS[lang]
    out = [f"{t['answer']}:", wrap(answer.answer or t["none"]), "", f"{t['passages']}:"]
    for p in answer.passages:
        src = p.source
        out.append(f"[{p.rank}] §{p.section} {p.heading}  ({p.kind}, {src.path}:{src.start_line}-{src.end_line},"
                   f" score {p.score:.3f})")
        out.append(wrap(_excerpt(p.text), "    "))
        for note in p.notes:
            out.append(wrap(f"{t['note']}: {note}", "    "))
    if answer.selection is not None:
        out += ["", f"{t['selection']}:", render_selection_text(answer.selection, lang)]
    if answer.fit_checks:
        out += ["", f"{t['fit']}:"]
        for check in answer.fit_checks:
            out += [render_fit_text(check, lang), ""]
    return "\n".join(out).rstrip() + "\n"
