"""Training layouts: tensor × pipeline × data (ZeRO 0–3) × expert parallel, and the search for the fastest that fits.

Conventions (each said in a check's assumptions):
- rank order TP (fastest), DP, PP (Megatron-LM's): a TP group is `tp` neighbours inside a node, a DP group
  strides by `tp`, a PP group by `tp·dp`; a group crosses the network once it spans more than a node.
- TP splits every layer (and, with sequence parallelism, its stored activations) `tp` ways inside a node and
  divides the attention heads; PP splits the layers into stages, 1F1B holding up to `pp` micro-batches in
  flight at the first stage; EP splits an MoE layer's routed experts over `ep` ranks of the DP group, and
  ZeRO shards expert states over the dp/ep ranks that hold the same experts.
- a step is the global batch: each DP rank runs m micro-batches; the bubble is (pp − 1)/(m + pp − 1);
  compute is 6·N_active·tokens at the format's dense rate × MFU (model FLOPs: recomputation is inside MFU).
- TP all-reduces (4 a layer a micro-batch, 6 with recomputation) and PP/EP sends are not overlapped; DP
  gradient traffic (2·2Ψ·(n−1)/n; ZeRO-3 re-gathers the 16-bit weights twice a micro-batch) overlaps compute,
  so a step takes the longer of the two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from kb.fit import topology
from kb.fit.gpus import GpuSpec
from kb.fit.memory import CONTEXT_BYTES, FRAGMENTATION
from kb.fit.precision import compute_tflops
from kb.fit.presets import ModelShape

DEFAULT_GLOBAL_BATCH_TOKENS = 4_194_304  # 4M tokens a step: Llama 2/3's batch (Llama 3 paper, §3.4)


@dataclass(frozen=True)
class Layout:
    """One way to place a training run on `tp·pp·dp` GPUs."""

    tp: int
    pp: int
    dp: int
    ep: int
    zero: int
    gpus_per_node: int

    @property
    def count(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def nodes(self) -> int:
        return math.ceil(self.count / self.gpus_per_node)


@dataclass(frozen=True)
class Plan:
    """A layout's per-GPU memory and step time, term by term (bytes, seconds)."""

    layout: Layout
    states: int  # 16-bit weights + gradients + fp32 optimizer states on one GPU
    weights: int
    gradients: int
    optimizer: int
    activations: int
    overhead: int
    micro_batches: int
    bubble: float
    global_tokens: int
    compute_s: float
    tp_s: float
    pp_s: float
    ep_s: float
    dp_s: float
    dp_bytes: float
    links: dict[str, topology.Link]

    @property
    def per_gpu(self) -> int:
        return self.states + self.activations + self.overhead

    @property
    def step_s(self) -> float:
        return max(self.compute_s / (1 - self.bubble) + self.tp_s + self.pp_s + self.ep_s, self.dp_s)


def _zero(params: float, stage: int, shards: int, offload: bool) -> tuple[int, int, int]:
    """(weights, gradients, optimizer) bytes of `params` under ZeRO `stage` over `shards` ranks (ZeRO paper)."""
    w, g, o = 2 * params, 2 * params, 12 * params
    if stage >= 1:
        o /= shards
    if stage >= 2:
        g /= shards
    if stage >= 3:
        w /= shards
    return math.ceil(w), math.ceil(g), 0 if offload else math.ceil(o)


def routed_expert_params(shape: ModelShape) -> int:
    return shape.moe_layers * shape.experts * shape.expert_params if shape.moe else 0


