"""kb/understand/terms.py and mentions.py: the vocabulary found as words, amounts read with their units, and a
negation scoping only what stands right after it — each in several phrasings, Chinese and English."""

from __future__ import annotations

import pytest

from kb.understand.mentions import Mention
from kb.understand.terms import terms
from tests.support.fit_engine_helpers import READER


def _of(question: str, kind: str) -> list[Mention]:
    return [m for m in READER.mentions(question) if m.kind == kind]


@pytest.mark.parametrize("text", ["fine-tune", "fine tune", "finetune", "Fine_Tune", "微调"])
def test_a_term_with_a_space_matches_any_spacing_and_case(text: str) -> None:
    assert terms("workloads.yaml").first(f"we want to {text} it", "workload") == "fine-tune"


def test_the_longest_term_wins_and_words_match_whole() -> None:
    found = terms("attributes.yaml").find("显存带宽 vs memory bandwidth, and the program's ram")
    assert [(h.kind, h.key) for h in found] == [("attribute", "bandwidth"), ("attribute", "bandwidth")]


@pytest.mark.parametrize(("question", "hours"), [
    ("16 L40S running 24/7 for 90 days", 2160.0),
    ("4 a100s flat out for two weeks", 336.0),
    ("12x 4090 over 3 years", 26280.0),
    ("4张H100连续训练（按30天算）", 720.0),
    ("跑两个月", 1460.0),
])
def test_a_span_with_its_number_is_read_in_hours(question: str, hours: float) -> None:
    assert [m.value for m in _of(question, "duration")] == [pytest.approx(hours)]


@pytest.mark.parametrize("question", ["一张b200跑满一年", "a month of power", "1 year at full load"])
def test_a_span_of_one_unit_is_a_span_word_not_a_worked_out_figure(question: str) -> None:
    assert _of(question, "duration") == [] and _of(question, "span")


@pytest.mark.parametrize(("question", "kind", "key", "cny"), [
    ("at $0.12/kWh", "energy_price", "usd", 0.864),
    ("电价0.65元/度", "energy_price", "cny", 0.65),
    ("一块钱一度", "energy_price", "cny", 1.0),
    ("8x H100 SXM at $2.50 per GPU-hour", "rent", "usd", 18.0),
    ("租金 12 元/卡/时", "rent", "cny", 12.0),
    ("budget is ¥300,000", "money", "cny", 300_000.0),
])
def test_money_is_read_with_what_it_is_per_and_kept_in_cny(question: str, kind: str, key: str, cny: float) -> None:
    (m,) = _of(question, kind)
    assert (m.key, m.value) == (key, pytest.approx(cny))


@pytest.mark.parametrize(("question", "kind", "value"), [
    ("getting like 7 tok/s on qwen2.5 14b", "rate", 7.0),
    ("实测单路45 token/s", "rate", 45.0),
    ("we see ~35k tokens/s total", "rate", 35_000.0),
    ("一天才跑了20B token", "tokens", 20e9),
    ("about 2B tokens a day", "throughput", 2e9 / 24),
])
def test_what_a_run_produced_is_read_as_a_rate_or_tokens(question: str, kind: str, value: float) -> None:
    assert [m.value for m in _of(question, kind)] == [pytest.approx(value)]


@pytest.mark.parametrize(("question", "negated"), [
    ("can 2x 4090 train a 7b from scratch, full params not lora", {"lora"}),
    ("全参微调Llama 3 70B（不要LoRA，他坚持full fine-tuning）", {"lora"}),
    ("LoRA rather than QLoRA please", {"qlora"}),
    ("不考虑上云。用LoRA大概要多少显存", set()),  # (the cloud is ruled out; the stop ends the negation's reach)
    ("no budget for more, lora on one 4090", set()),  # (a negation with another word in between)
])
def test_a_negation_scopes_only_the_workload_right_after_it(question: str, negated: set[str]) -> None:
    assert {m.key for m in _of(question, "workload") if m.negated} == negated


@pytest.mark.parametrize(("question", "workloads"), [
    ("can 2x 4090 train a 7b from scratch, full params not lora", ["full"]),
    ("领导想全参微调70B，不要LoRA", ["full"]),
    ("想在一张4090上 lora（不是qlora）微调 qwen2.5 14b", ["lora"]),
])
def test_the_query_leaves_out_a_workload_ruled_out(question: str, workloads: list[str]) -> None:
    assert READER.read(question, "zh").workloads == workloads


@pytest.mark.parametrize(("question", "key"), [
    ("the cheaper option, how many?", "cheaper"), ("后者的显存带宽呢", "second"),
    ("what's the TDP of the second one?", "second"), ("that card - its nvlink bandwidth?", "that"),
])
def test_pointers_back_at_the_conversation(question: str, key: str) -> None:
    assert [m.key for m in _of(question, "pointer")] == [key]
