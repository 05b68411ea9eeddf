"""Sentences from the spec records: a card's figures and notes, two cards' ratio or sameness, prices at counts,
what a budget buys, teams' quotes and rent-or-buy, and the formats a card has no tensor cores for.

A base of the Composer (kb/answer/compose.py): it reads the records' chunks by group and each card's figures as the
fit engine does (`figure`), and cites through the Composer's `_cite`, so every number here is one the
verifier can hold to a record, or a stated product, sum or ratio of them (`derived`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from indexer.chunks import Chunk
from kb.answer.facts import spec_facts
from kb.answer.parts import Facts, Sentence, TeamPrices
from kb.answer.verify import text_figures
from kb.language import Language
from kb.numbers import GIB
from kb.understand.intent import (
    KEY_FIGURES,
    asks_power_bill,
    asks_price_per_gb,
    asks_price_per_tflops,
    asks_rent,
    asks_sparse,
    per_unit,
    why_topics,
)
from kb.words.answer import gpu_name, span, span_figures, whole
from kb.words.catalog import cards, say

GUIDE_YEAR = 2025  # the guide's own date, said beside a team's dated price (README: "the guide is from 2025")
_FORMAT_WORDS = ("FP8", "FP4", "Blackwell", "16 位", "8 位", "4 位", "16-bit", "8 bits", "4 bits")  # names, not figures


_GEN = re.compile(r"几代|哪一?代|代数|第几代|(?<![a-z])gen(?:eration)?\b|which (?:pcie )?version|pcie ?\d(?:\.0)?|"
                  r"x16|x8", re.IGNORECASE)
_PCIE_LINKS = {32.0: ("4.0", 8), 64.0: ("4.0", 16), 128.0: ("5.0", 16)}  # two-way GB/s → (generation, lanes)
_PERCENT = re.compile(r"%|percent|百分|几成|多少成", re.IGNORECASE)
PERIOD_HOURS = {"day": 24, "month": 720, "year": 8760}  # around the clock: a day, 30 days, 365 days
_SIDES = re.compile(r"\bor\b|\bvs\.?|\bversus\b|\bthan\b|还是|或者|或是|对比|比较|(?<=[a-z0-9])\s*比", re.IGNORECASE)
# figures that add up over cards (a price has its own sentence; bandwidth adds up as the cards' aggregate)
SUMMED = ("vram", "bandwidth", "power", "compute", "int8", "fp8", "fp4")


def _one_record_each(gpus: list[str]) -> list[str]:
    """The cards named, "the A100" once (as the 80GB record) when both its records were read for it."""
    return [g for g in gpus if g != "a100-40gb" or "a100-80gb" not in gpus]


def _small(x: float) -> str:
    """A figure said whole once it is large ("15,768"), with its tenth below 100 ("33.6 kWh a day", not "34")."""
    return whole(x) if x >= 100 else f"{x:.1f}".removesuffix(".0")


def _amount(x: float) -> str:
    """A sum as the verifier reads it back: thousands separated when whole ("7,200"), else plain ("1321.6")."""
    return f"{x:,.0f}" if abs(x - round(x)) < 1e-6 else f"{x:.6g}"


class RecordSentences:
    """The record-backed sentence writers; the Composer sets these attributes and provides `_cite`."""

    _figure: Callable[[str, str], tuple[float, str] | None]
    _lacks: Callable[[str], frozenset[str]]
    _gpus_named: Callable[[str], tuple[str, ...]]
    _prices: Callable[[str, Language], TeamPrices]
    _by_id: Mapping[str, Chunk]
    _groups: dict[str, list[Chunk]]
    _chunks_by_id: dict[str, Chunk]
    _figures_of: dict[str, set[float]]

    def _cite(self, f: Facts, chunk: Chunk, top_k: int) -> str:
        raise NotImplementedError

    def _spec(self, f: Facts, top_k: int) -> list[Sentence]:
        out: list[Sentence] = []
        bills: list[Sentence] = []  # a power bill asked is the answer: said first
        sparse = asks_sparse(f.question)
        for gpu in f.gpus:
            parts = self._groups.get(f"spec-{gpu}", [])
            found = spec_facts(parts, gpu_name(gpu), f.intent.attributes, f.language, sparse=sparse)
            for chunk, sentence in found:
                out.append(Sentence(sentence, [self._cite(f, chunk, top_k)]))
            out += self._no_cores(f, gpu, top_k)
            out[:0] = self._pcie_gen(f, gpu, top_k)  # the generation asked is the answer
            if "ecc" in f.intent.attributes and parts:
                out[:0] = self._ecc(f, gpu, parts, top_k)  # "ecc 打开后还剩多少显存": the driver's two totals
            for attr in ("fp8", "fp4"):  # a rate the record holds outside its table (RTX 5090 FP4)
                value = self._figure(gpu, attr) if attr in f.intent.attributes and parts else None
                if value and not any(f"{value[0]:g}" in s.text for s in out):
                    out.append(Sentence(say("spec_figure", f.language, gpu=gpu_name(gpu), value=f"{value[0]:g}",
                                            metric=say(f"metric.{attr}", f.language), unit=value[1]),
                                        [self._cite(f, parts[0], top_k)], exempt=(gpu_name(gpu),), derived=(value[0],)))
            if ((f.asked == "cost" and f.intent.attributes == ["power"]) or ("power" in f.intent.attributes
                    and asks_power_bill(f.question))) and (gpu in f.counts or not f.counts):
                bills += self._power_bill(f, gpu, top_k)  # ("8 张 a100": the counted record, not both A100s)
            price = self._figure(gpu, "price")
            if "price" in f.intent.attributes or f.asked == "rent_or_buy":
                out = self._team_price(f, gpu, top_k) + out
            if "price" in f.intent.attributes and parts and price is None:
                out.append(Sentence(say("no_price", f.language, gpu=gpu_name(gpu)), [self._cite(f, parts[0], top_k)]))
            elif "price" in f.intent.attributes and price and (f.counts.get(gpu, 1) > 1 or (
                    f.budget_cny is not None and gpu in f.counts)):  # ("budget 30k, can i afford a 4090": one)
                n = f.counts[gpu]  # "8 张 4090 多少钱": the cards' price times the count, from the record's price
                markers = [self._cite(f, self._part_with(gpu, price[0]), top_k)]
                out[:0] = [Sentence(say("capex", f.language, count=n, gpu=gpu_name(gpu), capex=whole(n * price[0])),
                                    markers, exempt=(gpu_name(gpu),), derived=(n * price[0], price[0], n)),
                           *(self._left_of_budget(f, n * price[0], markers) if len(f.counts) == 1 else [])]
        if len(bills) >= 2 and sum(g in f.counts for g in f.gpus) >= 2:  # "两张 a100 加四张 4090 一年电费": the
            # counted cards' bills added up (not "a100 一个月电费", its two records each priced alone)
            kwh, cny = sum(b.derived[0] for b in bills), sum(b.derived[1] for b in bills)
            bills.insert(0, Sentence(say("power_bill_all", f.language, kwh=_small(kwh), cny=_small(cny),
                                         period=span(f.hours, f.language) if f.hours
                                         else say(f"period.{f.period}", f.language)),
                                     list(dict.fromkeys(m for b in bills for m in b.markers)), derived=(kwh, cny)))
        total = self._total_price(f, top_k)  # a sum asked ("一共多少钱") is the answer, not the cards' ratio
        summed = self._totals(f, [(g, f.counts[g]) for g in f.gpus if f.counts.get(g, 1) > 1], top_k)
        if f.intent.attributes[:1] != ["power"] and f.asked != "cost":  # "total vram, and a year's power bill":
            return self._per_unit(f, top_k) + (total or self._ratio(f, top_k)) + summed + bills + out  # in turn
        return bills + self._per_unit(f, top_k) + (total or self._ratio(f, top_k)) + summed + out

    def _driver_ecc(self, gpu: str) -> str | None:
        """'on' or 'off': the ECC state the record's driver total was read at, where its note says."""
        state = self._figure(gpu, "driver_ecc")
        return state[1] if state else None

    def _ecc(self, f: Facts, gpu: str, parts: list[Chunk], top_k: int) -> list[Sentence]:
        """What the driver reports with ECC on and off, where the record holds both totals."""
        on, off = self._figure(gpu, "ecc_on"), self._figure(gpu, "ecc_off")
        marker = [self._cite(f, parts[0], top_k)]
        driver, state = self._figure(gpu, "driver"), self._driver_ecc(gpu)  # the driver total's own ECC state
        if (on is None) != (off is None) or (on is None and driver and state):
            one, said = (on, "on") if on else (off, "off") if off else (driver, state)
            assert one is not None
            marker = [self._cite(f, self._part_with(gpu, one[0]), top_k)]  # (the part whose table states it)
            return [Sentence(say(f"ecc_one.{said}", f.language, gpu=gpu_name(gpu), mib=f"{one[0]:,.0f}",
                                 gib=f"{one[0] / 1024:.1f}"), marker, exempt=(gpu_name(gpu),),
                             derived=(one[0], round(one[0] / 1024, 1)))]
        if on is None or off is None:
            return [Sentence(say("ecc_unknown", f.language, gpu=gpu_name(gpu)), marker, exempt=(gpu_name(gpu),))]
        cost, pct = off[0] - on[0], (off[0] - on[0]) / off[0] * 100
        return [Sentence(say("ecc_capacity", f.language, gpu=gpu_name(gpu), on=f"{on[0]:,.0f}",
                             on_gib=f"{on[0] / 1024:.1f}", off=f"{off[0]:,.0f}", off_gib=f"{off[0] / 1024:.1f}",
                             cost=f"{cost:,.0f}", pct=f"{pct:.2f}"),
                         marker, exempt=(gpu_name(gpu),),
                         derived=(on[0], off[0], round(on[0] / 1024, 1), round(off[0] / 1024, 1), cost, round(pct, 2)))]

    def _per_unit(self, f: Facts, top_k: int) -> list[Sentence]:
        """'a100 每千瓦能出多少 tflops': a card's figure over its TDP or its price, in the unit asked."""
        if asks_price_per_gb(f.question):
            return self._price_per(f, top_k, "vram")
        if asks_price_per_tflops(f.question):
            return self._price_per(f, top_k, "compute")
        asked = per_unit(f.question)
        if asked is None:
            return []
        unit_key, by, scale = asked
        lang, out = f.language, []
        attrs = [a for a in f.intent.attributes if a in ("compute", "fp8", "fp4", "int8", "bandwidth", "vram")]
        for gpu in _one_record_each(f.gpus):
            divisor = self._figure(gpu, by)
            parts = self._groups.get(f"spec-{gpu}", [])
            if divisor is None and by == "price" and parts:  # "mi300x 每万元多少显存": no price, no ratio
                out.append(Sentence(say("no_price", lang, gpu=gpu_name(gpu)), [self._cite(f, parts[0], top_k)]))
            for attr in attrs or ["compute"]:
                value = self._figure(gpu, attr)
                if value is None or divisor is None:
                    continue
                x = divisor[0] / scale
                r = value[0] / x  # at least three figures: one decimal from 20 ("86.9", "738.7"), two below ("16.84")
                ratio = round(r, 1) if r >= 20 else round(r, 2) if r >= 1 else float(f"{r:.3g}")
                basis = say(f"per.basis.{by}", lang, w=f"{divisor[0]:g}", price=whole(divisor[0]))
                shown = f"{x:g} kW" if unit_key == "kw" else f"{x:g} W" if unit_key == "w" else f"{x:g}"
                out.append(Sentence(
                    say("figure_per", lang, gpu=gpu_name(gpu), metric=say(f"metric.{attr}", lang),
                        per=say(f"per.{unit_key}", lang), value=f"{value[0]:g}", unit=value[1], divisor=shown,
                        ratio=_amount(ratio), basis=basis),
                    list(dict.fromkeys(self._cite(f, self._part_with(gpu, v), top_k) for v in (value[0], divisor[0]))),
                    exempt=(gpu_name(gpu),), derived=(ratio, x, scale)))
        return out

    def _totals(self, f: Facts, counted: list[tuple[str, int]], top_k: int,
                attributes: list[str] | None = None) -> list[Sentence]:
        """'两张 4090 总显存和功耗': each asked figure that adds up over cards, times each card's count, and over all
        the cards when they are of several kinds and the records give the figure in one unit."""
        out: list[Sentence] = []
        lang = f.language
        for attr in [a for a in (f.intent.attributes if attributes is None else attributes) if a in SUMMED]:
            items = [(g, n, v) for g, n in counted if (v := self._figure(g, attr)) is not None]
            metric = say(f"metric.{attr}", lang)
            for g, n, (each, unit) in items:
                if n < 2:
                    continue
                total = n * each
                extra = "" if unit != "W" or total < 1000 else say("figure_total_kw", lang, kw=f"{total / 1e3:g}") \
                    if total < 1e6 else say("figure_total_mw", lang, mw=f"{total / 1e6:.2f}")
                out.append(Sentence(say("figure_total", lang, metric=metric, count=n, gpu=gpu_name(g), each=f"{each:g}",
                                        unit=unit, total=_amount(total), extra=extra),
                                    [self._cite(f, self._part_with(g, each), top_k)], exempt=(gpu_name(g),),
                                    derived=(total, each, float(n), total / 1e3, round(total / 1e6, 2))))
            if len(items) >= 2 and len({u for _, _, (_, u) in items}) == 1:
                unit, total = items[0][2][1], sum(n * v for _, n, (v, _) in items)
                parts = " + ".join(f"{n} × {v:g}" for _, n, (v, _) in items)
                out.append(Sentence(say("figure_total_all", lang, parts=parts, total=_amount(total), unit=unit,
                                        metric=metric),
                                    [self._cite(f, self._part_with(g, v), top_k) for g, _, (v, _) in items],
                                    derived=(total, *(float(n) for _, n, _ in items))))
        return out

    def _power_bill(self, f: Facts, gpu: str, top_k: int, count: int | None = None) -> list[Sentence]:
        """'a100 一个月电费多少': the cards' TDP around the clock for a month at kb's electricity price."""
        power, parts = self._figure(gpu, "power"), self._groups.get(f"spec-{gpu}", [])
        if power is None or not parts:
            return []
        n, hours = count or f.counts.get(gpu, 1), f.hours or PERIOD_HOURS[f.period]
        kwh = n * power[0] * hours / 1000
        cny = kwh * f.energy_cny_per_kwh
        cited = [self._cite(f, self._part_with(gpu, power[0]), top_k)]
        usd = [Sentence(say("power_bill_usd", f.language, usd=_small(cny / f.usd_cny),
                            price=f"{f.energy_cny_per_kwh / f.usd_cny:g}"), cited,
                        derived=(cny / f.usd_cny, f.energy_cny_per_kwh / f.usd_cny))] if f.usd_cny else []
        return [Sentence(say("power_bill", f.language, count=n, gpu=gpu_name(gpu), watts=f"{power[0]:g}",
                             period=say("period.run", f.language) if f.of_a_run else span(hours, f.language)
                             if f.hours else say(f"period.{f.period}", f.language),
                             hours=f"{hours:,.0f}", kwh=_small(kwh),
                             price=f"{f.energy_cny_per_kwh:g}", cny=_small(cny),
                             source=say("energy.asked" if f.energy_asked else "energy.kb", f.language)),
                         [self._cite(f, self._part_with(gpu, power[0]), top_k)], exempt=(gpu_name(gpu),),
                         derived=(kwh, cny, float(hours), f.energy_cny_per_kwh, float(n),
                                  *span_figures(f.hours))), *usd]

    def _pcie_gen(self, f: Facts, gpu: str, top_k: int) -> list[Sentence]:
        """'它走 pcie 几代': the host link's generation and width, read off the record's two-way PCIe figure
        (a PCIe 4.0 lane carries about 2 GB/s each way, a 5.0 lane 4: 32 GB/s is 4.0 x8, 64 is 4.0 x16, 128 is
        5.0 x16 — the three the records hold)."""
        pcie = self._figure(gpu, "pcie") if "pcie" in f.intent.attributes and _GEN.search(f.question) else None
        link = _PCIE_LINKS.get(pcie[0]) if pcie else None
        if pcie is None or link is None:
            return []
        return [Sentence(say("pcie_gen", f.language, gpu=gpu_name(gpu), gen=link[0], lanes=link[1],
                             gbs=f"{pcie[0]:g}"), [self._cite(f, self._part_with(gpu, pcie[0]), top_k)],
                         exempt=(gpu_name(gpu), f"PCIe {link[0]}", f"x{link[1]}"), derived=(float(link[1]),))]

    def _no_cores(self, f: Facts, gpu: str, top_k: int) -> list[Sentence]:
        """'A100 上跑 FP8 为什么没加速': the record says the card has no tensor cores for the format asked."""
        parts = self._groups.get(f"spec-{gpu}", [])
        name = gpu_name(gpu)
        formats = [fmt for fmt in ("fp8", "fp4")
                   if fmt in f.intent.attributes and parts and fmt in self._lacks(gpu)]
        return [Sentence(say(f"no_{fmt}_cores", f.language, gpu=name), [self._cite(f, parts[0], top_k)],
                         exempt=(name, *_FORMAT_WORDS)) for fmt in formats]

    def _why_cards(self, f: Facts, top_k: int) -> list[Sentence]:
        """A why-question about named cards' figures: what their records say of them, before the guide's reasons."""
        out: list[Sentence] = []
        for gpu in f.gpus[:2]:
            out += self._no_cores(f, gpu, top_k)
            for fmt in [a for a in ("fp8", "fp4") if a in f.intent.attributes]:  # "why does fp8 double throughput"
                low, bf16 = self._figure(gpu, fmt), self._figure(gpu, "compute")
                if low and bf16:
                    ratio = low[0] / bf16[0]
                    out.append(Sentence(say("low_rate", f.language, gpu=gpu_name(gpu), fmt=fmt.upper(),
                                            ratio=f"{ratio:.2f}", low=f"{low[0]:g}", bf16=f"{bf16[0]:g}"),
                                        list(dict.fromkeys(self._cite(f, self._part_with(gpu, v), top_k)
                                                           for v in (low[0], bf16[0]))),
                                        exempt=(gpu_name(gpu), fmt.upper(), "BF16"), derived=(round(ratio, 2),)))
            for chunk, sentence in spec_facts(self._groups.get(f"spec-{gpu}", []), gpu_name(gpu),
                                              [a for a in f.intent.attributes if a not in ("fp8", "fp4")], f.language):
                out.append(Sentence(sentence, [self._cite(f, chunk, top_k)]))
        if len(f.gpus) == 1:  # "为什么 h20 显存大算力低": what the card is for, as its record says, after its figures
            out += [Sentence(sentence, [self._cite(f, chunk, top_k)]) for chunk, sentence in
                    spec_facts(self._groups.get(f"spec-{f.gpus[0]}", []), gpu_name(f.gpus[0]), ["role"],
                               f.language)][:1]
        return out

    def _budget_buys(self, f: Facts, top_k: int) -> list[Sentence]:
        """'一百二十万能买几张 A100': the budget over the card's price, whole cards."""
        gpus = [g for g in f.gpus if g != "a100-40gb"] or f.gpus  # "the A100" is both cards; one price
        if f.budget_cny is not None and f.how_many and len(gpus) >= 2:
            return self._budget_then_buys(f, gpus, top_k)
        if f.budget_cny is None or len(gpus) != 1 or not f.how_many:
            return []
        gpu = gpus[0]
        price, parts = self._figure(gpu, "price"), self._groups.get(f"spec-{gpu}", [])
        if not parts:
            return []
        if price is None:  # "八十万能买几张 H100": no price, so no count
            return [Sentence(say("no_price", f.language, gpu=gpu_name(gpu)), [self._cite(f, parts[0], top_k)])]
        n = int(f.budget_cny // price[0])
        left = f.budget_cny - n * price[0]  # "and what's left over"
        return [Sentence(say("budget_buys", f.language, budget=whole(f.budget_cny), n=n, gpu=gpu_name(gpu),
                             price=whole(price[0]), spent=whole(n * price[0]), left=whole(left)),
                         [self._cite(f, self._part_with(gpu, price[0]), top_k)],
                         exempt=(gpu_name(gpu),), derived=(f.budget_cny, float(n), n * price[0], left)),
                *self._totals(f, [(gpu, n)], top_k)]  # "…and their combined vram"

    def _budget_then_buys(self, f: Facts, gpus: list[str], top_k: int) -> list[Sentence]:
        """'70k: 2 4090s first, then as many 4070 tis as the rest covers': the counted cards off the budget, then
        the one card named without a count bought with what is left."""
        counted = [g for g in gpus if g in f.counts]
        rest = [g for g in gpus if g not in f.counts]
        prices: dict[str, float] = {g: p[0] for g in gpus if (p := self._figure(g, "price")) is not None}
        if len(rest) != 1 or not counted or len(prices) != len(gpus) or f.budget_cny is None:
            return []
        first_cost = sum(f.counts[g] * prices[g] for g in counted)
        left_first = f.budget_cny - first_cost
        if left_first < 0:
            return []  # over the budget already: the total and how far over it are said by the price answer
        gpu, each = rest[0], prices[rest[0]]
        n = int(left_first // each)
        joiner = " + " if f.language == "en" else "、"
        first = joiner.join(cards(f.counts[g], gpu_name(g), f.language) for g in counted)
        markers = list(dict.fromkeys(self._cite(f, self._part_with(g, prices[g]), top_k) for g in gpus))
        return [Sentence(say("budget_then_buys", f.language, budget=whole(f.budget_cny), first=first,
                             first_cost=whole(first_cost), rest=whole(left_first), n=n, gpu=gpu_name(gpu),
                             price=whole(each), spent=whole(n * each), left=whole(left_first - n * each)),
                         markers, exempt=tuple(gpu_name(g) for g in gpus),
                         derived=(f.budget_cny, first_cost, left_first, float(n), n * each, left_first - n * each,
                                  *(float(f.counts[g]) for g in counted))),
                *self._totals(f, [(gpu, n)], top_k)]

    def _total_price(self, f: Facts, top_k: int) -> list[Sentence]:
        """'两张4080 加一张4070ti 一共多少钱': the cards' prices times their counts, added up; two such sets set
        against each other ("four 4080s or one 4090 + two 4070 tis"), which costs more and by how much."""
        counted = [g for g in f.gpus if g in f.counts]  # each card named with its own count
        total_asked = re.search(r"一共|总共|合计|加起来|加一张|all in|in total|total|altogether|combined|together",
                                f.question, re.IGNORECASE)
        if "price" not in f.intent.attributes or len(counted) < 2 or not (
                any(f.counts[g] > 1 for g in counted) or total_asked):
            return []
        sides = [[g for g in counted if g in self._gpus_named(part)] for part in _SIDES.split(f.question)]
        sides = [side for side in sides if side]
        if len(sides) == 2 and sorted(sides[0] + sides[1]) == sorted(counted):
            return self._priced_sides(f, sides, top_k)
        return self._priced_cards(f, "capex_total", [(g, f.counts[g]) for g in counted], [], top_k)

    def _priced_sides(self, f: Facts, sides: list[list[str]], top_k: int) -> list[Sentence]:
        """Two sets of counted cards, each priced, the dearer first with the difference."""
        priced = []
        for side in sides:
            prices = [(g, f.counts[g], self._figure(g, "price")) for g in side]
            if any(p is None for _, _, p in prices):
                return []
            total = sum(n * p[0] for _, n, p in prices if p)
            plus = " + " if f.language == "en" else "＋"
            words = plus.join(cards(n, gpu_name(g), f.language) for g, n, _ in prices)
            priced.append((total, words, [self._cite(f, self._part_with(g, p[0]), top_k) for g, _, p in prices if p]))
        (ta, wa, ma), (tb, wb, mb) = sorted(priced, key=lambda x: -x[0])
        key = "capex_sides_same" if ta == tb else "capex_sides"
        names = tuple(gpu_name(g) for side in sides for g in side)
        pct = round((ta - tb) / ta * 100, 1)  # "how much cheaper, in percent": of the dearer set's price
        ratio = round(ta / tb, 2) if tb else 0.0
        words = say(key, f.language, a=wa, b=wb, pa=whole(ta), pb=whole(tb), diff=whole(ta - tb), pct=f"{pct:g}",
                    ratio=f"{ratio:.2f}")
        return [Sentence(words,
                         list(dict.fromkeys(ma + mb)), exempt=names,
                         derived=(ta, tb, ta - tb, pct, ratio, *(float(f.counts[g]) for side in sides for g in side)))]

    def _priced_cards(self, f: Facts, key: str, counted: list[tuple[str, int]], markers: list[str],
                      top_k: int) -> list[Sentence]:
        """Cards × their records' prices, added up ("2 张 RTX 4080＋1 张 RTX 4070 Ti 合计约 25,497 元"), citing each
        price beside `markers`; nothing when a card has no price."""
        priced = [(g, n, self._figure(g, "price")) for g, n in counted]
        if not priced or any(p is None for _, _, p in priced):
            return []
        items = [(g, n, p[0]) for g, n, p in priced if p is not None]
        total = sum(n * v for _, n, v in items)
        parts = (" + " if f.language == "en" else "＋").join(
            cards(n, gpu_name(g), f.language) for g, n, _ in items)
        markers = markers + [self._cite(f, self._part_with(g, v), top_k) for g, _, v in items]
        out = [Sentence(say(key, f.language, parts=parts, total=whole(total)), markers,
                        exempt=tuple(gpu_name(g) for g, _, _ in items),
                        derived=(total, *(n * v for _, n, v in items), *(float(n) for _, n, _ in items)))]
        if key == "capex_total":
            out += self._left_of_budget(f, total, markers)
        return out

    @staticmethod
    def _left_of_budget(f: Facts, total: float, markers: list[str]) -> list[Sentence]:
        """'预算十万 还剩多少': what a stated budget leaves after the cards' price, or how far over it they are."""
        if f.budget_cny is None:
            return []
        left = f.budget_cny - total
        return [Sentence(say("budget_left" if left >= 0 else "budget_over", f.language, budget=whole(f.budget_cny),
                             total=whole(total), left=whole(abs(left))), markers,
                         derived=(f.budget_cny, total, abs(left)))]

    def _price_per(self, f: Facts, top_k: int, attr: str) -> list[Sentence]:
        """'每 GB 显存多少钱', 'cny per dense tflops': a card's price over its memory or its dense 16-bit compute
        (the training denominator), as its record gives both."""
        out = []
        for gpu in _one_record_each(f.gpus):
            price, figure = self._figure(gpu, "price"), self._figure(gpu, attr)
            parts = self._groups.get(f"spec-{gpu}", [])
            if price is None and parts:
                out.append(Sentence(say("no_price", f.language, gpu=gpu_name(gpu)), [self._cite(f, parts[0], top_k)]))
            if price is None or figure is None:
                continue
            ratio = round(price[0] / figure[0], 1)
            marks = list(dict.fromkeys(self._cite(f, self._part_with(gpu, v), top_k) for v in (price[0], figure[0])))
            out.append(Sentence(say(f"price_per.{attr}", f.language, gpu=gpu_name(gpu), price=whole(price[0]),
                                    figure=f"{figure[0]:g}", unit=figure[1], ratio=_amount(ratio)),
                                marks, exempt=(gpu_name(gpu), "BF16"), derived=(ratio,)))
        return out

    def _chunk_figures(self, chunk_id: str) -> set[float]:
        """The figures a record or guide chunk states (empty for a chunk this composer was not built with)."""
        if chunk_id not in self._figures_of:
            c = self._chunks_by_id.get(chunk_id)
            self._figures_of[chunk_id] = text_figures(
                f"{c.section} {c.heading} {c.heading_en}\n{c.text}\n{c.text_en}") if c else set()
        return self._figures_of[chunk_id]

    def _part_with(self, gpu: str, value: float) -> Chunk:
        """The part of a card's spec record that states `value` (a long record is split into parts)."""
        group = self._groups[f"spec-{gpu}"]
        return next((c for c in group if value in self._chunk_figures(c.id)), group[0])

    def _team_price(self, f: Facts, gpu: str, top_k: int) -> list[Sentence]:
        """A team's newest quote for the card, dated, with the guide's beside it; and rent or buy."""
        found = self._prices(gpu, f.language)
        out: list[Sentence] = []
        lang, name = f.language, gpu_name(gpu)
        if found.buy is not None and found.buy.chunk_id in self._by_id:
            p = found.buy
            marks = [self._cite(f, self._by_id[p.chunk_id], top_k)]
            if p.guide_price_cny is not None and self._groups.get(f"spec-{gpu}"):
                marks.append(self._cite(f, self._part_with(gpu, p.guide_price_cny), top_k))
                out.append(Sentence(say("team_price_guide", lang, gpu=name, quoted=p.quoted, title=p.title, date=p.date,
                                      guide=whole(p.guide_price_cny)), marks, exempt=(name, p.date, p.title),
                                    derived=(GUIDE_YEAR, *text_figures(p.quoted))))
            else:  # the quote with its currency, a USD one with the CNY it comes to (its figures computed from it)
                out.append(Sentence(say("team_price", lang, gpu=name, quoted=p.quoted, title=p.title, date=p.date),
                                    marks, exempt=(name, p.date, p.title), derived=tuple(text_figures(p.quoted))))
        if found.break_even is None and asks_rent(f.question) and self._groups.get(f"spec-{gpu}"):
            out.append(Sentence(say("no_rent", lang, gpu=name), [self._cite(f, self._groups[f"spec-{gpu}"][0], top_k)],
                                exempt=(name,)))
        b = found.break_even if f.asked == "rent_or_buy" else None
        if b is not None and b.buy.chunk_id in self._by_id and b.rent.chunk_id in self._by_id:
            marks = [self._cite(f, self._by_id[c], top_k) for c in dict.fromkeys((b.buy.chunk_id, b.rent.chunk_id))]
            if self._groups.get(f"spec-{gpu}"):
                marks.append(self._cite(f, self._groups[f"spec-{gpu}"][0], top_k))
            values = {"gpu": name, "buy": b.buy_shown, "rent": f"{b.rent_cny_per_hour:,.2f}",
                      "energy": f"{b.energy_cny_per_hour:,.2f}"}
            exempt = (name, b.buy.date, b.rent.date)
            if b.card_hours is None:
                out.append(Sentence(say("rent_always", lang, **values), marks, exempt=exempt,
                                    derived=(round(b.rent_cny_per_hour, 2), round(b.energy_cny_per_hour, 2))))
            else:
                hours, days = b.card_hours, b.days_round_the_clock or 0.0
                out.append(Sentence(say("break_even", lang, hours=whole(hours), days=whole(days),
                                      months=f"{days / 30.4:,.1f}", **values), marks, exempt=exempt,
                                    derived=(round(hours), round(days), round(days / 30.4, 1),
                                             round(b.rent_cny_per_hour, 2), round(b.energy_cny_per_hour, 2))))
        return out

    def _rows(self, f: Facts, gpu: str, attributes: list[str], top_k: int) -> list[Sentence]:
        """A card's record rows for `attributes`, without its notes: figures said beside some other answer."""
        return [Sentence(text, [self._cite(f, chunk, top_k)])
                for chunk, text in spec_facts(self._groups.get(f"spec-{gpu}", []), gpu_name(gpu), attributes,
                                              f.language) if not text.startswith(("注意", "Note"))]


    def _differences(self, f: Facts, top_k: int) -> list[Sentence]:
        """'why does an a800 train slower than an a100': the figures that decide, the same ones and the ones
        that differ (the A800's NVLink), for the two cards named."""
        decide = ["compute", "bandwidth", "vram", "nvlink", "power"]
        topics = [t for t in why_topics(f.question) if t != "vram"]  # ("大模型" says nothing about which figure)
        return self._ratio(f, top_k, [*topics, *[a for a in decide if a not in topics]])

    def _memory_across_units(self, f: Facts, top_k: int, gpus: list[str],
                             figures: tuple[tuple[float, str], tuple[float, str]],
                             label: dict[str, str]) -> tuple[list[Sentence], bool]:
        """Two cards' memory when one record gives decimal GB (a vendor datasheet) and the other GiB: both in GiB,
        the decimal one converted (48 GB = 44.7 GiB), so the ratio compares like with like; where the driver reports
        the same total for both ("80 GB" and "80 GiB" of the same HBM3), they are the same. Also whether they are."""
        if {u for _, u in figures} != {"GB", "GiB"}:
            return [], False
        sheet = {g: f"{v:g} {u}" for g, (v, u) in zip(gpus, figures, strict=True)}
        markers = list(dict.fromkeys(self._cite(f, self._part_with(g, v), top_k)
                                     for g, (v, _) in zip(gpus, figures, strict=True) if self._groups.get(f"spec-{g}")))
        drivers = [self._figure(g, "driver") for g in gpus]
        if all(drivers) and len({d[0] for d in drivers if d}) == 1:
            text = say("ratio_units_same", f.language, a=label[gpus[0]], b=label[gpus[1]], sa=sheet[gpus[0]],
                       sb=sheet[gpus[1]])
            return [Sentence(text, markers, exempt=(label[gpus[0]], label[gpus[1]]))], True
        gib_of = {g: v * 1e9 / GIB if u == "GB" else v for g, (v, u) in zip(gpus, figures, strict=True)}
        shown = {g: f"{sheet[g]} = {gib_of[g]:.1f} GiB" if u == "GB" else sheet[g]
                 for g, (_, u) in zip(gpus, figures, strict=True)}
        hi, lo = sorted(gpus, key=lambda g: -gib_of[g])
        ratio, diff = gib_of[hi] / gib_of[lo], gib_of[hi] - gib_of[lo]
        text = say("ratio_units", f.language, a=label[hi], b=label[lo], ratio=f"{ratio:.2f}", va=shown[hi],
                   vb=shown[lo], diff=f"{diff:.1f}")
        return [Sentence(text, markers, exempt=(label[hi], label[lo]),
                         derived=(round(ratio, 2), round(diff, 1), *(round(v, 1) for v in gib_of.values())))], False

    def _ratio(self, f: Facts, top_k: int, attributes: list[str] | None = None) -> list[Sentence]:
        """Two cards' figure for each asked attribute as a ratio, first: "how much more bandwidth" (and price)."""
        gpus = [g for g in f.gpus if g != "a100-40gb" or len(f.gpus) == 2][:2]
        if len(gpus) != 2:
            return []
        if attributes is None and f.asked != "comparison":  # "A100 的显存带宽" names one card, even when the record
            return []  # is two
        said: list[Sentence] = []
        same: list[Sentence] = []  # the figures both cards share: said after those that differ
        unasked: list[Sentence] = []
        asked = attributes or f.intent.attributes
        if asked == KEY_FIGURES:  # "h800 跟 h100 有啥不一样": besides the figures that decide, what else differs
            asked = [*KEY_FIGURES, "nvlink", "power", "price"]
        if f.how_many and "price" in asked:  # "一张 a100 的钱能买几张 4070，显存加起来多少": the count first
            asked = ["price", *[a for a in asked if a != "price"]]
        n = {g: f.counts.get(g) or 1 for g in gpus}
        sets = any(c > 1 for c in n.values())  # "4 张 4090 和 1 张 a100 哪个总显存大": the sets, not one card each
        label = {g: cards(n[g], gpu_name(g), f.language) if n[g] > 1 else gpu_name(g) for g in gpus}
        for attr in asked:
            one_a, one_b = self._figure(gpus[0], attr), self._figure(gpus[1], attr)
            if one_a is None or one_b is None or not one_a[0] or not one_b[0]:
                continue
            if one_a[1] != one_b[1]:  # "48 GB" against "24 GiB": compared as the driver reports each
                found, equal = self._memory_across_units(f, top_k, gpus, (one_a, one_b), label) if attr == "vram" \
                    else ([], False)
                (same if equal else said).extend(found)
                continue
            k = sets and attr in SUMMED
            a = (one_a[0] * n[gpus[0]], one_a[1]) if k else one_a
            b = (one_b[0] * n[gpus[1]], one_b[1]) if k else one_b
            single = {gpus[0]: one_a[0], gpus[1]: one_b[0]}
            if a[0] == b[0]:  # "一样吗": the same figure is the answer
                markers = [self._cite(f, self._part_with(g, single[g]), top_k) for g in gpus
                           if self._groups.get(f"spec-{g}")]
                text = say("ratio_same", f.language, a=label[gpus[0]], b=label[gpus[1]], va=f"{a[0]:g}",
                           metric=say(f"metric.{attr}", f.language), unit=a[1])
                (same if attr in (attributes or f.intent.attributes) else unasked).append(
                    Sentence(text, markers, exempt=(label[gpus[0]], label[gpus[1]]), derived=(a[0],)))
                continue
            (hi, (vh, unit)), (lo, (vl, _)) = sorted(((gpus[0], a), (gpus[1], b)), key=lambda x: -x[1][0])
            ratio = vh / vl
            markers = [self._cite(f, self._part_with(g, single[g]), top_k) for g in (hi, lo)
                       if self._groups.get(f"spec-{g}")]
            more, less = (vh / vl - 1) * 100, (1 - vl / vh) * 100  # "in %": both ways, as people ask either
            pct = say("ratio_pct", f.language, b=label[lo], more=f"{more:.1f}", less=f"{less:.1f}") \
                if _PERCENT.search(f.question) else ""
            name = label if k else {g: gpu_name(g) for g in gpus}  # a figure not summed is one card's
            text = say("ratio", f.language, a=name[hi], b=name[lo], metric=say(f"metric.{attr}", f.language),
                       ratio=f"{ratio:.2f}", va=f"{vh:g}", vb=f"{vl:g}", unit=unit, diff=f"{vh - vl:g}", pct=pct)
            # The figures are the records' own (times the counts said); the ratio is computed from them.
            out = [Sentence(text, markers, exempt=(name[hi], name[lo]),
                            derived=(round(ratio, 2), round(vh - vl, 6), vh, vl, round(more, 1), round(less, 1)))]
            if attr == "price" and f.how_many:  # "一张 A100 的钱够买几张 4090", "the price of 8 a100s"
                money, each = single[hi] * n[hi], single[lo]
                buys = int(money // each)
                key = "price_buys_set" if n[hi] > 1 else "price_buys"
                out.append(Sentence(say(key, f.language, a=gpu_name(hi), b=gpu_name(lo), n=buys, count=n[hi],
                                        money=whole(money), each=whole(each), spent=whole(buys * each),
                                        left=whole(money - buys * each)),
                                    markers, exempt=(gpu_name(hi), gpu_name(lo)),
                                    derived=(float(buys), money, buys * each, money - buys * each, float(n[hi]))))
                others = [a for a in asked if a in SUMMED]  # "…and how much vram is that combined"
                out += self._totals(f, [(lo, buys)], top_k, others) if others else []
            said += out
        return said + same + unasked[:1]  # a figure not asked for is said when it differs
