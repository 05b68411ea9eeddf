"""kb's fit estimates beside published measurements, with the error of each (every case names its public source).

    python -m benchmarks.fit_accuracy          # a table: what, published, kb, kb / published, tolerance, holds

Each case states its tolerance and why; tests/kb/fit/test_fit_measured.py holds every case to it.
Kinds: "upper" (a roofline bound: kb ≥ published and within `factor`), "lower" (kb's FLOPs-only time must
not exceed the published hours and stays within `factor` below), "near" (|kb / published − 1| ≤ tol).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kb.fit.engine import FitEngine
from kb.fit.request import parse_request
from kb.fit.result import FitResult
from kb.numbers import GIB

ENGINE = FitEngine(Path(__file__).resolve().parents[1] / "corpus", mfu=0.40)


@dataclass(frozen=True)
class Case:
    what: str
    published: float
    unit: str
    kb: Callable[[], float]
    kind: str  # upper, lower, near
    tolerance: float  # factor for upper/lower, relative error for near
    source: str
    why: str = ""

    def value(self) -> float:
        return self.kb()

    def holds(self) -> bool:
        v, p = self.value(), self.published
        if self.kind == "upper":
            return p <= v <= p * self.tolerance
        if self.kind == "lower":
            return p / self.tolerance <= v <= p
        return abs(v / p - 1) <= self.tolerance


def _r(**kw: object) -> FitResult:
    return ENGINE.numbers(parse_request(**kw))


def _agg(**kw: object) -> float:
    s = _r(workload="inference", **kw).serving
    assert s is not None and s.aggregate_decode_tokens_per_s is not None
    return s.aggregate_decode_tokens_per_s


def _ttft(**kw: object) -> float:
    s = _r(workload="inference", **kw).serving
    assert s is not None and s.ttft_s is not None
    return s.ttft_s * 1e3


def _hours(model: str, gpu: str, tokens: float) -> float:
    h = _r(model=model, workload="full", gpu=gpu, count=1024, tokens=tokens).train_gpu_hours  # kb's layout search
    assert h is not None
    return h


def _gb(**kw: object) -> float:
    """Per-GPU need on one card, decimal GB (the unit the tables publish)."""
    return _r(count=1, gpu="h200", **kw).per_gpu_required_bytes / 1e9


def _cluster_hours(model: str, gpu: str, count: int, tokens: float, **kw: object) -> float:
    """GPU-hours at a published cluster size, with kb's own layout search (or the given pins)."""
    h = _r(model=model, workload="full", gpu=gpu, count=count, tokens=tokens, **kw).train_gpu_hours
    assert h is not None
    return h


def _run(**kw: object) -> FitResult:
    r = _r(workload="full", **kw)
    assert r.train_gpu_hours is not None and r.train_wall_hours is not None
    return r


# The published runs issue 37 holds kb to (±25 %), each with the run's own cards, count, tokens, sequence length,
# global batch (or batch schedule) and format; the layout is kb's own search.
LLAMA31_405B = dict(model="llama-3.1-405b", gpu="h100-sxm", count=16384, tokens=15.6e12, seq_len=8192,
                    batch_schedule=[{"until_tokens": 252e6, "batch_tokens": 4 * 2**20},
                                    {"until_tokens": 2.87e12, "batch_tokens": 8 * 2**20},
                                    {"batch_tokens": 16 * 2**20}])
# DeepSeek-V3: batch "gradually increased from 3072 to 15360 in the training of the first 469B tokens" (sequences of
# 4,096): kb takes that ramp at its mean, 9,216 sequences, then 15,360; FP8 training as the run did.
DEEPSEEK_V3 = dict(model="deepseek-v3", gpu="h800", count=2048, tokens=14.8e12, seq_len=4096, precision="fp8",
                   batch_schedule=[{"until_tokens": 469e9, "batch_tokens": 9216 * 4096},
                                   {"batch_tokens": 15360 * 4096}])
