"""Questions in Chinese and English parse to the intended fit check; questions that name nothing
checkable get none; half-specified ones get the check with the missing part assumed and said."""

from __future__ import annotations

import pytest

from tests.support.fit_engine_helpers import READER, fit_checks_for_question

# (question, gpus, model, workloads, precision, extra fields)
ZH = [
    ("能用一张4090 QLoRA微调13B模型吗？", [("rtx-4090", 1)], "13b", ["qlora"], None, {}),
    ("两张4090能跑700亿参数的模型推理吗", [("rtx-4090", 2)], "70b", ["inference"], None, {}),
    ("8卡A100训练70B模型够吗", [("a100-80gb", 8)], "70b", ["full"], None, {}),
    ("50万元预算做7B推理，选哪种卡？", [], "7b", ["inference"], None, {"budget_cny": 500_000}),
    ("预算20万，部署13B模型，买什么卡", [], "13b", ["inference"], None, {"budget_cny": 200_000}),
    ("四卡A100 40G全参数微调llama-2-13b", [("a100-40gb", 4)], "llama-2-13b", ["full"], None, {}),
    ("单卡4090用LoRA微调Llama 3 8B，显存够吗", [("rtx-4090", 1)], "llama-3-8b", ["lora"], None, {}),
    ("用4090推理13B模型，int4量化，上下文8K", [("rtx-4090", None)], "13b", ["inference"], "int4", {"seq_len": 8192}),
    ("半精度推理70B需要几张A100 80GB", [("a100-80gb", None)], "70b", ["inference"], "fp16", {"how_many": True}),
    ("用2万亿token训练7B模型需要多少张A100", [("a100-80gb", None)], "7b", ["full"], None,
     {"tokens": 2e12, "how_many": True}),
    ("双卡4090部署Llama-2-70B 4bit可以吗", [("rtx-4090", 2)], "llama-2-70b", ["inference"], "int4", {}),
    ("RTX 4080 跑7B模型 INT8 推理速度多少", [("rtx-4080", None)], "7b", ["inference"], "int8", {}),
    ("在H100上预训练4050亿参数模型要多少卡", [("h100-sxm", None)], "405b", ["full"], None, {"how_many": True}),
    ("4060 Ti 16GB能QLoRA微调7B吗", [("rtx-4060-ti-16gb", None)], "7b", ["qlora"], None, {}),
    ("RTX 4070 Ti 推理 3B 模型 fp16", [("rtx-4070-ti", None)], "3b", ["inference"], "fp16", {}),
    ("三张4090 推理130亿参数模型 批量8", [("rtx-4090", 3)], "13b", ["inference"], None, {"batch": 8}),
    ("8张RTX 4090用ZeRO-3全量训练13B", [("rtx-4090", 8)], "13b", ["full"], None, {"zero": 3}),
    ("A100 80GB 推理llama-3-70b，上下文长度32k，bf16", [("a100-80gb", None)], "llama-3-70b", ["inference"],
     "bf16", {"seq_len": 32768}),
    ("100万预算训练13B模型，1000亿token，选什么GPU", [], "13b", ["full"], None,
     {"budget_cny": 1_000_000, "tokens": 1e11}),
    ("一块4060能不能8bit推理7B", [("rtx-4060", 1)], "7b", ["inference"], "int8", {}),
    ("最多4张卡，预算30万，推理70B模型选哪个", [], "70b", ["inference"], None, {"budget_cny": 300_000, "max_gpus": 4}),
    ("4090x2 微调 65B QLoRA", [("rtx-4090", 2)], "65b", ["qlora"], None, {}),
]
EN = [
    ("Can I fine-tune a 13B model with QLoRA on one RTX 4090?", [("rtx-4090", 1)], "13b", ["qlora"], None, {}),
    ("How many A100 80GB do I need to fully train a 70B model?", [("a100-80gb", None)], "70b", ["full"], None,
     {"how_many": True}),
    ("2x A100 80G for llama 2 70b inference", [("a100-80gb", 2)], "llama-2-70b", ["inference"], None, {}),
    ("Is a pair of 4090s enough for 13B LoRA?", [("rtx-4090", 2)], "13b", ["lora"], None, {}),
    ("eight A100s for a full fine-tune of Llama 3 70B on 1T tokens", [("a100-80gb", 8)], "llama-3-70b", ["full"],
     None, {"tokens": 1e12}),
    ("$30,000 budget for 13B inference, which GPU?", [], "13b", ["inference"], None, {"budget_cny": 216_000}),
    ("¥200k for 7B inference: what card should I buy?", [], "7b", ["inference"], None, {"budget_cny": 200_000}),
    ("Serve a 70 billion parameter model in int4 on two RTX 4090s", [("rtx-4090", 2)], "70b", ["inference"],
     "int4", {}),
    ("32k context 70B fp16 on H100 x4", [("h100-sxm", 4)], "70b", [], "fp16", {"seq_len": 32768}),
    ("Can a single RTX 4090 run Llama-2-13B in 8-bit?", [("rtx-4090", 1)], "llama-2-13b", ["inference"], "int8", {}),
    ("Full fine-tuning a 7B model on one 4090: does it fit?", [("rtx-4090", 1)], "7b", ["full"], None, {}),
    ("QLoRA 65B on an A100 40GB", [("a100-40gb", 1)], "65b", ["qlora"], None, {}),
    ("inference of a 6.7e9 model with batch size 16 on a 4080", [("rtx-4080", 1)], "6.7e9", ["inference"], None,
     {"batch": 16}),
    ("Pretraining Llama 3.1 405B on 2 trillion tokens: how many H100s?", [("h100-sxm", None)], "llama-3.1-405b",
     ["full"], None, {"tokens": 2e12, "how_many": True}),
    ("LoRA on llama-3-8b with 4096 tokens context using one A100 40GB", [("a100-40gb", 1)], "llama-3-8b", ["lora"],
     None, {"seq_len": 4096}),
    ("Can four RTX 4070s serve a 13B model in fp16?", [("rtx-4070", 4)], "13b", ["inference"], "fp16", {}),
    ("What's the decode speed of 7B nf4 on a 4060?", [("rtx-4060", 1)], "7b", ["inference"], "nf4", {}),
    ("Train a 1.3B model from scratch on 100B tokens with a 4070 Ti", [("rtx-4070-ti", 1)], "1.3b", ["full"], None,
     {"tokens": 1e11}),
    ("Budget of 500k CNY for training a 13B model, which GPU should I get?", [], "13b", ["full"], None,
     {"budget_cny": 500_000}),
    ("Latency of llama-2-7b in bf16 on an A100 80GB with a 2048 context", [("a100-80gb", 1)], "llama-2-7b",
     ["inference"], "bf16", {"seq_len": 2048, "latency": True}),
    ("Up to 8 GPUs, 70B QLoRA, which card is cheapest?", [], "70b", ["qlora"], None, {"max_gpus": 8}),
    ("a dozen 4090s for serving 70B at 8bit", [("rtx-4090", 12)], "70b", ["inference"], "int8", {}),
]


