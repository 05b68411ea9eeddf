"""What a whole document says about every price in it: its kind, currency, vendor, tax, dates, and its notes.

A vendor's quote names itself once (a title row "华东集成商 GPU 报价单", a line "供应商：…", the file's
properties), prints its currency and tax terms once ("以上价格均含 13% 增值税", "All prices in USD"), and its
lead time and prepayment in lines below the table; each row's price holds under all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from indexer.documents.segments import Segment
from kb.documents.columns import tax_of
from kb.documents.money import Currency, currency_of

QUOTE_WORDS = ("报价单", "报价", "询价", "quotation", "quote", "offer", "proposal", "proforma")
LEDGER_WORDS = ("采购记录", "采购明细", "付款记录", "台账", "发票", "purchase", "purchases", "invoice", "ledger",
                "expenses", "paid")
VENDOR_LABELS = ("供应商", "供货商", "报价方", "报价单位", "卖方", "厂商", "vendor", "supplier", "seller", "provider",
                 "quoted by", "from")
COMPANY_WORDS = ("有限公司", "公司", "集成商", "科技", "云", "cloud", "inc", "ltd", "llc", "gmbh", "corp", "co.",
                 "computing", "technologies", "systems", "networks")
CURRENCY_LABELS = ("币种", "货币", "币别", "单位", "currency", "all prices in", "prices in", "amounts in")
NOTE_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (  # the first kind that fits: "预付后发货" is payment
    ("payment", ("预付", "首付", "付款", "定金", "尾款", "账期", "prepay", "pre-pay", "deposit", "payment", "upfront",
                 "net 30")),
    ("lead_time", ("交期", "货期", "交货", "到货", "发货", "lead time", "delivery", "ships in", "ship within")),
    ("tax", ("含税", "不含税", "增值税", "税率", "税点", "发票", "vat", "tax")),
    ("validity", ("有效期", "valid until", "valid through", "validity", "expires")),
    ("shipping", ("运费", "包邮", "shipping", "freight")),
    ("warranty", ("质保", "保修", "warranty")),
)
SENTENCE_ENDS = "。；;！!\n"
HEAD_CHARS = 3000  # where a document names itself: its title, its vendor, its currency


def _has(text: str, words: tuple[str, ...]) -> bool:
    t = text.lower()
    return any(w in t for w in words)


@dataclass(frozen=True)
class Note:
    """A line of a quote's terms (lead time, payment, tax, validity …), verbatim, with the passage that holds it."""

    kind: str
    text: str
    chunk_id: str
    location: dict[str, Any]
    gpu: str | None = None  # a table row's note is that row's card's

    def dump(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "chunk_id": self.chunk_id, "location": self.location,
                "gpu": self.gpu}


@dataclass
class DocumentContext:
    """What holds for every price in one document."""

    kind: str  # "quoted" (a vendor's quote), "list" (a price list) or "paid" (purchase records)
    currency: Currency | None = None
    vendor: str | None = None
    tax: str | None = None
    notes: list[Note] = field(default_factory=list)


def text_lines(segments: list[Segment]) -> list[tuple[int, str]]:
    """(segment index, one sentence or line) of the running text: titles, paragraphs, footnotes; not rows."""
    return [(i, line.strip()) for i, s in enumerate(segments) if s.cells is None
            for line in sentences(s.text) if line.strip()]


def sentences(text: str) -> list[str]:
    """Lines and sentences, each keeping the mark that ends it ("交期 4 周。")."""
    out, start = [], 0
    for i, c in enumerate(text):
        if c in SENTENCE_ENDS:
            out.append(text[start:i + (c != "\n")])
            start = i + 1
    return [*out, text[start:]]


def document_kind(head: str, has_validity: bool) -> str:
    """A quote, purchase records, or a price list, by what the document calls itself."""
    if _has(head, QUOTE_WORDS) or has_validity:
        return "quoted"
    return "paid" if _has(head, LEDGER_WORDS) else "list"


def vendor_of(lines: list[str], metadata_author: str | None) -> str | None:
    """The vendor a labelled line names ("供应商：华东集成商"), else a title line's company, else the file's
    properties."""
    for line in lines:
        lower = line.lower()
        for label in VENDOR_LABELS:
            at = lower.find(label)
            rest = line[at + len(label):] if at >= 0 else ""
            if at >= 0 and rest[:1] in ("：", ":") and (at == 0 or not lower[at - 1].isalpha()):
                name = re.split(r"[，,；;。\s]\s*", rest[1:].strip())[0] if rest[1:].strip() else ""
                if name:
                    return name[:60]
    for line in lines[:3]:
        name = _company_in(line)
        if name:
            return name
    return metadata_author


def _whole(text: str, m: re.Match[str], word: str) -> bool:
    """A Chinese word anywhere; a Latin one only as a whole word ("inc" is not in "incl.")."""
    if not word[:1].isascii():
        return True
    before = text[m.start() - 1] if m.start() else " "
    after = text[m.end()] if m.end() < len(text) else " "
    return not before.isalpha() and not after.isalpha()


def _company_in(line: str) -> str | None:
    """The company a title line names: from its start (or after "from"/"by") to its last company word
    ("Nimbus Cloud Inc." of "Nimbus Cloud Inc. — GPU quotation", "华东集成商" of "华东集成商 GPU 报价单")."""
    lower = line.lower()
    ends = [m.end() for w in COMPANY_WORDS for m in re.finditer(re.escape(w), lower) if _whole(lower, m, w)]
    if not ends:
        return None
    end = max(ends)
    end += 1 if line[end:end + 1] == "." else 0
    start = 0
    for word in (" from ", " by ", "来自"):
        at = lower.rfind(word, 0, end)
        if at >= 0:
            start = max(start, at + len(word))
    name = line[start:end].strip(" -—:：,，")
    first = name.split()[0] if name.split() else ""
    if not first or _has(first, QUOTE_WORDS):
        return None
    return name[:60] if not _has(name, QUOTE_WORDS) else first[:60]


def currency_in(lines: list[str], where: str) -> Currency | None:
    """A currency the document states for all its amounts ("币种：USD", "All prices in USD", "单位：元")."""
    for line in lines:
        lower = line.lower()
        for label in CURRENCY_LABELS:
            at = lower.find(label)
            if at >= 0:
                found = currency_of(line[at + len(label):at + len(label) + 16], where)
                if found:
                    return found
    return None


def notes_of(lines: list[tuple[str, str, dict[str, Any]]]) -> list[Note]:
    """Each (chunk id, line, location) that states a term of the quote, with its kind (the first that fits)."""
    out = []
    for chunk_id, line, location in lines:
        kind = next((k for k, words in NOTE_KINDS if _has(line, words)), None)
        if kind is not None:
            out.append(Note(kind, line, chunk_id, location))
    return out


def tax_in(lines: list[str]) -> str | None:
    """Whether the document says its prices include tax or not ("以上价格含税", "prices exclude VAT")."""
    return next((t for t in (tax_of(line) for line in lines) if t), None)
