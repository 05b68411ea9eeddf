"""A case's own relative figures applied to an amount the asker gives (kb/answer/case_whatif.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.answer.case_whatif import asked_subject, case_figures, case_total_cny, money_base, throughput_base
from kb.engine import Engine


def test_a_cases_cuts_and_shares_are_read_as_factors() -> None:
    text = ("- 单服务器成本降低了60% (per-server cost down 60%)\n- 服务吞吐量仅下降了15%\n"
            "而成本仅为同等性能A100系统的1/5")
    found = {(f.subject, round(f.factor, 3)) for f in case_figures(text)}
    assert found == {("cost", 0.4), ("throughput", 0.85), ("cost", 0.2)}
    assert [f.factor for f in case_figures("本地RTX 4090集群处理了约70%的常规负载")] == [0.7]
    assert case_total_cny("8卡RTX 4090集群，总成本约45万元") == 450_000


def test_the_askers_base_and_what_it_is_an_amount_of() -> None:
    assert money_base("要是原来一年成本两百万") == 2_000_000 and money_base("原来 120 万") == 1_200_000
    assert throughput_base("每秒处理 250 个请求") == 250
    assert asked_subject("if it cost 2m cny before") == "cost" and asked_subject("200 requests a second") == \
        "throughput"


@pytest.fixture(scope="module")
def ask(engine: Engine) -> Any:
    return lambda question: engine.answer(question).answer


@pytest.mark.slow
@pytest.mark.parametrize(("question", "pattern"), [
    ("chatbot case: an a100 server doing 200 requests a second would do about how many on 4090s",
     r"^By the case's own figure, 200 becomes 200 × 0\.85 ≈ 170"),
    ("6.4 金融科技那个案例 要是 a100 方案花两百万 4090 方案大概多少钱",
     r"^按案例自己的数字（“总成本仅为A100方案的15%”），2,000,000 元 × 0\.15 ≈ 300,000 元"),
    ("university team case: its cluster cost split over its cards, per card?",
     r"^The case's total of about 450,000 CNY over its 8 cards is about 56,250 CNY a card"),
    ("创业公司那个案例 本地 4090 扛了七成负载 要扛下全部负载得几张", r"^案例的 16 张卡承担了约 70% 的负载.*即 23 张"),
    # the before from an after, and the servers that keep a total throughput
    ("内容生成平台那个案例 混合部署以后一年花 90 万 之前是多少",
     r"^按案例自己的数字（“成本降低了40%”），变化后的 900,000 元，变化前约为 900,000 ÷ 0\.6 ≈ 1,500,000 元"),
    ("chatbot case: to keep the throughput of 40 a100 servers, how many 4090 servers",
     r"^By the case's own figure, each new server carries 0\.85 .*40 ÷ 0\.85 ≈ 47\.1, i\.e\. 48 servers"),
])
def test_an_amount_taken_through_a_cases_own_figure(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question)), ask(question)
