"""Speed: a decode roofline, prefill and training time from the dense peak, and tensor parallelism's all-reduces.

Decode: each step (one token for each of B sequences) reads the weights the step touches and every
sequence's KV cache, and computes 2 × active params (+ attention over the context) FLOPs a token. A
step takes the longer of the two (memory-bound at small B, compute-bound at large B), plus the
tensor-parallel all-reduces. An MoE step reads only the experts its B tokens are routed to: the
expected number of distinct experts of E with k a token is E·(1 − (1 − k/E)^B).
Tensor parallel over n GPUs: two all-reduces a layer (after attention and after the MLP) of
tokens × hidden × 2 bytes; a ring moves 2·(n−1)/n of it over one direction of the link (NVLink if
the card has it, else PCIe), plus a fixed latency each.
Training and prefill are compute-bound: FLOPs ÷ (dense 16-bit tensor peak with fp32 accumulate × MFU).
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.fit.gpus import GpuSpec
from kb.fit.presets import ModelShape
from kb.fit.topology import PCIE_ASSUMED_GBS
from kb.words.note import Note, note

ALLREDUCE_LATENCY_S = {"nvlink": 10e-6, "pcie": 30e-6}  # kb's allowance a collective, not a measurement
ACTIVATION_BYTES = 2  # all-reduced activations travel in 16-bit


@dataclass(frozen=True)
class Link:
    kind: str  # "nvlink" or "pcie"
    gbs_one_way: float


def link(gpu: GpuSpec, count: int = 0) -> Link:
    """The link tensor parallelism over `count` GPUs uses: NVLink where it joins them all, else PCIe (records give
    both directions; count 0: a node's GPUs)."""
    if gpu.nvlink_gbs and gpu.nvlink_spans(count or gpu.gpus_per_node):
        return Link("nvlink", gpu.nvlink_gbs / 2)
    return Link("pcie", (gpu.pcie_gbs or PCIE_ASSUMED_GBS) / 2)


def allreduce_seconds(gpu: GpuSpec, count: int, shape: ModelShape, tokens: int) -> float:
    """Time of one forward pass's all-reduces: 2 a layer of tokens × hidden × 2 B (0 on one GPU)."""
    if count <= 1:
        return 0.0
    lk = link(gpu, count)
    data = tokens * shape.hidden * ACTIVATION_BYTES
    one = 2 * (count - 1) / count * data / (lk.gbs_one_way * 1e9) + ALLREDUCE_LATENCY_S[lk.kind]
    return 2 * shape.layers * one


def allreduce_note(gpu: GpuSpec, count: int, shape: ModelShape, tokens: int, seconds: float) -> Note:
    lk = link(gpu, count)
    return note("allreduce_step", layers=shape.layers, tokens=tokens, hidden=shape.hidden, count=count,
                link=note(f"link.{lk.kind}"), gbs=lk.gbs_one_way, latency_us=ALLREDUCE_LATENCY_S[lk.kind] * 1e6,
                ms=seconds * 1e3)


def attention_dim(shape: ModelShape) -> int:
    """Width attention computes over a cached token: q heads × head dim (MLA decodes over its latent)."""
    if shape.mla:
        return shape.heads * (shape.kv_lora + shape.rope_dim)
    return shape.heads * shape.head_dim


def read_fraction(shape: ModelShape, sequences: int) -> float:
    """Share of the weights a decode step of `sequences` tokens reads (1 for a dense model)."""
    if not shape.moe:
        return 1.0
    e, k = shape.experts, shape.experts_active
    distinct = e * (1 - (1 - k / e) ** sequences)
    unread = shape.moe_layers * (e - distinct) * shape.expert_params
    return (shape.params - unread) / shape.params


@dataclass(frozen=True)
class Decode:
    """One decode step at a concurrency, and the tokens/s it implies."""

    sequences: int
    memory_s: float
    compute_s: float
    comm_s: float
    weights_read: float
    kv_read: float
    flops: float

    @property
    def step_s(self) -> float:
        return max(self.memory_s, self.compute_s) + self.comm_s

    @property
    def bound(self) -> str:
        return "compute" if self.compute_s > self.memory_s else "memory"

    @property
    def aggregate(self) -> float:
        return self.sequences / self.step_s

    @property
    def per_sequence(self) -> float:
        return 1 / self.step_s


def decode(gpu: GpuSpec, count: int, shape: ModelShape, weight_bytes: int, kv_bytes_per_seq: int,
           sequences: int, context: int, tflops: float | None = None, unread_bytes: int = 0) -> Decode:
    """The roofline of one decode step for `sequences` sequences at `context` tokens each (`tflops`: the
    format's dense rate, default the 16-bit one; `unread_bytes`: weights a step does not read, the input
    embedding table, of which it gathers one row a token)."""
    w = (weight_bytes - unread_bytes) * read_fraction(shape, sequences)
    kv = kv_bytes_per_seq * sequences
    flops = sequences * (2 * shape.active_params + 4 * shape.layers * context * attention_dim(shape))
    return Decode(sequences, (w + kv) / (gpu.bandwidth * 1e9 * count),
                  flops / ((tflops or gpu.rate16) * 1e12 * count),
                  allreduce_seconds(gpu, count, shape, sequences), w, kv, flops)


def decode_note(gpu: GpuSpec, count: int, d: Decode, tflops: float | None = None) -> Note:
    return note("decode_step", count=count, bandwidth=gpu.bandwidth, weights=d.weights_read / 1e9,
                kv=d.kv_read / 1e9, memory_ms=d.memory_s * 1e3, flops=d.flops, tflops=tflops or gpu.rate16,
                compute_ms=d.compute_s * 1e3, comm_ms=d.comm_s * 1e3, bound=note(f"bound.{d.bound}"),
                batch=d.sequences, tps=d.aggregate, per_seq=d.per_sequence)


def prefill_seconds(gpu: GpuSpec, count: int, shape: ModelShape, seq_len: int, batch: int,
                    mfu: float, tflops: float | None = None) -> tuple[float, Note]:
    """Prefill: 2·N_active·s·b for the matmuls + 2·L·s²·d·b for causal attention, over the dense peak × MFU,
    plus tensor parallelism's all-reduces."""
    d = shape.heads * shape.head_dim
    flops = 2 * shape.active_params * seq_len * batch + 2 * shape.layers * seq_len**2 * d * batch
    peak = tflops or gpu.rate16
    rate = peak * 1e12 * mfu * count
    comm = allreduce_seconds(gpu, count, shape, seq_len * batch)
    t = flops / rate + comm
    return t, note("prefill_step", params=shape.active_params, seq=seq_len, batch=batch, layers=shape.layers,
                   hidden=d, flops=flops, count=count, tflops=peak, mfu=mfu,
                   comm_ms=comm * 1e3, seconds=t)


def gradient_allreduce(params: float, count: int, gbs_one_way: float) -> tuple[float, float, float]:
    """(gradient bytes, bytes a GPU sends, seconds) of one ring all-reduce of 16-bit gradients over `count` GPUs
    at `gbs_one_way` GB/s: 2·(n−1)/n of the gradients a GPU, an ideal bound with no latency (table 5.3's method)."""
    grads = 2 * params
    moved = 2 * (count - 1) / count * grads if count > 1 else 0.0
    return grads, moved, moved / (gbs_one_way * 1e9)


def data_parallel_step(gpu: GpuSpec, count: int, shape: ModelShape, stage: int, tokens_per_step: int,
                       mfu: float) -> tuple[float, float, Note]:
    """(compute s, traffic s) of one optimizer step of data-parallel full training over the card's link.

    Gradients are all-reduced in 16-bit: 2 × 2Ψ × (N−1)/N bytes a GPU (ZeRO stages 0–2 move the same as plain
    data parallelism); ZeRO-3 also all-gathers the parameters, 1.5× that (ZeRO paper §7). Traffic overlaps
    compute, so a step takes the longer of the two.
    """
    lk = link(gpu)
    compute = 6 * shape.active_params * tokens_per_step / (gpu.rate16 * 1e12 * mfu * count)
    factor = 3 if stage == 3 else 2
    moved = factor * 2 * shape.params * (count - 1) / count
    comm = moved / (lk.gbs_one_way * 1e9)
    bound = "compute" if compute >= comm else "link"
    return compute, comm, note("dp_step", tokens=tokens_per_step, count=count, compute=compute, stage=stage,
                               factor=factor, gb=moved / 1e9, link=note(f"link.{lk.kind}"), gbs=lk.gbs_one_way,
                               comm=comm, bound=note(f"bound.{bound}"), scale=max(1.0, comm / compute))


def training_hours(gpu: GpuSpec, count: int, shape: ModelShape, tokens: float, mfu: float, seq_len: int
                   ) -> tuple[float, float, list[Note]]:
    """(GPU-hours, wall-clock hours) for the model FLOPs of `tokens` (6·N_active + causal attention a token) at the
    16-bit dense peak × MFU."""
    per_token = shape.train_flops_per_token(seq_len)
    flops = per_token * tokens
    gpu_hours = flops / (gpu.rate16 * 1e12 * mfu) / 3600
    wall = gpu_hours / count
    return gpu_hours, wall, [
        note("train_flops_step", params=shape.active_params, attention=per_token - 6 * shape.active_params,
             seq=seq_len, tokens=tokens, six=6 * shape.active_params * tokens,
             attn=(per_token - 6 * shape.active_params) * tokens, flops=flops),
        note("gpu_hours_step", flops=flops, tflops=gpu.rate16, mfu=mfu, gpu_hours=gpu_hours, count=count, wall=wall),
    ]
