"""`POST /slack/events`: bolt's FastAPI (Starlette) adapter, verifying before parsing and dispatching off the loop."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from slack_bolt import App
from slack_bolt.adapter.starlette.handler import SlackRequestHandler, to_bolt_request, to_starlette_response
from slack_sdk.signature import SignatureVerifier
from starlette.concurrency import run_in_threadpool

from service.errors import error_response
from service.slack.payload import NotSlack, check_body

# Slack's requests are small; the largest, a button click, carries the message it came from (tens of KB).
MAX_BODY_BYTES = 1 << 20


def _error(status: int, message: str, field: str = "body") -> Response:
    """The API's error object ({"error": {"code", "field", "message", "request_id"}}), here as everywhere."""
    return error_response(status, message, "x-slack-signature" if status == 401 else field)


class ThreadedSlackRequestHandler(SlackRequestHandler):
    """bolt's SlackRequestHandler with two changes, both for a shared FastAPI process.

    - The signature is checked on the raw bytes first: bolt parses the body before its own check, so a
      forged body that is not JSON (or a timestamp that is not a number) would otherwise be a 500, not a 401.
      bolt's own verification stays on behind it.
    - A signed body is then checked for Slack's shape (service/slack/payload.py): bolt reads it as it comes, so
      wrong types or deep nesting would otherwise be a 500 and a traceback.
    - `App.dispatch` runs in the thread pool: it is synchronous, and on the event loop it would stall every
      other request while it runs the ack functions.
    """

    def __init__(self, app: App, signing_secret: str) -> None:
        super().__init__(app)
        self.verifier = SignatureVerifier(signing_secret)

    def verified(self, req: Request, body: bytes) -> bool:
        try:
            return self.verifier.is_valid(body, req.headers.get("x-slack-request-timestamp"),
                                          req.headers.get("x-slack-signature"))
        except ValueError:  # a timestamp that is not a number
            return False

    async def handle(self, req: Request, addition_context_properties: dict[str, Any] | None = None) -> Response:
        body = await req.body()
        if len(body) > MAX_BODY_BYTES:
            return _error(413, f"body is larger than {MAX_BODY_BYTES} bytes")
        if not self.verified(req, body):
            return _error(401, "invalid request signature (X-Slack-Signature, X-Slack-Request-Timestamp)")
        try:
            text = body.decode("utf-8")
            check_body(text, req.headers.get("content-type", "").split(";")[0].strip() or None)
            bolt_req = to_bolt_request(req, body, addition_context_properties)
        except NotSlack as e:
            return _error(e.status, str(e), e.field)
        except ValueError:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
            return _error(400, "body is neither JSON nor a form Slack sends")
        bolt_resp = await run_in_threadpool(self.app.dispatch, bolt_req)
        if bolt_resp.status >= 400:  # bolt's own refusals ({"error": "unhandled request"}, an empty 500): kb's shape
            return _error(bolt_resp.status, "no listener of kb's takes this request" if bolt_resp.status == 404
                          else f"Slack request refused: {str(bolt_resp.body)[:200]}")
        return to_starlette_response(bolt_resp)


def slack_router(handler: SlackRequestHandler) -> APIRouter:
    """One route, POST /slack/events, for slash commands, events and interactivity."""
    router = APIRouter(tags=["slack"])

    @router.post("/slack/events", summary="Slack's signed requests",
                 responses={401: {"description": "missing, wrong or stale (over 5 minutes) Slack signature"},
                            400: {"description": "a signed body that is not what Slack sends"}})
    async def slack_events(request: Request) -> Response:
        """Slash commands, events and button clicks from Slack: verified, acknowledged at once, answered after."""
        return await handler.handle(request)

    return router
