"""Serving estimates, the MoE/MLA/window arithmetic, tensor parallelism's cost, alternatives, budget rankings."""

from __future__ import annotations

import itertools

import pytest

from kb.fit.presets import PRESETS, resolve_model
from kb.fit.request import parse_request
from kb.fit.result import FitResult
from kb.words.answer import gpu_name
from tests.support.fit_engine_helpers import ENGINE

GIB = 2**30


def check(**kw: object) -> FitResult:
    return ENGINE.check(parse_request(**kw))


def test_acceptance_qwen2_5_32b_32_sequences_on_a100_needs_two() -> None:
    r = check(model="qwen2.5-32b", workload="inference", gpu="a100-80gb", precision="bf16", concurrency=32,
              seq_len=4096)
    assert r.min_gpus == 2 and not r.fits
    assert r.breakdown.weights / 1e9 == pytest.approx(65.5, abs=0.1)
    assert r.breakdown.kv_cache / 1e9 == pytest.approx(34.4, abs=0.1)
    assert r.breakdown.activations == 34 * 8192 * 5120  # one layer's working set at the 8,192-token budget
    assert r.serving is not None and r.serving.prefill_token_budget == 8192 and r.serving.concurrency == 32
    assert any("8,192" in a and "vLLM" in a for a in r.assumptions)
    two = check(model="qwen2.5-32b", workload="inference", gpu="a100-80gb", precision="bf16", concurrency=32,
                seq_len=4096, count=2)
    s = two.serving
    assert two.fits and s is not None and s.tensor_parallel == 2 and s.link == "nvlink"
    assert s.max_concurrent_sequences >= 32 and s.kv_tokens_capacity >= 32 * 4096
    assert s.aggregate_decode_tokens_per_s and s.per_sequence_decode_tokens_per_s and s.ttft_s
    assert s.aggregate_decode_tokens_per_s == pytest.approx(32 * s.per_sequence_decode_tokens_per_s)
    assert (s.allreduce_s_per_step or 0) > 0


@pytest.mark.parametrize(("gpu", "model", "count"), [("rtx-4090", "llama-3-70b", 1), ("h200", "deepseek-v3", 2),
                                                    ("l4", "qwen3-30b-a3b", 1), ("b200", "7b", 1)])
def test_serving_is_filled_for_every_inference_check(gpu: str, model: str, count: int) -> None:
    r = check(model=model, workload="inference", gpu=gpu, count=count)
    assert r.serving is not None and r.serving.context_tokens == 4096
    assert (r.serving.aggregate_decode_tokens_per_s is not None) == r.fits
    assert check(model=model, workload="lora", gpu=gpu, count=count).serving is None


def test_aggregate_throughput_rises_with_concurrency_until_compute_bound() -> None:
    """Llama 3 8B on an H100 at 128 tokens of context: memory-bound until about 400 sequences, then flat."""
    runs = []
    for n in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024):
        s = check(model="llama-3-8b", workload="inference", gpu="h100-sxm", precision="bf16", seq_len=128,
                  concurrency=n).serving
        assert s is not None and s.aggregate_decode_tokens_per_s is not None
        runs.append((n, s.aggregate_decode_tokens_per_s, s.bound))
    first_compute = next(i for i, (_, _, bound) in enumerate(runs) if bound == "compute")
    assert runs[first_compute][0] == 512  # where it turns: 2 × active params a token outweighs the weight reads
    rising = [tps for _, tps, _ in runs[:first_compute + 1]]
    assert all(b > a * 1.2 for a, b in itertools.pairwise(rising))
    flat = [tps for _, tps, _ in runs[first_compute:]]
    assert max(flat) / min(flat) < 1.05


def test_mla_caches_the_latent_not_k_and_v() -> None:
    r = check(model="deepseek-v3", workload="inference", gpu="h200", count=16, seq_len=4096)
    assert r.kv_bytes_per_token == (512 + 64) * 61 * 2 == 70_272
    assert r.breakdown.kv_cache == 70_272 * 4096
    assert any("MLA" in s for s in r.steps)


