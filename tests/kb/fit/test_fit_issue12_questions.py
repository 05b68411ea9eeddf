"""Questions naming today's models and GPUs (issue 12): every preset in models.md and every GPU id in gpus.md
is recognised in Chinese and English; unknown names are said to be unknown, never read as something else."""

from __future__ import annotations

import pytest

from tests.support.fit_engine_helpers import ENGINE, READER, for_question

# (question, model preset, GPUs with counts)
CASES = [
    ("Can I run Mixtral 8x7B on two 4090s in int4?", "mixtral-8x7b", [("rtx-4090", 2)]),
    ("两张4090能跑Mixtral 8x7B吗", "mixtral-8x7b", [("rtx-4090", 2)]),
    ("Mixtral-8x22B inference on 4 H100", "mixtral-8x22b", [("h100-sxm", 4)]),
    ("8张A100推理Mixtral 8x22B", "mixtral-8x22b", [("a100-80gb", 8)]),
    ("How many H200 do I need for DeepSeek V3?", "deepseek-v3", [("h200", None)]),
    ("DeepSeek-V3 推理要几张 B200", "deepseek-v3", [("b200", None)]),
    ("deepseek r1 on 8 mi300x", "deepseek-r1", [("mi300x", 8)]),
    ("Qwen2.5 7B on an L4", "qwen2.5-7b", [("l4", 1)]),
    ("L4 能跑千问7B吗", "qwen2.5-7b", [("l4", None)]),
    ("Qwen2.5-14B on one RTX 4090", "qwen2.5-14b", [("rtx-4090", 1)]),
    ("通义千问2.5-14B 用 L40S 推理", "qwen2.5-14b", [("l40s", None)]),
    ("Qwen2.5-32B bf16 on A100 80GB", "qwen2.5-32b", [("a100-80gb", None)]),
    ("千问32B能在RTX 5090上跑吗", "qwen2.5-32b", [("rtx-5090", None)]),
    ("Qwen2.5 72B on two H100s", "qwen2.5-72b", [("h100-sxm", 2)]),
    ("千问72B能在两张L40S上跑吗", "qwen2.5-72b", [("l40s", 2)]),
    ("通义千问72B 需要几张A100", "qwen2.5-72b", [("a100-80gb", None)]),
    ("Qwen3-8B on an RTX 4060 Ti", "qwen3-8b", [("rtx-4060-ti-16gb", 1)]),
    ("千问3 8B 用 4070 推理", "qwen3-8b", [("rtx-4070", None)]),
    ("Qwen3-32B on an RTX 6000 Ada", "qwen3-32b", [("rtx-6000-ada", 1)]),
    ("Qwen3 32B 在 Gaudi 3 上推理", "qwen3-32b", [("gaudi-3", None)]),
    ("Qwen3-30B-A3B on an RTX 4090", "qwen3-30b-a3b", [("rtx-4090", 1)]),
    ("千问3-30B-A3B 用一张L4", "qwen3-30b-a3b", [("l4", 1)]),
    ("Qwen3-235B-A22B on 8 H200", "qwen3-235b-a22b", [("h200", 8)]),
    ("MI300X 跑 Qwen3-235B-A22B", "qwen3-235b-a22b", [("mi300x", None)]),
    ("Llama 3.1 8B on an RTX 5090", "llama-3.1-8b", [("rtx-5090", 1)]),
    ("4080 能跑 Llama 3.1 8B 吗", "llama-3.1-8b", [("rtx-4080", None)]),
    ("Llama 3.1 70B on 2 A100 80GB", "llama-3.1-70b", [("a100-80gb", 2)]),
    ("Llama-3.1-70B 要几张 H200", "llama-3.1-70b", [("h200", None)]),
    ("Llama 3.1 405B on 16 H100", "llama-3.1-405b", [("h100-sxm", 16)]),
    ("Llama 3.1 405B 用 8 张 MI300X", "llama-3.1-405b", [("mi300x", 8)]),
    ("Llama-4 Scout on one H100?", "llama-4-scout", [("h100-sxm", 1)]),
    ("Llama 4 Scout 用两张 L40S", "llama-4-scout", [("l40s", 2)]),
    ("Llama 4 Maverick on 8 H200", "llama-4-maverick", [("h200", 8)]),
    ("Llama-4-Maverick 需要几张B200", "llama-4-maverick", [("b200", None)]),
    ("Gemma 2 9B on L4", "gemma-2-9b", [("l4", None)]),
    ("Gemma-2-9B 用 4070 Ti 推理", "gemma-2-9b", [("rtx-4070-ti", None)]),
    ("Gemma 2 27B on an RTX 6000 Ada", "gemma-2-27b", [("rtx-6000-ada", 1)]),
    ("Gemma-2-27B 能在 Gaudi 3 上跑吗", "gemma-2-27b", [("gaudi-3", None)]),
    ("Mistral 7B on an RTX 4060", "mistral-7b", [("rtx-4060", 1)]),
    ("Mistral-7B 用 A100 40GB 微调", "mistral-7b", [("a100-40gb", None)]),
    ("RTX 5090 vs L40S for Llama 3 8B", "llama-3-8b", [("rtx-5090", None), ("l40s", None)]),
    ("H200 和 B200 哪个更适合 Llama 3 70B", "llama-3-70b", [("h200", None), ("b200", None)]),
    ("Intel Gaudi3 for Llama 2 13B", "llama-2-13b", [("gaudi-3", None)]),
    ("AMD Instinct MI300X for Llama 2 70B", "llama-2-70b", [("mi300x", None)]),
    ("NVIDIA L40S 跑 13B", "13b", [("l40s", None)]),
]


