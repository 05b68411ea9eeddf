"""One typed Query from one registry: names from the records, presets and the lexicon; numbers on their nouns."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.engine import Engine
from kb.fit.presets import PRESETS
from kb.language import Language, turn_language
from kb.understand.intent import spec_attributes
from kb.understand.names import record_aliases, registry_for
from kb.understand.query import from_state, to_state
from tests.support.fit_engine_helpers import ENGINE, READER
from tests.support.paths import REPO

CORPUS = REPO / "corpus"


def read(question: str):  # type: ignore[no-untyped-def]
    return READER.read(question, "en")


# Real accelerators and models kb has no record or shape for: each must land in `unknown`, never be read as
# a card or a model kb knows, nor as a size or a count.
UNKNOWN_GPUS = ["2080Ti", "2080 Ti", "GTX 1080 Ti", "A10G", "A30", "A5000", "L40", "GH200", "GB200", "B100",
                "MI325X", "RX 7900 XTX", "7900XTX", "RX 6800", "Apple M2 Ultra", "M3 Max", "TPU v5e",
                "TPU", "Gaudi 2", "Jetson Orin", "Trainium2", "Cerebras", "寒武纪", "Arc A770", "Radeon Pro W7900",
                "W7800", "RTX PRO 6000 Blackwell", "RTX 5000 Ada", "RTX 4090 Laptop", "4060 laptop", "Ascend 310P",
                "昇腾 310B", "天数智芯 BI-V150", "Iluvatar MR-V100", "Atlas 300I", "摩尔线程 MTT S80", "燧原i20",
                "壁仞BR100", "海光 K100", "Intel Arc Pro B60", "MTT X300",
                "Tenstorrent Wormhole n150",
                # an Instinct by its code alone, a maker with its product line between
                "AMD Instinct MI60", "MI100", "MI355X", "海光 DCU Z100", "沐曦 曦云 C500", "天数智芯 天垓 150",
                "天垓150", "智铠100", "H20", "H800", "A800"]
# Cards that were unknown until issue 37 gave them spec records: each is now read as its record.
NOW_KNOWN_GPUS = {"RTX 3090": "rtx-3090", "3090": "rtx-3090", "3080": "rtx-3080", "RTX 3060": "rtx-3060-12gb",
                  "RTX 4090 D": "rtx-4090-d", "V100": "v100-16gb", "V100 32GB": "v100-32gb", "Tesla T4": "t4",
                  "T4": "t4", "A10": "a10", "A40": "a40", "RTX A6000": "rtx-a6000", "A6000": "rtx-a6000", "L20": "l20",
                  "H100 NVL": "h100-nvl", "H100 PCIe": "h100-pcie", "Ascend 910B": "ascend-910b",
                  "昇腾910B": "ascend-910b", "MI250X": "mi250x", "P40": "p40", "RTX 5080": "rtx-5080",
                  "RTX 5070 Ti": "rtx-5070-ti", "3090 Ti": "rtx-3090-ti", "A800 PCIe": "a800-pcie"}
UNKNOWN_MODELS = ["GPT-4", "GPT-4o", "gpt-3.5-turbo", "Claude", "Claude 3 Opus", "Gemini 1.5 Pro", "Grok", "文心一言",
                  "Baichuan2", "Phi-3", "Kimi", "DBRX", "Jamba"]


@pytest.mark.parametrize("name", UNKNOWN_GPUS)
def test_accelerators_kb_lacks_are_unknown_in_both_languages(name: str) -> None:
    assert len(UNKNOWN_GPUS) + len(UNKNOWN_MODELS) >= 40
    for question in (f"Can a {name} run Llama 3 8B?", f"4 张 {name} 能跑 70B 吗"):
        q = read(question)
        if name in ("H20", "H800", "A800") and q.gpus:  # records for them exist: then they are known
            continue
        assert q.unknown_gpus and name.replace(" ", "").lower() in "".join(q.unknown_gpus).replace(" ", "").lower()
        assert q.gpus == [], (question, q.gpus)
        assert q.model in ("llama-3-8b", "70b"), (question, q.model)


@pytest.mark.parametrize(("name", "gpu"), NOW_KNOWN_GPUS.items())
def test_cards_with_records_since_issue_37_are_read_as_their_records(name: str, gpu: str) -> None:
    for question in (f"Can a {name} run Llama 3 8B?", f"4 张 {name} 能跑 70B 吗"):
        q = read(question)
        assert [g for g, _ in q.gpus] == [gpu] and not q.unknown_gpus, (question, q.gpus, q.unknown_gpus)


@pytest.mark.parametrize("name", UNKNOWN_MODELS)
def test_models_kb_lacks_are_unknown_and_never_a_size(name: str) -> None:
    q = read(f"How many A100 80GB to serve {name}?")
    assert q.unknown_models and q.model is None and q.gpus == [("a100-80gb", None)]


@pytest.mark.parametrize("name", UNKNOWN_GPUS[:16])
def test_answers_name_an_unknown_card_plainly_and_check_nothing_else(name: str, engine: Engine) -> None:
    a = engine.answer(f"{name} 能跑 Qwen2.5-7B 吗？")
    assert a.unknown and a.coverage == "partial" and not a.fit_checks
    assert a.answer.startswith(f"kb 没有 {a.unknown[0]} 的规格数据"), a.answer
    en = engine.answer(f"Can a {name} run Qwen2.5-7B?")
    assert en.answer.startswith(f"kb has no spec for the {en.unknown[0]}") and not en.fit_checks, en.answer
    # and the memory the check would need, so the asker can hold their card to it (issue 37)
    assert re.search(r"needs about 17\.4 GiB of memory a card", en.answer), en.answer
    assert "每卡约需 17.4 GiB 显存" in a.answer, a.answer


@pytest.mark.parametrize("name", UNKNOWN_MODELS[:6])
def test_answers_name_an_unknown_model_plainly_and_size_nothing(name: str, engine: Engine) -> None:
    a = engine.answer(f"Can one A100 80GB run {name}?")
    assert a.unknown == [name] and a.coverage == "partial" and not a.fit_checks
    assert a.answer.startswith(f"kb has no shape for the model {name}"), a.answer


def test_every_record_alias_and_preset_id_reads_back_as_itself() -> None:
    aliases = record_aliases(CORPUS)
    assert set(aliases) == set(ENGINE.gpus)
    for gid, (names, defaults) in aliases.items():
        for name in [*names, *defaults]:
            q = read(f"two {name} for inference of llama-3-8b")
            assert [g for g, _ in q.gpus] == [gid], (name, q.gpus)
    for preset in PRESETS:
        for written in (preset, preset.replace("-", " "), preset.upper()):
            assert read(f"can an A100 80GB run {written}?").model == preset, written


def test_the_registry_is_the_records_aliases_and_the_presets() -> None:
    registry = registry_for(CORPUS.resolve())
    assert set(registry.gpu_ids) == set(ENGINE.gpus)
    assert set(registry.model_ids) == set(PRESETS)


@pytest.mark.parametrize(("question", "expect"), [
    ("Mixtral 8x7B 用 fp16 服务 16 个 8k 并发，H100 要几张？", {"concurrency": 16, "seq_len": 8192}),
    ("32 个 4k 并发", {"concurrency": 32, "seq_len": 4096}),
    ("16 users at 8k context on an L40S with llama3 8b", {"concurrency": 16, "seq_len": 8192}),
    ("并发 8 个，每个 8k", {"concurrency": 8, "seq_len": 8192}),
    ("llama3 70b 4bit on a100 80G", {"precision": "int4", "model": "llama-3-70b", "gpus": [("a100-80gb", None)]}),
    ("8 台 8 卡 H100 训练 70B 要多久", {"gpus": [("h100-sxm", 64)], "model": "70b", "workloads": ["full"]}),
    ("预算 50万 做 7B 推理", {"budget_cny": 500000.0, "model": "7b"}),
    ("1T token 训练 llama-3-8b 要多久", {"tokens": 1e12}),
    ("max concurrent 32k-context sequences for llama 3 70b int4 on one h100?", {"seq_len": 32768}),
    ("H100 跑 llama3 70b，不是int8，是fp16", {"precision": "fp16"}),
    ("4090x2 微调 65B QLoRA", {"gpus": [("rtx-4090", 2)], "workloads": ["qlora"]}),
    ("can I serve it on fp8?", {"precision": "fp8"}),
    ("8卡h100 部署 llama3 70b bf16, 64 并发 8k 够吗", {"concurrency": 64, "seq_len": 8192, "gpus": [("h100-sxm", 8)]}),
    ("qwen2.5-72b 推理（并发 2050）", {"concurrency": 2050, "unknown_gpus": []}),
    ("l40s serving qwen2.5 7b at 8k, how many at once?", {"seq_len": 8192, "asked": "concurrency"}),
    ("100 users at 8k each on 2x h100", {"concurrency": 100, "seq_len": 8192}),
    ("a100 80g 跑 llama3 8b，4k 上下文 同时能跑几路", {"seq_len": 4096, "asked": "concurrency"}),
    ("rx 7900 xtx llama 3 8b tokens per sec", {"asked": "speed"}),
    ("405b in bf16 - total vram to serve it?", {"asked": "memory"}),
    # a number glued to a name is part of the name: the 8 of "fp8," and the 16 of "fp16" count nothing
    ("两张 h100 跑 mixtral 8x7b fp8，64 个用户 每人 4k", {"precision": "fp8", "concurrency": 64, "seq_len": 4096}),
    ("4090 跑 qwen2.5 7b fp16 并发 12", {"precision": "fp16", "concurrency": 12}),
    # people, sequences and budgets as people write them
    ("qwen2.5 14b 30个人同时用 每人2k上下文", {"concurrency": 30, "seq_len": 2048}),
    ("llama 3 8b, 12 seqs of 16k each", {"concurrency": 12, "seq_len": 16384}),
    ("预算八十万 做 13b 推理 买什么卡", {"budget_cny": 800000.0}),
    ("两百万预算 训练 7b", {"budget_cny": 2000000.0}),
    ("40w 预算 推理 7b 选什么卡", {"budget_cny": 400000.0}),
    ("手上一百二十万 推理训练都做 怎么配卡", {"budget_cny": 1200000.0}),
    ("budget somewhere in 30 to 60万, serving a 14b, what do we buy", {"budget_cny": 600000.0}),
    ("按每千元显存算 哪张卡最值", {"budget_cny": None}),
    # a count glued to the card; the largest batch is the concurrency that fits
    ("3x4090 enough for qwen2.5 72b int4?", {"gpus": [("rtx-4090", 3)]}),
    ("2×h200 跑 llama 3.1 405b int4", {"gpus": [("h200", 2)]}),
    ("largest batch for qwen2.5 7b on an l4 at 4k?", {"asked": "concurrency", "seq_len": 4096}),
    ("a100 跑 llama2 13b fp16 bs=8 seq 2048 够不够", {"seq_len": 2048, "batch": 8}),
    # who uses it, counted
    ("二十个同事用 qwen2.5 14b，一张 l40s 够吗", {"concurrency": 20}),
    ("12 analysts on llama 3 8b on one l4, ok?", {"concurrency": 12}),
    ("can one a100 80g serve mixtral int4 for all 6 of us", {"concurrency": 6}),
    # after the sixth round's test run, in their own phrasing
    ("llama3 8b 12 路 每路 16k 的 kv 总共多大", {"concurrency": 12, "seq_len": 16384}),
    ("l40s 跑 qwen2.5 14b 能开多少路", {"asked": "concurrency"}),
    ("h200 + llama 3 70b fp8, tok per sec?", {"asked": "speed"}),
    ("decode speeed of mixtral on an h100?", {"speed": True}),
    ("three 4070 tis plus a 4090, what's the total", {"attributes": ["price"]}),
    # counts in words
    ("llama 3 8b on an l40s, forty-five users at 2k each", {"concurrency": 45, "seq_len": 2048}),
    ("qwen2.5 7b 同时二十个人用 上下文大约四千", {"concurrency": 20, "seq_len": 4000}),
    ("3块4090 跑 qwen2.5 32b int4", {"gpus": [("rtx-4090", 3)], "budget_cny": None}),
    ("memory to run qwen2.5 32b in bf16 if split over 4 cards", {"asked": "memory", "count": 4}),
    ("qwen2.5 32b 显存总共要多少", {"asked": "memory"}),
    ("12 people on llama 3 8b with 4k each on an l40s", {"concurrency": 12, "seq_len": 4096}),
    ("并发 6 个 16k 的 qwen2.5 7b 4090 行吗", {"concurrency": 6, "seq_len": 16384}),
    ("h200: how many concurrent 16k chats for qwen2.5 32b?", {"seq_len": 16384, "asked": "concurrency"}),
    ("三万块 想 qlora 微调 qwen2.5 7b 买啥卡", {"budget_cny": 30000.0, "wants_selection": True}),
    ("4090 上 qwen2.5 7b 一秒能出几个 token", {"asked": "speed"}),
    # a training time, a single stream's decode and a price said the short ways
    ("mistral 7b continued pretraining on 500b tokens, 16 h100s - training duration?", {"asked": "time"}),
    ("h100 单路解码 llama 3 8b fp8 多快", {"speed": True}),
    ("one-user decode for qwen2.5 14b on an l40s", {"speed": True}),
    # DeepSeek-R1's distilled models by size are their bases' shapes (the presets' aliases name them)
    ("deepseek r1 蒸馏的 14b 在 4080 上能跑吗", {"model": "qwen2.5-14b"}),
    ("r1 distill 70b at int4 on two 4090s?", {"model": "llama-3.3-70b"}),
    ("deepseek r1 on 8 h200s", {"model": "deepseek-r1"}),
    # people each given cards: their product is the count, and they own the cards rather than run sessions
    ("给 15 个工程师 每人配 2 张 4080 要多少钱", {"gpus": [("rtx-4080", 30)], "concurrency": None}),
    ("if each of 6 students gets one rtx 4060, what's the bill", {"gpus": [("rtx-4060", 6)]}),
    # the concurrency asked, then a context: "最多多少并发 8k" is sequences of 8k, not 8,000 of them
    ("h100 跑 qwen2.5 14b 最多几路并发 8k", {"seq_len": 8192, "concurrency": None, "asked": "concurrency"}),
    ("maximum concurrency at 16k for qwen2.5 7b on an a100?", {"seq_len": 16384, "concurrency": None}),
    # requests and chats counted as they run at once, the context said per request; money said the short way
    ("llama 3 8b fp16 推理, 每个请求 8k 上下文, 20 个请求同时, 一张 a100 40g", {"concurrency": 20, "seq_len": 8192}),
    ("30 chats, 8k tokens per chat, llama3 8b on a 4090?", {"concurrency": 30, "seq_len": 8192}),
    ("serve 64 requests concurrently at 2k context with llama 3 70b int4", {"concurrency": 64, "seq_len": 2048}),
    ("h100 同时处理 12 个请求 每个 16k 上下文 跑 qwen2.5 14b", {"concurrency": 12, "seq_len": 16384}),
    ("qwen2.5 32b on h100, 8k context per request, 10 users", {"concurrency": 10, "seq_len": 8192}),
    ("l4 跑 qwen2.5 7b，500 requests a day", {"concurrency": None}),
    ("预算六千五 买啥卡", {"budget_cny": 6500.0}),
    ("预算一万二 买什么卡跑 7b", {"budget_cny": 12000.0}),
    ("预算 1万5 买啥", {"budget_cny": 15000.0}),
    ("预算1w5 买什么卡", {"budget_cny": 15000.0}),
    ("两万五能买几张 4060", {"budget_cny": 25000.0}),
    ("预算六千零五 买啥卡", {"budget_cny": 6005.0}),
    # a split said after the ask
    ("how much memory does qwen2.5 32b fp8 take per card if split over 2", {"count": 2, "asked": "memory"}),
    ("vram per gpu for llama 3 70b bf16 on 4", {"count": 4, "asked": "memory"}),
    ("llama 3 8b, sharded across two gpus, memory each?", {"count": 2, "asked": "memory"}),
    ("gemma 2 27b bf16 显存 每张卡多少 如果分两张卡", {"count": 2, "asked": "memory"}),
    # two models compared: the second is kept, and "哪个" asks which model, not which card to buy
    ("qwen2.5 7b 和 llama3 8b 哪个 kv cache 小", {"model": "qwen2.5-7b", "also": ["llama-3-8b"], "asked": "kv",
                                                 "wants_selection": False}),
    ("does llama 3 70b or qwen2.5 72b need more vram in int4", {"also": ["qwen2.5-72b"], "asked": "memory"}),
    ("llama 3 8b vs mistral 7b decode speed on a 4090", {"also": ["mistral-7b"], "asked": "speed"}),
    ("我们想本地部署 qwen2.5 72b 给 50 人用 8k 上下文 要几张 a100", {"concurrency": 50, "seq_len": 8192}),
    ("qwen2.5 14b 30人同时用 l40s 够吗", {"concurrency": 30}),
    ("l40s vs 4090 for inference, which one per dollar?", {"attributes": ["price"]}),
    ("monthly power bill for 8 h100s running 24/7?", {"asked": "cost"}),
    ("l4 跑 llama3 8b int4，每个会话 8k，最多开几个", {"asked": "concurrency", "seq_len": 8192}),
    ("one b200, qwen2.5 72b fp8, 32k context each - max seqs?", {"asked": "concurrency", "seq_len": 32768}),
    ("5090 跑 qwen3 8b int4 一秒能吐几个 token", {"asked": "speed", "how_many": False}),
    ("research group, 900k cny, full fine-tuning 30b models plus some serving", {"unknown_models": []}),
    ("mistral large 2 on 2 h200 in fp8, fits?", {"unknown_models": ["mistral large 2"], "attributes": []}),
    # servers times the cards each holds; a count with a thousands comma or a word before the card
    ("两台服务器，每台装八张 h100 跑 405b", {"gpus": [("h100-sxm", 16)]}),
    ("4 servers each with 8 a100s for llama 3 70b", {"gpus": [("a100-80gb", 32)]}),
    ("2,048 h100s for a month - power?", {"gpus": [("h100-sxm", 2048)]}),
    ("we have 6 spare 4090s", {"gpus": [("rtx-4090", 6)]}),
    # an electricity price is no budget
    ("8 张 l40s 一个月电费 按 0.8 元/度", {"budget_cny": None, "energy_cny_per_kwh": 0.8}),
    ("yearly power cost of 4 h100s @ 1.2 cny/kwh", {"budget_cny": None, "energy_cny_per_kwh": 1.2}),
    # a context said as where it goes
    ("why does concurrency drop when ctx goes to 32k", {"seq_len": 32768}),
    ("qwen2.5 7b on an l4, context is 8k, 6 users", {"seq_len": 8192, "concurrency": 6}),
    ("h20 上 qwen2.5 14b，16k 的对话 能开几路", {"seq_len": 16384, "asked": "concurrency"}),
    ("a quiet, small inference box for llama 3 8b", {"attributes": []}),  # "small inference" is no "all in"
    ("llama 3 8b on the l40s, not the 4090", {"gpus": [("l40s", None)]}),
    ("是训练 不是推理 qwen2.5 7b 在 a800 上", {"workloads": ["full"], "model": "qwen2.5-7b", "gpus": [("a800", None)]}),
    # "which card" asks for one
    ("10k cny, which gpu should a beginner get", {"max_gpus": 1}),
    # a format's digits are no count of the card after them
    ("mistral 7b bf16 h200 够吗", {"gpus": [("h200", None)], "precision": "bf16"}),
    ("qwen2.5 14b int8 l4 - fits?", {"gpus": [("l4", None)], "precision": "int8"}),
    ("llama 3 8b fp16 8 l40s", {"gpus": [("l40s", 8)]}),
    # a size that names one of the guide's cases is no model to check
    ("the fintech 5b case: how many cards did they buy", {"model": None, "unknown_models": []}),
    ("5b 模型那个案例 花了多少钱", {"model": None}),
    # "which gpus" (plural) asks for a pick
    ("pretraining a 2b model, which gpus?", {"wants_selection": True}),
    # a card's memory said without a card: the memory meant; beside a named card it is the card's
    ("would 16gb be enough to serve mistral 7b", {"vram_gb": 16, "gpus": []}),
    ("12g显存 跑 qwen2.5 7b int8 够吗", {"vram_gb": 12}),
    ("a100 80g 跑 70b int8", {"vram_gb": None}),
    # "A6000 Ada" is how many say the RTX 6000 Ada; a bare "RTX A6000" is the Ampere card kb lacks
    ("we have 2 a6000 ada cards, can they serve llama 3 70b int4", {"gpus": [("rtx-6000-ada", 2)]}),
    ("rtx a6000 for 70b int4", {"gpus": [("rtx-a6000", None)], "unknown_gpus": []}),
    # "H100 PCIe" has its own record (issue 37), apart from the SXM card's
    ("H100 PCIe bandwidth?", {"unknown_gpus": [], "gpus": [("h100-pcie", None)]}),
    ("can an h100 pcie run llama 3 70b int4", {"unknown_gpus": [], "gpus": [("h100-pcie", 1)]}),
    # the memory said before a bare family name picks that record
    ("80gb的a800 vs h800", {"gpus": [("a800", None), ("h800", None)]}),
    ("two 40GB A100s for qwen2.5 14b", {"gpus": [("a100-40gb", 2)]}),
    ("40g 的 a100 跑 13b 行吗", {"gpus": [("a100-40gb", None)]}),
    # all the money on one card asks how many it buys; a total price is a price
    ("预算5万 全部买4070", {"how_many": True, "budget_cny": 50000.0}),
    ("put the whole budget of 30k usd all on l40s", {"how_many": True}),
    ("两张4080加三张4060 总价", {"attributes": ["price"]}),
    # "…: users?" at the end asks how many fit
    ("one l40s, mistral 7b, 4k each - users?", {"asked": "concurrency"}),
    ("h20，qwen2.5 14b，8k 上下文：并发？", {"asked": "concurrency"}),
    # "full ft" / "fft" is full fine-tuning; "under 10b" is a size, no model's name; "what config do you suggest"
    ("full ft of mistral 7b on an h200?", {"workloads": ["full"]}),
    ("models under 13b params on 2 l40s - training config?", {"model": "13b", "unknown_models": []}),
    ("serving 70b models, what configuration would you suggest", {"wants_selection": True}),
    # a lone "32k" beside a count of sequences is their context
    ("qwen2.5 14b 6个会话 32k 要多少显存", {"concurrency": 6, "seq_len": 32768}),
    ("llama 3 8b, 12 users 16k, which card", {"concurrency": 12, "seq_len": 16384}),
    # "10个人用" counts people: no one person's pick
    ("给10个人用的代码助手 qwen2.5 32b 买什么卡", {"individual": False, "concurrency": 10}),
    ("我个人想微调qwen2.5 7b 买什么卡", {"individual": True}),
    # "预算能买" holds 算能 (Sophgo): a budget's words, no maker
    ("20万预算能买几张 h800", {"unknown_gpus": [], "gpus": [("h800", None)]}),
])
def test_numbers_attach_to_the_noun_they_qualify(question: str, expect: dict[str, object]) -> None:
    q = read(question)
    for name, value in expect.items():
        assert getattr(q, name) == value, (question, name, getattr(q, name))


@pytest.mark.parametrize(("question", "asked"), [
    ("How big is the KV cache per token for Qwen2.5-32B?", "kv"),
    ("llama3 8b 128k上下文 kv总共多大", "kv"),
    ("How many concurrent chats can an A100 80GB handle with Llama 3 8B at 8k context?", "concurrency"),
    ("Qwen2.5-72B 用 FP16 推理需要多少显存？", "memory"),
    ("MI300X 和 H100 带宽差多少？", "comparison"),
    ("B200 多少钱一张？", "price"),
    ("RTX 4090 的显存带宽是多少？", "figure"),
    ("4 张 4090 训练 7B 要多久", "time"),
    ("qwen2.5 14b: kv for 16 users at 4k?", "kv"),
    ("l40s + llama 3 8b @ 16k: how many seqs at once?", "concurrency"),
    ("H800 和 H100 训练算力一样吗", "comparison"),
    ("mixtral 8x7b trained from zero on 32 h100s, 1t tokens - weeks or months?", "time"),
    ("qwen2.5 7b pretrain on 8 h200s, 300b tokens: time?", "time"),
    ("32 张 a800 预训练 13b 1t token 要几个月", "time"),
    ("h200 一张啥价", "price"),
    ("a100 跑 qwen2.5 14b kv 缓存能放下多少 token", "context"),
    ("l4 最大能跑多大的模型", "largest"),
    ("how big a model can i lora on two 4090s", "largest"),
    ("what can we run on one l4", "largest"),
    ("4070 ti 能跑啥", "largest"),
    ("what llms will fit in a single rtx 5090", "largest"),
    ("how many tokens of kv cache can an h100 hold with llama 3 8b", "context"),
    ("what's the training time for llama 3 8b on 2t tokens with 32 a100s", "time"),
])
def test_what_is_asked(question: str, asked: str) -> None:
    assert read(question).asked == asked


def test_state_round_trips_and_a_bad_state_is_named() -> None:
    from kb.errors import BadInput

    q = read("两张 A100 80G 跑 Llama-3-70B 推理，上下文 8192，并发 16")
    again = from_state(to_state(q, "fit", "zh"))
    assert (again.gpus, again.model, again.workloads, again.seq_len, again.concurrency) == \
        (q.gpus, q.model, q.workloads, q.seq_len, q.concurrency)
    for bad, field in (([1, 2], "state"), ({"gpus": "a100"}, "state.gpus"), ({"seq_len": "long"}, "state.seq_len"),
                       ({"asked": "everything"}, "state.asked")):
        with pytest.raises(BadInput) as e:
            from_state(bad)
        assert e.value.field == field


def test_a_model_kb_lacks_that_states_its_size_is_named_and_checked_at_that_size(engine: Engine) -> None:
    a = engine.answer("aquila-34b 4bit 两张 4090 能跑吗")
    assert a.unknown == ["aquila-34b"] and a.coverage == "partial" and a.fit_checks
    assert a.answer.startswith("kb 没有 aquila-34b 的结构数据：按通用的 34B 模型检查"), a.answer
    en = engine.answer("can two 4090s run Falcon 180B in int4?")
    assert en.unknown == ["Falcon 180B"] and en.answer.startswith("kb has no shape for Falcon 180B"), en.answer
    assert read("a llama 70b at int4").unknown == []  # a family kb has presets of, and a size: the size
    assert read("does 4-bit let qwen 32b squeeze onto one 4090").unknown == []  # whatever word comes before it
    assert read("would aquila 34b fit on an a100").unknown == ["aquila 34b"]
    assert read("would deepseek coder 33b fit on an a100").model == "deepseek-coder-33b"  # a release kb has


def test_models_compared_round_trip_through_state() -> None:
    q = read("llama 3 8b vs mistral 7b decode speed on a 4090")
    back = from_state(to_state(q, "speed", "en"))
    assert back.model == "llama-3-8b" and back.also == ["mistral-7b"]


@pytest.mark.parametrize(("question", "language"), [
    ("want to finetune qwen2.5 14b on my data, budget 3万, what gpu", "en"), ("50万元 budget for training", "en"),
    ("4090 的 VRAM", "zh"), ("预算3万买什么卡", "zh"), ("8卡h100 训练 70b", "zh"),
])
def test_an_amount_written_with_a_chinese_unit_does_not_make_an_english_question_chinese(question: str,
                                                                                         language: str) -> None:
    from kb.language import detect_language

    assert detect_language(question) == language


@pytest.mark.parametrize("question", ["昇腾 910c 显存多少", "gh200 memory?"])
def test_a_figure_of_a_card_kb_lacks_names_the_cards_it_has_instead_of_guide_sentences(question: str,
                                                                                       engine: Engine) -> None:
    a = engine.answer(question)
    assert a.unknown and not a.fit_checks and re.search(r"H200.*RTX 4090|H200、.*RTX 4090", a.answer), a.answer
    assert "[" not in a.answer  # nothing cited: no sentence of the guide about some other card


def test_the_same_cards_other_memory_size_said_alone_is_its_sibling_record() -> None:
    q = READER.read("h100 和 h200 不比了，a100 40gb 对比 80gb 的显存带宽", "zh")
    assert [g for g, _ in q.gpus] == ["h100-sxm", "h200", "a100-40gb", "a100-80gb"]
    assert [g for g, _ in READER.read("a100 80g or 40g for a 13b?", "en").gpus] == ["a100-80gb", "a100-40gb"]


@pytest.mark.parametrize("question", ["what hardware for serving qwen2.5 14b to 50 users",
                                      "跑 llama 3 8b 微调 用什么配置"])
def test_asking_what_hardware_is_a_pick(question: str) -> None:
    assert READER.read(question, "en").wants_selection


def test_ways_times_a_context_is_that_many_sequences_of_it() -> None:
    q = READER.read("l40s 跑 llama 3 8b 32路 4k 够不够", "zh")
    assert (q.concurrency, q.seq_len) == (32, 4096)


@pytest.mark.parametrize(("question", "gpus", "concurrency", "how_many"), [
    ("an 8-card l4 box vs a 2-card l40s box", [("l4", 8), ("l40s", 2)], None, False),
    ("qwen2.5 7b 跑 48 个对话 每个 2k 要多少 kv", [], 48, False),
    ("30k cny budget: maximum number of 4070 tis?", [("rtx-4070-ti", None)], None, True),
])
def test_counts_said_the_eighth_rounds_ways(question: str, gpus: list, concurrency: int | None,
                                             how_many: bool) -> None:
    q = READER.read(question, "en")
    assert (q.gpus, q.concurrency, q.how_many) == (gpus, concurrency, how_many)


@pytest.mark.parametrize(("question", "gpus", "asked"), [
    ("price for thirty-two h100s, cards only?", [("h100-sxm", 32)], "price"),
    ("how much would eleven l40s run me", [("l40s", 11)], "price"),
    ("often the a100 is how much", [("a100-80gb", None)], None),  # the "ten" of "often" is no count
])
def test_a_count_in_english_words_above_twelve(question: str, gpus: list, asked: str | None) -> None:
    q = read(question)
    assert q.gpus == gpus and (asked is None or q.asked == asked), (q.gpus, q.asked)


@pytest.mark.parametrize(("question", "attribute"), [
    ("how many gigs on an rtx 4080", "vram"),
    ("l40s 跟 l4 价差多大", "price"),
    ("price gap between a 4080 and a 4090?", "price"),
])
def test_memory_in_gigs_and_a_price_gap_are_spec_figures(question: str, attribute: str) -> None:
    assert attribute in spec_attributes(question.lower())


@pytest.mark.parametrize(("question", "seq_len"), [
    ("h100 跑 llama3 8b fp16 32k 单卡 最多几路", 32768),  # a lone 32k in a question about sequences at once
    ("l40s with qwen2.5 14b: each chat 8k, how many chats fit", 8192),
    ("预算 35k 买几张 4090 能同时服务几个用户", None),  # money, not a context
])
def test_a_context_said_bare_beside_sequences_at_once(question: str, seq_len: int | None) -> None:
    assert read(question).seq_len == seq_len


@pytest.mark.parametrize(("question", "expect"), [
    ("一万二 先买张 4070 ti 剩下的还能买几张 4060",
     {"gpus": [("rtx-4070-ti", 1), ("rtx-4060", None)], "budget_cny": 12_000}),
    ("a dozen users at 4k on an l40s with qwen2.5 7b", {"concurrency": 12, "seq_len": 4096}),
    ("l4 上 llama3 8b int8 对话长度 8k 最多几路", {"seq_len": 8192}),
    ("50k cny, rtx 4080s only: count and change?", {"how_many": True, "budget_cny": 50_000}),
    ("64 h100 pretraining qwen2.5 72b on 2t tokens, wall-clock?", {"asked": "time"}),
])
def test_the_tenth_rounds_ways_of_saying_counts_contexts_and_asks(question: str, expect: dict[str, object]) -> None:
    q = read(question)
    assert {k: getattr(q, k) for k in expect} == expect


@pytest.mark.parametrize(("question", "expect"), [
    ("l40s 跑 qwen2.5 14b 8k 上下文 用户数上限是多少", {"asked": "concurrency"}),
    ("what's the session cap for llama 3 8b on an l4 at 4k", {"asked": "concurrency"}),
    ("best value card for serving 13b models?", {"wants_selection": True}),
    ("跑 7b 推理 性价比最高的是哪张卡", {"wants_selection": True}),
])
def test_a_ceiling_on_users_is_a_concurrency_and_best_value_is_a_pick(question: str,
                                                                      expect: dict[str, object]) -> None:
    q = read(question)
    assert {k: getattr(q, k) for k in expect} == expect


@pytest.mark.parametrize(("question", "expect"), [
    ("l4 serving llama 3 8b at 8k, users: how many can it take", {"asked": "concurrency", "seq_len": 8192}),
    ("qwen2.5 14b, all parameters updated with adamw - total vram", {"workloads": ["full"], "asked": "memory"}),
    ("llama 3 8b 所有参数都参与训练 要多少显存", {"workloads": ["full"]}),
    ("a100 驱动报的显存有多少", {"attributes": ["vram", "driver"]}),
])
def test_the_eleventh_rounds_ways_of_saying_training_users_and_the_driver(question: str,
                                                                          expect: dict[str, object]) -> None:
    q = read(question)
    assert {k: getattr(q, k) for k in expect} == expect


@pytest.mark.parametrize(("turn", "conversation", "expected"), [
    ("qlora", "zh", "zh"), ("h200?", "zh", "zh"), ("int4 呢", "en", "zh"), ("LoRA + 8k ctx", "zh", "zh"),
    ("what about the h200", "zh", "en"), ("speed?", "zh", "en"), ("qlora", None, "en"), ("and 8 cards", "zh", "en"),
])
def test_a_turn_with_no_words_of_its_own_keeps_the_conversations_language(turn: str, conversation: Language | None,
                                                                            expected: str) -> None:
    assert turn_language(turn, conversation) == expected


@pytest.mark.parametrize(("question", "concurrency", "seq_len", "asked"), [
    ("llama 3 8b on an l40s - 12 simultaneous 32k-context chats, kv size?", 12, 32768, "kv"),
    ("a100 80gb + qwen2.5 32b int4 at 8k per request: how many requests in flight at most", None, 8192,
     "concurrency"),
])
def test_sequences_counted_with_their_context_and_in_flight_asks(question: str, concurrency: int | None,
                                                                 seq_len: int, asked: str) -> None:
    q = read(question)
    assert (q.concurrency, q.seq_len, q.asked) == (concurrency, seq_len, asked)


def test_a_corpus_of_tokens_is_trained_on_and_a_number_of_cards_is_a_count() -> None:
    q = read("128 h100s, llama 3 70b, 2T tokens - how many weeks?")
    assert q.workloads == ["full"] and q.tokens == 2e12 and q.asked == "time"
    q = read("maverick in int4: the number of h200 gpus required")
    assert q.model == "llama-4-maverick" and q.how_many and q.precision == "int4"


def test_one_cards_share_of_a_split_is_not_a_count_of_one() -> None:
    q = READER.read("llama3 70b int8 总共要多少显存 三张卡分摊的话每张扛多少", "zh")
    assert q.count == 3 and q.asked == "memory"


@pytest.mark.parametrize(("question", "seq_len", "concurrency", "asked"), [
    ("qwen2.5 32b 128k长上下文 2个并发 kv 占多少", 131072, 2, "kv"),  # the length said before "长上下文"
    ("上下文 6个用户同时 l40s 跑 llama3 8b", None, 6, None),  # a count after the word is people, not a context
    ("l40s 上 llama3 8b，32k 上下文，能支持几个并发", 32768, None, "concurrency"),
    ("llama 3 70b int4 - how much do the weights take up on their own", None, None, "memory"),
])
def test_a_context_and_the_sequences_beside_it_are_told_apart(question: str, seq_len: int | None,
                                                              concurrency: int | None, asked: str | None) -> None:
    q = READER.read(question, "en")
    assert (q.seq_len, q.concurrency, q.asked) == (seq_len, concurrency, asked)


def test_people_then_how_many_cards_asks_the_count_not_the_people() -> None:
    q = read("we need to serve qwen2.5 72b to 150 analysts, how many a100s")
    assert q.concurrency == 150 and q.asked == "count" and q.how_many


def test_two_cards_and_which_suits_a_workload_is_a_comparison() -> None:
    q = READER.read("h100 和 mi300x 哪个更适合做推理", "zh")
    assert q.asked == "comparison" and [g for g, _ in q.gpus] == ["h100-sxm", "mi300x"]


def test_servers_counted_ask_how_many() -> None:
    assert READER.read("mi300x 跑 llama 3.1 405b bf16 要几台", "zh").how_many
    assert read("how many servers of l40s for qwen2.5 72b").how_many


def test_a_cases_own_model_said_by_its_size_is_not_a_model_to_check() -> None:
    assert read("university case: how long did their 7b take to train").model is None
    assert READER.read("金融那个案例 他们的5b模型是干什么的", "zh").model is None
    assert read("can a 4090 run a 7b").model == "7b"


@pytest.mark.parametrize(("question", "check"), [
    ("what does an h200 retail for these days", lambda q: q.asked == "price"),
    ("serving small models to lots of concurrent users, most cost-effective card?",
     lambda q: q.wants_selection and q.setting == "高并发企业级推理服务"),
    ("装在工厂车间 散热受限 用什么卡", lambda q: q.wants_selection and q.setting == "边缘部署"),
    ("university 7b pretraining case: how many days did it take", lambda q: q.model is None),
])
def test_round_fifteen_misses_in_other_words(question: str, check: Any) -> None:
    assert check(READER.read(question, "en")), READER.read(question, "en")


def test_several_cards_training_together_turns_a_why_on_their_links() -> None:
    from kb.understand.intent import why_topics

    assert "nvlink" in why_topics("三张4090一起训练为啥扩展性差")
    assert "nvlink" in why_topics("why do my four cards train together so slowly")
