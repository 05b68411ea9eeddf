"""Selection: which GPU kind × count fits a workload within a budget, ranked by time and by cost."""

from __future__ import annotations

from dataclasses import dataclass

from kb.fit.checker import Checker
from kb.fit.gpus import GpuSpec
from kb.fit.request import parse_request
from kb.fit.result import FitResult, Selection, SelectionRow
from kb.language import Language
from kb.words.fit import render, render_all
from kb.words.note import Note, note

NODE = 8  # cards in one server
GEFORCE_COUNTS = tuple(range(1, 9))  # one PCIe node: eight cards is the most a server board takes
DATACENTER_COUNTS = (*range(1, 9), 16, 24, 32, 48, 64)  # up to 8 a node on NVLink, then whole nodes
DEFAULT_TRAIN_TOKENS = 1e9  # ranks training configurations by hours a billion tokens when none are given


@dataclass
class _Row:
    gpu: GpuSpec
    count: int
    min_gpus: int
    capex: float
    tps: float | None
    hours: float | None
    base: FitResult  # the check at min_gpus (numbers only)
    request: object = None  # the FitRequest behind `base`
    replicas: int | None = None  # inference: copies of the model at this count (the serving layout's, if any)


def _team_prices(engine: Checker) -> list[Note]:
    """One line a card priced from a team's document, its date and the guide's price beside it."""
    from kb.fit.cost import team_where

    return [note("selection_team_price", gpu=g.id, where=team_where(g)) for g in engine.gpus.values()
            if g.team_price is not None]


def _counts(gpu: GpuSpec, need: int, budget: float | None, max_gpus: int | None) -> list[int]:
    counts = DATACENTER_COUNTS if gpu.datacenter else GEFORCE_COUNTS
    price = gpu.price_cny or 0.0
    # (no budget and no cap: one node at most, or the fewest that fit — more cards are always faster, so the
    # fastest of "up to 64" would only say that 64 cards beat 8)
    enough = [c for c in counts if c >= need]
    most = max_gpus if max_gpus is not None else None if budget is not None else max([NODE, *enough[:1]])
    return [c for c in enough if (most is None or c <= most) and (budget is None or c * price <= budget)]


def _why_not(gpu: GpuSpec, need: int, budget: float | None, max_gpus: int | None) -> Note:
    cap = max(DATACENTER_COUNTS if gpu.datacenter else GEFORCE_COUNTS)
    if need > cap:
        return note("excluded_over_cap", gpu=gpu.id, need=need, cap=cap)
    if max_gpus is not None and need > max_gpus:
        return note("excluded_over_max", gpu=gpu.id, need=need, max_gpus=max_gpus)
    return note("excluded_over_budget", gpu=gpu.id, need=need, cost=need * (gpu.price_cny or 0))


