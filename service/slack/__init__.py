"""kb in Slack: a bolt App mounted on FastAPI at POST /slack/events, or run over Socket Mode by `kb slack`.

The HTTP app factory calls `build_slack(settings, engine_getter)`; it returns None when Slack is not
configured (no route at all), and `slack_status(settings)` says why in /readyz.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import APIRouter
from slack_bolt import App

from kb.settings import Settings
from service.slack.replies import Answerer, EngineGetter

if TYPE_CHECKING:
    from service.shared import Shared

__all__ = ["Answerer", "EngineGetter", "SlackIntegration", "build_slack", "slack_status"]


@dataclass
class SlackIntegration:
    """What the HTTP app mounts: the router, the bolt App behind it, and a one-line status for /readyz."""

    router: APIRouter
    app: App
    status: str

    def close(self) -> None:
        """Let answers in flight finish, then stop the worker threads (call on application shutdown)."""
        executor = self.app.listener_runner.listener_executor
        executor.shutdown(wait=True)


def _missing(settings: Settings, *names: str) -> list[str]:
    return [f"KB_{n.upper()}" for n in names
            if getattr(settings, n) is None or not getattr(settings, n).get_secret_value()]


def slack_status(settings: Settings) -> str:
    """'slack: configured' or why not, naming the variables to set (never their values)."""
    missing = _missing(settings, "slack_bot_token", "slack_signing_secret")
    if not missing:
        return "slack: configured (POST /slack/events)"
    if not _missing(settings, "slack_bot_token", "slack_app_token"):
        return "slack: socket mode only (run `kb slack`); POST /slack/events needs KB_SLACK_SIGNING_SECRET"
    return f"slack: not configured (set {' and '.join(missing)})"


def build_slack(settings: Settings, engine_getter: EngineGetter, shared: Shared | None = None) \
        -> SlackIntegration | None:
    """The Slack route for the HTTP app, or None when KB_SLACK_BOT_TOKEN or KB_SLACK_SIGNING_SECRET is missing.

    With `shared` (KB_REDIS_URL), de-duplication, thread memory and the per-user limit are kept in Redis."""
    if _missing(settings, "slack_bot_token", "slack_signing_secret"):
        return None
    from service.slack.app import build_app
    from service.slack.route import ThreadedSlackRequestHandler, slack_router

    app = build_app(settings, engine_getter, shared)
    assert settings.slack_signing_secret is not None
    handler = ThreadedSlackRequestHandler(app, settings.slack_signing_secret.get_secret_value())
    return SlackIntegration(router=slack_router(handler), app=app, status=slack_status(settings))
