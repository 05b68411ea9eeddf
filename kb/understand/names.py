"""The one registry of names a question may use: GPUs, models, and the ones kb has no record for.

GPU names come from the spec records (`aliases`, and `default_for` where one bare name covers several
records: "A100" is read as the 80GB card, with a note); model names from the presets (their ids, read
with any spacing — "llama3 70b", "Llama-3-70B" — and `PRESET_ALIASES`); names kb lacks from
`kb.understand.lexicon`. Nothing else in kb lists a GPU or model name: a new record or preset is recognised in
questions as soon as it exists.

Matching is over the lower-cased NFKC text; longer names win, and a name never matches inside a longer
word or number ("4070" is not read inside "4070 ti", "l4" not inside "l40s").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from indexer.chunks import read_front_matter
from kb.understand.lexicon import UNKNOWN_GPUS, UNKNOWN_MODELS

_SEP = r"[\s_.-]*"
_EDGE_L = r"(?<![a-z0-9.])"
_EDGE_R = r"(?![a-z0-9])"
_SPEC_WORD = r"(?=(?:bf16|fp16|fp32|fp8|int8|int4|tf32|nvlink|pcie|hbm|gddr|vram|tdp|tensor)(?![a-z]))"
# A family's other names in questions (the presets' ids use the first).
FAMILY_SYNONYMS: dict[str, tuple[str, ...]] = {"qwen": ("通义千问", "千问"), "deepseek": ("深度求索",)}


@dataclass(frozen=True)
class Found:
    """One name found in a question: the record or preset id (None: a name kb lacks), where, and how."""

    kind: str  # "gpu" | "model"
    id: str | None
    start: int
    end: int
    default_of: str | None = None  # the bare family name read as this record ("a100"), for a note


@dataclass
class _Entry:
    source: str  # compiled on first use: most names never occur in a question (saves ~0.1 s of a cold kb ask)
    kind: str
    id: str | None
    default_of: str | None = None
    key: str = ""  # a literal every match contains: entries whose key is absent are not run (~10x fewer)
    _compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled


def _key(alias: str, model: bool) -> str:
    tokens = _tokens(alias, model)
    return tokens[0] if model else max(tokens, key=len)


def _tokens(alias: str, model: bool) -> list[str]:
    """An alias's parts: split at spaces and hyphens, and for models also where letters meet digits."""
    parts = [p for p in re.split(r"[\s_-]+", alias.lower().strip()) if p]
    if not model:
        return parts
    out: list[str] = []
    for p in parts:
        out += re.findall(r"[a-z]+|\d+(?:\.\d+)?(?:x\d+)?[a-z]?|[^\sa-z\d]+", p)
    return out


def _token_pattern(token: str, model: bool) -> str:
    if model and re.fullmatch(r"\d+(?:\.\d+)?(?:x\d+)?[a-z]", token):  # "70b", "8x7b": "70 b", "8 x 7b"
        pieces = re.findall(r"\d+(?:\.\d+)?|x|[a-z]", token)
        return r"\s*".join(re.escape(p) for p in pieces)
    return re.escape(token)


def _alias_pattern(alias: str, model: bool) -> str:
    body = _SEP.join(_token_pattern(t, model) for t in _tokens(alias, model))
    if model:
        return f"{_EDGE_L}{body}{_EDGE_R}"
    # "4090s", "4090x2" (two of them), and a spec word run on ("H100带宽" is fine already; "B200BF16 算力")
    # ... and a count glued before it: "2x4090", "4×h100"
    return rf"(?:{_EDGE_L}|(?<=\dx)|(?<=\d\*))(?:nvidia{_SEP}|geforce{_SEP})?{body}(?:s|es)?" \
           rf"(?:{_EDGE_R}|(?=[x*]\s*\d)|{_SPEC_WORD})"


def _model_aliases(preset: str, extra: tuple[str, ...]) -> list[str]:
    names = [preset, *extra]
    for family, synonyms in FAMILY_SYNONYMS.items():
        names += [n.replace(family, s, 1) for n in list(names) if n.startswith(family) for s in synonyms]
    return names


class Registry:
    """Finds GPU and model names, known and unknown, in a question's normalised text."""

    def __init__(self, gpu_aliases: dict[str, tuple[list[str], list[str]]],
                 model_aliases: dict[str, tuple[str, ...]]) -> None:
        entries: list[_Entry] = []
        for gid, (aliases, defaults) in gpu_aliases.items():
            entries += [_Entry(_alias_pattern(a, False), "gpu", gid, None, _key(a, False))
                        for a in {gid, *aliases}]
            entries += [_Entry(_alias_pattern(a, False), "gpu", gid, a, _key(a, False)) for a in defaults]
        for preset, extra in model_aliases.items():
            entries += [_Entry(_alias_pattern(a, True), "model", preset, None, _key(a, True))
                        for a in _model_aliases(preset, extra)]
        entries += [_Entry(f"{_EDGE_L}(?:{p}){_EDGE_R}", "gpu", None) for p in UNKNOWN_GPUS]
        entries += [_Entry(f"{_EDGE_L}(?:{p}){_EDGE_R}", "model", None) for p in UNKNOWN_MODELS]
        self._entries = entries
        self.gpu_ids = tuple(gpu_aliases)
        self.model_ids = tuple(model_aliases)

    def find(self, text: str) -> list[Found]:
        """Every name in `text` (lower-cased NFKC), non-overlapping: the longest at each place; a record's or
        preset's name beats an unknown one of the same length."""
        hits: list[tuple[int, int, int, _Entry]] = []
        for e in self._entries:
            if e.key and e.key not in text:
                continue
            for m in e.pattern.finditer(text):
                if m.end() > m.start():
                    hits.append((m.start(), m.end(), 0 if e.id else 1, e))
        hits.sort(key=lambda h: (-(h[1] - h[0]), h[2], h[0]))
        taken: list[tuple[int, int]] = []
        out: list[Found] = []
        for start, end, _, e in hits:
            if any(start < b and a < end for a, b in taken):
                continue
            taken.append((start, end))
            out.append(Found(e.kind, e.id, start, end, e.default_of))
        return sorted(out, key=lambda f: f.start)


def record_aliases(corpus_dir: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each spec record's GPU id → (aliases, bare names it is the default for), from its front matter."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for path in sorted((corpus_dir / "specs").glob("*.md")):
        meta, _ = read_front_matter(path)
        if meta.get("gpu"):
            out[str(meta["gpu"])] = ([str(a) for a in meta.get("aliases") or []],
                                     [str(a) for a in meta.get("default_for") or []])
    return out


@lru_cache(maxsize=8)
def registry_for(corpus_dir: Path) -> Registry:
    """The registry of one corpus's records and kb's presets, built once a process."""
    from kb.fit.presets import PRESET_ALIASES, PRESETS

    models = {p: PRESET_ALIASES.get(p, ()) for p in PRESETS}
    return Registry(record_aliases(corpus_dir), models)
