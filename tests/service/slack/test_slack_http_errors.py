"""/slack/events speaks the API's error object: when Slack is not configured, and on a bad signature."""

from __future__ import annotations

import logging

from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app


def test_slack_events_without_slack_configured_is_a_json_404_naming_the_variables(client: TestClient) -> None:
    r = client.post("/slack/events", json={"type": "url_verification", "challenge": "x"})
    error = r.json()["error"]
    assert r.status_code == 404 and error["code"] == "slack_not_configured" and error["request_id"]
    assert "KB_SLACK_BOT_TOKEN" in error["message"] and "KB_SLACK_SIGNING_SECRET" in error["message"]


def test_a_bad_slack_signature_is_a_401_in_the_error_shape(settings: Settings, engine: Engine) -> None:
    configured = settings.model_copy(update={"slack_bot_token": SecretStr("xoxb-t"),
                                             "slack_signing_secret": SecretStr("s3cret")})
    with TestClient(create_app(configured, engine)) as c:
        r = c.post("/slack/events", content=b'{"type":"event_callback"}',
                   headers={"X-Slack-Signature": "v0=00", "X-Slack-Request-Timestamp": "1"})
    error = r.json()["error"]
    assert r.status_code == 401 and error["code"] == "unauthorized" and error["field"] == "x-slack-signature"
    assert error["request_id"] and "signature" in error["message"]


def test_a_slack_request_leaves_kbs_loggers_alone(settings: Settings, engine: Engine) -> None:
    """bolt sets the level of the logger named after its App on every request (to the root's, WARNING); kb's
    access log (kb.access, INFO) must survive the first Slack request, as `kb serve` configures it."""
    from tests.support.fake_slack import signed_headers

    kb = logging.getLogger("kb")
    before = kb.level
    kb.setLevel(logging.INFO)  # what service.logs.logging_config sets in kb serve
    try:
        configured = settings.model_copy(update={"slack_bot_token": SecretStr("xoxb-t"),
                                                 "slack_signing_secret": SecretStr("s3cret")})
        body = '{"type": "url_verification", "challenge": "c-1", "token": "t"}'
        with TestClient(create_app(configured, engine)) as c:
            r = c.post("/slack/events", content=body.encode(),
                       headers=signed_headers("s3cret", body, "application/json"))
        assert r.status_code == 200 and "c-1" in r.text
        assert kb.level == logging.INFO
    finally:
        kb.setLevel(before)
