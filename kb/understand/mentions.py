"""Mentions: the typed spans a question is made of — cards, models, amounts with their units, and the words of
the vocabulary (attributes, workloads, precisions, operations, settings, negations, corrections, pointers).

Asks are built from these (kb/understand/asks.py). A new phrasing mostly changes the words between mentions,
not the mentions themselves, which is why asks read this way carry over to questions written in other words.
Names come from the one registry (records, presets, names kb lacks); every other word from the vocabulary
files; numbers are read with the unit after them. A negation just before a workload or precision ("not lora",
"不要量化") marks that mention negated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kb.understand.names import Registry
from kb.understand.numerals import CN_DIGITS, SCALE, cn_int
from kb.understand.terms import Hit, fold, terms

VOCABULARY = ("attributes.yaml", "workloads.yaml", "cues.yaml", "settings.yaml")
NEGATABLE = ("workload", "precision", "setting")
_NEGATION_REACH = 6  # characters between a negation and what it negates ("not lora", "不要用 lora")
_STOP = re.compile(r"[。，,.;；!?！？\n]")


@dataclass(frozen=True)
class Mention:
    """One thing a question names: its kind, its key (a record or preset id, a vocabulary key, a unit family),
    its value where it is an amount (in the unit's base: hours, tokens/s, GB, W, CNY), and where it stands."""

    kind: str
    key: str
    start: int
    end: int
    value: float | None = None
    negated: bool = False


# A number as people write it, with a scale word glued on ("1.9万", "35k", "20B", "两万").
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
          "eleven": 11, "twelve": 12, "eighteen": 18, "twenty": 20, "thirty": 30, "a": 1, "an": 1}
_NUMBER = re.compile(r"(?<![a-z0-9.])(\d+(?:,\d{3})*(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+|"
                     rf"(?:{'|'.join(_WORDS)})(?=\s))\s*"
                     r"(万亿|千亿|亿|万|千|(?:k|m|b|bn|t|w)(?![a-z]))?", re.IGNORECASE)
_CURRENCY_BEFORE = re.compile(r"(?:us\$|\$|usd\s*|¥|￥|rmb\s*|cny\s*)\s*$", re.IGNORECASE)
_CURRENCY_AFTER = re.compile(r"^\s*(?:元|块钱|块|rmb|cny|人民币|yuan|usd|dollars?|美元|美金|刀)", re.IGNORECASE)
_USD = re.compile(r"\$|usd|dollar|美元|美金|刀", re.IGNORECASE)
# What a price is for: a kWh of electricity, an hour of one card.
_PER_KWH = re.compile(r"^\s*(?:/|每|per|一|a)\s*(?:kwh|kw·h|kw h|度|千瓦时|kilowatt[\s-]?hour)", re.IGNORECASE)
_PER_CARD_HOUR = re.compile(r"^\s*(?:/|每|per|an?|一)\s*(?:(?:gpu|card|卡)[\s-]*)?(?:h|hr|hour|小时|卡时)(?![a-z])|"
                            r"^\s*(?:/|每)\s*卡\s*(?:/|每)?\s*(?:时|小时)", re.IGNORECASE)
_TOKENS_AFTER = re.compile(r"^\s*(?:个)?\s*(?:tokens?|toks?|词元)(?![a-z]|\s*/)", re.IGNORECASE)
_PER_SPAN = re.compile(r"^\s*(?:/|每|per|a|an|一)\s*(天|日|day|小时|hour|h|秒|sec(?:ond)?|s)(?![a-z])", re.IGNORECASE)
_SPAN_HOURS = {"天": 24.0, "日": 24.0, "day": 24.0, "小时": 1.0, "hour": 1.0, "h": 1.0,
               "秒": 1 / 3600, "sec": 1 / 3600, "second": 1 / 3600, "s": 1 / 3600}


def _number(text: str) -> float | None:
    if text.lower() in _WORDS:
        return float(_WORDS[text.lower()])
    if text[0].isdigit():
        return float(text.replace(",", ""))
    if len(text) == 1 and text in CN_DIGITS:
        return float(CN_DIGITS[text])
    n = cn_int(text)
    return float(n) if n is not None else None


def _scaled(m: re.Match[str]) -> float | None:
    value = _number(m.group(1))
    if value is None:
        return None
    scale = (m.group(2) or "").lower()
    return value * SCALE.get(scale, 1.0)


