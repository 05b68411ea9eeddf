"""The repository stands alone: a clone with nothing beside it runs the same tests as CI.

Nothing in the code, the tests, the corpus or the docs reaches outside the repository — no `../shared` folder
beside it, no machine's absolute path. What kb's tests read is its own (the starter sets in tests/eval/dev/, the
source document in tests/fixtures/seed/), and facts kb relies on cite their public source. No test may skip or
pass over a file that is "not here": every one a test names exists.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.support.paths import DEV, REPO, SEED

TEXT = {".py", ".md", ".js", ".html", ".css", ".sh", ".toml", ".yaml", ".yml", ".cfg", ".json", ".jsonl", ".txt", ".in"}
SKIP = {".git", ".venv", ".kb-index", "sources", "dist", "build", "node_modules", "__pycache__", ".mypy_cache",
        ".ruff_cache", ".pytest_cache"}
OUTSIDE = re.compile(r"\.\./shared|/work/|(?<![\w/])shared/(?:eval|reference|design|seed|tools)/")
# How the blind and voices sets were written is history: it names the folder their writers read, and says it is
# not here.
HISTORY = {"tests/eval/BLIND.md", "tests/eval/VOICES.md"}
# Tests that hold the corpus to this rule name what they forbid (a checker's pattern, a bad record to refuse).
CHECKERS = {"tests/test_standalone.py", "tests/corpus/test_corpus_records.py", "tests/corpus/test_vendor_figures.py"}


def repository_files() -> list[Path]:
    """The repository's text files, never walking into a virtualenv, an index or a cache (os.walk, pruned)."""
    out = []
    for folder, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info") and ".kb-index" not in d]
        out += [Path(folder) / f for f in files
                if Path(f).suffix in TEXT or f in ("Dockerfile", "MANIFEST.in")]
    return out


def outside(files: list[Path]) -> list[str]:
    """`file:line: text` for every line of `files` that points outside the repository."""
    found = []
    for path in files:
        rel = path.relative_to(REPO).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{rel}:{n}: {line.strip()[:120]}")
    return found


def test_nothing_reaches_outside_the_repository() -> None:
    found = outside([p for p in repository_files() if (rel := p.relative_to(REPO).as_posix()) not in HISTORY
                     and rel not in CHECKERS])
    assert not found, "\n".join(found)


def test_the_spec_records_cite_public_sources() -> None:
    found = outside(sorted((REPO / "corpus").rglob("*.md")))
    assert not found, "\n".join(found)


def test_the_history_says_the_shared_folder_is_not_here() -> None:
    for rel in HISTORY:
        head = (REPO / rel).read_text(encoding="utf-8")[:800]
        assert "outside this repository" in head and "dev/" in head, rel


def test_what_the_tests_read_is_the_repositorys_own() -> None:
    assert {p.name for p in DEV.glob("*.jsonl")} == {"questions.jsonl", "answers.jsonl", "followups.jsonl"}
    assert SEED.is_file() and SEED.stat().st_size == 37_781
    assert (DEV / "README.md").is_file() and (SEED.parent / "README.md").is_file()


def test_no_test_skips_or_passes_over_a_missing_file() -> None:
    """A clone runs what CI runs: a test that finds its data absent fails; it never skips or `continue`s past it.
    (Skips for an optional extra that is not installed, importorskip, say so and are not about this.)"""
    missing = re.compile(r"if not [\w.\[\]\"']+\.(?:is_file|exists)\(\)[^\n]*:\s*\n\s*(?:pytest\.skip|continue)|"
                         r"\)\s+if\s+\w+\.(?:is_file|exists)\(\)\]")
    found = [p.relative_to(REPO).as_posix() for p in (REPO / "tests").rglob("*.py")
             if p.name != "test_standalone.py" and missing.search(p.read_text(encoding="utf-8"))]
    assert not found, found
