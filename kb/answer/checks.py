"""The fit checks (and, for "which card", the ranked selection) a question asks for, from its Query.

A question that names no model kb knows gets no check: a model is the one thing kb will not guess (a
name that states its size, "Falcon 180B", is checked at that size, and says so). A question that names
only GPUs kb has no record for gets no check either, rather than one on substitute cards. Anything
else missing (GPU, count, workload, precision) is assumed and the assumption is said in the check.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from kb.errors import BadInput
from kb.fit.alternatives import alternatives
from kb.fit.check_parts import UnsupportedPrecision
from kb.fit.engine import FitEngine
from kb.fit.largest import largest_size_b
from kb.fit.request import WORKLOAD_PRECISIONS, parse_request
from kb.fit.result import FitResult, MemoryNeed, Selection
from kb.fit.select import budget_options, single_card_options
from kb.fit.support import PrecisionSupport
from kb.language import Language
from kb.understand.query import Query
from kb.words.fit import render, render_all
from kb.words.note import Note, note

DEFAULT_GPUS = ("a100-80gb", "rtx-4090")  # the document's two subjects, when a question names no GPU


@dataclass
class QuestionFit:
    """What a question asked of the fit engine: the checks run, a selection, and names kb does not know."""

    checks: list[FitResult] = field(default_factory=list)
    selection: Selection | None = None
    unknown: list[str] = field(default_factory=list)  # as the user wrote them: "RTX 3090", "GPT-4"
    gpus: list[str] = field(default_factory=list)  # GPU ids recognised, even when no check ran
    models: list[str] = field(default_factory=list)  # model presets or sizes recognised
    budget_cny: float | None = None  # the budget the question states, even when no model is named
    needs: list[MemoryNeed] = field(default_factory=list)  # a card kb has no figures for: the memory it would need
    refused: list[PrecisionSupport] = field(default_factory=list)  # a format a card cannot compute, checked instead
    # in the nearest one that runs ("V100, bf16": fp16)


def _workload_and_precision(q: Query, workload: str, notes: list[Note]) -> tuple[str, str | None]:
    precision = q.precision
    if precision is None or precision in WORKLOAD_PRECISIONS[workload]:
        return workload, precision
    if workload == "lora" and precision in ("int4", "nf4"):
        notes.append(note("lora_4bit"))
        return "qlora", "nf4"
    if workload == "qlora":
        notes.append(note("qlora_nf4", precision=precision))
        return "qlora", "nf4"
    notes.append(note("precision_unmodelled", precision=precision, workload=note(f"workload.{workload}"),
                      default=WORKLOAD_PRECISIONS[workload][0]))
    return workload, None


def _read(q: Query, gpu: str, result: FitResult, workload: str) -> Note:
    """What the check took from the question, as the first assumption."""
    details = [note("read_precision", precision=q.precision) if q.precision else "",
               note("read_seq", seq=q.seq_len) if q.seq_len else "",
               note("read_batch", batch=q.batch) if q.batch else "",
               note("concurrency_read", n=q.concurrency) if q.concurrency else "",
               note("read_tokens", tokens=q.tokens) if q.tokens else ""]
    return note("read", gpu=gpu, count=result.gpu_count, model=result.model, workload=note(f"workload.{workload}"),
                details=note("joined", parts=[d for d in details if d]))


def _one(engine: FitEngine, q: Query, gpu: str, count: int | None, workload: str, notes: list[Note],
         refused: list[PrecisionSupport] | None = None) -> FitResult | None:
    """One check; a format the card cannot compute is checked in the nearest one that runs, the refusal kept."""
    try:
        return _checked_one(engine, q, gpu, count, workload, notes)
    except UnsupportedPrecision as e:
        if refused is None or not e.support.instead:
            return None
        if e.support not in refused:
            refused.append(e.support)
        try:
            return _checked_one(engine, replace(q, precision=e.support.instead[0]), gpu, count, workload, notes)
        except BadInput:
            return None


def _checked_one(engine: FitEngine, q: Query, gpu: str, count: int | None, workload: str,
                 notes: list[Note]) -> FitResult | None:
    notes = list(notes)
    workload, precision = _workload_and_precision(q, workload, notes)
    # An unsaid ZeRO stage (and TP/PP) is the layout search's to choose (kb/fit/layout.py); said, it is pinned.
    if count is None and not q.how_many:
        notes.append(note("one_card"))
    try:
        req = parse_request(model=q.model or "", workload=workload, gpu=gpu, count=count or 1, precision=precision,
                            seq_len=q.seq_len, batch=q.batch or 1, tokens=q.tokens,
                            concurrency=q.concurrency if workload == "inference" else None,
                            tp=q.tp if workload != "inference" else None,
                            pp=q.pp if workload != "inference" else None,
                            vram_gib=q.vram_gb if gpu in q.unknown_gpus else None,
                            **({"zero": q.zero} | _offload(q, workload)))
        checked = engine.checked(req)
        r = checked.result
        if q.how_many and count is None and r.min_gpus and r.min_gpus != req.count:
            notes.append(note("how_many", gpu=gpu, count=r.min_gpus))
            req = req.model_copy(update={"count": r.min_gpus})
            checked = engine.checked(req)
    except UnsupportedPrecision:
        raise
    except (BadInput, ValueError):
        return None  # a figure the question garbled (a zero batch, say): no check rather than a wrong one
    extra = [_read(q, gpu, checked.result, workload), *notes]
    alts = alternatives(req, checked.result, engine.numbers)
    return engine.render(checked, q.language, extra).model_copy(update={"alternatives": alts})


def _offload(q: Query, workload: str) -> dict[str, object]:
    """What full training offloads, as the question says it (ZeRO-Offload: the optimizer; ZeRO-Infinity or 'the
    parameters too': ZeRO-3 with the parameters), where, and the host memory a node has."""
    if not q.offload or workload != "full":
        return {}
    params = q.offload == "params"
    return {"offload": True, "offload_params": params, "zero": 3 if params else q.zero,
            "offload_device": q.offload_device or "cpu", "host_memory_gib": q.host_memory_gib}


def _needs(engine: FitEngine, q: Query, language: Language) -> list[MemoryNeed]:
    """For each card kb has no figures for and no memory was said of: the memory the asked check would need."""
    workload, precision = _workload_and_precision(q, (q.workloads or ["inference"])[0], [])
    out = []
    for name in q.unknown_gpus:
        try:
            req = parse_request(model=q.model or "", workload=workload, gpu=name, count=q.count or 1,
                                precision=precision, seq_len=q.seq_len, batch=q.batch or 1, tokens=q.tokens,
                                concurrency=q.concurrency if workload == "inference" else None)
            out.append(engine.need(req, language))
        except (BadInput, ValueError):
            continue
    return out


_SUPPORT_ASKED = ("bf16", "fp8", "fp4", "nvfp4", "mxfp4")  # formats some cards lack (kb.fit.support's rules)


def _support(engine: FitEngine, q: Query) -> list[PrecisionSupport]:
    """Each named card against each format the question names that a card may lack ("bf16 on my V100", "fp8 on
    a 3090"): the ones it cannot compute natively, with how it runs them or what runs instead."""
    workload = next((w for w in q.workloads if w != "fine-tune"), "inference")
    out = []
    for gpu, _ in q.gpus:
        for fmt in dict.fromkeys(f for f in q.formats if f in _SUPPORT_ASKED):
            try:
                s = engine.precision_support(gpu, fmt, "full" if workload == "full" else workload)
            except (BadInput, ValueError):
                continue
            if s.mode not in ("native", "unchecked"):
                out.append(s)
    return out


def answer_query(engine: FitEngine, q: Query, language: Language) -> QuestionFit:
    """Run the checks a Query names (or the selection it asks for); prose in `language`."""
    found = QuestionFit(unknown=[*q.unknown_models, *q.unknown_gpus], gpus=[g for g, _ in q.gpus],
                        models=[q.model] if q.model else [], budget_cny=q.budget_cny)
    found.refused = _support(engine, q)
    buys = q.how_many and len(q.gpus) == 1  # "40k cny - how many 4070 tis is that": the budget over one price
    # "预算十万 三张 4090 加两张 4080 还剩多少": counted cards priced against the budget, nothing to select
    priced = bool(q.gpus) and all(c for _, c in q.gpus) and "price" in q.attributes
    if q.model is None and q.budget_cny is not None and not q.unknown_gpus and not buys and not priced:
        workload = (q.workloads or [""])[0]
        found.selection = budget_options(engine, q.budget_cny, max_gpus=q.max_gpus, workload=workload,
                                         low_power=q.low_power, language=language)
        return found
    # (high-concurrency serving: a cluster; adapter fine-tuning experiments: one card each, as §11.1 picks them)
    one_box = q.individual or q.setting in ("边缘部署", "实时交互式应用") or q.workloads in (["lora"], ["qlora"])
    if q.model is None and q.budget_cny is None and q.wants_selection and one_box \
            and not q.gpus and not q.unknown:  # "solo dev, one card, which?", "an edge box, which card?"
        edge = q.low_power or q.setting == "边缘部署"  # an edge box: by power, lowest first
        found.selection = single_card_options(engine, by_power=edge, language=language)
        return found
    if q.asked == "largest" and q.model is None and q.gpus:
        found.checks = _largest(engine, q, notes=list(q.notes))
        return found
    if q.model is not None and q.unknown_gpus and not q.gpus and not q.vram_gb:
        found.needs = _needs(engine, q, language)  # "can a 2080 Ti run qwen 7b": unknown, and what it would need
        return found
    if q.model is None or (q.unknown_gpus and not q.gpus and not q.vram_gb) or q.derived == "grad_sync":
        return found  # (a gradient all-reduce's time: the composer's arithmetic over the cards' links, no fit)
    notes = list(q.notes)
    workloads = q.workloads or ["inference"]
    if not q.workloads:
        notes.append(note("no_workload"))
    if q.wants_selection and (q.budget_cny is not None or not q.gpus or q.among):
        # "Fine-tune" without a method: full training first, then the adapters people mean when it fits nothing;
        # training that fits nothing: the adapters as the nearest configuration that works, said as such (never
        # for pre-training from scratch, which adapters cannot do).
        adapters = workloads == ["full", "lora"] or (workloads == ["full"] and not q.scratch)
        tried: list[tuple[str, str | None]] = [(w, None) for w in (
            ["full", "lora", "qlora"] if adapters else workloads[:1])]
        if tried == [("inference", None)] and q.precision is None:  # "6000 块跑 7b": people run it quantized
            tried += [("inference", "int8"), ("inference", "int4")]
        for n, (name, smaller) in enumerate(tried):
            workload, precision = _workload_and_precision(q, name, notes)
            precision = smaller or precision
            try:
                sel, checks = engine.select(q.model, workload, budget_cny=q.budget_cny, max_gpus=q.max_gpus,
                                            precision=precision, seq_len=q.seq_len, batch=q.batch or 1,
                                            tokens=q.tokens, concurrency=q.concurrency,
                                            among=frozenset(q.among), no_datacenter=q.no_datacenter,
                                            language=language)
            except BadInput:
                return found
            if sel.rows or n == len(tried) - 1:
                break
            if tried[n + 1][1]:
                notes.append(note("selection_quantized", precision=precision or "fp16", next=tried[n + 1][1]))
            else:
                notes.append(note("selection_fallback", workload=note(f"workload.{name}"),
                                  next=note(f"workload.{tried[n + 1][0]}")))
        if sel.rows and sel.workload != tried[0][0] and workloads == ["full"]:
            sel.fallback_from = "full"  # training was asked: the adapters ranked are a fallback, said first
            if (most := _most_memory(engine, q)) is not None:  # and the most memory the budget buys, checked
                checks = [_asked_on(engine, q, most, language), *checks]
        sel.assumptions = [*render_all(notes, language), *sel.assumptions]
        found.checks, found.selection = checks, sel
        return found
    gpus = q.gpus or [(g, q.count) for g in DEFAULT_GPUS]  # "split over 8 cards": 8 of each default card
    if not q.gpus and q.unknown_gpus and q.vram_gb:  # "2080 Ti 11G": checked from the memory said of it
        gpus = [(name, q.count) for name in q.unknown_gpus]
    sized = _of_capacity(engine, q.vram_gb) if not q.gpus and not q.unknown_gpus and q.vram_gb else []
    if sized:  # "is 24gb enough for 13b": the cards kb has of that memory, the document's own first
        gpus = [(g, q.count) for g in sized]
        notes.append(note("vram_cards", gb=q.vram_gb, names=", ".join(engine.gpus[g].name for g in sized)))
    elif not q.gpus and not q.unknown_gpus:
        notes.append(note("no_gpu"))
        if q.also:  # models compared: on the first default card, so each check has its twin
            gpus = gpus[:1]
    models = [replace(q, model=m, also=[]) for m in (q.model, *q.also)]
    results = [_one(engine, m, gpu, count, w, notes, found.refused)
               for m in models for gpu, count in gpus for w in workloads]
    found.checks = [r for r in results if r is not None]
    # "how long on one 4060 Ti", "ttft on one h100": it does not fit there, so how fast on enough cards
    if q.speed or q.latency or q.asked == "time":
        found.checks += _on_enough_cards(engine, q, found.checks, notes)
    if q.speed and q.seq_len is None and not (q.concurrency or 1) > 1:  # (users at once: their own rates)
        found.checks += _short_context(engine, found.checks, language)
    return found


def _most_memory(engine: FitEngine, q: Query) -> tuple[str, int] | None:
    """The priced card and count with the most memory the budget buys (at most one 8-card node a kind)."""
    options = [(spec.capacity_value * n, spec.id, n) for spec in engine.gpus.values()
               if spec.price_cny and (not q.among or spec.id in q.among)
               and not (q.no_datacenter and spec.datacenter)
               and (n := min(8, int((q.budget_cny or 0) // spec.price_cny))) >= 1]
    return max(options)[1:] if options else None


def _asked_on(engine: FitEngine, q: Query, where: tuple[str, int], language: Language) -> FitResult:
    """The full training asked, checked on the cards the budget could buy: the verdict a fallback pick owes."""
    req = parse_request(model=q.model or "", workload="full", gpu=where[0], count=where[1], seq_len=q.seq_len,
                        tokens=q.tokens)
    return engine.check(req, language)


def _of_capacity(engine: FitEngine, gb: int | None) -> list[str]:
    """Up to two records whose memory is `gb` as sold (24 → RTX 4090, L4), the document's two cards first."""
    ids = sorted((g for g, spec in engine.gpus.items() if gb and round(spec.capacity_value) == gb),
                 key=lambda g: (g not in DEFAULT_GPUS, g))
    return ids[:2]


def _largest(engine: FitEngine, q: Query, notes: list[Note]) -> list[FitResult]:
    """'4090 能跑多大的模型': for the card asked (the first two), the largest size that fits, checked at that size —
    for inference with no format said, in 16-bit, int8 and int4 (table 5.2's columns)."""
    workload = (q.workloads or ["inference"])[0]
    formats: list[str | None] = [q.precision] if q.precision or workload != "inference" else ["fp16", "int8", "int4"]
    out = []
    for gpu, count in q.gpus[:1] if len(formats) > 1 else q.gpus[:2]:
        for fmt in formats:
            size = largest_size_b(engine, gpu, workload, fmt, count or 1, q.seq_len)
            if size <= 0:
                continue
            sized = replace(q, model=f"{size:g}b", precision=fmt, asked="largest")
            check = _one(engine, sized, gpu, count or 1, workload, [*notes, note("largest_read", size=size)])
            if check is not None:
                out.append(check)
    return out


def _on_enough_cards(engine: FitEngine, q: Query, checks: list[FitResult], notes: list[Note]) -> list[FitResult]:
    """For a speed or time asked of a job that does not fit: the same job on the fewest cards of the same kind
    that hold it (the alternatives' count), so the answer has a rate or a time to give."""
    out = []
    for c in checks:
        more = next((a for a in c.alternatives if a.change == "count" and a.fits), None)
        if c.fits or more is None:
            continue
        again = _one(engine, replace(q, zero=more.zero_stage or q.zero), c.gpu, more.gpu_count, c.workload, notes)
        if again is not None and again.fits:
            out.append(again)
    return out


SHORT_CONTEXT = 256  # tokens: decode rates are quoted near an empty cache (llama.cpp's tg128 after a short prompt)


def _short_context(engine: FitEngine, checks: list[FitResult], language: Language) -> list[FitResult]:
    """For a tokens/s question that states no context: the same inference checks at a short context too, since
    the default full-context check reads a whole KV cache every token and quotes the slowest end."""
    out = []
    for c in checks:
        if c.workload != "inference" or not c.fits or c.seq_len <= SHORT_CONTEXT:
            continue
        req = parse_request(model=c.model, workload="inference", gpu=c.gpu, count=c.gpu_count, precision=c.precision,
                            seq_len=SHORT_CONTEXT, batch=c.batch)
        short = engine.check(req, language)
        short.assumptions = [render(note("short_context", seq=SHORT_CONTEXT, full=c.seq_len), language),
                             *short.assumptions]
        out.append(short)
    return out
