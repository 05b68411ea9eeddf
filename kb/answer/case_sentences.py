"""The sentences of a question about one of the guide's deployment cases: the part of the case that answers it,
its cards priced, billed or summed at the counts it or the question gives, and the asker's what-ifs through the
case's own figures (kb/answer/case_whatif.py).

The Composer mixes this in; the record-backed writers it draws on (prices, bills, totals, rows) are
kb/answer/record_sentences.py's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from indexer.chunks import Chunk
from kb.answer.case_whatif import what_if
from kb.answer.facts import case_facts
from kb.answer.parts import Facts, Sentence
from kb.answer.record_sentences import RecordSentences
from kb.fit.gpus import card_family
from kb.models import Passage
from kb.retrieve.focus import case_terms
from kb.understand.intent import asks_power_bill
from kb.words.answer import gpu_name, whole
from kb.words.catalog import say


class CaseCards(NamedTuple):
    """What a case's hardware part says of its cards, read once a question."""

    hardware: list[Chunk]
    counts: dict[str, int]  # the cards it counts (those asked about, when it names any)
    named: set[str]  # the card families it names, counted or not


def _title_tokens(text: str) -> set[str]:
    """Words of a title or question to compare: Latin words and numbers, and pairs of Chinese characters."""
    lower = text.lower()
    han = re.findall(r"[\u4e00-\u9fff]+", lower)
    return set(re.findall(r"[a-z0-9]+", lower)) | {run[i:i + 2] for run in han for i in range(len(run) - 1)}


# How a case what-if's numbers are shown (the rest as whole amounts): a factor and a share as written, a need to
# one decimal, counts whole.
_WHATIF_SHOWN: dict[str, Callable[[float], str]] = {
    "factor": lambda v: f"{v:g}", "share": lambda v: f"{v:g}", "need": lambda v: f"{v:.1f}",
    "n": lambda v: f"{v:.0f}", "whole": lambda v: f"{v:.0f}"}
# Two parts of a case's hardware priced against each other: "how many times", "倍", "more than … side".
_SIDES_ASKED = re.compile(r"倍|times|ratio|比.{0,20}(?:贵|便宜|多|少)|(?:more|less|cheaper|dearer|pricier) than",
                          re.IGNORECASE)  # (not "vs": "the 4090 workstations vs an equivalent a100 system" is a claim)
# "what did it cost compared with the a100 route": the case's own comparison answers; the card's price follows
_AGAINST_ROUTE = re.compile(r"compared|versus|(?<![a-z])vs\.?(?![a-z])|相比|对比|比起|than", re.IGNORECASE)


