"""Two replicas (two apps) sharing one real redis-server: a shortfall asked on one is in GET /v1/gaps on the other;
with Redis down the answer still goes out (the record is lost, counted) and reading the gaps is a 503."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.engine import Engine
from kb.gaps.factory import gap_log
from kb.settings import Settings
from service.app import create_app
from tests.support.servers import RedisServer

ADMIN = {"Authorization": "Bearer gaps-admin-key-0123"}
QUESTION = "RX 7900 XTX 能跑 Llama-2-13B 推理吗？"


@pytest.fixture(scope="module")
def replicas(settings: Settings, engine: Engine, tmp_path_factory: pytest.TempPathFactory,
             ) -> Iterator[tuple[TestClient, TestClient, RedisServer, Path]]:
    folder = tmp_path_factory.mktemp("gaps-replicas")
    with RedisServer(folder / "redis") as server:
        shared = settings.model_copy(update={"redis_url": server.url, "admin_keys": [SecretStr("gaps-admin-key-0123")],
                                             "sources_dir": folder / "sources", "rate_limit_per_minute": 0})
        with TestClient(create_app(shared, engine)) as a, TestClient(create_app(shared, engine)) as b:
            yield a, b, server, folder / "sources"


def test_a_shortfall_asked_on_one_replica_is_listed_by_the_other(
        replicas: tuple[TestClient, TestClient, RedisServer, Path]) -> None:
    a, b, server, sources = replicas
    for _ in range(2):  # the second is answered from the cache, and still counted
        answer = a.post("/v1/ask", json={"question": QUESTION})
        assert answer.status_code == 200 and answer.json()["unknown"]
    gaps = b.get("/v1/gaps", headers=ADMIN)
    assert gaps.status_code == 200, gaps.text
    names = gaps.json()["unknown_names"]
    assert any("7900" in n["name"] and n["asked"] == 2 for n in names), names
    assert not (sources / "gaps.sqlite").exists()  # Redis, not a file on one replica
    cli_view = gap_log(Settings(redis_url=server.url)).summary()  # what `kb gaps` with KB_REDIS_URL reads
    assert cli_view["unknown_names"] == names


def test_with_redis_down_answers_go_out_and_reading_the_gaps_is_a_503(
        replicas: tuple[TestClient, TestClient, RedisServer, Path]) -> None:
    a, b, server, _sources = replicas
    server.stop()
    try:
        answer = a.post("/v1/ask", json={"question": QUESTION})  # a shortfall: its record is lost
        assert answer.status_code == 200
        assert 'kb_redis_failures_total{op="gaps"}' in a.get("/metrics").text
        down = b.get("/v1/gaps", headers=ADMIN)
        assert down.status_code == 503 and "gap log cannot be read" in down.json()["error"]["message"]
        assert down.headers["retry-after"]
    finally:
        server.start()
    assert b.get("/v1/gaps", headers=ADMIN).status_code == 200  # back without a restart (nothing kept: --save '')
