"""A Slack thread (or DM) as a kb conversation: the asker's earlier questions and kb's last state for them.

kb posts every answer with its `state` as message metadata (event type `kb_answer`, with the asker's user
id), so a follow-up in the thread is read against what kb understood, not against kb's prose. Only the
asker's own turns count: two people in one thread hold two conversations. A thread is read with
`conversations.replies` (a DM's top level with `conversations.history`), a small page, cached for a few
seconds so a burst of follow-ups costs one read; when Slack refuses, the question is answered on its own
and the reply says so.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from service.slack.text import question_from_slack

log = logging.getLogger("kb.slack")

EVENT_TYPE = "kb_answer"
READ_LIMIT = 30  # messages read of a thread: a conversation carries at most 10 earlier turns
CACHE_S = 5.0  # a thread read is reused this long (until kb posts in it again)
MAX_TURNS = 10


@dataclass
class Conversation:
    """What a thread holds for one asker: kb's last state for them, or their earlier questions."""

    history: list[str] = field(default_factory=list)
    state: dict[str, Any] | None = None
    unreadable: bool = False  # Slack refused the read: answered standalone, and the reply says so


def metadata(asker: str | None, state: dict[str, Any]) -> dict[str, Any]:
    """The message metadata kb posts with an answer, read back by the next follow-up."""
    return {"event_type": EVENT_TYPE, "event_payload": {"asker": asker or "", "state": state}}


def conversation_of(messages: list[dict[str, Any]], asker: str, bot_user: str | None, current_ts: str) -> Conversation:
    """The asker's conversation in `messages` (any order) before the message `current_ts`."""
    out = Conversation()
    for m in sorted(messages, key=lambda m: float(m.get("ts") or 0)):
        if m.get("ts") == current_ts or float(m.get("ts") or 0) > float(current_ts or 0):
            continue
        meta = m.get("metadata") or {}
        payload = meta.get("event_payload") or {}
        if meta.get("event_type") == EVENT_TYPE and payload.get("asker") in (asker, ""):
            state = payload.get("state")
            if isinstance(state, dict):  # kb's answer: its state holds every turn before it
                out.state, out.history = state, []
        elif m.get("user") == asker and not m.get("bot_id") and not m.get("subtype"):
            text = question_from_slack(m.get("text"), bot_user)
            if text:
                out.history.append(text)
    out.history = out.history[-MAX_TURNS:]
    return out


class ThreadReader:
    """Reads threads through the Web API, with a short cache per thread."""

    def __init__(self, ttl: float = CACHE_S) -> None:
        self.ttl = ttl
        self._cache: dict[tuple[str, str], tuple[float, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def forget(self, channel: str, thread: str | None) -> None:
        """kb posted in this thread: the next read must see it."""
        with self._lock:
            self._cache.pop((channel, thread or ""), None)

    def _messages(self, client: WebClient, channel: str, thread: str | None) -> list[dict[str, Any]]:
        key = (channel, thread or "")
        with self._lock:
            hit = self._cache.get(key)
            if hit and time.monotonic() - hit[0] < self.ttl:
                return hit[1]
        if thread:
            resp = client.conversations_replies(channel=channel, ts=thread, limit=READ_LIMIT,
                                                include_all_metadata=True)
        else:
            resp = client.conversations_history(channel=channel, limit=READ_LIMIT, include_all_metadata=True)
        messages = list(resp.get("messages") or [])
        with self._lock:
            self._cache[key] = (time.monotonic(), messages)
            while len(self._cache) > 10_000:
                self._cache.pop(next(iter(self._cache)))
        return messages

    def read(self, client: WebClient, channel: str, thread: str | None, asker: str, current_ts: str,
             bot_user: str | None) -> Conversation:
        """The asker's conversation so far; `unreadable` when Slack refused (missing scope, rate limit …)."""
        try:
            messages = self._messages(client, channel, thread)
        except SlackApiError as e:
            log.warning("reading a Slack thread for a follow-up failed: %s", e.response.get("error"))
            return Conversation(unreadable=True)
        return conversation_of(messages, asker, bot_user, current_ts)
