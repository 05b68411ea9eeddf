"""The bolt App: kb's own object, with tokens from settings, verification on, and retrying Slack clients."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from slack_bolt import App
from slack_sdk import WebClient

from kb.settings import Settings
from service.gaps import app_gaps
from service.slack.bot import Bot
from service.slack.feedback import FeedbackLog
from service.slack.replies import HTTP_TIMEOUT_S, EngineGetter, retry_handlers

if TYPE_CHECKING:
    from service.shared import Shared


def api_url(settings: Settings) -> str:
    """KB_SLACK_API_URL as the WebClient wants it (with a trailing slash)."""
    url = settings.slack_api_url
    return url if url.endswith("/") else url + "/"


def feedback_salt(settings: Settings) -> bytes:
    """The key that pseudonymises voters: KB_SLACK_FEEDBACK_SALT, else the signing secret, else the bot token."""
    for secret in (settings.slack_feedback_salt, settings.slack_signing_secret, settings.slack_bot_token):
        if secret is not None and secret.get_secret_value():
            return secret.get_secret_value().encode()
    return b"kb"


def build_app(settings: Settings, engine_getter: EngineGetter, shared: Shared | None = None) -> App:
    """A bolt App answering with kb; needs settings.slack_bot_token (the signing secret for HTTP requests)."""
    if settings.slack_bot_token is None:
        raise ValueError("KB_SLACK_BOT_TOKEN is not set")
    client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=api_url(settings),
                       timeout=HTTP_TIMEOUT_S, retry_handlers=retry_handlers())
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else ""
    app = App(
        name="kb-slack",  # bolt sets the level of the logger named after the app on every request: not "kb"
        client=client,
        signing_secret=secret,  # "" only in Socket Mode, whose requests bolt does not verify by signature
        request_verification_enabled=True,
        # Acknowledge first, answer after: listeners ack at once and lazy functions post the answer.
        process_before_response=True,
        # auth.test on the first request rather than at start-up: a Slack outage must not stop the HTTP API.
        token_verification_enabled=False,
        ignoring_self_events_enabled=True,
        listener_executor=ThreadPoolExecutor(max_workers=max(4, settings.threads), thread_name_prefix="kb-slack"),
    )
    bot = Bot(engine_getter, FeedbackLog(settings.feedback_path, feedback_salt(settings), app_gaps(settings, shared)),
              settings.slack_user_per_minute, settings.max_question_chars, shared)
    bot.register(app)
    return app
