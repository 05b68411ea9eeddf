"""Money as teams write it: an amount or a range, its currency, its scale and what it is per.

A cell or a line is read for one amount ("¥230,000", "23万", "$2.49/GPU-hr", "21,000-23,000", "98,000 CNY per
card"); its currency comes from the cell, else from its column's header or the document, and is refused when
it is one kb does not convert (kb holds CNY and converts USD at KB_USD_CNY). The vocabulary is data: the
tuples below, matched as words, so a new way of writing a currency is one more entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from kb.errors import BadInput

Currency = Literal["CNY", "USD"]
Per = Literal["card", "card_hour", "card_month", "card_year"]

# Checked before CNY and USD: "港元" and "日元" end in 元, "HK$" holds a $.
OTHER_CURRENCIES = (("hk$", "HKD"), ("hkd", "HKD"), ("港币", "HKD"), ("港元", "HKD"), ("€", "EUR"),
                    ("eur", "EUR"), ("欧元", "EUR"), ("£", "GBP"), ("gbp", "GBP"), ("英镑", "GBP"), ("jpy", "JPY"),
                    ("円", "JPY"), ("日元", "JPY"), ("sgd", "SGD"), ("新加坡元", "SGD"), ("aud", "AUD"),
                    ("澳元", "AUD"), ("krw", "KRW"), ("₩", "KRW"), ("韩元", "KRW"), ("cad", "CAD"), ("加元", "CAD"),
                    ("twd", "TWD"), ("新台币", "TWD"), ("chf", "CHF"), ("inr", "INR"), ("₹", "INR"))
USD_WORDS = ("us$", "usd", "美元", "美金", "$")
CNY_WORDS = ("¥", "￥", "rmb", "cny", "人民币", "元", "块")
# Words that put an amount per card-hour, card-month or card-year (in a header, a cell or a line).
PER_HOUR = ("/gpu-hour", "/gpu-hr", "/gpu hour", "/gpu/hr", "/gpu/hour", "gpu-hour", "gpu-hr", "per gpu hour",
            "per hour", "/hour", "/hr", "卡时", "卡/时", "卡/小时", "/时", "/小时", "每小时", "每卡时", "时租",
            "hourly")
PER_MONTH = ("/month", "/mo", "per month", "/卡/月", "卡/月", "/月", "每月", "月租", "包月", "monthly")
PER_YEAR = ("/year", "/yr", "per year", "/卡/年", "卡/年", "/年", "每年", "年租", "包年", "annual", "yearly")
# A column whose amounts are in ten thousands or thousands: "单价(万元)", "Price (k USD)".
SCALES = (("万元", 1e4), ("万", 1e4), ("千元", 1e3), ("k usd", 1e3), ("kusd", 1e3), ("k$", 1e3), ("$k", 1e3))
_NUM = r"\d[\d,，]*[.]?\d*"
# An amount, its multiplier, and a second amount after a dash: a range ("21,000-23,000", "2.1万-2.3万").
_CELL = re.compile(rf"({_NUM})\s*([万千kK]?)(\s*[-–—~～至到]\s*[¥￥$]?\s*({_NUM})\s*([万千kK]?))?")
_PERCENT = re.compile(r"\d+[.]?\d*\s*%")
_DATE = re.compile(r"[12]\d{3}[-/.年]\d{1,2}([-/.月]\d{1,2}日?)?")
_SCALE_OF = {"万": 1e4, "千": 1e3, "k": 1e3, "K": 1e3}
MARK_BEFORE = 5  # how far before an amount its currency sign or code may stand ("US$ 2.49", "¥230,000")
MARK_AFTER = 8  # and after it ("98,000 CNY", "23万元", "2.99 美元")


@dataclass(frozen=True)
class Money:
    """An amount as a document states it: a range keeps both ends (`low` < `high`), one amount has them equal."""

    low: float
    high: float
    currency: Currency | None  # None: the text names none (the header or the document may)
    per: Per | None  # None: the text does not say

    @property
    def is_range(self) -> bool:
        return self.high != self.low


def other_currency(text: str) -> str | None:
    """The code of a currency kb does not convert that `text` names ("EUR" for "€5,000"), else None."""
    t = text.lower()
    return next((code for word, code in OTHER_CURRENCIES if word in t), None)


def currency_of(text: str, where: str) -> Currency | None:
    """CNY or USD as `text` writes it; BadInput naming `where` for a currency kb does not know."""
    code = other_currency(text)
    if code is not None:
        raise BadInput(f"{where}: the currency {code} ({text.strip()[:40]!r}) is not one kb converts; kb reads CNY "
                       "and USD (converted at KB_USD_CNY): give the amount in CNY or USD", field="file")
    t = text.lower()
    if any(w in t for w in USD_WORDS):
        return "USD"
    if any(w in t for w in CNY_WORDS):
        return "CNY"
    return None


def per_of(text: str) -> Per | None:
    """What an amount is per, as `text` says: a card-hour, a card-month or a card-year (None: not said)."""
    t = text.lower().replace(" ", "")
    for words, per in ((PER_HOUR, "card_hour"), (PER_MONTH, "card_month"), (PER_YEAR, "card_year")):
        if any(w.replace(" ", "") in t for w in words):
            return per  # type: ignore[return-value]
    at = t.find("/h")
    after = t[at + 2:at + 3] if at >= 0 else ""
    return "card_hour" if at >= 0 and not after.isalpha() else None  # "$2.99/h", not "96GB/HBM3"


def scale_of(header: str) -> float:
    """The multiplier a column's header puts on its amounts ("单价(万元)" → 10,000), else 1."""
    h = header.lower().replace(" ", "")
    return next((f for w, f in SCALES if w.replace(" ", "") in h), 1.0)


