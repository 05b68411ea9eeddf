"""Issue 16's acceptance checks: today's formats, makers' own claims, layouts at cluster scale, serving replicas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli.fit import fit
from kb.fit.request import FitRequest
from tests.support.fit_engine_helpers import ENGINE


def _n(**kw: object) -> object:
    return ENGINE.numbers(FitRequest(**kw))  # type: ignore[arg-type]


def test_fp8_runs_llama_3_70b_on_one_h100_at_its_fp8_rate() -> None:
    r = ENGINE.check(FitRequest(model="llama-3-70b", workload="inference", gpu="h100-sxm", precision="fp8"))
    assert r.fits and r.precision == "fp8"
    assert any("1979" in a and "FP8" in a for a in r.assumptions)


def test_a100_stores_fp8_but_computes_in_16_bit() -> None:
    r = ENGINE.check(FitRequest(model="llama-3-8b", workload="inference", gpu="a100-80gb", precision="fp8"))
    assert any("no FP8 tensor cores" in a for a in r.assumptions)


def test_deepseek_v3_defaults_to_its_fp8_release_and_one_h200_node() -> None:
    r = ENGINE.check(FitRequest(model="deepseek-v3", workload="inference", gpu="h200"))
    assert r.precision == "fp8" and r.min_gpus == 8  # 11 when it was taken as fp16
    assert any("release format" in a for a in r.assumptions)


@pytest.mark.parametrize(("model", "gpu"), [("gpt-oss-120b", "h100-sxm"), ("gpt-oss-20b", "rtx-4060-ti-16gb")])
def test_gpt_oss_fits_where_openai_says_it_runs(model: str, gpu: str) -> None:
    """OpenAI: 120b on one 80 GB GPU, 20b within 16 GB, both in their MXFP4 release."""
    r = ENGINE.numbers(FitRequest(model=model, workload="inference", gpu=gpu))
    assert r.fits and r.precision == "mxfp4"


def test_fp4_computes_at_blackwells_rate_only() -> None:
    b = ENGINE.check(FitRequest(model="llama-3-70b", workload="inference", gpu="b200", precision="nvfp4"))
    h = ENGINE.check(FitRequest(model="llama-3-70b", workload="inference", gpu="h100-sxm", precision="nvfp4"))
    assert any("9000" in a for a in b.assumptions) and any("no FP4" in a for a in h.assumptions)


def test_serving_many_users_adds_replicas_not_wider_tp() -> None:
    r = ENGINE.numbers(FitRequest(model="qwen2.5-32b", workload="inference", gpu="h100-sxm", count=64,
                                  concurrency=4000))
    assert r.serving is not None and (r.serving.tensor_parallel, r.serving.replicas) == (8, 8)


def test_pipeline_across_nodes_only_when_a_node_cannot_hold_the_weights() -> None:
    r = ENGINE.numbers(FitRequest(model="deepseek-v3", workload="inference", gpu="h100-sxm", count=16))
    assert r.fits and r.serving is not None and (r.serving.tensor_parallel, r.serving.pipeline_parallel) == (8, 2)
    assert r.layout is not None and r.layout.inter_node_link == "infiniband-ndr"


def test_deepseek_v3_zero3_on_2048_h100s_crosses_infiniband_not_nvlink() -> None:
    r = ENGINE.check(FitRequest(model="deepseek-v3", workload="full", gpu="h100-sxm", count=2048, zero=3,
                                tokens=1e12))
    lay = r.layout
    assert r.fits and lay is not None and lay.nodes == 256 and lay.tp <= 8
    assert any("InfiniBand" in s and "data-parallel traffic" in s for s in r.steps)


def test_llama_65b_on_2048_a100s_with_zero1_fits_with_a_layout() -> None:
    r = ENGINE.numbers(FitRequest(model="llama-65b", workload="full", gpu="a100-80gb", count=2048, zero=1))
    assert r.fits and r.layout is not None and r.layout.tp * r.layout.pp > 1


def test_405b_can_be_asked_on_16384_h100s() -> None:
    r = ENGINE.numbers(FitRequest(model="llama-3.1-405b", workload="full", gpu="h100-sxm", count=16384,
                                  tokens=15e12, seq_len=8192, global_batch_tokens=16 * 2**20))
    assert r.fits and r.layout is not None and r.layout.nodes == 2048 and r.layout.global_batch_tokens == 16 * 2**20


def test_slower_network_makes_a_link_bound_run_slower() -> None:
    kw = dict(model="llama-2-70b", workload="full", gpu="h100-sxm", count=1024, zero=3, tokens=1e12)
    fast = ENGINE.numbers(FitRequest(**kw))  # type: ignore[arg-type]
    slow = ENGINE.numbers(FitRequest(inter_node_gbps=25, **kw))  # type: ignore[arg-type]
    assert (slow.train_gpu_hours or 0) > (fast.train_gpu_hours or 0)


def test_cli_prints_the_layout_line_and_reads_a_config(tmp_path: Path) -> None:
    out = CliRunner().invoke(fit, ["--model", "7b", "--workload", "full", "--gpu", "h100-sxm", "--count", "64",
                                   "--tokens", "1e11"])
    assert out.exit_code == 0 and "8 node(s) × 8 GPUs" in out.output and "InfiniBand" in out.output
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
                               "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000}))
    got = CliRunner().invoke(fit, ["--config", str(cfg), "--workload", "inference", "--gpu", "rtx-4090", "--json"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.output)["model_params"] == 6_738_415_616  # llama-2-7b's count
    cfg.write_text(json.dumps({"model_type": "llama", "hidden_size": -1, "num_hidden_layers": 32}))
    bad = CliRunner().invoke(fit, ["--config", str(cfg), "--workload", "inference", "--gpu", "rtx-4090"])
    assert bad.exit_code == 2 and "hidden_size" in bad.output
