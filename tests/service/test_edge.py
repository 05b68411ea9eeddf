"""The edge probes: kb behind haproxy (deploy/haproxy/haproxy.cfg, as deployed) with a 2 s request deadline,
and kb's own limits when it is reached directly. Real sockets on loopback, measured from the client side."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from kb.settings import Settings
from tests.support.edge import Edge, EdgeSettings
from tests.support.served import Served

DEADLINE_S = 2.0
MB = 1 << 20


@dataclass
class Front:
    kb: Served
    edge: Edge


@pytest.fixture(scope="module")
def front(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    kb = Served({"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
                 "KB_RATE_LIMIT_PER_MINUTE": "0", "KB_BODY_TIMEOUT_SECONDS": str(DEADLINE_S)})
    try:
        kb.wait_ready()
        with Edge([f"127.0.0.1:{kb.port}"], tmp_path_factory.mktemp("edge"),
                  EdgeSettings(request_timeout_s=DEADLINE_S)) as edge:
            deadline = time.monotonic() + 20  # haproxy's first /readyz check marks the replica up
            while httpx.get(f"{edge.url}/readyz", timeout=5).status_code != 200:
                assert time.monotonic() < deadline, "haproxy never saw kb ready"
                time.sleep(0.1)
            yield Front(kb, edge)
    finally:
        kb.stop()


def exchange(port: int, data: bytes, wait: float = 10.0) -> tuple[bytes, float, bool]:
    """Send data, then read until the server closes: (what came back, seconds until closed, closed?)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        started = time.monotonic()
        s.sendall(data)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except TimeoutError:
            return got, time.monotonic() - started, False
        except ConnectionResetError:
            pass
        return got, time.monotonic() - started, True


def error_of(response: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = response.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), response[:400]
    return int(head.split()[1]), json.loads(body)["error"]


def test_a_body_that_never_arrives_is_cut_at_the_deadline(front: Front) -> None:
    for port in (front.edge.port, front.kb.port):  # the edge, and kb on its own
        got, seconds, closed = exchange(port, b"POST /v1/ask HTTP/1.1\r\nHost: kb\r\nContent-Type: application/json"
                                              b"\r\nContent-Length: 100\r\n\r\n{\"question\"")
        status, error = error_of(got)
        assert (status, error["code"], error["field"]) == (408, "timeout", "body") and error["request_id"]
        assert closed and DEADLINE_S - 0.2 < seconds < DEADLINE_S + 2.5, seconds


def test_headers_that_never_finish_are_cut_at_the_deadline(front: Front) -> None:
    got, seconds, closed = exchange(front.edge.port, b"GET /healthz HTTP/1.1\r\nHost: kb\r\nX-Slow: ")
    # haproxy 2.6 answers errors before a request exists with its own HTML (the README says so)
    assert got.startswith(b"HTTP/1.1 408") and closed and DEADLINE_S - 0.2 < seconds < DEADLINE_S + 2.5


