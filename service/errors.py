"""Every error the API returns has one JSON shape: {"error": {"code", "field", "message", "request_id"}}."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from kb.errors import BadInput, IndexUnavailable, KbError
from kb.gaps.entries import GapsUnavailable
from kb.understand.state import field_of
from service.context import request_id
from service.schemas import ErrorBody, ErrorDetail
from service.state import NotReady

CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
         408: "timeout", 413: "too_large", 415: "unsupported_media_type", 422: "bad_input", 429: "rate_limited",
         500: "internal", 503: "not_ready"}
RETRY_WHILE_LOADING_S = 5
_LOCATIONS = {"body", "query", "path", "header", "cookie"}


def error_response(status: int, message: str, field: str | None = None, code: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The one error shape, tagged with the request id so a log line can be found from a report."""
    detail = ErrorDetail(code=code or CODES.get(status, "error"), field=field, message=message,
                         request_id=request_id.get())
    return JSONResponse(ErrorBody(error=detail).model_dump(), status_code=status, headers=headers)


def field_name(loc: Sequence[Any]) -> str:
    """("body", "top_k") -> "top_k"; ("body", "history", 2, "question") -> "history[2].question"; ("body", 17) (a
    JSON syntax error's offset) -> "body"."""
    parts = list(loc[1:]) if loc and loc[0] in _LOCATIONS else list(loc)
    while parts and isinstance(parts[0], int):
        parts.pop(0)
    return field_of(tuple(parts)) or "body"


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors: list[dict[str, Any]] = list(exc.errors()) or [{"loc": ("body",), "msg": "invalid", "type": "value_error"}]
    first = errors[0]
    field = field_name(first["loc"])
    if first["type"] == "json_invalid":
        reason = (first.get("ctx") or {}).get("error", "")
        return error_response(400, f"the body is not valid JSON ({reason}); send a JSON object", "body", "bad_json")
    if tuple(first["loc"]) == ("body",) and first["type"] != "missing" and \
            not _is_json(request.headers.get("content-type", "")):
        return error_response(415, "send the body as JSON with Content-Type: application/json", "body")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return error_response(422, f"{field}: {str(first['msg']).removeprefix('Value error, ')}{more}", field)


async def _bad_input(_: Request, exc: BadInput) -> JSONResponse:
    return error_response(422, str(exc), exc.field)


async def _unavailable(_: Request, exc: Exception) -> JSONResponse:
    return error_response(503, str(exc), headers={"Retry-After": str(RETRY_WHILE_LOADING_S)})


async def _kb_error(_: Request, exc: KbError) -> JSONResponse:
    return error_response(500, str(exc))


async def _http(request: Request, exc: HTTPException) -> JSONResponse:
    if exc.status_code == 400:  # FastAPI's only own 400: a body it could not decode (not UTF-8, a broken form)
        if request.headers.get("content-type", "").lower().startswith("multipart/"):
            return error_response(400, "the body could not be read as multipart/form-data: send the document as "
                                       "the form field `file` (curl -F file=@prices.csv)", "body", "bad_multipart")
        return error_response(400, "the body could not be read: send a UTF-8 JSON object", "body", "bad_json")
    message = exc.detail if isinstance(exc.detail, str) else CODES.get(exc.status_code, "error")
    field = "authorization" if exc.status_code in (401, 403) else None  # the key sent, or the one missing
    return error_response(exc.status_code, message, field, headers=dict(exc.headers or {}))


def install(app: FastAPI) -> None:
    """Register the handlers; exceptions nobody expected are turned into a 500 by the request middleware."""
    app.add_exception_handler(RequestValidationError, _validation)  # type: ignore[arg-type]
    app.add_exception_handler(BadInput, _bad_input)  # type: ignore[arg-type]
    app.add_exception_handler(NotReady, _unavailable)
    app.add_exception_handler(IndexUnavailable, _unavailable)
    app.add_exception_handler(GapsUnavailable, _unavailable)
    app.add_exception_handler(KbError, _kb_error)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http)  # type: ignore[arg-type]


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for these error statuses, all with the ErrorBody shape."""
    descriptions = {400: "Malformed JSON", 401: "Missing or wrong API key (only when KB_API_KEYS is set)",
                    404: "No such item", 413: "Body over KB_MAX_BODY_BYTES", 415: "Body is not JSON",
                    422: "A field is wrong; `error.field` names it", 429: "Rate limited; see Retry-After",
                    503: "The index is still loading"}
    return {s: {"model": ErrorBody, "description": descriptions.get(s, CODES.get(s, "error"))} for s in statuses}


# Every /v1 route can answer these besides its own.
GUARD_ERRORS = (401, 429)
BODY_ERRORS = (400, 413, 415, 422)
