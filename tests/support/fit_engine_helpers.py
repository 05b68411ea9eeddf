"""One FitEngine over this repository's corpus for the fit tests, and the question call as the tests use it."""

from __future__ import annotations

from kb.fit.engine import FitEngine
from kb.fit.request import FitRequest
from kb.fit.result import FitResult, Selection
from tests.support.paths import REPO

ENGINE = FitEngine(REPO / "corpus", mfu=0.40, energy_price_cny_per_kwh=1.0, usd_cny=7.2)


def check_fit(request: FitRequest, language: str = "en") -> FitResult:
    return ENGINE.check(request, language)


def fit_checks_for_question(question: str, language: str | None = None) -> tuple[list[FitResult], Selection | None]:
    from kb.language import detect_language

    found = ENGINE.for_question(question, language or detect_language(question))
    return found.checks, found.selection
