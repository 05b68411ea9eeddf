"""Cost questions answered from real files (kb/documents/costs.py): each fact with the document's figure, its
date and its currency; a six-month rent-or-buy and a break-even checked by hand; every number a sentence states
is in what it cites (the verifier's own check) or computed from it."""

from __future__ import annotations

import pytest

from indexer.chunks import record_chunks
from kb.answer.verify import text_figures, unsupported
from kb.documents.costs import CostAnswer, Costs
from kb.documents.library import Library
from kb.fit.gpus import load_gpus
from tests.conftest import CORPUS
from tests.support import document_files as files

TODAY = "2026-12-07"
RENT_5090 = "GPU,On-demand (元/卡/时)\nRTX 5090,5.6\n".encode()


@pytest.fixture
def costs(library: Library) -> tuple[Costs, Library]:
    for name, data in (("nimbus.pdf", files.cloud_rent_pdf()), ("h20.pdf", files.prose_quote_pdf()),
                       ("采购.csv", files.finance_csv()), ("reseller.xlsx", files.reseller_xlsx()),
                       ("l40s.pdf", files.expired_quote_pdf()), ("report.docx", files.docx_report()),
                       ("rent-5090.csv", RENT_5090)):
        library.add(data, name)
    c = Costs(library.prices(), library.notes(), load_gpus(CORPUS), 1.0, today=TODAY, spec_part=_spec_part)
    return c, library


def _spec_parts() -> dict[str, str]:
    texts = {}
    for path in sorted((CORPUS / "specs").glob("*.md")):
        for c in record_chunks(path, str(path.relative_to(CORPUS)))[0]:
            texts[c.id] = f"{c.text}\n{c.text_en}"
    return texts


def _spec_part(gpu: str, value: float) -> str:
    """The part of the card's spec record that states `value`, as the Engine finds it for the composer."""
    parts = {k: v for k, v in _spec_parts().items() if k == f"spec-{gpu}" or k.startswith(f"spec-{gpu}-")}
    return next((k for k, v in parts.items() if value in text_figures(v)), f"spec-{gpu}")


def _doc(library: Library, file: str) -> str:
    return next(r.id for r in library.records() if r.file == file)


def _verified(answer: CostAnswer, library: Library) -> CostAnswer:
    """Every number of every sentence is in the passages it cites, or computed from them (`derived`)."""
    texts = {c["id"]: c["text"] for r in library.records() for c in library.store.read_json(r.id, "chunks.json")}
    texts |= _spec_parts()
    for s in answer.sentences:
        figures = set(s.derived) | {f for cite in s.cites for f in text_figures(texts[cite])}
        assert unsupported(s.text, figures, s.exempt) == [], s.text
        assert all(c in texts for c in s.cites)
    return answer


def test_what_we_paid_last_is_the_newest_purchase_row_total_over_count(costs) -> None:  # type: ignore[no-untyped-def]
    c, library = costs
    zh = _verified(c.paid("rtx-4090", "zh"), library)
    assert zh.text("zh") == (f"我们上次买 RTX 4090：2026-03-15 买 4 张，共 51,200 元，每张 12,800 元（《采购》）"
                             f"[{_doc(library, '采购.csv')}-2]。")
    [fact] = zh.facts
    assert (fact.what, fact.amount, fact.currency, fact.date, fact.document, fact.location) == (
        "paid", 12800, "CNY", "2026-03-15", _doc(library, "采购.csv"), {"start_line": 3, "end_line": 3})
    en = c.paid("rtx-4090", "en").sentences[0].text
    assert en == ("What we paid for the RTX 4090 last: 4 on 2026-03-15 for 51,200 CNY in all, 12,800 CNY a card "
                  "(\"采购\")")
    assert c.paid("h20", "en").sentences[0].text == "No team's document says what was paid for the H20"


