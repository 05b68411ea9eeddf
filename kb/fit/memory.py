"""Memory per workload, term by term, before and after sharding across GPUs.

Conventions (each one is said in the check's `assumptions`):
- weights by precision; weight-only quantisers (int8, int4, nf4) quantise the blocks' linear layers and
  keep embeddings, LM head and norms in 16-bit, as GPTQ/AWQ/bitsandbytes do;
- mixed-precision Adam: 2 + 2 + 12 bytes a parameter (ZeRO paper, K = 12), sharded by ZeRO stage;
- LoRA/QLoRA adapters keep 16-bit weights and gradients and fp32 Adam moments: 12 bytes a parameter;
- activations: Korthikanti et al. 2022, s·b·h·(34 + 5·a·s/h) bytes a layer; FlashAttention does not
  store the attention scores, so the 5·a·s/h term drops out, leaving 34·s·b·h;
- KV cache = 2 × layers × kv heads × head dim × bytes × tokens × batch;
- overhead: 1 GiB a GPU for the CUDA context and libraries + 10 % of the rest for fragmentation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kb.fit.presets import ModelShape

GIB = 1024**3
BITS = {"fp32": 32.0, "bf16": 16.0, "fp16": 16.0, "int8": 8.0, "int4": 4.125, "nf4": 4.127}
QUANTISED = {"int8", "int4", "nf4"}
CONTEXT_BYTES = GIB  # CUDA context, cuBLAS/cuDNN workspaces, NCCL buffers: about 1 GiB a GPU
FRAGMENTATION = 0.10  # caching-allocator fragmentation, as a fraction of everything else
ADAM_BYTES = 16  # mixed-precision Adam: 2 (16-bit weights) + 2 (16-bit grads) + 12 (fp32 master, m, v)
ADAPTER_BYTES = 12  # LoRA adapters: 2 (bf16 weights) + 2 (bf16 grads) + 8 (fp32 Adam m, v)
TERMS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")


def gb(n: float) -> str:
    """Bytes for a step line: decimal GB and binary GiB, so either convention can be checked."""
    return f"{n / 1e9:,.2f} GB = {n / GIB:,.2f} GiB"


@dataclass
class MemoryPlan:
    """Totals before sharding, per-GPU shares after it, and the working for both."""

    total: dict[str, int]
    per_gpu: dict[str, int]
    steps: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    weight_bytes: int = 0  # one copy of the weights at the check's precision (decode reads these)
    kv_bytes: int = 0  # the whole KV cache (decode reads it too)

    @property
    def per_gpu_required(self) -> int:
        return sum(self.per_gpu.values())


def weight_bytes(shape: ModelShape, precision: str) -> tuple[int, str]:
    """Bytes of one copy of the weights, and the step that shows how."""
    bits = BITS[precision]
    if precision not in QUANTISED:
        n = shape.params * bits / 8
        return round(n), f"weights: {shape.params:,} params × {bits / 8:g} B ({precision}) = {gb(n)}"
    norms = shape.layers * 2 * shape.hidden + shape.hidden
    kept = min(shape.params, shape.embedding_params + norms)
    quantised = shape.params - kept
    n = quantised * bits / 8 + kept * 2
    return round(n), (f"weights: {quantised:,} linear params × {bits:g}/8 B ({precision}) + {kept:,} embedding, "
                      f"head and norm params × 2 B = {gb(n)}")


def kv_cache_bytes(shape: ModelShape, seq_len: int, batch: int, value_bytes: int) -> tuple[int, str]:
    """KV cache = 2 × layers × kv heads × head dim × bytes × tokens × batch."""
    n = 2 * shape.layers * shape.kv_heads * shape.head_dim * value_bytes * seq_len * batch
    return n, (f"KV cache: 2 × {shape.layers} layers × {shape.kv_heads} kv heads × {shape.head_dim} × "
               f"{value_bytes} B × {seq_len:,} tokens × batch {batch} = {gb(n)}")


def layer_activation_bytes(shape: ModelShape, seq_len: int, batch: int) -> int:
    """One layer's stored activations with FlashAttention: 34·s·b·h (Korthikanti et al. 2022)."""
    return 34 * seq_len * batch * shape.hidden


