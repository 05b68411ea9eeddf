"""One FitEngine and one question Reader over this repository's corpus for the fit tests, and the question call
as the tests use it (read the question, then run the checks its Query asks for)."""

from __future__ import annotations

from kb.answer.checks import QuestionFit, answer_query
from kb.fit.engine import FitEngine
from kb.fit.request import FitRequest
from kb.fit.result import FitResult, Selection
from kb.language import detect_language
from kb.understand.reader import Reader
from tests.support.paths import REPO

ENGINE = FitEngine(REPO / "corpus", mfu=0.40, energy_price_cny_per_kwh=1.0, usd_cny=7.2)
READER = Reader.for_corpus(REPO / "corpus", usd_cny=7.2)


def check_fit(request: FitRequest, language: str = "en") -> FitResult:
    return ENGINE.check(request, language)


def for_question(question: str, language: str | None = None) -> QuestionFit:
    """What a question asks of the fit engine: its Query read, then its checks (or selection) run."""
    lang = language or detect_language(question)
    return answer_query(ENGINE, READER.read(question, lang), lang)  # type: ignore[arg-type]


def fit_checks_for_question(question: str, language: str | None = None) -> tuple[list[FitResult], Selection | None]:
    found = for_question(question, language)
    return found.checks, found.selection
