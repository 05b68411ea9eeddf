"""Memory per workload, term by term, before and after sharding across GPUs: numbers and Notes, no words.

Conventions (each one is said in the check's `assumptions`):
- weights by precision, every expert of an MoE model included (all must be resident); weight-only
  quantisers (int8, int4, nf4) quantise the blocks' linear layers and keep embeddings, LM head and
  norms in 16-bit, as GPTQ/AWQ/bitsandbytes do;
- mixed-precision Adam: 2 + 2 + 12 bytes a parameter (ZeRO paper, K = 12), sharded by ZeRO stage;
  optimizer offload (ZeRO-Offload) keeps the 12 on the host;
- LoRA/QLoRA adapters keep 16-bit weights and gradients and fp32 Adam moments: 12 bytes a parameter;
- activations: Korthikanti et al. 2022, s·b·h·(34 + 5·a·s/h) bytes a layer; FlashAttention does not
  store the attention scores, so the 5·a·s/h term drops out, leaving 34·s·b·h;
- KV cache = values a token and layer (2 × kv heads × head dim, or MLA's latent + rope key) × bytes ×
  cached token-layers (sliding-window layers keep at most the window) × sequences;
- inference prefill runs in chunks of at most a token budget (vLLM's max_num_batched_tokens), so its
  working set is one layer's 34·t·h for t = min(sequences × context, budget);
- overhead: 1 GiB a GPU for the CUDA context and libraries + 10 % of the rest for fragmentation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kb.fit.precision import BITS, QUANTISED, experts_only
from kb.fit.presets import ModelShape
from kb.numbers import GIB
from kb.words.note import Note, note

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
    steps: list[Note] = field(default_factory=list)
    assumptions: list[Note] = field(default_factory=list)
    weight_bytes: int = 0  # one copy of the weights at the check's precision (decode reads these)
    kv_bytes: int = 0  # the whole KV cache (decode reads it too)

    @property
    def per_gpu_required(self) -> int:
        return sum(self.per_gpu.values())


def weight_bytes(shape: ModelShape, precision: str) -> tuple[int, Note]:
    """Bytes of one copy of the weights, and the step that shows how."""
    bits = BITS[precision]
    if experts_only(precision, shape.release):
        experts = shape.moe_layers * shape.experts * shape.expert_params
        n = experts * bits / 8 + (shape.params - experts) * 2
        return round(n), note("weights_experts", experts=experts, bits=bits, precision=precision,
                              rest=shape.params - experts, size=gb(n))
    if precision not in QUANTISED:
        n = shape.params * bits / 8
        return round(n), note("weights_plain", params=shape.params, bytes=bits / 8, precision=precision, size=gb(n))
    kept = min(shape.params, shape.embedding_params + shape.norm_params)
    quantised = shape.params - kept
    n = quantised * bits / 8 + kept * 2
    return round(n), note("weights_quantised", quantised=quantised, bits=bits, precision=precision, kept=kept,
                          size=gb(n))


def input_embedding_bytes(shape: ModelShape, precision: str) -> int:
    """The input embedding table, which a decode step gathers one row of and never reads whole: none apart from
    the LM head when the two are tied (then the head reads it). Weight-only quantisers keep it in 16 bits."""
    if shape.tied or not shape.vocab:
        return 0
    per_value = 2 if precision in QUANTISED or experts_only(precision, shape.release) else BITS[precision] / 8
    return round(shape.vocab * shape.hidden * per_value)


def kv_bytes_per_token(shape: ModelShape, value_bytes: int = 2) -> int:
    """KV bytes a token at full attention in every layer (the contract's kv_bytes_per_token at 16-bit)."""
    return shape.kv_values_per_token_layer * shape.layers * value_bytes


def kv_cache_bytes(shape: ModelShape, seq_len: int, batch: int, value_bytes: int) -> tuple[int, Note]:
    """KV cache of `batch` sequences of `seq_len` tokens: values a token-layer × bytes × token-layers."""
    token_layers = shape.kv_cached_tokens(seq_len)
    n = shape.kv_values_per_token_layer * value_bytes * token_layers * batch
    if shape.mla:
        return n, note("kv_cache_mla_step", latent=shape.kv_lora, rope=shape.rope_dim, layers=shape.layers,
                       value_bytes=value_bytes, seq=seq_len, batch=batch, size=gb(n))
    if shape.windowed_layers and shape.window < seq_len:
        return n, note("kv_cache_window_step", kv_heads=shape.kv_heads, head_dim=shape.head_dim,
                       value_bytes=value_bytes, full=shape.layers - shape.windowed_layers, seq=seq_len,
                       windowed=shape.windowed_layers, window=shape.window, batch=batch, size=gb(n))
    return n, note("kv_cache_step", layers=shape.layers, kv_heads=shape.kv_heads, head_dim=shape.head_dim,
                   value_bytes=value_bytes, seq=seq_len, batch=batch, size=gb(n))


def layer_activation_bytes(shape: ModelShape, seq_len: int, batch: int) -> int:
    """One layer's stored activations with FlashAttention: 34·s·b·h (Korthikanti et al. 2022)."""
    return 34 * seq_len * batch * shape.hidden


def training_activations(shape: ModelShape, seq_len: int, batch: int, checkpointing: bool) -> tuple[int, list[Note]]:
    """Activations kept for the backward pass of one micro-batch, with the loss's fp32 logits."""
    s, b, h, a, L = seq_len, batch, shape.hidden, shape.heads, shape.layers
    one = layer_activation_bytes(shape, s, b)
    logits = 4 * s * b * shape.vocab
    steps = [note("act_layer", s=s, b=b, h=h, a=a, size=gb(one))]
    if checkpointing:
        inputs = 2 * s * b * h * L
        n = inputs + one + logits
        steps.append(note("act_ckpt", layers=L, inputs=gb(inputs), one=gb(one), logits=gb(logits), total=gb(n),
                          without=gb(one * L + logits)))
    else:
        n = one * L + logits
        steps.append(note("act_no_ckpt", one=gb(one), layers=L, logits=gb(logits), total=gb(n)))
    return n, steps


def with_overhead(per_gpu: dict[str, int]) -> int:
    """The allowance for one GPU: CUDA context + fragmentation of everything else."""
    return CONTEXT_BYTES + math.ceil(FRAGMENTATION * sum(v for k, v in per_gpu.items() if k != "overhead"))


def _finish(total: dict[str, int], per_gpu: dict[str, int], count: int, steps: list[Note]) -> None:
    per_gpu["overhead"] = with_overhead(per_gpu)
    total["overhead"] = per_gpu["overhead"] * count
    steps.append(note("overhead_step", fragmentation=FRAGMENTATION, size=gb(per_gpu["overhead"])))
    terms = [note("term_value", term=note(f"term.{k}"), gib=per_gpu[k] / GIB) for k in TERMS if per_gpu[k]]
    steps.append(note("required_step", terms=terms, size=gb(sum(per_gpu.values()))))


def kv_value_bytes(precision: str) -> int:
    return 4 if precision == "fp32" else 2


def prefill_tokens(seq_len: int, sequences: int, budget: int) -> int:
    """Tokens prefilled at once: every sequence's prompt, but never more than the chunked-prefill budget."""
    return min(seq_len * sequences, budget)


def inference_memory(shape: ModelShape, precision: str, seq_len: int, sequences: int, count: int,
                     prefill_budget: int) -> MemoryPlan:
    """Weights + KV cache of every sequence + one layer's chunked-prefill working set, split over `count` GPUs."""
    w, w_step = weight_bytes(shape, precision)
    kv_value = kv_value_bytes(precision)
    kv, kv_step = kv_cache_bytes(shape, seq_len, sequences, kv_value)
    tokens = prefill_tokens(seq_len, sequences, prefill_budget)
    act = 34 * tokens * shape.hidden
    total = {"weights": w, "gradients": 0, "optimizer": 0, "activations": act, "kv_cache": kv, "overhead": 0}
    per_gpu = {k: math.ceil(v / count) for k, v in total.items()}
    steps = [w_step, kv_step, note("inference_act_step", seq=seq_len, batch=sequences, tokens=tokens,
                                   budget=prefill_budget, hidden=shape.hidden, size=gb(act))]
    if count > 1:
        steps.append(note("inference_split_step", count=count))
    _finish(total, per_gpu, count, steps)
    kind = note("kv_fp32" if kv_value == 4 else "kv_16bit")
    assumptions = [note("kv_assumption", kind=kind, value_bytes=kv_value, seq=seq_len, batch=sequences),
                   note("inference_act_assumption", budget=prefill_budget)]
    if shape.windowed_layers:
        assumptions.append(note("window_assumption", windowed=shape.windowed_layers, layers=shape.layers,
                                window=shape.window))
    if shape.mla:
        assumptions.append(note("mla_assumption", latent=shape.kv_lora, rope=shape.rope_dim))
    if count > 1:
        assumptions.append(note("inference_split_assumption", count=count))
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=w, kv_bytes=kv)


