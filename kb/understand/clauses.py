"""Clauses: a message cut where one ask ends and the next begins, each kept with its place in the message.

People put several asks in one message: numbered ("①…②…", "(a) … (b) …", "1. … 2. …"), as separate
questions ("…扛得住吗？不够的话要几张？"), or joined ("can it serve X on one card, and what's the decode
ceiling?"). A sentence that asks nothing ("我们IDC里有一台8卡A100") is context for the asks around it.
Only the shape of the text decides the cuts (enumerators, sentence ends, a conjunction before a question
word); what each clause asks is the ask reader's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

# Where an enumerated ask starts: ① … ⑩, (a)/(1), "a)"/"1)"/"1." "1、" at a boundary, "第一/第二", "Q1:".
_ENUMERATOR = re.compile(r"[①②③④⑤⑥⑦⑧⑨⑩]|(?:(?<=^)|(?<=[\s:：;；,，。.?？!！]))"
                         r"(?:\(\s*(?:[a-f]|\d)\s*\)|[a-f]\)|\d[.)、](?!\d)|q\d\s*[:：.]|第[一二三四五六]\s*[,，、:：])",
                         re.IGNORECASE)
# Where a sentence ends: a question or exclamation mark, a Chinese full stop, a semicolon, or a full stop
# followed by a space (not the point of "1.5B", not "e.g.").
_SENTENCE_END = re.compile(r"[?？!！。；;]+|\.(?=\s+[A-Za-z\u4e00-\u9fff])(?<!e\.g\.)(?<!i\.e\.)")
# A conjunction that starts another ask inside a sentence: ", and what …", "，还有…多少", "以及…".
_JOINED = re.compile(r"(?:[,，;；]\s*(?:and\s+|also\s+|plus\s+|then\s+)?|\s+and\s+)"
                     r"(?=(?:[a-z]+\s+){0,2}?(?:what|how|is|are|can|could|does|do|will|would|which|whats|what's)\b)|"
                     r"[，,]\s*(?:还有|以及|另外|再问一下|顺便问一下)(?=.{0,30}(?:多少|几|吗|么|呢|如何|怎么))",
                     re.IGNORECASE)
# What makes a piece of text an ask rather than context: a question mark, or a word that asks.
_ASKS = re.compile(r"[?？]|多少|几(?:张|块|台|天|个|倍|周|小时)|吗|么|呢|能否|是否|能不能|够不够|可不可以|行不行|"
                   r"怎么|如何|哪|什么|啥|多久|多大|多快|帮忙算|给个|估一下|算一下|(?<![a-z])(?:what|how|which|"
                   r"can|could|does|do|is|are|will|would|should|whether|estimate|give me|tell me)(?![a-z])",
                   re.IGNORECASE)


@dataclass(frozen=True)
class Clause:
    """A piece of a message: its text, where it starts, and whether it asks something (else it is context)."""

    text: str
    start: int
    asks: bool


def _pieces(text: str, cuts: list[int]) -> list[tuple[int, str]]:
    bounds = sorted({0, *cuts, len(text)})
    out = []
    for a, b in pairwise(bounds):
        piece = text[a:b]
        if piece.strip(" ,，。.;；:：-—"):
            out.append((a, piece))
    return out


def split_clauses(text: str) -> list[Clause]:
    """The message's clauses in order: asks and the context between them. One clause when it asks one thing."""
    enumerators = list(_ENUMERATOR.finditer(text))
    cuts = [i for m in enumerators for i in (m.start(), m.end())]  # (the marker itself is no part of a clause)
    cuts += [m.end() for m in _SENTENCE_END.finditer(text)]
    cuts += [m.start() for m in _JOINED.finditer(text)]
    marks = {(m.start(), m.end()) for m in enumerators}
    clauses = [Clause(piece.strip(), start + len(piece) - len(piece.lstrip()), bool(_ASKS.search(piece)))
               for start, piece in _pieces(text, cuts) if (start, start + len(piece)) not in marks]
    return clauses or [Clause(text.strip(), 0, True)]


def ask_clauses(text: str) -> list[Clause]:
    """Only the clauses that ask something (at least one: a message that asks nothing is asked whole)."""
    found = [c for c in split_clauses(text) if c.asks]
    return found or [Clause(text.strip(), 0, True)]