class CaseSentences(RecordSentences):
    """The case writers; the Composer sets `_cards_in` (the cards a case's text counts) with the rest."""

    _cards_in: Callable[[str], dict[str, int]]

    def _case(self, f: Facts, top_k: int) -> list[Sentence]:
        group = self._case_group(f)
        if group is None:
            return []
        found = case_facts(self._groups.get(group, []), f.question, f.language)
        out = [Sentence(text, [self._cite(f, chunk, top_k)]) for chunk, text in found]
        cards = self._case_cards(f, group)  # read once: each of the sentences below draws on it
        lacks = self._case_lacks(f, cards, top_k)
        if f.asked in ("cost", "price") and asks_power_bill(f.question):  # "那 128 张 a100 一年电费多少"
            counted = {card_family(g) for g in cards.counts}
            named = [(g, f.counts.get(g) or 1) for g in f.gpus  # "产线上 4060 的分析单元 一个": a card it names
                     if card_family(g) in cards.named and card_family(g) not in counted]  # but does not count
            out = [s for g, n in [*cards.counts.items(), *named] for s in self._power_bill(f, g, top_k, n)] + out
        elif f.asked in ("price", "cost") or (f.asked == "comparison" and "price" in f.intent.attributes):
            # "光显卡钱多少": the case's cards at the guide's per-card prices
            counted = {card_family(g) for g in cards.counts}
            rows = [s for g in f.gpus if card_family(g) not in counted  # a card it names but does not count
                    for s in self._rows(f, g, ["price"], top_k)]
            sides = [[g] for g in cards.counts] if len(cards.counts) == 2 and _SIDES_ASKED.search(f.question) else []
            versus = self._priced_sides(replace(f, counts={**f.counts, **cards.counts}), sides, top_k) if sides \
                else []  # "how many times more does the a100 side cost than the 4090 side": the two set side by side
            cost = self._case_cards_cost(f, cards, top_k)
            out = versus + (out + cost + rows if _AGAINST_ROUTE.search(f.question) else cost + rows + out)
        elif [a for a in f.intent.attributes if a != "price"]:  # "那个工厂的 2 张 4090 总显存和功耗"
            out = self._case_figures(f, cards, top_k) + out
        return lacks + self._case_whatif(f, group, cards, top_k) + out

    def _case_whatif(self, f: Facts, group: str, cards: CaseCards, top_k: int) -> list[Sentence]:
        """An amount the asker gives, taken through the case's own figures (kb/answer/case_whatif.py), in words."""
        parts = self._groups.get(group, [])
        found = what_if(f.question, "\n".join(c.text for c in parts), sum(cards.counts.values()), f.budget_cny)
        if found is None:
            return []
        shown = {k: _WHATIF_SHOWN.get(k, whole)(v) for k, v in found.numbers.items()}
        unit = say("unit.cny", f.language) if found.money else ""
        cite = self._cite(f, next((c for c in parts if found.quote in c.text), parts[0]), top_k)
        return [Sentence(say(found.key, f.language, quote=found.quote, unit=unit, **shown), [cite],
                         derived=tuple(float(v) for v in found.numbers.values()))]

    def _case_lacks(self, f: Facts, cards: CaseCards, top_k: int) -> list[Sentence]:
        """'how many a100s in the medical case': none; the cards it counts instead."""
        if not cards.hardware or not cards.counts or all(card_family(x) in cards.named for x in f.gpus):
            return []
        listed = ("、" if f.language == "zh" else ", ").join(
            say("n_cards", f.language, n=n, gpu=gpu_name(g)) for g, n in cards.counts.items())
        name = gpu_name(f.gpus[0]) if len(f.gpus) == 1 else re.sub(r"\s+\d+GB$", "", gpu_name(f.gpus[0]))
        return [Sentence(say("case_lacks", f.language, gpu=name, cards=listed),
                         [self._cite(f, cards.hardware[0], top_k)], exempt=(name,))]

    def _case_figures(self, f: Facts, cards: CaseCards, top_k: int) -> list[Sentence]:
        """A figure asked of a case's cards: summed over the count the question or the case gives, or the card's
        own row when it is one card or the case counts none ("the clinic boxes use a 4070: how much vram")."""
        counts = {**cards.counts, **{g: n for g, n in f.counts.items() if n}}
        attrs = [a for a in f.intent.attributes if a != "price"]
        summed = {card_family(g) for g, n in counts.items() if n > 1}
        rows = [s for g in f.gpus if card_family(g) not in summed and card_family(g) in cards.named
                for s in self._rows(f, g, attrs, top_k)]  # (not the A100 a case does not use)
        return self._totals(f, list(counts.items()), top_k) + rows

    def _case_cards(self, f: Facts, group: str) -> CaseCards:
        """A case's hardware part, the cards it counts (only those asked about, when the question names any of
        its cards) and the card families it names at all."""
        hardware = [c for c in self._groups.get(group, []) if re.search(r"硬件|hardware", c.text, re.IGNORECASE)]
        text = "\n".join(c.text for c in hardware)
        counts = self._cards_in(text) if hardware else {}
        named = {card_family(g) for g in self._gpus_named(text)}
        asked = {card_family(x) for x in f.gpus}  # "a100" asks the case's A100s, whichever size it counts
        if asked & named:  # "its 128 a100s" (a case that names none of them: its own cards, said as such)
            counts = {g: n for g, n in counts.items() if card_family(g) in asked}
        return CaseCards(hardware, counts, named)

    def _case_cards_cost(self, f: Facts, cards: CaseCards, top_k: int) -> list[Sentence]:
        """A case's cards at the guide's prices, at the count the question gives where it gives one ("30 个研究员
        每人 4 张 4090": 120) and the case's own otherwise."""
        if not cards.counts:
            return []
        counts = {g: f.counts.get(g) or n for g, n in cards.counts.items()}
        return self._priced_cards(f, "case_cards_cost", list(counts.items()),
                                  [self._cite(f, cards.hardware[0], top_k)], top_k)

    def case_named(self, question: str, passages: list[Passage]) -> str | None:
        """The guide case a question names ("the university team case", "医疗影像那个"), found among the cases and
        sections `passages` hold as an answer finds it; None where it names none of them by its own words."""
        bare = re.sub(r"案例|(?<![a-z])(?:case(?:s| study)?)(?![a-z])", " ", question, flags=re.IGNORECASE)
        found = sorted(self._case_scores(bare, passages).items(), key=lambda gs: -gs[1])  # ("案例" is every case's)
        if not found or found[0][1] <= 0 or (len(found) > 1 and found[1][1] == found[0][1]):
            return None
        return found[0][0]

    def _case_group(self, f: Facts) -> str | None:
        """The case a question is about: of the cases found, and those of the guide sections found ("创业公司案例"
        finds §9.2), the one whose title shares most with the question (its words, and the cases' words for who
        it is about), the first found on a tie."""
        found = [self._chunks_by_id[p.id].group for p in f.passages[:3]
                 if p.kind == "case" and p.id in self._chunks_by_id]
        score = self._case_scores(f.question, f.passages)
        best = max(score, key=lambda g: (score[g], g in found, -found.index(g) if g in found else 0), default=None)
        if best is not None and (best in found or score[best] > 0):
            return best
        return None

    def _case_scores(self, question: str, passages: list[Passage]) -> dict[str, int]:
        """Each case found or near what was found, scored by how much of its title and subject the question says."""
        found = [self._chunks_by_id[p.id].group for p in passages[:3]
                 if p.kind == "case" and p.id in self._chunks_by_id]
        sections = {p.section for p in passages[:3] if p.kind == "guide"}
        asked, terms = _title_tokens(question), case_terms(question)
        nearby = [g for g in self._groups if g.startswith("case-") and (  # "smart manufacturing case": by name, too
            g.split("-")[1] in sections or any(t in self._groups[g][0].heading for t in terms))]
        said = set(re.findall(r"(?<![\d.])(\d{1,2}\.\d)(?![\d.%])", question))  # "6.4 金融科技那个": its section
        nearby += [g for g in self._groups if g.startswith("case-") and g.split("-")[1] in said]
        # "what did the fintech company use for inference": of two fintech cases, the one whose text has an
        # inference part (a workload the question names, found in the case's own words)
        work = [w for w, p in (("推理", r"推理|inference|serv(?:e|ing)"), ("训练", r"训练|train"))
                if re.search(p, question, re.IGNORECASE)]
        return {g: len(asked & _title_tokens(self._groups[g][0].heading))
                + 2 * sum(t in self._groups[g][0].heading for t in terms) + 3 * (g.split("-")[1] in said)
                + sum(w in c.text for w in work for c in self._groups[g][:1])
                for g in dict.fromkeys(found + nearby)}
