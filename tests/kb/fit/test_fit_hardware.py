"""Fit checks for the hardware people have (issue 37): a format a card cannot compute is refused with what runs
instead; "does card X support Y" is read from the records with their sources; a card kb has no record of is checked
from its stated memory (speed and price unknown) or told the memory it would need; offload says what the host must
hold and whether the stated host memory holds it; the total comes first, with its terms, in zh and en."""

from __future__ import annotations

import re

import pytest

from kb.errors import BadInput
from kb.fit.check_parts import UnsupportedPrecision
from kb.fit.request import parse_request
from kb.fit.result import FitResult
from kb.numbers import GIB
from kb.words.answer import gpu_name
from kb.words.fit import cards_note, feature_note, need_note, offload_note, render, support_note, total_note
from tests.support.fit_engine_helpers import ENGINE, check_fit


def check(**kw: object) -> FitResult:
    return check_fit(parse_request(**kw))


# -- a format the card cannot compute -------------------------------------------------------------------------------
# (card, format, workload, what runs instead, nearest first)
REFUSALS = [
    ("v100-32gb", "bf16", "full", ("fp16",)),  # Volta: FP16 tensor cores only
    ("t4", "bf16", "inference", ("fp16", "int8", "int4")),  # Turing
    ("a100-80gb", "fp8", "full", ("bf16",)),  # Ampere: no FP8 tensor cores, Transformer Engine's recipes do not run
    ("rtx-3090", "fp8", "lora", ("bf16",)),
    ("p40", "fp8", "inference", ("int8", "int4")),  # Pascal: no weight-only FP8 kernels below 8.0 either
    ("v100-16gb", "fp8", "inference", ("int8", "int4")),
    ("t4", "fp8", "inference", ("int8", "int4")),
    ("mi250x", "fp8", "inference", ("int8", "int4")),  # CDNA 2
    ("ascend-910b", "fp8", "full", ("bf16",)),
    ("v100-32gb", "mxfp4", "inference", ("int4",)),
    ("rtx-3060-12gb", "fp8", "full", ("bf16",)),
]


@pytest.mark.parametrize(("gpu", "precision", "workload", "instead"), REFUSALS)
def test_a_format_the_card_cannot_compute_is_refused_with_what_runs_instead(
        gpu: str, precision: str, workload: str, instead: tuple[str, ...]) -> None:
    with pytest.raises(UnsupportedPrecision) as e:
        check(model="llama-2-7b", workload=workload, gpu=gpu, precision=precision)
    assert e.value.field == "precision" and e.value.support.instead == instead
    assert f"accepted instead: {', '.join(instead)}" in str(e.value)
    assert e.value.support.architecture in str(e.value) and e.value.support.source
    assert ENGINE.precision_support(gpu, precision, workload).mode == "refused"
    # …and the first format named instead does run there
    fmt = "fp16" if instead[0] == "fp16" and workload != "inference" else instead[0]
    assert check(model="llama-2-7b", workload=workload, gpu=gpu, precision=fmt).precision == fmt


@pytest.mark.parametrize(("gpu", "precision", "mode"), [
    ("a100-80gb", "fp8", "weight-only"),  # W8A16: vLLM's FP8 Marlin kernels on compute capability 8.0+
    ("rtx-3090", "fp8", "weight-only"), ("a100-80gb", "mxfp4", "weight-only"),  # gpt-oss's MXFP4 experts on Ampere
    ("rtx-4090", "fp8", "native"), ("h100-sxm", "fp8", "native"), ("b200", "nvfp4", "native"),
    ("p40", "fp16", "upcast"),  # Pascal: no tensor cores, 16-bit weights computed in FP32
])
def test_inference_formats_run_natively_weight_only_or_upcast(gpu: str, precision: str, mode: str) -> None:
    r = check(model="llama-2-7b", workload="inference", gpu=gpu, precision=precision)
    assert r.precision == precision and r.precision_mode == mode
    assert ENGINE.precision_support(gpu, precision, "inference").mode == mode


