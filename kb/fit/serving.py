"""Serving: where a model's copies go (TP inside a node, PP across nodes only when a node cannot hold it, more
replicas for throughput: vLLM's docs, "Distributed Inference and Serving"), and what each copy serves.

A replica is `tp · pp` GPUs; the sequences served at once are spread evenly over the replicas. Below a node
one replica uses the largest TP the heads allow (and, where the heads allow less than the GPUs given, the rest
as pipeline stages); above a node TP is a node's GPUs and PP the fewest nodes a copy needs. Decode of a
replica is read over its `tp · pp` GPUs (a pipeline kept full by enough sequences).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from kb.fit import speed, topology
from kb.fit.gpus import GpuSpec
from kb.fit.memory import (
    MemoryPlan,
    gb,
    input_embedding_bytes,
    kv_bytes_per_token,
    kv_cache_bytes,
    kv_value_bytes,
    prefill_tokens,
)
from kb.fit.presets import ModelShape
from kb.fit.result import Layout, Serving
from kb.numbers import GIB
from kb.words.note import Note, note

Planner = Callable[[int, int], MemoryPlan]  # (GPUs of one replica, sequences it serves) -> memory


@dataclass(frozen=True)
class Replicas:
    tp: int
    pp: int
    replicas: int
    sequences: int  # served by one replica

    @property
    def group(self) -> int:
        return self.tp * self.pp


def largest_tp(shape: ModelShape, gpu: GpuSpec, count: int) -> int:
    """The largest TP that fits a node and `count`, divides the heads and a node's GPUs."""
    node = min(count, gpu.gpus_per_node)
    return max(t for t in range(1, node + 1) if shape.heads % t == 0 and gpu.gpus_per_node % t == 0)


def arrange(shape: ModelShape, gpu: GpuSpec, count: int, sequences: int, available: int,
            plan_of: Planner) -> Replicas:
    """TP × PP × replicas for `count` GPUs serving `sequences` at once."""
    tp = largest_tp(shape, gpu, count)
    if count <= gpu.gpus_per_node:  # TP as wide as the heads allow, the node's other GPUs as pipeline stages
        return Replicas(tp, count // tp, 1, sequences)
    stages = count // tp
    for pp in range(1, stages + 1):
        if stages % pp:
            continue
        replicas = stages // pp
        share = math.ceil(sequences / replicas)
        if plan_of(tp * pp, share).per_gpu_required <= available:
            return Replicas(tp, pp, replicas, share)
    return Replicas(tp, stages, 1, sequences)


def gallop(fits: Callable[[int], bool], limit: int) -> int | None:
    """Smallest k in 1..limit with fits(k), for a fits that stays true once true: doubling, then bisecting (a
    handful of checks for the common small answer, ~2·log2(limit) at worst)."""
    if limit < 1:
        return None
    hi = 1
    while hi < limit and not fits(hi):
        hi *= 2
    hi = min(hi, limit)
    if not fits(hi):
        return None
    lo = hi // 2 + 1 if hi > 1 else 1
    while lo < hi:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def fewest(shape: ModelShape, gpu: GpuSpec, sequences: int, available: int, plan_of: Planner,
           limit: int) -> int | None:
    """Fewest GPUs whose arrangement fits: 1…a node, then whole nodes (bisected). One replica over every GPU
    needs least a GPU (the weights split widest, the KV cache the same in all), so that is what is tested."""
    def fits(n: int) -> bool:
        tp = largest_tp(shape, gpu, n)
        group = tp * (n // tp)
        return plan_of(group, sequences).per_gpu_required <= available

    for n in range(1, gpu.gpus_per_node + 1):
        if fits(n):
            return n
    nodes = gallop(lambda k: fits(k * gpu.gpus_per_node), limit // gpu.gpus_per_node)
    return nodes * gpu.gpus_per_node if nodes is not None else None


def layout(r: Replicas, gpu: GpuSpec, count: int, inter: topology.Link) -> Layout:
    nodes = math.ceil(count / gpu.gpus_per_node)
    return Layout(tp=r.tp, pp=r.pp, dp=r.replicas, ep=1, zero_stage=0, nodes=nodes,
                  gpus_per_node=min(gpu.gpus_per_node, count), intra_node_link=topology.intra_node(gpu).kind,
                  inter_node_link=inter.kind if nodes > 1 else None, micro_batches=0, bubble_fraction=0.0)


def serve(r: Replicas, gpu: GpuSpec, shape: ModelShape, plan: MemoryPlan, available: int, seq: int, fits: bool,
          precision: str, tflops: float, mfu: float, budget: int, inter: topology.Link, total_sequences: int,
          steps: list[Note], assumptions: list[Note]) -> Serving:
    """KV capacity left on a replica's GPUs (× replicas), the decode roofline and time to first token."""
    n = r.group
    value = kv_value_bytes(precision)
    per_token = kv_bytes_per_token(shape, value)
    per_seq, _ = kv_cache_bytes(shape, seq, 1, value)
    fixed = (plan.total["weights"] + plan.total["activations"]) / n
    kv_space = max(0, math.floor(((available - GIB) / 1.1 - fixed) * n)) * r.replicas
    cap_tokens, max_seqs = kv_space // per_token, kv_space // per_seq
    steps.append(note("kv_capacity_step", available=available / GIB, fixed=fixed / GIB, count=n * r.replicas,
                      space=gb(kv_space), per_token=per_token, tokens=cap_tokens, per_seq=gb(per_seq), seq=seq,
                      sequences=max_seqs))
    lk = speed.link(gpu, r.tp)
    out = Serving(concurrency=total_sequences, context_tokens=seq, kv_tokens_capacity=cap_tokens,
                  max_concurrent_sequences=max_seqs, prefill_token_budget=budget,
                  prefill_tokens=prefill_tokens(seq, total_sequences, budget), tensor_parallel=r.tp,
                  pipeline_parallel=r.pp, replicas=r.replicas, link=lk.kind if r.tp > 1 else None,
                  inter_node_link=inter.kind if n > gpu.gpus_per_node else None)
    if r.replicas > 1 or r.pp > 1:
        steps.append(note("replicas_step", replicas=r.replicas, tp=r.tp, pp=r.pp, share=r.sequences,
                          link=note(f"link.{topology.intra_node(gpu).kind}"),
                          inter=note(f"link.{inter.kind}")))
        assumptions.append(note("replicas_assumption"))
    if not fits:
        return out
    d = speed.decode(gpu, n, shape, plan.weight_bytes, per_seq, r.sequences, seq, tflops,
                     unread_bytes=input_embedding_bytes(shape, precision))
    ttft, ttft_note = speed.prefill_seconds(gpu, n, shape, seq, 1, mfu, tflops)
    steps += [speed.decode_note(gpu, n, d, tflops), note("ttft_step", prefill=ttft_note)]
    if n > 1:
        steps.append(speed.allreduce_note(gpu, n, shape, r.sequences, d.comm_s))
    assumptions += [note("decode_assumption"), note("ttft_assumption", mfu=mfu)]
    if n > 1:
        assumptions.append(note("tp_assumption", count=n, link=note(f"link.{lk.kind}"),
                                latency_us=speed.ALLREDUCE_LATENCY_S[lk.kind] * 1e6))
    if shape.moe:
        assumptions.append(note("moe_decode_assumption", experts=shape.experts, active=shape.experts_active))
    return out.model_copy(update={"aggregate_decode_tokens_per_s": d.aggregate * r.replicas,
                                  "per_sequence_decode_tokens_per_s": d.per_sequence, "ttft_s": ttft,
                                  "bound": d.bound, "allreduce_s_per_step": d.comm_s})
