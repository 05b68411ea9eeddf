"""Answer → Block Kit, pure. Slack's limits hold by construction: long content is trimmed with a pointer.

Limits (Slack's Block Kit reference): 50 blocks a message; a section's text 3,000 characters; a header's 150;
10 elements a context block; a button's text 75 and its value 2,000 characters.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kb.fit.result import Selection
from kb.gaps.entries import about
from kb.language import Language
from kb.models import Answer, Passage
from kb.words import catalog
from kb.words.answer import origin
from service.slack.tables import fit_caption, fit_table, selection_caption, selection_table
from service.slack.text import clip, escape

Block = dict[str, Any]

MAX_BLOCKS = 50
SECTION_TEXT = 3000
CONTEXT_ELEMENTS = 10
BUTTON_VALUE = 2000
EXCERPT_CHARS = 500  # a quoted excerpt long enough to judge the passage by; the full text is in kb ask / API
FALLBACK_CHARS = 1000  # the notification text beside the blocks
VOTE_ACTIONS = {"up": "kb_vote_up", "down": "kb_vote_down"}


def mrkdwn(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": text}


def section(text: str, block_id: str | None = None, pointer: str = "…") -> Block:
    """A section whose text is clipped to Slack's limit (and never empty, which Slack also rejects)."""
    block: Block = {"type": "section", "text": mrkdwn(clip(text or " ", SECTION_TEXT, pointer))}
    if block_id:
        block["block_id"] = block_id
    return block


def context(texts: list[str], block_id: str | None = None) -> Block:
    block: Block = {"type": "context",
                    "elements": [mrkdwn(clip(t or " ", SECTION_TEXT, "…")) for t in texts[:CONTEXT_ELEMENTS]]}
    if block_id:
        block["block_id"] = block_id
    return block


def _excerpt(text: str, pointer: str) -> str:
    lines = [" ".join(line.split()) for line in text.splitlines()]
    flat = "\n".join(line for line in lines if line)
    return "\n".join(">" + line for line in clip(escape(flat), EXCERPT_CHARS, pointer).splitlines())


_MARKER = re.compile(r"\[(\d+|F\d+|S)\]")


def answer_markup(answer: Answer) -> str:
    """The answer with its markers in bold, as the passage blocks ([n]) and the fit table (F1) label themselves:
    Slack has no anchors inside a message, so a marker points at a label the reader can see below."""
    return _MARKER.sub(lambda m: f"*[{m.group(1)}]*", escape(answer.answer))


def passage_blocks(p: Passage, language: Language) -> list[Block]:
    """The passage's section, heading and a quoted excerpt; then where it comes from and its notes."""
    t = catalog.table("slack", language)
    head = f"*[{p.rank}]* §{p.section} {escape(p.heading)}"
    body = section(f"{head}\n{_excerpt(p.text, t['truncated'])}", f"kb_passage_{p.rank}", t["truncated"])
    where = f"{escape(origin(p, language))} · {t['score']} {p.score:.2f}"
    notes = [f"{t['note']}: {escape(n)}" for n in p.notes]
    return [body, context([where, *notes])]


def selection_section(sel: Selection, language: Language) -> Block:
    """The configurations that fit, ranked (or that none does), then what was left out and why."""
    t = catalog.table("slack", language)
    title = f"*{t['selection']}* · {escape(clip(selection_caption(sel, language), 150, '…'))}\n"
    left_out = "".join(f"\n• {escape(x)}" for x in sel.excluded)
    left_out = f"\n_{t['excluded']}_:{left_out}" if left_out else ""
    if not sel.rows:
        return section(title + t["none_fit"] + left_out, "kb_selection", t["truncated"])
    table = selection_table(sel, language, SECTION_TEXT - len(title))
    room = SECTION_TEXT - len(title) - len(table)
    return section(title + table + (clip(left_out, room, t["truncated"]) if room > 80 else ""), "kb_selection")


def feedback_value(answer: Answer) -> str:
    """What a vote records, carried in the button (≤ 2,000 characters): the question (trimmed), passage ids and what
    the answer was about (its cards, models and topics, for `kb gaps`)."""
    ids = [p.id for p in answer.passages]
    question = answer.question
    mentioned = about(answer.state)
    while True:
        value = json.dumps({"q": question, "l": answer.language, "p": ids, "a": mentioned}, ensure_ascii=False)
        if len(value) <= BUTTON_VALUE:
            return value
        if question:
            question = question[: max(0, len(question) - (len(value) - BUTTON_VALUE) - 1)]
        else:
            ids = ids[:-1]


def feedback_actions(answer: Answer) -> Block:
    t = catalog.table("slack", answer.language)
    value = feedback_value(answer)
    return {"type": "actions", "block_id": "kb_feedback", "elements": [
        {"type": "button", "action_id": VOTE_ACTIONS[vote], "value": value,
         "text": {"type": "plain_text", "text": t[f"vote_{vote}"], "emoji": True}}
        for vote in ("up", "down")]}


def answer_blocks(answer: Answer, asked_by: str | None = None) -> list[Block]:
    """The whole answer as at most 50 blocks: who asked, the answer, fit checks, passages, feedback buttons."""
    lang = answer.language
    t = catalog.table("slack", lang)
    q = escape(answer.question)
    asked = t["asked"].format(user=f"<@{asked_by}>", question=q) if asked_by else t["question"].format(question=q)
    head: list[Block] = [context([asked], "kb_question"),
                         section(f"*{t['answer']}*\n{answer_markup(answer) or t['none']}", "kb_answer", t["truncated"])]
    if answer.selection is not None:
        head.append(selection_section(answer.selection, lang))
    if answer.fit_checks:
        title = f"*{t['fit']}* · {escape(clip(fit_caption(answer.fit_checks, answer.language), 150, '…'))}\n"
        head.append(section(title + fit_table(answer.fit_checks, lang, SECTION_TEXT - len(title)), "kb_fit"))
    head += [{"type": "divider"}, section(f"*{t['passages']}*")]
    tail = [feedback_actions(answer)]

    per_passage = [passage_blocks(p, lang) for p in answer.passages]
    room_blocks = MAX_BLOCKS - len(head) - len(tail)
    shown: list[Block] = []
    for i, blocks in enumerate(per_passage):
        left = len(per_passage) - i - 1
        # keep one block for the "n more passages" pointer unless this is the last passage
        if len(shown) + len(blocks) + (1 if left else 0) > room_blocks:
            shown.append(context([t["more_passages"].format(n=len(per_passage) - i)], "kb_more"))
            break
        shown += blocks
    return head + shown + tail


def answer_text(answer: Answer) -> str:
    """The plain notification text sent beside the blocks (Slack shows it where blocks cannot be shown)."""
    t = catalog.table("slack", answer.language)
    return clip(escape(answer.answer) or t["none"], FALLBACK_CHARS, t["truncated"])
