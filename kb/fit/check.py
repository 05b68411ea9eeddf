"""One model × GPU × workload check: numbers and language-free Notes (FitEngine renders them).

`run_check` returns a Checked: the FitResult with empty prose, and the assumptions and steps as Notes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from kb.errors import BadInput
from kb.fit import cost, speed
from kb.fit.gpus import GIB, GpuSpec
from kb.fit.memory import (
    TERMS,
    MemoryPlan,
    adapter_memory,
    full_memory,
    gb,
    inference_memory,
    kv_bytes_per_token,
    kv_cache_bytes,
    kv_value_bytes,
    prefill_tokens,
)
from kb.fit.notes import Note, note
from kb.fit.presets import ModelShape, resolve_model
from kb.fit.request import DEFAULT_SEQ, WORKLOAD_PRECISIONS, FitRequest
from kb.fit.result import Breakdown, FitResult, Serving

MAX_SEARCH = 1024  # min_gpus looks no further: past this a cluster plan, not a fit check, is needed


@dataclass(frozen=True)
class Conventions:
    """The explicit settings every check uses (FitEngine holds one)."""

    mfu: float = 0.40
    energy_price_cny_per_kwh: float = 1.0
    prefill_budget_tokens: int = 8192  # vLLM's max_num_batched_tokens region (2,048–16,384)


@dataclass
class Checked:
    """A check's numbers, and its assumptions and working as Notes."""

    result: FitResult
    assumptions: list[Note]
    steps: list[Note]


Planner = Callable[[int, int], MemoryPlan]


def planner(req: FitRequest, shape: ModelShape, precision: str, seq: int, ckpt: bool, conv: Conventions) -> Planner:
    """A function (count, zero stage) -> MemoryPlan for this request's workload."""
    if req.workload == "inference":
        seqs = sequences(req)
        return lambda n, _z: inference_memory(shape, precision, seq, seqs, n, conv.prefill_budget_tokens)
    if req.workload == "full":
        return lambda n, z: full_memory(shape, seq, req.batch, n, z, ckpt, req.offload)
    return lambda n, _z: adapter_memory(shape, precision, seq, req.batch, n, req.lora_rank, ckpt, req.workload)


def sequences(req: FitRequest) -> int:
    """Sequences served at once: --concurrency, else --batch."""
    return req.concurrency or req.batch


def min_gpus(plan: Planner, stage: int, available: int) -> int | None:
    """Fewest GPUs whose per-GPU need fits; per-GPU need never grows with count, so bisect."""
    if plan(MAX_SEARCH, stage).per_gpu_required > available:
        return None
    lo, hi = 1, MAX_SEARCH
    while lo < hi:
        mid = (lo + hi) // 2
        if plan(mid, stage).per_gpu_required <= available:
            hi = mid
        else:
            lo = mid + 1
    return lo


def resolve_precision(req: FitRequest) -> str:
    allowed = WORKLOAD_PRECISIONS[req.workload]
    if req.precision is None:
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


def _citations(gpu: GpuSpec, figures: list[str], priced: bool) -> list[str]:
    cites = [gpu.record_id]
    for name in figures:
        fig = gpu.figures.get(name, {})
        if fig.get("source") == "doc" and fig.get("section"):
            cites.append(f"guide-{fig['section']}")
    if priced:
        cites += gpu.price_citations()
    return list(dict.fromkeys(cites))


def _serving(req: FitRequest, gpu: GpuSpec, shape: ModelShape, plan: MemoryPlan, available: int, seq: int,
             fits: bool, conv: Conventions, steps: list[Note], assumptions: list[Note]) -> Serving:
    """KV capacity left on the GPUs, the concurrency it allows, the decode roofline and time to first token."""
    n, seqs = req.count, sequences(req)
    value = kv_value_bytes(resolve_precision(req))
    per_token = kv_bytes_per_token(shape, value)
    per_seq, _ = kv_cache_bytes(shape, seq, 1, value)
    fixed = (plan.total["weights"] + plan.total["activations"]) / n
    kv_space = max(0, math.floor(((available - GIB) / 1.1 - fixed) * n))
    cap_tokens, max_seqs = kv_space // per_token, kv_space // per_seq
    steps.append(note("kv_capacity_step", available=available / GIB, fixed=fixed / GIB, count=n,
                      space=gb(kv_space), per_token=per_token, tokens=cap_tokens, per_seq=gb(per_seq), seq=seq,
                      sequences=max_seqs))
    lk = speed.link(gpu)
    out = Serving(concurrency=seqs, context_tokens=seq, kv_tokens_capacity=cap_tokens,
                  max_concurrent_sequences=max_seqs,
                  prefill_token_budget=conv.prefill_budget_tokens,
                  prefill_tokens=prefill_tokens(seq, seqs, conv.prefill_budget_tokens),
                  tensor_parallel=n, link=lk.kind if n > 1 else None)
    if not fits:
        return out
    d = speed.decode(gpu, n, shape, plan.weight_bytes, per_seq, seqs, seq)
    ttft, ttft_note = speed.prefill_seconds(gpu, n, shape, seq, 1, conv.mfu)
    steps += [speed.decode_note(gpu, n, d), note("ttft_step", prefill=ttft_note)]
    if n > 1:
        steps.append(speed.allreduce_note(gpu, n, shape, seqs, d.comm_s))
    assumptions += [note("decode_assumption"), note("ttft_assumption", mfu=conv.mfu)]
    if n > 1:
        assumptions.append(note("tp_assumption", count=n, link=note(f"link.{lk.kind}"),
                                latency_us=speed.ALLREDUCE_LATENCY_S[lk.kind] * 1e6))
    if shape.moe:
        assumptions.append(note("moe_decode_assumption", experts=shape.experts, active=shape.experts_active))
    return out.model_copy(update={"aggregate_decode_tokens_per_s": d.aggregate,
                                  "per_sequence_decode_tokens_per_s": d.per_sequence, "ttft_s": ttft,
                                  "bound": d.bound, "allreduce_s_per_step": d.comm_s})


