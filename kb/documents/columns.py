"""What a table's column holds, read from its header in Chinese or English: the vocabulary as data.

A header is given one role (the card, a unit price, a total, a count, a rent rate, a date, a validity, the
currency, the vendor, tax, notes), checked in an order that settles the headers that hold two words
("报价日期" is a date, not a quote; "$/GPU-hour" is a rate, not a card), with what else it says: the price's
kind (a quote, a list price), a rate's term, what an amount is per, its scale ("万元") and its currency.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kb.documents.money import Currency, Per, currency_of, per_of, scale_of

Role = Literal["model", "price", "total", "count", "rent", "date", "valid", "currency", "vendor", "tax", "note",
               "other"]
Term = Literal["on_demand", "reserved_1y", "reserved_3y", "monthly"]

VALID = ("有效期", "有效至", "valid until", "valid through", "validity", "expires", "expiry", "good until")
LEAD = ("交期", "货期", "交货", "到货", "lead time", "delivery")
DATE = ("报价日期", "报价时间", "采购日期", "购买日期", "下单日期", "付款日期", "日期", "时间", "date", "purchased on",
        "quoted on")
CURRENCY = ("币种", "货币", "currency")
VENDOR = ("供应商", "供货商", "厂商", "渠道", "云厂商", "卖方", "vendor", "supplier", "provider", "seller", "reseller",
          "cloud")
COUNT = ("数量", "台数", "张数", "卡数", "数目", "qty", "quantity", "count", "pcs", "no. of cards", "cards bought")
TOTAL = ("总价", "合计", "总计", "小计", "总额", "金额", "total", "amount", "subtotal", "sum")
RENT = ("租", "rent", "rental", "lease", "rate", "reserved", "on-demand", "on demand", "按需", "按量", "包月", "包年",
        "hourly", "monthly", "pay-as-you-go")
PRICE = ("单价", "报价", "价格", "售价", "采购价", "含税价", "价", "price", "quote", "cost", "msrp")
TAX = ("税", "tax", "vat")
NOTE = ("备注", "说明", "remark", "note", "comment", "交期", "货期", "lead time", "delivery", "条款", "terms")
MODEL = ("型号", "显卡", "gpu", "model", "card", "产品", "名称", "配置", "item", "instance", "实例", "机型",
         "description", "描述", "sku")
QUOTED = ("报价", "quote", "quoted", "offer")
LISTED = ("目录价", "官方价", "指导价", "list price", "msrp", "retail")
# A rate's commitment, from its header (checked in this order: "3-year" before "1-year").
TERMS: tuple[tuple[Term, tuple[str, ...]], ...] = (
    ("reserved_3y", ("3-year", "3 year", "three-year", "three year", "3yr", "3-yr", "36-month", "三年", "3年")),
    ("reserved_1y", ("1-year", "1 year", "one-year", "one year", "1yr", "1-yr", "12-month", "一年", "1年", "包年")),
    ("monthly", ("monthly", "per month", "包月", "月租", "/月", "/month", "/mo")),
    ("on_demand", ("on-demand", "on demand", "ondemand", "按需", "按量", "pay-as-you-go", "payg", "时租", "hourly")),
)
TERM_OF_PER: dict[str, Term] = {"card_hour": "on_demand", "card_month": "monthly"}
TAX_INCLUDED = ("含税", "tax included", "incl. tax", "incl tax", "including tax", "incl. vat", "incl vat",
                "vat included", "tax-inclusive", "include vat", "includes vat", "include tax", "includes tax",
                "including vat", "inclusive of")
TAX_EXCLUDED = ("不含税", "未税", "税前", "excl. tax", "excl tax", "excluding tax", "excl. vat", "excl vat",
                "before tax", "plus tax", "+ vat", "tax not included", "pre-tax", "exclude vat", "excludes vat",
                "exclude tax", "excludes tax", "excluding vat", "exclusive of")


def _has(text: str, words: tuple[str, ...]) -> bool:
    """Whether `text` holds one of `words`: Chinese ones anywhere, Latin ones as whole words ("count" is not in
    "discount")."""
    t = text.lower()
    return any(_word_in(t, w) for w in words)


def _word_in(text: str, word: str) -> bool:
    """A Chinese word (or one that starts with a sign) anywhere; a Latin one with no letter either side."""
    if not word[:1].isascii() or not word[:1].isalpha():
        return word in text
    at = text.find(word)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(word)] if at + len(word) < len(text) else " "
        if not (before.isascii() and before.isalpha()) and not (after.isascii() and after.isalpha()):
            return True
        at = text.find(word, at + 1)
    return False


def term_of(text: str) -> Term | None:
    """The commitment a header or a line names ("1-year reserved", "包月", "on-demand"), else None."""
    return next((term for term, words in TERMS if _has(text, words)), None)


def tax_of(text: str) -> str | None:
    """"included" or "excluded" when `text` says whether tax is in the amount ("含税单价", "excl. VAT")."""
    if _has(text, TAX_EXCLUDED):
        return "excluded"
    return "included" if _has(text, TAX_INCLUDED) else None


@dataclass(frozen=True)
class Column:
    """One column: its header as written, its role, and what the header says of its amounts."""

    header: str
    role: Role
    kind: str | None = None  # a price column's kind when its header says it: "quoted" or "list"
    term: Term | None = None  # a rent column's commitment
    per: Per | None = None
    scale: float = 1.0
    currency: Currency | None = None
    tax: str | None = None

    @property
    def money(self) -> bool:
        """Holds amounts of money: a price, a total or a rate (or its header names a currency)."""
        return self.role in ("price", "total", "rent") or (self.currency is not None and self.role == "other")


def column(header: str, where: str) -> Column:
    """The role of the column `header` names; `where` places it in messages (a currency kb does not know)."""
    h = header.strip()
    per = per_of(h)
    money = {"scale": scale_of(h), "currency": currency_of(h, f"{where}, column {h!r}"), "tax": tax_of(h)}
    if _has(h, VALID):
        return Column(h, "valid")
    if _has(h, LEAD):
        return Column(h, "note")
    if _has(h, DATE):
        return Column(h, "date")
    if _has(h, CURRENCY):
        return Column(h, "currency")
    if _has(h, VENDOR):
        return Column(h, "vendor")
    if _has(h, COUNT):
        return Column(h, "count")
    if _has(h, TOTAL):
        return Column(h, "total", **money)  # type: ignore[arg-type]
    if _has(h, RENT) or per in ("card_hour", "card_month", "card_year"):
        term = term_of(h) or TERM_OF_PER.get(per or "")
        return Column(h, "rent", term=term, per=per, **money)  # type: ignore[arg-type]
    if _has(h, PRICE):
        kind = "list" if _has(h, LISTED) else "quoted" if _has(h, QUOTED) else None
        return Column(h, "price", kind=kind, **money)  # type: ignore[arg-type]
    if _has(h, TAX):
        return Column(h, "tax")
    if _has(h, NOTE):
        return Column(h, "note")
    if _has(h, MODEL):
        return Column(h, "model")
    return Column(h, "other", **money)  # type: ignore[arg-type]