@pytest.mark.parametrize(("question", "gpus", "model", "workloads", "precision", "extra"), ZH + EN,
                         ids=[q for q, *_ in ZH + EN])
def test_question_parses(question: str, gpus: list[tuple[str, int | None]], model: str, workloads: list[str],
                         precision: str | None, extra: dict[str, object]) -> None:
    q = READER.read(question, "en")
    assert q.gpus == gpus
    assert q.model == model
    assert q.workloads == workloads
    assert q.precision == precision
    for key, value in extra.items():
        assert getattr(q, key) == pytest.approx(value) if isinstance(value, float) else getattr(q, key) == value, key


def test_at_least_twenty_phrasings_each_language() -> None:
    assert len(ZH) >= 20 and len(EN) >= 20


@pytest.mark.parametrize("question", [
    "RTX 4090 的显存带宽是多少？", "What is NVLink?", "A100和4090哪个更适合做研究？", "How much does an A100 cost?",
    "Which GPU is best for LLMs?", "",
])
def test_nothing_checkable_gets_no_check(question: str) -> None:
    assert fit_checks_for_question(question, "zh") == ([], None)


def test_a_budget_without_a_model_gets_what_it_buys_not_a_fit_check() -> None:
    """kb will not guess a model: a bare budget gets each priced kind at the most cards it buys, by total memory."""
    checks, sel = fit_checks_for_question("50万预算买什么卡？", "zh")
    assert checks == [] and sel is not None and sel.ranked_by == "memory" and sel.model == ""
    assert all(r.capex_cny <= 500_000 for r in sel.rows) and sel.rows
    totals = [r.gpu_count * (r.per_gpu_available_bytes or 0) for r in sorted(sel.rows, key=lambda r: r.rank_by_time)]
    assert totals == sorted(totals, reverse=True)
    assert any("H100 SXM" in e for e in sel.excluded)  # unpriced kinds are left out, with why (by name)


