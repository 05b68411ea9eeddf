"""Full training at any scale: the layout search's pick as memory (a MemoryPlan), a layout, time and Notes.

One GPU, or plain data parallelism (TP = PP = EP = 1), gives exactly the single-node working of
`memory.full_memory`; any other layout shows its own sharding. min_gpus uses the same search: every count
from 1 to a node's GPUs, then whole nodes (bisected: more nodes never need more memory a GPU under ZeRO-3).
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.errors import BadInput
from kb.fit import topology
from kb.fit.gpus import GpuSpec
from kb.fit.layout import Choice, Phases, search, tp_options
from kb.fit.layout import Layout as LayoutOf
from kb.fit.layout import plan as one_plan
from kb.fit.memory import MemoryPlan, _finish, full_memory, gb, training_activations
from kb.fit.precision import FP8_TRAIN_GAIN, training_tflops
from kb.fit.presets import ModelShape
from kb.fit.request import MAX_COUNT, FitRequest
from kb.fit.result import Layout
from kb.fit.serving import gallop
from kb.words.note import Note, note


@dataclass
class Training:
    """The chosen layout's memory, the layout itself (over the run's batch phases), and the fewest GPUs that fit."""

    memory: MemoryPlan
    choice: Choice
    layout: Layout
    fewest: int | None
    phases: Phases


def _check_pins(req: FitRequest, shape: ModelShape, gpu: GpuSpec) -> None:
    if req.tp and req.tp not in tp_options(shape, gpu, req.count):
        raise BadInput(f"tp {req.tp} does not fit: tensor parallelism stays inside a node of {gpu.gpus_per_node} "
                       f"{gpu.id} and divides the {shape.heads} heads and --count {req.count}; accepted: "
                       f"{', '.join(map(str, tp_options(shape, gpu, req.count))) or '1'}", field="tp")
    if req.pp and (req.count // (req.tp or 1)) % req.pp:
        raise BadInput(f"pp {req.pp} does not divide the {req.count // (req.tp or 1)} GPUs left after TP; "
                       "accepted: a divisor of that count", field="pp")


def _kw(req: FitRequest, seq: int, ckpt: bool, precision: str, mfu: float, inter: topology.Link) -> dict[str, object]:
    return dict(seq=seq, batch=req.batch, ckpt=ckpt, offload=req.offload_mode, precision=precision, mfu=mfu,
                inter=inter)


def phases_of(req: FitRequest) -> Phases:
    """(tokens, global batch) a phase: the request's batch schedule over its tokens, else one phase (weight 1) at
    --global-batch-tokens (None: the default batch)."""
    if not req.batch_schedule:
        return ((req.tokens or 1.0, req.global_batch_tokens),)
    out: list[tuple[float, int | None]] = []
    done, total = 0.0, req.tokens or 0.0
    for ph in req.batch_schedule:
        end = ph.until_tokens if ph.until_tokens is not None else (total or done + 1.0)
        end = min(end, total) if total else end
        if end > done:
            out.append((end - done, ph.batch_tokens))
            done = end
    if total > done:  # tokens past the last phase's end run at its batch
        out.append((total - done, req.batch_schedule[-1].batch_tokens))
    return tuple(out) or ((1.0, req.batch_schedule[-1].batch_tokens),)


def fewest_gpus(req: FitRequest, shape: ModelShape, gpu: GpuSpec, available: int, kw: dict[str, object],
                phases: Phases) -> int | None:
    """Smallest count whose least-memory layout fits: 1…a node, then whole nodes (bisected).

    Least memory: the widest TP the count allows (it shards states and activations), no EP (EP leaves routed
    experts unsplit by TP), ZeRO-3 unless pinned; PP only matters when ZeRO is pinned below 3.
    """
    zero = req.zero if req.zero is not None else 3
    if req.offload_params:
        zero = 3

    def fits(n: int) -> bool:
        tps = [req.tp] if req.tp and n % req.tp == 0 else tp_options(shape, gpu, n)[-1:]
        if not tps:
            return False
        pps = [1] if zero == 3 else [d for d in range(1, min(n // tps[0], shape.layers) + 1) if (n // tps[0]) % d == 0]
        for pp in pps:
            lay = LayoutOf(tps[0], pp, n // (tps[0] * pp), 1, zero, gpu.gpus_per_node)
            if all(one_plan(shape, gpu, lay, global_tokens=b, **kw).per_gpu <= available
                   for _, b in phases):
                return True
        return False

    for n in range(1, gpu.gpus_per_node + 1):
        if fits(n):
            return n
    nodes = gallop(lambda k: fits(k * gpu.gpus_per_node), MAX_COUNT // gpu.gpus_per_node)
    return nodes * gpu.gpus_per_node if nodes is not None else None


def _memory(c: Choice, shape: ModelShape, req: FitRequest, seq: int, ckpt: bool) -> MemoryPlan:
    p = c.peak
    lay = p.layout
    mode = req.offload_mode
    if lay.tp == lay.pp == lay.ep == 1:
        return full_memory(shape, seq, req.batch, lay.dp, lay.zero, ckpt, mode)
    n = shape.params
    total = {"weights": 0 if mode == "params" else 2 * n,
             "gradients": p.gradients * lay.count if mode != "none" else 2 * n,
             "optimizer": 0 if mode != "none" else 12 * n, "activations": p.activations * lay.count, "kv_cache": 0,
             "overhead": 0}
    per_gpu = {"weights": p.weights, "gradients": p.gradients, "optimizer": p.optimizer,
               "activations": p.activations, "kv_cache": 0, "overhead": 0}
    _, act_steps = training_activations(shape, seq, req.batch, ckpt)
    steps = [note("model_states_step", params=n, size=gb(16 * n)),
             note("layout_states_step", tp=lay.tp, pp=lay.pp, ep=lay.ep, dp=lay.dp, stage=lay.zero,
                  size=gb(p.states)),
             *act_steps,
             note("layout_act_step", tp=lay.tp, pp=lay.pp, inflight=min(lay.pp, p.micro_batches),
                  size=gb(p.activations))]
    _finish(total, per_gpu, lay.count, steps)
    assumptions = [note("adam_assumption"), note("layout_assumption"), note("full_batch_assumption", batch=req.batch)]
    if mode != "none":
        assumptions.append(note("offload_assumption", size=gb((16 if mode == "optimizer" else 18) * n)))
    return MemoryPlan(total, per_gpu, steps, assumptions)


def plan_training(req: FitRequest, shape: ModelShape, gpu: GpuSpec, precision: str, seq: int, ckpt: bool,
                  mfu: float, available: int, inter: topology.Link, fewest: bool = True) -> Training:
    """The fastest layout of --count GPUs that fits over the run's batch phases (else the one needing least memory;
    on a card with no rate on record, always that one), and the fewest GPUs."""
    _check_pins(req, shape, gpu)
    kw = _kw(req, seq, ckpt, precision, mfu, inter)
    phases = phases_of(req)
    zero = 3 if req.offload_params else req.zero
    best, smallest = search(shape, gpu, req.count, available, tp=req.tp, pp=req.pp, zero=zero, phases=phases, **kw)
    chosen = best if best is not None and gpu.speed_known else smallest
    if chosen is None:
        raise BadInput(f"no layout of {req.count} {gpu.id} matches tp {req.tp} and pp {req.pp}; accepted: "
                       "a tp and pp whose product divides --count", field="pp" if req.pp else "tp")
    lay, main = chosen.layout, chosen.main
    info = Layout(tp=lay.tp, pp=lay.pp, dp=lay.dp, ep=lay.ep, zero_stage=lay.zero, nodes=lay.nodes,
                  gpus_per_node=min(gpu.gpus_per_node, lay.count), intra_node_link=topology.intra_node(gpu).kind,
                  inter_node_link=inter.kind if lay.nodes > 1 else None, micro_batches=main.micro_batches,
                  bubble_fraction=round(main.bubble, 6), global_batch_tokens=main.global_tokens,
                  step_s=main.step_s if gpu.speed_known else None, virtual_stages=lay.vp)
    return Training(_memory(chosen, shape, req, seq, ckpt), chosen, info,
                    fewest_gpus(req, shape, gpu, available, kw, phases) if fewest else None, phases)


def time_notes(t: Training, shape: ModelShape, gpu: GpuSpec, precision: str, tokens: float, mfu: float,
               count: int, seq: int) -> tuple[float, float, float, list[Note], list[Note]]:
    """(GPU-hours, wall hours, compute-only GPU-hours, steps, assumptions) of `tokens` over the run's batch phases at
    the chosen layout's step times; the compute alone is the model FLOPs at the training rate × MFU, which the
    layout's bubble and unhidden communication add to."""
    rate = training_tflops(gpu, precision) or 0.0
    per_token = shape.train_flops_per_token(seq)
    flops = per_token * tokens
    pure = flops / (rate * 1e12 * mfu) / 3600
    wall = t.choice.seconds / 3600 * (tokens / sum(t.choice.weights))
    steps = [note("train_flops_step", params=shape.active_params, attention=per_token - 6 * shape.active_params,
                  seq=seq, tokens=tokens, six=6 * shape.active_params * tokens,
                  attn=(per_token - 6 * shape.active_params) * tokens, flops=flops),
             note("gpu_hours_step", flops=flops, tflops=rate, mfu=mfu, gpu_hours=pure, count=count, wall=pure / count)]
    for (phase_tokens, _), p in zip(t.phases, t.choice.plans, strict=True):
        lk = p.links
        n_steps = phase_tokens * tokens / sum(t.choice.weights) / p.global_tokens
        steps += [note("layout_step_vp", m=p.micro_batches, batch=p.global_tokens, pp=p.layout.pp, vp=p.layout.vp,
                       bubble=p.bubble) if p.layout.vp > 1 else
                  note("layout_step", m=p.micro_batches, batch=p.global_tokens, bubble=p.bubble),
                  note("layout_time_step", compute=p.compute_s, bubble=p.bubble, tp_s=p.tp_s,
                       tp_link=link_word(lk["tp"]), pp_s=p.pp_s, pp_link=link_word(lk["pp"]), ep_s=p.ep_s,
                       ep_link=link_word(lk["ep"]), dp_gb=p.dp_bytes / 1e9, dp_link=link_word(lk["dp"]),
                       dp_gbs=lk["dp"].gbs_one_way, dp_s=p.dp_s, step=p.step_s, steps=n_steps,
                       wall=n_steps * p.step_s / 3600, gpu_hours=n_steps * p.step_s / 3600 * count,
                       bound=note("bound.link" if max(p.dp_s, p.ep_s) > p.step_s - 1e-12 and max(p.dp_s, p.ep_s) > 0
                                  else "bound.compute"))]
    if len(t.phases) > 1:
        steps.append(note("schedule_total_step", phases=len(t.phases), wall=wall, gpu_hours=wall * count))
    assumptions = [note("layout_time_assumption", batch=t.choice.main.global_tokens),
                   note("train_flops_assumption")]
    if precision == "fp8":
        assumptions.append(note("fp8_train_assumption", gain=FP8_TRAIN_GAIN))
    return wall * count, wall, pure, steps, assumptions


