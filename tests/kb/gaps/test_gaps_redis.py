"""kb gaps in Redis (KB_REDIS_URL): the same recording and grouping as the SQLite log, against a real redis-server
started here; retention by trimming and by the key's own expiry; no user id; a down Redis loses records quietly
and makes reading an error that says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from kb.gaps.entries import GapsUnavailable, read_summary, record_quietly
from kb.gaps.factory import gap_log
from kb.gaps.redis_store import KEY, RedisGapLog
from kb.gaps.sqlite_store import GapLog
from kb.settings import Settings
from tests.support.servers import RedisServer, free_port

DAY = 86400


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with RedisServer(tmp_path_factory.mktemp("gaps-redis")) as r:
        yield r


@pytest.fixture
def client(server: RedisServer) -> Iterator[redis.Redis]:
    c = redis.Redis.from_url(server.url)
    c.flushdb()
    yield c
    c.close()


def test_an_unknown_name_is_shown_after_it_was_asked_and_forgotten_after_retention(client: redis.Redis) -> None:
    log = RedisGapLog(client, retention_days=30)
    now = time.time()
    assert log.record("RX 7900 XTX 能跑 Llama-2-13B 推理吗？", "partial", ["RX 7900 XTX"], now=now - 29 * DAY)
    log.record("RX 7900 XTX 多少钱？", "answered", ["RX 7900 XTX"], now=now)
    names = log.summary(now=now)["unknown_names"]
    assert names == [{"name": "RX 7900 XTX", "asked": 2}]
    assert log.summary(now=now + 2 * DAY)["unknown_names"] == [{"name": "RX 7900 XTX", "asked": 1}]  # 31 days old
    assert log.summary(now=now + 31 * DAY)["unknown_names"] == []  # both forgotten, and deleted from Redis
    assert client.zcard(KEY) == 0 and log.summary(now=now)["unknown_names"] == []


def test_grouping_is_the_sqlite_logs(client: redis.Redis, tmp_path: Path) -> None:
    """The same calls on both stores give the same summary, kind by kind."""
    stores = [RedisGapLog(client), GapLog(tmp_path / "g.sqlite")]
    for log in stores:
        assert not log.record("RTX 4090 显存多少？", "answered", [])
        log.record("量子计算机用什么GPU？", "not_covered", [])
        log.record("量子计算机用什么GPU？", "not_covered", [])  # the same question twice: counted twice
        log.record("H200 和 MI400 比哪个好？", "partial", ["MI400"], about=["gpu:h200", "topic:comparison"])
        log.thumbs_down("4090 能训练 70B 吗？", about=["gpu:rtx-4090", "topic:full"])
    redis_summary, sqlite_summary = (log.summary() for log in stores)
    assert redis_summary == sqlite_summary
    assert {(n["of"], n["name"], n["asked"]) for n in redis_summary["by_name"]} == {
        ("gpu", "h200", 1), ("gpu", "rtx-4090", 1), ("name", "MI400", 1)}
    assert redis_summary["not_covered"] == [{"question": "量子计算机用什么GPU？", "asked": 2}]
    assert redis_summary["partial"] == [{"question": "H200 和 MI400 比哪个好？", "asked": 1}]
    assert redis_summary["unknown_names"] == [{"name": "MI400", "asked": 1}]
    assert redis_summary["wrong"] == [{"question": "4090 能训练 70B 吗？", "asked": 1}]
    assert redis_summary["since_days"] == 30
    assert stores[0].summary(since_s=0)["not_covered"] == []


def test_the_key_expires_on_its_own_one_retention_after_the_newest_record(client: redis.Redis) -> None:
    """Retention without any later write or read: Redis drops the key itself (Redis's clock, no `now`)."""
    log = RedisGapLog(client, retention_days=1.5 / DAY)  # 1.5 s
    log.record("B300 多少显存？", "partial", ["B300"])
    ttl_ms = client.pttl(KEY)
    assert 0 < ttl_ms <= 1500 + 5  # Redis's TIME in microseconds, the expiry in milliseconds: one may round up
    assert log.summary()["unknown_names"] == [{"name": "B300", "asked": 1}]
    deadline = time.monotonic() + 10
    while client.exists(KEY) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not client.exists(KEY)  # nothing read or written since: gone by its TTL
    assert log.summary()["unknown_names"] == []


def test_a_new_record_moves_the_expiry_to_one_retention_after_it(client: redis.Redis) -> None:
    log = RedisGapLog(client, retention_days=30)
    now = time.time()
    log.record("MI400 呢？", "partial", ["MI400"], now=now - 10 * DAY)
    first = client.pexpiretime(KEY)
    assert first == pytest.approx((now + 20 * DAY) * 1000, abs=5)
    log.record("MI400 呢？", "partial", ["MI400"], now=now - 40 * DAY)  # older than the rest: the expiry stays
    assert client.pexpiretime(KEY) == first
    log.record("MI400 呢？", "partial", ["MI400"], now=now)
    assert client.pexpiretime(KEY) == pytest.approx((now + 30 * DAY) * 1000, abs=5)


def test_only_the_question_is_kept_and_the_log_is_bounded(client: redis.Redis) -> None:
    log = RedisGapLog(client, max_entries=3)
    now = time.time()
    for i in range(5):
        log.record(f"问题 {i}", "not_covered", [], now=now + i)
    members = [json.loads(m) for m in client.zrange(KEY, 0, -1)]
    assert [m[1] for m in members] == ["问题 2", "问题 3", "问题 4"]  # the newest three, oldest dropped first
    assert all(len(m) == 4 and m[2:] == ["not_covered", []] for m in members)  # nonce, question, kind, names
    assert len({m[0] for m in members}) == 3


def test_settings_with_a_redis_url_choose_redis(server: RedisServer, client: redis.Redis, tmp_path: Path) -> None:
    s = Settings(redis_url=server.url, sources_dir=tmp_path / "sources", gaps_retention_days=7)
    log = gap_log(s)
    assert isinstance(log, RedisGapLog) and log.retention_s == 7 * DAY
    record_quietly(log, "Gaudi 4 能训练吗？", "not_covered", [])
    assert client.zcard(KEY) == 1 and not (tmp_path / "sources").exists()  # nothing written locally
    assert isinstance(gap_log(Settings(sources_dir=tmp_path / "sources")), GapLog)


def test_with_redis_down_records_are_lost_quietly_and_reading_says_why() -> None:
    log = RedisGapLog.from_url(f"redis://127.0.0.1:{free_port()}/0")
    started = time.monotonic()
    record_quietly(log, "B300 多少显存？", "partial", ["B300"])  # no exception: the answer goes out
    assert time.monotonic() - started < 5
    with pytest.raises(GapsUnavailable, match=r"gap log cannot be read.*KB_REDIS_URL"):
        read_summary(log)


def test_kb_gaps_reads_redis(server: RedisServer, client: redis.Redis, tmp_path: Path) -> None:
    """`kb ask`'s and the replicas' records, read by `kb gaps` on any machine that has KB_REDIS_URL."""
    RedisGapLog(client).record("B300 多少显存？", "partial", ["B300"])
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    env |= {"KB_REDIS_URL": server.url, "KB_SOURCES_DIR": str(tmp_path / "sources")}
    done = subprocess.run([sys.executable, "-m", "kb.cli", "gaps", "--json"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["unknown_names"] == [{"name": "B300", "asked": 1}]
    env["KB_REDIS_URL"] = f"redis://127.0.0.1:{free_port()}/0"
    down = subprocess.run([sys.executable, "-m", "kb.cli", "gaps"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert down.returncode == 1 and down.stderr.count("\n") == 1 and "gap log cannot be read" in down.stderr
