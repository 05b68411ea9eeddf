"""check_fit: one model × GPU × workload, with the verdict, the fewest GPUs that fit, speed and cost."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kb.errors import BadInput
from kb.fit import cost, speed
from kb.fit.gpus import GIB, GpuSpec, get_gpu
from kb.fit.memory import TERMS, MemoryPlan, adapter_memory, full_memory, gb, inference_memory
from kb.fit.messages import check_language, msg, workload_name
from kb.fit.presets import ModelShape, resolve_model
from kb.fit.request import DEFAULT_SEQ, WORKLOAD_PRECISIONS, FitRequest
from kb.fit.result import Breakdown, FitResult

MAX_SEARCH = 1024  # min_gpus looks no further: past this a cluster plan, not a fit check, is needed


def _planner(req: FitRequest, shape: ModelShape, precision: str, seq: int,
             ckpt: bool, language: str) -> Callable[[int, int], MemoryPlan]:
    """A function (count, zero stage) -> MemoryPlan for this request's workload."""
    lang = language
    if req.workload == "inference":
        return lambda n, _z: inference_memory(shape, precision, seq, req.batch, n, language=lang)
    if req.workload == "full":
        return lambda n, z: full_memory(shape, seq, req.batch, n, z, ckpt, language=lang)
    return lambda n, _z: adapter_memory(shape, precision, seq, req.batch, n, req.lora_rank, ckpt, req.workload,
                                        language=lang)


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


def _gpu_line(gpu: GpuSpec, available: int, override: bool, language: str) -> str:
    src = "--vram-gib" if override else f"{gpu.record_id}"
    return msg("gpu_line", language, gpu=gpu.id, vram=available / GIB, source=src, bandwidth=gpu.bandwidth_gbs,
               tflops=gpu.bf16_dense_tflops, tdp=gpu.tdp_w)


def _shape_assumption(shape: ModelShape, language: str) -> str:
    dims = msg("shape_dims", language, layers=shape.layers, hidden=shape.hidden, heads=shape.heads,
               kv_heads=shape.kv_heads, ffn=shape.ffn, vocab=shape.vocab)
    if shape.estimated_from:
        return msg("shape_estimated", language, params=shape.params, base=shape.estimated_from, dims=dims)
    return msg("shape_preset", language, name=shape.name, dims=dims, params=shape.params)


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
              energy_price: float | None = None, language: str = "en") -> FitResult:
    """The fit check for one request: memory by term, verdict, min GPUs, speed, cost, working, citations.

    `language` ("en" or "zh") is the language of `assumptions` and `steps`; every number is the same in both.
    """
    from kb.settings import get_settings

    lang = check_language(language)

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

    planner = _planner(req, shape, precision, seq, ckpt, lang)
    plan = planner(req.count, stage)
    search_stage = stage if stage > 0 else 3
    min_gpus = _min_gpus(planner, search_stage, available)
    required = plan.per_gpu_required
    fits = required <= available

    assumptions = [_shape_assumption(shape, lang), *plan.assumptions, msg("binary_units", lang),
                   msg("overhead_assumption", lang)]
    if not req.seq_len:
        assumptions.append(msg("seq_assumed", lang, seq=seq))
    if req.precision is None:
        assumptions.append(msg("precision_assumed", lang, precision=precision,
                               workload=workload_name(req.workload, lang)))
    if training:
        assumptions.append(msg("ckpt_on" if ckpt else "ckpt_off", lang))
    if req.workload == "full":
        assumptions.append(msg("min_gpus_zero", lang, stage=stage) if stage else msg("min_gpus_zero3", lang))
    elif req.workload == "inference":
        assumptions.append(msg("min_gpus_split", lang))
    if req.zero and req.workload != "full":
        assumptions.append(msg("zero_ignored", lang, zero=req.zero))

    steps = [_gpu_line(gpu, available, bool(req.vram_gib), lang), *plan.steps,
             msg("verdict", lang, required=gb(required), available=gb(available),
                 outcome=msg("fits" if fits else "nofit", lang), headroom=(available - required) / GIB)]
    if min_gpus is not None and min_gpus != req.count:
        steps.append(msg("fewest", lang, gpu=gpu.id, count=min_gpus,
                         required=gb(planner(min_gpus, search_stage).per_gpu_required)))
    elif min_gpus is None:
        steps.append(msg("none_fits", lang, gpu=gpu.id, limit=MAX_SEARCH))

    out: dict[str, float | None] = {}
    figures_used = ["vram_gib"]
    capex_cny, capex_step = cost.capex(gpu, req.count, language=lang)
    steps.append(capex_step)
    energy_h, energy_step = cost.energy_per_hour(gpu, req.count, energy_price, language=lang)
    if not fits:
        # A speed or a cost a token for a run that cannot happen would read as an answer; say why there is none.
        fewest = str(min_gpus) if min_gpus is not None else f"> {MAX_SEARCH}"
        steps.append(msg("no_speed_nofit", lang, count=req.count, gpu=gpu.id, fewest=fewest))
    elif req.workload == "inference":
        tps, step = speed.decode_tokens_per_s(gpu, req.count, plan.weight_bytes, plan.kv_bytes, req.batch,
                                              language=lang)
        pre, pre_step = speed.prefill_seconds(gpu, req.count, shape, seq, req.batch, mfu, language=lang)
        per_m, per_m_step = cost.cost_per_million_tokens(capex_cny, energy_h, tps, language=lang)
        steps += [step, pre_step, energy_step, per_m_step]
        out.update(decode_tokens_per_s=tps, prefill_s=pre, cost_per_million_tokens_cny=per_m,
                   energy_cny_per_hour=energy_h)
        figures_used += ["bandwidth_gbs", "bf16_dense_tflops", "tdp_w"]
        assumptions += [msg("decode_assumption", lang), msg("prefill_assumption", lang, mfu=mfu),
                        msg("per_m_assumption", lang)]
    elif req.tokens:
        gpu_h, wall, t_steps = speed.training_hours(gpu, req.count, shape.params, req.tokens, mfu, language=lang)
        energy = energy_h * wall
        steps += [*t_steps, msg("train_energy", lang, energy_step=energy_step, hours=wall, energy=energy)]
        out.update(train_gpu_hours=gpu_h, train_wall_hours=wall, energy_cny=energy, energy_cny_per_hour=energy_h)
        figures_used += ["bf16_dense_tflops", "tdp_w"]
        assumptions.append(msg("train_assumption", lang, mfu=mfu))
    if capex_cny is not None or out.get("energy_cny_per_hour") is not None:
        assumptions.append(msg("energy_assumption", lang, price=energy_price))
    if capex_cny is not None:
        assumptions.append(msg("capex_assumption", lang,
                               a100=msg("capex_a100", lang) if gpu.id.startswith("a100") else "",
                               vendor="" if gpu.price_source == "doc" else msg("capex_vendor", lang)))

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
