"""Training layouts: tensor × pipeline (interleaved) × data (ZeRO 0–3) × expert parallel, and the search for the
fastest that fits.

Conventions (each said in a check's assumptions):
- rank order TP (fastest), DP, PP (Megatron-LM's): a TP group is `tp` neighbours inside a node, a DP group
  strides by `tp`, a PP group by `tp·dp`; a group crosses the network once it spans more than a node.
- TP splits every layer (and, with sequence parallelism, its stored activations) `tp` ways inside a node and
  divides the attention heads; PP splits the layers into stages, each rank holding `vp` interleaved chunks
  (Megatron's interleaved 1F1B, Llama 3's pipeline): up to `pp` micro-batches in flight at the first stage; EP
  splits an MoE layer's routed experts over `ep` ranks of the DP group, and ZeRO shards expert states over the
  dp/ep ranks that hold the same experts.
- a step is the global batch: each DP rank runs m micro-batches (a stated batch caps DP at one micro-batch a rank;
  the default, 4M tokens, is raised instead); the bubble is (pp − 1)/(vp·m + pp − 1) (Narayanan
  et al. 2021: an interleaved schedule divides the bubble by vp and multiplies the pipeline sends by vp); compute is
  the model FLOPs (6·N_active + causal attention, a token) at the format's training rate × MFU.
- TP all-reduces (4 a layer a micro-batch, 6 with recomputation) and PP sends are not overlapped; expert
  all-to-all and data-parallel traffic run beside the compute of other micro-batches (DeepSeek-V3's DualPipe hides
  its all-to-all fully; Megatron-Core and FSDP overlap gradient reduce-scatter and ZeRO-3 gathers with compute),
  so a step takes the longest of the compute path, the expert traffic and the data-parallel traffic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from kb.fit import topology
from kb.fit.gpus import GpuSpec
from kb.fit.memory import CONTEXT_BYTES, FRAGMENTATION
from kb.fit.offload import gathered_bytes
from kb.fit.precision import training_tflops
from kb.fit.presets import ModelShape

DEFAULT_GLOBAL_BATCH_TOKENS = 4_194_304  # 4M tokens a step: Llama 2/3's batch (Llama 3 paper, §3.4)


@dataclass(frozen=True)
class Layout:
    """One way to place a training run on `tp·pp·dp` GPUs (`vp` interleaved chunks a pipeline rank)."""

    tp: int
    pp: int
    dp: int
    ep: int
    zero: int
    gpus_per_node: int
    vp: int = 1

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
        """The compute path (with its bubble, TP all-reduces and PP sends) or the overlapped traffic, if longer."""
        return max(self.compute_s / (1 - self.bubble) + self.tp_s + self.pp_s, self.ep_s, self.dp_s)


def _zero(params: float, stage: int, shards: int, offload: str) -> tuple[int, int, int]:
    """(weights, gradients, optimizer) bytes of `params` under ZeRO `stage` over `shards` ranks (ZeRO paper); offload
    (DeepSpeed ZeRO-Offload) moves the optimizer states and gradients to the host, and the weights too for "params"."""
    w, g, o = 2 * params, 2 * params, 12 * params
    if stage >= 1:
        o /= shards
    if stage >= 2:
        g /= shards
    if stage >= 3:
        w /= shards
    if offload != "none":
        g = o = 0
        if offload == "params":
            w = 0
    return math.ceil(w), math.ceil(g), math.ceil(o)


def routed_expert_params(shape: ModelShape) -> int:
    return shape.moe_layers * shape.experts * shape.expert_params if shape.moe else 0


@lru_cache(maxsize=16384)  # selections and alternatives re-plan the same layouts many times
def plan(shape: ModelShape, gpu: GpuSpec, lay: Layout, *, seq: int, batch: int, ckpt: bool, offload: str,
         precision: str, mfu: float, inter: topology.Link, global_tokens: int | None) -> Plan:
    """Memory a GPU and time a step of `lay` (see the module's conventions)."""
    tp, pp, dp, ep, vp = lay.tp, lay.pp, lay.dp, lay.ep, lay.vp
    experts = routed_expert_params(shape)
    dense = shape.params - experts
    if ep > 1:  # routed experts split over EP ranks, their states sharded over the dp/ep ranks that share them
        ew, eg, eo = _zero(experts / (pp * ep), lay.zero, max(1, dp // ep), offload)
        dw, dg, do = _zero(dense / (tp * pp), lay.zero, dp, offload)
        w, g, o = dw + ew, dg + eg, do + eo
    else:
        w, g, o = _zero(shape.params / (tp * pp), lay.zero, dp, offload)
    if offload != "none" and lay.zero >= 3:
        g += gathered_bytes(shape)  # the largest layer gathered (DeepSpeed's largest_layer_memory)
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
    rate = training_tflops(gpu, precision) or 1.0  # (no rate on record: layouts still rank; no time is reported)
    real_tokens = m * dp * b * s
    compute = shape.train_flops_per_token(s) * real_tokens / (lay.count * rate * 1e12 * mfu)
    act_bytes = s * b * h * 2
    tp_s = (6 if ckpt else 4) * stage_layers * m * topology.ring_seconds(act_bytes, tp, links["tp"]) if tp > 1 else 0
    pp_s = 2 * m * vp * (act_bytes / tp / (links["pp"].gbs_one_way * 1e9) + links["pp"].latency_s) if pp > 1 else 0.0
    moe_stage_layers = math.ceil(shape.moe_layers / pp)
    a2a = act_bytes / tp * shape.experts_active * (ep - 1) / ep if ep > 1 else 0.0
    ep_s = (4 * moe_stage_layers * m * (a2a / (links["ep"].gbs_one_way * 1e9) + links["ep"].latency_s)
            if ep > 1 else 0.0)
    shard = dense / (tp * pp) + experts / (pp * (ep if ep > 1 else tp))
    rounds = (1 + 2 * m) / 2 if lay.zero == 3 else 1  # ZeRO-3: grads once + weights gathered twice a micro-batch
    dp_bytes = 2 * 2 * shard * rounds * (dp - 1) / dp if dp > 1 else 0.0
    dp_s = dp_bytes / (links["dp"].gbs_one_way * 1e9) if dp > 1 else 0.0
    # interleaving needs whole rounds of micro-batches (Megatron-LM: m divisible by PP); else it only adds sends
    bubble = (pp - 1) / ((vp if m % pp == 0 else 1) * m + pp - 1)
    return Plan(lay, w + g + o, w, g, o, act, overhead, m, bubble, real_tokens, compute, tp_s, pp_s, ep_s, dp_s,
                dp_bytes, links)


def divisors(n: int, limit: int) -> list[int]:
    return [d for d in range(1, min(n, limit) + 1) if n % d == 0]


def tp_options(shape: ModelShape, gpu: GpuSpec, count: int) -> list[int]:
    """TP sizes that stay inside a node, divide the heads (and KV heads, or replicate them) and the count."""
    return [t for t in divisors(gpu.gpus_per_node, gpu.gpus_per_node)
            if shape.heads % t == 0 and count % t == 0 and (shape.kv_heads % t == 0 or t % shape.kv_heads == 0)]


def vp_options(shape: ModelShape, pp: int) -> list[int]:
    """Interleaved chunks a pipeline rank may hold: 1, 2, 4, 8 or one layer each, where they divide its layers."""
    if pp == 1:
        return [1]
    stage = math.ceil(shape.layers / pp)
    return [v for v in divisors(stage, stage) if v in (1, 2, 4, 8) or v == stage]


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
                    for v in vp_options(shape, p):
                        out.append(Layout(t, p, d, e, z, gpu.gpus_per_node, v))
    return out


Phases = tuple[tuple[float, int | None], ...]  # (tokens trained at it, or a weight; global batch tokens or None)


@dataclass(frozen=True)
class Choice:
    """One layout over a run's batch phases: a plan a phase, and the tokens each phase trains."""

    plans: tuple[Plan, ...]
    weights: tuple[float, ...]

    @property
    def layout(self) -> Layout:
        return self.plans[0].layout

    @property
    def per_gpu(self) -> int:
        return max(p.per_gpu for p in self.plans)

    @property
    def peak(self) -> Plan:
        """The phase needing most memory (its memory is the check's)."""
        return max(self.plans, key=lambda p: p.per_gpu)

    @property
    def main(self) -> Plan:
        """The phase that trains the most tokens (its step is the one shown)."""
        return self.plans[max(range(len(self.plans)), key=lambda i: self.weights[i])]

    @property
    def seconds(self) -> float:
        """Wall-clock seconds for the weighted tokens: Σ tokens ÷ global batch × step."""
        return sum(w / p.global_tokens * p.step_s for w, p in zip(self.weights, self.plans, strict=True))


def choose(shape: ModelShape, gpu: GpuSpec, lay: Layout, phases: Phases, kw: dict[str, object]) -> Choice:
    plans = tuple(plan(shape, gpu, lay, global_tokens=b, **kw) for _, b in phases)
    return Choice(plans, tuple(w for w, _ in phases))


def _choices(shape: ModelShape, gpu: GpuSpec, lays: list[Layout], available: int, phases: Phases,
             kw: dict[str, object]) -> list[Choice]:
    """Choices of `lays`; ZeRO 0–2 take the same time, so past the lowest of them that fits the rest are skipped."""
    out: list[Choice] = []
    fitted: set[tuple[int, int, int, int, int]] = set()
    for lay in lays:
        key = (lay.tp, lay.pp, lay.dp, lay.ep, lay.vp)
        if lay.zero < 3 and key in fitted:
            continue
        c = choose(shape, gpu, lay, phases, kw)
        out.append(c)
        if lay.zero < 3 and c.per_gpu <= available:
            fitted.add(key)
    return out


def search(shape: ModelShape, gpu: GpuSpec, count: int, available: int, *, tp: int | None, pp: int | None,
           zero: int | None, phases: Phases = ((1.0, None),), **kw: object) -> tuple[Choice | None, Choice | None]:
    """(fastest choice that fits over the run's batch phases, the choice needing least memory): None where the pins
    leave no layout at all."""
    lays = layouts(shape, gpu, count, tp=tp, pp=pp, zero=zero)
    stated = [b for _, b in phases if b]
    if stated:  # a stated batch caps data parallelism: every rank needs a whole micro-batch of the largest phase
        per_rank = int(kw["batch"]) * int(kw["seq"])  # type: ignore[call-overload]
        lays = [lay for lay in lays if lay.dp * per_rank <= max(stated)] or lays
    choices = _choices(shape, gpu, lays, available, phases, kw)
    if not choices:
        return None, None
    smallest = min(choices, key=lambda c: (c.per_gpu, c.seconds))
    fitting = [c for c in choices if c.per_gpu <= available]
    best = min(fitting, key=lambda c: (round(c.seconds, 9), c.layout.zero, c.layout.pp, c.layout.vp, c.per_gpu)) \
        if fitting else None
    return best, smallest