def link_word(link: topology.Link) -> Note:
    return note(f"link.{link.kind}")


def layout_line(lay: Layout, serving: bool = False) -> Note:
    """"8 nodes × 8 GPUs: TP 8 inside a node over NVLink, DP 8 over InfiniBand, ZeRO-1"."""
    inter = note(f"link.{lay.inter_node_link}") if lay.inter_node_link else note(f"link.{lay.intra_node_link}")
    intra = note(f"link.{lay.intra_node_link}")
    across_pp = lay.tp * lay.dp * lay.pp > lay.gpus_per_node
    across_dp = lay.tp * lay.dp > lay.gpus_per_node
    parts: list[Note] = []
    if lay.tp > 1:
        parts.append(note("layout_tp", tp=lay.tp, link=intra))
    if lay.pp > 1:
        parts.append(note("layout_pp", pp=lay.pp, link=inter if across_pp else intra))
    if serving:
        parts.append(note("layout_replicas", replicas=lay.dp))
    elif lay.dp > 1:
        parts.append(note("layout_dp", dp=lay.dp, link=inter if across_dp else intra))
    if lay.ep > 1:
        parts.append(note("layout_ep", ep=lay.ep))
    if not serving:
        parts.append(note("layout_zero", stage=lay.zero_stage))
    joined: list[Note] = []
    for part in parts:
        joined += [note("comma"), part] if joined else [part]
    return note("layout_line", nodes=lay.nodes, per_node=lay.gpus_per_node, parts=note("joined", parts=joined))
