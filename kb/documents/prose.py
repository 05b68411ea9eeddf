"""Prices written as sentences: "NVIDIA H20 96GB: 98,000 CNY per card", "H100 每卡时 2.99 美元，按需计费".

A line (or a clause of it) that names one card kb knows and an amount marked as money (a currency sign or
word beside it) is a price fact of the document's kind; one that says per hour, per month or a reservation is
a rent rate with that term. A clause that names no card takes the card its line named. An amount without a
currency beside it is no price here: in running text, "58 token/s" and "8 张" are figures, not money.
"""

from __future__ import annotations

import re
from typing import Any

from kb.documents.columns import RENT, TERM_OF_PER, tax_of, term_of
from kb.documents.money import Money, money_in, per_of, to_cny
from kb.documents.names import gpus_named
from kb.documents.prices import PriceFact
from kb.documents.tables import Reading

_CLAUSE_ENDS = re.compile(r"[，；;。\n]")  # and ", ": a comma inside "98,000" ends nothing
PAID_WORDS = ("采购了", "购买了", "买了", "成交价", "实付", "paid", "bought", "purchased")


def line_prices(lines: list[tuple[str, str, dict[str, Any]]], reading: Reading) -> tuple[list[PriceFact], list[str]]:
    """Price facts of (chunk id, line, location) lines of running text; and the rates kb could not give a term."""
    facts: list[PriceFact] = []
    warnings: list[str] = []
    for chunk_id, line, location in lines:
        cards = gpus_named(line, reading.corpus_dir)
        if len(cards) != 1 or not money_in(line, f"{reading.file}: {line[:60]!r}"):
            continue
        for clause in [c for part in _CLAUSE_ENDS.split(line) for c in part.split(", ")]:
            named = gpus_named(clause, reading.corpus_dir)
            if len(named) > 1 or (named and named != cards):
                continue
            found = money_in(clause, f"{reading.file}: {clause.strip()[:60]!r}")
            if not found:
                continue
            fact = _fact(cards[0], clause, found[0], chunk_id, location, reading)
            if fact is None:
                warnings.append(f"{reading.file}: {clause.strip()!r} gives a rate with no term (per hour? per "
                                "month?): not read as a price")
                continue
            facts.append(fact)
    return facts, warnings


def _fact(gpu: str, clause: str, money: Money, chunk_id: str, location: dict[str, Any],
          reading: Reading) -> PriceFact | None:
    if money.currency is None:
        return None
    per = money.per or per_of(clause)
    term = term_of(clause) or TERM_OF_PER.get(per or "")
    lower = clause.lower()
    kind: dict[str, Any]  # kind, term, per
    if per in ("card_hour", "card_month", "card_year") or term is not None:
        if term is None:
            return None
        kind = {"kind": "rent", "term": term, "per": per or ("card_month" if term == "monthly" else "card_hour")}
    elif any(w in lower for w in RENT if not w.isascii()) or " rent" in f" {lower}":
        return None  # "租金 2 万元": a rent with no term
    else:
        paid = any(w in lower for w in PAID_WORDS)
        kind = {"kind": "paid" if paid else reading.context.kind}
    return PriceFact(gpu=gpu, amount=money.high, amount_low=money.low if money.is_range else None,
                     currency=money.currency, amount_cny=to_cny(money.high, money.currency, reading.usd_cny),
                     usd_cny=reading.usd_cny if money.currency == "USD" else None, quoted=clause.strip(),
                     tax=tax_of(clause) or reading.context.tax, vendor=reading.context.vendor, date=reading.as_of,
                     valid_until=reading.valid_until, chunk_id=chunk_id, location=location, **kind, **reading.cite)
