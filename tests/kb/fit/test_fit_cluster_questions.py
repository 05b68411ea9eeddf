"""Questions reach cluster-scale checks in both languages: nodes of GPUs, pinned TP/PP/ZeRO, FP8, serving replicas."""

from __future__ import annotations

import re

import pytest

from kb.engine import Engine
from kb.fit.request import parse_request
from tests.support.fit_engine_helpers import ENGINE, fit_checks_for_question


@pytest.mark.parametrize(("question", "gpu", "count", "workload"), [
    ("8 台 8 卡 H100 训练 70B 要多久（2T token）", "h100-sxm", 64, "full"),
    ("How long to train a 70B model on 8 nodes of 8 H100s on 2T tokens?", "h100-sxm", 64, "full"),
    ("16台8卡A100 预训练 llama 65b 1.4T token 多久", "a100-80gb", 128, "full"),
])
def test_nodes_of_gpus_are_one_cluster_with_a_multi_node_layout(question: str, gpu: str, count: int,
                                                                  workload: str) -> None:
    (check, *_), _ = fit_checks_for_question(question)
    assert (check.gpu, check.gpu_count, check.workload) == (gpu, count, workload)
    assert check.layout is not None and check.layout.nodes == count // 8
    assert check.layout.inter_node_link and check.layout.tp <= 8 and check.train_wall_hours


def test_the_compute_alone_is_kept_beside_the_time_its_communication_adds_to() -> None:
    # 512 × A800, 70B on 2T tokens: the model FLOPs (6·N + causal attention at 2,048 tokens, a token) × T ÷
    # (312 TFLOPS × 40 %) ÷ 512 GPUs is the compute's wall clock alone
    (check, *_), _ = fit_checks_for_question("512 张 a800 训练 llama 3 70b 2T token 要多久")
    attention = 3 * check.seq_len * 64 * (128 + 128) * 80  # causal: s/2 on average, × 3 for forward + backward
    compute = (6 * check.active_params + attention) * 2e12 / (312e12 * 0.40) / 512 / 3600
    assert check.train_compute_wall_hours == pytest.approx(compute, rel=1e-3)
    assert check.train_wall_hours is not None and check.train_wall_hours >= check.train_compute_wall_hours


@pytest.mark.slow
def test_a_training_time_says_the_compute_days_where_communication_adds_to_them(engine: Engine) -> None:
    a = engine.answer("1024 h800s pretraining llama 3 70b on 15t tokens - how long")
    assert a.fit_checks and re.search(r"^Training time: about 192\.\d days .* 184\.\d days of compute", a.answer)


def test_pinned_parallel_sizes_and_zero_reach_the_layout() -> None:
    (check, *_), _ = fit_checks_for_question("How long to train Llama 3 8B on 64 H100 on 1T tokens, TP 2 and ZeRO-1?")
    assert check.layout is not None and (check.layout.tp, check.zero_stage) == (2, 1)
    (check, *_), _ = fit_checks_for_question("64 张 H100 训练 llama 3 70b，张量并行 8，流水线并行 2，1T token 要多久")
    assert check.layout is not None and (check.layout.tp, check.layout.pp) == (8, 2)


@pytest.mark.parametrize("question", ["Llama 3 70B fp8 推理一张 H100 够吗", "Can one H100 serve Llama 3 70B in FP8?"])
def test_fp8_is_its_own_precision(question: str) -> None:
    (check, *_), _ = fit_checks_for_question(question)
    assert (check.gpu, check.precision, check.fits) == ("h100-sxm", "fp8", True)


def test_release_precision_and_serving_replicas_from_questions() -> None:
    (check, *_), _ = fit_checks_for_question("How many H200s for DeepSeek-V3?")
    assert (check.precision, check.gpu_count) == ("fp8", 8)
    (check, *_), _ = fit_checks_for_question("Serve Qwen2.5-32B to 4000 users on 64 H100s")
    assert check.serving is not None and check.serving.tensor_parallel <= 8 and check.serving.replicas >= 2


def test_answers_say_the_layout(engine: Engine) -> None:
    zh = engine.answer("8 台 8 卡 H100 训练 70B 要多久（2T token）")
    assert "并行布局：8 台 × 每台 8 卡" in zh.answer and "InfiniBand" in zh.answer
    en = engine.answer("Serve Qwen2.5-32B to 4000 users on 64 H100s")
    assert "Layout: 8 node(s) × 8 GPUs: TP 8 inside a node over NVLink 4, 8 replica(s)" in en.answer


@pytest.mark.parametrize("question", [
    "预算 25 万 想训练 qwen2.5 32b 买什么卡",
    "about 300k cny to train a 32b model in-house, what should we buy",
])
def test_training_that_fits_nothing_in_a_budget_ranks_the_adapters_and_says_so(question: str) -> None:
    _, sel = fit_checks_for_question(question)
    assert sel is not None and sel.rows and sel.fallback_from == "full" and sel.workload in ("lora", "qlora")
    assert not sel.tokens_stated and sel.train_tokens == 1e9  # hours are a billion tokens' when none are given


