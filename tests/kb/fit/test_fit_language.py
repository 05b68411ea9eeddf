"""Chinese questions get Chinese prose: a check in zh and in en differs in its words, never in its numbers.

For each kind of check (inference, full training with ZeRO, LoRA, QLoRA, a bare size with an estimated
shape, a budget selection) the zh result has the same figures as the en one, every zh sentence is
Chinese, no English sentence leaks through, and each zh sentence carries exactly the numbers of the
en sentence it stands for. English stays as it was.
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter

import pytest
from click.testing import CliRunner

from kb.cli.fit import fit
from kb.errors import BadInput
from kb.fit.request import parse_request
from kb.fit.result import FitResult
from kb.language import LANGUAGES
from kb.words.answer import gpu_name
from kb.words.catalog import say
from kb.words.catalog.fit import FIT as MESSAGES
from tests.support.fit_engine_helpers import ENGINE, check_fit, fit_checks_for_question

NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?(?:e[+-]?\d+)?")
CJK = re.compile(r"[\u4e00-\u9fff]")
# English that must never reach a Chinese answer (the words of the old English-only prose).
LEAKS = (" a GPU", "assumed", "not given", " the ", "GPU(s)", "sequence(s)", "verdict", "required", "available",
         "headroom", " layers", " params", "does not fit", "cards only", "no count", "read from", "wall-clock",
         "needs ", "over the budget")
# What may stay Latin inside Chinese prose: units, terms of art, paper and product names, formula letters.
ALLOWED_LATIN = {
    "GiB", "GB", "TFLOPS", "TDP", "W", "B", "CNY", "FLOP", "MFU", "KV", "ZeRO", "FFN", "LoRA", "QLoRA", "Adam",
    "PEFT", "CUDA", "FlashAttention", "Korthikanti", "et", "al", "logits", "vocab", "token", "GPU", "GeForce",
    "NVLink", "PCIe", "NVIDIA", "RTX", "Ti", "Llama", "kb", "gate", "up", "down", "s", "b", "h", "a", "q", "k",
    "v", "o", "r", "N", "T", "K",
    # issue 12: serving, MoE/MLA and tensor-parallel vocabulary (names, identifiers and formula letters)
    "vLLM", "max", "num", "batched", "tokens", "t", "MoE", "MLA", "rope", "DeepSeek", "V", "inference", "model", "py",
    "E", "all", "reduce", "Offload", "CPU", "ms", "µs", "L", "d", "HBM", "min",
    # issue 16: capacity, links, layouts and number formats
    "MiB", "ECC", "GDDR", "TP", "PP", "DP", "EP", "InfiniBand", "RoCE", "Infinity", "Fabric", "BF16", "FP8", "FP4",
    "MXFP4", "NVFP4", "Gb", "NDR", "HDR", "XDR", "NIC", "export", "m", "p", "x", "n", "NVSwitch", "to", "Megatron",
    "LM", "global", "batch", "e4m3", "OCP", "MX",
    # issue 35: cards named as people write them (H100 SXM, Gaudi 3, RTX 6000 Ada), not by their ids
    "SXM", "Gaudi", "Ada",
    # issue 37: other makers' links, offload, FP8 training and the frameworks and papers the conventions cite
    "DualPipe", "Core", "DeepSpeed", "Memory", "Requirements", "readthedocs", "io", "zero", "Init", "NVMe", "HCCS",
    "NeMo", "AutoModel", "PaLM", "GFLOP", "OpenAI", "gpt", "oss", "Qwen", "Meta", "Mistral", "FP16", "FP32", "GPTQ",
    "AWQ", "vp", "deepspeed", "Volta", "Turing", "Pascal", "Ampere", "Lovelace", "Hopper",
    "Blackwell", "CDNA", "Da", "Vinci",
} | {word for gpu in ENGINE.gpus for word in gpu_name(gpu).split()}  # every card's name as people write it

CHECKS = {
    "inference": {"model": "llama-2-70b", "workload": "inference", "gpu": "a100-80gb", "count": 2,
                  "precision": "int4", "seq_len": 8192, "batch": 4},
    "full-zero3": {"model": "llama-2-7b", "workload": "full", "gpu": "a100-80gb", "count": 8, "zero": 3,
                   "tokens": 2e12},
    "full-zero0": {"model": "llama-2-13b", "workload": "full", "gpu": "a100-40gb", "count": 2, "tokens": 1e10},
    "lora": {"model": "llama-3-8b", "workload": "lora", "gpu": "rtx-4090", "count": 2, "checkpointing": False,
             "zero": 2},
    "qlora": {"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090"},
    "bare-size": {"model": "13b", "workload": "inference", "gpu": "rtx-4060"},
    "vendor-price": {"model": "65b", "workload": "qlora", "gpu": "rtx-4080", "vram_gib": 48, "seq_len": 512},
    "no-price-none-fit": {"model": "405b", "workload": "full", "gpu": "h100-sxm", "seq_len": 1_000_000,
                          "batch": 64},
    # issue 37: a card kb has no record of, offload with host memory, a card without BF16, one without figures,
    # weight-only FP8, FP8 training and a batch schedule
    "stated-card": {"model": "qwen2.5-7b", "workload": "lora", "gpu": "RTX 2080 Ti", "vram_gib": 11},
    "offload-host": {"model": "qwen2.5-72b", "workload": "full", "gpu": "a100-80gb", "count": 8, "offload": True,
                     "offload_params": True, "host_memory_gib": 1024, "tokens": 1e9},
    "offload-nvme": {"model": "llama-2-70b", "workload": "full", "gpu": "a100-80gb", "count": 8,
                     "offload_device": "nvme"},
    "no-bf16": {"model": "llama-2-7b", "workload": "full", "gpu": "v100-32gb", "count": 8, "tokens": 1e9},
    "no-figures": {"model": "qwen2.5-14b", "workload": "inference", "gpu": "ascend-910b"},
    "weight-only-fp8": {"model": "llama-3-70b", "workload": "inference", "gpu": "a100-80gb", "precision": "fp8"},
    "fp8-schedule": {"model": "llama-3-8b", "workload": "full", "gpu": "h100-sxm", "count": 64, "precision": "fp8",
                     "tokens": 1e11, "batch_schedule": [{"until_tokens": 1e10, "batch_tokens": 2097152},
                                                        {"batch_tokens": 4194304}]},
    "fp32-math": {"model": "qwen2.5-7b", "workload": "inference", "gpu": "p40", "count": 2},
}
QUESTIONS = [
    "能用一张4090 QLoRA微调13B模型吗？", "4090能跑13B吗", "A100能训练7B吗", "能用4090微调7B吗",
    "半精度推理70B需要几张A100 80GB", "4090 LoRA 微调 7B 4bit", "4060 Ti 能 QLoRA 7B 吗", "8卡A100全量训练7B int8",
    "llama 2 8b 推理 4090", "用4090推理13B模型，int4量化，上下文8K，批量4", "用2万亿token训练7B模型需要多少张A100",
]
SELECTIONS = ["50万预算做7B推理，选哪种卡？", "100万预算训练13B模型，选什么GPU", "3万美元预算做13B推理，选哪种卡？",
              "最多4张卡，预算30万，推理70B模型选哪个", "2万元预算QLoRA微调70B，选哪种卡？"]


def numbers(text: str) -> Counter[str]:
    return Counter(NUMBER.findall(text))


def latin_words(text: str) -> set[str]:
    """Latin words left once ids (anything with a digit: rtx-4090, fp32, 13b, guide-4.3), flags, units and
    words quoted from the question (“llama 2 8b”) go."""
    text = re.sub(r"--[\w-]+|tokens/s|GB/s|CNY/kWh|“[^”]*”", " ", text)
    text = re.sub(r"[\w.-]*\d[\w.-]*", " ", text)
    return set(re.findall(r"[A-Za-z]+", text))


def assert_same_sentences(zh: list[str], en: list[str]) -> None:
    """zh says, one for one, what en says: in Chinese, with no English left, and with the same numbers."""
    assert len(zh) == len(en)
    for z, e in zip(zh, en, strict=True):
        assert CJK.search(z), z
        assert not CJK.search(e.replace("万", "")), e  # English quotes the document's prices as it writes them
        assert not [w for w in LEAKS if w in z], z
        assert latin_words(z) <= ALLOWED_LATIN, (latin_words(z) - ALLOWED_LATIN, z)
        assert numbers(z) == numbers(e), (z, e)


def assert_same_check(zh: FitResult, en: FitResult) -> None:
    prose = {"assumptions", "steps"}
    assert zh.model_dump(exclude=prose) == en.model_dump(exclude=prose)
    assert_same_sentences(zh.assumptions, en.assumptions)
    assert_same_sentences(zh.steps, en.steps)


@pytest.mark.parametrize("case", list(CHECKS))
def test_check_in_chinese_has_the_same_numbers(case: str) -> None:
    req = parse_request(**CHECKS[case])
    assert_same_check(check_fit(req, language="zh"), check_fit(req, language="en"))


def test_cases_cover_the_branches() -> None:
    """The cases above reach the sentences that only some checks say."""
    said = " ".join(s for c in CHECKS.values() for r in [check_fit(parse_request(**c), language="zh")]
                    for s in r.assumptions + r.steps)
    for phrase in ("只给了规模", "计算，因为第 0 阶段每张卡", "ZeRO 第 3 阶段，Ψ", "--zero 2 未采用", "不开激活检查点",
                   "厂商首发价", "不计算", "也放不下", "放得下的最少", "训练计算量", "墙钟时间", "解码速度上限",
                   "QLoRA（NF4 基座", "各层切分到 2 张卡", "切分到 2 张卡（张量并行"):
        assert phrase in said, phrase


@pytest.mark.parametrize("question", QUESTIONS)
def test_question_checks_in_chinese(question: str) -> None:
    zh, zh_sel = fit_checks_for_question(question, "zh")
    en, en_sel = fit_checks_for_question(question, "en")
    assert zh and len(zh) == len(en) and zh_sel is None and en_sel is None
    for z, e in zip(zh, en, strict=True):
        assert_same_check(z, e)


@pytest.mark.parametrize("question", SELECTIONS)
def test_selection_in_chinese(question: str) -> None:
    zh_checks, zh = fit_checks_for_question(question, "zh")
    en_checks, en = fit_checks_for_question(question, "en")
    assert zh is not None and en is not None
    prose = {"assumptions", "excluded"}
    assert zh.model_dump(exclude=prose) == en.model_dump(exclude=prose)
    assert_same_sentences(zh.assumptions, en.assumptions)
    assert_same_sentences(zh.excluded, en.excluded)
    assert [e.split("：")[0] for e in zh.excluded] == [e.split(":")[0] for e in en.excluded]  # each starts with its id
    for z, e in zip(zh_checks, en_checks, strict=True):
        assert_same_check(z, e)


def test_selection_with_nothing_that_fits() -> None:
    zh, _ = ENGINE.select("405b", "full", budget_cny=10_000, language="zh")
    en, _ = ENGINE.select("405b", "full", budget_cny=10_000, language="en")
    assert not zh.rows and zh.excluded
    assert_same_sentences(zh.assumptions, en.assumptions)
    assert_same_sentences(zh.excluded, en.excluded)
    assert "没有放得下的配置" in zh.assumptions[-1]


def test_language_is_detected_when_not_given() -> None:
    zh, _ = fit_checks_for_question("4090能跑13B吗")
    en, _ = fit_checks_for_question("Can a 4090 run a 13B model?")
    assert CJK.search(zh[0].steps[0]) and not CJK.search(en[0].steps[0])


def test_default_language_is_english() -> None:
    """FitEngine.check writes English unless asked otherwise (POST /v1/fit relies on it)."""
    req = parse_request(model="llama-2-7b", workload="inference", gpu="rtx-4090", precision="int4", seq_len=8192,
                        count=2)
    r = ENGINE.check(req)
    assert r == ENGINE.check(req, "en")
    assert r.assumptions[0] == (
        "llama-2-7b: published shape 32 layers, hidden 4096, 32 heads, 32 kv heads, head dim 128, FFN 11008, "
        "vocab 32000, 6,738,415,616 parameters")
    kv = "KV cache in 16-bit (2 B a value), at the full 8,192-token context for each of 1 sequence(s)"
    assert kv in r.assumptions
    assert ("required a GPU: weights 1.80 + activations 0.53 + kv_cache 2.00 + overhead 1.43 = 6.19 GB = 5.76 GiB"
            in r.steps)


def test_unknown_language_is_bad_input() -> None:
    req = parse_request(model="7b", workload="inference", gpu="rtx-4090")
    with pytest.raises(BadInput) as e:
        check_fit(req, language="fr")
    assert e.value.field == "language" and "accepted: en, zh" in str(e.value)


def test_kb_fit_lang_zh_writes_chinese_working() -> None:
    args = ["--model", "7b", "--workload", "full", "--gpu", "rtx-4090", "--json"]
    zh = json.loads(CliRunner().invoke(fit, [*args, "--lang", "zh"]).stdout)
    en = json.loads(CliRunner().invoke(fit, args).stdout)
    assert all(CJK.search(s) for s in zh["steps"] + zh["assumptions"])
    assert not any(CJK.search(s) for s in en["steps"] + en["assumptions"])
    assert {k: v for k, v in zh.items() if k not in ("steps", "assumptions")} == \
           {k: v for k, v in en.items() if k not in ("steps", "assumptions")}


def _fields(template: str) -> set[tuple[str, str]]:
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("key", list(MESSAGES))
def test_catalog_entries_agree(key: str) -> None:
    """Both templates of a message name the same values with the same formats, so no number can differ."""
    entry = MESSAGES[key]
    assert set(entry) == set(LANGUAGES)
    assert _fields(entry["zh"]) == _fields(entry["en"])
    if entry["en"] != entry["zh"] and not re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]", entry["zh"]):
        pytest.fail(f"{key}: the zh template differs from en but has neither Chinese nor Chinese punctuation")
    assert not CJK.search(entry["en"].replace("万", ""))


def test_msg_formats_like_an_f_string() -> None:
    assert say("energy_step", "en", count=2, tdp=450.0, price=1.0, cny=0.9) == \
        "energy: 2 × 450 W TDP × 1 CNY/kWh = 0.90 CNY an hour"
    assert say("energy_step", "zh", count=2, tdp=450.0, price=1.0, cny=0.9) == \
        "电费：2 × 450 W TDP × 1 CNY/kWh = 每小时 0.90 CNY"
