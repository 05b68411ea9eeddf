"""Files as vendors, clouds and finance write them (tests/support/document_files.py), read for their money: each
price with its kind, term, currency, date, vendor and validity; the warnings said at add; nothing lost."""

from __future__ import annotations

import pytest

from kb.documents.library import Library
from kb.documents.prices import PriceFact
from tests.support import document_files as files


def _facts(library: Library, name: str, data: bytes) -> tuple[list[PriceFact], list[str]]:
    added = library.add(data, name)
    return [p for p in library.prices() if p.document == added.record.id], added.record.warnings


def _row(facts: list[PriceFact], gpu: str, kind: str, term: str | None = None) -> PriceFact:
    return next(f for f in facts if f.gpu == gpu and f.kind == kind and f.term == term)


def test_a_cloud_quote_pdf_gives_rent_rates_by_term_dated_by_its_quote_date(library: Library) -> None:
    facts, warnings = _facts(library, "nimbus.pdf", files.cloud_rent_pdf())
    record = library.records()[0]
    assert (record.as_of, record.as_of_from, record.valid_until, record.kind, record.vendor) == (
        "2026-11-25", "content", "2026-12-31", "quoted", "Nimbus Cloud Inc.")  # not dated by its validity
    assert {(f.gpu, f.term, f.amount, f.currency, f.per) for f in facts} == {
        ("h100-sxm", "on_demand", 2.49, "USD", "card_hour"), ("h100-sxm", "reserved_1y", 1.89, "USD", "card_hour"),
        ("h100-sxm", "reserved_3y", 1.39, "USD", "card_hour"), ("h200", "on_demand", 3.49, "USD", "card_hour"),
        ("h200", "reserved_1y", 2.69, "USD", "card_hour"), ("h200", "reserved_3y", 1.99, "USD", "card_hour")}
    on_demand = _row(facts, "h100-sxm", "rent", "on_demand")
    assert (on_demand.amount_cny, on_demand.usd_cny, on_demand.tax, on_demand.date, on_demand.valid_until) == (
        pytest.approx(2.49 * 7.2), 7.2, "excluded", "2026-11-25", "2026-12-31")
    assert on_demand.location == {"page": 1, "row": 2} and warnings == []
    kinds = {n.kind for n in library.notes()}
    assert {"tax", "payment", "validity"} <= kinds


def test_a_prose_quote_gives_its_price_and_its_terms(library: Library) -> None:
    [h20], _ = _facts(library, "h20.pdf", files.prose_quote_pdf())
    assert (h20.gpu, h20.kind, h20.amount, h20.currency, h20.vendor, h20.date, h20.valid_until) == (
        "h20", "quoted", 98000, "CNY", "华东集成商", "2026-11-25", "2026-12-31")
    assert h20.quoted == "NVIDIA H20 96GB: 98,000 CNY per card"
    notes = {n.kind: n.text for n in library.notes()}
    assert notes["lead_time"] == "交期：下单后 4 周到货。" and notes["payment"] == "付款：预付 30%，到货后付清。"
    assert notes["tax"] == "以上价格含 13% 增值税。"


def test_a_gbk_finance_export_gives_what_was_paid_total_over_count_with_the_purchase_date(library: Library) -> None:
    facts, warnings = _facts(library, "采购.csv", files.finance_csv())
    assert [(f.gpu, f.kind, f.amount, f.count, f.total, f.date) for f in facts] == [
        ("rtx-4090", "paid", 12999, 8, 103992, "2025-06-10"), ("rtx-4090", "paid", 12800, 4, 51200, "2026-03-15"),
        ("h100-sxm", "paid", 220000, 8, 1760000, "2026-05-20")]
    record = library.records()[0]
    assert (record.kind, record.as_of, record.price_rows, warnings) == ("paid", "2026-05-20", 3, [])


def test_a_total_with_no_count_is_said_at_add_not_dropped_silently(library: Library) -> None:
    _, warnings = _facts(library, "totals.csv", files.finance_csv(
        [["2026-03-15", "RTX 4090", "51,200"]], header=["日期", "型号", "总价(元)"]))
    assert warnings == ["totals.csv: column '总价(元)' read as text: no count column to divide by"]


def test_a_resellers_sheet_title_row_merged_cells_range_units_and_footnote(library: Library) -> None:
    facts, warnings = _facts(library, "reseller.xlsx", files.reseller_xlsx())
    record = library.records()[0]
    assert (record.vendor, record.as_of, record.valid_until, record.kind) == (
        "华东集成商", "2026-11-25", "2026-12-31", "quoted")
    h100, r5090 = _row(facts, "h100-sxm", "quoted"), _row(facts, "rtx-5090", "quoted")
    assert (h100.amount, h100.currency, h100.vendor, h100.location) == (228000, "CNY", "华东集成商",
                                                                         {"sheet": "报价", "row": 4})
    assert (r5090.amount_low, r5090.amount, r5090.is_range) == (21000, 23000, True)
    chunks = library.store.read_json(record.id, "chunks.json")
    assert not any("序号: 注" in c["text"] for c in chunks)  # the footnote is text, not a row's field
    assert any(c["text"].startswith("注：以上价格含 13% 增值税") for c in chunks)
    notes = [(n.kind, n.gpu) for n in library.notes()]
    assert ("lead_time", "h100-sxm") in notes and ("payment", None) in notes
    assert warnings == []


def test_a_docx_report_with_no_currency_reads_cny_and_says_so(library: Library) -> None:
    facts, warnings = _facts(library, "report.docx", files.docx_report())
    r5090 = _row(facts, "rtx-5090", "list")
    assert (r5090.amount, r5090.currency, r5090.currency_stated, r5090.date) == (32500, "CNY", False, "2026-11-20")
    assert warnings == ["report.docx: column '单价' names no currency (nor does the document): read as CNY; write 元, "
                        "¥, USD or $ in its header to say which"]


def test_an_expired_quote_is_dated_by_its_quote_and_flagged(library: Library) -> None:
    [l40s], _ = _facts(library, "l40s.pdf", files.expired_quote_pdf())
    assert (l40s.date, l40s.valid_until, l40s.expired("2026-12-07"), l40s.expired("2026-10-30")) == (
        "2026-10-08", "2026-10-31", True, False)
    assert (l40s.vendor, l40s.currency, l40s.amount_cny) == ("Pacific Compute Ltd.", "USD", 7200 * 7.2)


def test_two_prices_for_one_card_in_one_document_are_both_kept_and_the_conflict_said(library: Library) -> None:
    data = "型号,单价\nH100 SXM,\"¥180,000\"\nH100 SXM,\"¥185,000\"\n".encode()
    facts, warnings = _facts(library, "two.csv", data)
    assert sorted(f.amount for f in facts) == [180000, 185000]
    assert warnings == ["two.csv: two list prices for h100-sxm: 180,000 CNY (line 2) and 185,000 CNY (line 3): "
                        "both kept, and answers show both"]


def test_a_price_said_in_a_table_and_again_in_a_sentence_is_one_fact(library: Library) -> None:
    facts, _ = _facts(library, "cloud.html", files.HTML.encode())
    assert [(f.gpu, f.term, f.amount, f.currency) for f in facts] == [("h100-sxm", "on_demand", 2.99, "USD")]
