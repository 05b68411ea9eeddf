"""How many of one card match another's figure: "how many 4090s to match one A100 80GB's memory, and is that
cheaper?" — the count that reaches the figure, and what those cards cost beside the one they stand in for.

Both figures and both prices come from the cards' records and are cited; the count and the sums are this
module's arithmetic, handed to the number check as derived figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from kb.answer.parts import Facts, Sentence
from kb.numbers import GIB
from kb.words.answer import gpu_name, whole
from kb.words.catalog import say

Figure = Callable[[str, str], tuple[float, str] | None]


def _in_gib(value: tuple[float, str]) -> float:
    return value[0] * 1e9 / GIB if value[1] == "GB" else value[0]  # (a datasheet's decimal GB beside GiB)


def matched(f: Facts, attribute: str, figure: Figure, cite: Callable[[str, float], str]) -> list[Sentence]:
    """The count of the smaller card that reaches the larger's figure, and the two sides' prices where known."""
    named = [g for g in dict.fromkeys(f.gpus) if figure(g, attribute) is not None][:2]
    if len(named) < 2:
        return []
    values = {g: figure(g, attribute) for g in named}
    size = {g: _in_gib(v) if attribute == "vram" else v[0] for g, v in values.items() if v}
    big, small = sorted(named, key=lambda g: -size[g])
    n_big = f.counts.get(big, 1)
    need = math.ceil(n_big * size[big] / size[small] - 1e-9)
    unit = "GiB" if attribute == "vram" else values[big][1]  # type: ignore[index]
    lang = f.language
    metric = say(f"metric.{attribute}", lang)
    markers = list(dict.fromkeys(cite(g, values[g][0]) for g in (big, small)))  # type: ignore[index]
    out = [Sentence(say("match", lang, n=n_big, big=gpu_name(big), metric=metric, total=f"{n_big * size[big]:,.4g}",
                        unit=unit, need=need, small=gpu_name(small), got=f"{need * size[small]:,.4g}"),
                    markers, exempt=(gpu_name(big), gpu_name(small)),
                    derived=(float(need), n_big * size[big], need * size[small], size[big], size[small], float(n_big)))]
    prices = {g: figure(g, "price") for g in (big, small)}
    if all(prices.values()):
        pb, ps = n_big * prices[big][0], need * prices[small][0]  # type: ignore[index]
        key = "match_cheaper" if ps < pb else "match_dearer"
        out.append(Sentence(say(key, lang, need=need, small=gpu_name(small), cost=whole(ps), n=n_big,
                                big=gpu_name(big), other=whole(pb), diff=whole(abs(pb - ps))),
                            list(dict.fromkeys(cite(g, prices[g][0]) for g in (big, small))),  # type: ignore[index]
                            exempt=(gpu_name(big), gpu_name(small)), derived=(ps, pb, abs(pb - ps), float(need),
                                                                              float(n_big))))
    return out
