"""Price facts: table rows that name a GPU kb knows and a price, with the row they came from.

Headers in Chinese or English say which column is which (型号/GPU, 单价/报价/price, 时租/per hour,
月租/per month, 币种/currency, 供应商/vendor, 报价日期/date). A price is kept as written (`quoted`) and
read as a number for the arithmetic: "¥230,000", "23万", "$2.99/h", "1.8 元/卡时".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from kb.documents.names import gpu_named
from kb.documents.records import date_in
from kb.words.money import with_currency

PriceKind = Literal["buy", "rent_hour", "rent_month"]

_MODEL = ("型号", "显卡", "gpu", "model", "card", "产品", "名称", "配置", "item")
_PRICE = ("单价", "报价", "价格", "售价", "采购价", "price", "quote", "cost", "租金", "时租", "月租", "费用", "rate",
          "rent", "hourly", "monthly")
_TOTAL = ("总价", "合计", "总计", "total", "小计")
_HOUR = ("时租", "小时", "卡时", "hour", "/h", "hr", "每时")
_MONTH = ("月租", "每月", "/月", "month", "/mo")
_CURRENCY = ("币种", "货币", "currency")
_VENDOR = ("供应商", "厂商", "渠道", "vendor", "supplier", "provider", "云厂商", "cloud")
_DATE = ("报价日期", "日期", "date", "quoted", "时间")
_NUMBER = re.compile(r"(\d[\d,，]*(?:\.\d+)?)\s*(万|k|千)?", re.IGNORECASE)
_USD = ("$", "usd", "美元", "us$")
_CNY = ("¥", "￥", "元", "rmb", "cny", "人民币")


class PriceFact(BaseModel):
    """One card's price from one table row of a team's document."""

    gpu: str
    kind: PriceKind
    amount: float  # in `currency`, per card (buy), per card-hour or per card-month (rent)
    currency: Literal["CNY", "USD"]
    amount_cny: float
    quoted: str  # the cell as it stands in the document
    vendor: str | None = None
    date: str  # the row's own date, else the document's as_of
    document: str
    title: str
    file: str
    chunk_id: str  # the row's passage id, cited by any answer that uses the price
    location: dict[str, Any]

    @property
    def stated(self) -> str:
        """The price as a sentence states it: as written, with its currency when the cell names none."""
        return with_currency(self.quoted, self.currency)


def _has(header: str, words: tuple[str, ...]) -> bool:
    h = header.lower()
    return any(w in h for w in words)


def _currency(*texts: str) -> Literal["CNY", "USD"] | None:
    for text in texts:
        t = text.lower()
        if any(w in t for w in _USD):
            return "USD"
        if any(w in t for w in _CNY):
            return "CNY"
    return None


def read_amount(cell: str) -> float | None:
    """The number a price cell states: "¥230,000" → 230000, "23万" → 230000, "2.99" → 2.99."""
    m = _NUMBER.search(cell)
    if m is None:
        return None
    value = float(m.group(1).replace(",", "").replace("，", ""))
    scale = {"万": 1e4, "k": 1e3, "千": 1e3}.get((m.group(2) or "").lower(), 1.0)
    return value * scale if value > 0 else None


def row_prices(cells: dict[str, str], *, corpus_dir: Path, usd_cny: float, as_of: str,
               document: dict[str, str], chunk_id: str, location: dict[str, Any]) -> list[PriceFact]:
    """The price facts one row states (a buy price and a rent rate may share a row)."""
    model_cols = [h for h in cells if _has(h, _MODEL)] or list(cells)
    gpu = next((g for g in (gpu_named(cells[h], corpus_dir) for h in model_cols) if g), None)
    if gpu is None:
        return []
    currency_cell = next((v for h, v in cells.items() if _has(h, _CURRENCY)), "")
    vendor = next((v for h, v in cells.items() if _has(h, _VENDOR)), None)
    date_cell = next((v for h, v in cells.items() if _has(h, _DATE)), "")
    date = date_in(date_cell) or as_of
    out: list[PriceFact] = []
    for header, cell in cells.items():
        if not _has(header, _PRICE) or any(_has(header, w) for w in (_TOTAL, _CURRENCY, _DATE, _VENDOR)):
            continue
        amount = read_amount(cell)
        if amount is None:
            continue
        both = f"{header} {cell}"
        kind: PriceKind = "rent_hour" if _has(both, _HOUR) else "rent_month" if _has(both, _MONTH) else "buy"
        currency = _currency(currency_cell, cell, header) or "CNY"
        out.append(PriceFact(
            gpu=gpu, kind=kind, amount=amount, currency=currency,
            amount_cny=round(amount * (usd_cny if currency == "USD" else 1.0), 4), quoted=cell, vendor=vendor,
            date=date, chunk_id=chunk_id, location=location, **document,
        ))
    return out
