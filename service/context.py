"""The current request's id, readable anywhere in its handling (log lines, error bodies)."""

import contextvars

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
