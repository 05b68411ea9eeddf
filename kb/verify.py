"""Every number in an answer sentence must be in what its markers cite; a sentence that fails is not shown.

"In what it cites" means: the number, written with at most the precision the sentence uses, is one of
the cited object's figures. A passage's figures are the numbers in its text (both languages), heading and
section; a fit check's and a selection's are their numeric fields and the numbers in their words. Unit
changes a reader can redo count as the same figure, and are the only ones allowed: bytes → GiB or GB,
parameters → billions, hours → days, a fraction → a percentage, 万/亿 → the plain number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

GIB = 1024**3
_NUM = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_SCALED = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(万亿|千亿|亿|万)")
_RANGE_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*[-~～到至]\s*(\d+(?:\.\d+)?)\s*(万亿|千亿|亿|万)")
_SCALE = {"万亿": 1e12, "千亿": 1e11, "亿": 1e8, "万": 1e4}
_EN_SCALED = re.compile(r"(\d+(?:\.\d+)?)\s*(trillion|billion|million|thousand)\b", re.IGNORECASE)
_EN_SCALE = {"trillion": 1e12, "billion": 1e9, "million": 1e6, "thousand": 1e3}
MARKER = re.compile(r"\[(?:\d+|F\d+|S)\]")
_BYTES = re.compile(r"bytes$")
_PARAMS = re.compile(r"params$")
_HOURS = re.compile(r"hours$")


def _value(text: str) -> float:
    return float(text.replace(",", ""))


def text_figures(text: str) -> set[float]:
    """The numbers a text states: as written, and with its scale words applied (1.9万 → 19000, 2 billion)."""
    out = {_value(m.group(0)) for m in _NUM.finditer(text)}
    out |= {_value(m.group(1)) * _SCALE[m.group(2)] for m in _SCALED.finditer(text)}
    out |= {float(m.group(1)) * _SCALE[m.group(3)] for m in _RANGE_SCALED.finditer(text)}
    out |= {float(m.group(1)) * _EN_SCALE[m.group(2).lower()] for m in _EN_SCALED.finditer(text)}
    return out


def _walk(obj: Any, key: str, out: set[float]) -> None:
    if isinstance(obj, bool) or obj is None:
        return
    if isinstance(obj, int | float):
        x = float(obj)
        out.add(x)
        if _BYTES.search(key) or key in {"weights", "gradients", "optimizer", "activations", "kv_cache",
                                          "overhead"}:
            out.update({x / GIB, x / 1e9})
        if _PARAMS.search(key):
            out.add(x / 1e9)
        if _HOURS.search(key):
            out.add(x / 24)
        if 0 < x <= 1:
            out.add(x * 100)
    elif isinstance(obj, str):
        out.update(text_figures(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _walk(v, str(k), out)
    elif isinstance(obj, list | tuple):
        for v in obj:
            _walk(v, key, out)


def object_figures(obj: BaseModel | dict[str, Any]) -> set[float]:
    """A fit check's or selection's figures: every number it holds, with the unit changes above."""
    out: set[float] = set()
    _walk(obj.model_dump() if isinstance(obj, BaseModel) else obj, "", out)
    return out


def _matches(written: str, figures: Iterable[float]) -> bool:
    """Whether a number as written equals a figure rounded to the written precision (146 ≈ 145.64)."""
    value = _value(written)
    decimals = len(written.split(".")[1]) if "." in written else 0
    step = 10.0 ** -decimals
    tolerance = max(step / 2 + 1e-9, 0.005 * value if value >= 1000 else 0.0)
    return any(abs(f - value) <= tolerance for f in figures)


def unsupported(sentence: str, figures: set[float], exempt: Iterable[str] = ()) -> list[str]:
    """The numbers in `sentence` that none of `figures` supports (names in `exempt` are skipped)."""
    text = MARKER.sub(" ", sentence)
    for name in exempt:
        text = text.replace(name, " ")
    written = [m.group(0) for m in _NUM.finditer(text)]
    scaled = [(m.group(0), _value(m.group(1)) * _SCALE[m.group(2)]) for m in _SCALED.finditer(text)]
    missing = []
    for w in written:
        if _matches(w, figures):
            continue
        if any(w in whole and _matches(f"{v:.0f}", figures) for whole, v in scaled):
            continue
        missing.append(w)
    return missing
