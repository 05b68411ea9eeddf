"""Cost questions answered from the teams' documents through `kb ask`: what we paid, what a quote says, rent or
buy — each with the document's figure, its date and currency, before kb's own figures; a question that names a
card no document prices keeps kb's answer."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kb.settings import Settings
from tests.support import document_files as files
from tests.support.cli import run_kb


@pytest.fixture
def store(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> Path:
    """A document store holding finance's purchase export and a vendor's H20 quote, on the session index."""
    sources = tmp_path / "sources"
    for key, value in {"KB_INDEX_DIR": settings.index_dir, "KB_CORPUS_DIR": settings.corpus_dir,
                       "KB_SOURCES_DIR": sources}.items():
        monkeypatch.setenv(key, str(value))
    (tmp_path / "purchases.csv").write_bytes(files.finance_csv())
    (tmp_path / "h20-quote.pdf").write_bytes(files.prose_quote_pdf())
    added = run_kb(capsys, "docs", "add", str(tmp_path / "purchases.csv"), str(tmp_path / "h20-quote.pdf"))
    assert added.code == 0, added.err
    return sources


@pytest.mark.slow
@pytest.mark.parametrize(("question", "facts"), [
    ("What did we pay for our last 4090s?", [r"^What we paid for the RTX 4090 last: 4 on 2026-03-15",
                                             r"12,800 CNY a card"]),
    ("上次采购 H100 一张多少钱", [r"2026-05-20", r"220,000 元|¥220,000"]),
    ("what does the H20 quote say", [r"98,000 CNY", r"2026-11-25", r"valid until 2026-12-31"]),
    ("rent or buy one h100 for 6 months?", [r"220,000 CNY", r"No team's document gives a rent rate"]),
])
def test_a_cost_asked_of_the_teams_documents_leads_with_their_figure(store: Path, capsys: pytest.CaptureFixture[str],
                                                                    question: str, facts: list[str]) -> None:
    ran = run_kb(capsys, "ask", "--json", question)
    assert ran.code == 0, ran.err
    answer = json.loads(ran.out)
    assert answer["coverage"] != "not_covered", answer["answer"]
    for fact in facts:
        assert re.search(fact, answer["answer"]), (fact, answer["answer"])
    assert any(p["kind"] == "document" for p in answer["passages"])


@pytest.mark.slow
def test_a_card_no_document_prices_keeps_kbs_own_answer(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ran = run_kb(capsys, "ask", "--json", "what did we pay for our a100s?")
    answer = json.loads(ran.out)
    assert re.match(r"No team's document says what was paid for the A100", answer["answer"]), answer["answer"]
