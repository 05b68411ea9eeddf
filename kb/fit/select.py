"""Selection: which GPU kind × count fits a workload within a budget, ranked by time and by cost."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kb.fit.check import check_fit
from kb.fit.gpus import GpuSpec, load_gpus
from kb.fit.messages import check_language, msg
from kb.fit.request import parse_request
from kb.fit.result import FitResult, Selection, SelectionRow

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
    base: FitResult  # the check at min_gpus


def _counts(gpu: GpuSpec, need: int, budget: float | None, max_gpus: int | None) -> list[int]:
    counts = DATACENTER_COUNTS if gpu.datacenter else GEFORCE_COUNTS
    price = gpu.price_cny or 0.0
    return [c for c in counts if c >= need and (max_gpus is None or c <= max_gpus)
            and (budget is None or c * price <= budget)]


def _why_not(gpu: GpuSpec, need: int, budget: float | None, max_gpus: int | None, language: str) -> str:
    cap = max(DATACENTER_COUNTS if gpu.datacenter else GEFORCE_COUNTS)
    if need > cap:
        return msg("excluded_over_cap", language, gpu=gpu.id, need=need, cap=cap)
    if max_gpus is not None and need > max_gpus:
        return msg("excluded_over_max", language, gpu=gpu.id, need=need, max_gpus=max_gpus)
    return msg("excluded_over_budget", language, gpu=gpu.id, need=need, cost=need * (gpu.price_cny or 0))


def select(model: str, workload: str, *, budget_cny: float | None = None, max_gpus: int | None = None,
           precision: str | None = None, seq_len: int | None = None, batch: int = 1, tokens: float | None = None,
           corpus_dir: Path | None = None, language: str = "en") -> tuple[Selection, list[FitResult]]:
    """The configurations that fit, each kind at its fewest cards and at the most the budget buys.

    Returns the ranked table and the full checks behind its first row by time and its first by cost,
    their prose (assumptions, excluded reasons, the checks' working) in `language`, "en" or "zh".
    """
    lang = check_language(language)
    rows: list[_Row] = []
    excluded: list[str] = []
    train_tokens = tokens or DEFAULT_TRAIN_TOKENS
    for gpu in load_gpus(corpus_dir).values():
        if gpu.price_cny is None:
            excluded.append(msg("excluded_no_price", lang, gpu=gpu.id))
            continue
        req = parse_request(model=model, workload=workload, gpu=gpu.id, precision=precision,
                         seq_len=seq_len, batch=batch, zero=3 if workload == "full" else 0,
                         tokens=train_tokens if workload != "inference" else None)
        first = check_fit(req, corpus_dir, language=lang)
        need = first.min_gpus
        if need is None:
            excluded.append(msg("excluded_none_fit", lang, gpu=gpu.id))
            continue
        counts = _counts(gpu, need, budget_cny, max_gpus)
        if not counts:
            excluded.append(_why_not(gpu, need, budget_cny, max_gpus, lang))
            continue
        base = first if need == 1 else check_fit(req.model_copy(update={"count": need}), corpus_dir, language=lang)
        picks = {counts[0]}
        whole = [c for c in counts if c % need == 0]  # inference: whole replicas of the model
        picks.add(whole[-1] if workload == "inference" and whole else counts[-1])
        for c in sorted(picks):
            tps = (c // need) * base.decode_tokens_per_s if base.decode_tokens_per_s is not None else None
            hours = first.train_gpu_hours / c if first.train_gpu_hours is not None else None
            rows.append(_Row(gpu, c, need, c * (gpu.price_cny or 0.0), tps, hours, base))

    def time_key(r: _Row) -> float:
        return -(r.tps or 0.0) if workload == "inference" else (r.hours or 0.0)

    by_time = sorted(rows, key=lambda r: (time_key(r), r.capex))
    by_cost = sorted(rows, key=lambda r: (r.capex, time_key(r)))
    out_rows = [
        SelectionRow(gpu=r.gpu.id, gpu_count=r.count, capex_cny=r.capex, decode_tokens_per_s=r.tps,
                     train_wall_hours=r.hours, per_gpu_required_bytes=r.base.per_gpu_required_bytes,
                     per_gpu_available_bytes=r.base.per_gpu_available_bytes,
                     replicas=r.count // r.min_gpus if workload == "inference" else None,
                     rank_by_time=by_time.index(r) + 1, rank_by_cost=by_cost.index(r) + 1)
        for r in by_cost
    ]
    checks: list[FitResult] = []
    for r in by_time[:1] + by_cost[:1]:  # the check behind each top row: one replica at its fewest cards
        if r.base not in checks:
            checks.append(r.base)
    guidance = ["guide-11.1" if workload != "inference" else "guide-11.2", "guide-11.3", "guide-11.4"]
    assumptions = [msg("selection_rows", lang), msg("selection_counts", lang), msg("selection_capex", lang)]
    if workload == "inference":
        assumptions.append(msg("selection_time_inference", lang))
    else:
        assumptions.append(msg("selection_time_training", lang, tokens=train_tokens,
                               note="" if tokens else msg("selection_no_tokens", lang)))
    if not rows:
        assumptions.append(msg("selection_nothing", lang))
    return Selection(workload=workload, model=model, budget_cny=budget_cny, max_gpus=max_gpus, rows=out_rows,
                     guidance=guidance, assumptions=assumptions, excluded=excluded), checks
