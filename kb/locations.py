"""Where the corpus and the index live by default, for a checkout and for an installed wheel.

- Corpus: a wheel carries it as package data (`kb/corpus/`, copied there by setup.py), found through
  importlib.resources; a checkout (editable install, the tests) reads the repository's `corpus/` in place.
- Index: a checkout keeps `.kb-index` at the repository's top, as it always has (gitignored, next to the
  corpus it was built from); an installed kb writes to the user's cache folder (platformdirs'
  `user_cache_dir("kb")/index`: ~/.cache/kb/index on Linux), so a read-only install location never blocks
  a first `kb ask`. KB_CORPUS_DIR and KB_INDEX_DIR override both.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def packaged_corpus() -> Path | None:
    """The corpus inside an installed wheel, or None (a checkout has none: setup.py adds it to wheels only)."""
    folder = resources.files("kb") / "corpus"
    return Path(str(folder)) if folder.is_dir() and (folder / "guide.md").is_file() else None


def checkout_root() -> Path | None:
    """The repository kb runs from, when it runs from one (its pyproject.toml and corpus beside the code)."""
    if (_REPO / "pyproject.toml").is_file() and (_REPO / "corpus" / "guide.md").is_file():
        return _REPO
    return None


def default_corpus_dir() -> Path:
    packaged = packaged_corpus()
    if packaged is not None:
        return packaged
    return _REPO / "corpus"  # a checkout's; anywhere else it does not exist and `kb index` says so


def default_index_dir() -> Path:
    root = checkout_root()
    if root is not None and packaged_corpus() is None:
        return root / ".kb-index"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("kb", appauthor=False)) / "index"


def default_sources_dir() -> Path:
    """Teams' documents: a checkout's `sources/` (gitignored); an installed kb's user data folder."""
    root = checkout_root()
    if root is not None and packaged_corpus() is None:
        return root / "sources"
    from platformdirs import user_data_dir

    return Path(user_data_dir("kb", appauthor=False)) / "sources"
