"""Where a fresh answer is computed: a lone question whole on the embedding thread (two thread hand-offs instead
of four), questions asked together in the pool beside it (so a core composes while the other embeds)."""

from __future__ import annotations

import asyncio
import threading

from kb.engine import Engine
from kb.settings import Settings
from service.metrics import Metrics
from service.state import AppState

QUESTIONS = ["RTX 4090 的显存带宽是多少？", "A100 多少钱？", "How much memory does the RTX 4090 have?"]


def test_a_lone_answer_runs_on_the_embedding_thread_and_answers_asked_together_in_the_pool(
        settings: Settings, engine: Engine) -> None:
    state = AppState(settings, Metrics(), engine)
    served = state.require_engine()
    threads: list[str] = []
    answer = served.answer

    def recording(*args: object) -> object:
        threads.append(threading.current_thread().name)
        return answer(*args)  # type: ignore[arg-type]

    served.answer = recording  # type: ignore[method-assign]

    async def ask() -> None:
        state.start()
        alone = await state.answer_json(QUESTIONS[0], None)
        assert b'"passages"' in alone and threads == ["kb-embed_0"]
        assert await state.answer_json(QUESTIONS[0], None) == alone and len(threads) == 1  # a cache hit
        threads.clear()
        together = await asyncio.gather(*(state.answer_json(q, 3) for q in QUESTIONS))
        assert all(b'"passages"' in body for body in together)
        # the first asked on the embedding thread, the two asked while it was in flight in the pool (in any order)
        assert sorted(t.startswith("kb-embed") for t in threads) == [False, False, True]

    asyncio.run(ask())
