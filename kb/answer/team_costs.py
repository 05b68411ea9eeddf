"""Cost asks answered from the teams' documents: what we paid, what a quote says, a rent for a period, rent or buy,
and a price per GB / TFLOPS, for the cards a question names.

The asks are read by their cue words (kb/understand/vocabulary/cues.yaml, `cost_ask`); each calls one method of
the document cost arithmetic (kb/documents/costs.py), whose sentences cite the rows and records they use. They
lead the answer, before kb's own figures: a team's paid or quoted price is shown before the guide's.
"""

from __future__ import annotations

from typing import Any

from kb.language import Language
from kb.understand.query import Query
from kb.understand.terms import terms

HOURS_A_MONTH = 730  # (8,760 ÷ 12, the documents' own convention)
DEFAULT_MONTHS = 6.0  # a rent or rent-or-buy asked with no period: half a year, and said so by the sentences


def cost_asks(question: str) -> list[str]:
    """The cost asks a question's words make, in the order said (paid, quote, rent, rent_or_buy, per_gb …)."""
    hits = [h for h in terms("cues.yaml").find(question.lower()) if h.kind == "cost_ask"]
    return list(dict.fromkeys(h.key for h in sorted(hits, key=lambda h: h.start)))


def team_cost_sentences(costs: Any, query: Query, question: str, language: Language,
                        hours: float | None = None) -> list[Any]:
    """The documents' answer to each cost ask of the question, for each card it names (none: no sentence).

    `costs`: the Engine's Costs over the documents in force, or None when no team has added a price."""
    asks = cost_asks(question)
    if costs is None or not asks or not getattr(costs, "prices", None):
        return []
    priced = {p.gpu for p in costs.prices}
    # the cards named (one no document prices is told so), else the one card the documents price
    gpus = [g for g, _ in query.gpus][:2] or ([next(iter(priced))] if len(priced) == 1 else [])
    months = (hours / HOURS_A_MONTH) if hours else DEFAULT_MONTHS
    out: list[Any] = []  # the documents' CostSentences: text, the passage ids cited, figures, names
    for ask in asks:
        if ask == "per_gb" or ask == "per_tflops":
            out += costs.price_per("gb" if ask == "per_gb" else "tflops", language, gpus=gpus or None).sentences
            continue
        for gpu in gpus:
            count = dict(query.gpus).get(gpu) or 1
            if ask == "paid":
                out += costs.paid(gpu, language).sentences
            elif ask == "quote":
                out += costs.quote(gpu, language).sentences
            elif ask == "rent":
                out += costs.rent(gpu, months, language, count).sentences
            elif ask == "rent_or_buy":
                out += costs.rent_or_buy(gpu, months, language, count).sentences
    return out