def test_a_default_the_card_cannot_compute_is_replaced_by_what_it_runs() -> None:
    """No --precision: full training defaults to BF16, which Volta trains in FP16 instead, said in the assumptions."""
    r = check(model="llama-2-7b", workload="full", gpu="v100-32gb", count=8, zero=3)
    assert r.precision == "fp16" and any("bf16" in a.lower() and "fp16" in a.lower() for a in r.assumptions)
    r = check(model="deepseek-r1", workload="inference", gpu="a100-80gb", count=16)  # an FP8 release on Ampere
    assert r.precision in ("fp8", "bf16")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_support_in_words_names_what_runs_instead(lang: str) -> None:
    s = ENGINE.precision_support("v100-32gb", "bf16", "full")
    text = render(support_note(s), lang)  # type: ignore[arg-type]
    assert "V100 32GB" in text and "Volta" in text and "fp16" in text and "7.0" in text


# -- "does card X support Y" ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("gpu", "feature", "value"), [
    ("v100-32gb", "bf16", False), ("a100-80gb", "bf16", True), ("a100-80gb", "fp8", False), ("h100-sxm", "fp8", True),
    ("rtx-4090", "fp8", True), ("b200", "fp4", True), ("h100-sxm", "fp4", False), ("a100-80gb", "mig", True),
    ("l40s", "mig", False), ("rtx-4090", "nvlink", "none"), ("rtx-3090", "nvlink", "bridge"),
    ("mi300x", "nvlink", "infinity-fabric"), ("rtx-4090", "ecc", "off by default"), ("t4", "compute_capability", "7.5"),
    ("p40", "architecture", "Pascal"), ("ascend-910b", "fp8", False),
])
def test_card_features_come_from_the_records_with_their_source(gpu: str, feature: str, value: object) -> None:
    f = ENGINE.supports(gpu, feature)
    assert f.value == value and f.source and f.record_id.startswith("spec-")
    assert gpu_name(gpu) in render(feature_note(f), "en") and gpu_name(gpu) in render(feature_note(f), "zh")


def test_a_feature_kb_does_not_record_is_bad_input() -> None:
    with pytest.raises(BadInput, match="accepted: bf16, fp8"):
        ENGINE.supports("a100-80gb", "tf32")


def test_every_record_has_every_capability() -> None:
    for gpu in ENGINE.gpus.values():
        c = gpu.capabilities
        assert c.architecture and c.compute_capability and c.nvlink and c.ecc, gpu.id
        assert all(c.notes.get(k) for k in ("architecture", "bf16_tensor", "fp8_tensor", "fp4_tensor", "nvlink",
                                            "mig", "ecc")), gpu.id


# -- a card kb has no record of, from its stated memory ---------------------------------------------------------------
# (the card's name, its memory as stated, the check, fits?)
STATED = [
    ("RTX 2080 Ti", 11, dict(model="llama-2-7b", workload="qlora"), True),
    ("RTX 4060 Ti 8GB", 8, dict(model="qwen2.5-7b-instruct-awq", workload="inference"), True),
    ("RX 7900 XTX", 24, dict(model="llama-2-13b", workload="qlora"), True),
    ("MI210", 64, dict(model="llama-2-70b", workload="inference"), False),
    ("A30", 24, dict(model="qwen2.5-14b", workload="inference"), False),
    ("L40", 48, dict(model="llama-2-70b", workload="qlora"), False),
    ("P100", 16, dict(model="llama-2-7b", workload="inference"), False),
    ("GTX 1080 Ti", 11, dict(model="llama-2-7b", workload="inference", precision="int8"), True),
    ("RTX 2060", 6, dict(model="qwen2.5-7b", workload="inference"), False),
    ("Arc A770", 16, dict(model="llama-2-7b", workload="lora"), False),
    ("Titan RTX", 24, dict(model="llama-2-13b", workload="inference", precision="int8"), True),
    ("my card", 8, dict(model="llama-2-13b", workload="inference"), False),
]


