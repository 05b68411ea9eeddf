"""Build hook: the wheel carries every corpus/**/*.md as package data under kb/corpus/, and kb's own development
sets (tests/eval/questions.jsonl, answers.jsonl) under kb/eval/, so an installed `kb eval` has its defaults.

The corpus stays at the top of the repository (the layout says so) and is found in place by a checkout
(editable installs included); only a built wheel gets a copy. A hook rather than a `package-dir` mapping:
a mapped `corpus` package would need the package list written out by hand (dropping any subpackage
`packages.find` would find) and, having no __init__.py, would be a namespace package that importlib.resources
serves as a MultiplexedPath instead of a folder. Everything else is declared in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CORPUS = Path(__file__).resolve().parent / "corpus"
EVAL_SETS = [Path(__file__).resolve().parent / "tests" / "eval" / name for name in ("questions.jsonl", "answers.jsonl")]


class BuildPyWithCorpus(build_py):
    """build_py, plus the corpus copied into the built kb package (not for editable installs)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable kb reads corpus/ where it is
        target = Path(self.build_lib) / "kb" / "corpus"
        shutil.rmtree(target, ignore_errors=True)  # build/ outlives a build: a deleted record must not ship
        for path in sorted(CORPUS.rglob("*.md")):
            dest = target / path.relative_to(CORPUS)
            self.mkpath(str(dest.parent))
            self.copy_file(str(path), str(dest))
        eval_dir = Path(self.build_lib) / "kb" / "eval"
        self.mkpath(str(eval_dir))
        for path in EVAL_SETS:
            self.copy_file(str(path), str(eval_dir / path.name))


setup(cmdclass={"build_py": BuildPyWithCorpus})
