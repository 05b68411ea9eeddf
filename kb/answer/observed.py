"""What people observed, judged: a measured rate, a day's training tokens or an out-of-memory set beside kb's bound.

"I get 7 tokens/s for a 14B int4 on a 4090, normal?" wants kb's decode bound for that model on that card and
which side of it the observation is on; "8 A100s, 20B tokens a day" wants the most those cards can train in a
day, and "35k tokens/s on 8 4090s" the utilisation that implies. The bound is kb's own arithmetic (a decode
roofline, or 6 × parameters × tokens over the cards' dense peak), so the judgement cites the check or the
record it came from; the usual causes are said in words, never as a figure.
"""

from __future__ import annotations

from collections.abc import Callable

from kb.answer.parts import Facts, Sentence
from kb.understand.asks import Observed
from kb.words.answer import gpu_name, rate, workload_phrase
from kb.words.catalog import say

# How far below a bound an observation must be to be called slow, and above it to be called impossible: an
# engine rarely reaches more than ~80 % of a decode roofline, so 50 % is slow and 110 % cannot be right.
SLOW = 0.5
ABOVE = 1.1


def _side(share: float, language: str) -> str:
    key = "observed.above" if share > ABOVE else "observed.slow" if share < SLOW else "observed.near"
    return say(key, language)  # type: ignore[arg-type]


def _decode(f: Facts, seen: Observed, figure: Callable[[str, str], tuple[float, str] | None],
            cite: Callable[[str, float], str]) -> list[Sentence]:
    """A measured decode rate beside the roofline of the check for the same model, card and precision (a check that
    fits at a short prompt; else the weights read once a token over the card's bandwidth, which is what the asker's
    own run shows does fit)."""
    if not f.checks:
        return []
    first = f.checks[0]
    runs = [(i, c) for i, c in enumerate(f.checks, 1) if c.decode_tokens_per_s and c.fits
            and (c.gpu, c.gpu_count) == (first.gpu, first.gpu_count)]
    what = workload_phrase(first.model, first.workload, first.precision, f.language)
    if runs:
        i, best = max(runs, key=lambda ic: ic[1].decode_tokens_per_s or 0.0)  # (a short prompt, as people measure)
        bound, context, markers = best.decode_tokens_per_s or 0.0, f"{best.seq_len:,}", [f"F{i}"]
    else:
        bandwidth = figure(first.gpu, "bandwidth")
        weights = first.breakdown.weights
        if bandwidth is None or not weights:
            return []
        bound = bandwidth[0] * 1e9 * first.gpu_count / weights
        context, markers = "256", ["F1", cite(first.gpu, bandwidth[0])]
    share = seen.value / bound
    return [Sentence(say("observed.decode", f.language, seen=rate(seen.value), bound=rate(bound),
                         share=f"{share * 100:.0f}", side=_side(share, f.language), what=what,
                         count=first.gpu_count, gpu=gpu_name(first.gpu), context=context),
                     markers, exempt=(gpu_name(first.gpu),),
                     derived=(seen.value, round(share * 100), bound, 256.0))]


def _train(f: Facts, seen: Observed, figure: Callable[[str, str], tuple[float, str] | None],
           cite: Callable[[str, float], str]) -> list[Sentence]:
    """Training tokens a second over all the cards, beside what their dense peak allows at 100 % and at kb's MFU."""
    if f.checks:
        gpu, count, params = f.checks[0].gpu, f.checks[0].gpu_count, float(f.checks[0].model_params)
    elif f.model is not None and f.gpus:
        gpu, count, params = f.gpus[0], f.counts.get(f.gpus[0], 1), float(f.model[1])
    else:
        return []
    peak = figure(gpu, "compute")
    if peak is None:
        return []
    full = count * peak[0] * 1e12 / (6 * params)  # tokens/s at 100 % of the dense peak
    implied, day = seen.value / full, 86400
    per_day = 1e8 if f.language == "zh" else 1e9  # (亿 in Chinese, billions in English)
    return [Sentence(say("observed.train", f.language, count=count, gpu=gpu_name(gpu), peak=f"{peak[0]:g}",
                         params=f"{params / 1e9:.1f}", seen=f"{seen.value:,.0f}",
                         seen_day=f"{seen.value * day / per_day:,.1f}", full=f"{full:,.0f}",
                         full_day=f"{full * day / per_day:,.1f}", mfu_day=f"{full * f.mfu * day / per_day:,.1f}",
                         mfu=f"{f.mfu * 100:.0f}", implied=f"{implied * 100:.0f}",
                         side=_side(implied / f.mfu, f.language)),
                     [cite(gpu, peak[0])], exempt=(gpu_name(gpu), "BF16"),
                     derived=(seen.value, seen.value * day / per_day, full, full * day / per_day,
                              full * f.mfu * day / per_day, round(implied * 100), params / 1e9, float(count),
                              f.mfu * 100, 100.0))]


def observed_sentences(f: Facts, seen: Observed | None,
                       figure: Callable[[str, str], tuple[float, str] | None],
                       cite: Callable[[str, float], str]) -> list[Sentence]:
    """The judgement of what the asker observed, first in the answer; nothing when kb has no bound for it."""
    if seen is None:
        return []
    if seen.kind == "decode":
        out = _decode(f, seen, figure, cite)
    elif seen.kind == "train":
        out = _train(f, seen, figure, cite)
    else:
        return []
    slow = bool(out) and any(say("observed.slow", f.language) in s.text for s in out)
    return [*out, Sentence(say(f"observed.causes_{seen.kind}", f.language), [])] if slow else out
