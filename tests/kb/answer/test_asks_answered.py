"""Answers to asks in any voice, on the real corpus: several asks answered in the order asked, what was observed
judged against kb's bound, a match's count and cost, a bill over the span asked, a case named by what happened,
a message outside the guide, and turns that point back or ask why — each in more than one phrasing."""

from __future__ import annotations

import re

import pytest

from kb.answer.verify import MARKER
from kb.engine import Engine


def _ask(engine: Engine, question: str, history: list[str] | None = None):  # type: ignore[no-untyped-def]
    return engine.answer(question, history=history) if history else engine.answer(question)


def _markers_point_at_what_exists(answer) -> None:  # type: ignore[no-untyped-def]
    for m in MARKER.findall(answer.answer):
        tag = m[1:-1]
        if tag.startswith("F"):
            assert 1 <= int(tag[1:]) <= len(answer.fit_checks), m
        elif tag == "S":
            assert answer.selection is not None
        else:
            assert 1 <= int(tag) <= len(answer.passages), m


@pytest.mark.parametrize(("question", "facts"), [
    ("想确认几件事：①一张4090能不能QLoRA微调Qwen2.5-14B？②如果买4张4090，光卡多少钱？③4张卡满载的功耗加起来多少瓦？",
     [r"能", r"76,000", r"1,800 W"]),
    ("we have one H200 on a 3-month commit. can it serve Qwen2.5-32B in bf16 on that single card, and what's the "
     "decode ceiling for a single user?", [r"\bYes\b", r"\d+ tokens/s"]),
    ("8卡A100 80G的机器，两个问题：1. 全参训练Qwen2.5-7B放得下吗？2. 继续预训练100B token要跑多少天？",
     [r"能", r"\d+(\.\d+)? 天"]),
])
def test_each_ask_of_a_message_is_answered_in_the_order_asked(engine: Engine, question: str,
                                                               facts: list[str]) -> None:
    answer = _ask(engine, question)
    at = [re.search(f, answer.answer).start() for f in facts]  # type: ignore[union-attr]
    assert at == sorted(at), answer.answer
    assert len(answer.state["asks"]) == len(facts)
    _markers_point_at_what_exists(answer)


def test_an_ask_kb_cannot_answer_is_said_at_the_end_and_the_answer_is_partial(engine: Engine) -> None:
    answer = _ask(engine, "two things: how much VRAM does one RTX 4090 have, and what's a good salary for an ML "
                          "engineer in Berlin these days?")
    assert "24 GiB" in answer.answer.split("What kb could not answer")[0]
    assert answer.coverage == "partial" and "salary" in answer.answer.split("What kb could not answer")[1]


@pytest.mark.parametrize(("question", "bound", "side"), [
    ("getting like 7 tok/s on qwen2.5 14b int4 on my 4090. normal??", r"1[12]\d tokens/s", "below"),
    ("单路跑 qwen2.5 14b int4，4090 上只有 7 token/s，正常吗", r"1[12]\d tokens/s", "低于"),
    ("4080跑llama2 7b fp16 实测单路45 token/s 还有提升空间吗", r"5[0-4] tokens/s", "正常"),
    ("8卡a100全参训7b 我们统计一天才跑了20B token 这速度正常吗", r"5[01]\.\d 亿", "超过"),
    ("8x 4090 box pretraining a 1.3b model, we see ~35k tokens/s total. reasonable?", r"165\.2", "2[01]%"),
])
def test_what_people_observed_is_judged_against_kbs_bound(engine: Engine, question: str, bound: str,
                                                          side: str) -> None:
    answer = _ask(engine, question)
    assert re.search(bound, answer.answer) and re.search(side, answer.answer), answer.answer


@pytest.mark.parametrize("question", [
    "how many 4090s does it take to match one a100 80gb's vram, and is that cheaper?",
    "要几张4090才能顶一张a100 80g的显存？便宜吗",
])
def test_how_many_of_one_card_match_anothers_memory_and_what_they_cost(engine: Engine, question: str) -> None:
    text = _ask(engine, question).answer
    assert re.search(r"\b4 (×|张) RTX 4090", text) and "76,000" in text and "74,000" in text, text


@pytest.mark.parametrize(("question", "facts"), [
    ("16 L40S running inference 24/7 for 90 days at $0.12/kWh - the GPU power bill, TDP x hours?",
     [r"12,096 kWh", r"90 days", r"\$1,452"]),
    ("4 a100s flat out for two weeks at 1.2 yuan/kWh - electricity for the cards alone?", [r"2 weeks", r"645"]),
    ("准备用8张H100训Llama 3 8B（全参），50B token。要训几天？训练期间光显卡的电费多少（1块钱一度）？",
     [r"训练期间", r"1,[12]\d\d 元"]),  # (8 × 700 W over kb's ~9 days: 6ND plus causal attention at 40 % MFU)
])
def test_a_bill_is_for_the_span_asked_in_the_currency_asked(engine: Engine, question: str,
                                                            facts: list[str]) -> None:
    text = _ask(engine, question).answer
    assert all(re.search(f, text) for f in facts), text


def test_a_runs_cost_at_the_rent_the_message_gives(engine: Engine) -> None:
    text = _ask(engine, "cloud rental plan: 8x H100 SXM at $2.50 per GPU-hour, full fine-tuning Llama 3 8B on 5B "
                        "tokens. how long will it take, and roughly what will it cost us?").answer
    assert re.search(r"\d+ hours", text) and re.search(r"\$2\.50 a GPU-hour.*\$\d{3}", text), text


@pytest.mark.parametrize(("question", "fact"), [
    ("有团队把量化后的7b塞进一台4卡4090工作站做实时交互 延迟做到多少ms", "200"),
    ("the company doing real-time financial analytics that trains on-prem: what do they train on?", "A100"),
])
def test_a_case_named_by_what_happened_in_it(engine: Engine, question: str, fact: str) -> None:
    answer = _ask(engine, question)
    assert fact in answer.answer and answer.fit_checks == [], answer.answer


@pytest.mark.parametrize("question", [
    "hiring question: our team of 9 runs a fine-tuning pipeline; is it worth paying a recruiter's 25% fee, and what "
    "do agencies usually charge these days?",
    "我们的大模型应用要上线了，听说要做备案，流程怎么走？要准备哪些材料，大概多久能批下来？",
])
def test_a_teams_message_about_something_else_is_outside_the_guide(engine: Engine, question: str) -> None:
    assert _ask(engine, question).coverage == "not_covered"


@pytest.mark.parametrize(("turns", "facts"), [
    (["mixtral 8x7B needs 100GB but my h800 only has 80GB; zero3 runs but very slow",
      "that card - what's its NVLink bandwidth?"], [r"400 GB/s"]),
    (["预算40万，内部知识库问答，Qwen2.5-7B，并发20人，放在普通办公室，没有机房。推荐什么卡？", "为什么不选A100"],
     [r"150,?000|15 ?万"]),
    (["After adding --enable-p2p-check, why is running on two 4090s slower than on a single one",
      "why though? shouldn't two cards be faster than one?"], [r"PCIe", r"NVLink"]),
    (["部门有两张A100 80G闲着，想微调Qwen2.5-14B，序列4k以内。用LoRA大概要多少显存？", "不要lora 要全参数微调"],
     [r"不能"]),
])
def test_turns_that_point_back_rule_out_or_ask_why(engine: Engine, turns: list[str], facts: list[str]) -> None:
    answer = _ask(engine, turns[-1], turns[:-1])
    assert all(re.search(f, answer.answer) for f in facts), answer.answer
