"""The vocabulary kb reads questions with, as data: terms by kind in kb/understand/vocabulary/*.yaml, found as words.

A term is a literal in Chinese or English ("显存", "memory bandwidth", "fine tune"). Matching is the same for
every term, so a synonym is a line of data, not a pattern: case is ignored; a space in a term matches any run
of spaces, hyphens or underscores, or none ("fine tune" finds "finetune" and "fine-tune"); a term that begins
or ends with a Latin letter or digit only matches whole words there (not the "ram" of "program"); an English
term of three letters or more also matches its plural, and one ending in "*" matches any word it begins
("quantiz*": "quantize", "quantization"); where terms overlap the longest wins ("显存带宽" is bandwidth, not
memory), then the first found.

    python -m kb.understand.terms --count     # how many terms each file holds, cues apart from vocabulary
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import NamedTuple

import yaml

FOLDER = Path(__file__).resolve().parent / "vocabulary"
# Files whose terms are cues (how a question asks: operations, negations, pointers) rather than names of things.
CUE_FILES = ("cues.yaml",)


class Hit(NamedTuple):
    """One term found: its kind ("attribute"), its key ("bandwidth"), and where it stands in the text."""

    kind: str
    key: str
    start: int
    end: int


@dataclass(frozen=True)
class Terms:
    """Every term of some kinds, compiled into one pattern, and what each matched text means."""

    pattern: re.Pattern[str]
    meaning: dict[str, tuple[tuple[str, str], ...]]  # squeezed term → ((kind, key), …)

    def find(self, text: str, kinds: tuple[str, ...] = ()) -> list[Hit]:
        """The terms in `text` (already NFKC-normalised or not; offsets are into `text` as given)."""
        folded = fold(text)
        hits: list[Hit] = []
        for m in self.pattern.finditer(folded):
            for kind, key in self.meaning.get(_squeeze(m.group(0)), ()) or self._stem(m.group(0)):
                if not kinds or kind in kinds:
                    hits.append(Hit(kind, key, m.start(), m.end()))
        return hits

    def _stem(self, found: str) -> tuple[tuple[str, str], ...]:
        """What a match of a word's beginning ("quantiz*" in "quantization") means: its longest stem's meaning."""
        s = _squeeze(found)
        return next((self.meaning[s[:n] + "*"] for n in range(len(s), 0, -1) if s[:n] + "*" in self.meaning), ())

    def first(self, text: str, kind: str) -> str | None:
        """The key of the first term of `kind` in `text`, if any."""
        return next((h.key for h in self.find(text, (kind,))), None)


def fold(text: str) -> str:
    """NFKC and lower case, keeping offsets where NFKC keeps lengths (full-width letters and digits)."""
    normal = unicodedata.normalize("NFKC", text)
    return (normal if len(normal) == len(text) else text).lower()


def _squeeze(term: str) -> str:
    return re.sub(r"[\s_\-]+", "", term.lower().rstrip("*"))


def _regex(term: str, plural: bool) -> str:
    stem = term.endswith("*")  # "quantiz*": a word's beginning, any ending ("quantize", "quantization")
    word = term.rstrip("*").strip().lower()
    parts = [re.escape(p) for p in re.split(r"[\s_\-]+", word) if p]
    body = r"[\s_\-]*".join(parts)
    if plural and not stem and re.fullmatch(r"[a-z][a-z ]{2,}", word) and not word.endswith("s"):
        body += "s?"
    head = r"(?<![a-z0-9])" if re.match(r"[a-z0-9]", word) else ""
    tail = r"(?![a-z0-9])" if re.search(r"[a-z0-9]$", word) and not stem else ""
    return head + body + tail


def _entries(data: object, kind: str = "") -> list[tuple[str, str, str]]:
    """(kind, key, term) for a file's mapping: kind → key → [terms], or kind → [terms] (the key is the kind)."""
    out: list[tuple[str, str, str]] = []
    if isinstance(data, dict):
        for name, value in data.items():
            if kind:
                out += [(kind, str(name), str(t)) for t in value]
            elif isinstance(value, list):
                out += [(str(name), str(name), str(t)) for t in value]
            else:
                out += _entries(value, str(name))
    return out


@cache
def _file(name: str) -> tuple[tuple[str, str, str], ...]:
    with open(FOLDER / name, encoding="utf-8") as fh:
        return tuple(_entries(yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))))


@cache
def terms(*files: str) -> Terms:
    """The terms of these vocabulary files (by name, e.g. "attributes.yaml"), compiled once a process."""
    meaning: dict[str, list[tuple[str, str]]] = {}
    regexes: dict[str, str] = {}
    for name in files:
        for kind, key, term in _file(name):
            squeezed = _squeeze(term) + ("*" if term.endswith("*") else "")
            if (kind, key) not in meaning.setdefault(squeezed, []):
                meaning[squeezed].append((kind, key))
            regexes.setdefault(squeezed, _regex(term, plural=True))
            if re.fullmatch(r"[a-z][a-z ]{2,}", term.lower()) and not term.lower().endswith("s"):  # ("user" → "users")
                meaning.setdefault(squeezed + "s", []).extend(
                    m for m in meaning[squeezed] if m not in meaning.get(squeezed + "s", []))
    ordered = sorted(regexes, key=len, reverse=True)  # longest first: an alternation takes the first that fits
    pattern = re.compile("|".join(regexes[s] for s in ordered))
    return Terms(pattern, {k: tuple(v) for k, v in meaning.items()})


def count() -> dict[str, int]:
    """Terms a file, for the report beside the count of hand-written pattern alternatives."""
    return {path.name: len(_file(path.name)) for path in sorted(FOLDER.glob("*.yaml"))}


if __name__ == "__main__":
    if "--count" in sys.argv:
        counts = count()
        for name, n in counts.items():
            print(f"{name:24s} {n:5d}  {'cues (phrasings)' if name in CUE_FILES else 'vocabulary'}")
        cues = sum(n for name, n in counts.items() if name in CUE_FILES)
        print(f"cues {cues}, vocabulary {sum(counts.values()) - cues}")

