"""Slack configuration: the route exists only when configured, /readyz says why not, `kb slack` runs Socket Mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from slack_sdk.socket_mode.request import SocketModeRequest
from slack_sdk.socket_mode.response import SocketModeResponse

from kb.errors import KbError
from kb.settings import Settings
from service.slack import build_slack, slack_status
from service.slack.socket_mode import run_socket_mode, socket_mode_handler
from tests.support.fake_slack import BOT_USER, FakeEngine, FakeSlack, block_problems, event_body

BOT, SIGN, APP = "xoxb-1-secret-bot", "signing-secret-value", "xapp-1-secret-app"


def tokens(**values: str) -> dict[str, Any]:
    return {k: SecretStr(v) for k, v in values.items()}


@pytest.mark.parametrize(("given", "status"), [
    ({}, "slack: not configured (set KB_SLACK_BOT_TOKEN and KB_SLACK_SIGNING_SECRET)"),
    ({"slack_bot_token": BOT}, "slack: not configured (set KB_SLACK_SIGNING_SECRET)"),
    ({"slack_bot_token": BOT, "slack_signing_secret": ""}, "slack: not configured (set KB_SLACK_SIGNING_SECRET)"),
    ({"slack_bot_token": BOT, "slack_app_token": APP},
     "slack: socket mode only (run `kb slack`); POST /slack/events needs KB_SLACK_SIGNING_SECRET"),
    ({"slack_bot_token": BOT, "slack_signing_secret": SIGN}, "slack: configured (POST /slack/events)"),
])
def test_route_only_when_configured_and_status_says_why(given: dict[str, str], status: str) -> None:
    settings = Settings(**tokens(**given))
    assert slack_status(settings) == status
    integration = build_slack(settings, FakeEngine)
    if status.startswith("slack: configured"):
        assert integration is not None and integration.status == status
        assert [(r.path, r.methods) for r in integration.router.routes] == [("/slack/events", {"POST"})]  # type: ignore[attr-defined]
        integration.close()
    else:
        assert integration is None
    assert not any(secret in status for secret in (BOT, SIGN, APP))


def test_settings_come_from_kb_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"BOT_TOKEN": BOT, "SIGNING_SECRET": SIGN, "APP_TOKEN": APP,
                        "API_URL": "http://127.0.0.1:9/api", "FEEDBACK_SALT": "pepper"}.items():
        monkeypatch.setenv(f"KB_SLACK_{name}", value)
    s = Settings()
    assert s.slack_api_url == "http://127.0.0.1:9/api" and s.slack_feedback_salt is not None
    assert BOT not in repr(s) and SIGN not in repr(s)  # SecretStr: never in logs or tracebacks


def test_socket_mode_without_tokens_says_which_are_missing() -> None:
    with pytest.raises(KbError, match="Socket Mode needs KB_SLACK_APP_TOKEN"):
        run_socket_mode(Settings(**tokens(slack_bot_token=BOT)), FakeEngine)
    with pytest.raises(KbError, match=r"KB_SLACK_BOT_TOKEN \(the xoxb- bot token\) and KB_SLACK_APP_TOKEN"):
        run_socket_mode(Settings())


def test_kb_slack_starts_the_socket_mode_handler(monkeypatch: pytest.MonkeyPatch, slack: FakeSlack) -> None:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    started: list[Any] = []
    monkeypatch.setattr(SocketModeHandler, "start", lambda self: started.append(self))
    settings = Settings(**tokens(slack_bot_token=BOT, slack_app_token=APP), slack_api_url=slack.api_url)
    run_socket_mode(settings, FakeEngine)
    (handler,) = started
    assert handler.app_token == APP and handler.client.web_client.base_url == slack.api_url


def test_socket_mode_answers_with_the_same_listeners(slack: FakeSlack, tmp_path: Path) -> None:
    """A Socket Mode envelope (no signature: the WebSocket is authenticated) is acked and answered in the thread."""
    engine = FakeEngine()
    settings = Settings(**tokens(slack_bot_token=BOT, slack_app_token=APP), slack_api_url=slack.api_url.rstrip("/"),
                        feedback_path=tmp_path / "f.jsonl")
    handler = socket_mode_handler(settings, lambda: engine)
    acks: list[SocketModeResponse] = []
    handler.client.send_socket_mode_response = acks.append  # type: ignore[method-assign,assignment]
    payload = json.loads(event_body({"type": "app_mention", "user": "U1", "text": f"<@{BOT_USER}> 4090 显存？",
                                     "ts": "5.1", "channel": "C1", "event_ts": "5.1"}, "EvS1"))
    for attempt in (None, 1):  # the first delivery, then Slack's retry of it
        handler.handle(handler.client, SocketModeRequest(type="events_api", envelope_id=f"env{attempt}",
                                                         payload=payload, retry_attempt=attempt,
                                                         retry_reason="timeout" if attempt else None))
    handler.app.listener_runner.listener_executor.shutdown(wait=True)
    assert [a.envelope_id for a in acks] == ["envNone", "env1"]
    (post,) = slack.posts()
    assert post.body["thread_ts"] == "5.1" and block_problems(post.body["blocks"]) == []
    assert engine.questions == ["4090 显存？"]


def test_readyz_reports_slack_and_the_route_exists_only_when_configured(settings: Settings, engine: Any) -> None:
    from fastapi.testclient import TestClient

    from service.app import create_app

    with TestClient(create_app(settings, engine)) as client:
        assert "slack: not configured (set KB_SLACK_BOT_TOKEN and KB_SLACK_SIGNING_SECRET)" in \
            client.get("/readyz").json()["detail"]
        assert client.post("/slack/events", content=b"{}").status_code == 404
    configured = settings.model_copy(update=tokens(slack_bot_token=BOT, slack_signing_secret=SIGN))
    with TestClient(create_app(configured, engine)) as client:
        assert "slack: configured (POST /slack/events)" in client.get("/readyz").json()["detail"]
        assert client.post("/slack/events", content=b"{}").status_code == 401


def test_manifest_declares_what_the_bot_listens_for() -> None:
    import yaml

    manifest = yaml.safe_load((Path(__file__).resolve().parents[3] / "service/slack/manifest.yaml").read_text())
    (command,) = manifest["features"]["slash_commands"]
    assert command["command"] == "/kb"
    settings = manifest["settings"]
    assert {"app_mention", "message.im", "message.channels"} <= set(settings["event_subscriptions"]["bot_events"])
    assert settings["interactivity"]["is_enabled"] is True
    urls = [command["url"], settings["event_subscriptions"]["request_url"], settings["interactivity"]["request_url"]]
    assert all(url == "https://YOUR-HOST/slack/events" for url in urls)
    assert {"commands", "chat:write", "app_mentions:read", "im:history", "channels:history"} <= set(
        manifest["oauth_config"]["scopes"]["bot"])
    assert manifest["features"]["app_home"]["messages_tab_enabled"] is True