def training_activations(shape: ModelShape, seq_len: int, batch: int, checkpointing: bool) -> tuple[int, list[str]]:
    """Activations kept for the backward pass of one micro-batch, with the loss's fp32 logits."""
    s, b, h, a, L = seq_len, batch, shape.hidden, shape.heads, shape.layers
    one = layer_activation_bytes(shape, s, b)
    logits = 4 * s * b * shape.vocab
    steps = [f"activations a layer (Korthikanti et al. 2022): s·b·h·(34 + 5·a·s/h) = {s}·{b}·{h}·(34 + "
             f"5·{a}·{s}/{h}); FlashAttention stores no attention scores, so 34·s·b·h = {gb(one)}"]
    if checkpointing:
        inputs = 2 * s * b * h * L
        n = inputs + one + logits
        steps.append(f"activation checkpointing: layer inputs 2·s·b·h × {L} layers = {gb(inputs)}, + one layer "
                     f"recomputed {gb(one)}, + fp32 logits 4·s·b·vocab = {gb(logits)}: {gb(n)} "
                     f"(without checkpointing: {gb(one * L + logits)})")
    else:
        n = one * L + logits
        steps.append(f"no checkpointing: {gb(one)} × {L} layers + fp32 logits 4·s·b·vocab {gb(logits)} = {gb(n)}")
    return n, steps


def with_overhead(per_gpu: dict[str, int]) -> int:
    """The allowance for one GPU: CUDA context + fragmentation of everything else."""
    return CONTEXT_BYTES + math.ceil(FRAGMENTATION * sum(v for k, v in per_gpu.items() if k != "overhead"))


def _finish(total: dict[str, int], per_gpu: dict[str, int], count: int, steps: list[str]) -> None:
    per_gpu["overhead"] = with_overhead(per_gpu)
    total["overhead"] = per_gpu["overhead"] * count
    steps.append(f"overhead a GPU: 1 GiB CUDA context + {FRAGMENTATION:.0%} of the rest for fragmentation "
                 f"= {gb(per_gpu['overhead'])}")
    steps.append(f"required a GPU: {' + '.join(f'{k} {per_gpu[k] / GIB:,.2f}' for k in TERMS if per_gpu[k])} "
                 f"= {gb(sum(per_gpu.values()))}")


def inference_memory(shape: ModelShape, precision: str, seq_len: int, batch: int, count: int) -> MemoryPlan:
    """Weights + KV cache + one layer's prefill working set, split evenly over `count` GPUs (tensor parallel)."""
    w, w_step = weight_bytes(shape, precision)
    kv_value = 4 if precision == "fp32" else 2
    kv, kv_step = kv_cache_bytes(shape, seq_len, batch, kv_value)
    act = layer_activation_bytes(shape, seq_len, batch)
    total = {"weights": w, "gradients": 0, "optimizer": 0, "activations": act, "kv_cache": kv, "overhead": 0}
    per_gpu = {k: math.ceil(v / count) for k, v in total.items()}
    steps = [w_step, kv_step,
             f"activations: one layer's prefill working set 34·s·b·h = 34 × {seq_len:,} × {batch} × "
             f"{shape.hidden} = {gb(act)} (nothing is kept for a backward pass)"]
    if count > 1:
        steps.append(f"split over {count} GPUs (tensor/pipeline parallel): weights, KV cache and activations ÷ {count}")
    _finish(total, per_gpu, count, steps)
    assumptions = [f"KV cache in {'fp32' if kv_value == 4 else '16-bit'} ({kv_value} B a value), at the full "
                   f"{seq_len:,}-token context for each of {batch} sequence(s)",
                   "inference activations: one layer's transient working set (34·s·b·h), logits for the last "
                   "position only"]
    if count > 1:
        assumptions.append(f"weights, KV cache and activations split evenly over {count} GPUs "
                           "(tensor or pipeline parallel; the split's communication buffers are not counted)")
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=w, kv_bytes=kv)


