"""corpus/guide.md is the source document converted once, line for line.

The conversion is allowed to do exactly four things (corpus/README.md):
line 1 gets a ``# `` prefix, chapter lines get ``## N ``, subsection lines
(which carry their own ``N.M`` number) get ``### ``, and ``• `` bullets become
``- ``. Undoing those must give back the seed, line for line, so that a
citation "guide.md line n" is also "source line n".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.paths import REPO, SEED

GUIDE = REPO / "corpus" / "guide.md"

CHAPTER_RE = re.compile(r"^## (\d+) (\S.*)$")
SUBSECTION_RE = re.compile(r"^### ((\d+)\.(\d+)) (\S.*)$")
SEED_SUBSECTION_RE = re.compile(r"^(\d+)\.(\d+) \S")

# The document's own numbering: chapters 1..13; subsections per chapter.
EXPECTED_SUBSECTIONS = {
    2: 3,
    3: 4,
    4: 4,
    5: 4,
    6: 4,
    7: 4,
    8: 4,
    9: 3,
    10: 4,
    11: 4,
    12: 4,
}
EXPECTED_CHAPTERS = list(range(1, 14))


def _lines(path: Path) -> list[str]:
    # splitlines: the seed has no trailing newline, guide.md has one; neither is a line.
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def guide() -> list[str]:
    return _lines(GUIDE)


@pytest.fixture(scope="module")
def seed() -> list[str]:
    """The source document as received (tests/fixtures/seed/README.md)."""
    return _lines(SEED)


def undo_conversion(line: str, lineno: int) -> str:
    """The seed line that a guide.md line was converted from."""
    if lineno == 1 and line.startswith("# "):
        return line[2:]
    m = CHAPTER_RE.match(line)
    if m:
        return m.group(2)
    m = SUBSECTION_RE.match(line)
    if m:
        return line[len("### ") :]
    if line.startswith("- "):
        return "• " + line[2:]
    return line


def test_same_number_of_lines(guide: list[str], seed: list[str]) -> None:
    assert len(guide) == len(seed), f"guide.md has {len(guide)} lines, the seed {len(seed)}"


def test_each_line_is_the_seed_line(guide: list[str], seed: list[str]) -> None:
    diffs = [
        f"line {n}: guide {g!r} -> {undo_conversion(g, n)!r} != seed {s!r}"
        for n, (g, s) in enumerate(zip(guide, seed, strict=False), start=1)
        if undo_conversion(g, n) != s
    ]
    assert not diffs, "guide.md differs from the seed beyond the conversion:\n" + "\n".join(diffs[:20])


def test_every_seed_bullet_and_subsection_was_converted(guide: list[str], seed: list[str]) -> None:
    # The undo test alone would accept a bullet or subsection line left unconverted.
    missed = [
        f"line {n}: {s!r}"
        for n, (g, s) in enumerate(zip(guide, seed, strict=False), start=1)
        if (s.startswith("• ") and not g.startswith("- ")) or (SEED_SUBSECTION_RE.match(s) and not g.startswith("### "))
    ]
    assert not missed, "seed lines left unconverted:\n" + "\n".join(missed)


def test_line_one_is_the_title(guide: list[str]) -> None:
    assert guide[0].startswith("# ")
    assert not any(line.startswith("# ") for line in guide[1:])


def test_chapters_are_1_to_13_in_order(guide: list[str]) -> None:
    chapters = [int(m.group(1)) for line in guide if (m := CHAPTER_RE.match(line))]
    assert chapters == EXPECTED_CHAPTERS


def test_subsections_are_headings_under_their_chapter(guide: list[str]) -> None:
    chapter = 0
    found: dict[int, list[int]] = {}
    for n, line in enumerate(guide, start=1):
        if m := CHAPTER_RE.match(line):
            chapter = int(m.group(1))
        elif m := SUBSECTION_RE.match(line):
            ch, sub = int(m.group(2)), int(m.group(3))
            assert ch == chapter, f"line {n}: subsection {m.group(1)} sits under chapter {chapter}"
            found.setdefault(ch, []).append(sub)
    expected = {ch: list(range(1, k + 1)) for ch, k in EXPECTED_SUBSECTIONS.items()}
    assert found == expected


def test_no_stray_heading_markup(guide: list[str]) -> None:
    # Any other line starting with '#' would be a heading the document does not have.
    stray = [
        f"line {n}: {line!r}"
        for n, line in enumerate(guide, start=1)
        if line.startswith("#") and n != 1 and not (CHAPTER_RE.match(line) or SUBSECTION_RE.match(line))
    ]
    assert not stray, "\n".join(stray)
