"""A table's rows as price facts, and what its money columns could not give, said at add time.

Columns are read by their headers (kb/documents/columns.py). A row that names a card kb knows gives: a unit
price (quoted, listed, or paid in purchase records), a total ÷ count where no unit price is given (a purchase),
and a rate for each rent column with its term. A money column that gives no price row is reported with the
reason ("column 总价(元) read as text: no count column to divide by"); a column of text where amounts belong,
and a rate with no term, are refused (BadInput), before anything is stored.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indexer.documents.segments import Segment
from kb.documents.columns import TERM_OF_PER, Column, column, tax_of, term_of
from kb.documents.context import DocumentContext
from kb.documents.dates import date_in
from kb.documents.money import Currency, Money, currency_of, read_money, to_cny
from kb.documents.names import gpu_named, shared_name
from kb.documents.prices import PriceFact
from kb.errors import BadInput


@dataclass(frozen=True)
class Row:
    """A table row: its segment (cells), its passage id and its place in the file."""

    segment: Segment
    chunk_id: str
    location: dict[str, Any]


@dataclass(frozen=True)
class Reading:
    """What the whole document's prices hold to, and where messages place things."""

    corpus_dir: Path
    usd_cny: float
    file: str
    cite: dict[str, Any]  # document, title, file
    as_of: str
    valid_until: str | None
    context: DocumentContext


def place(location: dict[str, Any]) -> str:
    """"sheet 报价 row 3", "page 2 row 4", "line 7": where something sits in the original."""
    if "sheet" in location:
        return f"sheet {location['sheet']} row {location['row']}"
    if "page" in location:
        return f"page {location['page']}" + (f" row {location['row']}" if "row" in location else "")
    start, end = location.get("start_line"), location.get("end_line")
    if start is None:
        return "the text"
    return f"line {start}" if start == end else f"lines {start}-{end}"