def declare_10gb(port: int) -> tuple[bytes, int]:
    """Declare a 10 GB body and keep sending it until refused: (the response, bytes the socket accepted).

    A small send buffer, so what the socket accepted bounds what the server read (plus its receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 32 * 1024)
    s.connect(("127.0.0.1", port))
    s.sendall(b"POST /v1/ask HTTP/1.1\r\nHost: kb\r\nContent-Type: application/json\r\n"
              b"Content-Length: 10000000000\r\n\r\n")
    s.setblocking(False)
    sent, got, chunk, deadline = 0, b"", b"x" * 16384, time.monotonic() + 10
    try:
        while time.monotonic() < deadline and sent < 8 * MB:
            readable, writable, _ = select.select([s], [s], [], 0.5)
            if readable:
                data = s.recv(65536)
                if not data:
                    break
                got += data
            elif writable:
                sent += s.send(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        s.close()
    return got, sent


def test_a_declared_10gb_body_is_refused_and_closed_after_at_most_1mb(front: Front) -> None:
    for port in (front.edge.port, front.kb.port):
        got, sent = declare_10gb(port)
        status, error = error_of(got)
        assert (status, error["code"], error["field"]) == (413, "too_large", "body")
        assert sent <= MB, f"{sent} bytes were taken before the connection closed"


def test_http_level_errors_use_the_error_shape(front: Front) -> None:
    got, _, _ = exchange(front.edge.port, b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n")  # no Host
    status, error = error_of(got)
    assert status == 400 and error["code"] == "bad_request" and error["request_id"]
    r = httpx.get(f"{front.edge.url}/v1/nowhere", headers={"X-Request-ID": "probe-7"})
    assert r.status_code == 404 and r.json()["error"]["request_id"] == "probe-7"  # kb's, through the edge


def test_the_edge_gives_kb_its_request_id(front: Front) -> None:
    r = httpx.get(f"{front.edge.url}/healthz")
    assert len(r.headers["x-request-id"]) > 20  # haproxy's unique id, which kb logged too


async def _slowloris(port: int, sockets: int, until: float, cut: list[int]) -> None:
    """`sockets` connections that each send a header line a second and never finish; reopened when cut."""
    async def one() -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(0.1)
                continue
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: kb\r\n")
            while time.monotonic() < until:
                try:
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
                    if await asyncio.wait_for(reader.read(1024), timeout=1.0) == b"":
                        break
                    cut[0] += 1  # an answer (the 408) before the close
                    break
                except TimeoutError:
                    continue
                except OSError:
                    break
            writer.close()

    await asyncio.gather(*(one() for _ in range(sockets)))


@pytest.mark.slow
def test_100_slowloris_sockets_for_30_s_do_not_delay_50_requests(front: Front) -> None:
    cut = [0]
    until = time.monotonic() + 30
    attack = threading.Thread(target=asyncio.run, args=(_slowloris(front.edge.port, 100, until, cut),))
    attack.start()
    try:
        time.sleep(1.0)  # every slowloris socket is open before the first request
        took: list[float] = []
        statuses: list[int] = []
        with httpx.Client(base_url=front.edge.url, timeout=10) as client:
            for i in range(50):
                started = time.monotonic()
                r = client.post("/v1/ask", json={"question": f"RTX 4090 的显存带宽是多少？ #{i % 5}"})
                took.append(time.monotonic() - started)
                statuses.append(r.status_code)
                time.sleep(max(0.0, 0.55 - took[-1]))
    finally:
        attack.join()
    assert statuses == [200] * 50
    assert max(took) < 1.0, sorted(took)[-5:]
    assert cut[0] >= 100 * int(30 / (DEADLINE_S + 1)) // 2  # the deadline cut the slow sockets again and again


def _open(s: socket.socket) -> bool:
    """Whether haproxy keeps a connection open (one refused at accept reads as closed or reset at once)."""
    s.setblocking(False)
    try:
        return s.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True  # nothing to read, not closed: held open, as a started request is
    except OSError:
        return False
    finally:
        s.setblocking(True)


def _hold(port: int, n: int, seconds: float = 10.0) -> list[socket.socket]:
    """`n` connections haproxy holds open (counted against the cap). The edge's own readiness probe may still be
    counted for a moment after it closed, so a connection refused while it was is opened again."""
    held: list[socket.socket] = []
    deadline = time.monotonic() + seconds
    while len(held) < n:
        assert time.monotonic() < deadline, f"haproxy held {len(held)} of {n} connections"
        s = socket.create_connection(("127.0.0.1", port))
        try:
            s.sendall(b"GET /healthz")  # a started request line: haproxy has accepted (and counted) it
        except OSError:
            s.close()
            continue
        time.sleep(0.3)
        if _open(s):
            held.append(s)
        else:
            s.close()
    return held


def test_connections_over_the_per_address_cap_are_closed_unanswered(front: Front, tmp_path: Any) -> None:
    with Edge([f"127.0.0.1:{front.kb.port}"], tmp_path, EdgeSettings(maxconn_per_ip=3)) as edge:
        held = _hold(edge.port, 3)
        try:
            assert all(_open(s) for s in held)
            try:
                got, _, closed = exchange(edge.port, b"GET /healthz HTTP/1.1\r\nHost: kb\r\n\r\n", wait=5)
            except (ConnectionResetError, BrokenPipeError):
                got, closed = b"", True
            assert closed and got == b""  # refused at accept: no HTTP at all
        finally:
            for s in held:
                s.close()
        deadline = time.monotonic() + 10  # the cap frees as haproxy sees them close
        while True:
            try:
                assert httpx.get(f"{edge.url}/healthz", timeout=5).status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the per-address cap never freed"
                time.sleep(0.1)
