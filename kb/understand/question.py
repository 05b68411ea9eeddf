"""Validating a question before any work is done on it: the same rules for CLI, HTTP and Slack."""

import re
import unicodedata

from kb.errors import BadInput

_WORD = re.compile(r"[0-9A-Za-z\u4e00-\u9fff]")


def clean_question(question: str | None, max_chars: int, field: str = "question") -> str:
    """The question, trimmed; BadInput (naming `field`: "question", or an earlier turn's "history[2].question") if
    it is empty, too long, or has no words."""
    if question is None:
        raise BadInput(f"{field} is missing: ask something, e.g. kb ask \"RTX 4090 的显存带宽是多少？\"", field=field)
    if len(question) > 4 * max_chars:  # refused before it is read character by character
        raise BadInput(f"{field} is {len(question)} characters; the limit is {max_chars}: shorten it", field=field)
    # Control characters are never part of a question; they break terminals and logs.
    text = "".join(ch for ch in question if ch in "\n\t" or unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise BadInput(f"{field} is empty: ask something, e.g. \"RTX 4090 的显存带宽是多少？\"", field=field)
    if len(text) > max_chars:
        raise BadInput(f"{field} is {len(text)} characters; the limit is {max_chars}: shorten it", field=field)
    if not _WORD.search(unicodedata.normalize("NFKC", text)):
        raise BadInput(f"{field} has no letters, digits or Chinese characters: ask in words", field=field)
    return text


def clean_top_k(top_k: int | None, default: int, maximum: int) -> int:
    """top_k within 1…maximum (default when None)."""
    if top_k is None:
        return default
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= maximum:
        raise BadInput(f"top_k must be a whole number from 1 to {maximum}, got {top_k!r}", field="top_k")
    return top_k
