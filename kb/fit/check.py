"""check_fit: one model × GPU × workload, with the verdict, the fewest GPUs that fit, speed and cost."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kb.errors import BadInput
from kb.fit import cost, speed
from kb.fit.gpus import GIB, GpuSpec, get_gpu
from kb.fit.memory import TERMS, MemoryPlan, adapter_memory, full_memory, gb, inference_memory
from kb.fit.presets import ModelShape, resolve_model
from kb.fit.request import DEFAULT_SEQ, WORKLOAD_PRECISIONS, FitRequest
from kb.fit.result import Breakdown, FitResult

MAX_SEARCH = 1024  # min_gpus looks no further: past this a cluster plan, not a fit check, is needed


def _planner(req: FitRequest, shape: ModelShape, precision: str, seq: int,
             ckpt: bool) -> Callable[[int, int], MemoryPlan]:
    """A function (count, zero stage) -> MemoryPlan for this request's workload."""
    if req.workload == "inference":
        return lambda n, _z: inference_memory(shape, precision, seq, req.batch, n)
    if req.workload == "full":
        return lambda n, z: full_memory(shape, seq, req.batch, n, z, ckpt)
    return lambda n, _z: adapter_memory(shape, precision, seq, req.batch, n, req.lora_rank, ckpt, req.workload)


def _min_gpus(plan: Callable[[int, int], MemoryPlan], stage: int, available: int) -> int | None:
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


def _resolve_precision(req: FitRequest) -> str:
    allowed = WORKLOAD_PRECISIONS[req.workload]
    if req.precision is None:
        return allowed[0]
    if req.precision not in allowed:
        raise BadInput(f"precision {req.precision!r} is not modelled for {req.workload}; accepted: "
                       f"{', '.join(allowed)}", field="precision")
    return req.precision


def _gpu_line(gpu: GpuSpec, available: int, override: bool) -> str:
    src = "--vram-gib" if override else f"{gpu.record_id}"
    return (f"{gpu.id}: {available / GIB:g} GiB a GPU ({src}), {gpu.bandwidth_gbs:g} GB/s, "
            f"{gpu.bf16_dense_tflops:g} TFLOPS dense BF16 (fp32 accumulate), TDP {gpu.tdp_w:g} W")


def _shape_assumption(shape: ModelShape) -> str:
    dims = (f"{shape.layers} layers, hidden {shape.hidden}, {shape.heads} heads, {shape.kv_heads} kv heads, "
            f"FFN {shape.ffn}, vocab {shape.vocab}")
    if shape.estimated_from:
        return (f"a bare size: {shape.params:,} parameters as given; shape estimated by scaling {shape.estimated_from} "
                f"(the nearest preset) by the cube root of the size ratio: {dims}")
    return f"{shape.name}: published shape {dims}, {shape.params:,} parameters"


def _citations(gpu: GpuSpec, figures: list[str], priced: bool) -> list[str]:
    cites = [gpu.record_id]
    for name in figures:
        fig = gpu.figures.get(name, {})
        if fig.get("source") == "doc" and fig.get("section"):
            cites.append(f"guide-{fig['section']}")
    if priced:
        cites += gpu.price_citations()
    return list(dict.fromkeys(cites))


