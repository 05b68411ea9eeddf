"""Speed bounds: decode from memory bandwidth, prefill and training from the dense fp32-accumulate peak.

Decode at small batch is memory-bound: every token reads the weights and the KV cache once, so
bandwidth ÷ bytes read is a ceiling no kernel beats. Training and prefill are compute-bound:
FLOPs ÷ (dense 16-bit tensor peak with fp32 accumulate × MFU). A GeForce card's FP16-accumulate or
sparse figure is never the denominator (the RTX 4090's is 165.2, not the 330 §4.2 quotes).
"""

from __future__ import annotations

from kb.fit.gpus import GpuSpec
from kb.fit.presets import ModelShape


def decode_tokens_per_s(gpu: GpuSpec, count: int, weight_bytes: int, kv_bytes: int, batch: int) -> tuple[float, str]:
    """Upper bound on decode tokens/s: each step reads the weights once and every sequence's KV cache."""
    read = weight_bytes + kv_bytes
    bw = gpu.bandwidth_gbs * 1e9 * count
    tps = batch * bw / read
    return tps, (f"decode bound: {count} × {gpu.bandwidth_gbs:g} GB/s ÷ ({weight_bytes / 1e9:,.2f} GB weights + "
                 f"{kv_bytes / 1e9:,.2f} GB KV cache) × batch {batch} = {tps:,.1f} tokens/s")


def prefill_seconds(gpu: GpuSpec, count: int, shape: ModelShape, seq_len: int, batch: int,
                    mfu: float) -> tuple[float, str]:
    """Time to first token: 2·N·s·b for the matmuls + 2·L·s²·h·b for causal attention, over the dense peak."""
    flops = 2 * shape.params * seq_len * batch + 2 * shape.layers * seq_len**2 * shape.hidden * batch
    rate = gpu.bf16_dense_tflops * 1e12 * mfu * count
    t = flops / rate
    return t, (f"prefill: (2 × {shape.params:,} × {seq_len:,} × {batch} + 2 × {shape.layers} × {seq_len:,}² × "
               f"{shape.hidden} × {batch}) = {flops:.3e} FLOP ÷ ({count} × {gpu.bf16_dense_tflops:g} TFLOPS × "
               f"MFU {mfu:.0%}) = {t:,.2f} s")


def training_hours(gpu: GpuSpec, count: int, params: int, tokens: float, mfu: float) -> tuple[float, float, list[str]]:
    """(GPU-hours, wall-clock hours) for 6·N·T FLOP at the dense fp32-accumulate peak × MFU."""
    flops = 6 * params * tokens
    gpu_hours = flops / (gpu.bf16_dense_tflops * 1e12 * mfu) / 3600
    wall = gpu_hours / count
    return gpu_hours, wall, [
        f"training compute: 6 × {params:,} params × {tokens:.3e} tokens = {flops:.3e} FLOP",
        f"GPU-hours: {flops:.3e} ÷ ({gpu.bf16_dense_tflops:g} TFLOPS dense, fp32 accumulate × MFU {mfu:.0%}) "
        f"÷ 3600 = {gpu_hours:,.1f} GPU-hours; ÷ {count} GPU(s) = {wall:,.1f} hours wall-clock",
    ]
