"""Cost: card capex from the document's prices (§3.4, §4.3) or vendor launch prices, energy from TDP × hours."""

from __future__ import annotations

from kb.fit.gpus import GpuSpec
from kb.words.note import Note, note

AMORTISATION_HOURS = 3 * 365 * 24  # cards written off over 3 years of round-the-clock use


def capex(gpu: GpuSpec, count: int) -> tuple[float | None, Note]:
    """Cards only (no server, network, power or cooling), or None when no price is known."""
    if gpu.price_cny is None:
        return None, note("capex_none_step", gpu=gpu.id)
    total = gpu.price_cny * count
    where = (team_where(gpu) if gpu.team_price is not None
             else note("price_doc", section=gpu.price_section) if gpu.price_source == "doc"
             else note("price_vendor"))
    return total, note("capex_step", count=count, price=gpu.price_cny, where=where, total=total)


def team_where(gpu: GpuSpec) -> Note:
    """A team's price with its date, and the guide's (2025) beside it when the record has one."""
    team = gpu.team_price
    assert team is not None
    if team.guide_price_cny is None:
        return note("price_team_no_guide", title=team.title, quoted=team.quoted, date=team.date)
    guide = (note("price_doc", section=team.guide_section) if team.guide_source == "doc" else note("price_vendor"))
    return note("price_team", title=team.title, quoted=team.quoted, date=team.date, guide=team.guide_price_cny,
                guide_where=guide)


def energy_per_hour(gpu: GpuSpec, count: int, price_kwh: float) -> tuple[float | None, Note]:
    """CNY an hour at TDP: the cards' draw only, not the host's or the cooling's (None: the record gives no TDP)."""
    if gpu.tdp_w is None:
        return None, note("energy_unknown", gpu=gpu.id)
    cny = count * gpu.tdp_w / 1000 * price_kwh
    return cny, note("energy_step", count=count, tdp=gpu.tdp_w, price=price_kwh, cny=cny)


def cost_per_million_tokens(capex_cny: float | None, energy_cny_per_hour: float,
                            tokens_per_s: float) -> tuple[float, Note]:
    """(capex over 3 years + energy) an hour ÷ tokens an hour at the decode bound: a floor, not a quote."""
    capex_hour = (capex_cny or 0.0) / AMORTISATION_HOURS
    per_hour = capex_hour + energy_cny_per_hour
    cost = per_hour / (tokens_per_s * 3600) * 1e6
    return cost, note("per_m_step", capex_hour=capex_hour, energy=energy_cny_per_hour, tps=tokens_per_s,
                     cost=cost)
