"""Checking a record's numbers against the guide (records are parsed by indexer.chunks.split_front_matter).

The honesty rule (corpus/README.md, enforced by tests/corpus/test_corpus_records.py): a `doc` figure's quote
is verbatim in its section, and every number in a record's title and body is in the cited sections'
text or among the record's figures (value, quote, or a vendor/derived figure's note). The table
generator runs `unsupported_numbers` on what it writes, by kb's one reading of "a number" (kb/numbers.py,
the answer verifier's too), so a computed table cannot state a number it did not declare.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from kb.numbers import number_values, read_numbers

_CHAPTER = re.compile(r"^## (\d+) ")
_SUBSECTION = re.compile(r"^### (\d+\.\d+) ")


@lru_cache(maxsize=4)
def guide_sections(corpus_dir: Path) -> dict[str, str]:
    """Section id -> text of guide.md, heading included; a chapter's text includes its subsections."""
    sections: dict[str, list[str]] = {}
    chapter: str | None = None
    sub: str | None = None
    for line in (corpus_dir / "guide.md").read_text(encoding="utf-8").splitlines():
        if m := _CHAPTER.match(line):
            chapter, sub = m.group(1), None
            sections[chapter] = []
        elif m := _SUBSECTION.match(line):
            sub = m.group(1)
            sections[sub] = []
        if chapter is not None:
            sections[chapter].append(line)
        if sub is not None:
            sections[sub].append(line)
    return {k: "\n".join(v) for k, v in sections.items()}


def unsupported_numbers(meta: dict[str, Any], body: str, corpus_dir: Path) -> list[str]:
    """Numbers in the title and body found neither in the cited sections' text nor among the figures."""
    texts = guide_sections(corpus_dir)
    cited = [str(meta.get("section", ""))] + [str(s) for s in meta.get("sections") or []]
    allowed: set[float] = set()
    for sid in cited:
        allowed |= number_values(texts.get(sid, ""))
    for fig in (meta.get("figures") or {}).values():
        if isinstance(fig.get("value"), int | float):
            allowed.add(round(float(fig["value"]), 6))
        allowed |= number_values(str(fig.get("quote") or ""))
        if fig.get("source") in ("vendor", "derived"):
            allowed |= number_values(f"{fig.get('note') or ''} {fig.get('ref') or ''}")
    text = f"{meta.get('title') or ''}\n{body}"
    return sorted({n.text for n in read_numbers(text) if not (n.values & allowed)})
