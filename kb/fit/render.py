"""Plain-text renderings of a fit check and of a selection, in Chinese or English, for terminals and Slack."""

from __future__ import annotations

from typing import Any

from kb.fit.memory import TERMS
from kb.fit.result import FitResult, Selection
from kb.fit.training import layout_line
from kb.language import Language
from kb.numbers import GIB
from kb.words.answer import gpu_name
from kb.words.catalog import table
from kb.words.fit import alternative_note, cards_note, offload_note, render, serving_note, total_note
from kb.words.width import align, width

MAX_ROWS = 10  # a terminal table longer than this stops being "short"; --json carries every row

def _l(language: Language) -> dict[str, Any]:
    return table("fit_text", language)


def _gib(n: int) -> str:
    return f"{n / GIB:,.2f} GiB"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(width(c) for c in col) for col in zip(header, *rows, strict=True)]
    head, *body = align(header, rows)
    return [head, "  ".join("-" * w for w in widths), *body]


def render_fit_text(result: FitResult, language: Language, cited: dict[str, int] | None = None) -> str:
    """The verdict, the memory breakdown as a table, speed and cost, then assumptions, working and sources; inside an
    answer (`cited`: its passages' ids → their ranks) the sources are the answer's own markers, [2], not ids."""
    L = _l(language)
    r = result
    verdict = L["fits"] if r.fits else L["nofit"]
    out = [f"{L['check']}: {r.model} · {L['workloads'].get(r.workload, r.workload)} · {r.precision} · "
           f"{gpu_name(r.gpu)} × {r.gpu_count} → {verdict}", "",
           render(total_note(r), language), render(cards_note(r), language), ""]
    per = r.per_gpu_breakdown
    rows = [[L[k], _gib(getattr(r.breakdown, k)), _gib(getattr(per, k)) if per else ""]
            for k in TERMS if getattr(r.breakdown, k)]
    out += _table([L["term"], L["total"], L["per_gpu"]], rows)
    out += ["", f"{L['required']}: {_gib(r.per_gpu_required_bytes)}   {L['available']}: "
            f"{_gib(r.per_gpu_available_bytes)}   {L['headroom']}: {r.headroom_bytes / GIB:+,.2f} GiB",
            f"{L['min_gpus']}: {r.min_gpus if r.min_gpus is not None else L['none']}"]
    if r.layout is not None and r.gpu_count > 1:
        out.append(f"{L['layout']}: {layout_text(r, language)}")
    if r.offload is not None:
        out.append(render(offload_note(r.offload), language))
    if r.serving is not None:
        out.append(render(serving_note(r.serving), language))
    for a in r.alternatives:
        out.append(f"{L['alternative']}: {render(alternative_note(a), language)}")
    if r.decode_tokens_per_s is not None:
        out.append(f"{L['decode']}: {r.decode_tokens_per_s:,.1f} tokens/s")
    if r.prefill_s is not None:
        out.append(f"{L['prefill']}: {r.prefill_s:,.2f} s")
    if r.train_gpu_hours is not None and r.train_wall_hours is not None:
        out.append(f"{L['train']}: {r.train_gpu_hours:,.0f} {L['gpu_hours']} = {r.train_wall_hours:,.1f} {L['hours']}")
    if r.capex_cny is not None:
        out.append(f"{L['capex']}: {r.capex_cny:,.0f} CNY")
    if r.energy_cny is not None:
        out.append(f"{L['energy']}: {r.energy_cny:,.0f} CNY")
    if r.cost_per_million_tokens_cny is not None:
        out.append(f"{L['per_m']}: {r.cost_per_million_tokens_cny:,.3f} CNY")
    out += ["", f"{L['assumptions']}:", *(f"- {a}" for a in r.assumptions),
            "", f"{L['steps']}:", *(f"{i}. {s}" for i, s in enumerate(r.steps, 1)),
            ""]
    if not r.citations:  # (a card kb has no record of cites nothing: its memory is the request's)
        pass
    elif cited is None:
        out.append(f"{L['citations']}: {', '.join(r.citations)}")
    elif marks := [f"[{cited[c]}]" for c in r.citations if c in cited]:
        out.append(f"{L['citations']}: {' '.join(marks)}")
    return "\n".join(out).rstrip()


def layout_text(r: FitResult, language: Language) -> str:
    """"8 node(s) × 8 GPUs: TP 8 inside a node over NVLink 4, DP 8 over InfiniBand …, ZeRO-1" (serving: replicas)."""
    assert r.layout is not None
    return render(layout_line(r.layout, serving=r.serving is not None), language)


def render_selection_text(sel: Selection, language: Language) -> str:
    """The ranked configurations as a short table, with the document's guidance cited beside it."""
    L = _l(language)
    head = f"{L['selection']}: {sel.model} · {L['workloads'].get(sel.workload, sel.workload)}"
    if sel.budget_cny is not None:
        head += f" · {L['budget']} {sel.budget_cny:,.0f} CNY"
    out = [head, ""]
    rows = sorted(sel.rows, key=lambda r: r.rank_by_time)
    if not rows:
        out.append(L["none_fit"])
    else:
        speed_unit = "tokens/s" if sel.workload == "inference" else L["hours"]
        table = []
        for r in rows[:MAX_ROWS]:
            speed = r.decode_tokens_per_s if sel.workload == "inference" else r.train_wall_hours
            table.append([str(r.rank_by_time), str(r.rank_by_cost), r.gpu, str(r.gpu_count),
                          f"{r.capex_cny:,.0f}", f"{speed:,.1f}" if speed is not None else "-"])
        first = L["rank_time"] if sel.ranked_by == "speed" else L["rank_headroom"]
        out += _table([first, L["rank_cost"], L["gpu"], L["count"], "CNY", f"{L['speed']} ({speed_unit})"],
                      table)
        if len(rows) > MAX_ROWS:
            out.append(L["more"].format(n=len(rows) - MAX_ROWS))
    out += ["", f"{L['guidance']}: {', '.join(sel.guidance)}"]
    if sel.excluded:
        out += ["", f"{L['excluded']}:", *(f"- {e}" for e in sel.excluded)]
    out += ["", f"{L['assumptions']}:", *(f"- {a}" for a in sel.assumptions)]
    return "\n".join(out)