def check_fit(request: FitRequest, corpus_dir: Path | None = None, *, mfu: float | None = None,
              energy_price: float | None = None) -> FitResult:
    """The fit check for one request: memory by term, verdict, min GPUs, speed, cost, working, citations."""
    from kb.settings import get_settings

    settings = get_settings()
    mfu = settings.mfu if mfu is None else mfu
    energy_price = settings.energy_price_cny_per_kwh if energy_price is None else energy_price
    req = request
    shape = resolve_model(req.model)
    gpu = get_gpu(req.gpu, corpus_dir)
    precision = _resolve_precision(req)
    training = req.workload != "inference"
    seq = req.seq_len or DEFAULT_SEQ[req.workload]
    ckpt = (True if req.checkpointing is None else req.checkpointing) if training else False
    stage = req.zero if req.workload == "full" else 0
    available = int(req.vram_gib * GIB) if req.vram_gib else gpu.vram_bytes

    planner = _planner(req, shape, precision, seq, ckpt)
    plan = planner(req.count, stage)
    search_stage = stage if stage > 0 else 3
    min_gpus = _min_gpus(planner, search_stage, available)
    required = plan.per_gpu_required
    fits = required <= available

    assumptions = [_shape_assumption(shape), *plan.assumptions,
                   "capacity in binary units as the card reports it (an \"80GB\" card holds 80 GiB)",
                   "overhead: 1 GiB a GPU for the CUDA context and libraries + 10 % of the rest for "
                   "allocator fragmentation"]
    if not req.seq_len:
        assumptions.append(f"sequence length not given: {seq:,} tokens assumed")
    if req.precision is None:
        assumptions.append(f"precision not given: {precision} assumed for {req.workload}")
    if training:
        assumptions.append("activation checkpointing " + ("on (the usual setting for large models; "
                           "say --no-checkpointing to check without)" if ckpt else "off"))
    if req.workload == "full":
        assumptions.append("min_gpus: " + (f"ZeRO stage {stage}" if stage else
                           "ZeRO-3, since stage 0 replicates the model states and more GPUs never help"))
    elif req.workload == "inference":
        assumptions.append("min_gpus: weights, KV cache and activations split evenly (tensor/pipeline parallel)")
    if req.zero and req.workload != "full":
        assumptions.append(f"--zero {req.zero} ignored: ZeRO stages apply to full training's model states")

    steps = [_gpu_line(gpu, available, bool(req.vram_gib)), *plan.steps,
             f"verdict: {gb(required)} required a GPU vs {gb(available)} available: "
             f"{'fits' if fits else 'does not fit'} ({(available - required) / GIB:+,.2f} GiB headroom)"]
    if min_gpus is not None and min_gpus != req.count:
        steps.append(f"fewest {gpu.id} that fit: {min_gpus} (per GPU "
                     f"{gb(planner(min_gpus, search_stage).per_gpu_required)})")
    elif min_gpus is None:
        steps.append(f"no number of {gpu.id} up to {MAX_SEARCH} fits: what stays on every GPU "
                     "(activations, context) is larger than one card")

    out: dict[str, float | None] = {}
    figures_used = ["vram_gib"]
    capex_cny, capex_step = cost.capex(gpu, req.count)
    steps.append(capex_step)
    energy_h, energy_step = cost.energy_per_hour(gpu, req.count, energy_price)
    if req.workload == "inference":
        tps, step = speed.decode_tokens_per_s(gpu, req.count, plan.weight_bytes, plan.kv_bytes, req.batch)
        pre, pre_step = speed.prefill_seconds(gpu, req.count, shape, seq, req.batch, mfu)
        per_m, per_m_step = cost.cost_per_million_tokens(capex_cny, energy_h, tps)
        steps += [step, pre_step, energy_step, per_m_step]
        out.update(decode_tokens_per_s=tps, prefill_s=pre, cost_per_million_tokens_cny=per_m,
                   energy_cny_per_hour=energy_h)
        figures_used += ["bandwidth_gbs", "bf16_dense_tflops", "tdp_w"]
        assumptions += ["decode speed: an upper bound, bandwidth ÷ bytes read a token (all weights + the KV "
                        "cache at the full context); real kernels reach 60–80 % of it",
                        f"prefill: dense 16-bit tensor peak with fp32 accumulate × MFU {mfu:.0%}, also for "
                        "weight-only quantised models (their matmuls run in 16-bit)",
                        "cost per million tokens: cards over 3 years of round-the-clock use + their energy at "
                        "TDP, at the decode bound: a floor, not a quote"]
    elif req.tokens:
        gpu_h, wall, t_steps = speed.training_hours(gpu, req.count, shape.params, req.tokens, mfu)
        energy = energy_h * wall
        steps += [*t_steps, f"{energy_step}; × {wall:,.1f} hours = {energy:,.0f} CNY"]
        out.update(train_gpu_hours=gpu_h, train_wall_hours=wall, energy_cny=energy, energy_cny_per_hour=energy_h)
        figures_used += ["bf16_dense_tflops", "tdp_w"]
        assumptions.append(f"training time: 6 × parameters × tokens FLOP over the dense 16-bit peak with fp32 "
                           f"accumulate × MFU {mfu:.0%} (Llama 2's 184,320 A100 GPU-hours for 7B × 2T tokens "
                           "imply 39 %); LoRA/QLoRA are counted at the same 6·N·T (forward, recompute, "
                           "backward through the frozen weights)")
    if capex_cny is not None or out.get("energy_cny_per_hour") is not None:
        assumptions.append(f"energy: the cards' TDP at {energy_price:g} CNY/kWh (host and cooling not counted)")
    if capex_cny is not None:
        assumptions.append("capex: cards only, no server, network or cooling"
                           + ("; the document's A100 price does not say 40GB or 80GB" if gpu.id.startswith("a100")
                              else "") + ("" if gpu.price_source == "doc" else "; a vendor launch price, the "
                                          "document gives none for this card"))

    return FitResult(
        gpu=gpu.id, gpu_count=req.count, model=shape.name, model_params=shape.params, workload=req.workload,
        precision=precision, zero_stage=stage, seq_len=seq, batch=req.batch, fits=fits,
        per_gpu_required_bytes=required, per_gpu_available_bytes=available, headroom_bytes=available - required,
        min_gpus=min_gpus, breakdown=Breakdown(**{k: plan.total[k] for k in TERMS}),
        per_gpu_breakdown=Breakdown(**{k: plan.per_gpu[k] for k in TERMS}),
        checkpointing=ckpt if training else None,
        lora_rank=req.lora_rank if req.workload in ("lora", "qlora") else None,
        capex_cny=capex_cny, power_w=gpu.tdp_w * req.count,
        assumptions=assumptions, steps=steps,
        citations=_citations(gpu, figures_used, capex_cny is not None),
        **out,
    )
