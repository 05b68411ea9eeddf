"""Answers for people in a terminal: the answer first, then cited passages and fit checks, in the asker's language."""

from __future__ import annotations

from kb.models import Answer, DocumentSource, Passage
from kb.words.catalog import table
from kb.words.width import wrap

WIDTH = 88
EXCERPT_CHARS = 360


def _excerpt(text: str) -> str:
    flat = " ".join(line.strip() for line in text.splitlines() if line.strip())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "…"


def _cited(p: Passage) -> str:
    """"§6.1 heading  (guide, corpus/guide.md:290-309" or, for a team's document, its title, file and date."""
    src = p.source
    if isinstance(src, DocumentSource):
        where = (f"sheet {src.sheet} row {src.row}" if src.sheet else
                 f"p. {src.page}" + (f" row {src.row}" if src.row else "") if src.page else
                 f"lines {src.start_line}-{src.end_line}")
        return f"《{src.title}》 {p.heading}  (document {src.document}, {src.file} {where}, as of {src.as_of}"
    return f"§{p.section} {p.heading}  ({p.kind}, {src.path}:{src.start_line}-{src.end_line}"


def render_answer(answer: Answer) -> str:
    """The whole answer as plain text: wraps Chinese and English alike, no colour codes."""
    from kb.fit.render import render_fit_text, render_selection_text

    lang = answer.language
    t = table("terminal", lang)
    out = [f"{t['answer']}:", wrap(answer.answer or t["none"], "  ", WIDTH), "", f"{t['passages']}:"]
    for p in answer.passages:
        out.append(f"[{p.rank}] {_cited(p)}, score {p.score:.3f})")
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