def run_check(req: FitRequest, gpu: GpuSpec, conv: Conventions) -> Checked:
    """The fit check for one request: memory by term, verdict, min GPUs, speed, cost, working, citations."""
    shape = resolve_model(req.model)
    precision = resolve_precision(req)
    training = req.workload != "inference"
    seq = req.seq_len or DEFAULT_SEQ[req.workload]
    ckpt = (True if req.checkpointing is None else req.checkpointing) if training else False
    stage = req.zero if req.workload == "full" else 0
    available = int(req.vram_gib * GIB) if req.vram_gib else gpu.vram_bytes

    plan_of = planner(req, shape, precision, seq, ckpt, conv)
    plan = plan_of(req.count, stage)
    search_stage = stage if stage > 0 else 3
    fewest = min_gpus(plan_of, search_stage, available)
    required = plan.per_gpu_required
    fits = required <= available

    assumptions = [_shape_note(shape), *plan.assumptions, note("capacity_" + gpu.capacity_unit.lower()),
                   note("overhead_assumption")]
    if not req.seq_len:
        assumptions.append(note("seq_assumed", seq=seq))
    if req.precision is None:
        assumptions.append(note("precision_assumed", precision=precision, workload=note(f"workload.{req.workload}")))
    if training:
        assumptions.append(note("ckpt_on" if ckpt else "ckpt_off"))
    if req.workload == "full":
        assumptions.append(note("min_gpus_zero", stage=stage) if stage else note("min_gpus_zero3"))
    elif req.workload == "inference":
        assumptions.append(note("min_gpus_split"))
    if req.zero and req.workload != "full":
        assumptions.append(note("zero_ignored", zero=req.zero))

    src = "--vram-gib" if req.vram_gib else gpu.record_id
    steps = [note("gpu_line", gpu=gpu.id, vram=available / GIB, source=src, bandwidth=gpu.bandwidth_gbs,
                  tflops=gpu.bf16_dense_tflops, tdp=gpu.tdp_w),
             *plan.steps,
             note("verdict", required=gb(required), available=gb(available),
                  outcome=note("fits" if fits else "nofit"), headroom=(available - required) / GIB)]
    if fewest is not None and fewest != req.count:
        steps.append(note("fewest", gpu=gpu.id, count=fewest,
                          required=gb(plan_of(fewest, search_stage).per_gpu_required)))
    elif fewest is None:
        steps.append(note("none_fits", gpu=gpu.id, limit=MAX_SEARCH))

    out: dict[str, object] = {}
    figures_used = ["vram_gib"]
    capex_cny, capex_step = cost.capex(gpu, req.count)
    steps.append(capex_step)
    energy_h, energy_step = cost.energy_per_hour(gpu, req.count, conv.energy_price_cny_per_kwh)
    if req.workload == "inference":
        serving = _serving(req, gpu, shape, plan, available, seq, fits, conv, steps, assumptions)
        out["serving"] = serving
    if not fits:
        # A speed or a cost a token for a run that cannot happen would read as an answer; say why there is none.
        steps.append(note("no_speed_nofit", count=req.count, gpu=gpu.id,
                          fewest=str(fewest) if fewest is not None else f"> {MAX_SEARCH}"))
    elif req.workload == "inference":
        tps = serving.aggregate_decode_tokens_per_s or 0.0
        pre, pre_step = speed.prefill_seconds(gpu, req.count, shape, seq, sequences(req), conv.mfu)
        per_m, per_m_step = cost.cost_per_million_tokens(capex_cny, energy_h, tps)
        steps += [pre_step, energy_step, per_m_step]
        out.update(decode_tokens_per_s=tps, prefill_s=pre, cost_per_million_tokens_cny=per_m,
                   energy_cny_per_hour=energy_h)
        figures_used += ["bandwidth_gbs", "bf16_dense_tflops", "tdp_w"]
        assumptions += [note("prefill_assumption", mfu=conv.mfu), note("per_m_assumption")]
    elif req.tokens:
        gpu_h, wall, t_steps = speed.training_hours(gpu, req.count, shape, req.tokens, conv.mfu)
        steps += t_steps
        if req.workload == "full" and req.count > 1:
            compute_s, comm_s, dp_note = speed.data_parallel_step(gpu, req.count, shape, stage,
                                                                  req.batch * seq * req.count, conv.mfu)
            steps.append(dp_note)
            if comm_s > compute_s:  # the link, not the tensor cores, sets the pace
                wall *= comm_s / compute_s
                gpu_h = wall * req.count
            assumptions.append(note("dp_assumption"))
        energy = energy_h * wall
        steps.append(note("train_energy", energy_step=energy_step, hours=wall, energy=energy))
        out.update(train_gpu_hours=gpu_h, train_wall_hours=wall, energy_cny=energy, energy_cny_per_hour=energy_h)
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
        capex_cny=capex_cny, power_w=gpu.tdp_w * req.count, assumptions=[], steps=[],
        citations=_citations(gpu, figures_used, capex_cny is not None),
        **out,  # type: ignore[arg-type]
    )
    return Checked(result, assumptions, steps)
