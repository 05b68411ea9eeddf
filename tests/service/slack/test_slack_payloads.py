"""Signed Slack bodies that are not what Slack sends — deep nesting, wrong types, kinds kb has no listener for — are
a 4xx in the API's error shape naming the field, with no traceback logged; bolt never sees them."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from tests.support.fake_slack import FakeSlack, signed_headers

SECRET = "payload-secret"
JSON, FORM = "application/json", "application/x-www-form-urlencoded"


def _form(payload: object) -> str:
    return urlencode({"payload": payload if isinstance(payload, str) else json.dumps(payload)})


def _click(**fields: object) -> str:
    return _form({"type": "block_actions", "user": {"id": "U1"}, "team": {"id": "T1"}, **fields})


BAD: list[tuple[str, str, str, int, str]] = [  # (name, body, content type, status, field)
    ("5,000 nested brackets", "[" * 5000 + "]" * 5000, JSON, 400, "body"),
    ("5,000 nested objects", '{"a":' * 5000 + "1" + "}" * 5000, JSON, 400, "body"),
    ("a form payload nested 5,000 deep", _form("[" * 5000 + "]" * 5000), FORM, 400, "body"),
    ("a JSON list", "[1, 2]", JSON, 400, "body"),
    ("a JSON string", '"event_callback"', JSON, 400, "body"),
    ("a payload that is no JSON", urlencode({"payload": "{nope"}), FORM, 400, "body"),
    ("a type that is a number", '{"type": 5}', JSON, 400, "type"),
    ("actions a string", _click(actions="x"), FORM, 400, "actions"),
    ("actions an object", _click(actions={"a": 1}), FORM, 400, "actions"),
    ("actions a list of strings", _click(actions=["kb_vote_up"]), FORM, 400, "actions[0]"),
    ("an action's value a number", _click(actions=[{"action_id": "kb_vote_up", "value": 5}]), FORM, 400,
     "actions[0].value"),
    ("an action without its id", _click(actions=[{"value": "{}"}]), FORM, 400, "actions[0].action_id"),
    ("no actions", _click(actions=[]), FORM, 400, "body"),
    ("a user that is a list", _click(actions=[{"action_id": "kb_vote_up"}], user=["U1"]), FORM, 400, "user"),
    ("an event that is a string", '{"type": "event_callback", "event": "x", "team_id": "T1"}', JSON, 400, "event"),
    ("an event that is a list", '{"type": "event_callback", "event": [1], "event_id": "E1"}', JSON, 400, "event"),
    ("an event whose text is a number",
     '{"type": "event_callback", "event": {"type": "app_mention", "text": 3}, "event_id": "E2"}', JSON, 400,
     "event.text"),
    ("an event's channel a list",
     '{"type": "event_callback", "event": {"type": "message", "channel": [1]}, "event_id": "E3"}', JSON, 400,
     "event.channel"),
    ("authorizations a string", '{"type": "event_callback", "event": {"type": "message"}, "authorizations": "x"}',
     JSON, 400, "authorizations"),
    ("a URL check without a challenge", '{"type": "url_verification"}', JSON, 400, "body"),
    ("a URL check whose challenge is an object", '{"type": "url_verification", "challenge": {"a": 1}}', JSON, 400,
     "challenge"),
    ("a modal submission", _form({"type": "view_submission", "view": {"id": "V1"}, "user": {"id": "U1"}}), FORM,
     404, "type"),
    ("a shortcut", _form({"type": "shortcut", "callback_id": "x", "user": {"id": "U1"}}), FORM, 404, "type"),
]


@pytest.fixture(scope="module")
def client(settings: Settings, engine: Engine) -> Iterator[TestClient]:
    with FakeSlack() as slack:
        configured = settings.model_copy(update={
            "slack_bot_token": SecretStr("xoxb-payloads"), "slack_signing_secret": SecretStr(SECRET),
            "slack_api_url": slack.api_url})
        with TestClient(create_app(configured, engine), raise_server_exceptions=False) as c:
            yield c


@pytest.mark.parametrize(("body", "content_type", "status", "field"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_a_signed_body_not_in_slack_s_shape_is_a_4xx_naming_the_field(
        client: TestClient, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str], body: str,
        content_type: str, status: int, field: str) -> None:
    with caplog.at_level(logging.WARNING):
        r = client.post("/slack/events", content=body.encode(), headers=signed_headers(SECRET, body, content_type))
    assert r.status_code == status and r.headers["content-type"] == "application/json", r.text
    error = r.json()["error"]
    assert error["field"] == field and error["message"] and error["request_id"], error
    assert not [rec for rec in caplog.records if rec.exc_info], [rec.getMessage() for rec in caplog.records]
    assert "Traceback" not in capfd.readouterr().err


def test_what_slack_sends_still_reaches_bolt(client: TestClient) -> None:
    body = '{"type": "url_verification", "challenge": "c-42", "token": "t"}'
    r = client.post("/slack/events", content=body.encode(), headers=signed_headers(SECRET, body, JSON))
    assert r.status_code == 200 and "c-42" in r.text
    body = _click(actions=[{"action_id": "kb_nothing_of_kbs", "value": "{}"}])
    r = client.post("/slack/events", content=body.encode(), headers=signed_headers(SECRET, body, FORM))
    assert r.status_code == 404 and r.json()["error"]["message"] == "no listener of kb's takes this request"
