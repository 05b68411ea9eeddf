"""Cost: card capex from the document's prices (§3.4, §4.3) or vendor launch prices, energy from TDP × hours."""

from __future__ import annotations

from kb.fit.gpus import GpuSpec

AMORTISATION_HOURS = 3 * 365 * 24  # cards written off over 3 years of round-the-clock use


def capex(gpu: GpuSpec, count: int) -> tuple[float | None, str]:
    """Cards only (no server, network, power or cooling), or None when no price is known."""
    if gpu.price_cny is None:
        return None, f"capex: no price for {gpu.id} in the document or a vendor list, so none is computed"
    total = gpu.price_cny * count
    where = f"document §{gpu.price_section}" if gpu.price_source == "doc" else "vendor launch price"
    return total, f"capex (cards only): {count} × {gpu.price_cny:,.0f} CNY ({where}) = {total:,.0f} CNY"


def energy_per_hour(gpu: GpuSpec, count: int, price_kwh: float) -> tuple[float, str]:
    """CNY an hour at TDP: the cards' draw only, not the host's or the cooling's."""
    cny = count * gpu.tdp_w / 1000 * price_kwh
    return cny, f"energy: {count} × {gpu.tdp_w:g} W TDP × {price_kwh:g} CNY/kWh = {cny:,.2f} CNY an hour"


def cost_per_million_tokens(capex_cny: float | None, energy_cny_per_hour: float,
                            tokens_per_s: float) -> tuple[float, str]:
    """(capex over 3 years + energy) an hour ÷ tokens an hour at the decode bound: a floor, not a quote."""
    capex_hour = (capex_cny or 0.0) / AMORTISATION_HOURS
    per_hour = capex_hour + energy_cny_per_hour
    cost = per_hour / (tokens_per_s * 3600) * 1e6
    return cost, (f"cost per million tokens: ({capex_hour:,.2f} capex over 3 years + {energy_cny_per_hour:,.2f} "
                  f"energy) CNY an hour ÷ ({tokens_per_s:,.1f} × 3600) tokens × 1e6 = {cost:,.3f} CNY")
