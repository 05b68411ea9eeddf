"""kb.retrieve.focus: what a question asks, as the guide's words, and when the framing chapters yield."""

from __future__ import annotations

import pytest

from kb.retrieve.focus import asked_sections, asks_framing, focus_of
from kb.understand.names import registry_for
from kb.understand.read import read_query
from tests.conftest import CORPUS

REGISTRY = registry_for(CORPUS)


def _focus(question: str):  # type: ignore[no-untyped-def]
    return focus_of(question, read_query(question, REGISTRY))


def test_a_concurrency_question_leans_on_kv_caches_and_batching() -> None:
    f = _focus("llama 2 13b on an a100 80gb, 32 concurrent sequences at 4k?")
    assert {"并发", "KV缓存", "批处理"} <= set(f.terms) and not f.framing


def test_a_training_memory_question_leans_on_training_memory() -> None:
    f = _focus("7b 全参训练要多少显存")
    assert {"训练", "显存需求", "优化器"} <= set(f.terms) and "推理" not in f.terms


def test_a_speed_question_leans_on_decode_rates_and_bandwidth() -> None:
    assert {"推理性能", "内存带宽"} <= set(_focus("rx 7900 xtx llama 3 8b tokens per sec").terms)


def test_a_cards_own_figure_needs_no_focus_terms() -> None:
    assert _focus("rtx 4090 vs a100 fp32 throughput").terms == ()
    assert _focus("a100 80g 单卡价格?").terms == ()


def test_the_framing_chapters_stay_for_questions_about_them_or_about_cards_alone() -> None:
    assert asks_framing("总的来说，A100和4090应该怎么分工？") and _focus("总的来说，A100和4090应该怎么分工？").framing
    assert _focus("什么情况下 4090 比 A100 更合适").framing  # what the conclusion answers
    assert _focus("What is hardware-as-a-service?").framing  # nothing concrete to look up
    assert not _focus("why would anyone still pick an a100 over a 4090 for training").framing


def test_a_card_kb_lacks_leans_lexically_on_what_the_guide_says_of_its_maker() -> None:
    assert _focus("昇腾 310p 多少钱一张").words == ("其他厂商的AI芯片发展",)
    assert _focus("4 张 7900xtx 跑 70b 行吗").words == ("其他厂商的AI芯片发展",)
    assert "NVIDIA新一代GPU" in _focus("a5000 显存多大").words
    assert "专用AI加速器" in _focus("is groq faster than an h100 for llama 3 8b").words
    assert _focus("a100 显存多大").words == ()  # a card kb has a record of needs none


def test_a_case_named_in_other_words_leans_on_the_cases_words() -> None:
    assert "初创公司" in _focus("创业公司案例 用的什么卡").words
    assert _focus("创业公司案例 用的什么卡").terms == ()  # the dense side embeds no new term set


@pytest.mark.parametrize(("question", "sections"), [
    ("qwen2.5 14b 24 users at 8k on an h100, kv total?", {"guide-7.3"}),
    ("l40s 跑 llama 3 8b 单路一秒多少 token", {"guide-7.1"}),
    ("两张 4090 放得下 qwen2.5 32b int4 吗", {"guide-7.2"}),
    ("32 张 h100 训练 13b 1T token 要多久", {"guide-6.2", "guide-6.1"}),
    ("qlora qwen2.5 32b on one a800?", {"guide-6.1"}),
    ("预算 80 万 跑 70b 推理 买什么", {"guide-11.3"}),
    ("h100 显存带宽多少", set()),  # a card's figure: its sheet, nothing beside it
])
def test_the_guides_section_on_what_is_asked(question: str, sections: set[str]) -> None:
    assert asked_sections(read_query(question, REGISTRY)) == sections
