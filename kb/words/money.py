"""How kb writes an amount of money: with its currency and thousands separators, in Chinese as in English.

Sentences format most amounts themselves ("{capex:,.0f}"), but some quote them from elsewhere — a card's table
("19000 元"), a team's price list ("230000" under a 币种 column) — and those are written as their source wrote
them. `grouped` puts the separators into every amount a sentence states (digits before a currency, or after a
currency sign); `with_currency` gives a quoted price the currency its row states when the cell itself has none.
"""

from __future__ import annotations

import re

CURRENCY_WORDS = r"(?:CNY|USD|RMB|元|美元|人民币)"
# Four digits or more, no separators yet, then (optionally spaced) a currency word; or a sign, then the digits.
_AFTER = re.compile(rf"(?<![\d.,A-Za-z])(\d{{4,}})(?=(?:\.\d+)?\s*{CURRENCY_WORDS})")
_BEFORE = re.compile(r"(?<=[¥￥$])(\s?)(\d{4,})(?![\d,])")
_STATES_CURRENCY = re.compile(rf"[¥￥$]|{CURRENCY_WORDS}|\b(?:usd|rmb|cny)\b", re.IGNORECASE)
_UNIT = {"CNY": {"en": " CNY", "zh": " 元"}, "USD": {"en": " USD", "zh": " 美元"}}


def _group(digits: str) -> str:
    return f"{int(digits):,}"


def grouped(text: str) -> str:
    """`text` with every amount of money written with thousands separators: '150000 元' → '150,000 元',
    '¥230000' → '¥230,000'; other numbers (a year, a card's name, a count) are left as they are."""
    text = _AFTER.sub(lambda m: _group(m.group(1)), text)
    return _BEFORE.sub(lambda m: m.group(1) + _group(m.group(2)), text)


def with_currency(quoted: str, currency: str, language: str = "en") -> str:
    """A price as a document wrote it, with its currency when the cell names none ('230000' under a currency
    column of CNY → '230,000 CNY'; '¥230,000' and '23万元' stay as written)."""
    text = quoted.strip()
    if _STATES_CURRENCY.search(text):
        return grouped(text)
    if re.fullmatch(r"\d{4,}(?:\.\d+)?", text):
        whole, _, cents = text.partition(".")
        text = _group(whole) + (f".{cents}" if cents else "")
    return text + _UNIT.get(currency, {}).get(language, f" {currency}")