def select(engine: Checker, model: str, workload: str, *, budget_cny: float | None = None,
           max_gpus: int | None = None, precision: str | None = None, seq_len: int | None = None, batch: int = 1,
           tokens: float | None = None, concurrency: int | None = None, among: frozenset[str] = frozenset(),
           no_datacenter: bool = False, language: Language = "en") -> tuple[Selection, list[FitResult]]:
    """The configurations that fit, each kind at its fewest cards and at the most the budget buys.

    Returns the ranked table and the full checks behind its first row by time and its first by cost,
    their prose (assumptions, excluded reasons, the checks' working) in `language`, "en" or "zh".
    """
    lang = language
    rows: list[_Row] = []
    excluded: list[Note] = []
    train_tokens = tokens or DEFAULT_TRAIN_TOKENS
    for gpu in engine.gpus.values():
        if among and gpu.id not in among:
            continue  # ("A100 or 4090?": the others are not asked about)
        if no_datacenter and gpu.datacenter:
            excluded.append(note("excluded_datacenter", gpu=gpu.id))
            continue
        if gpu.price_cny is None:
            excluded.append(note("excluded_no_price", gpu=gpu.id))
            continue
        req = parse_request(model=model, workload=workload, gpu=gpu.id, precision=precision,
                         seq_len=seq_len, batch=batch, zero=3 if workload == "full" else 0,
                         tokens=train_tokens if workload != "inference" else None,
                         concurrency=concurrency if workload == "inference" else None)
        first = engine.numbers(req)
        need = first.min_gpus
        if need is None:
            excluded.append(note("excluded_none_fit", gpu=gpu.id))
            continue
        counts = _counts(gpu, need, budget_cny, max_gpus)
        if not counts:
            excluded.append(_why_not(gpu, need, budget_cny, max_gpus))
            continue
        base = first if need == 1 else engine.numbers(req.model_copy(update={"count": need}))
        base_req = req.model_copy(update={"count": need})
        picks = {counts[0]}
        whole = [c for c in counts if c % need == 0]  # inference: whole replicas of the model
        picks.add(whole[-1] if workload == "inference" and whole else counts[-1])
        for c in sorted(picks):
            tps = (c // need) * base.decode_tokens_per_s if base.decode_tokens_per_s is not None else None
            # the link's share of a step depends on the count, so each row's time is its own check's
            at_c = base if c == need else engine.numbers(req.model_copy(update={"count": c}))
            hours = at_c.train_wall_hours
            # serving at scale: copies of the model side by side (a concurrency's own layout where one was asked)
            copies = (at_c.serving.replicas if at_c.serving is not None and at_c.serving.replicas > c // need
                      else c // need) if workload == "inference" else None
            rows.append(_Row(gpu, c, need, c * (gpu.price_cny or 0.0), tps, hours, base, base_req, copies))

    has_speed = any((r.tps if workload == "inference" else r.hours) is not None for r in rows)

    def time_key(r: _Row) -> float:
        if not has_speed:  # no speed to rank by: cost first, then the most memory left a card
            return r.capex - r.base.headroom_bytes / 1e18
        return -(r.tps or 0.0) if workload == "inference" else (r.hours if r.hours is not None else float("inf"))

    by_time = sorted(rows, key=lambda r: (time_key(r), r.capex))
    by_cost = sorted(rows, key=lambda r: (r.capex, time_key(r)))
    out_rows = [
        SelectionRow(gpu=r.gpu.id, gpu_count=r.count, capex_cny=r.capex, decode_tokens_per_s=r.tps,
                     train_wall_hours=r.hours, per_gpu_required_bytes=r.base.per_gpu_required_bytes,
                     per_gpu_available_bytes=r.base.per_gpu_available_bytes,
                     replicas=r.replicas,
                     headroom_bytes=r.base.headroom_bytes,
                     rank_by_time=by_time.index(r) + 1, rank_by_cost=by_cost.index(r) + 1)
        for r in by_cost
    ]
    checks: list[FitResult] = []
    seen: list[object] = []
    for r in by_time[:1] + by_cost[:1]:  # the check behind each top row: one replica at its fewest cards
        if r.request not in seen:
            seen.append(r.request)
            checks.append(engine.check(r.request, lang))  # type: ignore[arg-type]
    guidance = ["guide-11.1" if workload != "inference" else "guide-11.2", "guide-11.3", "guide-11.4"]
    assumptions: list[Note] = [note("selection_rows"), note("selection_counts"), note("selection_capex"),
                               *_team_prices(engine)]
    if workload == "inference":
        assumptions.append(note("selection_time_inference"))
    else:
        assumptions.append(note("selection_time_training", tokens=train_tokens,
                               note="" if tokens else note("selection_no_tokens")))
    if rows and not has_speed:
        assumptions.append(note("selection_rank_cost"))
    if not rows:
        assumptions.append(note("selection_nothing"))
    return Selection(workload=workload, model=model, budget_cny=budget_cny, max_gpus=max_gpus, precision=precision,
                     rows=out_rows, train_tokens=train_tokens if workload != "inference" else None,
                     tokens_stated=bool(tokens),
                     guidance=guidance, assumptions=render_all(assumptions, lang),
                     excluded=[render(e, lang) for e in excluded], ranked_by="speed" if has_speed else "cost_headroom"
                     ), checks


def budget_options(engine: Checker, budget_cny: float, *, max_gpus: int | None = None, workload: str = "",
                   low_power: bool = False, language: Language = "en") -> Selection:
    """What a budget buys when no model is named: each priced kind at the most cards within it, by total memory
    (by the cards' power, lowest first, where the question asks for low power: an edge box, a kiosk).

    kb will not guess a model, so there is no fit check; memory is what an LLM workload runs out of first,
    and the §11.3 rule for the budget band says what the guide would buy.
    """
    rows: list[tuple[GpuSpec, int]] = []
    excluded: list[Note] = []
    for gpu in engine.gpus.values():
        if gpu.price_cny is None:
            excluded.append(note("excluded_no_price", gpu=gpu.id))
            continue
        counts = [c for c in (DATACENTER_COUNTS if gpu.datacenter else GEFORCE_COUNTS)
                  if c * gpu.price_cny <= budget_cny and (max_gpus is None or c <= max_gpus)]
        if counts:
            rows.append((gpu, counts[0] if low_power else counts[-1]))  # (low power: one box, its fewest cards)
        else:
            excluded.append(note("excluded_over_budget", gpu=gpu.id, need=1, cost=gpu.price_cny))
    by_memory = sorted(rows, key=lambda r: (-r[0].vram_bytes * r[1], r[1] * (r[0].price_cny or 0)))
    if low_power:
        by_memory = sorted(rows, key=lambda r: ((r[0].tdp_w or float("inf")) * r[1], -r[0].vram_bytes * r[1]))
    by_cost = sorted(rows, key=lambda r: (r[1] * (r[0].price_cny or 0), -r[0].vram_bytes * r[1]))
    out = [SelectionRow(gpu=g.id, gpu_count=c, capex_cny=c * (g.price_cny or 0), per_gpu_available_bytes=g.vram_bytes,
                        power_w=c * g.tdp_w if g.tdp_w is not None else None,
                        rank_by_time=by_memory.index((g, c)) + 1, rank_by_cost=by_cost.index((g, c)) + 1)
           for g, c in by_memory]
    assumptions = [note("selection_no_model", cap=max(GEFORCE_COUNTS)), note("selection_capex"), *_team_prices(engine)]
    if not out:
        assumptions.append(note("selection_nothing"))
    return Selection(workload=workload, model="", budget_cny=budget_cny, max_gpus=max_gpus, rows=out,
                     guidance=["guide-11.3", "guide-11.4"], assumptions=render_all(assumptions, language),
                     excluded=[render(e, language) for e in excluded],
                     ranked_by="power" if low_power else "memory")


def single_card_options(engine: Checker, *, by_power: bool = False, language: Language = "en") -> Selection:
    """A pick with no model and no budget, for one person or one box: each priced consumer card, one each, by memory
    (what an LLM workload runs out of first), then price — or by power, lowest first, for an edge box; the guide's
    §11.4 or §11.2 line says which it would buy."""
    rows = [g for g in engine.gpus.values() if g.price_cny is not None and not g.datacenter]
    excluded = [note("excluded_no_price", gpu=g.id) for g in engine.gpus.values() if g.price_cny is None]
    by_memory = sorted(rows, key=lambda g: (g.tdp_w or float("inf"), -g.vram_bytes) if by_power
                       else (-g.vram_bytes, g.price_cny or 0))
    by_cost = sorted(rows, key=lambda g: (g.price_cny or 0, -g.vram_bytes))
    out = [SelectionRow(gpu=g.id, gpu_count=1, capex_cny=g.price_cny or 0, per_gpu_available_bytes=g.vram_bytes,
                        power_w=g.tdp_w, rank_by_time=by_memory.index(g) + 1, rank_by_cost=by_cost.index(g) + 1)
           for g in by_memory]
    assumptions = [note("selection_individual"), note("selection_capex"), *_team_prices(engine)]
    return Selection(workload="", model="", max_gpus=1, rows=out, guidance=["guide-11.4", "guide-11.2"],
                     assumptions=render_all(assumptions, language),
                     excluded=[render(e, language) for e in excluded], ranked_by="power" if by_power else "memory")