def test_half_specified_gets_check_with_assumptions() -> None:
    checks, sel = fit_checks_for_question("4090能跑13B吗", "zh")
    assert sel is None and len(checks) == 1
    a = " ".join(checks[0].assumptions)
    assert "未给出张数" in a and "未给出精度" in a and "未给出上下文长度" in a
    checks, _ = fit_checks_for_question("4090能跑13B吗", "en")  # the same assumptions, said in English
    a = " ".join(checks[0].assumptions)
    assert "no count given" in a and "precision not given" in a and "sequence length not given" in a
    checks, _ = fit_checks_for_question("Can I run a 7B model?", "en")
    assert {c.gpu for c in checks} == {"a100-80gb", "rtx-4090"}
    assert any("no GPU named" in x for x in checks[0].assumptions)
    checks, _ = fit_checks_for_question("A100能训练7B吗", "zh")
    assert checks[0].gpu == "a100-80gb" and any("按 A100 80GB 计" in x for x in checks[0].assumptions)
    checks, _ = fit_checks_for_question("A100能训练7B吗", "en")
    assert any("A100 80GB assumed" in x for x in checks[0].assumptions)


def test_fine_tune_without_method_checks_full_and_lora() -> None:
    checks, _ = fit_checks_for_question("能用4090微调7B吗", "zh")
    assert [(c.workload, c.fits) for c in checks] == [("full", False), ("lora", True)]


def test_how_many_reports_the_fewest_that_fit() -> None:
    checks, _ = fit_checks_for_question("How many A100 80GB do I need to fully train a 70B model?", "en")
    (c,) = checks
    assert c.fits and c.gpu_count == c.min_gpus and c.zero_stage == 3
    assert any("ZeRO stage 3 over 16 data-parallel GPU(s)" in x for x in c.assumptions)  # the search's choice, said


def test_budget_question_gets_a_ranked_selection() -> None:
    checks, sel = fit_checks_for_question("50万预算做7B推理，选哪种卡？", "zh")
    assert sel is not None and sel.budget_cny == 500_000 and sel.rows
    assert all(r.capex_cny <= 500_000 for r in sel.rows)
    assert sorted(r.rank_by_time for r in sel.rows) == list(range(1, len(sel.rows) + 1))
    assert {"guide-11.2", "guide-11.3", "guide-11.4"} <= set(sel.guidance)
    assert any(e.startswith("H100 SXM") for e in sel.excluded)
    assert all(r.gpu_count <= 8 for r in sel.rows if r.gpu.startswith("rtx"))
    assert checks and all(c.fits for c in checks)


def test_usd_budget_is_converted_and_said() -> None:
    _, sel = fit_checks_for_question("$30,000 budget for 13B inference, which GPU?", "en")
    assert sel is not None and sel.budget_cny == pytest.approx(216_000)
    assert any("7.2 CNY a USD" in a for a in sel.assumptions)