def test_pretraining_from_scratch_never_falls_back_to_adapters() -> None:
    _, sel = fit_checks_for_question("预算 25 万 从头预训练一个 32b 买什么卡")
    assert sel is not None and sel.workload == "full" and not sel.rows and sel.fallback_from is None


@pytest.mark.slow
def test_the_fallback_is_said_before_the_pick_and_hours_name_their_tokens(engine: Engine) -> None:
    a = engine.answer("about 300k cny to train a 32b model in-house, what should we buy").answer
    # the asked job's own verdict on the most memory the budget buys, then the fallback, then the pick
    assert re.search(r"^No: full training .*? of 32b .*?\[F1\]\. Nothing within the budget fits full training .* the "
                     r"nearest that works is (Q?LoRA)", a), a
    assert "hours a billion training tokens" in a and "stated tokens" not in a, a


@pytest.mark.parametrize(("question", "budget"), [
    ("产线上的工控机 每台五千以内 功耗越低越好 配什么显卡", 5000.0),
    ("a low-power card for a shop-floor kiosk, 4000 yuan max", 4000.0),
])
def test_a_low_power_pick_is_ranked_by_the_cards_power_within_the_budget(question: str, budget: float) -> None:
    _, sel = fit_checks_for_question(question)
    assert sel is not None and sel.budget_cny == budget and sel.ranked_by == "power" and sel.rows
    first = min(sel.rows, key=lambda r: r.rank_by_time)
    assert first.gpu == "rtx-4060" and first.gpu_count == 1 and first.power_w == 115


@pytest.mark.slow
def test_an_edge_pick_quotes_the_guides_edge_line_not_its_budget_band(engine: Engine) -> None:
    a = engine.answer("产线上的工控机 每台五千以内 功耗越低越好 配什么显卡").answer
    assert re.search(r"^预算内功耗最低：1 张 RTX 4060，115 W", a), a
    assert "边缘部署和特殊环境" in a and "8卡RTX 4090" not in a, a


@pytest.mark.parametrize("question", ["indie hacker, no budget set, which single gpu for local llms?",
                                      "自由职业 接活跑本地大模型 推荐哪张卡",
                                      "customer-service chatbot in real time, what card should it run on"])
def test_one_persons_pick_ranks_one_consumer_card_each_by_memory(question: str) -> None:
    _, sel = fit_checks_for_question(question)
    assert sel is not None and sel.ranked_by == "memory" and sel.budget_cny is None and sel.rows
    assert all(r.gpu_count == 1 and r.gpu.startswith("rtx-") for r in sel.rows)
    assert min(sel.rows, key=lambda r: r.rank_by_time).gpu == "rtx-4090"


@pytest.mark.slow
def test_one_persons_pick_leads_with_the_guides_line_for_their_level(engine: Engine) -> None:
    a = engine.answer("自由职业 接活跑本地大模型 推荐哪张卡").answer
    assert re.search(r"^指南对个人开发者的建议：对于专业应用，RTX 4090.*单张消费级显卡显存最大：1 张 RTX 4090", a), a


def test_the_largest_model_is_the_bisection_of_kbs_own_check_and_table_5_2_agrees() -> None:
    from kb.fit.largest import largest_size_b

    # table 5.2 (corpus/tables/table-5.2-memory.md) lists the RTX 4090's largest fp16 / int8 / int4 model
    assert [largest_size_b(ENGINE, "rtx-4090", "inference", p) for p in ("fp16", "int8", "int4")] == [10.2, 17.2, 38.2]
    checks, _ = fit_checks_for_question("两张 l40s 做 lora 最大能微调多大的模型")
    assert len(checks) == 1 and checks[0].fits and checks[0].workload == "lora" and checks[0].gpu_count == 2
    bigger = largest_size_b(ENGINE, "l40s", "lora", None, 2) + 0.1
    assert not ENGINE.numbers(parse_request(model=f"{bigger:.1f}b", workload="lora", gpu="l40s", count=2)).fits


@pytest.mark.slow
def test_the_largest_model_asked_of_a_card_is_said_per_format(engine: Engine) -> None:
    a = engine.answer("一张 4060 最多能跑多大的模型").answer
    assert re.search(r"^1 张 RTX 4060 上做 fp16 推理能放下的最大模型：约 2\.6B 参数.*"
                     r"int4 推理能放下的最大模型：约 8B", a), a


def test_an_edge_box_with_no_budget_ranks_one_consumer_card_each_by_power() -> None:
    _, sel = fit_checks_for_question("门店里的边缘盒子跑小模型 该配哪张卡")
    assert sel is not None and sel.ranked_by == "power" and sel.budget_cny is None
    assert min(sel.rows, key=lambda r: r.rank_by_time).gpu == "rtx-4060"
