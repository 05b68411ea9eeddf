"""The Slack bot end to end over HTTP: signed requests through FastAPI, answers posted to a fake Slack on loopback."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from kb.errors import IndexUnavailable
from kb.settings import Settings
from kb.words.answer import gpu_name
from service.app import create_app
from tests.support.fake_slack import (
    BOT_ID,
    BOT_USER,
    FakeEngine,
    FakeSlack,
    block_actions_body,
    block_problems,
    event_body,
    signed_headers,
    slash_command_body,
)
from tests.support.plain_words import leaks

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
ZH = "能用一张4090 QLoRA微调13B模型吗？"
EN = "Can one RTX 4090 QLoRA-tune a 13B model?"
FORM = "application/x-www-form-urlencoded"


class Bot:
    """One bot under test: kb's FastAPI app (create_app, so its middleware too), its engine, the fake Slack."""

    def __init__(self, slack: FakeSlack, settings: Settings, engine: Any) -> None:
        self.slack, self.settings, self.engine = slack, settings, engine
        self.http = TestClient(create_app(settings, engine))
        self.http.__enter__()  # runs the lifespan
        self.running = True

    def post(self, body: str, content_type: str = "application/json", secret: str = SECRET,
             timestamp: int | None = None, headers: dict[str, str] | None = None) -> Any:
        sent = {**signed_headers(secret, body, content_type, timestamp), **(headers or {})}
        return self.http.post("/slack/events", content=body.encode(), headers=sent)

    def event(self, event: dict[str, Any], event_id: str, **headers: str) -> Any:
        return self.post(event_body(event, event_id), headers=headers)

    def settle(self) -> None:
        """Shut the app down, which lets every answer in flight finish: then 'nothing else was posted' is true."""
        if self.running:
            self.running = False
            self.http.__exit__(None, None, None)


@pytest.fixture
def make_bot(slack: FakeSlack, tmp_path: Path) -> Iterator[Callable[..., Bot]]:
    bots: list[Bot] = []

    def make(engine: Any = None, **overrides: Any) -> Bot:
        settings = Settings(slack_bot_token=SecretStr("xoxb-test-token"), slack_signing_secret=SecretStr(SECRET),
                            slack_api_url=slack.api_url, feedback_path=tmp_path / "feedback.jsonl",
                            **overrides)
        bots.append(Bot(slack, settings, engine or FakeEngine()))
        return bots[-1]

    yield make
    for bot in bots:
        bot.settle()


def mention(text: str, ts: str, user: str = "UASKER1", channel: str = "C0GENERAL", **extra: Any) -> dict[str, Any]:
    return {"type": "app_mention", "user": user, "text": f"<@{BOT_USER}> {text}", "ts": ts, "channel": channel,
            "event_ts": ts, **extra}


def message(text: str, ts: str, user: str = "UASKER1", channel: str = "D0DIRECT", channel_type: str = "im",
            **extra: Any) -> dict[str, Any]:
    return {"type": "message", "user": user, "text": text, "ts": ts, "channel": channel, "event_ts": ts,
            "channel_type": channel_type, **extra}


def blocks_of(call: Any) -> list[dict[str, Any]]:
    blocks = call.body["blocks"]
    return json.loads(blocks) if isinstance(blocks, str) else blocks


# -- where people ask --------------------------------------------------------------------------------


def test_slash_command_acks_then_posts_the_answer_in_the_channel(make_bot: Callable[..., Bot],
                                                                 slack: FakeSlack) -> None:
    bot = make_bot()
    resp = bot.post(slash_command_body(ZH, slack.response_url("cmd1")), FORM)
    assert resp.status_code == 200 and "正在查找" in resp.json()["text"]
    (post,) = slack.wait_for_posts()
    assert post.method == "chat.postMessage" and post.body["channel"] == "C0GENERAL"
    assert post.headers["Authorization"] == "Bearer xoxb-test-token"
    blocks = blocks_of(post)
    assert block_problems(blocks) == []
    assert blocks[0]["elements"][0]["text"].startswith("<@UASKER1> 问：能用一张4090")
    assert bot.engine.questions == [ZH]


