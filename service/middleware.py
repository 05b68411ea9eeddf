"""The request pipeline around every route (pure ASGI, cheap): request id, API keys, rate limit, body size
limit, metrics, one JSON access-log line, a JSON 500 for anything unexpected, and a JSON 503 for a request still
running when a shutdown's grace period ends (uvicorn cancels it: KB_SHUTDOWN_GRACE_SECONDS)."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.context import request_id
from service.errors import error_response
from service.metrics import Metrics
from service.ratelimit import Limiter
from service.security import ApiKeys, bearer_token, key_fingerprint

access_log = logging.getLogger("kb.access")
log = logging.getLogger("kb.service")
_SAFE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")  # a caller's X-Request-ID is kept only if it is this tame
GUARDED = "/v1/"
# Slack's interactive payloads carry the whole message they came from (blocks and all), far over the API's
# limit; bolt verifies their signature after the body is read, so they get a cap of their own.
SLACK_PREFIX, SLACK_MAX_BODY_BYTES = "/slack/", 1 << 20
# POST /v1/documents carries a whole document (up to KB_MAX_DOCUMENT_MB): its own cap, never the API's.
UPLOAD = ("POST", "/v1/documents")
CLOSE = {"Connection": "close"}  # uvicorn closes the connection after a response that says so


@dataclass
class _Sent:
    status: int = 500
    bytes: int = 0
    started: bool = False


class RequestMiddleware:
    """Outermost of kb's layers (CORS, when configured, wraps it)."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics, keys: ApiKeys, limiter: Limiter,
                 max_body_bytes: int, routes: list[BaseRoute], body_timeout: float = 10.0,
                 upload_max_bytes: int = 0) -> None:
        self.app, self.metrics, self.keys, self.limiter = app, metrics, keys, limiter
        self.upload_max_bytes = max(upload_max_bytes, max_body_bytes)
        self.max_body_bytes, self.routes, self.body_timeout = max_body_bytes, routes, body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        given = headers.get("x-request-id", "")
        rid = given if _SAFE_ID.fullmatch(given) else uuid.uuid4().hex
        token = request_id.set(rid)
        started, sent = time.perf_counter(), _Sent()

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent.status, sent.started = message["status"], True
                message["headers"] = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
            elif message["type"] == "http.response.body":
                sent.bytes += len(message.get("body", b""))
            await send(message)

        self.metrics.in_flight.inc()
        try:
            rejection = await self._guard(scope, headers)
            if rejection is not None:
                await rejection(scope, receive, send_with_id)
                return
            limit = max(self.max_body_bytes, SLACK_MAX_BODY_BYTES) if scope["path"].startswith(SLACK_PREFIX) \
                else self.upload_max_bytes if (scope["method"], scope["path"].rstrip("/")) == UPLOAD \
                else self.max_body_bytes
            try:
                async with asyncio.timeout(self.body_timeout):
                    body = await self._read_body(receive, headers, limit)
            except TimeoutError:  # the rest of the body never came: free the connection, as the edge would
                await error_response(408, f"the body did not arrive within {self.body_timeout:g} s", "body",
                                     headers=CLOSE)(scope, receive, send_with_id)
                return
            if body is None:  # closing the connection, so that what is left of the body is never read
                await error_response(413, f"the body is over {limit} bytes", "body", headers=CLOSE)(
                    scope, receive, send_with_id)
            elif isinstance(body, bytes):
                await self.app(scope, _replay(body, receive), send_with_id)
            else:
                sent.status = 499  # the client went away before its body arrived
        except asyncio.CancelledError:  # the server is stopping and this request outlived the grace period
            if sent.started:
                raise
            # Answered, and the cancellation taken as done: re-raised, uvicorn would log it as a crash.
            log.warning("shutting down: %s %s answered 503, unfinished", scope["method"], scope["path"])
            await error_response(503, "kb is shutting down and could not finish this request in time; retry it "
                                      "(another replica, or this one once restarted)", code="shutting_down",
                                 headers={"Retry-After": "1", **CLOSE})(scope, receive, send_with_id)
        except Exception:
            log.exception("unhandled error on %s %s", scope["method"], scope["path"])
            if not sent.started:
                await error_response(500, "internal error; quote the request id if you report it")(
                    scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - started
            route = self._route(scope)
            self.metrics.observe(scope["method"], route, sent.status, seconds)
            self.metrics.in_flight.dec()
            client = scope.get("client")
            access_log.info("%s %s %d", scope["method"], scope["path"], sent.status, extra={"fields": {
                "method": scope["method"], "path": scope["path"], "route": route, "status": sent.status,
                "duration_ms": round(seconds * 1000, 2), "bytes": sent.bytes, "client": client[0] if client else None,
            }})
            request_id.reset(token)

    async def _guard(self, scope: Scope, headers: Headers) -> Response | None:
        """401 or 429 for /v1/* before any body is read; rate limiting comes first, so guessing keys is limited too."""
        if not scope["path"].startswith(GUARDED) or scope["method"] == "OPTIONS":
            return None
        token = bearer_token(headers.get("authorization"))
        authorized = not self.keys.enabled or self.keys.accepts(token)
        client = scope.get("client")
        who = key_fingerprint(token) if self.keys.enabled and authorized and token else \
            f"ip:{client[0] if client else 'unknown'}"
        wait = await self.limiter.acquire(who)
        if wait is not None:
            return error_response(429, f"over {int(self.limiter.capacity)} requests a minute; retry in {wait} s",
                                  headers={"Retry-After": str(wait)})
        if not authorized:
            return error_response(401, "a valid API key is needed: send Authorization: Bearer <key>",
                                  "authorization", headers={"WWW-Authenticate": 'Bearer realm="kb"'})
        return None

    @staticmethod
    async def _read_body(receive: Receive, headers: Headers, limit: int) -> bytes | bool | None:
        """The whole body (it is small by design), None if it is over the limit, False if the client left."""
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            return None
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return False
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _route(self, scope: Scope) -> str:
        """The route template (bounded label values), also for requests rejected before routing.

        `routes` are the routers' own routes (FastAPI keeps included routers as opaque wrappers)."""
        route = scope.get("route")
        if route is not None and hasattr(route, "path"):
            return str(route.path)
        for candidate in self.routes:
            if candidate.matches(scope)[0] != Match.NONE and hasattr(candidate, "path"):
                return str(candidate.path)
        return "unmatched"


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands the app the body already read, then defers to the real one (disconnects)."""
    delivered = False

    async def replayed() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
