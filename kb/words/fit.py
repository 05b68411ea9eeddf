"""The renderer of the fit engine's Notes, in English and Chinese.

The arithmetic (kb.fit) computes numbers once and returns Notes (a key and its values); `render` picks
the sentence for the language from the words catalog (kb/words/catalog/fit.py) and formats the same
values into it (a card's id as its name). So a Chinese check carries the same numbers, formatted the same way,
as the English one, and adding a sentence means adding one entry there with both templates
(tests/kb/fit/test_fit_language.py checks that both name the same placeholders).
"""

from __future__ import annotations

import re
from typing import Any

from kb.language import Language
from kb.words.answer import gpu_name
from kb.words.catalog import has, say
from kb.words.note import Note


def workload_name(workload: str, language: Language) -> str:
    """A workload as a sentence names it: the id in English, 推理/全参数训练/… in Chinese."""
    return say(f"workload.{workload}", language) if has(f"workload.{workload}") else workload


def alternative_note(alt: Any) -> Note:
    """A FitResult alternative as a Note (its words come from the catalog, like every other sentence)."""
    gib = alt.per_gpu_required_bytes / 2**30
    if alt.change == "workload":
        return Note("alt.workload", {"workload": Note(f"workload.{alt.workload}"), "count": alt.gpu_count, "gib": gib})
    if alt.change == "zero":
        return Note("alt.zero", {"stage": alt.zero_stage, "count": alt.gpu_count, "gib": gib})
    if alt.change == "rank":
        return Note("alt.rank", {"rank": alt.lora_rank, "count": alt.gpu_count, "gib": gib})
    if alt.change == "precision":
        return Note("alt.precision", {"precision": alt.precision, "count": alt.gpu_count, "gib": gib})
    return Note(f"alt.{alt.change}", {"count": alt.gpu_count, "gib": gib})


def serving_note(s: Any) -> Note:
    """FitResult.serving in one sentence."""
    speed: Any = ""
    if s.aggregate_decode_tokens_per_s is not None:
        speed = Note("serving_speed", {"aggregate": s.aggregate_decode_tokens_per_s,
                                       "per_seq": s.per_sequence_decode_tokens_per_s, "ttft": s.ttft_s})
    return Note("serving_line", {"concurrency": s.concurrency, "context": s.context_tokens,
                                 "tokens": s.kv_tokens_capacity, "max": s.max_concurrent_sequences, "speed": speed})


def _value(v: Any, language: Language, key: str = "") -> Any:
    if isinstance(v, Note):
        return render(v, language)
    if isinstance(v, list) and v and all(isinstance(x, Note) for x in v):
        return " + ".join(render(x, language) for x in v)
    if isinstance(v, str):
        return _shown(key, v, language)
    return v


_GPU_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _shown(key: str, v: str, language: Language) -> str:
    """A value the arithmetic keeps as an id, as a person reads it: a card's id is its name (rtx-4090 → RTX 4090),
    the figures a check read are named by where they come from, never by a record's id."""
    if key == "gpu" and _GPU_ID.fullmatch(v):
        return gpu_name(v)
    if v.startswith("spec-"):
        return say("figures.published", language)
    if v.startswith("--"):
        return say("figures.given", language)
    return v


def render(n: Note, language: Language) -> str:
    """One Note as a sentence in `language` ('zh' or 'en'); Notes inside it are rendered too."""
    if n.key == "joined":  # pieces of one sentence, written one after another
        return "".join(_value(p, language) for p in n.values["parts"])
    return say(n.key, language, **{k: _value(v, language, k) for k, v in n.values.items()})


def render_all(notes: list[Note], language: Language) -> list[str]:
    return [render(n, language) for n in notes]
