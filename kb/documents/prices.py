"""Price facts: what a team's document says a card costs, each with its kind, its unit and the row it came from.

Kinds: a `list` price or a `quoted` one (a card, from a price list or a vendor's quote), a `paid` one (a
purchase: total ÷ count, dated when bought), a `rent` rate by term (on-demand, reserved 1 or 3 years,
monthly) per card-hour, card-month or card-year. Every amount keeps its currency; a USD amount carries its
CNY value at the rate used; a range keeps both ends (`amount` is the end the arithmetic uses: the dearer).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, model_validator

from kb.documents.money import Currency, Per, read_money

PriceKind = Literal["list", "quoted", "paid", "rent"]
Term = Literal["on_demand", "reserved_1y", "reserved_3y", "monthly"]
PURCHASE_KINDS: tuple[PriceKind, ...] = ("quoted", "list", "paid")
HOURS_PER: dict[str, float] = {"card_hour": 1.0, "card_month": 730.0, "card_year": 8760.0}  # 8,760 h ÷ 12 = 730
# Stored facts written before kinds had terms (kind "buy", "rent_hour", "rent_month") read as the kinds they were.
_OLD_KINDS = {"buy": ("list", None, "card"), "rent_hour": ("rent", "on_demand", "card_hour"),
              "rent_month": ("rent", "monthly", "card_month")}


class PriceFact(BaseModel):
    """One card's price from one row or line of a team's document."""

    gpu: str
    kind: PriceKind
    term: Term | None = None  # rent only
    per: Per = "card"
    amount: float  # in `currency`, per `per`; of a range, the dearer end
    amount_low: float | None = None  # a range's cheaper end ("21,000-23,000"); None for one amount
    currency: Currency
    currency_stated: bool = True  # False: the document names no currency here and kb read it as CNY
    amount_cny: float  # `amount` in CNY (USD at `usd_cny`)
    usd_cny: float | None = None  # the rate a USD amount was converted at
    quoted: str  # the cell or the words as they stand in the document
    count: int | None = None  # paid: cards bought in the row
    total: float | None = None  # paid: what the row says they cost together, in `currency`
    tax: str | None = None  # "included" / "excluded", where the document says
    vendor: str | None = None
    date: str  # the row's own date (a purchase's, a quote's), else the document's as_of
    valid_until: str | None = None  # a quote's validity
    document: str
    title: str
    file: str
    chunk_id: str  # the row's passage id, cited by any answer that uses the price
    location: dict[str, Any]

    @model_validator(mode="before")
    @classmethod
    def _earlier_kinds(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("kind") in _OLD_KINDS:
            kind, term, per = _OLD_KINDS[data["kind"]]
            data = {**data, "kind": kind, "term": term, "per": per}
        return data

    @property
    def is_range(self) -> bool:
        return self.amount_low is not None and self.amount_low != self.amount

    @property
    def cny_per_hour(self) -> float:
        """A rent rate as CNY a card-hour (a month is 730 hours, a year 8,760)."""
        return self.amount_cny / HOURS_PER.get(self.per, 1.0)

    def low_cny(self) -> float:
        """The cheaper end of a range in CNY (the amount itself when it is no range)."""
        low = self.amount_low if self.amount_low is not None else self.amount
        return low * (self.usd_cny if self.currency == "USD" and self.usd_cny else 1.0)

    def expired(self, today: str | None = None) -> bool:
        """Whether the quote's validity has passed (on `today`, default the UTC date)."""
        today = today or dt.datetime.now(dt.UTC).date().isoformat()
        return self.valid_until is not None and self.valid_until < today


def read_amount(cell: str) -> float | None:
    """The number a price cell states: "¥230,000" → 230000, "23万" → 230000, "2.99" → 2.99 (a range: its top)."""
    money = read_money(cell)
    return money.high if money is not None else None
