"""Reading what people say about the hardware they have: a memory beside a card picks that record, a count may
stand before the memory, offload and the host's memory, every number format named, a time per token as a rate,
a count of tokens that is not a model's size, and training said only to be denied."""

from __future__ import annotations

import pytest

from kb.settings import Settings
from kb.understand.mentions import read_mentions
from kb.understand.names import registry_for
from kb.understand.read import read_query

REGISTRY = registry_for(Settings().corpus_dir)


def read(question: str):  # type: ignore[no-untyped-def]
    return read_query(question, REGISTRY)


@pytest.mark.parametrize(("question", "gpus"), [
    ("四张 V100 (32GB) 够不够全参微调 13b", [("v100-32gb", 4)]),
    ("a pair of A100 cards, 40GB each: qlora on 70b?", [("a100-40gb", 2)]),
    ("40G 的 A100 跑 qwen2.5 14b 推理", [("a100-40gb", None)]),
    ("three 24gb 3090s for llama 3 70b in 4 bit?", [("rtx-3090", 3)]),
    ("两块16g的v100 能推理 13b 吗", [("v100-16gb", 2)]),
    ("a100 80g 和 40g 的区别", [("a100-80gb", None), ("a100-40gb", None)]),
])
def test_a_memory_said_beside_a_card_picks_that_record_and_keeps_its_count(question: str, gpus: list) -> None:
    assert read(question).gpus == gpus


@pytest.mark.parametrize(("question", "what", "host"), [
    ("full training of a 34b on 8 h100s with zero-offload of the optimizer, 512 GB RAM per node", "optimizer", 512.0),
    ("zero3 把优化器和参数都 offload 到 CPU，主机内存 2T，8 张 a800 全量训练 70b 行不行", "params", 2048.0),
    ("ZeRO-Infinity to nvme for 175b on 16 a100s?", "params", None),
])
def test_offload_and_the_host_memory_are_read(question: str, what: str, host: float | None) -> None:
    q = read(question)
    assert q.offload == what and q.host_memory_gib == host and q.workloads == ["full"]


def test_the_host_memory_is_read_as_written_not_across_a_chinese_comma() -> None:
    assert read("zero-3-offload 全量微调 14b，batch为2，512G 内存，一张 a100").host_memory_gib == 512.0


def test_every_format_named_is_kept_and_the_first_is_the_precision() -> None:
    q = read("is bf16 or fp8 faster on an l40s for 8b inference")
    assert q.precision == "fp8" and {"bf16", "fp8"} <= set(q.formats)


@pytest.mark.parametrize(("question", "rate"), [
    ("mistral 7b on one l4 gives me 50 ms per token, is that slow?", 20.0),
    ("4090 跑 qwen2.5 7b 每个 token 要 25ms/token 正常吗", 40.0),
])
def test_a_time_per_token_is_read_as_a_rate(question: str, rate: float) -> None:
    rates = [m.value for m in read_mentions(question, REGISTRY) if m.kind == "rate"]
    assert rates and abs(rates[0] - rate) < 0.01


@pytest.mark.parametrize(("question", "model"), [
    ("train a model with 350M parameters on 30B tokens, one h100, how long", "0.35b"),
    ("数据一共 tokens 大约 20B，参数量 1.3B 的模型用 8 张 4090 要训多久", "1.3b"),
])
def test_a_count_of_tokens_is_not_the_models_size(question: str, model: str) -> None:
    assert read(question).model == model


@pytest.mark.parametrize(("question", "workloads"), [
    ("we will not train anything, only serve qwen2.5 14b on two l40s", ["inference"]),
    ("训练放云上，本地只推理 7b，买 a100 还是 4090", ["inference"]),
    ("pretrain a 1b from scratch on 4 4090s, full weights, no lora", ["full"]),
])
def test_training_denied_or_done_elsewhere_is_not_asked(question: str, workloads: list[str]) -> None:
    assert read(question).workloads == workloads
