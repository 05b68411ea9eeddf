"""Rent or buy a card for a stated period: the rent at each term, the purchase with the period's power, which is
cheapest, and where buying starts to pay (break-even), each figure from a team's row or a spec record.

Owning costs the price once plus power each hour (TDP ÷ 1000 × the energy price, kb's KB_ENERGY_PRICE_CNY_PER_KWH);
a rent rate includes power, so against a rate r (CNY a card-hour) buying pays off after
    price ÷ (r − TDP ÷ 1000 × energy price)
card-hours, and never when r is no more than the power alone. Of a range the dearer end is used; when the cheaper
end would change which option is cheapest, that is said too.
"""

from __future__ import annotations

from kb.documents.cost_facts import Book, CostAnswer, CostFact, CostSentence, fact_of
from kb.documents.money import plain
from kb.documents.pricebook import newest
from kb.documents.prices import PriceFact
from kb.documents.shown import figures, money, price_text
from kb.language import Language
from kb.words.answer import gpu_name
from kb.words.catalog import cards, say

HOURS_A_MONTH = 730.0


def _winner(option: str, language: Language) -> str:
    if option == "buy":
        return say("doc.winner.buy", language)
    return say("doc.winner.rent", language, term=say(f"doc.term.{option}", language))


def rent_or_buy(costs: Book, gpu: str, months: float, language: Language, count: int = 1) -> CostAnswer:
    out = costs.rent(gpu, months, language, count)
    rents = {f.term: f.amount for f in out.facts if f.what == "rent_total" and f.term}
    buy = costs.purchase(gpu)
    spec = costs.gpus.get(gpu)
    if buy is None or spec is None:
        out.sentences.append(CostSentence(say("doc.no_buy", language, gpu=gpu_name(gpu)), []))
        return out
    if spec.tdp_w is None:  # a card whose power no public figure gives: its rent is said, buying is not weighed
        return out
    hours = months * HOURS_A_MONTH
    power = costs.power_cny(gpu, hours, count)
    price = buy.amount_cny * count
    total = price + power
    period = say("doc.period", language, months=plain(months))
    shown_price = price_text(buy, language) + (f" × {count}" if count > 1 else "")
    out.sentences.append(CostSentence(
        say("doc.buy_power", language, cards=cards(count, gpu_name(gpu), language), price=shown_price, period=period,
            watts=f"{spec.tdp_w:g}", hours=plain(hours), energy=f"{costs.energy:g}", power=plain(round(power, 2)),
            total=plain(round(total, 2))),
        [buy.chunk_id, costs.spec_cite(gpu, spec.tdp_w)],
        (*figures(buy), hours, round(power, 2), round(total, 2), float(count), costs.energy, months, round(price, 2)),
        (gpu_name(gpu), buy.date, buy.title)))
    out.facts += [fact_of(buy, costs.today),
                  CostFact(gpu=gpu, what="power", amount=round(power, 2), currency="CNY", amount_cny=round(power, 2),
                           source="computed"),
                  CostFact(gpu=gpu, what="buy_total", amount=round(total, 2), currency="CNY",
                           amount_cny=round(total, 2), source="computed")]
    options = {"buy": total, **rents}
    best = min(options, key=lambda k: options[k])
    rows = {f.term: f.chunk_id for f in out.facts if f.what == "rent" and f.chunk_id}
    out.sentences.append(CostSentence(say("doc.cheapest", language, period=period, winner=_winner(best, language),
                                          total=plain(round(options[best], 2))),
                                      [rows.get(best, buy.chunk_id)], (round(options[best], 2), months)))
    out.sentences += _range_note(costs, gpu, buy, months, count, options, best, language)
    out.sentences += _break_even(costs, gpu, buy, language)
    return out


def _range_note(costs: Book, gpu: str, buy: PriceFact, months: float, count: int, options: dict[str, float],
                best: str, language: Language) -> list[CostSentence]:
    """Which end of a range the arithmetic used, and the cheaper end's verdict where it differs."""
    ranged = [f for f in [buy, *(r for r in costs.prices if r.gpu == gpu and r.kind == "rent")] if f.is_range]
    if not ranged:
        return []
    low = dict(options)
    low["buy"] = buy.low_cny() * count + costs.power_cny(gpu, months * HOURS_A_MONTH, count)
    out = []
    for f in ranged:
        what = say(f"doc.kind.{f.kind}", language) + (f"（{say(f'doc.term.{f.term}', language)}）" if f.term and
                                                      language == "zh" else f" ({f.term})" if f.term else "")
        out.append(CostSentence(say("doc.range_used", language, what=what, low=plain(f.amount_low or f.amount),
                                    high=plain(f.amount), used=money(f.amount, f.currency, language)),
                                [f.chunk_id], figures(f)))
    best_low = min(low, key=lambda k: low[k])
    if best_low != best:
        out.append(CostSentence(say("doc.range_flips", language, other=plain(buy.amount_low or buy.amount),
                                    winner=_winner(best_low, language), total=plain(round(low[best_low], 2))),
                                [buy.chunk_id], (round(low[best_low], 2), months)))
    return out


def _break_even(costs: Book, gpu: str, buy: PriceFact, language: Language) -> list[CostSentence]:
    """Buying against each rate without a commitment: the card-hours after which it pays off."""
    spec = costs.gpus[gpu]
    if spec.tdp_w is None:
        return []
    energy = spec.tdp_w / 1000 * costs.energy
    out = []
    for term in ("on_demand", "monthly"):
        rent = newest(costs.prices, "rent", term).get(gpu)
        if rent is None:
            continue
        rate = rent.cny_per_hour
        words = say(f"doc.term.{term}", language)
        cites = [buy.chunk_id, rent.chunk_id, costs.spec_cite(gpu, spec.tdp_w)]
        if rate <= energy:
            out.append(CostSentence(say("doc.rent_never", language, term=words, rate=plain(round(rate, 2)),
                                        energy=plain(round(energy, 2))), cites,
                                    (round(rate, 2), round(energy, 2), *figures(rent))))
            continue
        hours = buy.amount_cny / (rate - energy)
        out.append(CostSentence(say("doc.break_even", language, term=words, hours=plain(round(hours)),
                                    days=plain(round(hours / 24)), price=plain(round(buy.amount_cny, 2)),
                                    rate=plain(round(rate, 2)), energy=plain(round(energy, 2))), cites,
                                (round(hours), round(hours / 24), round(buy.amount_cny, 2), round(rate, 2),
                                 round(energy, 2), *figures(rent), *figures(buy)),
                                (gpu_name(gpu),)))
    return out
