"""A follow-up's words: the question as it stands on its own, and the line that says what was carried.

The resolved question is written so that `kb.understand.read.read_query` reads back the same slots (a test holds
that round trip), because kb answers a follow-up by answering its resolved question.
"""

from __future__ import annotations

from typing import Any

from kb.language import Language, check_language
from kb.understand.query import Query
from kb.words.answer import WORKLOADS, gpu_name
from kb.words.catalog import say

# The asked quantity, said again so that the resolved question asks for the same thing.
_ASK_ZH = {"memory": "需要多少显存", "kv": "的 KV 缓存多大", "concurrency": "最多能并发多少路", "time": "要多久",
           "cost": "的成本多少"}
_ASK_EN = {"memory": "How much GPU memory does {work} of {model} need{where}{more}?",
           "kv": "How big is the KV cache for {work} of {model}{where}{more}?",
           "concurrency": "How many concurrent sequences can {work} of {model} serve{where}{more}?",
           "time": "How long does {work} of {model} take{where}{more}?",
           "cost": "What does {work} of {model} cost{where}{more}?"}


_PERIOD_ZH = {"year": "一年", "month": "一个月", "day": "一天"}
# A figure per unit, said so that kb.understand.intent.per_unit reads it back.
_PER_ZH = {"per_kw": "每千瓦", "per_w": "每瓦", "per_10k": "每万元", "per_1k": "每千元", "per_cny": "每元"}
_PER_EN = {"per_kw": " per kW", "per_w": " per watt", "per_10k": " per 10k CNY", "per_1k": " per 1k CNY",
           "per_cny": " per CNY"}


def _tokens(n: float, language: Language) -> str:
    if language == "zh":
        return f"{n / 1e12:g}万亿 token" if n >= 1e12 else f"{n / 1e8:g}亿 token"
    return f"{n / 1e12:g} trillion tokens" if n >= 1e12 else f"{n / 1e9:g} billion tokens"


def _cards(q: Query, language: Language) -> str:
    parts = []
    for g, c in q.gpus:
        name = gpu_name(g)
        if language == "zh":
            parts.append(f"{c} 张 {name}" if c else name)
        elif c and c > 1:
            parts.append(f"{c} × {name}")
        else:
            parts.append(f"one {name}")
    return (" 和 " if language == "zh" else " and ").join(parts)


