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

from kb.fit.messages import msg
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


def weight_bytes(shape: ModelShape, precision: str, *, language: str = "en") -> tuple[int, str]:
    """Bytes of one copy of the weights, and the step that shows how."""
    bits = BITS[precision]
    if precision not in QUANTISED:
        n = shape.params * bits / 8
        return round(n), msg("weights_plain", language, params=shape.params, bytes=bits / 8, precision=precision,
                             size=gb(n))
    norms = shape.layers * 2 * shape.hidden + shape.hidden
    kept = min(shape.params, shape.embedding_params + norms)
    quantised = shape.params - kept
    n = quantised * bits / 8 + kept * 2
    return round(n), msg("weights_quantised", language, quantised=quantised, bits=bits, precision=precision,
                         kept=kept, size=gb(n))


def kv_cache_bytes(shape: ModelShape, seq_len: int, batch: int, value_bytes: int, *,
                   language: str = "en") -> tuple[int, str]:
    """KV cache = 2 × layers × kv heads × head dim × bytes × tokens × batch."""
    n = 2 * shape.layers * shape.kv_heads * shape.head_dim * value_bytes * seq_len * batch
    return n, msg("kv_cache_step", language, layers=shape.layers, kv_heads=shape.kv_heads, head_dim=shape.head_dim,
                  value_bytes=value_bytes, seq=seq_len, batch=batch, size=gb(n))


def layer_activation_bytes(shape: ModelShape, seq_len: int, batch: int) -> int:
    """One layer's stored activations with FlashAttention: 34·s·b·h (Korthikanti et al. 2022)."""
    return 34 * seq_len * batch * shape.hidden


def training_activations(shape: ModelShape, seq_len: int, batch: int, checkpointing: bool, *,
                         language: str = "en") -> tuple[int, list[str]]:
    """Activations kept for the backward pass of one micro-batch, with the loss's fp32 logits."""
    s, b, h, a, L = seq_len, batch, shape.hidden, shape.heads, shape.layers
    one = layer_activation_bytes(shape, s, b)
    logits = 4 * s * b * shape.vocab
    steps = [msg("act_layer", language, s=s, b=b, h=h, a=a, size=gb(one))]
    if checkpointing:
        inputs = 2 * s * b * h * L
        n = inputs + one + logits
        steps.append(msg("act_ckpt", language, layers=L, inputs=gb(inputs), one=gb(one), logits=gb(logits),
                         total=gb(n), without=gb(one * L + logits)))
    else:
        n = one * L + logits
        steps.append(msg("act_no_ckpt", language, one=gb(one), layers=L, logits=gb(logits), total=gb(n)))
    return n, steps


def with_overhead(per_gpu: dict[str, int]) -> int:
    """The allowance for one GPU: CUDA context + fragmentation of everything else."""
    return CONTEXT_BYTES + math.ceil(FRAGMENTATION * sum(v for k, v in per_gpu.items() if k != "overhead"))


def _finish(total: dict[str, int], per_gpu: dict[str, int], count: int, steps: list[str], language: str) -> None:
    per_gpu["overhead"] = with_overhead(per_gpu)
    total["overhead"] = per_gpu["overhead"] * count
    steps.append(msg("overhead_step", language, fragmentation=FRAGMENTATION, size=gb(per_gpu["overhead"])))
    terms = " + ".join(f"{msg(f'term.{k}', language)} {per_gpu[k] / GIB:,.2f}" for k in TERMS if per_gpu[k])
    steps.append(msg("required_step", language, terms=terms, size=gb(sum(per_gpu.values()))))


def inference_memory(shape: ModelShape, precision: str, seq_len: int, batch: int, count: int, *,
                     language: str = "en") -> MemoryPlan:
    """Weights + KV cache + one layer's prefill working set, split evenly over `count` GPUs (tensor parallel)."""
    w, w_step = weight_bytes(shape, precision, language=language)
    kv_value = 4 if precision == "fp32" else 2
    kv, kv_step = kv_cache_bytes(shape, seq_len, batch, kv_value, language=language)
    act = layer_activation_bytes(shape, seq_len, batch)
    total = {"weights": w, "gradients": 0, "optimizer": 0, "activations": act, "kv_cache": kv, "overhead": 0}
    per_gpu = {k: math.ceil(v / count) for k, v in total.items()}
    steps = [w_step, kv_step,
             msg("inference_act_step", language, seq=seq_len, batch=batch, hidden=shape.hidden, size=gb(act))]
    if count > 1:
        steps.append(msg("inference_split_step", language, count=count))
    _finish(total, per_gpu, count, steps, language)
    kind = msg("kv_fp32" if kv_value == 4 else "kv_16bit", language)
    assumptions = [msg("kv_assumption", language, kind=kind, value_bytes=kv_value, seq=seq_len, batch=batch),
                   msg("inference_act_assumption", language)]
    if count > 1:
        assumptions.append(msg("inference_split_assumption", language, count=count))
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=w, kv_bytes=kv)


