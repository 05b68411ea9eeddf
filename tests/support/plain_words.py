"""What a person reads from kb, checked for internals: the one checker the plain-words tests share.

kb's words are for the people who ask (contracts: plain words): no repository path, file or environment
variable name, no internal noun (a "record", a "preset", a passage's or a card's id), and every amount of money
with its currency and thousands separators, in Chinese as in English. What the person typed is theirs: a
match that is part of their own question is not held against kb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tests.support.paths import CORPUS

# Card ids are the API's values ("rtx-4090", "a100-80gb"); a sentence names the card ("RTX 4090", "A100 80GB").
_CARD_IDS = sorted((p.stem for p in (CORPUS / "specs").glob("*.md") if "-" in p.stem), key=len, reverse=True)
_TOP = "corpus|kb|tests|service|indexer|tools|benchmarks|deploy|scripts|docs|shared|reference|sources|specs"
_CURRENCY = r"(?:CNY|USD|RMB|元|美元|人民币)"

# What kb's own words must never hold (kind → pattern), wherever a person reads them.
INTERNALS: dict[str, re.Pattern[str]] = {
    "a repository path": re.compile(rf"\.\./|(?<![\w./-])(?:{_TOP})/[\w.]"),
    "a file name": re.compile(r"(?<![\w/.-])[\w-]+\.(?:py|md|jsonl?|ya?ml|toml|txt|sqlite|cfg|sh|js|css)\b"),
    # (llama.cpp's quantization types, Q4_K or Q8_0, and PyTorch FSDP's sharding strategies, FULL_SHARD …, are
    # names people set in their own tools, not kb's settings)
    "an environment variable": re.compile(r"\bKB_\w*|\b(?!Q\d_|(?:FULL|NO|HYBRID)_SHARD\b|SHARD_GRAD_OP\b)"
                                          r"[A-Z][A-Z0-9]+_[A-Z0-9_]*[A-Z0-9]\b"),
    "an internal noun": re.compile(r"\b(?:spec )?records?\b|\bpresets?\b|spec[- ]sheet id|记录|预设", re.IGNORECASE),
    "an internal id": re.compile(r"\b(?:spec|table|guide|case|tradeoff|glossary)-\d*[a-z][\w.-]*|\b(?:spec|table|guide|"
                                 r"case|tradeoff)-\d+(?:\.\d+)*\b|(?<![\w-])(?:" + "|".join(map(re.escape, _CARD_IDS))
                                 + r")(?![\w-])"),
}
# What a sentence of kb's must never hold where it states money.
AMOUNTS: dict[str, re.Pattern[str]] = {
    "an amount without thousands separators": re.compile(
        rf"(?<![\d.,])\d{{4,}}(?:\.\d+)?\s*{_CURRENCY}|[¥￥$]\s?\d{{4,}}(?![\d,])"),
    "an amount without its currency": re.compile(
        r"(?:\b(?:price[sd]?|costs?|priced at|rents? (?:at|for)|buy(?:ing)? (?:one|it|them) at)\b\s*(?:is|of|at|:)?"
        r"\s*(?:about|around|roughly)?\s*|(?:价格|售价|报价|单价|租金|时租|月租)(?:是|为|约|：|:|\s)*)"
        rf"(\d[\d,]*(?:\.\d+)?)(?![\d.,]|\s*(?:{_CURRENCY}|[万千]|%|倍|×|x\b|张|卡|cards?|GPUs?|tokens?|GiB|GB|"
        r"TFLOPS|W\b|kWh|hours?|小时|年|years?|\s*(?:-|–|to|到)\s*\d))"),
}


def leaks(text: str, question: str = "", *, amounts: bool = True) -> list[str]:
    """Each internal a text shows a person, as 'kind: …the words around it…'; [] when it reads plainly.

    `question` is what the person typed (anything of theirs quoted back is theirs); `amounts` also holds the
    text's money to its currency and separators (kb's own sentences; a quoted passage keeps its source's form).
    """
    asked = question.lower()
    found = []
    for kind, pattern in [*INTERNALS.items(), *(AMOUNTS.items() if amounts else ())]:
        for m in pattern.finditer(text):
            if m.group(0).strip().lower() in asked and m.group(0).strip():
                continue
            found.append(f"{kind}: …{text[max(0, m.start() - 50):m.end() + 30]}…".replace("\n", " "))
    return found


def answer_texts(answer: object) -> Iterable[tuple[str, str, bool]]:
    """(where, text, kb's own words?) for every part of an Answer a person reads: the answer, the working and
    assumptions of its fit checks, its selection's words, the passages' notes and their text (quoted from the
    corpus: held to the internals, not to kb's way of writing money)."""
    a = answer  # an Answer or its JSON as a dict
    get = (lambda o, k: o[k]) if isinstance(a, dict) else getattr
    yield "answer", get(a, "answer"), True
    for i, check in enumerate(get(a, "fit_checks")):
        for key in ("steps", "assumptions"):
            for line in get(check, key):
                yield f"fit_checks[{i}].{key}", line, True
    if (selection := get(a, "selection")) is not None:
        for key in ("excluded", "assumptions"):
            for line in get(selection, key):
                yield f"selection.{key}", line, True
    for i, passage in enumerate(get(a, "passages")):
        for note in get(passage, "notes"):
            yield f"passages[{i}].notes", note, True
        yield f"passages[{i}].text", get(passage, "text"), False
