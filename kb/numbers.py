"""Reading the numbers a text states: one reader for the answer verifier, the records' checker and the tests.

A number is 16,384 (thousands separators join one number) or 19.5 or 8; digits glued to a letter or a dot
before them are names (A100, FP16, x16, v5), not figures. A multiplier after a number is the same quantity
written another way (1.9万 = 19000, 2 billion, 3.35 TB/s = 3350 GB/s), and a range shares its multiplier
("1-2万"). URLs, section references (§9.1) and NVIDIA's 2:4 sparsity are not figures. A fraction (1/8) is
also its quotient.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

GIB = 1024**3  # bytes in a GiB: kb's memory unit (contracts: GiB for capacities and needs)

NUMBER = re.compile(r"(?<![A-Za-z0-9.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d|\.\d)|\d+(?:\.\d+)?)")
# Longest first: 万亿 before 万, 千亿 before 千.
_SCALES = (("万亿", 1e12), ("千亿", 1e11), ("亿", 1e8), ("万", 1e4), ("千", 1e3), ("TB", 1e3),
           ("trillion", 1e12), ("billion", 1e9), ("million", 1e6), ("thousand", 1e3))
_SCALE = re.compile(r"\s*(" + "|".join(re.escape(s) for s, _ in _SCALES) + r")(?![a-z])", re.IGNORECASE)
_FACTOR = {s.lower(): f for s, f in _SCALES}
_RANGE_TO = re.compile(r"\s*[-~～到至]\s*")
_FRACTION = re.compile(r"(?<![A-Za-z0-9.])(\d+)\s*/\s*(\d+)(?![\d.])")
_SKIP = re.compile(r"https?://\S+|§\s*\d+(?:\.\d+)?|(?<![\d.])2:4(?![\d.])")


@dataclass(frozen=True)
class Num:
    """One number of a text: as written (with its multiplier), its plain value, and the scaled one if any."""

    text: str  # "1.9万"
    digits: str  # "1.9": the number's own digits, which give the precision it was written with
    value: float  # 1.9
    scaled: float | None  # 19000.0

    @property
    def values(self) -> frozenset[float]:
        return frozenset(_key(v) for v in (self.value, self.scaled) if v is not None)


def _key(x: float) -> float:
    return round(x, 6)


def _scale_at(text: str, pos: int) -> tuple[str, float] | None:
    m = _SCALE.match(text, pos)
    return (m.group(0), _FACTOR[m.group(1).lower()]) if m else None


def read_numbers(text: str) -> list[Num]:
    """Every number of `text`, in order, each with its multiplier (a range's first number shares its end's)."""
    return _read(_SKIP.sub(" ", text))


def _read(text: str) -> list[Num]:
    found = list(NUMBER.finditer(text))
    out: list[Num] = []
    for i, m in enumerate(found):
        digits = m.group(1)
        value = float(digits.replace(",", ""))
        scale = _scale_at(text, m.end())
        if scale is None and i + 1 < len(found) and _RANGE_TO.fullmatch(text, m.end(), found[i + 1].start()):
            scale = _scale_at(text, found[i + 1].end())  # "1-2万": the 1 is 10,000 too
            written = digits
        else:
            written = digits + (scale[0].strip() if scale else "")
        out.append(Num(written, digits, value, value * scale[1] if scale else None))
    return out


def number_values(text: str) -> set[float]:
    """Every value the numbers of `text` may stand for: "1.9万" is 1.9 and 19000; "1/8" is also 0.125."""
    text = _SKIP.sub(" ", text)
    values = {v for n in _read(text) for v in n.values}
    values |= {_key(int(a) / int(b)) for a, b in _FRACTION.findall(text) if int(b)}
    return values
