"""kb/understand/clauses.py and asks.py: a message cut into its asks, each ask's template and subject, and a
message that asks one thing in several clauses kept whole — Chinese and English, in several phrasings."""

from __future__ import annotations

import pytest

from kb.understand.asks import Ask, read_asks
from kb.understand.clauses import ask_clauses, split_clauses
from kb.understand.templates import TEMPLATES
from tests.support.fit_engine_helpers import READER


def _asks(text: str) -> list[Ask]:
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"
    return read_asks(text, READER.read(text, lang), READER.read, READER.mentions, lang)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "asks"), [
    ("①一张4090能不能QLoRA微调14B？②买4张光卡多少钱？③满载功耗加起来多少瓦？", 3),
    ("(a) can it serve 7B int8? (b) what about 14B bf16? (c) what did the card cost?", 3),
    ("两个问题：1. 放得下吗？2. 要跑多少天？", 2),
    ("can it serve Qwen2.5-32B on one card, and what's the decode ceiling for one user?", 2),
    ("how long will it take, and roughly what will it cost us?", 2),
    ("Qwen2.5-1.5B on a 4060?", 1),  # (the point of "1.5B" ends no sentence)
    ("我们有一台8卡A100。闲着也是闲着。", 1),  # (no ask at all: the message is asked whole)
])
def test_a_message_is_cut_where_one_ask_ends(text: str, asks: int) -> None:
    assert len(ask_clauses(text)) == asks


def test_context_sentences_are_kept_apart_from_asks() -> None:
    clauses = split_clauses("我们IDC里有一台8卡A100 80G的机器，闲着也是闲着。两个问题：1. 放得下吗？2. 跑多少天？")
    assert [c.asks for c in clauses] == [False, False, True, True]
    assert clauses[2].text == "放得下吗？"  # (the enumerator is no part of the clause)


@pytest.mark.parametrize(("text", "template"), [
    ("getting like 7 tok/s on qwen2.5 14b int4 on my 4090. normal??", "observe"),
    ("8卡a100全参训7b 我们统计一天才跑了20B token 这速度正常吗", "observe"),
    ("16 L40S running inference 24/7 for 90 days at $0.12/kWh - the power bill?", "bill"),
    ("一张b200跑满一年 电费一块钱一度 要多少钱", "bill"),
    ("how many 4090s does it take to match one a100 80gb's vram, and is that cheaper?", "match"),
    ("要几张4090才能顶一张a100 80g的显存", "match"),
    ("4080 每 g 显存多少钱", "derive"),
    ("有团队把量化后的7b塞进一台4卡4090工作站做实时交互 延迟做到多少ms", "case"),
    ("the company doing real-time financial analytics that trains on-prem: what do they train on?", "case"),
    ("指南说4090推理比a100强 可它带宽只有一半 这说得通吗", "why"),
    ("why do people put ECC ahead of raw speed for week-long runs?", "why"),
    ("全参训练 llama 3 8b 50B token 8张h100 要多久", "time"),
    ("qwen2.5 72b on 8 h200s, 25 users at 16k context: total kv cache?", "serve"),
    ("can one 4090 run llama 3 8b in int8?", "fit"),
    ("预算4万，买4090的话能买几张？", "buys"),
    ("预算30万，Qwen2.5-14B LoRA微调加内部推理，A100和4090选哪个？", "pick"),
])
def test_each_ask_gets_the_template_its_words_and_mentions_say(text: str, template: str) -> None:
    assert [a.template for a in _asks(text)] == [template] and template in TEMPLATES  # (a state may say it)


def test_several_asks_of_one_message_each_have_the_messages_subject() -> None:
    asks = _asks("我们IDC里有一台8卡A100 80G的机器。两个问题：1. 全参数训练Qwen2.5-7B放得下吗？"
                 "2. 如果继续预训练100B token，大概要跑多少天？")
    assert [a.template for a in asks] == ["fit", "time"]
    assert all(a.query.gpus == [("a100-80gb", 8)] and a.query.model == "qwen2.5-7b" for a in asks)
    assert asks[1].query.tokens == 100e9 and asks[1].query.asked == "time"


def test_a_figure_asked_of_the_cards_does_not_carry_the_messages_model() -> None:
    asks = _asks("团队预算10万：①一张4090能不能QLoRA微调Qwen2.5-14B？②如果买4张4090，光卡多少钱？"
                 "③4张卡满载的显卡功耗加起来多少瓦？")
    assert asks[0].template == "fit"
    assert all(a.query.model is None for a in asks[1:])
    assert asks[2].query.gpus == [("rtx-4090", 4)]


@pytest.mark.parametrize("text", [
    "h20 显存多大？带宽呢", "does the h200 have nvlink? how many GB/s",
    "how many 4060s for the price of one 4090, and what's left",
    "deepseek v3 fp8 部署 一共要多少显存？分到 8 张卡 每张多少",
])
def test_one_thing_asked_in_several_clauses_stays_one_ask(text: str) -> None:
    assert len(_asks(text)) == 1


def test_an_ask_carries_the_rent_and_the_dollars_of_its_message() -> None:
    asks = _asks("cloud rental plan: 8x H100 SXM at $2.50 per GPU-hour, full fine-tuning Llama 3 8B on 5B tokens. "
                 "how long will it take, and roughly what will it cost us?")
    assert [a.template for a in asks] == ["time", "cost"]
    assert all(a.rent_cny == pytest.approx(18.0) and a.in_usd for a in asks)


def test_what_was_observed_is_read_as_a_rate_to_judge() -> None:
    (ask,) = _asks("8x 4090 box pretraining a 1.3b model, we see ~35k tokens/s total. reasonable?")
    assert ask.observed is not None and (ask.observed.kind, ask.observed.value) == ("train", 35_000.0)
    (ask,) = _asks("qwen2.5 72b int4 on a single h100, single stream ~40 tok/s. slow?")
    assert ask.observed is not None and (ask.observed.kind, ask.observed.value) == ("decode", 40.0)


@pytest.mark.parametrize(("text", "concurrency"), [
    ("~80 users internally, expect 25 concurrent sessions at 16k context", 25),
    ("64 concurrent users at 8k context at peak, ~300 users total", 64),
    ("我们组8个人，估计20来个人同时问，上下文4k", 20),
])
def test_the_load_is_the_count_running_at_once_not_the_head_count(text: str, concurrency: int) -> None:
    assert READER.read(text, "en").concurrency == concurrency


def test_a_budget_said_beside_counted_cards_asks_a_verdict_not_a_pick() -> None:
    q = READER.read("预算130万以内，主要Qwen2.5-14B全参数微调，想确认8张A100 40G做全参够不够？", "zh")
    assert q.gpus == [("a100-40gb", 8)] and not q.wants_selection
    q = READER.read("预算30万，Qwen2.5-14B LoRA微调，A100和4090选哪个？办公室没有机房", "zh")
    assert q.wants_selection and set(q.among) >= {"a100-80gb", "a100-40gb", "rtx-4090"} and q.no_datacenter
