"""Cost questions on teams' price facts: what we paid, the newest quote and its terms, rent for a period at each
term, rent or buy (with power) and break-even, price per GB / TFLOPS / card-hour beside the guide's.

The question router (kb/answer/team_costs.py) calls one method per cost ask; each returns a
`CostAnswer`: the facts used (document, row, date, currency; CNY beside USD) and sentences in the asker's language
(kb/words/catalog/documents.py) with the passage ids they cite and the figures they compute, so the composer adds
its markers and the verifier holds every number to a cited row or record. Conventions (stated in the sentences):
a month is 730 hours (8,760 ÷ 12); owning a card costs its price plus its power (TDP × hours × the energy price);
a reservation shorter than its term is paid for the whole term; of a range the arithmetic uses the dearer end,
and says the cheaper end's verdict where it differs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from kb.documents.context import Note
from kb.documents.cost_facts import CostAnswer, CostFact, CostSentence, exempt_of, fact_of
from kb.documents.costs_units import price_per_unit
from kb.documents.money import plain
from kb.documents.pricebook import newest, purchase
from kb.documents.prices import HOURS_PER, PriceFact, Term
from kb.documents.rent_or_buy import rent_or_buy
from kb.documents.shown import figures, money, price_text
from kb.fit.gpus import GpuSpec
from kb.language import Language
from kb.words.answer import gpu_name
from kb.words.catalog import cards, say

HOURS_A_MONTH = 730.0
TERM_MONTHS = {"reserved_1y": 12, "reserved_3y": 36}
NOTE_ASKS = ("lead_time", "payment", "tax", "validity")


class Costs:
    """The arithmetic over one set of price facts (the live documents'), the spec records and kb's energy price."""

    def __init__(self, prices: list[PriceFact], notes: list[Note], gpus: dict[str, GpuSpec],
                 energy_cny_per_kwh: float, today: str | None = None,
                 spec_part: Callable[[str, float], str] | None = None) -> None:
        """`spec_part(gpu, value)`: the passage id of the part of a card's spec record that states `value` (a
        long record is several passages; the Engine knows them), by default the record's first part."""
        self.prices, self.notes, self.gpus = prices, notes, gpus
        self.energy = energy_cny_per_kwh
        self.today = today
        self._spec_part = spec_part

    def spec_cite(self, gpu: str, value: float) -> str:
        """The passage that states a spec record's figure (its TDP, its memory, its price)."""
        return self._spec_part(gpu, value) if self._spec_part else self.gpus[gpu].record_id

    def paid(self, gpu: str, language: Language) -> CostAnswer:
        """What we paid for the card last: the newest purchase row (total ÷ count where it gives them)."""
        f = newest(self.prices, "paid").get(gpu)
        if f is None:
            return CostAnswer(sentences=[CostSentence(say("doc.paid_none", language, gpu=gpu_name(gpu)), [])])
        each = price_text(f, language, per=False)
        if f.count and f.total is not None:
            text = say("doc.paid", language, gpu=gpu_name(gpu), count=f.count, date=f.date, title=f.title, each=each,
                       total=money(f.total, f.currency, language))
        else:
            text = say("doc.paid_unit", language, gpu=gpu_name(gpu), date=f.date, title=f.title, each=each)
        return CostAnswer([fact_of(f, self.today)],
                          [CostSentence(text, [f.chunk_id], (*figures(f), f.amount), exempt_of(f))])

    def quote(self, gpu: str, language: Language, asks: tuple[str, ...] = ()) -> CostAnswer:
        """The newest quote (or list price) for the card, with its vendor, date, tax and validity (expired said);
        a second price the same document gives; and the quote's terms `asks` names (lead_time, payment, tax…)."""
        f = newest(self.prices, ("quoted", "list")).get(gpu)
        if f is None:
            return CostAnswer(sentences=[CostSentence(say("doc.quote_none", language, gpu=gpu_name(gpu)), [])])
        valid = "" if f.valid_until is None else say("doc.expired" if f.expired(self.today) else "doc.valid",
                                                      language, date=f.valid_until)
        text = say("doc.quote", language, gpu=gpu_name(gpu), kind=say(f"doc.kind.{f.kind}", language),
                   money=price_text(f, language),
                   vendor=say("doc.vendor", language, vendor=f.vendor) if f.vendor else "",
                   title=f.title, date=f.date, tax=say(f"doc.tax.{f.tax}", language) if f.tax else "", valid=valid)
        out = CostAnswer([fact_of(f, self.today)], [CostSentence(text, [f.chunk_id], figures(f), exempt_of(f))])
        twins = [p for p in self.prices if p.document == f.document and p.gpu == gpu and p.kind == f.kind
                 and p.term == f.term and p.chunk_id != f.chunk_id and p.amount != f.amount]
        if twins:
            amounts = " / ".join(price_text(p, language) for p in [f, *twins])
            out.sentences.append(CostSentence(say("doc.conflict", language, title=f.title, gpu=gpu_name(gpu),
                                                  kind=say(f"doc.kind.{f.kind}", language), amounts=amounts),
                                              [f.chunk_id, *(p.chunk_id for p in twins)],
                                              tuple(x for p in twins for x in figures(p)), exempt_of(f)))
            out.facts += [fact_of(p, self.today) for p in twins]
        for ask in asks:
            said = [n for n in self.notes if n.kind == ask and n.chunk_id.rsplit("-", 1)[0] == f.document
                    and n.gpu in (None, gpu)]
            what = say(f"doc.note.{ask}", language)
            out.sentences += [CostSentence(say("doc.note", language, what=what, text=n.text), [n.chunk_id],
                                           exempt=(n.text,)) for n in said] or \
                [CostSentence(say("doc.note_none", language, what=what), [f.chunk_id])]
        return out

    def rent(self, gpu: str, months: float, language: Language, count: int = 1) -> CostAnswer:
        """The rent for `months` of `count` cards at each term a document gives (its newest rate a term)."""
        out = CostAnswer()
        for term in ("on_demand", "monthly", "reserved_1y", "reserved_3y"):
            f = newest(self.prices, "rent", term).get(gpu)
            if f is not None:
                self._rent_line(out, f, term, months, count, language)
        if not out.sentences:
            out.sentences.append(CostSentence(say("doc.no_rent", language, gpu=gpu_name(gpu)), []))
        return out

    def _rent_line(self, out: CostAnswer, f: PriceFact, term: Term, months: float, count: int,
                   language: Language) -> None:
        committed = max(months, TERM_MONTHS.get(term, 0))
        hours = committed * HOURS_A_MONTH
        units = hours / HOURS_PER[f.per] * count
        unit_key = {"card_hour": "hours", "card_month": "months", "card_year": "years"}[f.per]
        total = f.amount * units
        total_cny = f.amount_cny * units
        shown = money(total, f.currency, language) + (say("doc.converted", language, cny=plain(round(total_cny, 2)),
                                                          rate=f"{f.usd_cny:g}") if f.currency == "USD" else "")
        values = {"term": say(f"doc.term.{term}", language), "cards": cards(count, gpu_name(f.gpu), language),
                  "period": say("doc.period", language, months=plain(months)), "rate": price_text(f, language),
                  "units": say(f"doc.units.{unit_key}", language, n=plain(round(units, 4))), "total": shown,
                  "term_months": TERM_MONTHS.get(term, 0)}
        key = "doc.rent_commit" if committed > months else "doc.rent_period"
        derived = (*figures(f), round(units, 4), round(total, 2), round(total_cny, 2), float(count), months,
                   float(TERM_MONTHS.get(term, 0)))
        out.sentences.append(CostSentence(say(key, language, **values), [f.chunk_id], derived, exempt_of(f)))
        out.facts.append(fact_of(f, self.today))
        out.facts.append(CostFact(gpu=f.gpu, what="rent_total", amount=round(total_cny, 2), currency="CNY",
                                  amount_cny=round(total_cny, 2), term=term, source="computed"))

    def rent_or_buy(self, gpu: str, months: float, language: Language, count: int = 1) -> CostAnswer:
        """Rent for the period at each term, buying with the period's power, which is cheapest, and break-even."""
        return rent_or_buy(self, gpu, months, language, count)

    def price_per(self, unit: Literal["gb", "tflops", "card_hour"], language: Language,
                  gpus: list[str] | None = None) -> CostAnswer:
        """Price per GB of memory, per dense 16-bit TFLOPS, or per card-hour: the team's newest prices and the
        guide's, each dated, cheapest first."""
        return price_per_unit(self, unit, language, gpus)

    def purchase(self, gpu: str) -> PriceFact | None:
        return purchase(self.prices).get(gpu)

    def power_cny(self, gpu: str, hours: float, count: int = 1) -> float:
        """The energy of `count` cards running `hours` at their TDP and kb's energy price (callers check the TDP is
        known: a record may leave it unknown)."""
        watts = self.gpus[gpu].tdp_w
        if watts is None:
            raise ValueError(f"no TDP on record for {gpu}")
        return watts / 1000 * hours * self.energy * count