def test_sliding_windows_cap_the_kv_cache() -> None:
    long = check(model="mistral-7b", workload="inference", gpu="a100-80gb", seq_len=32768)
    assert long.breakdown.kv_cache == 131_072 * 4096  # every layer keeps at most the 4,096-token window
    g = check(model="gemma-2-9b", workload="inference", gpu="a100-80gb", seq_len=16384)
    per_layer = 2 * 8 * 256 * 2
    assert g.breakdown.kv_cache == per_layer * (21 * 16384 + 21 * 4096)


def test_moe_decode_reads_only_the_routed_experts() -> None:
    from kb.fit.speed import read_fraction

    mix = PRESETS["mixtral-8x7b"]
    # a step reads what a token computes with and the input table it gathers rows of
    assert read_fraction(mix, 1) == pytest.approx((mix.active_params + mix.input_embedding_params) / mix.params,
                                                  rel=1e-9)
    assert read_fraction(mix, 64) == pytest.approx(1.0, abs=1e-6)  # a big batch touches every expert
    assert 0.25 < read_fraction(mix, 1) < 0.3


def test_tensor_parallel_over_pcie_costs_more_than_over_nvlink() -> None:
    kw = {"model": "llama-2-13b", "workload": "inference", "precision": "fp16", "count": 2, "concurrency": 8,
          "seq_len": 1024}
    pcie = check(gpu="rtx-4090", **kw).serving
    nvlink = check(gpu="a100-80gb", **kw).serving
    assert pcie is not None and nvlink is not None and pcie.link == "pcie" and nvlink.link == "nvlink"
    assert (pcie.allreduce_s_per_step or 0) > 2 * (nvlink.allreduce_s_per_step or 0)


def test_training_flops_use_active_parameters() -> None:
    r = check(model="mixtral-8x7b", workload="full", gpu="h100-sxm", count=64, zero=3, tokens=1e9, batch=4)
    flops_only = 6 * PRESETS["mixtral-8x7b"].active_params * 1e9 / (989.4e12 * 0.4) / 3600
    assert any(f"6 × {PRESETS['mixtral-8x7b'].active_params:,} active params" in s for s in r.steps)
    # the layout's bubble and traffic come on top of the FLOPs (issue 16), never below them
    assert flops_only <= (r.train_gpu_hours or 0) <= 1.5 * flops_only


@pytest.mark.parametrize(("model", "workload", "gpu", "count"), [
    ("llama-3-70b", "inference", "rtx-4090", 1), ("qwen2.5-72b", "inference", "l40s", 2),
    ("7b", "full", "rtx-4090", 1), ("13b", "full", "a100-80gb", 2), ("llama-2-70b", "lora", "a100-40gb", 1),
    ("deepseek-v3", "inference", "h200", 4), ("llama-3.1-405b", "qlora", "rtx-4090", 2)])
def test_a_check_that_does_not_fit_lists_what_would(model: str, workload: str, gpu: str, count: int) -> None:
    r = check(model=model, workload=workload, gpu=gpu, count=count)
    assert not r.fits and r.alternatives
    for a in r.alternatives:
        assert a.fits and a.per_gpu_required_bytes <= a.per_gpu_available_bytes
        again = check(model=model, workload=a.workload, gpu=gpu, count=a.gpu_count, precision=a.precision,
                      zero=a.zero_stage, offload=a.offload, **({"lora_rank": a.lora_rank} if a.lora_rank else {}))
        assert again.fits and again.per_gpu_required_bytes == a.per_gpu_required_bytes


def test_full_training_alternatives_name_adapters_and_offload() -> None:
    r = check(model="7b", workload="full", gpu="rtx-4090")
    changes = {a.change: a for a in r.alternatives}
    assert changes["workload"].workload == "lora"
    assert "offload" not in changes or changes["offload"].offload


def test_an_adapter_fine_tune_that_misses_by_its_rank_says_what_the_common_rank_needs() -> None:
    r = check(model="qwen2.5-14b", workload="qlora", gpu="rtx-4060-ti-16gb")  # rank 64: ~17 GiB of 16
    assert not r.fits and r.lora_rank == 64
    first = r.alternatives[0]
    assert (first.change, first.lora_rank, first.gpu_count, first.workload) == ("rank", 16, 1, "qlora")
    assert first.per_gpu_required_bytes < r.per_gpu_required_bytes
    # already at the common rank: no rank change to offer
    low = check(model="qwen2.5-32b", workload="qlora", gpu="rtx-4060-ti-16gb", lora_rank=16)
    assert "rank" not in {a.change for a in low.alternatives}


