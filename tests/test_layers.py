"""Layers one way: service -> kb -> indexer, tools/ above them all, and inside kb from the Engine down.

Read from the source, not by importing it: every .py file's AST, so an import inside a function, under
`if TYPE_CHECKING:` or through importlib.import_module("kb…") counts as much as one at the top.

Inside kb the path of a question is the order of its packages: the CLI and evaluation call the Engine; the
Engine calls answer making (and the teams' documents it joins); answers use retrieval, retrieval uses question
understanding; understanding names what the fit engine knows; the fit engine renders through the words; the
settings, errors, language and number reader sit at the bottom. A package may import its own modules and
anything below it, never above — and no module may reach itself through others (no import circles).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from tests.support.paths import REPO

ABOVE_INDEXER = ("kb", "service", "tools")
# kb's packages, highest first; a module of kb/ itself (engine, settings, errors …) is ranked by its name, or at
# the bottom (1) when not listed.
KB_RANKS = {"cli": 10, "evaluation": 9, "engine": 8, "answer": 7, "documents": 7, "retrieve": 6,
            "understand": 5, "models": 4, "fit": 3, "words": 2, "gaps": 2}
SOURCES = ("kb", "indexer", "service", "tools")


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
    source.write_text("import kb.cli.main\nfrom kb import errors\ndef f():\n    from .. import nowhere\n"
                      "    from .chunks import Chunk\n    import importlib\n    importlib.import_module('kb.fit')\n"
                      "    __import__('service.app')\n", encoding="utf-8")
    modules = [m for _, m in imported_modules(source, tmp_path)]
    bad = offending("indexer", ABOVE_INDEXER, tmp_path)
    assert modules == ["kb.cli.main", "kb", "", "indexer.chunks", "importlib", "kb.fit", "service.app"]
    assert [b.split()[1] for b in bad] == ["kb.cli.main", "kb", "kb.fit", "service.app"]


def _module(path: Path, root: Path = REPO) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph(root: Path = REPO) -> dict[str, set[str]]:
    """Module → the modules of this repository it imports (a `from x import name` of a submodule counts)."""
    paths = [p for folder in SOURCES for p in sorted((root / folder).rglob("*.py"))]
    known = {_module(p, root) for p in paths}
    graph: dict[str, set[str]] = defaultdict(set)
    for path in paths:
        for _, module in imported_modules(path, root):
            while module and module not in known:
                module = module.rpartition(".")[0]
            if module and module != _module(path, root):
                graph[_module(path, root)].add(module)
    return graph


def _rank(module: str) -> int:
    parts = module.split(".")
    return KB_RANKS.get(parts[1], 1) if len(parts) > 1 else 11


def test_inside_kb_imports_point_down() -> None:
    up = [f"{a} -> {b}" for a, targets in _graph().items() if a.startswith("kb.") for b in targets
          if b.startswith("kb.") and a.split(".")[1] != b.split(".")[1] and _rank(b) >= _rank(a) > 1]
    assert up == []


def test_the_fit_engine_never_reads_questions() -> None:
    """The fit engine takes explicit requests; what a question asks of it is worked out above it."""
    reads = [f"{a} -> {b}" for a, targets in _graph().items() if a.startswith("kb.fit")
             for b in targets if b.startswith(("kb.understand", "kb.answer", "kb.retrieve", "kb.engine"))]
    assert reads == []


def test_no_import_circles() -> None:
    graph = _graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    assert circles == []


def test_every_module_opens_with_what_it_is() -> None:
    missing = [str(p.relative_to(REPO)) for folder in SOURCES for p in sorted((REPO / folder).rglob("*.py"))
               if p.stat().st_size and not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []
