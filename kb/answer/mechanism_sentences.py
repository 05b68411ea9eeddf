"""The sentences of a why-question about a mechanism: how it works, then the question's own figures for it.

The mechanism (kb/understand/mechanisms.py finds it, kb/words/catalog/why.py words it) carries no figures; the figures
beside it are the first fit check's — weights at 16-bit and at the asked format, KV tokens at the asked context
and twice it — each a product of the check's own numbers, passed to the verifier as `derived`.
"""

from __future__ import annotations

import re

from kb.answer.parts import Facts, Sentence
from kb.fit.precision import QUANTISED
from kb.fit.result import FitResult
from kb.language import Language
from kb.numbers import GIB
from kb.understand.mechanisms import card_capacity_gb, mechanisms
from kb.words.answer import gib, gpu_name, whole
from kb.words.catalog import cards, say

_NAMES = re.compile(r"\S*\d\S*")  # "ZeRO-3", "int4", "16-bit": names in the wording, not figures


def mechanism_sentences(f: Facts) -> list[Sentence]:
    """How the asked mechanisms work, each followed by what it comes to in the question's first check."""
    out: list[Sentence] = []
    check = f.checks[0] if f.checks else None
    for topic in mechanisms(f.question):
        text = say(f"mech.{topic}", f.language)
        out.append(Sentence(text, [], exempt=tuple(_NAMES.findall(text))))
        if check is not None and topic == "quantize":
            out += _quantized(check, card_capacity_gb(f.question), f.language)
        elif topic == "qlora":  # "why can qlora tune a 13b on a 4090 when lora can't": the base in 16 and 4 bits
            out += _qlora_base(f.checks, f.language)
        elif check is not None and topic == "context_users":
            out += _context_users(check, f.language)
    return out


def _quantized(c: FitResult, capacity_gb: float | None, lang: Language) -> list[Sentence]:
    """'why quantize a 13b to int4 for a 16gb card': its weights in 16-bit and in the format, against the card."""
    if c.precision not in QUANTISED or not c.model_params or not c.breakdown.weights:
        return []
    full, low = c.model_params * 2, float(c.breakdown.weights)
    precision = c.precision.upper()
    out = [Sentence(say("mech.quantize_figures", lang, model=c.model, full=gib(full), low=gib(low),
                        precision=precision), ["F1"], exempt=(c.model, precision), derived=(full / GIB,))]
    if capacity_gb is not None:
        cap = capacity_gb * 1e9
        verdict = ("mech.quantize_card.both" if low < cap <= full else
                   "mech.quantize_card.neither" if cap <= low else "mech.quantize_card.all")
        out.append(Sentence(say("mech.quantize_card", lang, cap=f"{capacity_gb:g}", cap_gib=gib(cap),
                                verdict=say(verdict, lang, precision=precision)),
                            ["F1"], exempt=(precision,), derived=(capacity_gb, cap / GIB)))
    return out


def _qlora_base(checks: list[FitResult], lang: Language) -> list[Sentence]:
    """The frozen base's weights in 16-bit (LoRA) and in 4-bit (QLoRA), from the question's QLoRA check."""
    i, c = next(((i, c) for i, c in enumerate(checks, 1) if c.workload == "qlora"), (0, None))
    if c is None or not c.model_params or not c.breakdown.weights:
        return []
    full, low = c.model_params * 2, float(c.breakdown.weights)
    return [Sentence(say("mech.quantize_figures", lang, model=c.model, full=gib(full), low=gib(low),
                         precision="4-bit"),
                     [f"F{i}"], exempt=(c.model, "4-bit", "4 位", "16-bit", "16 位"), derived=(full / GIB, low / GIB))]


def _context_users(c: FitResult, lang: Language) -> list[Sentence]:
    """'why does doubling the context cut the users': the check's KV tokens at its context and at twice it."""
    s = c.serving
    if s is None or not c.fits or not s.kv_tokens_capacity or s.max_concurrent_sequences != \
            s.kv_tokens_capacity // s.context_tokens:
        return []  # (a cap other than the KV cache sets the count: the halving would not be the whole story)
    c1, c2 = s.context_tokens, 2 * s.context_tokens
    n2 = s.kv_tokens_capacity // c2
    return [Sentence(say("mech.context_users_figures", lang, cards=cards(c.gpu_count, gpu_name(c.gpu), lang),
                         tokens=whole(s.kv_tokens_capacity), n1=s.max_concurrent_sequences, c1=f"{c1:,}",
                         n2=n2, c2=f"{c2:,}"),
                     ["F1"], exempt=(gpu_name(c.gpu),), derived=(float(c2), float(n2)))]