def zero_states(params: int, stage: int, count: int, *, language: str = "en") -> tuple[dict[str, int], str]:
    """Model states a GPU under ZeRO stage 0–3 (ZeRO paper, Ψ params, K = 12, N_d = count)."""
    w, g, o = 2 * params, 2 * params, 12 * params
    if stage >= 1:
        o = math.ceil(o / count)
    if stage >= 2:
        g = math.ceil(g / count)
    if stage >= 3:
        w = math.ceil(w / count)
    formula = {0: "(2+2+12)·Ψ", 1: "2Ψ + 2Ψ + 12Ψ/N", 2: "2Ψ + (2+12)Ψ/N", 3: "(2+2+12)Ψ/N"}[stage]
    step = msg("zero_step", language, stage=stage, params=params, count=count, formula=formula, w=w / 1e9,
               g=g / 1e9, o=o / 1e9, size=gb(w + g + o))
    return {"weights": w, "gradients": g, "optimizer": o}, step


def full_memory(shape: ModelShape, seq_len: int, batch: int, count: int, stage: int, checkpointing: bool, *,
                language: str = "en") -> MemoryPlan:
    """Mixed-precision Adam with ZeRO sharding; each GPU runs a micro-batch of `batch` sequences."""
    n = shape.params
    states, z_step = zero_states(n, stage, count, language=language)
    act, act_steps = training_activations(shape, seq_len, batch, checkpointing, language=language)
    total = {"weights": 2 * n, "gradients": 2 * n, "optimizer": 12 * n, "activations": act * count,
             "kv_cache": 0, "overhead": 0}
    per_gpu = {**states, "activations": act, "kv_cache": 0, "overhead": 0}
    steps = [msg("model_states_step", language, params=n, size=gb(16 * n)), z_step, *act_steps]
    _finish(total, per_gpu, count, steps, language)
    assumptions = [msg("adam_assumption", language),
                   msg("zero_assumption", language, stage=stage, count=count),
                   msg("full_batch_assumption", language, batch=batch)]
    return MemoryPlan(total, per_gpu, steps, assumptions)


def adapter_memory(shape: ModelShape, precision: str, seq_len: int, batch: int, count: int, rank: int,
                   checkpointing: bool, workload: str, *, language: str = "en") -> MemoryPlan:
    """LoRA/QLoRA: a frozen base at its precision + adapters with their own gradients and Adam moments."""
    base, w_step = weight_bytes(shape, precision, language=language)
    a = shape.lora_params(rank)
    act, act_steps = training_activations(shape, seq_len, batch, checkpointing, language=language)
    total = {"weights": base + 2 * a, "gradients": 2 * a, "optimizer": 8 * a, "activations": act,
             "kv_cache": 0, "overhead": 0}
    per_gpu = {k: math.ceil(v / count) for k, v in total.items()}
    steps = [msg("adapter_base_step", language, weights=w_step),
             msg("adapters_step", language, rank=rank, layers=shape.layers, params=a, bytes=ADAPTER_BYTES,
                 size=gb(ADAPTER_BYTES * a)), *act_steps]
    if count > 1:
        steps.append(msg("adapter_split_step", language, count=count))
    _finish(total, per_gpu, count, steps, language)
    kind = msg("qlora_kind" if workload == "qlora" else "lora_kind", language)
    assumptions = [msg("adapter_assumption", language, kind=kind, rank=rank),
                   msg("adapter_states_assumption", language),
                   msg("adapter_batch_assumption", language, batch=batch)]
    if count > 1:
        assumptions.append(msg("adapter_split_assumption", language, count=count))
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=base)
