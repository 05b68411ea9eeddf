"""A price as a person reads it: its amount (or range) with its currency and what it is per, converted where USD.

Two forms: sentences in the question's language through the words catalog ("每卡时 2.49 美元（按 7.2 元/美元折合
17.93 元）", "2.49 USD a card-hour (= 17.93 CNY at 7.2 CNY/USD)"), and a short one with currency signs for places
that take one form for both languages ("$7,800 (¥56,160 at 7.2 CNY/USD)").
"""

from __future__ import annotations

from kb.documents.money import plain
from kb.documents.prices import PriceFact
from kb.language import Language
from kb.words.catalog import say

SIGNS = {"CNY": "¥", "USD": "$"}


def money(amount: float, currency: str, language: Language) -> str:
    """'230,000 元' / '230,000 CNY'."""
    return say(f"doc.money.{currency}", language, n=plain(amount))


def _amount(f: PriceFact) -> str:
    return say("doc.range", "en", low=plain(f.amount_low), high=plain(f.amount)) if f.is_range and \
        f.amount_low is not None else plain(f.amount)


def price_text(f: PriceFact, language: Language, per: bool = True) -> str:
    """The fact's amount with its currency, what it is per, the CNY it converts to and an unstated currency said."""
    text = say(f"doc.money.{f.currency}", language, n=_amount(f))
    if per:
        text = say(f"doc.per.{f.per}", language, money=text)
    if f.currency == "USD" and f.usd_cny:
        low = f.low_cny()
        cny = f"{plain(round(low, 2))}–{plain(round(f.amount_cny, 2))}" if f.is_range else plain(round(f.amount_cny, 2))
        text += say("doc.converted", language, cny=cny, rate=f"{f.usd_cny:g}")
    if not f.currency_stated:
        text += say("doc.unstated", language)
    return text


def signed(f: PriceFact) -> str:
    """'¥230,000', '¥21,000–23,000', '$7,800 (¥56,160 at 7.2 CNY/USD)': one form for both languages."""
    text = f"{SIGNS[f.currency]}{_amount(f)}"
    if f.currency == "USD" and f.usd_cny:
        text += f" (¥{plain(round(f.amount_cny, 2))} at {f.usd_cny:g} CNY/USD)"
    return text


def figures(f: PriceFact) -> tuple[float, ...]:
    """The figures a sentence about `f` computes rather than quotes (its CNY values and the rate), for the check
    that every number an answer states is in what it cites."""
    return tuple(round(x, 2) for x in (f.amount_cny, f.low_cny())) + ((f.usd_cny,) if f.usd_cny else ())
