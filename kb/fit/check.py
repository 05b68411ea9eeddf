"""One model × GPU × workload check: numbers and language-free Notes (FitEngine renders them).

`run_check` returns a Checked: the FitResult with empty prose, and the assumptions and steps as Notes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kb.errors import BadInput
from kb.fit import cost, serving, speed, topology
from kb.fit.check_parts import capacity_note, citations, format_notes, resolve_precision, shape_note
from kb.fit.config import shape_from_config
from kb.fit.gpus import GpuSpec
from kb.fit.memory import TERMS, MemoryPlan, adapter_memory, gb, inference_memory, kv_bytes_per_token
from kb.fit.offload import HostNeed, host_need
from kb.fit.precision import compute_tflops, release_precision
from kb.fit.presets import ModelShape, resolve_model
from kb.fit.request import DEFAULT_INTER_NODE_GBPS, DEFAULT_SEQ, MAX_COUNT, FitRequest
from kb.fit.result import Breakdown, FitResult, Offload
from kb.fit.training import layout_line, plan_training, time_notes
from kb.numbers import GIB
from kb.words.note import Note, note

MAX_SEARCH = MAX_COUNT  # min_gpus looks as far as --count may go


@dataclass(frozen=True)
class Conventions:
    """The explicit settings every check uses (FitEngine holds one)."""

    mfu: float = 0.40
    energy_price_cny_per_kwh: float = 1.0
    prefill_budget_tokens: int = 8192  # vLLM's max_num_batched_tokens region (2,048–16,384)
    inter_node_gbps: float = DEFAULT_INTER_NODE_GBPS  # one NIC a GPU between nodes (DGX H100 user guide)


@dataclass
class Checked:
    """A check's numbers, and its assumptions and working as Notes."""

    result: FitResult
    assumptions: list[Note]
    steps: list[Note]


def sequences(req: FitRequest) -> int:
    """Sequences served at once: --concurrency, else --batch."""
    return req.concurrency or req.batch


def resolve_model_of(req: FitRequest) -> ModelShape:
    """The preset or bare size, or the shape a config.json describes."""
    if req.config is not None:
        return shape_from_config(req.config, req.model)
    return resolve_model(req.model)


def _bisect(plan_of: Callable[[int], MemoryPlan], available: int) -> int | None:
    """Fewest GPUs whose even split fits (LoRA/QLoRA): per-GPU need never grows with count, so gallop."""
    return serving.gallop(lambda n: plan_of(n).per_gpu_required <= available, MAX_SEARCH)


def _host(req: FitRequest, shape: ModelShape, gpu: GpuSpec, stage: int, nodes: int) -> HostNeed | None:
    """What offload needs of the host (or NVMe) a node, and whether the stated host memory holds it."""
    if req.workload != "full" or not req.offload:
        return None
    return host_need(shape.params, req.offload_mode, req.offload_device, stage, min(req.count, gpu.gpus_per_node),
                     nodes, req.host_memory_gib)