@lru_cache(maxsize=8192)  # selections and alternatives re-plan the same layouts many times
def plan(shape: ModelShape, gpu: GpuSpec, lay: Layout, *, seq: int, batch: int, ckpt: bool, offload: bool,
         precision: str, mfu: float, inter: topology.Link, global_tokens: int | None) -> Plan:
    """Memory a GPU and time a step of `lay` (see the module's conventions)."""
    tp, pp, dp, ep = lay.tp, lay.pp, lay.dp, lay.ep
    experts = routed_expert_params(shape)
    dense = shape.params - experts
    if ep > 1:  # routed experts split over EP ranks, their states sharded over the dp/ep ranks that share them
        ew, eg, eo = _zero(experts / (pp * ep), lay.zero, max(1, dp // ep), offload)
        dw, dg, do = _zero(dense / (tp * pp), lay.zero, dp, offload)
        w, g, o = dw + ew, dg + eg, do + eo
    else:
        w, g, o = _zero(shape.params / (tp * pp), lay.zero, dp, offload)
    s, b, h, L = seq, batch, shape.hidden, shape.layers
    stage_layers = math.ceil(L / pp)
    tokens = global_tokens or max(DEFAULT_GLOBAL_BATCH_TOKENS, dp * b * s * pp)
    m = max(1, math.ceil(tokens / (dp * b * s)))
    per_layer = (2 if ckpt else 34) * s * b * h / tp
    act = math.ceil(min(pp, m) * stage_layers * per_layer + (34 * s * b * h / tp if ckpt else 0)
                    + 4 * s * b * shape.vocab / tp)
    overhead = CONTEXT_BYTES + math.ceil(FRAGMENTATION * (w + g + o + act))
    links = {"tp": topology.group_link(gpu, tp, 1, inter), "dp": topology.group_link(gpu, dp, tp, inter),
             "pp": topology.group_link(gpu, pp, tp * dp, inter), "ep": topology.group_link(gpu, ep, tp, inter)}
    rate, _ = compute_tflops(gpu, precision)
    real_tokens = m * dp * b * s
    compute = 6 * shape.active_params * real_tokens / (lay.count * rate * 1e12 * mfu)
    act_bytes = s * b * h * 2
    tp_s = (6 if ckpt else 4) * stage_layers * m * topology.ring_seconds(act_bytes, tp, links["tp"]) if tp > 1 else 0
    pp_s = 2 * m * (act_bytes / tp / (links["pp"].gbs_one_way * 1e9) + links["pp"].latency_s) if pp > 1 else 0.0
    moe_stage_layers = math.ceil(shape.moe_layers / pp)
    a2a = act_bytes / tp * shape.experts_active * (ep - 1) / ep if ep > 1 else 0.0
    ep_s = (4 * moe_stage_layers * m * (a2a / (links["ep"].gbs_one_way * 1e9) + links["ep"].latency_s)
            if ep > 1 else 0.0)
    shard = dense / (tp * pp) + experts / (pp * (ep if ep > 1 else tp))
    rounds = (1 + 2 * m) / 2 if lay.zero == 3 else 1  # ZeRO-3: grads once + weights gathered twice a micro-batch
    dp_bytes = 2 * 2 * shard * rounds * (dp - 1) / dp if dp > 1 else 0.0
    dp_s = dp_bytes / (links["dp"].gbs_one_way * 1e9) if dp > 1 else 0.0
    return Plan(lay, w + g + o, w, g, o, act, overhead, m, (pp - 1) / (m + pp - 1), real_tokens, compute, tp_s,
                pp_s, ep_s, dp_s, dp_bytes, links)


def divisors(n: int, limit: int) -> list[int]:
    return [d for d in range(1, min(n, limit) + 1) if n % d == 0]


def tp_options(shape: ModelShape, gpu: GpuSpec, count: int) -> list[int]:
    """TP sizes that stay inside a node, divide the heads (and KV heads, or replicate them) and the count."""
    return [t for t in divisors(gpu.gpus_per_node, gpu.gpus_per_node)
            if shape.heads % t == 0 and count % t == 0 and (shape.kv_heads % t == 0 or t % shape.kv_heads == 0)]


def layouts(shape: ModelShape, gpu: GpuSpec, count: int, *, tp: int | None, pp: int | None,
            zero: int | None) -> list[Layout]:
    """Every layout of `count` GPUs the pins allow."""
    out = []
    for t in ([tp] if tp else tp_options(shape, gpu, count)):
        if count % t:
            continue
        for p in ([pp] if pp else [d for d in divisors(count // t, shape.layers)]):
            if (count // t) % p:
                continue
            d = count // (t * p)
            eps = [e for e in divisors(d, shape.experts) if shape.experts % e == 0] if shape.moe else [1]
            for e in eps:
                for z in ([zero] if zero is not None else [0, 1, 2, 3]):
                    out.append(Layout(t, p, d, e, z, gpu.gpus_per_node))
    return out


def _plans(shape: ModelShape, gpu: GpuSpec, lays: list[Layout], available: int, kw: dict[str, object]) -> list[Plan]:
    """Plans of `lays`; ZeRO 0–2 take the same time, so past the lowest of them that fits the rest are skipped."""
    out: list[Plan] = []
    fitted: set[tuple[int, int, int, int]] = set()
    for lay in lays:
        key = (lay.tp, lay.pp, lay.dp, lay.ep)
        if lay.zero < 3 and key in fitted:
            continue
        p = plan(shape, gpu, lay, **kw)
        out.append(p)
        if lay.zero < 3 and p.per_gpu <= available:
            fitted.add(key)
    return out


def search(shape: ModelShape, gpu: GpuSpec, count: int, available: int, *, tp: int | None, pp: int | None,
           zero: int | None, **kw: object) -> tuple[Plan | None, Plan | None]:
    """(fastest plan that fits, the plan needing least memory): None where the pins leave no layout at all."""
    plans = _plans(shape, gpu, layouts(shape, gpu, count, tp=tp, pp=pp, zero=zero), available, kw)
    if not plans:
        return None, None
    smallest = min(plans, key=lambda p: (p.per_gpu, p.step_s))
    fitting = [p for p in plans if p.per_gpu <= available]
    best = min(fitting, key=lambda p: (round(p.step_s, 9), p.layout.zero, p.layout.pp, p.per_gpu)) if fitting else None
    return best, smallest
