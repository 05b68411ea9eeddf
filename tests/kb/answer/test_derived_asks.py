"""Quantities derived from the subject's figures that no slot holds — energy over a span, a gradient all-reduce's
time, a price per GB, a card's share — asked outright or as a follow-up of the conversation's cards."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.engine import Engine
from kb.errors import BadInput
from kb.fit.speed import gradient_allreduce
from kb.understand.intent import derived_ask
from kb.understand.query import from_state


@pytest.mark.parametrize(("question", "derived"), [
    ("16 张 h800 做数据并行，每步梯度 all-reduce 耗时多少", "grad_sync"),
    ("roughly how many seconds to sync gradients across 4 l40s?", "grad_sync"),
    ("4080 每 g 显存多少钱", "per_gb"),
    ("l40s fp8 tflops per kw", "per_kw"),
    ("h100 的 bf16 算力是多少", None),
    ("how long to train llama 3 8b on 8 a100s", None),  # a training time, not a sync
])
def test_the_derived_quantity_a_question_asks(question: str, derived: str | None) -> None:
    assert derived_ask(question) == derived


def test_a_ring_all_reduce_is_two_n_minus_one_over_n_of_the_gradients() -> None:
    grads, moved, seconds = gradient_allreduce(7e9, 4, 100.0)
    assert grads == 14e9
    assert moved == pytest.approx(2 * 3 / 4 * 14e9)
    assert seconds == pytest.approx(21e9 / 100e9)
    assert gradient_allreduce(7e9, 1, 100.0)[1:] == (0.0, 0.0)


def test_a_state_with_an_unknown_derived_quantity_is_refused() -> None:
    with pytest.raises(BadInput, match="derived"):
        from_state({"gpus": [], "derived": "per_banana"})
    assert from_state({"gpus": [{"id": "a100-80gb", "count": 2}], "derived": "per_gb"}).derived == "per_gb"


@pytest.fixture(scope="module")
def ask(engine: Engine) -> Any:
    return lambda question, history=None: engine.answer(question, history=history)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "pattern"), [
    # 3 × 350 W × 720 h = 756 kWh a month; 2 × 700 W × 24 h = 33.6 kWh a day
    ("3 张 l40s 满载一个月用电量多少 kwh", r"^3 张 L40S 按 TDP 350 W.{0,12}一个月（720 小时）约耗电 756 kWh"),
    ("two h100s running flat out - energy use per day in kwh?", r"^2 × H100 SXM at 700 W.{0,40}about 33\.6 kWh a day"),
])
def test_energy_over_a_span_is_kwh_and_its_bill(ask: Any, question: str, pattern: str) -> None:
    assert re.search(pattern, ask(question).answer)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "pattern"), [
    # H800: 400 GB/s NVLink → 200 each way; 16 cards: 2 × 15/16 × 13.48 GB = 25.27 GB → 0.13 s
    ("16 张 h800 做数据并行，每步梯度 all-reduce 耗时多少",
     r"^16 张 H800 同步一次 Llama 2 7B 的梯度.*25\.27 GB.*200 GB/s.*约需 0\.13 秒"),
    # L40S: no NVLink, PCIe 4.0 64 GB/s two-way → 32 each way; 4 cards: 2 × 3/4 × 13.48 = 20.21 GB → 0.63 s
    ("roughly how many seconds to sync gradients across 4 l40s?",
     r"^One gradient all-reduce of Llama 2 7B on 4 × L40S.*20\.2[12] GB.*over PCIe at 32 GB/s.*about 0\.63 s"),
])
def test_a_gradient_all_reduce_is_timed_on_the_cards_own_link(ask: Any, question: str, pattern: str) -> None:
    answer = ask(question).answer
    assert re.search(pattern, answer), answer
    assert "tokens/s" not in answer  # not the decode rate of a serving check


@pytest.mark.slow
def test_a_named_models_gradients_are_its_own_and_no_fit_check_comes_with_them(ask: Any) -> None:
    # Qwen2.5-14B: 14.77e9 params × 2 B = 29.54 GB; 8 × A100 (600 GB/s NVLink, 300 each way): 2 × 7/8 → 51.7 GB
    a = ask("8 张 a100 上 qwen2.5 14b 的梯度同步一次要多久")
    assert re.search(r"qwen2\.5-14b 的梯度：bf16 梯度共 29\.5\d GB.*300 GB/s", a.answer), a.answer
    assert a.fit_checks == []


@pytest.mark.slow
@pytest.mark.parametrize(("history", "question", "pattern"), [
    (["我们有 4 张 h100 的机器"], "同步一次梯度多久", r"4 张 H100 SXM 同步一次.*450 GB/s"),
    (["how much is an rtx 4080"], "and per gb of vram?", r"RTX 4080's price per GiB of memory: 9,499 CNY ÷ 16 GiB"),
    (["两张 4090 跑 qwen2.5 32b int4 行不行"], "那每卡呢", r"分到 2 张卡上，每卡约"),
    (["6 张 4090 的总功耗"], "一年算下来多少度电", r"6 张 RTX 4090.*一年（8,760 小时）约耗电 23,652 kWh"),
    # the cards a budget bought: 80,000 // 6,499 = 12 × RTX 4070 Ti, 12 × 12 GiB = 144 GiB
    (["八万块全买 4070ti 能买几张"], "这批卡显存一共多大", r"12 张 RTX 4070 Ti 的显存合计 12 × 12 GiB = 144 GiB"),
])
def test_a_follow_up_asks_the_derived_quantity_of_the_earlier_cards(ask: Any, history: list[str], question: str,
                                                                     pattern: str) -> None:
    answer = ask(question, history)
    assert re.search(pattern, answer.answer), answer.answer
    assert answer.carried


@pytest.mark.slow
def test_a_bare_7b_is_synced_as_the_tables_own_7b(ask: Any) -> None:
    # table 5.3: 8 × RTX 4090 over PCIe, Llama 2 7B's 13.48 GB of bf16 gradients → 0.74 s
    answer = ask("ideally how long does it take 8 rtx 4090s to all-reduce the gradients of a 7b model").answer
    assert re.search(r"13\.48 GB.*about 0\.74 s", answer), answer


@pytest.mark.slow
def test_how_many_cards_a_dearer_one_buys_and_their_sum(ask: Any) -> None:
    # 150,000 // 9,499 = 15 RTX 4080s; 15 × 16 GiB = 240 GiB
    answer = ask("for the price of one a100, how many 4080s could i get and what's their total vram").answer
    assert re.search(r"15 × RTX 4080.*15 × 16 GiB = 240 GiB", answer), answer
