"""kb gaps: questions kb fell short on, grouped; no user ids; forgotten after the retention period."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.engine import Engine
from kb.errors import BadInput
from kb.gaps.entries import about, about_of, parse_since
from kb.gaps.sqlite_store import GapLog

DAY = 86400


def test_an_unknown_name_is_shown_after_it_was_asked_and_forgotten_after_retention(engine: Engine,
                                                                                    tmp_path: Path) -> None:
    log = GapLog(tmp_path / "gaps.sqlite", retention_days=30)
    question = "RX 7900 XTX 能跑 Llama-2-13B 推理吗？"
    answer = engine.answer(question)
    assert answer.unknown  # kb has no record for the card
    now = time.time()
    assert log.record(answer.question, answer.coverage, answer.unknown, now=now - 29 * DAY)
    log.record(answer.question, answer.coverage, answer.unknown, now=now)
    names = log.summary(now=now)["unknown_names"]
    assert names[0]["asked"] == 2 and any("7900" in n["name"] for n in names)
    later = log.summary(now=now + 2 * DAY)["unknown_names"]  # the first ask is now 31 days old
    assert later[0]["asked"] == 1
    assert log.summary(now=now + 31 * DAY)["unknown_names"] == []  # both forgotten, and deleted
    assert log.summary(now=now)["unknown_names"] == []


def test_only_shortfalls_are_kept_and_grouped_by_kind(tmp_path: Path) -> None:
    log = GapLog(tmp_path / "g.sqlite")
    assert not log.record("RTX 4090 显存多少？", "answered", [])
    log.record("量子计算机用什么GPU？", "not_covered", [])
    log.record("量子计算机用什么GPU？", "not_covered", [])
    log.record("H200 和 MI400 比哪个好？", "partial", ["MI400"])
    log.thumbs_down("4090 能训练 70B 吗？")
    s = log.summary()
    assert s["not_covered"] == [{"question": "量子计算机用什么GPU？", "asked": 2}]
    assert s["partial"] == [{"question": "H200 和 MI400 比哪个好？", "asked": 1}]
    assert s["unknown_names"] == [{"name": "MI400", "asked": 1}]
    assert s["wrong"] == [{"question": "4090 能训练 70B 吗？", "asked": 1}]
    assert log.summary(since_s=0)["not_covered"] == []


def test_since_is_checked() -> None:
    assert parse_since("7d") == 7 * DAY and parse_since("12h") == 12 * 3600
    with pytest.raises(BadInput, match=r"e\.g\. 7d"):
        parse_since("a week")


def test_kb_gaps_cli(tmp_path: Path) -> None:
    path = tmp_path / "gaps.sqlite"
    GapLog(path).record("B300 多少显存？", "partial", ["B300"])
    env = dict(os.environ, KB_GAPS_PATH=str(path))
    done = subprocess.run([sys.executable, "-m", "kb.cli", "gaps", "--since", "7d", "--json"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["unknown_names"] == [{"name": "B300", "asked": 1}]
    bad = subprocess.run([sys.executable, "-m", "kb.cli", "gaps", "--since", "soon"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


STATE = {"intent": "price", "gpus": [{"id": "h100-sxm", "count": None}], "models": ["llama-2-70b"],
         "asked": "rent_or_buy", "attributes": ["price"], "workload": "inference"}


def test_what_an_answer_was_about_is_read_from_its_state_and_junk_is_left_out() -> None:
    assert about(STATE) == ["gpu:h100-sxm", "model:llama-2-70b", "topic:rent_or_buy", "topic:price",
                            "topic:inference"]
    assert about({"gpus": "h100", "models": [{"x": 1}, "A" * 200, "ok-id"], "asked": ["x"], "intent": 3}) == [
        "model:ok-id"]
    assert about(None) == [] and about(["gpu:h100-sxm"]) == []
    assert about_of(["gpu:h100-sxm", "evil:x", "topic:<script>", 5, "topic:price", "gpu:h100-sxm"]) == [
        "gpu:h100-sxm", "topic:price"]


def test_partial_answers_and_wrong_flags_are_grouped_by_the_names_and_topics_they_mention(tmp_path: Path) -> None:
    log = GapLog(tmp_path / "g.sqlite")
    log.record("H100 租 6 个月多少钱？", "partial", [], about=about(STATE))
    log.thumbs_down("H100 rent or buy for half a year?", about=about(STATE))  # 👎 in Slack
    log.thumbs_down("H100 价格不对", about=["gpu:h100-sxm", "topic:price"])  # "wrong" on the page
    log.record("B300 多少显存？", "partial", ["B300"], about=["topic:vram"])
    s = log.summary()
    by_name = {(n["of"], n["name"]): n for n in s["by_name"]}
    h100 = by_name[("gpu", "h100-sxm")]
    assert (h100["asked"], h100["kinds"]) == (3, {"wrong": 2, "partial": 1})
    assert set(h100["questions"]) == {"H100 租 6 个月多少钱？", "H100 rent or buy for half a year?", "H100 价格不对"}
    assert by_name[("name", "B300")]["kinds"] == {"unknown": 1}
    assert s["by_name"][0]["name"] == "h100-sxm"  # most asked first
    topics = {t["name"]: t["asked"] for t in s["by_topic"]}
    assert topics["price"] == 3 and topics["rent_or_buy"] == 2 and topics["vram"] == 1
    assert sorted(w["question"] for w in s["wrong"]) == ["H100 rent or buy for half a year?", "H100 价格不对"]
