"""One model × GPU × workload check: numbers and language-free Notes (FitEngine renders them).

`run_check` returns a Checked: the FitResult with empty prose, and the assumptions and steps as Notes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kb.errors import BadInput
from kb.fit import cost, serving, speed, topology
from kb.fit.config import shape_from_config
from kb.fit.gpus import GpuSpec
from kb.fit.memory import TERMS, MemoryPlan, adapter_memory, gb, inference_memory, kv_bytes_per_token
from kb.fit.precision import FP4, compute_tflops, release_precision
from kb.fit.presets import ModelShape, resolve_model
from kb.fit.request import DEFAULT_INTER_NODE_GBPS, DEFAULT_SEQ, MAX_COUNT, WORKLOAD_PRECISIONS, FitRequest
from kb.fit.result import Breakdown, FitResult
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
    inter_node_gbps: float = DEFAULT_INTER_NODE_GBPS  # one NIC a GPU between nodes (cluster.md)


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


def resolve_precision(req: FitRequest, shape: ModelShape | None = None) -> str:
    """--precision, else the workload's default; inference of a model that ships in FP8/MXFP4 uses that."""
    allowed = WORKLOAD_PRECISIONS[req.workload]
    if req.precision is None:
        released = release_precision(shape.release) if shape is not None else None
        if req.workload == "inference" and released:
            return released
        return allowed[0]
    if req.precision not in allowed:
        raise BadInput(f"precision {req.precision!r} is not modelled for {req.workload}; accepted: "
                       f"{', '.join(allowed)}", field="precision")
    return req.precision


def _shape_note(shape: ModelShape) -> Note:
    dims = note("shape_dims", layers=shape.layers, hidden=shape.hidden, heads=shape.heads, kv_heads=shape.kv_heads,
                head_dim=shape.head_dim, ffn=shape.ffn, vocab=shape.vocab)
    if shape.estimated_from:
        return note("shape_estimated", params=shape.params, base=shape.estimated_from, dims=dims)
    if shape.moe:
        moe = note("shape_moe", experts=shape.experts, active=shape.experts_active, shared=shape.shared_experts,
                   expert_ffn=shape.expert_ffn, moe_layers=shape.moe_layers, params=shape.params,
                   active_params=shape.active_params)
        return note("shape_preset_moe", name=shape.name, dims=dims, moe=moe)
    return note("shape_preset", name=shape.name, dims=dims, params=shape.params)


def _capacity_note(gpu: GpuSpec) -> Note:
    """Which capacity a check uses: the driver's total where the record has it (every record does now)."""
    if not gpu.driver_mib:
        return note("capacity_" + gpu.capacity_unit.lower())
    nominal = f"{gpu.capacity_value:g} {gpu.capacity_unit}"
    ecc: Note | str = ""
    if gpu.figures.get("vram_driver_mib", {}).get("note", "").find("ECC on") >= 0:
        ecc = note("ecc_on")
    elif "ECC off" in str(gpu.figures.get("vram_driver_mib", {}).get("note", "")):
        ecc = note("ecc_off")
    return note("capacity_driver", mib=gpu.driver_mib, gib=gpu.vram_bytes / GIB, nominal=nominal, ecc=ecc)


def _citations(gpu: GpuSpec, figures: list[str], priced: bool) -> list[str]:
    cites = [gpu.record_id]
    for name in figures:
        fig = gpu.figures.get(name, {})
        if fig.get("source") == "doc" and fig.get("section"):
            cites.append(f"guide-{fig['section']}")
    if priced:
        cites += gpu.price_citations()
    return list(dict.fromkeys(cites))




def _bisect(plan_of: Callable[[int], MemoryPlan], available: int) -> int | None:
    """Fewest GPUs whose even split fits (LoRA/QLoRA): per-GPU need never grows with count, so gallop."""
    return serving.gallop(lambda n: plan_of(n).per_gpu_required <= available, MAX_SEARCH)


def _format_notes(req: FitRequest, shape: ModelShape, gpu: GpuSpec, precision: str) -> list[Note]:
    """Which tensor rate the format computes at, and the release format when --precision was not given."""
    out: list[Note] = []
    if req.precision is None and precision == release_precision(shape.release):
        out.append(note("release_precision", precision=precision, what=note(f"release.{shape.release}")))
    rate, fmt = compute_tflops(gpu, precision)
    if precision == "fp8" and fmt != "fp8":
        out.append(note("no_fp8_cores", gpu=gpu.id))
    elif precision in FP4 and fmt != "fp4":
        out.append(note("no_fp4_cores", gpu=gpu.id))
    elif fmt in ("fp8", "fp4"):
        out.append(note("fp8_rate", precision=precision, fmt=fmt.upper(), tflops=rate))
    return out


