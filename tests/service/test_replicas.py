"""Two `kb serve` replicas on loopback sharing one real redis-server: Slack de-duplication, thread memory and
rate limits hold across them; a Redis outage degrades as documented and its return recovers without a restart."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kb.settings import Settings
from tests.support.fake_slack import BOT_USER, FakeSlack, event_body, signed_headers
from tests.support.served import Served, metric
from tests.support.servers import RedisServer

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
SLACK_PER_MINUTE = 3
HTTP_PER_MINUTE = 5
KEYS = ["key-limit", "key-outage", "key-other", "key-shared"]
_ts = itertools.count(1)


@dataclass
class Cluster:
    a: Served
    b: Served
    redis: RedisServer
    slack: FakeSlack

    def deliver(self, replica: Served, event: dict[str, Any], event_id: str, **headers: str) -> httpx.Response:
        body = event_body(event, event_id)
        sent = {**signed_headers(SECRET, body, "application/json"), **headers}
        return httpx.post(f"{replica.url}/slack/events", content=body.encode(), headers=sent, timeout=30)


def mention(text: str, user: str = "UASKER1", **extra: Any) -> dict[str, Any]:
    ts = f"1700001000.{next(_ts):06d}"
    return {"type": "app_mention", "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts, "channel": "C0GENERAL",
            "event_ts": ts, **extra}


@pytest.fixture(scope="module")
def cluster(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    folder = tmp_path_factory.mktemp("replicas")
    with RedisServer(folder / "redis") as redis, FakeSlack() as slack:
        env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
               "KB_REDIS_URL": redis.url, "KB_SLACK_BOT_TOKEN": "xoxb-test-token", "KB_SLACK_SIGNING_SECRET": SECRET,
               "KB_SLACK_API_URL": slack.api_url, "KB_SLACK_USER_PER_MINUTE": str(SLACK_PER_MINUTE),
               "KB_RATE_LIMIT_PER_MINUTE": str(HTTP_PER_MINUTE), "KB_API_KEYS": json.dumps(KEYS),
               "KB_FEEDBACK_PATH": str(folder / "feedback.jsonl")}
        a, b = Served(env), Served(env)
        try:
            a.wait_ready(), b.wait_ready()
            yield Cluster(a, b, redis, slack)
        finally:
            a.stop(), b.stop()


def answers_in(slack: FakeSlack, thread: str) -> list[Any]:
    return [c for c in slack.of("chat.postMessage") if c.body.get("thread_ts") == thread]


def settle(slack: FakeSlack, seconds: float = 1.5) -> None:
    """Answers are posted after the ack: wait until nothing new has arrived for `seconds`."""
    seen, quiet_since = len(slack.calls), time.monotonic()
    while time.monotonic() - quiet_since < seconds:
        time.sleep(0.1)
        if len(slack.calls) != seen:
            seen, quiet_since = len(slack.calls), time.monotonic()


def test_readyz_reports_redis(cluster: Cluster) -> None:
    for replica in (cluster.a, cluster.b):
        detail = httpx.get(f"{replica.url}/readyz", timeout=10).json()["detail"]
        assert f"redis: ok (redis://127.0.0.1:{cluster.redis.port}/0)" in detail


def test_a_retry_that_reaches_the_other_replica_posts_once(cluster: Cluster) -> None:
    event = mention("Can one RTX 4090 QLoRA-tune a 13B model?", user="URETRY")
    assert cluster.deliver(cluster.a, event, "EvR1").status_code == 200
    retry = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error"}
    assert cluster.deliver(cluster.b, event, "EvR1", **retry).status_code == 200
    cluster.slack.wait_for(lambda s: len(answers_in(s, event["ts"])) >= 1)
    settle(cluster.slack)
    assert len(answers_in(cluster.slack, event["ts"])) == 1


def test_20_concurrent_duplicates_split_across_replicas_post_once(cluster: Cluster) -> None:
    event = mention("两张A100 80GB能推理70B模型吗？", user="UCONCURRENT")
    replicas = [cluster.a, cluster.b] * 10
    with ThreadPoolExecutor(20) as pool:
        statuses = list(pool.map(lambda r: cluster.deliver(r, event, "EvR2").status_code, replicas))
    assert statuses == [200] * 20
    cluster.slack.wait_for(lambda s: len(answers_in(s, event["ts"])) >= 1)
    settle(cluster.slack)
    assert len(answers_in(cluster.slack, event["ts"])) == 1


def test_a_follow_up_in_a_thread_answered_by_a_is_answered_by_b(cluster: Cluster) -> None:
    first = mention("能用一张4090 QLoRA微调13B模型吗？", user="UTHREAD")
    cluster.deliver(cluster.a, first, "EvR3")
    cluster.slack.wait_for(lambda s: len(answers_in(s, first["ts"])) == 1)
    ts = f"1700001000.{next(_ts):06d}"
    follow_up = {"type": "message", "user": "UTHREAD", "text": "那两张4090呢？", "ts": ts, "channel": "C0GENERAL",
                 "event_ts": ts, "channel_type": "channel", "thread_ts": first["ts"]}
    assert cluster.deliver(cluster.b, follow_up, "EvR4").status_code == 200  # only B ever sees it
    cluster.slack.wait_for(lambda s: len(answers_in(s, first["ts"])) == 2)


def test_the_per_user_slack_limit_is_n_across_both(cluster: Cluster) -> None:
    user = "ULIMITED"
    events = [mention(f"RTX 4090 的显存带宽是多少？ #{i}", user=user) for i in range(2 * SLACK_PER_MINUTE)]
    for i, event in enumerate(events):
        cluster.deliver([cluster.a, cluster.b][i % 2], event, f"EvL{i}")
    threads = {e["ts"] for e in events}
    cluster.slack.wait_for(lambda s: len([c for c in s.posts() if c.body.get("thread_ts") in threads]) == len(events))
    settle(cluster.slack)
    posted = [c for c in cluster.slack.posts() if c.body.get("thread_ts") in threads]
    answers = [c for c in posted if c.method == "chat.postMessage"]
    limited = [c for c in posted if c.method == "chat.postEphemeral"]
    assert len(answers) == SLACK_PER_MINUTE and len(limited) == SLACK_PER_MINUTE


def test_the_per_client_http_limit_is_n_across_both(cluster: Cluster) -> None:
    headers = {"Authorization": f"Bearer {KEYS[0]}"}
    statuses = [httpx.get(f"{[cluster.a, cluster.b][i % 2].url}/v1/gpus", headers=headers, timeout=10)
                for i in range(2 * HTTP_PER_MINUTE)]
    assert [r.status_code for r in statuses] == [200] * HTTP_PER_MINUTE + [429] * HTTP_PER_MINUTE
    refused = statuses[-1]
    assert int(refused.headers["Retry-After"]) >= 1 and refused.json()["error"]["code"] == "rate_limited"


def test_a_redis_outage_degrades_as_documented_and_its_return_recovers(cluster: Cluster, tmp_path: Path) -> None:
    a, b, slack = cluster.a, cluster.b, cluster.slack
    headers = {"Authorization": f"Bearer {KEYS[1]}"}
    cluster.redis.stop()
    try:
        # Answers keep flowing, and the per-client limit is open (more than N get through), counted.
        statuses = [httpx.post(f"{[a, b][i % 2].url}/v1/ask", json={"question": "什么是 ZeRO-3？"},
                               headers=headers, timeout=30).status_code for i in range(2 * HTTP_PER_MINUTE)]
        assert statuses == [200] * (2 * HTTP_PER_MINUTE)
        assert metric(a.url, "kb_ratelimit_fail_open_total", limiter="http") >= 1
        ready = httpx.get(f"{a.url}/readyz", timeout=10)
        assert ready.status_code == 200 and any(d.startswith("redis: down") for d in ready.json()["detail"])
        # Slack fails safe: acknowledged, not answered (no replica can tell whether another took it).
        lost = mention("H100 相比 A100 训练快多少？", user="UOUTAGE")
        assert cluster.deliver(b, lost, "EvO1").status_code == 200
        settle(slack)
        assert answers_in(slack, lost["ts"]) == []
        assert metric(b.url, "kb_slack_events_dropped_total") >= 1
    finally:
        cluster.redis.start()  # the same port: kb reconnects on its own
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        details = [httpx.get(f"{r.url}/readyz", timeout=10).json()["detail"] for r in (a, b)]
        if all(any(d.startswith("redis: ok") for d in detail) for detail in details):
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"kb did not see Redis come back: {details}")
    time.sleep(1.1)  # past the breaker's pause, so the next calls go to Redis
    back = mention("多卡训练需要 NVLink 吗？", user="URECOVERED")
    cluster.deliver(a, back, "EvO2")
    cluster.deliver(b, back, "EvO2", **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error"})
    slack.wait_for(lambda s: len(answers_in(s, back["ts"])) >= 1)
    settle(slack)
    assert len(answers_in(slack, back["ts"])) == 1
    limit = {"Authorization": f"Bearer {KEYS[2]}"}
    statuses = [httpx.get(f"{[a, b][i % 2].url}/v1/gpus", headers=limit, timeout=10).status_code
                for i in range(HTTP_PER_MINUTE + 1)]
    assert statuses == [200] * HTTP_PER_MINUTE + [429]


def test_an_answer_computed_by_one_replica_is_a_lookup_for_the_other(cluster: Cluster) -> None:
    headers = {"Authorization": f"Bearer {KEYS[3]}"}
    question = {"question": "RTX 4060 Ti 16GB 适合做什么？ (shared cache)"}
    first = httpx.post(f"{cluster.a.url}/v1/ask", json=question, headers=headers, timeout=30)
    before = metric(cluster.b.url, "kb_cache_hits_total", cache="shared_answer")
    second = httpx.post(f"{cluster.b.url}/v1/ask", json=question, headers=headers, timeout=30)
    assert first.status_code == second.status_code == 200 and first.content == second.content
    assert metric(cluster.b.url, "kb_cache_hits_total", cache="shared_answer") == before + 1
