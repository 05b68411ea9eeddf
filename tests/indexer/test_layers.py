"""Layers one way: service -> kb -> indexer, and tools/ above them all.

Read from the source, not by importing it: every .py file's AST, so an import inside a function, under
`if TYPE_CHECKING:` or through importlib.import_module("kb…") counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import REPO

ABOVE_INDEXER = ("kb", "service", "tools")


def imported_modules(path: Path, root: Path = REPO) -> list[tuple[int, str]]:
    """(line, module) for every import in a file, in line order; a relative import is resolved against its
    package (the folders from `root` down to the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = path.relative_to(root).with_suffix("").parts[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1] if node.level <= len(package) else ()
                found.append((node.lineno, ".".join([*base, *([node.module] if node.module else [])])))
            else:
                found.append((node.lineno, node.module or ""))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__"):
                found.append((node.lineno, node.args[0].value))
    return sorted(found)


def offending(folder: str, forbidden: tuple[str, ...], root: Path = REPO) -> list[str]:
    """`file:line module` for each import under `folder` of one of the `forbidden` packages."""
    bad = []
    for path in sorted((root / folder).rglob("*.py")):
        for line, module in imported_modules(path, root):
            if module.split(".")[0] in forbidden:
                bad.append(f"{path.relative_to(root)}:{line} {module}")
    return bad


def test_the_indexer_imports_nothing_from_kb_or_above() -> None:
    assert list((REPO / "indexer").rglob("*.py")), "no indexer sources found"
    assert offending("indexer", ABOVE_INDEXER) == []


@pytest.mark.parametrize("folder", ["kb", "indexer", "service"])
def test_nothing_shipped_imports_the_repository_tools(folder: str) -> None:
    assert offending(folder, ("tools", "tests")) == []


def test_the_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The checker itself: top-level, nested, relative and importlib imports are all found."""
    (tmp_path / "indexer").mkdir()
    source = tmp_path / "indexer" / "probe.py"
    source.write_text("import kb.cli\nfrom kb import errors\ndef f():\n    from .. import nowhere\n"
                      "    from .chunks import Chunk\n    import importlib\n    importlib.import_module('kb.fit')\n"
                      "    __import__('service.app')\n", encoding="utf-8")
    modules = [m for _, m in imported_modules(source, tmp_path)]
    bad = offending("indexer", ABOVE_INDEXER, tmp_path)
    assert modules == ["kb.cli", "kb", "", "indexer.chunks", "importlib", "kb.fit", "service.app"]
    assert [b.split()[1] for b in bad] == ["kb.cli", "kb", "kb.fit", "service.app"]
