"""How an answer writes its names and numbers: cards, workloads, GiB, rates, markers.

The composer (kb/answer/compose.py) decides which facts to state and says them with the catalog's templates
(kb/words/catalog/answer.py); numbers are formatted by the helpers below so that the answer's figures are
written the way the cited fit check or passage writes them (tests check each against what it cites).
"""

from __future__ import annotations

import re
from typing import Any

from kb.language import Language
from kb.numbers import GIB
from kb.words.catalog import CATALOG, table
from kb.words.money import grouped

# The workload names of kb.words.fit; a sentence about full training states its convention beside it.
WORKLOADS = {w: dict(CATALOG[f"workload.{w}"]) for w in ("inference", "full", "lora", "qlora")}
WORKLOADS["full"] = {"en": "full training (mixed-precision Adam)", "zh": "全参数训练（混合精度 Adam）"}

# GPU ids as people write them (ids are lower-case with hyphens: rtx-4060-ti-16gb → RTX 4060 Ti 16GB).
_GPU_WORDS = {"ti": "Ti", "ada": "Ada", "gaudi": "Gaudi", "sxm": "SXM", "pcie": "PCIe", "ascend": "Ascend"}


def gpu_name(gpu_id: str) -> str:
    """A GPU id as a person writes it: a100-80gb → A100 80GB, rtx-4090 → RTX 4090; a card kb has no figures for
    keeps the name its asker gave it ("2080 Ti")."""
    if not re.fullmatch(r"[a-z0-9-]+", gpu_id):
        return gpu_id
    return " ".join(_GPU_WORDS.get(w, w.upper()) for w in gpu_id.split("-"))


def workload_phrase(model: str, workload: str, precision: str | None, language: Language) -> str:
    """'inference of llama-2-13b in fp16' / 'llama-2-13b fp16 推理'."""
    name = WORKLOADS.get(workload, {}).get(language, workload)
    if language == "zh":
        return f"{model} {precision + ' ' if precision and workload != 'qlora' else ''}{name}"
    return f"{name} of {model}{' in ' + precision if precision and workload != 'qlora' else ''}"


def metric_words(metric: str, language: Language) -> dict[str, str]:
    """A spec table's metric as a sentence's subject: 'Memory bandwidth' → {'metric': 'memory bandwidth', 'is':
    'is'}, 'Tensor Cores' → {'metric': 'Tensor Cores', 'is': 'are'} (names and acronyms keep their capitals)."""
    if language == "zh":
        return {"metric": metric, "is": "是"}
    first, _, rest = metric.partition(" ")
    if re.fullmatch(r"[A-Z][a-z]+", first) and first not in _PROPER:
        metric = f"{first.lower()} {rest}".rstrip()
    plural = re.search(r"(?<!s)s(?: \(|$)", metric) is not None and not metric.endswith("bandwidth")
    return {"metric": metric, "is": "are" if plural else "is"}


_PROPER = {"Tensor"}  # a metric's first word that is a name, not a common word to lower-case


def gib(n_bytes: int | float) -> str:
    """Bytes as GiB with one decimal (12.9; a whole 24 stays 24), the way kb's fit checks round them."""
    text = f"{n_bytes / GIB:.1f}"
    return text[:-2] if text.endswith(".0") else text


def whole(x: float) -> str:
    """A large figure with thousands separators and no decimals (184,320)."""
    return f"{x:,.0f}"


def rate(x: float) -> str:
    """A speed: whole numbers from 10 up, one decimal below (146, 7.3)."""
    return f"{x:,.0f}" if x >= 10 else f"{x:.1f}"


def money(cny: float, language: Language, usd_cny: float | None = None) -> str:
    """An amount with its currency and thousands separators; in dollars first, then CNY, when the asker's own
    figures were in dollars (`usd_cny`: the rate they were converted at)."""
    yuan = f"{cny:,.0f} 元" if language == "zh" else f"{cny:,.0f} CNY"
    if not usd_cny:
        return yuan
    usd = cny / usd_cny
    return f"{usd:,.0f} 美元（{yuan}）" if language == "zh" else f"${usd:,.0f} ({yuan})"


_SPANS = ((8760.0, "years"), (730.0, "months"), (168.0, "weeks"), (24.0, "days"), (1.0, "hours"))


def span(hours: float, language: Language) -> str:
    """A span of time said in the unit it divides evenly ('over 90 days', '3 年里'), hours otherwise."""
    unit, n = next(((u, hours / h) for h, u in _SPANS if hours >= h and abs(hours / h - round(hours / h)) < 1e-6),
                   ("hours", hours))
    return CATALOG[f"span.{unit}"][language].format(n=f"{n:,.0f}" if n == round(n) else f"{n:,.1f}")


def span_figures(hours: float | None) -> tuple[float, ...]:
    """The number a span is said with ("90" of "over 90 days"), for the answer's number check."""
    return tuple(hours / h for h, _ in _SPANS) if hours else ()


def end(sentence: str, markers: list[str], language: Language) -> str:
    """A sentence closed by its markers: '… [1][F1].' or '…[1]。'; its amounts of money with thousands separators,
    a sentence quoted from a passage ("首发价为12999元") as much as one kb wrote."""
    body = grouped(sentence).rstrip("。.！!？?；;，, ")
    if language == "en" and re.match(r"[a-z]+(?![\w.-])", body) and not body.startswith("kb"):
        body = body[:1].upper() + body[1:]  # "one RTX 4090 …", "inference of …" (not "qwen2.5-7b …", not "kb")
    tags = "".join(f"[{m}]" for m in markers)
    if language == "zh":
        return f"{body} {tags}。" if tags else f"{body}。"
    return f"{body} {tags}." if tags else f"{body}."


def origin(passage: Any, language: Language) -> str:
    """Where a passage comes from, in words: 'the guide, lines 187–216', 'a case study from the guide', or a team
    document's title, file, place and date; never a repository path or a record's id."""
    words = table("origins", language)
    src = passage.source
    if passage.kind == "guide":
        return str(words["guide_lines"]).format(a=src.start_line, b=src.end_line)
    if passage.kind != "document" or not hasattr(src, "document"):
        return str(words.get(passage.kind, passage.kind))
    place = words["place"]
    where = (place["sheet"].format(sheet=src.sheet, row=src.row) if src.sheet else
             place["page_row"].format(page=src.page, row=src.row) if src.page and src.row else
             place["page"].format(page=src.page) if src.page else
             place["lines"].format(a=src.start_line, b=src.end_line))
    return str(place["document"].format(title=src.title, file=src.file, place=where, as_of=src.as_of))