def zero_states(params: int, stage: int, count: int, offload: str | bool = "none",
                gathered: int = 0) -> tuple[dict[str, int], Note]:
    """Model states a GPU under ZeRO stage 0–3 (ZeRO paper, Ψ params, K = 12, N_d = count). With offload
    (DeepSpeed ZeRO-Offload) the optimizer states and gradients live on the host, and ZeRO-3 keeps the largest
    layer gathered (`gathered` bytes); with parameter offload the weights leave the GPU too (kb.fit.offload)."""
    mode = ("optimizer" if offload else "none") if isinstance(offload, bool) else offload
    w, g, o = 2 * params, 2 * params, 12 * params
    if stage >= 1:
        o = math.ceil(o / count)
    if stage >= 2:
        g = math.ceil(g / count)
    if stage >= 3:
        w = math.ceil(w / count)
    formula = {0: "(2+2+12)·Ψ", 1: "2Ψ + 2Ψ + 12Ψ/N", 2: "2Ψ + (2+12)Ψ/N", 3: "(2+2+12)Ψ/N"}[stage]
    if mode != "none":
        o, g = 0, gathered if stage >= 3 else 0
        formula = {"optimizer": "2Ψ/N + 4·L" if stage >= 3 else "2Ψ", "params": "4·L"}[mode]
        if mode == "params":
            w = 0
    step = note("zero_step", stage=stage, params=params, count=count, formula=formula, w=w / 1e9, g=g / 1e9,
                o=o / 1e9, size=gb(w + g + o))
    return {"weights": w, "gradients": g, "optimizer": o}, step


