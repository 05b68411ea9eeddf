"""Price per unit across the team's newest prices and the guide's: per GB of memory, per dense 16-bit TFLOPS
(the training denominator), per card-hour of rent; each dated (a team's document, or the guide of 2025).

Memory is divided as the spec record gives it (GiB as the card reports it, or a datasheet's decimal GB), and the
unit is said with the ratio; of a range the dearer end is used.
"""

from __future__ import annotations

from typing import Literal

from kb.documents.cost_facts import Book, CostAnswer, CostFact, CostSentence, fact_of
from kb.documents.money import plain
from kb.documents.pricebook import newest, purchase
from kb.documents.shown import figures
from kb.language import Language
from kb.words.answer import gpu_name
from kb.words.catalog import say


def price_per_unit(costs: Book, unit: Literal["gb", "tflops", "card_hour"], language: Language,
                   gpus: list[str] | None = None) -> CostAnswer:
    out = CostAnswer()
    rows: list[tuple[float, CostSentence, CostFact]] = []
    if unit == "card_hour":
        for term in ("on_demand", "monthly", "reserved_1y", "reserved_3y"):
            for gpu, f in newest(costs.prices, "rent", term).items():
                if gpus and gpu not in gpus:
                    continue
                source = say("doc.source.team", language, title=f.title, date=f.date)
                text = say("doc.per_hour", language, gpu=gpu_name(gpu), rate=plain(round(f.cny_per_hour, 2)),
                           term=say(f"doc.term.{term}", language), source=source)
                rows.append((f.cny_per_hour, CostSentence(text, [f.chunk_id], (round(f.cny_per_hour, 2),
                                                                                   *figures(f)),
                                                          (gpu_name(gpu), f.date, f.title)), fact_of(f, costs.today)))
    else:
        team = purchase(costs.prices)
        for gpu, spec in costs.gpus.items():
            if gpus and gpu not in gpus:
                continue
            figure, shown_unit = ((spec.capacity_value or spec.vram_gib), spec.capacity_unit) if unit == "gb" else \
                (spec.bf16_dense_tflops, "TFLOPS")
            if not figure:  # a figure no public source gives: no price per unit of it
                continue
            priced: list[tuple[float, str, list[str], CostFact, tuple[str, ...]]] = []
            figure_at = costs.spec_cite(gpu, figure)
            if gpu in team:
                f = team[gpu]
                priced.append((f.amount_cny, say("doc.source.team", language, title=f.title, date=f.date),
                               [f.chunk_id, figure_at], fact_of(f, costs.today), (f.date, f.title)))
            if spec.price_cny:
                priced.append((spec.price_cny, say("doc.source.guide", language),
                               list(dict.fromkeys([costs.spec_cite(gpu, spec.price_cny), figure_at])),
                               CostFact(gpu=gpu, what="list", amount=spec.price_cny, currency="CNY",
                                        amount_cny=spec.price_cny, source="guide", chunk_id=spec.record_id,
                                        date="2025"), ()))
            for price, source, cites, fact, exempt in priced:
                ratio = price / figure
                text = say("doc.per_unit", language, gpu=gpu_name(gpu), price=plain(round(price, 2)),
                           figure=f"{figure:g}", unit=shown_unit, per=shown_unit, ratio=plain(round(ratio, 2)),
                           source=source)
                year = (2025.0,) if fact.source == "guide" else ()  # "the guide, 2025": its date
                rows.append((ratio, CostSentence(text, cites, (round(ratio, 2), round(price, 2), *year),
                                                 (gpu_name(gpu), *exempt)), fact))
    for _, sentence, fact in sorted(rows, key=lambda r: r[0]):
        out.sentences.append(sentence)
        out.facts.append(fact)
    return out