def run_check(req: FitRequest, gpu: GpuSpec, conv: Conventions) -> Checked:
    """The fit check for one request: memory by term, layout, verdict, min GPUs, speed, cost, working, citations."""
    shape = resolve_model_of(req)
    precision = resolve_precision(req, shape)
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
    fits = required <= available

    assumptions = [_shape_note(shape), *plan.assumptions, _capacity_note(gpu), note("overhead_assumption"),
                   *_format_notes(req, shape, gpu, precision)]
    if not req.seq_len:
        assumptions.append(note("seq_assumed", seq=seq))
    if req.precision is None and precision != release_precision(shape.release):
        assumptions.append(note("precision_assumed", precision=precision, workload=note(f"workload.{req.workload}")))
    if training:
        assumptions.append(note("ckpt_on" if ckpt else "ckpt_off"))
    if req.workload == "full":
        assumptions.append(note("min_gpus_zero", stage=req.zero) if req.zero else note("min_gpus_zero3"))
    elif req.workload == "inference":
        assumptions.append(note("min_gpus_split"))
    if req.zero and req.workload != "full":
        assumptions.append(note("zero_ignored", zero=req.zero))
    if lay.nodes > 1:
        assumptions.append(note("inter_node_assumption", link=note(f"link.{inter.kind}"),
                                gbps=req.inter_node_gbps or conv.inter_node_gbps, gbs=inter.gbs_one_way))

    src = "--vram-gib" if req.vram_gib else gpu.record_id
    steps = [note("gpu_line", gpu=gpu.id, vram=available / GIB, source=src, bandwidth=gpu.bandwidth_gbs,
                  tflops=gpu.bf16_dense_tflops, tdp=gpu.tdp_w),
             note("layout_line_step", line=layout_line(lay, serving=reps is not None)),
             *plan.steps,
             note("verdict", required=gb(required), available=gb(available),
                  outcome=note("fits" if fits else "nofit"), headroom=(available - required) / GIB)]
    if fewest is not None and fewest != req.count:
        steps.append(note("fewest", gpu=gpu.id, count=fewest, required=gb(required_at(fewest))))
    elif fewest is None:
        steps.append(note("none_fits", gpu=gpu.id, limit=MAX_SEARCH))

    out: dict[str, object] = {}
    figures_used = ["vram_gib"]
    capex_cny, capex_step = cost.capex(gpu, req.count)
    steps.append(capex_step)
    energy_h, energy_step = cost.energy_per_hour(gpu, req.count, conv.energy_price_cny_per_kwh)
    rate, _ = compute_tflops(gpu, precision)
    if reps is not None:
        out["serving"] = srv = serving.serve(reps, gpu, shape, plan, available, seq, fits, precision, rate, conv.mfu,
                                             conv.prefill_budget_tokens, inter, sequences(req), steps, assumptions)
    if not fits:
        # A speed or a cost a token for a run that cannot happen would read as an answer; say why there is none.
        steps.append(note("no_speed_nofit", count=req.count, gpu=gpu.id,
                          fewest=str(fewest) if fewest is not None else f"> {MAX_SEARCH}"))
    elif reps is not None:
        tps = srv.aggregate_decode_tokens_per_s or 0.0
        pre, pre_step = speed.prefill_seconds(gpu, reps.group, shape, seq, reps.sequences, conv.mfu, rate)
        per_m, per_m_step = cost.cost_per_million_tokens(capex_cny, energy_h, tps)
        steps += [pre_step, energy_step, per_m_step]
        out.update(decode_tokens_per_s=tps, prefill_s=pre, cost_per_million_tokens_cny=per_m,
                   energy_cny_per_hour=energy_h)
        figures_used += ["bandwidth_gbs", "bf16_dense_tflops", "tdp_w"]
        assumptions += [note("prefill_assumption", mfu=conv.mfu), note("per_m_assumption")]
    elif req.tokens:
        if train is not None:
            gpu_h, wall, compute_h, t_steps, t_assume = time_notes(train, shape, gpu, precision, req.tokens,
                                                                   conv.mfu, req.count)
            assumptions += t_assume
        else:
            gpu_h, wall, t_steps = speed.training_hours(gpu, req.count, shape, req.tokens, conv.mfu)
            compute_h = gpu_h
        steps += t_steps
        energy = energy_h * wall
        steps.append(note("train_energy", energy_step=energy_step, hours=wall, energy=energy))
        out.update(train_gpu_hours=gpu_h, train_wall_hours=wall, train_compute_wall_hours=compute_h / req.count,
                   energy_cny=energy,
                   energy_cny_per_hour=energy_h)
        figures_used += ["bf16_dense_tflops", "tdp_w"]
        assumptions.append(note("train_assumption", mfu=conv.mfu))
        if shape.moe:
            assumptions.append(note("moe_train_assumption", active=shape.active_params, params=shape.params))
    if capex_cny is not None or out.get("energy_cny_per_hour") is not None:
        assumptions.append(note("energy_assumption", price=conv.energy_price_cny_per_kwh))
    if capex_cny is not None:
        assumptions.append(note("capex_assumption",
                                a100=note("capex_a100") if gpu.id.startswith("a100") else "",
                                vendor="" if gpu.price_source in ("doc", "team") else note("capex_vendor")))

    result = FitResult(
        gpu=gpu.id, gpu_count=req.count, model=shape.name, model_params=shape.params,
        active_params=shape.active_params, kv_bytes_per_token=kv_bytes_per_token(shape),
        workload=req.workload, precision=precision, zero_stage=stage, seq_len=seq, batch=req.batch, fits=fits,
        per_gpu_required_bytes=required, per_gpu_available_bytes=available, headroom_bytes=available - required,
        min_gpus=fewest, breakdown=Breakdown(**{k: plan.total[k] for k in TERMS}),
        per_gpu_breakdown=Breakdown(**{k: plan.per_gpu[k] for k in TERMS}),
        checkpointing=ckpt if training else None,
        lora_rank=req.lora_rank if req.workload in ("lora", "qlora") else None,
        capex_cny=capex_cny, power_w=gpu.tdp_w * req.count, layout=lay, assumptions=[], steps=[],
        citations=_citations(gpu, figures_used, capex_cny is not None),
        **out,  # type: ignore[arg-type]
    )
    return Checked(result, assumptions, steps)
