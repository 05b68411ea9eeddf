"""What a case's own relative figures make of an amount the asker gives: "a 5M budget, after the case's 40 % cut".

The cases state changes as shares and cuts ("总体成本降低了40%", "服务吞吐量仅下降了15%", "成本仅为同等性能A100系统的
1/5", "本地RTX 4090集群处理了约70%的常规负载"). A question that gives its own base ("要是原来一年 GPU 成本五百万",
"if one a100 server handled 100 requests a second") asks what that base becomes by the case's figure. This reads
the figures off the case's Chinese text and returns numbers; kb/answer/compose.py words them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from kb.understand.numerals import amount

# What a figure is about, in the case's words and the asker's.
_SUBJECTS: dict[str, tuple[str, str]] = {
    "cost": (r"成本|费用|开支", r"成本|费用|花|钱|cost|spend|price|budget|cny|元|块|万|opex|capex|bill"),
    "throughput": (r"吞吐|请求|处理能力", r"吞吐|请求|throughput|requests?|req/s|qps|tokens?/s|每秒"),
    "load": (r"负载|流量|任务", r"负载|流量|load|traffic|全部|所有|all of it|100 ?%"),
}
_CUT = re.compile(r"(成本|费用|开支|吞吐量?|请求|负载)[^，。；;()（）]{0,10}?(?:降低|下降|减少|削减)了?(?:约|大约)?\s*"
                  r"(\d+(?:\.\d+)?)%")
_SHARE = re.compile(r"(成本|费用|开支)?[^，。；;()（）]{0,6}?仅为[^，。；;()（）]{0,16}?的\s*"
                    r"(?:(\d+(?:\.\d+)?)%|(\d+)\s*/\s*(\d+))")
_LOAD = re.compile(r"处理了?(?:约|大约)?\s*(\d+(?:\.\d+)?)%的[^，。；;]{0,6}?(负载|流量|任务)")


@dataclass(frozen=True)
class CaseFigure:
    """One relative figure of a case: what it is about, the factor it applies, and its words in the case."""

    subject: str  # "cost" | "throughput" | "load"
    factor: float  # what a base becomes: 0.6 for "降低了40%", 0.2 for "1/5"; a share for "load"
    quote: str


def case_figures(text: str) -> list[CaseFigure]:
    """The relative figures a case's (Chinese) text states, in order."""
    out: list[CaseFigure] = []
    for m in _CUT.finditer(text):
        subject = _subject_of(m.group(1))
        out.append(CaseFigure(subject, 1 - float(m.group(2)) / 100, m.group(0).strip().lstrip("-：: ")))
    for m in _SHARE.finditer(text):
        share = float(m.group(2)) / 100 if m.group(2) else int(m.group(3)) / int(m.group(4))
        out.append(CaseFigure("cost", share, m.group(0).strip().lstrip("-：: ")))
    for m in _LOAD.finditer(text):
        out.append(CaseFigure("load", float(m.group(1)) / 100, m.group(0).strip().lstrip("-：: ")))
    first: dict[tuple[str, float], CaseFigure] = {}
    for f in out:  # the first saying of each (a case's notes say some again)
        first.setdefault((f.subject, round(f.factor, 6)), f)
    return list(first.values())


def _subject_of(word: str) -> str:
    return next(s for s, (case_words, _) in _SUBJECTS.items() if re.search(case_words, word))


def asked_subject(question: str) -> str | None:
    """What the asker's base is an amount of: a cost, a throughput, or the load (the first the question names)."""
    q = question.lower()
    found = [(m.start(), s) for s, (_, asked) in _SUBJECTS.items() if (m := re.search(asked, q))]
    return min(found)[1] if found else None


_RATE = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(?:个)?\s*(?:请求|requests?|req|qps|tokens?)", re.IGNORECASE)
_PER_CARD = re.compile(r"平摊|摊到每|每张.{0,6}(?:合|多少钱)|一张合|per (?:card|gpu)|each card|a card", re.IGNORECASE)
_ALL = re.compile(r"全部|所有|all of it|the whole|100 ?%|entire", re.IGNORECASE)


def throughput_base(question: str) -> float | None:
    """A rate the asker gives ("每秒处理100个请求", "100 requests a second")."""
    m = _RATE.search(question)
    return float(m.group(1).replace(",", "")) if m else None


def asks_per_card(question: str) -> bool:
    return bool(_PER_CARD.search(question))