def _amounts(s: str, usd_cny: float) -> list[Mention]:
    """Numbers with what follows them: money (and what it is per), a span of time, a rate, memory, power, a share."""
    units = terms("units.yaml")
    out: list[Mention] = []
    for m in _NUMBER.finditer(s):
        value = _scaled(m)
        if value is None:
            continue
        after = s[m.end():m.end() + 24]
        before = s[max(0, m.start() - 6):m.start()]
        currency = _CURRENCY_BEFORE.search(before)
        written = _CURRENCY_AFTER.match(after)
        if currency or written:
            said = (currency.group(0) if currency else "") + (written.group(0) if written else "")
            key = "usd" if _USD.search(said) else "cny"  # (the amount itself is in CNY either way)
            cny = value * (usd_cny if key == "usd" else 1.0)
            rest = after[written.end():] if written else after
            start = m.start() - (len(currency.group(0)) if currency else 0)
            if per := _PER_KWH.match(rest):
                out.append(Mention("energy_price", key, start, m.end() + (written.end() if written else 0)
                                   + per.end(), cny))
            elif per := _PER_CARD_HOUR.match(rest):
                out.append(Mention("rent", key, start, m.end() + (written.end() if written else 0)
                                   + per.end(), cny))
            else:
                out.append(Mention("money", key, start, m.end() + (written.end() if written else 0), cny))
            continue
        if tok := _TOKENS_AFTER.match(after):
            per = _PER_SPAN.match(after[tok.end():])
            if per:  # "20B tokens a day": a throughput, in tokens an hour
                span = per.group(1).lower()
                hours = _SPAN_HOURS.get(span, _SPAN_HOURS.get(span.rstrip("s"), 1.0))
                end = m.end() + tok.end() + per.end()
                out.append(Mention("throughput", "tokens_per_hour", m.start(), end, value / hours))
            else:
                out.append(Mention("tokens", "tokens", m.start(), m.end() + tok.end(), value))
            continue
        hit = next((h for h in units.find(after) if h.start == len(after) - len(after.lstrip())), None)
        if hit is None:
            continue
        factor = float(hit.key)
        if hit.kind == "per_token_time" and value > 0:  # "34ms per token": a rate of 1,000 ÷ 34 tokens/s
            value, factor = 1000.0 / (value * factor), 1.0
        kind = {"duration": "duration", "rate": "rate", "per_token_time": "rate", "memory": "memory", "power": "power",
                "percent": "percent", "energy": "energy"}.get(hit.kind)
        if kind == "duration" and value == 1:
            kind = "span"  # "一年", "a month": the span words' own, not a figure of hours the asker worked out
        if kind:
            out.append(Mention(kind, hit.kind, m.start(), m.end() + hit.end, value * factor))
    for h in units.find(s, ("span_words",)):  # "一年", "a month": a span with no number
        if not any(x.start <= h.start < x.end for x in out):
            out.append(Mention("span", "span", h.start, h.end, float(h.key)))  # (not a figure the asker gave)
    return out


def _negate(s: str, found: list[Mention], hits: list[Hit]) -> list[Mention]:
    """A negation just before a workload, precision or setting scopes it out ("full params, not lora"): within a
    few characters, with no stop and no other mention between them ("不考虑上云。用LoRA" rules out only the cloud)."""
    cues = [h for h in hits if h.kind == "negation"]
    out = []
    for m in found:
        near = any(c.end <= m.start and m.start - c.end <= _NEGATION_REACH and not _STOP.search(s[c.end:m.start])
                   and not any(c.end <= o.start < m.start for o in found) for c in cues)
        out.append(replace(m, negated=True) if m.kind in NEGATABLE and near else m)
    return out


def read_mentions(question: str, registry: Registry, usd_cny: float = 7.2) -> list[Mention]:
    """Every mention in a question, in the order they stand."""
    s = fold(question)
    found: list[Mention] = []
    for f in registry.find(s):
        kind = ("card" if f.kind == "gpu" else "model") if f.id else f"unknown_{'card' if f.kind == 'gpu' else 'model'}"
        found.append(Mention(kind, f.id or s[f.start:f.end], f.start, f.end))
    taken = [(m.start, m.end) for m in found]
    hits = [h for h in terms(*VOCABULARY).find(s) if not any(a <= h.start < b for a, b in taken)]
    found += [Mention(h.kind, h.key, h.start, h.end) for h in hits if h.kind not in ("negation",)]
    found += [a for a in _amounts(s, usd_cny) if not any(x <= a.start < y for x, y in taken)]
    return sorted(_negate(s, found, hits), key=lambda m: (m.start, -m.end))


def of_kind(mentions: list[Mention], *kinds: str) -> list[Mention]:
    return [m for m in mentions if m.kind in kinds]