@pytest.mark.parametrize(("question", "model", "gpus"), CASES)
def test_question_names_the_right_model_and_gpus(question: str, model: str, gpus: list[tuple[str, int | None]]) -> None:
    q = READER.read(question, "en")
    assert q.model == model
    assert q.gpus == gpus
    assert not q.unknown_models and not q.unknown_gpus


def test_cases_name_every_preset_and_every_gpu() -> None:
    models = {m for _, m, _ in CASES}
    gpus = {g for _, _, gs in CASES for g, _ in gs}
    reference = {"mixtral-8x7b", "mixtral-8x22b", "deepseek-v3", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
                 "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b", "llama-3.1-8b",
                 "llama-3.1-70b", "llama-3.1-405b", "llama-4-scout", "llama-4-maverick", "gemma-2-9b", "gemma-2-27b",
                 "mistral-7b"}
    assert reference <= models
    issue37 = {"rtx-3090", "rtx-3090-ti", "rtx-3080", "rtx-3060-12gb", "rtx-4090-d", "rtx-5080", "rtx-5070-ti",
               "rtx-a6000", "a40", "a10", "l20", "t4", "p40", "v100-16gb", "v100-32gb", "h100-pcie", "h100-nvl",
               "a800-pcie", "mi250x", "ascend-910b"}  # (held to questions by tests/kb/understand/test_query.py)
    # issue 16's cards: the question work names them
    assert set(ENGINE.gpus) - {"h800", "a800", "h20"} - issue37 <= gpus
    assert len(CASES) >= 40


@pytest.mark.parametrize(("question", "unknown"), [
    ("Can an RTX 2080 Ti run Llama 3 8B?", ["RTX 2080 Ti"]),
    ("RX 7900 XTX for 13B?", ["RX 7900 XTX"]),
    ("Can GPT-4 run on an A100?", ["GPT-4"]),
    ("P100 能跑 7B 吗", ["P100"]),
    ("Claude 3 on H100", ["Claude 3"]),
])
def test_unknown_names_are_said_and_never_substituted(question: str, unknown: list[str]) -> None:
    found = for_question(question, "en")
    assert found.unknown == unknown
    assert found.checks == []  # no check on the A100 and 4090 in place of a card kb does not know


def test_unknown_model_with_a_known_gpu_lists_the_gpu() -> None:
    found = for_question("Can GPT-4 run on an A100?", "en")
    assert found.gpus == ["a100-80gb"] and found.models == [] and found.unknown == ["GPT-4"]


def test_a_name_that_states_its_size_is_checked_at_that_size() -> None:
    found = for_question("Falcon 180B on 8 H200", "en")
    assert found.unknown == ["Falcon 180B"] and found.models == ["180b"]  # named as unknown, checked by its size
    (check,) = found.checks
    assert check.model_params == 180_000_000_000 and check.gpu == "h200" and check.gpu_count == 8
    assert any("Falcon 180B" in a and "180B" in a for a in check.assumptions)


def test_mixtral_is_checked_as_mixtral_not_as_7b() -> None:
    (check,) = for_question("Can I run Mixtral 8x7B on two 4090s in int4?", "en").checks
    assert check.model == "mixtral-8x7b" and check.model_params > 46e9 and check.active_params < 13e9


def test_four_4090s_llama_3_70b_says_int8_fits_on_the_same_cards() -> None:
    (check,) = for_question("Can four RTX 4090s run Llama 3 70B?", "en").checks
    assert not check.fits and check.precision == "fp16"
    alt = check.alternatives[0]
    assert (alt.change, alt.precision, alt.gpu_count, alt.fits) == ("precision", "int8", 4, True)
    assert alt.per_gpu_required_bytes / 2**30 == pytest.approx(20.2, abs=0.05)


def test_500_concurrent_users_needs_about_ten_a100s_not_eighteen() -> None:
    q = "Should I buy A100s or 4090s for serving Llama 3 70B to 500 concurrent users?"
    checks = for_question(q, "en").checks
    a100 = next(c for c in checks if c.gpu == "a100-80gb")
    assert a100.serving is not None and a100.serving.concurrency == 500
    assert a100.breakdown.activations < 3 * 2**30  # chunked prefill, not 500 × 4,096 tokens at once
    # ~10 GPUs of memory; issue 16 keeps TP inside a node and counts whole nodes beyond one, so 2 nodes of 8.
    assert (a100.min_gpus or 0) == 16


def test_heads_that_tensor_parallelism_cannot_split_leave_the_other_gpus_as_pipeline_stages() -> None:
    """An estimated 40B has 53 heads: TP 1 only, so two cards hold it as two pipeline stages, not two copies."""
    (check,) = for_question("40b int4 on 2 rtx 4090", "en").checks
    assert check.fits and check.layout.tp == 1 and check.layout.pp == 2 and check.min_gpus == 2
