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


@lru_cache(maxsize=4)
def _names(specs_dir: Path) -> tuple[tuple[str, frozenset[str]], ...]:
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
    if not text:
        return None
    for key, ids in _names(Path(corpus_dir).resolve() / "specs"):
        if re.search(re.escape(key) + (r"(?!\d)" if key[-1].isdigit() else ""), text):  # no "a10" in "a100"
            return next(iter(ids)) if len(ids) == 1 else None
    return None
