"""Which GPU kb knows a table cell names: the spec records' ids, names and `aliases:` lists.

A cell and every name are compared squeezed (lower case; spaces, hyphens, "nvidia", "geforce" dropped),
longest name first, so "RTX 4060 Ti 16GB" is not read as an RTX 4060. A name two records share
("A100" for the 40 GB and the 80 GB card) names neither: the row is text, not a price fact.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from indexer.chunks import split_front_matter

_SQUEEZE = re.compile(r"[\s\-_·/（）()]+|nvidia|geforce|amd|intel|habana|instinct")


def squeeze(text: str) -> str:
    return _SQUEEZE.sub("", text.lower())


@lru_cache(maxsize=1024)
def _key_pattern(key: str) -> re.Pattern[str]:
    """A squeezed name found in a spaced cell: its characters with separators allowed between them, and a name
    ending in a digit not followed by one ("A10" is not in "A100 40G"; "4090" is in "4090 24G")."""
    return re.compile(r"\s*".join(map(re.escape, key)) + (r"(?!\d)" if key[-1].isdigit() else ""))


def _spaced(text: str) -> str:
    """The cell with its separators and makers' words as single spaces, so a name's last digit has a boundary."""
    return _SQUEEZE.sub(" ", text.lower())


def _names(corpus_dir: Path) -> tuple[tuple[str, frozenset[str]], ...]:
    return _names_in(_specs(str(corpus_dir)))


@lru_cache(maxsize=8)
def _specs(corpus_dir: str) -> Path:
    """The corpus's specs folder, resolved once (a realpath a call cost seconds over a 10,000-row sheet)."""
    return Path(corpus_dir).resolve() / "specs"


@lru_cache(maxsize=4)
def _any_name(specs_dir: Path) -> re.Pattern[str]:
    """Every name at once: most cells of a large sheet name no card, and one search says so."""
    return re.compile("|".join(re.escape(k) for k, _ in _names_in(specs_dir)))


@lru_cache(maxsize=4)
def _names_in(specs_dir: Path) -> tuple[tuple[str, frozenset[str]], ...]:
    by_name: dict[str, set[str]] = {}
    for path in sorted(specs_dir.glob("*.md")):
        meta, _ = split_front_matter(path.read_text(encoding="utf-8"), str(path))
        gpu = str(meta["gpu"])
        names = {gpu, str(meta.get("name", "")), *[str(a) for a in meta.get("aliases") or []]}
        if gpu.startswith("rtx-"):
            names.add(gpu.removeprefix("rtx-"))  # "4090" alone names the card in Chinese price lists
        if gpu.endswith("-sxm"):
            names.add(gpu.removesuffix("-sxm"))
        for n in names:
            key = squeeze(n)
            if len(key) >= 2:
                by_name.setdefault(key, set()).add(gpu)
    ordered = sorted(by_name.items(), key=lambda kv: -len(kv[0]))
    return tuple((k, frozenset(v)) for k, v in ordered)


def gpu_named(cell: str, corpus_dir: Path) -> str | None:
    """The id of the one GPU `cell` names (longest name first), else None."""
    text = squeeze(cell)
    if not text or not _any_name(_specs(str(corpus_dir))).search(text):
        return None
    spaced = _spaced(cell)
    for key, ids in _names(corpus_dir):
        if key in text and _key_pattern(key).search(spaced):  # (the substring test first: 10,000-row sheets)
            return next(iter(ids)) if len(ids) == 1 else None
    return None


def shared_name(cell: str, corpus_dir: Path) -> tuple[str, ...]:
    """The cards a name in `cell` could be when it names several ("A100": the 40 GB and the 80 GB), else ()."""
    text = squeeze(cell)
    if len(text) < 3:
        return ()
    names = _names(corpus_dir)
    for key, ids in names:
        if key in text:
            return tuple(sorted(ids)) if len(ids) > 1 else ()
    cards = {gpu for key, ids in names if key.startswith(text) for gpu in ids}  # "A100": a100-40gb, a100-80gb
    return tuple(sorted(cards)) if len(cards) > 1 else ()


def gpus_named(text: str, corpus_dir: Path) -> list[str]:
    """Every GPU `text` names, longest name first and each part of the text read once ("H100 和 H200")."""
    rest, found = squeeze(text), []
    if not rest or not _any_name(_specs(str(corpus_dir))).search(rest):
        return []
    for key, ids in _names(corpus_dir):
        if key in rest:
            rest = rest.replace(key, "\0")
            if len(ids) == 1:
                found.append(next(iter(ids)))
    return list(dict.fromkeys(found))