def asks_all_of_it(question: str) -> bool:
    return bool(_ALL.search(question))


_TOTAL = re.compile(r"总成本约\s*(\d+(?:\.\d+)?)\s*万元")


def case_total_cny(text: str) -> float | None:
    """The whole deployment's cost a case states ("总成本约45万元"), in CNY."""
    m = _TOTAL.search(text)
    return float(m.group(1)) * 1e4 if m else None


_MONEY = re.compile(r"(\d+(?:\.\d+)?|[一二两三四五六七八九十百千]+)\s*(万|亿)")


def money_base(question: str) -> float | None:
    """An amount of money said with 万 and no currency ("原来一年成本五百万"), in CNY."""
    m = _MONEY.search(question)
    return (amount(m.group(1), m.group(2)) or None) if m else None


_BEFORE = re.compile(r"what (?:was|were|did) (?:it|they|the \w+) (?:be|cost )?before|before (?:the|that)? ?\w*\s*[?？]|"
                     r"原来(?:是|要)?多少|之前(?:是|要)?多少|以前(?:是|要)?多少|迁移前", re.IGNORECASE)
_KEEP = re.compile(r"保持|维持|不变|keep|same (?:total )?(?:throughput|capacity)|match", re.IGNORECASE)
_SERVERS = re.compile(r"(?<![a-z0-9.])(\d+)\s*(?:[a-z]+\d+[a-z]*\s*)?(?:台|个节点|servers?|boxes|nodes?|machines?)",
                      re.IGNORECASE)


def asks_before(question: str) -> bool:
    """'1.2M after the switch — what was it before': the base is the after, the asked is the before."""
    return bool(_BEFORE.search(question))


def servers_to_keep(question: str) -> int | None:
    """'原来20台 a100 服务器 迁完还想保持总吞吐': the servers whose total throughput is to be kept."""
    m = _SERVERS.search(question)
    return int(m.group(1)) if m and _KEEP.search(question) else None


@dataclass(frozen=True)
class WhatIf:
    """What a case question's own amount comes to: the catalog key that words it, the case's words it rests on,
    and its numbers by the key's fields (in the order they are derived)."""

    key: str  # case_per_card | case_all_load | case_keep | case_before | case_whatif
    quote: str
    numbers: dict[str, float]
    money: bool = False  # the base and result are CNY


def _up(x: float) -> float:
    """Whole cards or servers enough for `x` (23.5 → 24; 23.0 stays 23)."""
    return float(math.ceil(x - 1e-9))


def what_if(question: str, text: str, n_cards: int, budget_cny: float | None) -> WhatIf | None:
    """The amount a case question asks for, from the case's (Chinese) text and the cards it counts: its whole cost
    over its cards, its cards for all of a load it carried a share of, the servers that keep a total throughput,
    or the asker's own base taken through the case's cut or share (or back from an after to a before)."""
    if asks_per_card(question) and (total := case_total_cny(text)) and n_cards:
        return WhatIf("case_per_card", "总成本", {"total": total, "n": n_cards, "each": total / n_cards})
    figures = case_figures(text)
    subject = asked_subject(question)
    load = next((x for x in figures if x.subject == "load"), None)
    if asks_all_of_it(question) and load and n_cards and subject in ("load", None):
        need = n_cards / load.factor
        return WhatIf("case_all_load", load.quote, {"n": n_cards, "share": load.factor * 100,
                                                    "need": round(need, 1), "whole": _up(need)})
    fig = next((x for x in figures if x.subject == subject), None)
    servers = servers_to_keep(question) if subject == "throughput" else None
    if fig is not None and servers:  # "原来 20 台 a100 服务器 迁完还想保持总吞吐": as many more as it lost
        need = servers / fig.factor
        return WhatIf("case_keep", fig.quote, {"n": servers, "factor": fig.factor, "need": round(need, 1),
                                               "whole": _up(need)})
    base = (budget_cny or money_base(question)) if subject == "cost" else \
        throughput_base(question) if subject == "throughput" else None
    if base is None or fig is None:
        return None
    if asks_before(question):  # "1.2M a year after the switch — what was it before": the after ÷ the factor
        return WhatIf("case_before", fig.quote, {"base": base, "factor": fig.factor, "result": base / fig.factor},
                      money=subject == "cost")
    return WhatIf("case_whatif", fig.quote, {"base": base, "factor": fig.factor, "result": base * fig.factor},
                  money=subject == "cost")