def run_check(req: FitRequest, gpu: GpuSpec, conv: Conventions) -> Checked:
    """The fit check for one request: memory by term, layout, verdict, min GPUs, speed, cost, working, citations."""
    shape = resolve_model_of(req)
    precision = resolve_precision(req, shape, gpu)
    training = req.workload != "inference"
    seq = req.seq_len or DEFAULT_SEQ[req.workload]
    ckpt = (True if req.checkpointing is None else req.checkpointing) if training else False
    available = int(req.vram_gib * GIB) if req.vram_gib else gpu.vram_bytes
    inter = topology.inter_node(req.inter_node_gbps or conv.inter_node_gbps)
    if (req.tp or req.pp) and req.workload != "full":
        raise BadInput("tp and pp pin a training layout; serving picks TP inside a node and PP across nodes "
                       "itself; accepted: tp/pp with workload full", field="tp" if req.tp else "pp")
    stage, train, reps = 0, None, None
    if req.workload == "full":
        train = plan_training(req, shape, gpu, precision, seq, ckpt, conv.mfu, available, inter)
        plan, fewest, lay, stage = train.memory, train.fewest, train.layout, train.layout.zero_stage

        def required_at(n: int) -> int:
            at = req.model_copy(update={"count": n, "tp": None, "pp": None,
                                        "zero": req.zero if req.zero is not None else 3})
            return plan_training(at, shape, gpu, precision, seq, ckpt, conv.mfu, available, inter,
                                 fewest=False).memory.per_gpu_required
    elif req.workload == "inference":
        def inf_plan(n: int, k: int) -> MemoryPlan:
            return inference_memory(shape, precision, seq, k, n, conv.prefill_budget_tokens)

        reps = serving.arrange(shape, gpu, req.count, sequences(req), available, inf_plan)
        plan = inf_plan(reps.group, reps.sequences)
        fewest = serving.fewest(shape, gpu, sequences(req), available, inf_plan, MAX_SEARCH)
        lay = serving.layout(reps, gpu, req.count, inter)

        def required_at(n: int) -> int:
            r = serving.arrange(shape, gpu, n, sequences(req), available, inf_plan)
            return inf_plan(r.group, r.sequences).per_gpu_required
    else:
        def lora_plan(n: int) -> MemoryPlan:
            return adapter_memory(shape, precision, seq, req.batch, n, req.lora_rank, ckpt, req.workload)

        plan, fewest = lora_plan(req.count), _bisect(lora_plan, available)

        def required_at(n: int) -> int:
            return lora_plan(n).per_gpu_required
        lay = serving.layout(serving.Replicas(1, 1, req.count, req.batch), gpu, req.count, inter)
    required = plan.per_gpu_required
    host = _host(req, shape, gpu, stage, lay.nodes)
    gpu_fits = required <= available
    fits = gpu_fits and (host is None or host.fits is not False)

    fmt_notes, mode = format_notes(req, shape, gpu, precision)
    assumptions = [shape_note(shape), *plan.assumptions, capacity_note(gpu, req.vram_gib), note("overhead_assumption"),
                   *fmt_notes]
    if shape.moe:
        assumptions.append(note("active_assumption", active=shape.active_params))
    if not req.seq_len:
        assumptions.append(note("seq_assumed", seq=seq))
    if req.precision is None and precision != release_precision(shape.release) and not fmt_notes:
        assumptions.append(note("precision_assumed", precision=precision, workload=note(f"workload.{req.workload}")))
    if training:
        assumptions.append(note("ckpt_on" if ckpt else "ckpt_off"))
    if req.workload == "full":
        assumptions.append(note("min_gpus_zero", stage=req.zero) if req.zero else note("min_gpus_zero3"))
    elif req.workload == "inference":
        assumptions.append(note("min_gpus_split"))
    if req.zero and req.workload != "full":
        assumptions.append(note("zero_ignored", zero=req.zero))
    if req.offload and req.workload != "full":
        assumptions.append(note("offload_ignored"))
    if lay.nodes > 1:
        assumptions.append(note("inter_node_assumption", link=note(f"link.{inter.kind}"),
                                gbps=req.inter_node_gbps or conv.inter_node_gbps, gbs=inter.gbs_one_way))
    if gpu.stated:
        assumptions.append(note("stated_card", gpu=gpu.id, per_node=gpu.gpus_per_node))

    src = note("source_stated") if gpu.stated else "--vram-gib" if req.vram_gib else gpu.record_id
    steps = [_gpu_line(gpu, available, src),
             note("layout_line_step", line=layout_line(lay, serving=reps is not None)),
             *plan.steps,
             note("verdict", required=gb(required), available=gb(available),
                  outcome=note("fits" if gpu_fits else "nofit"), headroom=(available - required) / GIB)]
    if host is not None:
        steps.append(_host_step(host))
        assumptions.append(note("host_assumption"))
    if fewest is not None and fewest != req.count:
        steps.append(note("fewest", gpu=gpu.id, count=fewest, required=gb(required_at(fewest))))
    elif fewest is None:
        steps.append(note("none_fits", gpu=gpu.id, limit=MAX_SEARCH))

    out: dict[str, object] = {}
    unknown: list[str] = []
    figures_used = ["vram_gib"]
    capex_cny, capex_step = cost.capex(gpu, req.count)
    steps.append(capex_step)
    energy_h, energy_step = cost.energy_per_hour(gpu, req.count, conv.energy_price_cny_per_kwh)
    rate, _ = compute_tflops(gpu, precision)
    if not gpu.speed_known:
        unknown.append("speed")
    if gpu.tdp_w is None:
        unknown.append("power")
    if gpu.price_cny is None and gpu.stated:
        unknown.append("price")
    if reps is not None:
        out["serving"] = srv = serving.serve(reps, gpu, shape, plan, available, seq, fits and gpu.speed_known,
                                             precision, rate or 0.0, conv.mfu, conv.prefill_budget_tokens, inter,
                                             sequences(req), steps, assumptions)
    if not fits:
        # A speed or a cost a token for a run that cannot happen would read as an answer; say why there is none.
        steps.append(note("no_speed_nofit", count=req.count, gpu=gpu.id,
                          fewest=str(fewest) if fewest is not None else f"> {MAX_SEARCH}"))
    elif not gpu.speed_known:
        steps.append(note("no_speed_unknown", gpu=gpu.id))
    elif reps is not None:
        tps = srv.aggregate_decode_tokens_per_s or 0.0
        pre, pre_step = speed.prefill_seconds(gpu, reps.group, shape, seq, reps.sequences, conv.mfu, rate)
        steps += [pre_step, energy_step]
        out.update(decode_tokens_per_s=tps, prefill_s=pre, energy_cny_per_hour=energy_h)
        if energy_h is not None:
            per_m, per_m_step = cost.cost_per_million_tokens(capex_cny, energy_h, tps)
            steps.append(per_m_step)
            out["cost_per_million_tokens_cny"] = per_m
            assumptions.append(note("per_m_assumption"))
        figures_used += ["bandwidth_gbs", "bf16_dense_tflops", "tdp_w"]
        assumptions.append(note("prefill_assumption", mfu=conv.mfu))
    elif req.tokens:
        if train is not None:
            gpu_h, wall, compute_h, t_steps, t_assume = time_notes(train, shape, gpu, precision, req.tokens,
                                                                   conv.mfu, req.count, seq)
            assumptions += t_assume
        else:
            gpu_h, wall, t_steps = speed.training_hours(gpu, req.count, shape, req.tokens, conv.mfu, seq)
            compute_h = gpu_h
        steps += t_steps
        out.update(train_gpu_hours=gpu_h, train_wall_hours=wall, train_compute_wall_hours=compute_h / req.count,
                   energy_cny_per_hour=energy_h)
        if energy_h is not None:
            energy = energy_h * wall
            steps.append(note("train_energy", energy_step=energy_step, hours=wall, energy=energy))
            out["energy_cny"] = energy
        figures_used += ["bf16_dense_tflops", "tdp_w"]
        assumptions.append(note("train_assumption", mfu=conv.mfu))
        if shape.moe:
            assumptions.append(note("moe_train_assumption", active=shape.active_params, params=shape.params))
        if req.offload:
            assumptions.append(note("offload_time_assumption"))
    if capex_cny is not None or out.get("energy_cny_per_hour") is not None:
        assumptions.append(note("energy_assumption", price=conv.energy_price_cny_per_kwh))
    if capex_cny is not None:
        assumptions.append(note("capex_assumption",
                                a100=note("capex_a100") if gpu.id.startswith("a100") else "",
                                vendor="" if gpu.price_source in ("doc", "team") else note("capex_vendor")))
    if unknown:
        assumptions.append(note("unknown_figures", gpu=gpu.id, what=[note(f"unknown.{u}") for u in unknown]))

    result = FitResult(
        gpu=gpu.id, gpu_count=req.count, model=shape.name, model_params=shape.params,
        active_params=shape.active_params, kv_bytes_per_token=kv_bytes_per_token(shape),
        workload=req.workload, precision=precision, zero_stage=stage, seq_len=seq, batch=req.batch, fits=fits,
        per_gpu_required_bytes=required, per_gpu_available_bytes=available, headroom_bytes=available - required,
        min_gpus=fewest, breakdown=Breakdown(**{k: plan.total[k] for k in TERMS}),
        per_gpu_breakdown=Breakdown(**{k: plan.per_gpu[k] for k in TERMS}),
        checkpointing=ckpt if training else None,
        lora_rank=req.lora_rank if req.workload in ("lora", "qlora") else None,
        capex_cny=capex_cny, power_w=gpu.tdp_w * req.count if gpu.tdp_w is not None else None, layout=lay,
        assumptions=[], steps=[], citations=citations(gpu, figures_used, capex_cny is not None),
        gpu_known=not gpu.stated, unknown_figures=unknown, precision_mode=mode,
        offload=_offload(host) if host is not None else None,
        **out,  # type: ignore[arg-type]
    )
    return Checked(result, assumptions, steps)


