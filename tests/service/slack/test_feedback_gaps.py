"""A 👎 in Slack reaches `kb gaps` as a question marked wrong, without the voter; a 👍 does not."""

from __future__ import annotations

from pathlib import Path

from kb.gaps.sqlite_store import GapLog
from service.slack.feedback import FeedbackLog


def test_a_thumbs_down_is_a_gap_and_a_thumbs_up_is_not(tmp_path: Path) -> None:
    gaps = GapLog(tmp_path / "gaps.sqlite")
    log = FeedbackLog(tmp_path / "feedback.jsonl", b"salt", gaps)
    log.record(vote="down", question="4090 能训练 70B 吗？", language="zh", passages=[], user_id="U1")
    log.record(vote="up", question="A100 显存多少？", language="zh", passages=[], user_id="U2")
    assert gaps.summary()["wrong"] == [{"question": "4090 能训练 70B 吗？", "asked": 1}]
    assert b"U1" not in (tmp_path / "gaps.sqlite").read_bytes()