@pytest.mark.parametrize(("name", "gib", "kw", "fits"), STATED)
def test_a_card_kb_has_no_record_of_is_checked_from_its_stated_memory(
        name: str, gib: float, kw: dict[str, object], fits: bool) -> None:
    assert not ENGINE.knows(name)
    r = check(gpu=name, vram_gib=gib, **kw)
    assert r.gpu == name and r.gpu_known is False and r.fits is fits
    assert r.per_gpu_available_bytes == int(gib * GIB)
    assert set(r.unknown_figures) == {"speed", "power", "price"}
    assert r.decode_tokens_per_s is None and r.train_gpu_hours is None and r.power_w is None
    assert r.capex_cny is None and r.cost_per_million_tokens_cny is None
    assert r.total_required_bytes >= r.per_gpu_required_bytes > 0 and not r.citations
    assert any(name in a and "unknown" in a.lower() for a in r.assumptions)


def test_a_stated_card_does_training_times_unknown() -> None:
    r = check(model="llama-2-7b", workload="full", gpu="some card", vram_gib=80, count=8, zero=3, tokens=1e9)
    assert r.fits and r.train_gpu_hours is None and r.train_wall_hours is None and r.capex_cny is None


def test_a_card_kb_has_no_record_of_without_a_memory_is_told_what_it_needs() -> None:
    req = parse_request(model="llama-2-7b", workload="inference", gpu="RTX 2080 Ti")
    need = ENGINE.need(req)
    per = need.per_gpu_required_bytes / GIB
    assert 16 < per < 20 and need.total_required_bytes == need.per_gpu_required_bytes
    with pytest.raises(BadInput, match=rf"needs {per:,.1f} GiB a card") as e:
        ENGINE.check(req)
    assert e.value.field == "gpu" and "--vram-gib" in str(e.value)
    # the need equals the check at exactly that memory
    assert check(model="llama-2-7b", workload="inference", gpu="RTX 2080 Ti", vram_gib=per + 0.05).fits
    assert not check(model="llama-2-7b", workload="inference", gpu="RTX 2080 Ti", vram_gib=per - 0.2).fits
    assert "RTX 2080 Ti" in render(need_note(need), "en") and f"{per:,.1f} GiB" in render(need_note(need), "zh")


# -- offload with a host memory -------------------------------------------------------------------------------------
def test_parameter_offload_needs_the_host_memory_deepspeed_estimates() -> None:
    """Qwen2.5-72B on 8 × A100, ZeRO-3 with parameters offloaded: DeepSpeed's estimator charges the host 18 B a
    parameter × 1.5 (≈ 1,828 GiB a node); 1 TiB of host memory does not hold it, 2 TiB does."""
    base = dict(model="qwen2.5-72b", workload="full", gpu="a100-80gb", count=8, zero=3, offload=True,
                offload_params=True)
    small, big = check(**base, host_memory_gib=1024), check(**base, host_memory_gib=2048)
    for r in (small, big):
        assert r.offload is not None and r.offload.what == "params" and r.offload.bytes_per_param == 18
        assert r.offload.host_required_bytes == pytest.approx(r.model_params * 18 * 1.5, rel=1e-6)
        assert r.per_gpu_required_bytes < r.per_gpu_available_bytes  # the GPUs hold what stays
    assert small.offload is not None and small.offload.host_fits is False and small.fits is False
    assert big.offload is not None and big.offload.host_fits is True and big.fits is True
    assert not check(model="qwen2.5-72b", workload="full", gpu="a100-80gb", count=8, zero=3).fits  # nothing offloaded


