"""Price facts from table rows, used by capex and budget selection, and a rent-or-buy break-even by hand."""

from __future__ import annotations

import pytest

from indexer.documents.segments import Segment
from kb.documents.context import DocumentContext
from kb.documents.library import Library
from kb.documents.pricebook import break_even, team_prices
from kb.documents.prices import PriceFact, read_amount
from kb.documents.tables import Reading, Row, table_prices
from kb.fit.engine import FitEngine
from kb.fit.request import FitRequest
from kb.fit.select import budget_options
from tests.conftest import CORPUS
from tests.support import document_files as files

DOC = {"document": "doc-000000000001", "title": "报价单", "file": "q.csv"}


def _row(cells: dict[str, str], kind: str = "list") -> list[PriceFact]:
    reading = Reading(CORPUS, 7.2, "q.csv", DOC, "2026-11-01", None, DocumentContext(kind))
    segment = Segment("", {}, cells=cells, table=1, header=list(cells))
    facts, _ = table_prices([Row(segment, "c-1", {"sheet": "报价", "row": 3})], reading)
    return facts


@pytest.mark.parametrize("cell,value", [("¥230,000", 230000), ("23万", 230000), ("$2.99/h", 2.99),
                                        ("1.8 元/卡时", 1.8), ("12k", 12000), ("面议", None),
                                        ("21,000-23,000", 23000), ("2.1万-2.3万", 23000)])
def test_amounts_as_written(cell: str, value: float | None) -> None:
    assert read_amount(cell) == value


def test_chinese_headers_buy_and_rent_in_one_row_with_currency_vendor_and_date() -> None:
    facts = _row({"型号": "H100 SXM", "单价": "¥180,000", "时租(元/卡时)": "16.5", "币种": "CNY", "供应商": "甲",
                  "报价日期": "2026-11-03"}, kind="quoted")
    assert [(f.gpu, f.kind, f.term, f.amount, f.currency, f.vendor, f.date, f.quoted) for f in facts] == [
        ("h100-sxm", "quoted", None, 180000, "CNY", "甲", "2026-11-03", "¥180,000"),
        ("h100-sxm", "rent", "on_demand", 16.5, "CNY", "甲", "2026-11-03", "16.5")]  # the date column is no price


def test_english_headers_usd_converted_and_the_row_cited() -> None:
    [f] = _row({"GPU": "NVIDIA L40S 48GB", "Unit price": "$7,800", "Vendor": "Dell"})
    assert (f.gpu, f.kind, f.currency, f.amount_cny, f.usd_cny, f.date) == ("l40s", "list", "USD", 56160, 7.2,
                                                                           "2026-11-01")
    assert (f.chunk_id, f.location, f.title) == ("c-1", {"sheet": "报价", "row": 3}, "报价单")
    [m] = _row({"Card": "RTX 4090", "Monthly rent": "¥900"})
    assert (m.kind, m.term, m.per, m.cny_per_hour) == ("rent", "monthly", "card_month", 900 / 730)


@pytest.mark.parametrize("header,term,per", [
    ("On-demand ($/GPU-hour)", "on_demand", "card_hour"), ("1-year reserved ($/GPU-hour)", "reserved_1y", "card_hour"),
    ("3-year reserved ($/GPU-hr)", "reserved_3y", "card_hour"), ("按需(元/卡/时)", "on_demand", "card_hour"),
    ("包月(元/卡/月)", "monthly", "card_month"), ("GPU-hour price", "on_demand", "card_hour"),
    ("包年(元/卡/年)", "reserved_1y", "card_year"),
])
def test_rent_rates_by_term_from_chinese_and_english_headers(header: str, term: str, per: str) -> None:
    [f] = _row({"GPU": "H100 SXM", header: "2.49"})
    assert (f.kind, f.term, f.per) == ("rent", term, per)


def test_a_total_is_divided_by_its_count_into_what_was_paid() -> None:
    [f] = _row({"日期": "2026-03-15", "型号": "RTX 4090", "数量": "4", "总价(元)": "51,200"}, kind="list")
    assert (f.kind, f.amount, f.count, f.total, f.date, f.currency) == ("paid", 12800, 4, 51200, "2026-03-15", "CNY")


def test_units_and_tax_in_headers() -> None:
    [f] = _row({"型号": "H200", "含税单价(万元)": "23"})
    assert (f.amount, f.currency, f.tax) == (230000, "CNY", "included")
    [g] = _row({"GPU": "H200", "Unit price (USD, excl. VAT)": "31,000"})
    assert (g.currency, g.tax, g.amount_cny) == ("USD", "excluded", 31000 * 7.2)