def test_the_newest_quote_with_its_vendor_date_validity_and_the_terms_asked(costs) -> None:  # type: ignore[no-untyped-def]
    c, library = costs
    answer = _verified(c.quote("h20", "en", ("lead_time", "payment", "tax")), library)
    assert [s.text for s in answer.sentences] == [
        "The newest quoted price for the H20: 98,000 CNY a card (华东集成商, \"h20\", dated 2026-11-25, valid until "
        "2026-12-31)",
        "The quote says (lead time): \"交期：下单后 4 周到货。\"",
        "The quote says (payment): \"付款：预付 30%，到货后付清。\"",
        "The quote says (tax): \"以上价格含 13% 增值税。\""]
    [fact] = answer.facts
    assert (fact.amount, fact.currency, fact.date, fact.valid_until, fact.expired) == (
        98000, "CNY", "2026-11-25", "2026-12-31", False)
    assert c.quote("h20", "zh").sentences[0].text == (
        "H20 最新报价：每张 98,000 元（华东集成商，《h20》，2026-11-25，有效期至 2026-12-31）")


def test_an_expired_quote_in_dollars_is_shown_with_its_yuan_and_flagged(costs) -> None:  # type: ignore[no-untyped-def]
    c, library = costs
    answer = _verified(c.quote("l40s", "en", ("payment",)), library)
    assert answer.sentences[0].text == (
        "The newest quoted price for the L40S: 7,200 USD a card (= 51,840 CNY at 7.2 CNY/USD) (Pacific Compute Ltd., "
        "\"l40s\", dated 2026-10-08, expired on 2026-10-31: ask for a new quote)")
    assert answer.facts[0].expired and answer.facts[0].amount_cny == 51840
    assert answer.sentences[1].text == "The quote says nothing of payment"


def test_rent_or_buy_for_six_months_checked_by_hand(costs) -> None:  # type: ignore[no-untyped-def]
    """H100 SXM for 6 months = 6 × 730 = 4,380 card-hours.
    On-demand $2.49 × 4,380 = $10,906.20 = 78,524.64 CNY at 7.2. A 1-year reservation commits 12 months:
    $1.89 × 8,760 = $16,556.40 = 119,206.08 CNY; 3 years: $1.39 × 26,280 = $36,529.20 = 263,010.24 CNY.
    Buying: the reseller's 228,000 CNY (its quote is newer than finance's 220,000 paid) + 700 W × 4,380 h × 1
    CNY/kWh = 3,066 CNY of power = 231,066 CNY. Cheapest: on-demand. Break-even against on-demand:
    228,000 ÷ (17.928 − 0.7) = 13,234 card-hours, 551 days round the clock."""
    c, library = costs
    answer = _verified(c.rent_or_buy("h100-sxm", 6, "en"), library)
    totals = {f.term or f.what: f.amount for f in answer.facts if f.source == "computed"}
    assert totals == {"on_demand": 78524.64, "reserved_1y": 119206.08, "reserved_3y": 263010.24, "power": 3066,
                      "buy_total": 231066}
    texts = [s.text for s in answer.sentences]
    assert texts[0] == ("Renting one H100 SXM on-demand for 6 months: 2.49 USD a card-hour (= 17.93 CNY at 7.2 "
                        "CNY/USD) × 4,380 card-hours = 10,906.2 USD (= 78,524.64 CNY at 7.2 CNY/USD)")
    assert texts[1].startswith("The 1-year reserved rate commits 12 months: for 6 months it still costs 1.89 USD")
    assert texts[3] == ("Buying one H100 SXM: 228,000 CNY a card, plus 6 months of power, 700 W × 4,380 h × 1 CNY/kWh "
                        "= 3,066 CNY: 231,066 CNY in all")
    assert texts[4] == "For 6 months, renting on-demand is the cheapest: 78,524.64 CNY"
    assert texts[5] == ("Against the on-demand rate, buying pays off after 13,234 card-hours, 551 days round the "
                        "clock: 228,000 ÷ (17.93 − 0.7) CNY a card-hour")
    assert round(228000 / (2.49 * 7.2 - 0.7), 2) == 13234.27
    zh = c.rent_or_buy("h100-sxm", 6, "zh").text("zh")
    assert "6 个月内按需租最便宜：78,524.64 元" in zh and "13,234 卡时（全天运行约 551 天）后买更划算" in zh
    buy = next(f for f in answer.facts if f.what == "quoted")
    assert (buy.document, buy.date, buy.currency) == (_doc(library, "reseller.xlsx"), "2026-11-25", "CNY")