def _gpu_line(gpu: GpuSpec, available: int, src: Note | str) -> Note:
    """The card's figures a check used (a stated card: only its memory)."""
    if not gpu.speed_known or gpu.tdp_w is None:
        return note("gpu_line_partial", gpu=gpu.id, vram=available / GIB, source=src)
    return note("gpu_line", gpu=gpu.id, vram=available / GIB, source=src, bandwidth=gpu.bandwidth,
                tflops=gpu.rate16, tdp=gpu.tdp_w, fmt=gpu.rate_format.upper())


def _host_step(h: HostNeed) -> Note:
    if h.device == "nvme":
        return note("host_nvme_step", per=h.bytes_per_param, nodes=h.nodes, size=gb(h.nvme_bytes or 0))
    verdict: Note | str = ""
    if h.fits is not None and h.available_bytes is not None:
        verdict = note("host_verdict", available=gb(h.available_bytes), outcome=note("fits" if h.fits else "nofit"))
    return note("host_step", per=h.bytes_per_param, nodes=h.nodes, size=gb(h.host_bytes or 0), verdict=verdict)


def _offload(h: HostNeed) -> Offload:
    return Offload(what=h.mode, device=h.device, nodes=h.nodes, bytes_per_param=h.bytes_per_param,  # type: ignore[arg-type]
                   host_required_bytes=h.host_bytes, nvme_required_bytes=h.nvme_bytes,
                   host_available_bytes=h.available_bytes, host_fits=h.fits)