def resolved_question(q: Query, language: Language) -> str:
    """The Query as one standalone question in `language`."""
    zh = language == "zh"
    workload = q.workloads[0] if len(q.workloads) == 1 else None
    work = WORKLOADS[workload]["zh" if zh else "en"] if workload else ("推理" if zh else "inference")
    if q.workloads == ["full", "lora"]:  # a fine-tune with no method said: read back as the same open fine-tune
        work = "微调" if zh else "fine-tuning"
    extras: list[str] = []
    if q.precision and workload != "qlora":
        extras.append(q.precision)
    if q.seq_len:
        extras.append(f"上下文 {q.seq_len}" if zh else f"context of {q.seq_len}")
    if q.concurrency:
        extras.append(f"并发 {q.concurrency}" if zh else f"concurrency of {q.concurrency}")
    if q.batch:
        extras.append(f"batch {q.batch}")
    if q.zero is not None:
        extras.append(f"ZeRO-{q.zero}")
    if q.tokens:
        extras.append(("训练 " if zh else "on ") + _tokens(q.tokens, language))
    if q.budget_cny:
        extras.append(f"预算 {q.budget_cny:.0f} 元" if zh else f"a budget of {q.budget_cny:.0f} CNY")
    more = ("（" + "，".join(extras) + "）") if zh and extras else (" (" + ", ".join(extras) + ")") if extras else ""
    cards = _cards(q, language)
    if not q.model and q.budget_cny and q.how_many and len(q.gpus) == 1:  # "how many 4090s for the same money"
        name = gpu_name(q.gpus[0][0])
        what = ("、" if zh else " and ").join(say(f"attribute.{a}", language) for a in q.attributes)
        if zh:
            return f"预算 {q.budget_cny:.0f} 元能买几张 {name}？" + (f"它们的{what}合计多少？" if what else "")
        return f"How many {name}s does {q.budget_cny:.0f} CNY buy?" + (f" What is their total {what}?" if what else "")
    if q.derived == "grad_sync" and q.gpus:
        if not q.model:
            return f"{cards} 同步一次梯度要多久？" if zh else f"How long does a gradient all-reduce take on {cards}?"
        return (f"用 {cards} {q.model} {work}{more}同步一次梯度要多久？" if zh else
                f"How long does a gradient all-reduce take for {work} of {q.model} on {cards}{more}?")
    if not q.model and q.gpus and q.derived == "per_gb":
        return f"{cards} 每 GB 显存多少钱？" if zh else f"What is the price per GB of memory of the {cards}?"
    if not q.model and q.gpus and q.derived == "per_tflops":
        return f"{cards} 每 TFLOPS 算力多少钱？" if zh else f"What is the price per dense TFLOPS of the {cards}?"
    if not q.model and q.attributes and q.gpus:
        what = ("、" if zh else " and ").join(say(f"attribute.{a}", language) for a in q.attributes)
        named = cards.removeprefix("one ")
        if q.asked == "cost" and "power" in q.attributes:  # energy over a span: kWh and what it costs
            return (f"{cards} 满载{_PERIOD_ZH[q.period]}耗电多少度、电费多少？" if zh else
                    f"How many kWh do the {named} use in a {q.period} at full load, and what is the electricity bill?")
        per = _PER_ZH.get(q.derived or "", "") if zh else _PER_EN.get(q.derived or "", "")
        return f"{cards} 的{what}{per}是多少？" if zh else f"What is the {what}{per} of the {named}?"
    model = q.model or ("这个模型" if zh else "the model")
    if zh:
        if q.wants_selection and not q.gpus:
            return f"{model} {work}{more}选哪种卡？"
        speed = "的速度哪个更快、差多少" if len(q.gpus) > 1 else "的速度是多少"
        ask = _ASK_ZH.get(q.asked or "", "需要几张" if q.how_many else speed if q.speed else
                          "的延迟是多少" if q.latency else "能行吗")
        where = f"用 {cards} " if cards else ""
        return f"{where}{model} {work}{more}{ask}？"
    if q.wants_selection and not q.gpus:
        return f"Which GPU for {work} of {model}{more}?"
    where = f" on {cards}" if cards else ""
    if q.asked in _ASK_EN:
        return _ASK_EN[q.asked].format(work=work, model=model, where=where, more=more)
    if q.how_many:
        return f"How many {gpu_name(q.gpus[0][0]) + 's' if q.gpus else 'GPUs'} for {work} of {model}{more}?"
    if q.speed and len(q.gpus) > 1:
        return f"Which is faster for {work} of {model}{where}{more}, and by how much?"
    if q.speed:
        return f"How fast is {work} of {model}{where}{more}?"
    if q.latency:
        return f"What is the latency of {work} of {model}{where}{more}?"
    return f"Can {work} of {model} run{where}{more}?"


def _value(slot: str, value: Any, language: Language) -> str:
    if value is None:
        return "—"
    if slot == "gpu":
        return " + ".join(gpu_name(g) for g in (value if isinstance(value, tuple) else (value,)))
    if slot == "workload":
        return "/".join(WORKLOADS.get(w, {}).get(language, w) for w in value)
    if slot == "attributes":
        return ("、" if language == "zh" else ", ").join(say(f"attribute.{a}", language) for a in value)
    if slot == "case":  # "case-9.1-university-team": §9.1 university team
        section, _, name = str(value).removeprefix("case-").partition("-")
        return f"§{section} {name.replace('-', ' ')}"
    if slot == "tokens":
        return _tokens(float(value), language)
    if isinstance(value, float):
        return f"{value:,.0f}"
    return str(value)


def _slot(slot: str, language: Language) -> str:
    return say(f"slot.{slot}", language)


def carried_line(carried: list[str], changed: list[str], before: dict[str, Any], after: dict[str, Any],
                 language: Language) -> str:
    """'沿用上文：模型 llama-3-70b · 任务 推理；本次修改：卡数 2→4' / 'From earlier: …; changed: …'."""
    lang = check_language(language)
    kept = [f"{_slot(s, lang)} {_value(s, after[s], lang)}" for s in carried]
    new = [f"{_slot(s, lang)} {_value(s, after[s], lang)}" if before.get(s) is None else
           f"{_slot(s, lang)} {_value(s, before[s], lang)}→{_value(s, after[s], lang)}" for s in changed]
    if lang == "zh":
        parts = [f"沿用上文：{' · '.join(kept)}" if kept else "", f"本次修改：{' · '.join(new)}" if new else ""]
        return "；".join(p for p in parts if p) + "。"
    parts = [f"From earlier: {' · '.join(kept)}" if kept else "", f"changed: {' · '.join(new)}" if new else ""]
    text = "; ".join(p for p in parts if p)
    return text[:1].upper() + text[1:] + "."
