"""What a signed Slack body must look like before bolt reads it: the fields bolt and kb's listeners read, typed.

A valid signature says the body came from someone with the signing secret, not that it has the shape Slack's
documents give: bolt reads `body["event"]["channel"]`, `payload["actions"][0]`, `team["id"]` as they come, so a
signed body whose `actions` is a string, whose `event` is a list, or that nests 5,000 brackets deep was a 500 with a
traceback. Here such a body is a 400 naming the field, and a kind of request kb registers no listener for (a modal,
a shortcut) is a 404, before bolt sees either. Fields not named here are Slack's to add and are let through.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError, model_validator
from slack_bolt.request.internals import parse_body

from kb.understand.state import field_of

# The kinds of request kb's manifest subscribes to (service/slack/manifest.yaml): events (and Slack's URL check and
# rate-limit notice for them), the 👍 / 👎 buttons, and the /kb command (a form without a `type`).
HANDLED = {"event_callback", "url_verification", "app_rate_limited", "block_actions"}
Text = StrictStr | None


class _Part(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Named(_Part):
    id: Text = None
    team_id: Text = None
    enterprise_id: Text = None


class _Message(_Part):
    ts: Text = None
    thread_ts: Text = None
    user: Text = None
    text: Text = None
    bot_id: Text = None


class _Event(_Part):
    type: StrictStr
    subtype: Text = None
    text: Text = None
    user: StrictStr | _Named | None = None
    channel: StrictStr | _Named | None = None
    channel_type: Text = None
    ts: Text = None
    thread_ts: Text = None
    event_ts: Text = None
    bot_id: Text = None
    team: Text = None
    user_team: Text = None
    message: _Message | None = None
    previous_message: _Message | None = None
    item: _Named | None = None


class _Action(_Part):
    action_id: StrictStr
    block_id: Text = None
    value: Text = None
    type: Text = None


class _Authorization(_Part):
    enterprise_id: Text = None
    team_id: Text = None
    user_id: Text = None
    is_enterprise_install: StrictBool | None = None


class SlackBody(_Part):
    """The fields of an event, an interaction or a slash command that are read; each optional, each typed."""

    type: Text = None
    token: Text = None
    challenge: Text = None
    team_id: Text = None
    enterprise_id: Text = None
    api_app_id: Text = None
    event_id: Text = None
    team: StrictStr | _Named | None = None
    enterprise: StrictStr | _Named | None = None
    user: StrictStr | _Named | None = None
    channel: StrictStr | _Named | None = None
    authorizations: list[_Authorization] | None = Field(default=None, max_length=100)
    is_enterprise_install: StrictBool | StrictStr | None = None
    is_ext_shared_channel: StrictBool | None = None
    event: _Event | None = None
    actions: list[_Action] | None = Field(default=None, max_length=100)
    container: _Part | None = None
    message: _Message | None = None
    previous_message: _Message | None = None
    view: _Part | None = None
    response_url: Text = None
    response_urls: list[_Part] | None = None
    command: Text = None
    text: Text = None
    user_id: Text = None
    channel_id: Text = None
    trigger_id: Text = None
    thread_ts: Text = None
    ssl_check: Text = None

    @model_validator(mode="after")
    def _what_its_type_needs(self) -> SlackBody:
        needs = {"event_callback": ("event", self.event), "url_verification": ("challenge", self.challenge),
                 "block_actions": ("actions", self.actions)}.get(self.type or "")
        if needs is not None and not needs[1]:
            raise ValueError(f"a {self.type} request without `{needs[0]}`")
        return self


class NotSlack(ValueError):
    """A signed body kb will not hand to bolt: `status` 400 (not a shape Slack sends) or 404 (nothing listens)."""

    def __init__(self, status: int, message: str, field: str = "body") -> None:
        super().__init__(message)
        self.status, self.field = status, field


def _path(value: Any, loc: tuple[int | str, ...], missing: bool) -> tuple[int | str, ...]:
    """The part of an error's location that is in the body (a union's member names are pydantic's, not Slack's),
    and the field's own name when it is `missing`."""
    path: list[int | str] = []
    for part in loc:
        inside = part in value if isinstance(value, dict) else isinstance(part, int) and part < len(value) \
            if isinstance(value, list) else False
        if inside:
            value = value[part]
            path.append(part)
    return (*path, loc[-1]) if missing and loc and loc[-1] not in path[-1:] else tuple(path)


def check_body(body: str, content_type: str | None) -> None:
    """NotSlack unless `body` parses (as bolt will parse it) into a request of a kind kb handles, in Slack's shape."""
    try:
        parsed: Any = parse_body(body, content_type)
    except RecursionError:
        raise NotSlack(400, "body nests too deep to be a request Slack sends") from None
    except ValueError:  # json.JSONDecodeError too
        raise NotSlack(400, "body is neither JSON nor a form Slack sends") from None
    if not isinstance(parsed, dict):
        raise NotSlack(400, "body is not a JSON object or a form, as Slack sends")
    try:
        checked = SlackBody.model_validate(parsed)
    except ValidationError as e:
        first = e.errors(include_url=False, include_input=False)[0]
        where = field_of(_path(parsed, tuple(first["loc"]), first["type"] == "missing"))
        why = str(first["msg"]).removeprefix("Value error, ")
        raise NotSlack(400, f"{where or 'body'}: {why}, not what Slack sends", where or "body") from None
    except RecursionError:
        raise NotSlack(400, "body nests too deep to be a request Slack sends") from None
    if checked.type is not None and checked.type not in HANDLED:
        raise NotSlack(404, f"kb answers slash commands, events and its own buttons, not {checked.type[:40]!r} "
                            "requests", "type")
