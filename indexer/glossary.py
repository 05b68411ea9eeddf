"""The bilingual glossary (corpus/glossary.md): English phrases → the document's Chinese terms.

English questions over a Chinese corpus get no BM25 signal on their own; translating the field's
terms through this table gives the lexical index something to match.
"""

from __future__ import annotations

import re
from pathlib import Path

GLOSSARY_FILE = "glossary.md"


def parse_glossary(path: Path) -> list[tuple[list[str], list[str]]]:
    """Rows of the `| English | 中文 |` table as ([english synonyms], [chinese terms])."""
    if not path.is_file():
        return []
    rows: list[tuple[list[str], list[str]]] = []
    in_table = False
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if len(cells) < 2:
            in_table = False
            continue
        if not in_table:
            in_table = cells[0].lower() == "english"
            continue
        if re.fullmatch(r":?-+:?", cells[0]):
            continue
        en = [s.strip().lower() for s in cells[0].split(" / ") if s.strip()]
        zh = [s.strip() for s in cells[1].split(" / ") if s.strip()]
        if en and zh:
            rows.append((en, zh))
    return rows