def _value(digits: str, suffix: str, after: str) -> float:
    """An amount's value: "23" with "万" is 230,000; a "k" glued to a word ("12kg") is no multiplier."""
    scale = 1.0 if suffix in ("k", "K") and after.isalpha() else _SCALE_OF.get(suffix, 1.0)
    return float(digits.replace(",", "").replace("，", "").rstrip(".")) * scale


def _amounts(text: str) -> list[re.Match[str]]:
    """Every amount (or range) in `text` that is no percentage and no date."""
    blank = _DATE.sub(lambda m: " " * len(m.group(0)), _PERCENT.sub(lambda m: " " * len(m.group(0)), text))
    return list(_CELL.finditer(blank))


def _money(m: re.Match[str], text: str, where: str, scale: float) -> Money | None:
    after = text[m.end():m.end() + 1]
    low = _value(m.group(1), m.group(2) or m.group(5) or "", after)
    high = _value(m.group(4), m.group(5) or "", after) if m.group(4) else low
    if low <= 0 or high < low:
        return None
    return Money(low * scale, high * scale, currency_of(text, where), per_of(text))


def read_money(text: str, where: str = "the file", scale: float = 1.0) -> Money | None:
    """The one amount (or range) `text` states, scaled by its column's `scale`; None when it states none
    ("面议", "call us"). A percentage or a date is no amount."""
    found = _amounts(text)
    return _money(found[0], text, where, scale) if found else None


def money_in(text: str, where: str = "the file") -> list[Money]:
    """The amounts a sentence marks as money ("98,000 CNY", "¥1.2万", "2.99 美元"): a number with a currency sign
    or word beside it, not glued to a name ("H100"); "58 token/s" and "8 张" are figures, not money. What it is
    per is read from the whole sentence."""
    out = []
    for m in _amounts(text):
        if m.start() and text[m.start() - 1].isalpha() and text[m.start() - 1].isascii():
            continue  # the digits of a name: H100, A800
        before, after = text[max(0, m.start() - MARK_BEFORE):m.start()], text[m.end():m.end() + MARK_AFTER]
        before = before[max((i + 1 for i, c in enumerate(before) if c.isdigit()), default=0):]  # up to a number
        after = after[:next((i for i, c in enumerate(after) if c.isdigit()), len(after))]
        currency = currency_of(f"{before} {after}", where)
        money = _money(m, text, where, 1.0) if currency else None
        if money is not None:
            out.append(Money(money.low, money.high, currency, money.per))
    return out


def plain(x: float) -> str:
    """An amount as kb writes it: thousands separated, whole when whole, else at most two decimals."""
    if abs(x - round(x)) < 1e-9:
        return f"{x:,.0f}"
    return f"{x:,.2f}".rstrip("0").rstrip(".")


def to_cny(amount: float, currency: Currency, usd_cny: float) -> float:
    """An amount in CNY: a USD amount at the stated rate (KB_USD_CNY)."""
    return round(amount * usd_cny, 4) if currency == "USD" else amount