BLOOM = dict(model="176.247b", gpu="a100-80gb", count=384, tokens=366e9, seq_len=2048, global_batch_tokens=2048 * 2048)
MEGATRON_1T = dict(model="1008b", gpu="a100-80gb", count=3072, tokens=450e9, seq_len=2048,
                   global_batch_tokens=3072 * 2048)
LLAMA2_70B = dict(model="llama-2-70b", gpu="a100-80gb", count=2048, tokens=2e12, seq_len=4096,
                  global_batch_tokens=4 * 2**20)
RUNS = ("Llama 3 paper (arXiv 2407.21783) §3.3–3.4, Llama 3.1 model card; DeepSeek-V3 technical report "
        "(arXiv 2412.19437); BLOOM paper (arXiv 2211.05100) §3.4; Narayanan et al. 2021 (arXiv 2104.04473) §5.1; "
        "Llama 2 model card")


def _mfu(model: str, count: int, **kw: object) -> float:
    """kb's effective MFU on H100s: model FLOPs ÷ (GPU-seconds × dense BF16 peak), after bubble and traffic."""
    r = _r(model=model, workload="full", gpu="h100-sxm", count=count, tokens=1e12, seq_len=8192,
           global_batch_tokens=16 * 2**20, **kw)
    assert r.train_gpu_hours is not None
    return 6 * r.active_params * 1e12 / (r.train_gpu_hours * 3600 * ENGINE.gpu("h100-sxm").bf16_dense_tflops * 1e12)


