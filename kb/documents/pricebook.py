"""Teams' prices as the arithmetic uses them: the newest of each kind per card, and rent-or-buy break-even.

Newest means the latest row date (a row's own 报价日期, else its document's as_of); on a tie the later
row. Break-even: owning a card costs its price once plus its energy each hour (TDP × the energy price);
renting costs the rate each hour (a cloud's rate includes power), so renting is cheaper below
    hours = price ÷ (rate − TDP/1000 × energy price)
card-hours, and never more expensive when the rate does not exceed the energy cost.
"""

from __future__ import annotations

from pydantic import BaseModel

from kb.documents.prices import PriceFact, PriceKind, Term
from kb.documents.shown import signed
from kb.fit.gpus import GpuSpec, TeamPrice
from kb.language import Language

HOURS_A_MONTH = 730  # 8,760 hours a year ÷ 12: a monthly rent as an hourly rate
RENT_ORDER: tuple[Term, ...] = ("on_demand", "monthly", "reserved_1y", "reserved_3y")  # the rate a rent-or-buy uses


def newest(facts: list[PriceFact], kind: PriceKind | tuple[PriceKind, ...], term: Term | None = None
           ) -> dict[str, PriceFact]:
    """The newest fact of `kind` (of any of several kinds; of `term` for rent) for each GPU id."""
    kinds = (kind,) if isinstance(kind, str) else kind
    out: dict[str, PriceFact] = {}
    for f in facts:
        if f.kind in kinds and (term is None or f.term == term) and (f.gpu not in out or f.date >= out[f.gpu].date):
            out[f.gpu] = f
    return out


def purchase(facts: list[PriceFact]) -> dict[str, PriceFact]:
    """Each card's newest price to buy it at: a quote or a list price, else what was last paid."""
    return newest(facts, "paid") | newest(facts, ("quoted", "list"))


def rent_rate(facts: list[PriceFact], gpu: str) -> PriceFact | None:
    """The card's newest rent rate of the first term it has in RENT_ORDER (on-demand first: no commitment)."""
    return next((f for term in RENT_ORDER if (f := newest(facts, "rent", term).get(gpu))), None)


def team_prices(facts: list[PriceFact]) -> dict[str, TeamPrice]:
    """Each card's newest purchase price, in the shape the fit engine reads (kb/fit/gpus.py)."""
    return {gpu: TeamPrice(amount_cny=f.amount_cny, quoted=signed(f), date=f.date, title=f.title, chunk_id=f.chunk_id)
            for gpu, f in purchase(facts).items()}


class BreakEven(BaseModel):
    """Rent or buy one card: the card-hours (and days round the clock) at which buying starts to pay."""

    gpu: str
    buy: PriceFact
    buy_shown: str  # the purchase price with its currency ("¥230,000", "$7,800 (¥56,160 at 7.2 CNY/USD)")
    rent: PriceFact
    rent_cny_per_hour: float
    energy_cny_per_hour: float
    card_hours: float | None  # None: renting never costs more than owning's energy alone
    days_round_the_clock: float | None
    steps: list[str]
    citations: list[str]


def break_even(gpu: GpuSpec, facts: list[PriceFact], energy_price_cny_per_kwh: float,
               language: Language = "zh") -> BreakEven | None:
    """Break-even for `gpu` from the newest buy price and rent rate, with every step written out; None without both."""
    buy = purchase(facts).get(gpu.id)
    rent = rent_rate(facts, gpu.id)
    if buy is None or rent is None or gpu.tdp_w is None:  # (no TDP on record: no energy to weigh rent against)
        return None
    zh = language == "zh"
    steps: list[str] = []
    rate = rent.cny_per_hour
    if rent.per == "card_month":
        steps.append(f"月租 {rent.amount_cny:,.2f} CNY ÷ {HOURS_A_MONTH} 小时 = 每卡时 {rate:,.4f} CNY" if zh else
                     f"monthly rent {rent.amount_cny:,.2f} CNY ÷ {HOURS_A_MONTH} hours = {rate:,.4f} CNY a card-hour")
    energy = gpu.tdp_w / 1000 * energy_price_cny_per_kwh
    steps.append(f"自有电费：{gpu.tdp_w:g} W ÷ 1000 × {energy_price_cny_per_kwh:g} CNY/kWh = 每卡时 {energy:,.2f} CNY"
                 if zh else f"owning's energy: {gpu.tdp_w:g} W ÷ 1000 × {energy_price_cny_per_kwh:g} CNY/kWh = "
                 f"{energy:,.2f} CNY a card-hour")
    hours = days = None
    if rate > energy:
        hours = buy.amount_cny / (rate - energy)
        days = hours / 24
        steps.append(f"盈亏平衡：{buy.amount_cny:,.0f} ÷ ({rate:,.2f} − {energy:,.2f}) = {hours:,.0f} 卡时" if zh else
                     f"break-even: {buy.amount_cny:,.0f} ÷ ({rate:,.2f} − {energy:,.2f}) = {hours:,.0f} card-hours")
        steps.append(f"每天 24 小时满载：{hours:,.0f} ÷ 24 = {days:,.0f} 天（约 {days / 30.4:,.1f} 个月）" if zh else
                     f"running round the clock: {hours:,.0f} ÷ 24 = {days:,.0f} days (about {days / 30.4:,.1f} months)")
    else:
        steps.append(f"租金 {rate:,.2f} 不高于电费 {energy:,.2f}：租用总是更便宜" if zh else
                     f"the rate {rate:,.2f} is not above the energy {energy:,.2f}: renting is always cheaper")
    return BreakEven(gpu=gpu.id, buy=buy, buy_shown=signed(buy), rent=rent, rent_cny_per_hour=rate,
                     energy_cny_per_hour=energy, card_hours=hours, days_round_the_clock=days, steps=steps,
                     citations=[gpu.record_id, buy.chunk_id, rent.chunk_id])
