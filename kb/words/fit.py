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


GIB_BYTES = 2**30
TERM_ORDER = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")


def _terms(breakdown: Any) -> list[Note]:
    return [Note("total_term", {"term": Note(f"term.{k}"), "gib": getattr(breakdown, k) / GIB_BYTES})
            for k in TERM_ORDER if getattr(breakdown, k)]


def total_note(r: Any) -> Note:
    """A FitResult's (or MemoryNeed's) total first, with its terms.

    "… needs 140.2 GiB in all: weights 128.5 GiB + …"."""
    o = getattr(r, "offload", None)
    host: Any = ""
    if o is not None and o.host_required_bytes:
        host = Note("total_host", {"host": o.host_required_bytes / GIB_BYTES})
    elif o is not None and o.nvme_required_bytes:
        host = Note("total_nvme", {"nvme": o.nvme_required_bytes / GIB_BYTES})
    return Note("total_line", {"model": r.model, "workload": Note(f"workload.{r.workload}"), "precision": r.precision,
                               "total": r.total_required_bytes / GIB_BYTES, "host": host,
                               "terms": _terms(r.breakdown)})


def cards_note(r: Any) -> Note:
    """The per-card verdict after the total: "on 2 × A100 80GB, 70.1 GiB a card against 80.0 GiB: fits"."""
    fits = r.per_gpu_required_bytes <= r.per_gpu_available_bytes  # (the cards' own verdict; offload's host is apart)
    return Note("total_cards", {"count": r.gpu_count, "gpu": r.gpu, "per_gpu": r.per_gpu_required_bytes / GIB_BYTES,
                                "available": r.per_gpu_available_bytes / GIB_BYTES,
                                "outcome": Note("fits" if fits else "nofit")})


def need_note(n: Any) -> Note:
    """A card kb has no record of, no memory stated: the memory a card the check would need."""
    return Note("total_need", {"gpu": n.gpu, "count": n.gpu_count, "per_gpu": n.per_gpu_required_bytes / GIB_BYTES})


def support_note(s: Any) -> Note:
    """A PrecisionSupport in one sentence: whether and how the card computes the format, and what runs instead."""
    cc = s.compute_capability if s.compute_capability[:1].isdigit() else "—"
    return Note(f"support.{s.mode}", {"gpu": s.gpu, "arch": s.architecture, "cc": cc, "precision": s.precision,
                                      "workload": Note(f"workload.{s.workload}"), "instead": " / ".join(s.instead)})


def feature_note(f: Any) -> Note:
    """A CardFeature ("does card X support Y") in one sentence, its detail (NVLink GB/s, MIG instances) included."""
    name = Note(f"feature.{f.feature}")
    if f.feature in ("architecture", "compute_capability"):
        return Note("feature.value", {"gpu": f.gpu, "feature": name, "value": f.value})
    if f.feature == "ecc":
        return Note("feature.value", {"gpu": f.gpu, "feature": name, "value": Note(f"ecc_state.{f.value}")})
    if f.feature == "nvlink":
        kind = str(f.value)
        if kind == "unknown":
            return Note("feature.unknown", {"gpu": f.gpu, "feature": name})
        if kind == "none":
            return Note("feature.no", {"gpu": f.gpu, "feature": name, "detail": ""})
        if kind in ("infinity-fabric", "hccs", "roce"):
            gbs: Any = Note("feature.gbs", {"gbs": f.detail}) if f.detail else ""
            return Note("feature.other_fabric", {"gpu": f.gpu, "kind": Note(f"nvlink_kind.{kind}"), "gbs": gbs})
        detail: Any = Note("feature.nvlink_detail", {"kind": Note(f"nvlink_kind.{kind}"), "gbs": f.detail}) \
            if f.detail else ""
        return Note("feature.yes", {"gpu": f.gpu, "feature": name, "detail": detail})
    if f.value is None:
        return Note("feature.unknown", {"gpu": f.gpu, "feature": name})
    detail = ""
    if f.feature == "mig" and f.value:
        detail = Note("feature.mig_detail", {"n": f.detail})
    elif f.feature in ("bf16", "fp8", "fp4") and str(f.detail)[:1].isdigit():
        detail = Note("feature.cc_detail", {"cc": f.detail})
    return Note("feature.yes" if f.value else "feature.no", {"gpu": f.gpu, "feature": name, "detail": detail})


def offload_note(o: Any) -> Note:
    """FitResult.offload in one sentence: what went where, and whether the stated host memory holds it."""
    what = Note(f"offload.{o.what}")
    if o.device == "nvme":
        return Note("offload_line_nvme", {"what": what, "nvme": f"{(o.nvme_required_bytes or 0) / GIB_BYTES:,.1f} GiB"})
    available: Any = ""
    if o.host_available_bytes is not None and o.host_fits is not None:
        available = Note("offload_available", {"available": f"{o.host_available_bytes / GIB_BYTES:,.0f} GiB",
                                               "outcome": Note("fits" if o.host_fits else "nofit")})
    host = f"{(o.host_required_bytes or 0) / GIB_BYTES:,.1f} GiB"
    return Note("offload_line", {"what": what, "device": Note("offload.cpu"), "host": host, "available": available})