def full_memory(shape: ModelShape, seq_len: int, batch: int, count: int, stage: int, checkpointing: bool,
                offload: str | bool = "none") -> MemoryPlan:
    """Mixed-precision Adam with ZeRO sharding; each GPU runs a micro-batch of `batch` sequences."""
    from kb.fit.offload import gathered_bytes

    mode = ("optimizer" if offload else "none") if isinstance(offload, bool) else offload
    n = shape.params
    states, z_step = zero_states(n, stage, count, mode, gathered_bytes(shape))
    act, act_steps = training_activations(shape, seq_len, batch, checkpointing)
    off = mode != "none"
    total = {"weights": 0 if mode == "params" else 2 * n, "gradients": states["gradients"] * count if off else 2 * n,
             "optimizer": 0 if off else 12 * n, "activations": act * count, "kv_cache": 0, "overhead": 0}
    per_gpu = {**states, "activations": act, "kv_cache": 0, "overhead": 0}
    steps = [note("model_states_step", params=n, size=gb(16 * n)), z_step, *act_steps]
    _finish(total, per_gpu, count, steps)
    assumptions = [note("adam_assumption"), note("zero_assumption", stage=stage, count=count),
                   note("full_batch_assumption", batch=batch)]
    if off:
        assumptions.append(note("offload_assumption", size=gb((16 if mode == "optimizer" else 18) * n)))
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
    steps = [note("adapter_base_step", weights=w_step),
             note("adapters_step", rank=rank, layers=shape.layers, params=a, bytes=ADAPTER_BYTES,
                  size=gb(ADAPTER_BYTES * a)), *act_steps]
    if count > 1:
        steps.append(note("adapter_split_step", count=count))
    _finish(total, per_gpu, count, steps)
    kind = note("qlora_kind" if workload == "qlora" else "lora_kind")
    assumptions = [note("adapter_assumption", kind=kind, rank=rank), note("adapter_states_assumption"),
                   note("adapter_batch_assumption", batch=batch)]
    if count > 1:
        assumptions.append(note("adapter_split_assumption", count=count))
    return MemoryPlan(total, per_gpu, steps, assumptions, weight_bytes=base)