def test_most_of_the_cards_idle_gets_the_fewer_cards_alternative() -> None:
    r = check(model="7b", workload="inference", gpu="a100-80gb", count=8, precision="int4")
    assert r.fits and [(a.change, a.gpu_count) for a in r.alternatives] == [("count", 1)]


def test_training_ranking_without_tokens_has_a_speed_for_every_row() -> None:
    sel, _ = ENGINE.select("13b", "full", budget_cny=1_000_000, language="en")
    assert sel.rows and sel.ranked_by == "speed"
    assert all(r.train_wall_hours is not None for r in sel.rows)
    assert sorted(sel.rows, key=lambda r: r.rank_by_time)[0].train_wall_hours == min(
        r.train_wall_hours or 0 for r in sel.rows)


def test_vendor_only_cards_are_left_out_of_budget_rankings_with_a_reason() -> None:
    sel, _ = ENGINE.select("7b", "inference", budget_cny=500_000, language="en")
    for g in ("h200", "b200", "l40s", "l4", "rtx-5090", "rtx-6000-ada", "mi300x", "gaudi-3"):
        assert any(e.startswith(f"{gpu_name(g)}:") and "no price" in e for e in sel.excluded)


@pytest.mark.parametrize(("gpu", "mib"), [("h200", 143_771), ("rtx-5090", 32_607), ("b200", 183_359),
                                         ("mi300x", 196_592), ("h100-sxm", 81_559), ("l40s", 46_068)])
def test_capacity_is_what_the_driver_reports(gpu: str, mib: int) -> None:
    """cluster.md: an H200 shows 140.4 GiB, not 141 GB taken as decimal bytes (131.3 GiB)."""
    r = check(model="7b", workload="inference", gpu=gpu)
    assert r.per_gpu_available_bytes == mib * 2**20
    assert any("driver" in a and f"{mib:,}" in a for a in r.assumptions)


def test_data_parallel_training_over_pcie_can_be_link_bound() -> None:
    """8 GPUs, ZeRO-3, 7B at 512 tokens a micro-batch: the 4090s wait on PCIe, the A100s on their tensor cores."""
    kw = {"model": "7b", "workload": "full", "count": 8, "zero": 3, "seq_len": 512, "tokens": 1e9,
          "global_batch_tokens": 8 * 512, "tp": 1, "pp": 1}  # plain data parallelism, one micro-batch a step
    pcie, nvlink = check(gpu="rtx-4090", **kw), check(gpu="a100-80gb", **kw)
    flops_only = 6 * 7e9 * 1e9 / (165.2e12 * 0.4) / 3600 / 8
    assert pcie.train_wall_hours is not None and pcie.train_wall_hours > 2 * flops_only
    assert any("link-bound" in s for s in pcie.steps)
    assert any("compute-bound" in s for s in nvlink.steps)
    per_token = 6 * 7e9 + resolve_model("7b").attention_flops_per_token(512)  # (causal attention at 512 tokens)
    assert nvlink.train_wall_hours == pytest.approx(per_token * 1e9 / (312e12 * 0.4) / 3600 / 8)


@pytest.mark.parametrize("workload", ["inference", "full", "lora", "qlora"])
def test_every_check_that_does_not_fit_but_could_lists_alternatives(workload: str) -> None:
    """A grid of models × every GPU kind: where more cards would fit (min_gpus is a number), alternatives says so."""
    from kb.fit.gpus import load_gpus
    from tests.conftest import CORPUS

    missing = []
    for model in ("llama-2-13b", "llama-3-70b", "mixtral-8x7b", "qwen2.5-32b", "deepseek-v3", "qwen3-30b-a3b"):
        for gpu in load_gpus(CORPUS):
            r = check(model=model, workload=workload, gpu=gpu)
            if not r.fits and r.min_gpus is not None and not r.alternatives:
                missing.append(f"{model} {workload} on {gpu}")
    assert not missing, missing