def test_slash_command_where_kb_is_not_a_member_answers_through_the_response_url(
        make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    slack.fail_next("chat.postMessage", status=200, payload={"ok": False, "error": "not_in_channel"})
    bot.post(slash_command_body(EN, slack.response_url("cmd2"), channel="C0PRIVATE"), FORM)
    (post,) = slack.wait_for_posts()
    assert post.method == "response/cmd2" and post.body["response_type"] == "in_channel"
    assert block_problems(post.body["blocks"]) == []


def test_slash_command_help_and_bad_questions_are_answered_in_the_ack(make_bot: Callable[..., Bot],
                                                                      slack: FakeSlack) -> None:
    bot = make_bot()
    assert "Usage: `/kb QUESTION`" in bot.post(slash_command_body("", slack.response_url("h")), FORM).json()["text"]
    bad = bot.post(slash_command_body("x" * 600, slack.response_url("b")), FORM).json()["text"]
    assert bad.startswith("Cannot answer: question is 600 characters; the limit is 500")
    bot.settle()
    assert slack.posts() == [] and bot.engine.questions == []


def test_mention_is_answered_in_a_thread_under_the_question(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    assert bot.event(mention(ZH, "1700000001.000100"), "Ev01").status_code == 200
    (post,) = slack.wait_for_posts()
    assert post.body["channel"] == "C0GENERAL" and post.body["thread_ts"] == "1700000001.000100"
    assert bot.engine.questions == [ZH]  # the <@kb> prefix is gone
    assert len(slack.of("auth.test")) == 1


def test_direct_message_is_answered_in_the_dm(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    bot.event(message(EN, "1700000002.000100"), "Ev02")
    (post,) = slack.wait_for_posts()
    assert post.body["channel"] == "D0DIRECT" and "thread_ts" not in post.body
    assert blocks_of(post)[0]["elements"][0]["text"] == f"Q: {EN}"


def test_follow_up_in_a_kb_thread_is_answered_in_that_thread(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    bot.event(mention(ZH, "1700000003.000100"), "Ev03")
    slack.wait_for_posts(1)
    chan = {"channel": "C0GENERAL", "channel_type": "channel"}
    bot.event(message("不在任何线程里的闲聊", "1700000003.000300", **chan), "Ev04")
    bot.event(message("别人的线程", "1700000003.000400", thread_ts="1699999999.000001", **chan), "Ev05")
    bot.event(message("那两张4090呢？", "1700000003.000500", thread_ts="1700000003.000100", **chan), "Ev06")
    bot.settle()
    first, follow_up = slack.posts()
    assert first.body["thread_ts"] == follow_up.body["thread_ts"] == "1700000003.000100"
    assert bot.engine.questions == [ZH, "那两张4090呢？"]


def test_own_and_other_bots_messages_are_ignored(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    bot.event(message("my own answer", "1.1", user=BOT_USER, bot_id=BOT_ID), "Ev10")
    bot.event(message("another bot", "1.2", user="UOTHERBOT", bot_id="BOTHER"), "Ev11")
    bot.event(message("legacy bot", "1.3", subtype="bot_message", bot_id="BOTHER"), "Ev12")
    bot.event(mention("bot to bot", "1.4", user="UOTHERBOT", bot_id="BOTHER"), "Ev13")
    bot.event(message("edited", "1.5", subtype="message_changed"), "Ev14")
    bot.settle()
    assert slack.posts() == [] and bot.engine.questions == []


# -- what Slack expects -------------------------------------------------------------------------------


def test_forged_signature_is_401_and_nothing_is_posted(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    body = event_body(mention(ZH, "1.1"), "Ev20")
    assert bot.post(body, secret="not-the-signing-secret").status_code == 401
    assert bot.http.post("/slack/events", content=b"{not json", headers={
        "X-Slack-Request-Timestamp": "yesterday", "X-Slack-Signature": "v0=00"}).status_code == 401
    assert bot.http.post("/slack/events", content=body.encode()).status_code == 401
    bot.settle()
    assert slack.calls == []


def test_stale_timestamp_is_401(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    body = event_body(mention(ZH, "1.1"), "Ev21")
    assert bot.post(body, timestamp=int(time.time()) - 5 * 60 - 30).status_code == 401  # correctly signed, too old
    assert bot.post(body, timestamp=int(time.time()) - 4 * 60).status_code == 200  # inside the 5-minute window


def test_url_verification_challenge(make_bot: Callable[..., Bot]) -> None:
    resp = make_bot().post(json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"}))
    assert resp.status_code == 200 and resp.json() == {"challenge": "c-123"}


def test_retried_delivery_posts_exactly_one_answer(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    event = mention(EN, "1700000004.000100")
    assert bot.event(event, "Ev30").status_code == 200
    assert bot.event(event, "Ev30", **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_error"}).status_code \
        == 200
    assert bot.event(event, "Ev30", **{"X-Slack-Retry-Num": "2", "X-Slack-Retry-Reason": "http_timeout"}) \
        .status_code == 200
    # a mention inside a kb thread arrives twice, as app_mention and as message: one answer
    bot.event(message(f"<@{BOT_USER}> {ZH}", "1700000004.000200", channel="C0GENERAL", channel_type="channel",
                      thread_ts="1700000004.000100"), "Ev31")
    bot.event(mention(ZH, "1700000004.000200", thread_ts="1700000004.000100"), "Ev32")
    bot.settle()
    assert [p.body.get("thread_ts") for p in slack.posts()] == ["1700000004.000100"] * 2
    assert bot.engine.questions == [EN, ZH]


def test_a_timed_out_retry_of_an_unseen_event_is_not_answered_again(make_bot: Callable[..., Bot],
                                                                   slack: FakeSlack) -> None:
    """http_timeout means the first delivery reached kb (maybe another replica): it is being answered there."""
    bot = make_bot()
    bot.event(mention(EN, "1.1"), "Ev33", **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"})
    bot.event(mention(EN, "1.2"), "Ev34", **{"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "connection_failed"})
    bot.settle()
    assert [p.body["thread_ts"] for p in slack.posts()] == ["1.2"]


def test_acknowledged_within_3_seconds_while_a_slow_answer_follows(make_bot: Callable[..., Bot],
                                                                   slack: FakeSlack) -> None:
    """Slack wants its ack within 3 s whatever the answer takes: here the answers are held until both acks are in
    (an answer that the ack waited for would hold the ack too)."""
    gate = threading.Event()
    bot = make_bot(FakeEngine(gate=gate))
    started = time.monotonic()
    resp = bot.post(slash_command_body(EN, slack.response_url("slow")), FORM)
    acked = time.monotonic() - started
    assert resp.status_code == 200 and acked < 3.0, f"ack took {acked:.2f} s"
    resp = bot.event(mention(ZH, "1.1"), "Ev40")
    assert resp.status_code == 200 and time.monotonic() - started < 3.0
    deadline = time.monotonic() + 15
    while len(bot.engine.questions) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(bot.engine.questions) == 2 and slack.posts() == []  # both answers under way, neither posted
    released = time.monotonic()
    gate.set()
    posts = slack.wait_for_posts(2, timeout=20)
    assert all(p.at >= released for p in posts)


def test_rate_limited_post_is_retried_after_retry_after(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    slack.fail_next("chat.postMessage")  # 429, Retry-After: 1
    bot.event(mention(EN, "1.1"), "Ev50")
    (post,) = slack.wait_for_posts(timeout=20)
    bot.settle()
    (refused,) = slack.refused
    assert len(slack.posts()) == 1 and post.at - refused.at >= 1.0


def test_per_user_limit_stops_one_person_flooding(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot(slack_user_per_minute=2)
    for i in range(3):
        bot.event(mention(f"问题{i} 4090", f"1.{i}"), f"Ev6{i}")
    bot.event(mention("another person", "2.1", user="UOTHER"), "Ev69")
    bot.settle()
    answers = slack.of("chat.postMessage")
    (limited,) = slack.of("chat.postEphemeral")
    assert len(answers) == 3 and limited.body["user"] == "UASKER1"
    assert limited.body["text"].startswith("每人每分钟最多问 2 个问题，请 ")


def test_bad_question_and_failure_are_told_to_the_asker_only(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    class Broken(FakeEngine):
        def answer(self, question: str, top_k: int | None = None, **_: Any) -> Any:
            raise RuntimeError("index exploded")

    class Loading(FakeEngine):
        def answer(self, question: str, top_k: int | None = None, **_: Any) -> Any:
            raise IndexUnavailable("the index failed to load: /srv/kb/.kb-index is missing")

    bot = make_bot()
    bot.event(mention("", "1.1"), "Ev70")
    broken = make_bot(Broken())
    broken.event(mention("4090?", "1.2"), "Ev71")
    loading = make_bot(Loading())
    loading.event(mention("4090?", "1.3"), "Ev72")
    for b in (bot, broken, loading):
        b.settle()
    empty, failed, unavailable = sorted((c.body for c in slack.of("chat.postEphemeral")), key=lambda b: b["thread_ts"])
    assert empty["user"] == "UASKER1" and empty["text"].startswith("Cannot answer: question is empty")
    assert failed["text"].startswith("Sorry, kb could not answer this time") and "exploded" not in failed["text"]
    assert unavailable["text"].startswith("kb is starting up") and "/srv" not in unavailable["text"]
    assert slack.of("chat.postMessage") == []


# -- what people get ----------------------------------------------------------------------------------


def test_over_long_answer_is_posted_trimmed_and_valid(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot(FakeEngine(n_passages=40, n_checks=200, text_chars=20_000, answer_chars=10_000, notes=30))
    bot.event(mention(ZH, "1.1"), "Ev80")
    (post,) = slack.wait_for_posts()
    blocks = blocks_of(post)
    assert block_problems(blocks) == [] and len(blocks) <= 50
    assert any("已截断" in json.dumps(b, ensure_ascii=False) for b in blocks)


def test_feedback_click_is_recorded_with_a_hashed_user(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot()
    bot.event(mention(ZH, "1.1"), "Ev90")
    (post,) = slack.wait_for_posts()
    posted = {"type": "message", "ts": "1700000000.000001", "bot_id": BOT_ID, "text": post.body["text"],
              "blocks": blocks_of(post)}
    up = next(e for e in blocks_of(post)[-1]["elements"] if e["action_id"] == "kb_vote_up")
    click = block_actions_body({**up, "block_id": "kb_feedback", "action_ts": "1.2"}, posted, slack.response_url("v"))
    started = time.monotonic()
    assert bot.post(click, FORM).status_code == 200 and time.monotonic() - started < 3.0
    slack.wait_for(lambda s: bool(s.of("response/v")))
    (thanks,) = slack.of("response/v")
    assert thanks.body["response_type"] == "ephemeral" and "有帮助" in thanks.body["text"]
    lines = bot.settings.feedback_path.read_text().splitlines()
    (record,) = [json.loads(line) for line in lines]
    assert record["vote"] == "up" and record["question"] == ZH and record["language"] == "zh"
    assert record["passages"] == [f"guide-{i}.1-c{i}" for i in (1, 2, 3)]
    assert len(record["user"]) == 64 and "UASKER1" not in lines[0]
    assert record["message"] == "C0GENERAL/1700000000.000001"
    print(f"a click's payload is {len(click)} bytes")  # Slack's clicks carry the whole message


# -- the same answer as kb ask --json -----------------------------------------------------------------


def _cli_answer(question: str, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    from click.testing import CliRunner

    from kb.cli.main import cli
    from kb.settings import get_settings

    monkeypatch.setenv("KB_INDEX_DIR", str(settings.index_dir))
    monkeypatch.setenv("KB_CORPUS_DIR", str(settings.corpus_dir))
    get_settings.cache_clear()
    result = CliRunner().invoke(cli, ["ask", question, "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def _block_texts(value: Any) -> list[str]:
    """Every text a person reads in Block Kit blocks (sections, context elements, buttons)."""
    if isinstance(value, dict):
        return [value["text"]] if isinstance(value.get("text"), str) else \
            [t for v in value.values() for t in _block_texts(v)]
    return [t for v in value for t in _block_texts(v)] if isinstance(value, list) else []


def _posted_sections_and_verdicts(blocks: list[dict[str, Any]]) -> tuple[list[str], list[tuple[str, bool]]]:
    sections = [re.match(r"\*\[\d+\]\* §(\S+) ", b["text"]["text"]).group(1)  # type: ignore[union-attr]
                for b in blocks if b.get("block_id", "").startswith("kb_passage_")]
    fit = next((b["text"]["text"] for b in blocks if b.get("block_id") == "kb_fit"), "")
    rows = fit.split("```")[1].splitlines()[1:] if fit else []
    cells = [re.split(r"\s{2,}", row) for row in rows]  # "[F1]  ✅ fits  RTX 4090×1  …": columns 2 spaces apart
    verdicts = [(c[2], "✅" in c[1]) for c in cells]
    return sections, verdicts


@pytest.mark.slow
@pytest.mark.parametrize("question", [ZH, EN, "两张A100 80GB能全参数训练llama-2-13b吗？",
                                      "预算20万，部署70B模型推理该买什么GPU？"])
def test_slack_carries_the_sections_and_verdicts_kb_ask_json_gives(
        question: str, engine: Any, settings: Settings, make_bot: Callable[..., Bot], slack: FakeSlack,
        monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _cli_answer(question, settings, monkeypatch)
    bot = make_bot(engine)
    bot.event(mention(question, "1.1"), "Ev99")
    (post,) = slack.wait_for_posts(timeout=60)
    blocks = blocks_of(post)
    assert block_problems(blocks) == []
    sections, verdicts = _posted_sections_and_verdicts(blocks)
    assert sections == [p["section"] for p in expected["passages"]]
    assert verdicts == [(f"{gpu_name(c['gpu'])}×{c['gpu_count']}", c["fits"]) for c in expected["fit_checks"]]
    assert expected["fit_checks"], "each of these questions asks for a fit check"
    if expected["selection"]:
        table = next(b["text"]["text"] for b in blocks if b.get("block_id") == "kb_selection")
        shown = [re.split(r"\s{2,}", line)[0] for line in table.split("```")[1].splitlines()[1:] if "×" in line]
        assert shown == [f"{gpu_name(r['gpu'])}×{r['gpu_count']}" for r in expected["selection"]["rows"]][: len(shown)]
        assert shown, "the budget question ranks at least one configuration"
    # What the reply says reads plainly: no path, file or variable name, no internal noun or id; the answer's
    # amounts with their currency and separators (a quoted passage keeps its source's way of writing them).
    said = "\n".join(_block_texts(blocks))
    answer = next(b["text"]["text"] for b in blocks if b.get("block_id") == "kb_answer")
    assert leaks(said, question, amounts=False) == [] and leaks(answer, question) == [], leaks(said, question)


@pytest.mark.slow
def test_a_click_on_a_real_answer_is_accepted(engine: Any, make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot(engine)
    bot.event(mention("预算20万，部署70B模型推理该买什么GPU？", "1.1"), "Ev98")
    (post,) = slack.wait_for_posts(timeout=60)
    posted = {"type": "message", "ts": "1.2", "bot_id": BOT_ID, "text": post.body["text"], "blocks": blocks_of(post)}
    up = blocks_of(post)[-1]["elements"][0]
    click = block_actions_body({**up, "block_id": "kb_feedback", "action_ts": "1.3"}, posted, slack.response_url("v"))
    assert bot.post(click, FORM).status_code == 200, f"a {len(click)}-byte click was refused"


def test_limit_notice_in_a_dm_is_a_plain_message(make_bot: Callable[..., Bot], slack: FakeSlack) -> None:
    bot = make_bot(slack_user_per_minute=1)
    bot.event(message(EN, "3.1"), "EvD1")
    bot.event(message(EN, "3.2"), "EvD2")
    bot.settle()
    answer, notice = sorted(slack.of("chat.postMessage"), key=lambda c: "blocks" in c.body)[::-1]
    assert "blocks" in answer.body and "blocks" not in notice.body
    assert notice.body["text"].startswith("kb's limit is 1 questions a minute per person; please ask again in")


# -- conversations in threads ------------------------------------------------------------------------


def now() -> str:
    """A message timestamp of this moment, as Slack gives them (kb's posts in the fake are stamped now too)."""
    time.sleep(0.002)
    return f"{time.time():.6f}"


def test_a_thread_follow_up_carries_the_state_of_kbs_answer_to_that_asker(make_bot: Callable[..., Bot],
                                                                          slack: FakeSlack) -> None:
    bot = make_bot()
    chan = {"channel": "C0GENERAL", "channel_type": "channel"}
    root = now()
    slack.said("C0GENERAL", root, f"<@{BOT_USER}> {EN}")
    bot.event(mention(EN, root), "Ev40")
    slack.wait_for_posts(1)
    (first,) = slack.of("chat.postMessage")
    meta = json.loads(first.body["metadata"]) if isinstance(first.body["metadata"], str) else first.body["metadata"]
    assert meta["event_type"] == "kb_answer" and meta["event_payload"]["asker"] == "UASKER1"
    ts = now()
    slack.said("C0GENERAL", ts, "and with two cards?", thread_ts=root)
    bot.event(message("and with two cards?", ts, thread_ts=root, **chan), "Ev41")
    slack.wait_for_posts(2)
    # a second person in the same thread holds a conversation of their own: nothing of the first carries over
    ts = now()
    slack.said("C0GENERAL", ts, "what about an H100?", user="UOTHER2", thread_ts=root)
    bot.event(message("what about an H100?", ts, user="UOTHER2", thread_ts=root, **chan), "Ev42")
    bot.settle()
    assert bot.engine.contexts[0] == (None, None)  # a mention that starts a thread starts a conversation
    assert bot.engine.contexts[1] == (None, {"intent": "fit", "said": EN})
    assert bot.engine.contexts[2] == (None, None)
    assert all(c.body.get("thread_ts") == root for c in slack.of("chat.postMessage"))
    assert len(slack.of("conversations.replies")) == 2


def test_without_kbs_state_the_askers_own_earlier_questions_are_the_history(make_bot: Callable[..., Bot],
                                                                            slack: FakeSlack) -> None:
    bot = make_bot()
    root = "1700000011.000100"
    slack.said("C0GENERAL", root, "我们在比较 4090 和 A100")  # the asker opened the thread without kb
    slack.said("C0GENERAL", "1700000011.000200", f"<@{BOT_USER}> 两张 A100 80G 能跑 Llama-3-70B 推理吗？",
               thread_ts=root)
    slack.said("C0GENERAL", "1700000011.000250", "我觉得不行", user="UOTHER2", thread_ts=root)
    slack.said("C0GENERAL", "1700000011.000300", f"<@{BOT_USER}> 那训练呢", thread_ts=root)
    bot.event(mention("那训练呢", "1700000011.000300", thread_ts=root), "Ev43")
    bot.settle()
    history, state = bot.engine.contexts[0]
    assert state is None
    assert history == ["我们在比较 4090 和 A100", "两张 A100 80G 能跑 Llama-3-70B 推理吗？"]


def test_a_thread_slack_will_not_let_kb_read_is_answered_on_its_own_and_says_so(make_bot: Callable[..., Bot],
                                                                                slack: FakeSlack) -> None:
    bot = make_bot()
    slack.fail_next("conversations.replies", status=200, payload={"ok": False, "error": "missing_scope"})
    bot.event(message("换成 L40S 呢", "1700000012.000300", thread_ts="1700000012.000100", channel="D0DIRECT"),
              "Ev44")
    bot.settle()
    assert bot.engine.contexts == [(None, None)]
    (post,) = slack.of("chat.postMessage")
    assert "没有让 kb 读取这个对话串" in json.dumps(blocks_of(post), ensure_ascii=False)


def test_slash_commands_start_fresh_and_their_answer_carries_the_state(make_bot: Callable[..., Bot],
                                                                        slack: FakeSlack) -> None:
    bot = make_bot()
    bot.post(slash_command_body(ZH, slack.response_url("cmd")), FORM)
    bot.settle()
    assert bot.engine.contexts == [(None, None)]
    assert not slack.of("conversations.replies") and not slack.of("conversations.history")
    (post,) = slack.of("chat.postMessage")
    meta = post.body["metadata"]
    meta = json.loads(meta) if isinstance(meta, str) else meta
    assert meta["event_payload"]["state"] == {"intent": "fit", "said": ZH}


def test_a_real_follow_up_in_a_thread_is_answered_with_what_it_carried(engine: Any, make_bot: Callable[..., Bot],
                                                                       slack: FakeSlack) -> None:
    bot = make_bot(engine)
    root = now()
    first = "Can Llama 3 70B run inference on one H100?"
    slack.said("C0GENERAL", root, f"<@{BOT_USER}> {first}")
    bot.event(mention(first, root), "Ev45")
    slack.wait_for_posts(1)
    ts = now()
    slack.said("C0GENERAL", ts, "what about with two cards?", thread_ts=root)
    bot.event(message("what about with two cards?", ts, thread_ts=root, channel="C0GENERAL",
                      channel_type="channel"), "Ev46")
    bot.settle()
    _, follow_up = slack.of("chat.postMessage")
    text = json.dumps(blocks_of(follow_up), ensure_ascii=False)
    assert "From earlier" in text and "2 × H100 SXM" in text
    meta = follow_up.body["metadata"]
    state = (json.loads(meta) if isinstance(meta, str) else meta)["event_payload"]["state"]
    assert state["gpus"] == [{"id": "h100-sxm", "count": 2}] and state["models"] == ["llama-3-70b"]
