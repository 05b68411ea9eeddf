"""kb as a user installs it: the wheel, built from a copy of the repository, installed (not editable) into a fresh
virtualenv outside the repository, with the repository nowhere on its path; `kb ask` builds its index in the
user cache folder (a temp one here) from the corpus the wheel carries, and `kb fit` works."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb.words.catalog.labels import GUIDE_LINES
from tests.support.paths import REPO

LEFT_BEHIND = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", ".kb-index*", "..kb-index*",
                                     "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache")


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.mark.slow
def test_the_wheel_installs_and_answers_outside_the_repository(tmp_path: Path, index_dir: Path) -> None:
    src, wheels, venv, work = tmp_path / "src", tmp_path / "wheels", tmp_path / "venv", tmp_path / "work"
    shutil.copytree(REPO, src, ignore=LEFT_BEHIND)
    built = _run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
                  "--quiet", "-w", str(wheels)])
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("kb-*.whl")
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"kb/eval/questions.jsonl", "kb/eval/answers.jsonl", "kb/corpus/guide.md"} <= names
    assert not names & {"service/testing.py", "service/edge.py"}, "test helpers ship in the wheel"
    assert not any(n.startswith("tests/") for n in names)
    # The layers as shipped: the errors at the bottom (indexer/), the corpus table generator not at all (tools/).
    assert {"indexer/errors.py", "kb/errors.py", "indexer/build.py", "service/app.py"} <= names
    assert not any(n.startswith(("tools/", "indexer/corpus_tools/")) for n in names)

    base = getattr(sys, "_base_executable", sys.executable)
    assert _run([base, "-m", "venv", str(venv)]).returncode == 0
    python, kb = venv / "bin" / "python", venv / "bin" / "kb"
    # A real install: pip resolves kb's dependencies (from its configured indexes and cache), no -e.
    installed = _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)])
    assert installed.returncode == 0, installed.stderr

    cache, home = tmp_path / "cache", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "PYTHON", "VIRTUAL_ENV"))}
    env |= {"XDG_CACHE_HOME": str(cache), "HOME": str(home), "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}"}
    where = _run([str(python), "-c", "import kb, indexer; print(kb.__file__); print(indexer.__file__)"],
                 cwd=work, env=env)
    assert where.returncode == 0, where.stderr
    assert all(Path(p).is_relative_to(venv) for p in where.stdout.split()), where.stdout

    # The session's embedding cache seeds the user cache (as a previous install's would): the index is still
    # built, parsed and written here, only unchanged vectors are reused. Without it the build embeds all.
    (cache / "kb").mkdir(parents=True)
    shutil.copy(index_dir.parent / f"{index_dir.name}.embeddings", cache / "kb" / "index.embeddings")

    version = _run([str(kb), "--version"], cwd=work, env=env)
    assert version.returncode == 0, version.stderr
    assert "packaged" in version.stdout and str(venv) in version.stdout
    assert f"none at {cache / 'kb' / 'index'}" in version.stdout

    ask = _run([str(kb), "ask", "A100 显存多大"], cwd=work, env=env)
    assert ask.returncode == 0, ask.stderr
    # Cited passages, each headed "[n] §3.2 heading  (指南第 93–122 行, score …)" (the guide's lines, never a
    # repository path), and the A100's memory sizes.
    lines = re.escape(GUIDE_LINES["zh"]).replace(re.escape("{a}"), r"\d+").replace(re.escape("{b}"), r"\d+")
    assert re.search(rf"^\[\d+\] §[\d.]+ .*\({lines}, score ", ask.stdout, re.MULTILINE), ask.stdout
    assert "corpus/" not in ask.stdout and "80" in ask.stdout
    assert (cache / "kb" / "index" / "manifest.json").is_file()

    info = _run([str(kb), "index", "--info"], cwd=work, env=env)
    assert info.returncode == 0 and "current" in info.stdout, info.stdout + info.stderr

    evaluated = _run([str(kb), "eval", "--json"], cwd=work, env=env)  # the shipped development set
    assert evaluated.returncode == 0, evaluated.stderr
    import json

    report = json.loads(evaluated.stdout)
    assert report["questions"].endswith("kb/eval/questions.jsonl") and report["metrics"]["all"]["n"] >= 60

    fit = _run([str(kb), "fit", "--model", "llama-2-70b", "--workload", "inference", "--gpu", "a100-80gb",
                "--count", "2", "--precision", "fp16", "--json"], cwd=work, env=env)
    assert fit.returncode == 0, fit.stderr
    assert '"fits"' in fit.stdout
