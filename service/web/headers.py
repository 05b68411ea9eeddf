"""Security headers on every response: a strict Content-Security-Policy (scripts only from kb itself, never
inline), no MIME sniffing, no referrer, and no framing. Pure ASGI, so 401/429 answers carry them too."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Swagger UI's React sets element styles through the CSSOM (allowed); it draws its icons as data: URIs.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # for browsers older than CSP's frame-ancestors
]


class SecurityHeaders:
    """Adds HEADERS to each HTTP response that does not already set them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                message["headers"] = [*message.get("headers", ()), *(h for h in HEADERS if h[0] not in present)]
            await send(message)

        await self.app(scope, receive, send_with_headers)
