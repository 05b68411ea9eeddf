"""`kb slack`: the same bot over Socket Mode, for workspaces that cannot expose a URL to Slack."""

from __future__ import annotations

import logging

from slack_bolt.adapter.socket_mode import SocketModeHandler

from kb.errors import KbError
from kb.settings import Settings
from service.slack.replies import EngineGetter

log = logging.getLogger("kb.slack")


def _app_token(settings: Settings) -> str:
    """The xapp- token; KbError naming every missing variable (never a value) when a token is not set."""
    needed = {"slack_bot_token": "KB_SLACK_BOT_TOKEN (the xoxb- bot token)",
              "slack_app_token": "KB_SLACK_APP_TOKEN (an xapp- app-level token with connections:write)"}
    missing = [what for name, what in needed.items() if getattr(settings, name) is None]
    if missing or settings.slack_app_token is None:
        raise KbError(f"Socket Mode needs {' and '.join(missing)}; see the README's Slack section")
    return settings.slack_app_token.get_secret_value()


def socket_mode_handler(settings: Settings, engine_getter: EngineGetter) -> SocketModeHandler:
    """bolt's Socket Mode handler around kb's App (the same listeners as POST /slack/events).

    Slack spreads Socket Mode events over every open connection, so several `kb slack` processes share
    de-duplication, thread memory and the per-user limit through Redis when KB_REDIS_URL is set."""
    from service.shared import Shared
    from service.slack.app import build_app

    shared = Shared(settings.redis_url) if settings.redis_url else None
    return SocketModeHandler(build_app(settings, engine_getter, shared), _app_token(settings))


def run_socket_mode(settings: Settings, engine_getter: EngineGetter | None = None) -> None:
    """Load the index (building it if needed), connect to Slack over a WebSocket, and answer until stopped."""
    _app_token(settings)  # fail on missing tokens before loading anything
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if engine_getter is None:
        from kb.engine import Engine

        log.info("loading the index at %s", settings.index_dir)
        engine = Engine.open(settings)
        engine_getter = lambda: engine  # noqa: E731
    handler = socket_mode_handler(settings, engine_getter)
    log.info("kb Slack bot connecting over Socket Mode (Web API %s)", settings.slack_api_url)
    handler.start()
