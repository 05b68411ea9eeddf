"""Optional API keys: when KB_API_KEYS is set, /v1/* needs `Authorization: Bearer <key>`."""

from __future__ import annotations

import hashlib
import hmac

from pydantic import SecretStr


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, else None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


class ApiKeys:
    """The accepted keys; comparison takes the same time whichever key (if any) matches."""

    def __init__(self, keys: list[SecretStr]) -> None:
        self._keys = [k.get_secret_value().encode() for k in keys if k.get_secret_value()]

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def accepts(self, token: str | None) -> bool:
        if token is None:
            return False
        candidate = token.encode()
        matched = False
        for key in self._keys:  # no early exit: every key is compared, in constant time each
            matched |= hmac.compare_digest(candidate, key)
        return matched


def key_fingerprint(token: str) -> str:
    """A short, one-way name for a key: what the rate limiter buckets by, never the key itself."""
    return "key:" + hashlib.sha256(token.encode()).hexdigest()[:16]
