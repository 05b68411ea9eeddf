"""Slack's text formats in and out: incoming message markup to a plain question, outgoing text to safe mrkdwn."""

from __future__ import annotations

import re

# Slack's markup in message text: <@U123>, <@U123|name>, <#C123|general>, <!here>, <https://x|label>, <https://x>.
_MARKUP = re.compile(r"<([^<>|]*)(?:\|([^<>]*))?>")


def question_from_slack(text: str | None, bot_user_id: str | None = None) -> str:
    """The question a person typed: kb's mention dropped, links and mentions as their labels, entities undone."""
    text = text or ""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^<>]*)?>", " ", text)

    def label(m: re.Match[str]) -> str:
        target, shown = m.group(1), m.group(2)
        if shown:
            return shown
        if target.startswith(("@", "#", "!")):  # an unlabelled mention says nothing about the question
            return " "
        return target  # a bare link

    text = _MARKUP.sub(label, text)
    # Slack escapes exactly these three in text it sends; undo them last so "&lt;" cannot become markup above.
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return " ".join(text.split())


def mentions_user(text: str | None, user_id: str | None) -> bool:
    """Whether a message's raw text mentions this user (Slack sends such a message as an app_mention too)."""
    return bool(text and user_id and f"<@{user_id}" in text)


def escape(text: str) -> str:
    """Text safe inside mrkdwn: Slack's three control characters escaped, so a question cannot ping <!channel>."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clip(text: str, limit: int, pointer: str) -> str:
    """text if it fits in limit characters, else as much as fits followed by pointer (never longer than limit)."""
    if len(text) <= limit:
        return text
    keep = max(0, limit - len(pointer))
    cut = text[:keep]
    # Never leave half an escape (&amp;) at the cut: Slack would show the broken entity.
    amp = cut.rfind("&")
    if amp != -1 and ";" not in cut[amp:]:
        cut = cut[:amp]
    return (cut.rstrip() + pointer)[:limit]
