"""Amounts of money as kb writes them: with thousands separators and their currency, in both languages."""

from __future__ import annotations

import pytest

from kb.words.answer import end
from kb.words.catalog import say
from kb.words.money import grouped, with_currency


@pytest.mark.parametrize(("text", "written"), [
    ("A100 40GB 的参考价格是 150000 元", "A100 40GB 的参考价格是 150,000 元"),
    ("150000 CNY vs 19000 CNY, 131000 CNY more", "150,000 CNY vs 19,000 CNY, 131,000 CNY more"),
    ("这张卡的国行首发价为12999元", "这张卡的国行首发价为12,999元"),
    ("¥230000 and $7800.50", "¥230,000 and $7,800.50"),
    ("19,000 CNY stays", "19,000 CNY stays"),
    ("RTX 4090, 2025 年, 8192 tokens, 1008 GB/s", "RTX 4090, 2025 年, 8192 tokens, 1008 GB/s"),
    ("1.9万元, 2399.5 CNY", "1.9万元, 2,399.5 CNY"),
])
def test_amounts_get_their_separators_and_nothing_else_changes(text: str, written: str) -> None:
    assert grouped(text) == written


@pytest.mark.parametrize(("quoted", "currency", "language", "stated"), [
    ("230000", "CNY", "en", "230,000 CNY"),
    ("230000", "CNY", "zh", "230,000 元"),
    ("7800", "USD", "en", "7,800 USD"),
    ("¥230000", "CNY", "en", "¥230,000"),
    ("23万元", "CNY", "en", "23万元"),
    ("$2.99/h", "USD", "en", "$2.99/h"),
    ("2.5", "CNY", "en", "2.5 CNY"),
])
def test_a_quoted_price_states_its_currency(quoted: str, currency: str, language: str, stated: str) -> None:
    assert with_currency(quoted, currency, language) == stated


def test_every_sentence_kb_says_writes_its_amounts_grouped() -> None:
    said = say("spec_row", "zh", gpu="A100", metric="参考价格", value="150000 元", source="指南", **{"is": "是"})
    assert said == "A100 的参考价格是 150,000 元（指南）"
    assert end("首发价为12999元", ["2"], "zh") == "首发价为12,999元 [2]。"