def test_a_range_keeps_both_ends_and_the_arithmetic_uses_the_dearer() -> None:
    [f] = _row({"型号": "RTX 5090", "单价": "¥21,000-23,000"})
    assert (f.amount_low, f.amount, f.is_range, f.amount_cny) == (21000, 23000, True, 23000)


@pytest.mark.parametrize("cells", [
    {"型号": "A100", "单价": "150000"},  # 40 GB or 80 GB? neither: not a price fact
    {"型号": "RTX 2080 Ti", "单价": "4000"},  # a card kb has no record for
    {"型号": "H200", "总价": "1,840,000"},  # a total, not a card's price
    {"项目": "机柜", "说明": "42U"},
])
def test_rows_that_are_no_price_fact(cells: dict[str, str]) -> None:
    assert _row(cells) == []


def test_longest_name_wins() -> None:
    [f] = _row({"型号": "RTX 4060 Ti 16GB", "报价": "3,599"})
    assert f.gpu == "rtx-4060-ti-16gb"


def test_a_csv_naming_no_gpu_or_price_is_text_with_0_price_rows(library: Library) -> None:
    r = library.add("姓名,部门\n张三,平台\n".encode(), "people.csv").record
    assert (r.chunks, r.price_rows) == (1, 0)


def _facts(library: Library) -> list[PriceFact]:
    library.add(files.xlsx_bytes(), "报价.xlsx")
    return library.prices()


def test_capex_uses_the_newest_team_price_and_shows_the_guides_beside_it(library: Library) -> None:
    guide = FitEngine(CORPUS)
    priced = guide.with_prices(team_prices(_facts(library)))
    req = FitRequest(model="llama-2-13b", workload="qlora", gpu="rtx-4090", count=2)
    before, after = guide.check(req, "zh"), priced.check(req, "zh")
    assert before.capex_cny == 2 * 19000 and after.capex_cny == 2 * 12999
    step = next(s for s in after.steps if s.startswith("显卡投入"))
    assert "2026-11-03 报价 ¥12,999" in step and "指南 2025 年的价格是 19,000 CNY" in step
    row = next(p for p in library.prices() if p.gpu == "rtx-4090" and p.kind == "quoted")
    assert row.chunk_id in after.citations


def test_a_price_sheet_changes_the_budget_selection(library: Library) -> None:
    guide = FitEngine(CORPUS)
    priced = guide.with_prices(team_prices(_facts(library)))
    before, after = budget_options(guide, 500_000, language="zh"), budget_options(priced, 500_000, language="zh")
    assert "h200" not in [r.gpu for r in before.rows] and any(e.startswith("H200") for e in before.excluded)
    h200 = next(r for r in after.rows if r.gpu == "h200")  # a vendor-only card, rankable once a team prices it
    assert (h200.gpu_count, h200.capex_cny) == (2, 460_000)
    r4090 = next(r for r in after.rows if r.gpu == "rtx-4090")
    assert (r4090.gpu_count, r4090.capex_cny) == (8, 8 * 12999)
    assert [r.gpu for r in before.rows][:3] != [r.gpu for r in after.rows][:3]
    assert any("H200 的价格取自团队文档" in a and "2026-11-03" in a for a in after.assumptions)


def test_rent_or_buy_break_even_checked_by_hand(library: Library) -> None:
    """H100 SXM: ¥180,000 to buy, 16.5 CNY a card-hour to rent, 700 W at 1 CNY/kWh.

    Owning costs 0.7 CNY a card-hour in energy, so each rented hour costs 16.5 - 0.7 = 15.8 more than an
    owned one: 180000 / 15.8 = 11,392.4 card-hours, 474.7 days round the clock.
    """
    gpu = FitEngine(CORPUS).gpu("h100-sxm")
    b = break_even(gpu, _facts(library), energy_price_cny_per_kwh=1.0)
    assert b is not None
    assert b.energy_cny_per_hour == pytest.approx(0.7)
    assert b.card_hours == pytest.approx(180000 / 15.8) and round(b.card_hours) == 11392
    assert b.days_round_the_clock == pytest.approx(11392.405 / 24, rel=1e-5)
    assert b.steps[-2] == "盈亏平衡：180,000 ÷ (16.50 − 0.70) = 11,392 卡时"
    assert set(b.citations) >= {b.buy.chunk_id, b.rent.chunk_id}
    cheap = break_even(gpu, [b.buy, b.rent.model_copy(update={"amount_cny": 0.5})], 1.0)
    assert cheap is not None and cheap.card_hours is None  # the rate under the energy: renting always cheaper
    assert break_even(FitEngine(CORPUS).gpu("h200"), library.prices(), 1.0) is None  # no rent rate for it