def zero_states(params: int, stage: int, count: int) -> tuple[dict[str, int], str]:
    """Model states a GPU under ZeRO stage 0–3 (ZeRO paper, Ψ params, K = 12, N_d = count)."""
    w, g, o = 2 * params, 2 * params, 12 * params
    if stage >= 1:
        o = math.ceil(o / count)
    if stage >= 2:
        g = math.ceil(g / count)
    if stage >= 3:
        w = math.ceil(w / count)
    formula = {0: "(2+2+12)·Ψ", 1: "2Ψ + 2Ψ + 12Ψ/N", 2: "2Ψ + (2+12)Ψ/N", 3: "(2+2+12)Ψ/N"}[stage]
    step = (f"ZeRO stage {stage}, Ψ = {params:,}, N = {count}: {formula} = {w / 1e9:,.3f} + {g / 1e9:,.3f} + "
            f"{o / 1e9:,.3f} GB = {gb(w + g + o)} of model states a GPU")
    return {"weights": w, "gradients": g, "optimizer": o}, step


def full_memory(shape: ModelShape, seq_len: int, batch: int, count: int, stage: int, checkpointing: bool) -> MemoryPlan:
    """Mixed-precision Adam with ZeRO sharding; each GPU runs a micro-batch of `batch` sequences."""
    n = shape.params
    states, z_step = zero_states(n, stage, count)
    act, act_steps = training_activations(shape, seq_len, batch, checkpointing)
    total = {"weights": 2 * n, "gradients": 2 * n, "optimizer": 12 * n, "activations": act * count,
             "kv_cache": 0, "overhead": 0}
    per_gpu = {**states, "activations": act, "kv_cache": 0, "overhead": 0}
    steps = [f"model states: {n:,} params × 16 B (2 weights + 2 gradients + 12 fp32 master, momentum, variance) "
             f"= {gb(16 * n)}", z_step, *act_steps]
    _finish(total, per_gpu, count, steps)
    assumptions = ["mixed-precision Adam: 16 bytes a parameter of model states (ZeRO paper, K = 12)",
                   f"ZeRO stage {stage} over {count} data-parallel GPU(s), as the ZeRO paper shards it",
                   f"batch {batch} = the micro-batch on each GPU; activations are not sharded by ZeRO"]
    return MemoryPlan(total, per_gpu, steps, assumptions)


def adapter_memory(shape: ModelShape, precision: str, seq_len: int, batch: int, count: int, rank: int,
                   checkpointing: bool, workload: str) -> MemoryPlan:
    """LoRA/QLoRA: a frozen base at its precision + adapters with their own gradients and Adam moments."""
    base, w_step = weight_bytes(shape, precision)
    a = shape.lora_params(rank)
    act, act_steps = training_activations(shape, seq_len, batch, checkpointing)
    total = {"weights": base + 2 * a, "gradients": 2 * a, "optimizer": 8 * a, "activations": act,
             "kv_cache": 0, "overhead": 0}
    per_gpu = {k: math.ceil(v / count) for k, v in total.items()}
    steps = [f"frozen base {w_step}",
             f"adapters: rank {rank} on q, k, v, o, gate, up, down of {shape.layers} layers = {a:,} params; "
             f"× {ADAPTER_BYTES} B (2 weights + 2 gradients + 8 Adam) = {gb(ADAPTER_BYTES * a)}", *act_steps]
    if count > 1:
        steps.append(f"layers split over {count} GPUs (pipeline): every term ÷ {count}")
    _finish(total, per_gpu, count, steps)
    kind = "QLoRA (NF4 base with double quantisation, ≈ 4.127 bits a weight)" if workload == "qlora" else "LoRA"
    assumptions = [f"{kind}: rank {rank} adapters on all seven linear layers of every block (the QLoRA paper's "
                   "setting; PEFT's default r = 8 on q, v needs less)",
                   "adapters keep bf16 weights and gradients and fp32 Adam moments (12 B a parameter), "
                   "no fp32 master copy, as the QLoRA recipe does",
                   f"batch {batch} = the micro-batch"]
    if count > 1:
        assumptions.append(f"layers split evenly over {count} GPUs (pipeline/naive model parallel)")
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=base)
