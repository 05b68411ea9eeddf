"""What a cost answer is made of: the facts it uses (traced to a document's row or a spec record) and the sentences
it says (with the passages they cite and the figures they compute); and the book of prices the arithmetic reads.

Kept apart from kb/documents/costs.py so its parts (rent or buy, price per unit) share them without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from kb.documents.context import Note
from kb.documents.prices import PriceFact
from kb.fit.gpus import GpuSpec
from kb.language import Language
from kb.words.answer import gpu_name


class CostFact(BaseModel):
    """One figure a cost answer uses, traced to where it came from."""

    gpu: str
    what: str  # "paid", "quoted", "list", "rent", "power", "buy_total", "rent_total", "break_even", "per_unit"
    amount: float
    currency: str  # "CNY" or "USD"; a computed total is in CNY
    amount_cny: float
    term: str | None = None
    source: Literal["team", "guide", "computed"] = "team"
    document: str | None = None
    title: str | None = None
    chunk_id: str | None = None
    location: dict[str, Any] | None = None
    date: str | None = None
    valid_until: str | None = None
    expired: bool = False


@dataclass
class CostSentence:
    text: str
    cites: list[str]  # passage ids: a document row's chunk id, a spec record's id
    derived: tuple[float, ...] = ()  # figures computed from what it cites (totals, conversions, ratios)
    exempt: tuple[str, ...] = ()  # dates, titles and names whose digits are not figures


@dataclass
class CostAnswer:
    facts: list[CostFact] = field(default_factory=list)
    sentences: list[CostSentence] = field(default_factory=list)

    def text(self, language: Language = "en", marker: Any = lambda cite: f"[{cite}]") -> str:
        """The sentences as an answer writes them, each ending in its markers (`marker(passage id)`)."""
        out = []
        for s in self.sentences:
            marks = "".join(dict.fromkeys(marker(c) for c in s.cites))
            out.append(f"{s.text}{marks}。" if language == "zh" else f"{s.text}{' ' + marks if marks else ''}.")
        return ("" if language == "zh" else " ").join(out)


def fact_of(f: PriceFact, today: str | None = None) -> CostFact:
    return CostFact(gpu=f.gpu, what=f.kind, amount=f.amount, currency=f.currency, amount_cny=f.amount_cny, term=f.term,
                    document=f.document, title=f.title, chunk_id=f.chunk_id, location=f.location, date=f.date,
                    valid_until=f.valid_until, expired=f.expired(today))


def exempt_of(f: PriceFact, *more: str) -> tuple[str, ...]:
    return tuple(x for x in (f.date, f.title, f.valid_until, f.vendor, gpu_name(f.gpu), *more) if x)


class Book(Protocol):
    """The price facts, terms and spec records the cost arithmetic reads (kb.documents.costs.Costs is one)."""

    prices: list[PriceFact]
    notes: list[Note]
    gpus: dict[str, GpuSpec]
    energy: float
    today: str | None

    def rent(self, gpu: str, months: float, language: Language, count: int = 1) -> CostAnswer: ...

    def purchase(self, gpu: str) -> PriceFact | None: ...

    def power_cny(self, gpu: str, hours: float, count: int = 1) -> float: ...

    def spec_cite(self, gpu: str, value: float) -> str: ...
