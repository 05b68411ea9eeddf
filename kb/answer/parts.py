"""What an answer is made of: the sentences the composer writes, the facts it writes them from, and the result.

Kept apart from the composer so the sentence writers for each source (kb/answer/compose.py for fit checks and
selections, kb/answer/record_sentences.py for spec records and prices) share them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.fit.result import FitResult, Selection
from kb.language import Language
from kb.models import Passage
from kb.understand.intent import Intent


@dataclass
class Sentence:
    text: str
    markers: list[str]
    exempt: tuple[str, ...] = ()  # names from the question kb has no record for (their digits are not figures)
    derived: tuple[float, ...] = ()  # figures computed here from what the markers cite (a ratio of two records)


@dataclass
class TeamPrices:
    """What teams' documents say of one card's price: the newest buy quote and, with a rent rate, the
    break-even (kb/documents/pricebook.py), each with the rows to cite."""

    buy: Any = None  # kb.fit.gpus.TeamPrice
    break_even: Any = None  # kb.documents.pricebook.BreakEven


@dataclass
class Composition:
    answer: str
    coverage: str
    passages: list[Passage]
    dropped: list[str] = field(default_factory=list)  # sentences the number check refused


@dataclass
class Facts:
    """Everything the composer may state, gathered by the Engine."""

    question: str
    language: Language
    intent: Intent
    passages: list[Passage]
    checks: list[FitResult]
    selection: Selection | None
    unknown: list[str]
    gpus: list[str]
    terms: list[str]
    mfu: float
    budget_cny: float | None = None
    asked: str | None = None  # what the question asks for (kb.understand.state.ASKED)
    unknown_gpus: list[str] = field(default_factory=list)  # the names in `unknown` that are accelerators
    stated_gib: int | None = None  # the memory said of a card kb has no figures for ("2080 Ti 11G")
    needs: list[Any] = field(default_factory=list)  # the memory an unknown card would need (MemoryNeed)
    refused: list[Any] = field(default_factory=list)  # formats a checked card cannot compute (PrecisionSupport)
    unnamed: str | None = None  # the question with the cards' and models' names read out
    costs: list[Any] = field(default_factory=list)  # the teams' documents' answers to its cost asks (CostSentence)
    model_named: bool = False  # the question names a model (so it asks for a check, not about a card)
    model: tuple[str, int] | None = None  # the model named and its parameters, for arithmetic that needs no check
    latency: bool = False  # the question asks the time to the first token
    energy_cny_per_kwh: float = 1.0  # kb's electricity price (KB_ENERGY_PRICE_CNY_PER_KWH), for a power bill
    energy_asked: bool = False  # the question gave that price itself ("at 0.6 元/度")
    period: str = "month"  # the span a power bill is asked for (kb.understand.query.Query.period)
    hours: float | None = None  # a span said with its number ("for 90 days", "3 years"): the bill is for it
    of_a_run: bool = False  # `hours` are a training run's, timed by another ask of the same message
    query_vector: Any = None  # the question's embedding (numpy), for ranking sentences by what they mean
    match: str | None = None  # "how many 4090s to match one A100's memory": the attribute matched
    observed: Any = None  # kb.answer.observed.Observed: what the asker measured, to judge against kb's bound
    rent_cny: float | None = None  # a rent a card-hour the question gives ("$2.50 per GPU-hour"), in CNY
    usd_cny: float | None = None  # the rate the asker's dollars were converted at, so results are said in dollars too
    how_many: bool = False  # it asks how many ("几张", "how many"): of cards a budget or a price buys, too
    wants_pick: bool = False  # it asks what to buy ("配什么卡", "which gpus"), whether or not kb could rank any
    counts: dict[str, int] = field(default_factory=dict)  # GPU id → the count the question gives beside it
    cited: set[str] = field(default_factory=set)  # passage ids the answer cites (never replaced by another)
