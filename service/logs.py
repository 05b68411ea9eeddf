"""Log lines as JSON, one a line, each with the request id it belongs to (never a header or a body)."""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

from service.context import request_id


class JsonFormatter(logging.Formatter):
    """{"ts", "level", "logger", "msg", "request_id", ...the record's `fields`}."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid:
            line["request_id"] = rid
        line.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def logging_config(level: str = "INFO") -> dict[str, Any]:
    """A dictConfig for kb's and uvicorn's loggers: JSON to stderr (uvicorn's own access log is off)."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": handler},
        "loggers": {
            **{name: {"handlers": ["stderr"], "level": level, "propagate": False}
               for name in ("kb", "uvicorn", "uvicorn.error", "service")},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},  # kb.access replaces it
        },
    }


def configure_logging(level: str = "INFO") -> None:
    logging.config.dictConfig(logging_config(level))
