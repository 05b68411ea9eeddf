"""KB_TRUSTED_PROXIES against a real `kb serve`: peers on loopback addresses other than 127.0.0.1 (Linux routes
all of 127.0.0.0/8 to lo), one a trusted proxy forwarding two clients, one a client that forges the header."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from kb.settings import Settings
from tests.support.served import Served

PROXY, SPOOFER = "127.0.0.2", "127.0.0.3"
LIMIT = 3


def peer(url: str, address: str) -> httpx.Client:
    """An HTTP client whose connections come from `address` (a real source address on lo)."""
    return httpx.Client(base_url=url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


@pytest.fixture(scope="module")
def server(settings: Settings) -> Iterator[Served]:
    kb = Served({"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
                 "KB_TRUSTED_PROXIES": f"{PROXY}/32", "KB_RATE_LIMIT_PER_MINUTE": str(LIMIT)})
    try:
        yield kb.wait_ready()
    finally:
        assert kb.stop() == 0


def statuses(client: httpx.Client, n: int, forwarded: list[str]) -> list[int]:
    return [client.get("/v1/gpus", headers={"X-Forwarded-For": forwarded[i % len(forwarded)]}).status_code
            for i in range(n)]


def access_clients(server: Served, expected: int) -> list[str]:
    """The access log's `client` of each /v1/gpus request (a line is written just after its response is sent)."""
    deadline = time.monotonic() + 10
    while True:
        lines = [json.loads(line) for line in server.output().splitlines() if line.startswith("{")]
        seen = [r["client"] for r in lines if r.get("logger") == "kb.access" and r.get("path") == "/v1/gpus"]
        if len(seen) >= expected or time.monotonic() > deadline:
            return seen
        time.sleep(0.05)


@pytest.mark.slow
def test_two_clients_behind_a_trusted_proxy_get_separate_buckets_and_a_spoofer_does_not(server: Served) -> None:
    with peer(server.url, PROXY) as proxy, peer(server.url, SPOOFER) as spoofer:
        a = statuses(proxy, LIMIT + 1, ["203.0.113.7"])
        b = statuses(proxy, 2, ["198.51.100.9"])
        # A client can prepend what it likes; the proxy appends the address it saw, and that is the one believed.
        c = statuses(proxy, 1, ["203.0.113.7, 192.0.2.50"])
        forged = statuses(spoofer, LIMIT + 2, [f"192.0.2.{i}" for i in range(1, 9)])
    assert a == [200] * LIMIT + [429]
    assert b == [200, 200]
    assert c == [200]
    assert forged == [200] * LIMIT + [429, 429]  # its X-Forwarded-For is ignored: one bucket, its own address
    seen = access_clients(server, 2 * LIMIT + 6)
    assert seen.count("203.0.113.7") == LIMIT + 1 and seen.count("198.51.100.9") == 2, seen
    assert seen.count("192.0.2.50") == 1 and seen.count(SPOOFER) == LIMIT + 2, seen
    assert PROXY not in seen and not any(c.startswith("192.0.2.") and c != "192.0.2.50" for c in seen), seen