LLAMA1 = "LLaMA paper, arXiv 2302.13971, table 15 (A100-80GB hours)"
LLAMA3 = "Llama 3 paper, arXiv 2407.21783, table 4"
LLAMA_CPP = "llama.cpp PR #4766"
TRT = "NVIDIA/TensorRT-LLM 0.5.0 docs/source/performance.md"
LF = "hiyouga/LLaMA-Factory README, hardware requirement (estimates)"
UNSLOTH = "Unsloth docs, requirements (minimum VRAM)"
CASES: tuple[Case, ...] = (
    Case("decode 4090 llama-2-7b F16 batch 1", 61.03, "tokens/s",
         lambda: _agg(model="llama-2-7b", gpu="rtx-4090", precision="fp16", seq_len=256), "upper", 2.0, LLAMA_CPP,
         "codellama-7B has llama-2-7b's shape (vocab 32016)"),
    Case("decode 4090 llama-2-7b Q8_0 batch 1", 98.13, "tokens/s",
         lambda: _agg(model="llama-2-7b", gpu="rtx-4090", precision="int8", seq_len=256), "upper", 2.0, LLAMA_CPP,
         "Q8_0 is 8.5 bits a weight; kb's int8 is 8 bits with 16-bit embeddings"),
    Case("TRT-LLM A100 7B FP16 batch 64, 128/128", 3486, "tokens/s",
         lambda: _agg(model="llama-2-7b", gpu="a100-80gb", precision="fp16", seq_len=256, concurrency=64),
         "upper", 2.0, TRT),
    Case("TRT-LLM A100 70B FP16 TP4 batch 64", 1237, "tokens/s",
         lambda: _agg(model="llama-2-70b", gpu="a100-80gb", count=4, precision="fp16", seq_len=256, concurrency=64),
         "upper", 3.0, TRT, "TP4 all-reduces at kb's latency allowance; real kernels reach less of the roofline"),
    Case("TRT-LLM H100 7B FP8 batch 64", 9193, "tokens/s",
         lambda: _agg(model="llama-2-7b", gpu="h100-sxm", precision="int8", seq_len=256, concurrency=64),
         "upper", 2.0, TRT, "FP8 read as kb's 8-bit weights (int8), KV in 16-bit"),
    Case("TRT-LLM H100 70B FP8 TP4 batch 64", 3317, "tokens/s",
         lambda: _agg(model="llama-2-70b", gpu="h100-sxm", count=4, precision="int8", seq_len=256, concurrency=64),
         "upper", 3.0, TRT),
    Case("TRT-LLM A100 7B time to first token, 2,048 in", 133, "ms",
         lambda: _ttft(model="llama-2-7b", gpu="a100-80gb", precision="fp16", seq_len=2048), "near", 1.0, TRT,
         "kb prefills at MFU 40 %; an inference kernel reaches more, so kb is slower (within 2x)"),
    Case("Llama 2 7B pretraining, A100-80GB, 2T tokens", 184_320, "GPU-hours",
         lambda: _hours("llama-2-7b", "a100-80gb", 2e12), "near", 0.10, "Llama 2 model card"),
    Case("Llama 2 13B pretraining", 368_640, "GPU-hours",
         lambda: _hours("llama-2-13b", "a100-80gb", 2e12), "near", 0.10, "Llama 2 model card"),
    Case("Llama 2 70B pretraining", 1_720_320, "GPU-hours",
         lambda: _hours("llama-2-70b", "a100-80gb", 2e12), "near", 0.10, "Llama 2 model card"),
    Case("Llama 3.1 8B pretraining, H100, 15T tokens", 1.46e6, "GPU-hours",
         lambda: _hours("llama-3.1-8b", "h100-sxm", 15e12), "lower", 3.0, "Llama 3.1 model card",
         "the published hours include more than one pass's FLOPs (restarts, evals, long-context stages)"),
    Case("Llama 3.1 70B pretraining", 7.0e6, "GPU-hours",
         lambda: _hours("llama-3.1-70b", "h100-sxm", 15e12), "lower", 3.0, "Llama 3.1 model card"),
    Case("Llama 3.1 405B, 16,384 H100, 15.6T tokens, 4M→8M→16M-token batches", 30.84e6, "GPU-hours",
         lambda: _run(**LLAMA31_405B).train_gpu_hours or 0.0, "near", 0.25, "Llama 3.1 model card; Llama 3 paper",
         "end-to-end hours (restarts, long-context stage) against one clean pass at MFU 0.40"),
    Case("DeepSeek-V3, 2,048 H800, 14.8T tokens, FP8", 2.788e6, "GPU-hours",
         lambda: _run(**DEEPSEEK_V3).train_gpu_hours or 0.0, "near", 0.25, "DeepSeek-V3 technical report, table 1",
         "2.788M includes 119K hours of context extension and 5K of post-training; kb counts the pre-training"),
    Case("BLOOM 176B, 384 A100-80GB, 366B tokens", 1_082_990, "GPU-hours",
         lambda: _run(**BLOOM).train_gpu_hours or 0.0, "near", 0.25, "BLOOM paper §3.4",
         "BLOOM's 156 TFLOP/s counts recomputation (HFU); its MFU was about 37 %, kb's 40 %"),
    Case("Megatron-LM 1T, 3,072 A100-80GB, 450B tokens", 84, "days",
         lambda: (_run(**MEGATRON_1T).train_wall_hours or 0.0) / 24, "near", 0.25,
         "Narayanan et al. 2021, §5.1 (an estimate at 163 TFLOP/s, 52 % HFU)"),
    Case("Llama 2 70B, 2,048 A100-80GB, 2T tokens, 4M-token batch", 1_720_320, "GPU-hours",
         lambda: _run(**LLAMA2_70B).train_gpu_hours or 0.0, "near", 0.25, "Llama 2 model card"),
    Case("LLaMA-1 7B, 2,048 A100-80GB, 1T tokens", 82_432, "GPU-hours",
         lambda: _cluster_hours("llama-2-7b", "a100-80gb", 2048, 1e12), "near", 0.15, LLAMA1,
         "LLaMA-1 7B has llama-2-7b's shape; the published hours are one clean pass (~44 % MFU); kb runs at MFU "
         "0.40, so kb is slower by about the ratio of MFUs"),
    Case("LLaMA-1 65B, 2,048 A100-80GB, 1.4T tokens (ZeRO-3)", 1_022_362, "GPU-hours",
         lambda: _cluster_hours("llama-65b", "a100-80gb", 2048, 1.4e12, zero=3), "near", 0.25, LLAMA1,
         "ZeRO-3 forced, as the issue measures it; MFU 0.40 against a run that reached ~0.47"),
    Case("Llama 3 405B, 16,384 H100: kb's effective MFU", 0.38, "MFU",
         lambda: _mfu("llama-3.1-405b", 16384), "near", 0.15, LLAMA3,
         "published 38 % at 16K GPUs (TP 8, PP 16, DP 128); kb's search picks its own layout, starting from MFU "
         "0.40 and losing what its bubble and traffic cost"),
    Case("Llama 3 405B, 8,192 H100: kb's effective MFU", 0.41, "MFU",
         lambda: _mfu("llama-3.1-405b", 8192), "near", 0.15, LLAMA3, "published 41 % at 8K GPUs (TP 8, PP 16, DP 64)"),
    Case("Llama 3 405B, 16,384 H100 pinned TP 8 × PP 16: kb's effective MFU", 0.38, "MFU",
         lambda: _mfu("llama-3.1-405b", 16384, tp=8, pp=16), "near", 0.25, LLAMA3,
         "kb now searches interleaved pipelines too (virtual stages v, bubble (p−1)/(v·m)), as Llama 3 ran; was "
         "0.19 with plain 1F1B, a limit kept visible until then"),
    Case("QLoRA 65B on one 48 GB GPU (need ≤ 48 GiB)", 48, "GiB",
         lambda: _r(model="llama-65b", workload="qlora", gpu="a100-80gb", seq_len=512, lora_rank=64,
                    vram_gib=48).per_gpu_required_bytes / GIB, "lower", 1.5, "QLoRA paper, arXiv 2305.14314",
         "kb's need must fit in 48 GiB; paged optimizers absorb the spikes kb's 10 % allowance covers"),
    *(Case(f"LLaMA-Factory {label} {b}B", gb, "GB", (lambda kw=kw, b=b: _gb(model=f"{b}b", **kw)), "near", tol, LF,
           why)
      for label, kw, tol, why, table in (
          ("full bf16 AMP", {"workload": "full", "seq_len": 512}, 0.25,
           "both 16-18 B a parameter; kb adds activations at 512 tokens", (120, 240, 600, 1200)),
          ("LoRA", {"workload": "lora", "seq_len": 512, "lora_rank": 8}, 0.35,
           "16-bit base + small adapters; kb adds activations and 10 % + 1 GiB", (16, 32, 64, 160)),
          ("QLoRA 4-bit", {"workload": "qlora", "seq_len": 512, "lora_rank": 8}, 0.40,
           "0.5 B a parameter + adapters; kb keeps embeddings in 16-bit", (6, 12, 24, 48)),
      )
      for b, gb in zip((7, 14, 30, 70), table, strict=True)),
    *(Case(f"Unsloth {label} {m}", gb, "GB", (lambda kw=kw, m=m: _gb(model=m, seq_len=2048, lora_rank=16, **kw)),
           "near", tol, UNSLOTH, why)
      for label, kw, tol, why, table in (
          ("LoRA", {"workload": "lora"}, 0.10,
           "16-bit base, r = 16, 2,048 tokens: the conventions match", (19, 22, 33, 76, 164)),
          ("QLoRA", {"workload": "qlora"}, 0.70,
           "Unsloth's own kernels and offloaded checkpointing need less than kb's plain QLoRA (up to 1.7x less)",
           (5, 6, 8.5, 26, 41)),
      )
      for m, gb in zip(("7b", "llama-3-8b", "14b", "32b", "70b"), table, strict=True)),
)


def report() -> list[list[str]]:
    rows = [["what", "published", "kb", "kb/published", "tolerance", "holds", "source"]]
    for c in CASES:
        v = c.value()
        tol = f"x{c.tolerance:g} {c.kind}" if c.kind != "near" else f"±{c.tolerance:.0%}"
        rows.append([c.what, f"{c.published:,.4g} {c.unit}", f"{v:,.4g}", f"{v / c.published:.2f}", tol,
                     "yes" if c.holds() else "NO", c.source])
    return rows


def main() -> None:
    rows = report()
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())


if __name__ == "__main__":
    main()
