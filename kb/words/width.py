"""Display width, the one algorithm every front end uses: a wide (CJK, full-width, emoji) character takes two columns.

Terminals and Slack's monospace font agree on East Asian Width: W and F characters are two cells wide.
"""

from __future__ import annotations

import re
import unicodedata

# A wide character, or a run of non-space narrow characters (a Latin word stays whole), or spaces.
_TOKEN = re.compile(r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]|[^\s\u2e80-\u9fff\u3000-\u303f\uff00-\uffef]+|\s+")


def width(s: str) -> int:
    """Columns `s` takes in a monospace font."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(cell: str, w: int) -> str:
    """`cell` padded with spaces to `w` columns."""
    return cell + " " * max(0, w - width(cell))


def wrap(text: str, indent: str = "  ", columns: int = 88) -> str:
    """Greedy wrap by display width: a Chinese character takes two columns, a Latin word stays whole."""
    start = width(indent)
    lines, line, used = [], indent, start
    for tok in _TOKEN.findall(text):
        w = width(tok)
        if tok.isspace():
            if used > start:
                line, used = line + " ", used + 1
            continue
        if used + w > columns and used > start:
            lines.append(line.rstrip())
            line, used = indent, start
        line, used = line + tok, used + w
    lines.append(line.rstrip())
    return "\n".join(lines)


def align(header: list[str], rows: list[list[str]], gap: str = "  ") -> list[str]:
    """A header and rows as lines of columns aligned by display width."""
    widths = [max(width(c) for c in col) for col in zip(header, *rows, strict=True)]
    return [gap.join(pad(c, w) for c, w in zip(cells, widths, strict=True)).rstrip() for cells in [header, *rows]]