def test_optimizer_offload_and_nvme() -> None:
    r = check(model="llama-2-7b", workload="full", gpu="rtx-4090", zero=2, offload=True, host_memory_gib=128)
    assert r.offload is not None and r.offload.what == "optimizer" and r.offload.host_fits is False
    assert r.offload.host_required_bytes == pytest.approx(r.model_params * 16 * 1.5, rel=1e-6) and not r.fits
    n = check(model="llama-2-7b", workload="full", gpu="rtx-4090", zero=3, offload=True, offload_params=True,
              offload_device="nvme", host_memory_gib=64)
    assert n.offload is not None and n.offload.device == "nvme" and n.offload.host_required_bytes is None
    assert n.offload.nvme_required_bytes == pytest.approx(n.model_params * 18, rel=1e-6) and n.fits
    # two nodes share the host states
    two = check(model="llama-2-70b", workload="full", gpu="a100-80gb", count=16, zero=3, offload=True,
                host_memory_gib=1024)
    assert two.offload is not None and two.offload.nodes == 2 and two.offload.host_fits is True


def test_offload_params_needs_zero_3_and_offload() -> None:
    with pytest.raises(BadInput) as e:
        parse_request(model="llama-2-7b", workload="full", gpu="a100-80gb", zero=2, offload=True, offload_params=True)
    assert e.value.field == "offload_params"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_offload_in_words(lang: str) -> None:
    r = check(model="qwen2.5-72b", workload="full", gpu="a100-80gb", count=8, zero=3, offload=True,
              offload_params=True, host_memory_gib=1024)
    assert r.offload is not None
    text = render(offload_note(r.offload), lang)  # type: ignore[arg-type]
    assert "1,828.2 GiB" in text and "1,024 GiB" in text


# -- totals first ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw", [
    dict(model="qwen2.5-72b", workload="full", gpu="a100-80gb", count=8, zero=3, offload_params=True,
         host_memory_gib=1024),  # the host's share said with the total
    dict(model="llama-2-70b", workload="inference", gpu="a100-80gb", count=2, precision="fp16"),
    dict(model="llama-2-7b", workload="full", gpu="a100-80gb", count=8, zero=3),
    dict(model="qwen2.5-72b", workload="qlora", gpu="rtx-4090"),
])
def test_the_total_and_its_terms_in_zh_and_en(kw: dict[str, object]) -> None:
    r = check(**kw)
    b = r.breakdown
    terms = [b.weights, b.gradients, b.optimizer, b.activations, b.kv_cache, b.overhead]
    assert r.total_required_bytes == sum(terms)
    numbers = {}
    for lang in ("en", "zh"):
        total = render(total_note(r), lang)  # type: ignore[arg-type]
        cards = render(cards_note(r), lang)  # type: ignore[arg-type]
        assert f"{r.total_required_bytes / GIB:,.1f} GiB" in total
        assert f"{r.per_gpu_required_bytes / GIB:,.1f} GiB" in cards and gpu_name(r.gpu) in cards
        numbers[lang] = re.findall(r"[\d,]+\.\d", total + cards)
    assert numbers["en"] == numbers["zh"] and len(numbers["en"]) >= 3
    assert "in all" in render(total_note(r), "en") and "共需" in render(total_note(r), "zh")


def test_the_text_output_leads_with_the_total() -> None:
    from kb.fit.render import render_fit_text
    r = check(model="llama-2-70b", workload="inference", gpu="a100-80gb", count=2, precision="fp16")
    for lang, word in (("en", "in all"), ("zh", "共需")):
        lines = render_fit_text(r, lang).splitlines()  # type: ignore[arg-type]
        assert word in lines[2]


# -- serving at scale -----------------------------------------------------------------------------------------------
def test_a_selection_for_many_users_counts_the_replicas_it_serves_with() -> None:
    """4,000 sequences at once need 64 A100s as 8 copies of TP 8, and the selection's row says 8 copies (it said 1:
    the count over the fewest GPUs, which already serve all 4,000)."""
    sel, _ = ENGINE.select("qwen2.5-32b", "inference", concurrency=4000, budget_cny=20e6)
    row = next(r for r in sel.rows if r.gpu == "a100-80gb")
    check_r = ENGINE.numbers(parse_request(model="qwen2.5-32b", workload="inference", gpu="a100-80gb",
                                           count=row.gpu_count, concurrency=4000))
    assert check_r.serving is not None and row.replicas == check_r.serving.replicas > 1
