"""Answers about the hardware people own, on the real corpus: a card kb has no figures for checked from the memory
said of it or told the memory it would need, offload's host memory judged, a format a card cannot compute said
with what runs instead, the whole need of a model that fits none of several cards, a term's definition from its
concept record, and no guide sentence that calls a memory enough beside a verdict that it is not."""

from __future__ import annotations

import re

import pytest

from kb.engine import Engine


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), [
    ("my titan rtx has 24GB - can it serve qwen2.5 14b in int8?", [r"no spec for the titan rtx.*24 GB you gave",
                                                                    r"^[^.]*\. Yes: inference of qwen2.5-14b in int8"]),
    ("P100 16G 能跑 7b int4 推理吗", [r"P100.*16 GB", r"能：qwen|能：7b"]),
])
def test_a_card_kb_lacks_is_checked_from_the_memory_said_of_it(engine: Engine, question: str,
                                                               facts: list[str]) -> None:
    a = engine.answer(question)
    assert a.fit_checks and a.coverage == "partial", a.answer
    for fact in facts:
        assert re.search(fact, a.answer, re.I), (fact, a.answer)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "need"), [
    ("could a quadro rtx 8000 run llama 3 8b?", r"needs about \d+\.\d GiB of memory a card"),
    ("两张 MI100 能推理 qwen2.5 32b 吗", r"按 2 张卡计（总共 [\d.,]+ GiB）每卡约需 [\d.]+ GiB 显存"),
])
def test_a_card_kb_lacks_without_its_memory_is_told_the_memory_it_would_need(engine: Engine, question: str,
                                                                            need: str) -> None:
    a = engine.answer(question)
    assert not a.fit_checks and re.search(need, a.answer), a.answer


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), [
    ("full training of qwen2.5 32b on 8 a100 80gb with zero-3, optimizer and params offloaded to cpu; each node "
     "has 512 GB of RAM - enough?", [r"^No: .* fits the GPUs .* more host memory than a node has",
                                      r"[\d,.]+ GiB of host memory a node against 512 GiB: does not fit"]),
    ("8 张 h100 全量训练 qwen2.5 14b，zero3 把优化器和参数都卸载到内存，每台 2T 内存够吗",
     [r"^能：", r"每台主机需要内存 [\d,.]+ GiB，每台有 2,048 GiB：放得下"]),
])
def test_offload_says_what_the_host_holds_against_the_memory_said(engine: Engine, question: str,
                                                                  facts: list[str]) -> None:
    a = engine.answer(question)
    assert a.fit_checks and a.fit_checks[0].offload is not None, a.answer
    for fact in facts:
        assert re.search(fact, a.answer), (fact, a.answer)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "fact"), [
    ("will bf16 fine-tuning of a 7b work on my old V100 32GB cards, 4 of them?",
     r"V100 32GB \(Volta, 7\.0\) cannot compute bf16 .* what runs instead is fp16"),
    ("T4 上用 bfloat16 推理 qwen2.5 7b 可以吗", r"T4（Turing，7\.5）不能用 bf16 做推理：可以改用 fp16"),
    ("is fp8 inference possible on an a100 40gb?", r"A100 40GB \(Ampere, 8\.0\) has no fp8 tensor cores: fp8 runs "
                                                    r"weight-only"),
    ("3090 能不能跑 fp8", r"RTX 3090（Ampere，8\.6）没有 fp8 张量核心"),
])
def test_a_format_a_card_cannot_compute_is_said_with_what_runs(engine: Engine, question: str, fact: str) -> None:
    a = engine.answer(question)
    assert re.search(fact, a.answer), a.answer


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), [
    ("deepseek-v2-lite? no - llama 3 70b in fp16 across 3 rtx 4090s, any chance?",
     [r"needs about [\d.]+ GiB in all: weights [\d.]+ GiB", r"Split over 3 GPUs", r"^(?!.*enough to support)"]),
    ("两张 4090 跑 qwen2.5 72b fp16 推理行吗", [r"总共约需 [\d.]+ GiB：权重 [\d.]+ GiB", r"^(?!.*足以)"]),
])
def test_a_model_that_fits_none_of_several_cards_says_its_whole_need_first(engine: Engine, question: str,
                                                                          facts: list[str]) -> None:
    a = engine.answer(question)
    for fact in facts:
        assert re.search(fact, a.answer, re.S), (fact, a.answer)


@pytest.mark.slow
@pytest.mark.parametrize(("question", "fact", "record"), [
    ("so what exactly is pipeline parallelism", r"layers", "concept-pipeline-parallelism"),
    ("NF4 是什么意思", r"4", "concept-bitsandbytes-nf4"),
    ("gqa vs mla, what's the difference for the kv cache?", r"(?i)key|kv", "concept-"),
    ("what does MFU mean", r"peak", "concept-mfu"),
])
def test_a_term_asked_what_it_is_leads_with_its_records_definition(engine: Engine, question: str, fact: str,
                                                                   record: str) -> None:
    a = engine.answer(question)
    first = re.split(r"(?<=\])[.。]\s*", a.answer)[0]
    cited = re.findall(r"\[(\d+)\]", first)
    assert cited and a.passages[int(cited[0]) - 1].id.startswith(record), (a.answer, [p.id for p in a.passages])
    assert re.search(fact, first), first
    assert a.coverage == "answered"
