"""Answers for people in a terminal: the answer first, then cited passages and fit checks, in the asker's language."""

from __future__ import annotations

from kb.models import Answer
from kb.words.labels import terminal
from kb.words.width import wrap

WIDTH = 88
EXCERPT_CHARS = 360


def _excerpt(text: str) -> str:
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "…"


def render_answer(answer: Answer) -> str:
    """The whole answer as plain text: wraps Chinese and English alike, no colour codes."""
    from kb.fit.render import render_fit_text, render_selection_text

    lang = answer.language
    t = terminal(lang)
    out = [f"{t['answer']}:", wrap(answer.answer or t["none"], "  ", WIDTH), "", f"{t['passages']}:"]
    for p in answer.passages:
        src = p.source
        out.append(f"[{p.rank}] §{p.section} {p.heading}  ({p.kind}, {src.path}:{src.start_line}-{src.end_line},"
                   f" score {p.score:.3f})")
        out.append(wrap(_excerpt(p.text), "    ", WIDTH))
        for note in p.notes:
            out.append(wrap(f"{t['note']}: {note}", "    ", WIDTH))
    if answer.selection is not None:
        out += ["", f"{t['selection']}:", render_selection_text(answer.selection, lang)]
    if answer.fit_checks:
        out += ["", f"{t['fit']}:"]
        for check in answer.fit_checks:
            out += [render_fit_text(check, lang), ""]
    return "\n".join(out).rstrip() + "\n"
