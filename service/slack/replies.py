"""From a question to what kb says back, and the ways of saying it in Slack (a post, an ephemeral, a response_url).

Every call to Slack goes through clients that retry on rate limits (HTTP 429, honouring Retry-After) and on
dropped connections, so a busy workspace delays an answer rather than losing it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from slack_sdk.http_retry import ConnectionErrorRetryHandler, RateLimitErrorRetryHandler, RetryHandler
from slack_sdk.webhook import WebhookClient

from kb.errors import BadInput, IndexUnavailable
from kb.language import Language, detect_language
from kb.models import Answer
from kb.words import catalog
from service.slack.blocks import Block, answer_blocks, answer_text
from service.slack.text import escape

log = logging.getLogger("kb.slack")

RATE_LIMIT_RETRIES = 3  # Slack's Retry-After is usually seconds; three waits outlast a burst, not an outage
HTTP_TIMEOUT_S = 30


class Answerer(Protocol):
    """What the bot needs of kb's core: kb.engine.Engine is one."""

    def answer(self, question: str, top_k: int | None = None, history: list[str] | None = None,
               state: dict[str, Any] | None = None) -> Answer: ...


EngineGetter = Callable[[], Answerer]


def retry_handlers() -> list[RetryHandler]:
    """Retries for every Slack call: dropped connections, and 429s after the Retry-After they carry."""
    return [ConnectionErrorRetryHandler(), RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)]


@dataclass
class Reply:
    """An answer to post, or a short notice (bad question, failure) for the asker alone."""

    language: Language
    answer: Answer | None = None
    notice: str = ""
    blocks: list[Block] = field(default_factory=list)

    @property
    def text(self) -> str:
        return answer_text(self.answer) if self.answer is not None else self.notice


def compose(engine_getter: EngineGetter, question: str, asked_by: str | None = None,
            history: list[str] | None = None, state: dict[str, Any] | None = None) -> Reply:
    """Ask kb's core (a follow-up with the thread's history or state); a bad question becomes its one-line
    message, any other failure a logged apology."""
    language = detect_language(question)
    t = catalog.table("slack", language)
    try:
        answer = engine_getter().answer(question, history=history or None, state=state)
    except BadInput as e:
        return Reply(language, notice=t["bad_input"].format(message=escape(str(e))))
    except IndexUnavailable as e:  # loading, or failed to load: the message has paths, so it goes to the log
        log.warning("a Slack question while the index is unavailable: %s", e)
        return Reply(language, notice=t["unavailable"])
    except Exception:
        log.exception("answering a Slack question failed")
        return Reply(language, notice=t["failed"])
    return Reply(answer.language, answer=answer, blocks=answer_blocks(answer, asked_by))


def send_to_response_url(url: str, payload: dict[str, Any]) -> bool:
    """POST a message to a slash command's or a button's response_url; False (logged) if Slack refused it."""
    try:
        resp = WebhookClient(url, timeout=HTTP_TIMEOUT_S, retry_handlers=retry_handlers()).send_dict(payload)
    except Exception:
        log.exception("posting to a response_url failed")
        return False
    if resp.status_code != 200:
        log.warning("response_url answered %s: %s", resp.status_code, resp.body[:200])
        return False
    return True
