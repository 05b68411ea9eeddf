"""Speed bounds: decode from memory bandwidth, prefill and training from the dense fp32-accumulate peak.

Decode at small batch is memory-bound: every token reads the weights and the KV cache once, so
bandwidth ÷ bytes read is a ceiling no kernel beats. Training and prefill are compute-bound:
FLOPs ÷ (dense 16-bit tensor peak with fp32 accumulate × MFU). A GeForce card's FP16-accumulate or
sparse figure is never the denominator (the RTX 4090's is 165.2, not the 330 §4.2 quotes).
"""

from __future__ import annotations

from kb.fit.gpus import GpuSpec
from kb.fit.messages import msg
from kb.fit.presets import ModelShape


def decode_tokens_per_s(gpu: GpuSpec, count: int, weight_bytes: int, kv_bytes: int, batch: int, *,
                        language: str = "en") -> tuple[float, str]:
    """Upper bound on decode tokens/s: each step reads the weights once and every sequence's KV cache."""
    read = weight_bytes + kv_bytes
    bw = gpu.bandwidth_gbs * 1e9 * count
    tps = batch * bw / read
    return tps, msg("decode_step", language, count=count, bandwidth=gpu.bandwidth_gbs, weights=weight_bytes / 1e9,
                    kv=kv_bytes / 1e9, batch=batch, tps=tps)


def prefill_seconds(gpu: GpuSpec, count: int, shape: ModelShape, seq_len: int, batch: int,
                    mfu: float, *, language: str = "en") -> tuple[float, str]:
    """Time to first token: 2·N·s·b for the matmuls + 2·L·s²·h·b for causal attention, over the dense peak."""
    flops = 2 * shape.params * seq_len * batch + 2 * shape.layers * seq_len**2 * shape.hidden * batch
    rate = gpu.bf16_dense_tflops * 1e12 * mfu * count
    t = flops / rate
    return t, msg("prefill_step", language, params=shape.params, seq=seq_len, batch=batch, layers=shape.layers,
                  hidden=shape.hidden, flops=flops, count=count, tflops=gpu.bf16_dense_tflops, mfu=mfu, seconds=t)


def training_hours(gpu: GpuSpec, count: int, params: int, tokens: float, mfu: float, *,
                   language: str = "en") -> tuple[float, float, list[str]]:
    """(GPU-hours, wall-clock hours) for 6·N·T FLOP at the dense fp32-accumulate peak × MFU."""
    flops = 6 * params * tokens
    gpu_hours = flops / (gpu.bf16_dense_tflops * 1e12 * mfu) / 3600
    wall = gpu_hours / count
    return gpu_hours, wall, [
        msg("train_compute_step", language, params=params, tokens=tokens, flops=flops),
        msg("gpu_hours_step", language, flops=flops, tflops=gpu.bf16_dense_tflops, mfu=mfu, gpu_hours=gpu_hours,
            count=count, wall=wall),
    ]
