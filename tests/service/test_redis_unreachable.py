"""KB_REDIS_URL set, nothing listening: kb serves anyway, says so in /readyz, and fails open as documented."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from kb.engine import Engine
from kb.settings import Settings
from service.app import create_app
from service.shared import Shared
from tests.support.servers import free_port


@pytest.fixture(scope="module")
def unreachable(settings: Settings, engine: Engine) -> Iterator[TestClient]:
    nowhere = settings.model_copy(update={"redis_url": f"redis://:pw@127.0.0.1:{free_port()}/0",
                                          "rate_limit_per_minute": 2})
    with TestClient(create_app(nowhere, engine)) as c:
        yield c


def test_answers_flow_and_the_rate_limit_is_open(unreachable: TestClient) -> None:
    statuses = [unreachable.get("/v1/gpus").status_code for _ in range(5)]
    assert statuses == [200] * 5  # over the limit of 2: open, because Redis cannot count (6 with the ask)
    assert unreachable.post("/v1/ask", json={"question": "什么是 ZeRO-3？", "top_k": 1}).status_code == 200
    metrics = unreachable.get("/metrics").text
    assert 'kb_ratelimit_fail_open_total{limiter="http"} 6.0' in metrics
    assert 'kb_redis_failures_total{op="ratelimit"}' in metrics


def test_readyz_stays_ready_and_says_redis_is_down_without_the_password(unreachable: TestClient) -> None:
    r = unreachable.get("/readyz")
    (line,) = [d for d in r.json()["detail"] if d.startswith("redis:")]
    assert r.status_code == 200 and line.startswith("redis: down (redis://***@127.0.0.1:")
    assert "pw" not in line and "Slack events are dropped" in line


def test_after_a_failure_redis_is_not_asked_again_for_a_second() -> None:
    shared = Shared(f"redis://127.0.0.1:{free_port()}/0")
    calls: list[float] = []

    def count(_: object) -> bool:
        calls.append(time.monotonic())
        raise AssertionError("the breaker should have skipped this call")

    assert shared.call("dedupe", lambda r: bool(r.ping()), False) is False  # refused: opens the breaker
    assert shared.call("dedupe", count, False) is False and calls == []
    assert shared.down
