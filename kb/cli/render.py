"""Answers for people in a terminal: the answer first, then cited passages and fit checks, in the asker's language."""

from __future__ import annotations

from kb.language import Language
from kb.models import Answer, Passage
from kb.words.answer import origin
from kb.words.catalog import table
from kb.words.width import wrap

WIDTH = 88
EXCERPT_CHARS = 360


def _excerpt(text: str) -> str:
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "…"


def _cited(p: Passage, language: Language) -> str:
    """"§6.1 heading  (the guide, lines 290–309" or, for a team's document, its title, file, place and date
    (`--json` keeps the exact source: the corpus file and lines, the document's id)."""
    if p.kind == "document":
        return f"{p.heading}  ({origin(p, language)}"
    return f"§{p.section} {p.heading}  ({origin(p, language)}"


def render_answer(answer: Answer) -> str:
    """The whole answer as plain text: wraps Chinese and English alike, no colour codes."""
    from kb.fit.render import render_fit_text, render_selection_text

    lang = answer.language
    t = table("terminal", lang)
    out = [f"{t['answer']}:", wrap(answer.answer or t["none"], "  ", WIDTH), "", f"{t['passages']}:"]
    for p in answer.passages:
        out.append(f"[{p.rank}] {_cited(p, lang)}, score {p.score:.3f})")
        out.append(wrap(_excerpt(p.text), "    ", WIDTH))
        for note in p.notes:
            out.append(wrap(f"{t['note']}: {note}", "    ", WIDTH))
    if answer.selection is not None:
        out += ["", f"{t['selection']}:", render_selection_text(answer.selection, lang)]
    if answer.fit_checks:
        out += ["", f"{t['fit']}:"]
        for check in answer.fit_checks:
            out += [render_fit_text(check, lang, {p.id: p.rank for p in answer.passages}), ""]
    return "\n".join(out).rstrip() + "\n"
