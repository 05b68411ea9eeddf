"""Fit checks and selections as compact monospace tables, built row by row inside a character budget."""

from __future__ import annotations

from collections.abc import Sequence

from kb.fit.render import layout_text
from kb.fit.result import FitResult, Selection
from kb.language import Language
from kb.numbers import GIB
from kb.words import catalog
from kb.words.answer import gpu_name
from kb.words.fit import workload_name
from kb.words.width import pad, width
from service.slack.text import escape

FENCE = "```"


def code_table(header: list[str], rows: Sequence[list[str]], budget: int, more: str) -> tuple[str, int]:
    """A fenced table of as many rows as fit in budget characters; returns it and how many rows were left out.

    When rows are left out, the line `more` (with {n}) says how many, so the table is trimmed, never rejected.
    """
    def render(n: int) -> str:
        shown = list(rows[:n])
        widths = [max(width(c) for c in col) for col in zip(header, *shown, strict=True)]
        lines = ["  ".join(pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [header, *shown]]
        tail = [more.format(n=len(rows) - n)] if n < len(rows) else []
        return escape("\n".join([FENCE + lines[0], *lines[1:], *tail]) + FENCE)

    n = len(rows)
    text = render(n)
    while len(text) > budget and n > 0:
        n -= 1
        text = render(n)
    return text, len(rows) - n


def _gib(n: int) -> str:
    return f"{n / GIB:.1f}"


def _money(cny: float | None, language: Language) -> str:
    if cny is None:
        return "—"
    if language == "zh" and cny >= 10_000:
        return f"¥{cny / 10_000:,.1f}万"
    return f"¥{cny:,.0f}"


def _speed(decode: float | None, train_hours: float | None, language: Language) -> str:
    t = catalog.table("slack", language)
    if decode is not None:
        return t["decode"].format(v=f"{decode:,.0f}")
    if train_hours is not None:
        return t["train"].format(v=f"{train_hours:,.0f}")
    return "—"


def verdict(check: FitResult, language: Language) -> str:
    """The verdict cell: the same words in every table row, so a reader (or a test) can scan for them."""
    return catalog.table("slack", language)["fits" if check.fits else "nofit"]


def fit_caption(checks: Sequence[FitResult], language: Language) -> str:
    """What was checked, once for the table: model, workload, precision, context and batch (distinct values)."""
    def distinct(values: Sequence[object]) -> str:
        return "/".join(dict.fromkeys(str(v) for v in values))

    workloads = distinct([workload_name(c.workload, language) for c in checks])
    return (f"{distinct([c.model for c in checks])} · {workloads} · "
            f"{distinct([c.precision for c in checks])} · seq {distinct([c.seq_len for c in checks])} · "
            f"batch {distinct([c.batch for c in checks])}")


def fit_table(checks: Sequence[FitResult], language: Language, budget: int) -> str:
    """Verdict, GPU × count, per-GPU need vs capacity (GiB), fewest GPUs that fit, speed, cost: one row a check."""
    t = catalog.table("slack", language)
    header = ["", t["verdict"], t["gpu"], t["need"] + " GiB", t["min_gpus"], t["speed"], t["cost"]]
    rows = [[f"[F{i}]", verdict(c, language), f"{gpu_name(c.gpu)}×{c.gpu_count}",
             f"{_gib(c.per_gpu_required_bytes)}/{_gib(c.per_gpu_available_bytes)}",
             str(c.min_gpus) if c.min_gpus is not None else t["no_gpus"],
             _speed(c.decode_tokens_per_s, c.train_wall_hours, language), _money(c.capex_cny, language)]
            for i, c in enumerate(checks, 1)]
    table = code_table(header, rows, budget, t["more_rows"])[0]
    # The layout line of each multi-GPU check under the table, as far as the budget allows.
    for i, c in enumerate(checks, 1):
        if c.layout is None or c.gpu_count <= 1:
            continue
        line = "\n" + escape(f"[F{i}] {layout_text(c, language)}")
        if len(table) + len(line) > budget:
            break
        table += line
    return table


def selection_caption(selection: Selection, language: Language) -> str:
    """Workload · model · budget, the question the ranking answers."""
    label = catalog.table("slack", language)["budget"]
    budget = f" · {label} {_money(selection.budget_cny, language)}" if selection.budget_cny else ""
    return f"{workload_name(selection.workload, language)} · {selection.model}{budget}"


def selection_table(selection: Selection, language: Language, budget: int) -> str:
    """The configurations that fit, ranked: GPU × count, cost, speed, rank by speed and by cost."""
    t = catalog.table("slack", language)
    header = [t["gpu"], t["cost"], t["speed"], t["rank_time"], t["rank_cost"]]
    rows = [[f"{gpu_name(r.gpu)}×{r.gpu_count}", _money(r.capex_cny, language),
             _speed(r.decode_tokens_per_s, r.train_wall_hours, language), str(r.rank_by_time), str(r.rank_by_cost)]
            for r in selection.rows]
    return code_table(header, rows, budget, t["more_rows"])[0]
