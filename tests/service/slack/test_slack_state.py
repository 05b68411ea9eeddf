"""The bot's small state: expiring sets for dedupe, the per-user limit, and the feedback log."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from service.slack.dedupe import TtlSet
from service.slack.feedback import FeedbackLog, hash_user
from service.slack.ratelimit import UserRateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_ttl_set_remembers_until_ttl_and_stays_bounded() -> None:
    clock = Clock()
    seen = TtlSet(ttl=60, max_size=3, clock=clock)
    assert seen.add("a") and not seen.add("a") and "a" in seen
    clock.now += 61
    assert "a" not in seen and seen.add("a")
    for key in "bcd":
        seen.add(key)
    assert "a" not in seen and all(k in seen for k in "bcd")  # the oldest went first


def test_ttl_set_add_is_one_step_across_threads() -> None:
    seen = TtlSet(ttl=60, max_size=1000)
    wins: list[bool] = []
    threads = [threading.Thread(target=lambda: wins.append(seen.add("event"))) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins.count(True) == 1


def test_user_limit_is_a_sliding_window_per_user() -> None:
    clock = Clock()
    limiter = UserRateLimiter(2, clock=clock)
    assert limiter.check("u") == 0 and limiter.check("u") == 0
    clock.now += 20
    assert limiter.check("u") == 40 and limiter.check("v") == 0
    clock.now += 40
    assert limiter.check("u") == 0
    assert all(UserRateLimiter(0).check("u") == 0 for _ in range(100))  # 0 turns it off


def test_feedback_lines_are_whole_under_concurrency_and_users_pseudonymous(tmp_path: Path) -> None:
    log = FeedbackLog(tmp_path / "sub" / "feedback.jsonl", b"salt")
    threads = [threading.Thread(target=log.record, kwargs={
        "vote": "up" if i % 2 else "down", "question": "问" * 500, "language": "zh", "passages": ["a", "b"],
        "user_id": f"U{i}", "team_id": "T1", "message": "C1/1.1"}) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    records = [json.loads(line) for line in (tmp_path / "sub" / "feedback.jsonl").read_text().splitlines()]
    assert len(records) == 50 and {r["vote"] for r in records} == {"up", "down"}
    assert {r["user"] for r in records} == {hash_user(f"T1:U{i}", b"salt") for i in range(50)}
    assert hash_user("T1:U1", b"salt") != hash_user("T1:U1", b"pepper")
