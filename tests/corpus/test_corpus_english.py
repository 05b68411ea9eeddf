"""The English rendering (corpus/en/) says what the Chinese says: line for line, the same figures, no Chinese.

Line k of corpus/en/<path> renders body line k of corpus/<path> (the guide: line k; a record: the k-th
line after its front matter). Each English line carries exactly the figures of its Chinese line (as a set:
a gloss may repeat one; 万/亿 and thousand/million/billion normalised; a range sharing one scale word read
at both ends), keeps its
structure (heading level and section id, list item, table columns, blank), and has no Chinese outside
parentheses. That no English line adds a claim is a reviewer's job; these checks catch the mechanical
slips (a dropped line, a changed figure, a lost heading id) that would misalign citations.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.paths import REPO

CORPUS = REPO / "corpus"
EN = CORPUS / "en"
SOURCES = sorted(p for p in CORPUS.rglob("*.md")
                 if p.name not in ("README.md", "glossary.md") and p.relative_to(CORPUS).parts[0] != "en")
NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
ZH_SCALE = {"万亿": 1e12, "千亿": 1e11, "亿": 1e8, "万": 1e4}
EN_SCALE = {"trillion": 1e12, "billion": 1e9, "million": 1e6, "thousand": 1e3, "m": 1e6}


def body(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[0].strip() == "---":
        close = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        lines = lines[close + 1:]
    return lines[:-1] if lines and lines[-1] == "" else lines


def figures(line: str, scales: dict[str, float], scale_pattern: str) -> list[float]:
    """The numbers on a line, scale words applied; '50-100万' is 500,000 and 1,000,000."""
    out: list[float] = []
    spans: list[tuple[int, int]] = []
    for m in re.finditer(rf"({NUM})\s*[-–~至到]\s*({NUM})\s*({scale_pattern})", line, re.IGNORECASE):
        k = scales[m.group(3).lower()]
        out += [float(m.group(1).replace(",", "")) * k, float(m.group(2).replace(",", "")) * k]
        spans.append(m.span())
    for m in re.finditer(rf"({NUM})\s*({scale_pattern})", line, re.IGNORECASE):
        if not any(s <= m.start() < e for s, e in spans):
            out.append(float(m.group(1).replace(",", "")) * scales[m.group(2).lower()])
            spans.append(m.span())
    rest = "".join(" " if any(s <= i < e for s, e in spans) else ch for i, ch in enumerate(line))
    out += [float(m.group(0).replace(",", "")) for m in re.finditer(NUM, rest)]
    return sorted(round(x, 6) for x in out)


def zh_figures(line: str) -> set[float]:
    """A Chinese line's figures; its English glosses ("(1-2 million CNY)") are read as English."""
    return set(figures(line, ZH_SCALE | EN_SCALE, "万亿|千亿|亿|万|trillion|billion|million|thousand"))


def en_figures(line: str) -> set[float]:
    return set(figures(line, EN_SCALE, r"trillion|billion|million|thousand|m\b(?= ?CNY| ?yuan)"))


def shape(line: str) -> str:
    s = line.strip()
    if not s:
        return "blank"
    if m := re.match(r"(#+)\s*(\d+(?:\.\d+)?\s)?", s):
        return f"h{len(m.group(1))}:{(m.group(2) or '').strip()}"
    if s.startswith("|"):
        return f"table:{s.count('|')}"
    if re.match(r"[-*]\s", s):
        return "item"
    return "text"


@pytest.mark.parametrize("source", SOURCES, ids=[str(p.relative_to(CORPUS)) for p in SOURCES])
def test_english_renders_the_chinese_line_for_line(source: Path) -> None:
    rel = source.relative_to(CORPUS)
    rendering = EN / rel
    if rel.parts[0] == "tables" and not rendering.exists():
        pytest.skip("computed tables get their English from the generator")
    assert rendering.is_file(), f"no English rendering of {rel} at {rendering.relative_to(CORPUS.parent)}"
    zh, en = body(source), body(rendering)
    assert len(en) == len(zh), f"{rel}: {len(zh)} Chinese lines, {len(en)} English"
    problems = []
    for n, (z, e) in enumerate(zip(zh, en, strict=True), 1):
        if shape(z) != shape(e):
            problems.append(f"line {n}: {shape(z)} rendered as {shape(e)}")
        if zh_figures(z) != en_figures(e):
            problems.append(f"line {n}: figures {zh_figures(z)} vs {en_figures(e)}")
        if len(re.findall(r"[\u4e00-\u9fff]", re.sub(r"[(（][^)）]*[)）]", "", e))) > 2:
            problems.append(f"line {n}: Chinese outside parentheses")
    assert not problems, f"{rel}:\n" + "\n".join(problems)


def test_the_checks_can_fail() -> None:
    """A changed figure, a scaled amount and a shared-scale range are each read as the Chinese reads them."""
    assert zh_figures("价格约为1.9万元") == en_figures("about 19,000 CNY")
    assert zh_figures("预算50-100万元：") == en_figures("Budget 500,000-1,000,000 CNY:")
    assert zh_figures("显存24GB") != en_figures("VRAM 32GB")
    assert shape("### 3.2 A100技术规格") == shape("### 3.2 A100 specifications") != shape("### 3.3 A100")
