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

from kb.numbers import GIB, number_values, read_numbers

MARKER = re.compile(r"\[(?:\d+|F\d+|S)\]")
_BYTES = re.compile(r"bytes$")
_PARAMS = re.compile(r"params$")
_HOURS = re.compile(r"hours$")


def text_figures(text: str) -> set[float]:
    """The numbers a text states: as written, and with its multipliers applied (1.9万 → 19000, 2 billion)."""
    return number_values(text)


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
    value = float(written.replace(",", ""))
    decimals = len(written.split(".")[1]) if "." in written else 0
    step = 10.0 ** -decimals
    tolerance = max(step / 2 + 1e-9, 0.005 * value if value >= 1000 else 0.0)
    return any(abs(f - value) <= tolerance for f in figures)


def unsupported(sentence: str, figures: set[float], exempt: Iterable[str] = ()) -> list[str]:
    """The numbers in `sentence` that none of `figures` supports (names in `exempt` are skipped)."""
    text = MARKER.sub(" ", sentence)
    for name in sorted(exempt, key=len, reverse=True):  # "H200" before "H20", which would leave its 0
        text = text.replace(name, " ")
    missing = []
    for n in read_numbers(text):
        if _matches(n.digits, figures) or (n.scaled is not None and _matches(f"{n.scaled:.0f}", figures)):
            continue
        missing.append(n.text)
    return missing