def test_a_range_says_which_end_was_used_and_the_verdict_the_other_end_gives(costs) -> None:  # type: ignore[no-untyped-def]
    """RTX 5090: 21,000-23,000 CNY to buy, 5.6 CNY a card-hour on demand. 6 months: rent 5.6 × 4,380 = 24,528;
    buying at the dearer end 23,000 + 575 W × 4,380 h × 1 = 2,518.5 of power = 25,518.5 (renting cheaper); at the
    cheaper end 21,000 + 2,518.5 = 23,518.5 (buying cheaper)."""
    c, library = costs
    texts = [s.text for s in _verified(c.rent_or_buy("rtx-5090", 6, "en"), library).sentences]
    assert "For 6 months, renting on-demand is the cheapest: 24,528 CNY" in texts
    assert "The quoted price is a range, 21,000–23,000: the arithmetic uses the dearer end, 23,000 CNY" in texts
    assert "At the cheaper end, 21,000, buying would be the cheapest instead: 23,518.5 CNY" in texts
    zh = c.rent_or_buy("rtx-5090", 6, "zh").text("zh")
    assert "报价是区间 21,000–23,000，计算按高端 23,000 元" in zh and "按低端 21,000 计，则买最便宜：23,518.5 元" in zh


def test_price_per_gb_and_per_card_hour_across_the_teams_newest_prices_and_the_guides(costs) -> None:  # type: ignore[no-untyped-def]
    c, library = costs
    per_gb = _verified(c.price_per("gb", "en", ["rtx-4090", "h20", "h100-sxm"]), library)
    assert [s.text for s in per_gb.sentences] == [
        "RTX 4090: 13,500 ÷ 24 GiB = 562.5 CNY per GiB (\"reseller\", 2026-11-25)",
        "RTX 4090: 19,000 ÷ 24 GiB = 791.67 CNY per GiB (the guide, 2025)",
        "H20: 98,000 ÷ 96 GB = 1,020.83 CNY per GB (\"h20\", 2026-11-25)",
        "H100 SXM: 228,000 ÷ 80 GiB = 2,850 CNY per GiB (\"reseller\", 2026-11-25)"]
    per_hour = _verified(c.price_per("card_hour", "zh", ["h100-sxm"]), library)
    assert per_hour.sentences[0].text == "H100 SXM：3 年预留每卡时 10.01 元（《nimbus》，2026-11-25）"
    per_tflops = _verified(c.price_per("tflops", "en", ["h100-sxm"]), library)
    assert per_tflops.sentences[0].text == ("H100 SXM: 228,000 ÷ 989.4 TFLOPS = 230.44 CNY per TFLOPS (\"reseller\", "
                                            "2026-11-25)")


def test_a_conflict_in_one_document_is_shown(library: Library) -> None:
    library.add("型号,单价\nH100 SXM,\"¥180,000\"\nH100 SXM,\"¥185,000\"\n".encode(), "two.csv")
    c = Costs(library.prices(), library.notes(), load_gpus(CORPUS), 1.0, today=TODAY)
    texts = [s.text for s in c.quote("h100-sxm", "en").sentences]
    assert texts[1] == ("\"two\" gives two list prices for the H100 SXM: 185,000 CNY a card / 180,000 CNY a card; both "
                        "are shown")