class TableReader:
    """One table's columns, read once; `read` gives its facts and warnings."""

    def __init__(self, header: list[str], reading: Reading) -> None:
        self.r = reading
        self.cols = {h: column(h, reading.file) for h in header}
        self.by_role: dict[str, list[Column]] = defaultdict(list)
        for c in self.cols.values():
            self.by_role[c.role].append(c)
        self.warnings: list[str] = []
        self._yielded: dict[str, int] = defaultdict(int)
        self._text: dict[str, list[tuple[str, str]]] = defaultdict(list)  # header → (place, cell) not amounts
        self._amounts: dict[str, int] = defaultdict(int)  # header → cells with amounts on rows naming a card
        self._cards = 0
        self._unstated: set[str] = set()

    def _one(self, role: str) -> Column | None:
        found = self.by_role.get(role)
        return found[0] if found else None

    def _gpu(self, cells: dict[str, str], where: str) -> str | None:
        models = [c.header for c in self.by_role.get("model", [])]
        money = {c.header for c in self.cols.values() if c.money}
        for h in [*models, *[h for h in cells if h not in models and h not in money]]:
            gpu = gpu_named(cells.get(h, ""), self.r.corpus_dir)
            if gpu:
                return gpu
        for h in models:
            shared = shared_name(cells.get(h, ""), self.r.corpus_dir)
            if shared:
                self.warnings.append(f"{where}: {cells[h]!r} could be {' or '.join(shared)}: row read as text "
                                     "(write which card)")
        return None

    def read(self, rows: list[Row]) -> list[PriceFact]:
        facts: list[PriceFact] = []
        for row in rows:
            facts += self._row(row)
        self._column_checks()
        return facts

    def _row(self, row: Row) -> list[PriceFact]:
        cells, where = row.segment.cells or {}, f"{self.r.file}, {place(row.location)}"
        gpu = self._gpu(cells, where)
        if gpu is None:
            return []
        self._cards += 1
        get = lambda role: cells.get(c.header, "") if (c := self._one(role)) else ""  # noqa: E731
        row_currency = currency_of(get("currency"), where) if get("currency") else None
        count_cell = read_money(get("count")) if get("count") else None
        common = {"gpu": gpu, "vendor": get("vendor") or self.r.context.vendor,
                  "date": date_in(get("date")) or self.r.as_of,
                  "valid_until": date_in(get("valid")) or self.r.valid_until, "chunk_id": row.chunk_id,
                  "location": row.location, **self.r.cite}
        tax_row = tax_of(get("tax")) if get("tax") else None
        out: list[PriceFact] = []
        ledger = self._one("count") is not None and self.r.context.kind != "quoted"
        for col in self.by_role.get("price", []):
            money = self._money(col, cells, where)
            if money is None:
                continue
            if money.per in ("card_hour", "card_month", "card_year"):  # "单价: 2.49/h": a rate after all
                out.append(self._fact(col, money, cells[col.header], common, row_currency, tax_row, kind="rent",
                                      term=TERM_OF_PER.get(money.per, "reserved_1y"), per=money.per))
                continue
            kind = col.kind or ("paid" if ledger else self.r.context.kind)
            count = int(count_cell.high) if count_cell and kind == "paid" else None
            out.append(self._fact(col, money, cells[col.header], common, row_currency, tax_row, kind=kind,
                                  count=count))
        for col in self.by_role.get("total", []):
            money = self._money(col, cells, where)
            if money is None or self._one("count") is None:
                continue
            if count_cell is None or count_cell.high < 1:
                self.warnings.append(f"{where}: column {col.header!r} has a total but no count to divide it by")
                continue
            if out:  # a total beside the unit price says nothing new
                self._yielded[col.header] += 1
                continue
            n = int(count_cell.high)
            each = Money(money.low / n, money.high / n, money.currency, None)
            kind = "quoted" if self.r.context.kind == "quoted" else "paid"
            out.append(self._fact(col, each, cells[col.header], common, row_currency, tax_row, kind=kind, count=n,
                                  total=money.high))
        for col in self.by_role.get("rent", []):
            money = self._money(col, cells, where)
            if money is None:
                continue
            per = money.per or col.per
            term = col.term or term_of(cells[col.header]) or TERM_OF_PER.get(per or "")
            if term is None:
                raise BadInput(f"{where}: column {col.header!r} gives a rent rate ({cells[col.header]!r}) with no "
                               "term: say per hour, per month or the reservation (e.g. 'On-demand ($/GPU-hour)', "
                               "'包月(元/卡/月)') in the header", field="file")
            per = per or ("card_month" if term == "monthly" else "card_hour")
            out.append(self._fact(col, money, cells[col.header], common, row_currency, tax_row, kind="rent",
                                  term=term, per=per))
        return out

    def _money(self, col: Column, cells: dict[str, str], where: str) -> Money | None:
        cell = cells.get(col.header, "")
        if not cell:
            return None
        money = read_money(cell, f"{where}, column {col.header!r}", col.scale)
        if money is None:
            self._text[col.header].append((where, cell))
            return None
        self._amounts[col.header] += 1
        return money

    def _fact(self, col: Column, money: Money, cell: str, common: dict[str, Any], row_currency: Currency | None,
              tax_row: str | None, **kind: Any) -> PriceFact:
        currency = money.currency or col.currency or row_currency or self.r.context.currency
        self._yielded[col.header] += 1
        if currency is None and col.header not in self._unstated:
            self._unstated.add(col.header)
            self.warnings.append(f"{self.r.file}: column {col.header!r} names no currency (nor does the document): "
                                 "read as CNY; write 元, ¥, USD or $ in its header to say which")
        rate = self.r.usd_cny if currency == "USD" else None
        return PriceFact(amount=money.high, amount_low=money.low if money.is_range else None,
                         currency=currency or "CNY", currency_stated=currency is not None,
                         amount_cny=to_cny(money.high, currency or "CNY", self.r.usd_cny), usd_cny=rate,
                         quoted=cell, tax=col.tax or tax_row or self.r.context.tax, **kind, **common)

    def _column_checks(self) -> None:
        """Every money column that gave no price row is said, with why; one of text where amounts belong is refused."""
        for col in self.cols.values():
            if not col.money or self._yielded[col.header]:
                if self._text[col.header] and self._yielded[col.header]:
                    where, cell = self._text[col.header][0]
                    self.warnings.append(f"{where}: column {col.header!r} holds {cell!r}, not an amount: that row "
                                         "has no price from it")
                continue
            name = col.header
            if self._text[name] and not self._amounts[name]:
                where, cell = self._text[name][0]
                raise BadInput(f"{where}: column {name!r} holds text ({cell!r}), not amounts: kb found no price in it; "
                               "write the amount (e.g. 7,800 USD) or leave the column out", field="file")
            if col.role == "total" and self._one("count") is None:
                why = "no count column to divide by"
            elif not self._cards:
                why = "no row names a card kb has a record for"
            elif col.role == "other":
                why = "not a card's price, a total with a count, or a rent rate"
            else:
                why = "no row gives an amount in it"
            self.warnings.append(f"{self.r.file}: column {name!r} read as text: {why}")


def table_prices(rows: list[Row], reading: Reading) -> tuple[list[PriceFact], list[str]]:
    """The price facts of one table's rows (all with the same header), and what could not be read."""
    if not rows or rows[0].segment.header is None:
        return [], []
    reader = TableReader(rows[0].segment.header, reading)
    facts = reader.read(rows)
    return facts, reader.warnings
