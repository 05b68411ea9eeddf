"""The core every front end calls: question → Answer, over one loaded index.

An Engine is safe to share between threads: the index is read-only, the embedder serialises its
own calls, and the query-embedding cache has its own lock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from indexer.build import Progress
from indexer.chunks import Chunk
from indexer.embedder import Embedder
from kb.cache import LruCache
from kb.compose import Composer, Facts
from kb.fit.engine import FitEngine
from kb.index import LoadedIndex, open_index
from kb.intent import Domain, classify
from kb.language import detect_language
from kb.models import Answer, Passage
from kb.passages import to_passage
from kb.question import clean_question, clean_top_k
from kb.search import HybridSearcher
from kb.sentences import question_terms
from kb.settings import Settings, get_settings

if TYPE_CHECKING:
    from kb.documents.live import LiveDocuments
    from kb.fit.gpus import TeamPrice

# Called with the seconds spent in retrieval (embedding + search), for metrics.
RetrievalObserver = Callable[[float], None]


class Engine:
    """A loaded index, its embedder and searcher, and the answer pipeline."""

    def __init__(self, index: LoadedIndex, embedder: Embedder, settings: Settings) -> None:
        self.index = index
        self.embedder = embedder
        self.settings = settings
        self.searcher = HybridSearcher(index)
        self.cache: LruCache[str, np.ndarray] = LruCache(settings.embed_cache_size)
        self._rows = index.by_id()
        self._tables: dict[str, str] = {}  # section → the first chunk of its computed table
        for c in index.chunks:
            if c.kind == "table":
                self._tables.setdefault(c.section, c.id)
        self.observe_retrieval: RetrievalObserver | None = None
        self.fit = FitEngine.from_settings(settings)
        self.composer = Composer(index.chunks, self._passage_of, len)
        self.domain = Domain(index.glossary)
        self.documents: LiveDocuments | None = None  # teams' documents joining the index (kb/documents/live.py)

    def _passage_of(self, chunk: Chunk, rank: int, score: float, language: str) -> Passage:
        return to_passage(chunk, rank, score, self._tables, language)

    @classmethod
    def open(cls, settings: Settings | None = None, build_if_needed: bool = True,
             progress: Progress | None = None) -> Engine:
        """Load (and if needed first build) the index the settings point at."""
        settings = settings or get_settings()
        index, embedder = open_index(settings, build_if_needed=build_if_needed, progress=progress)
        engine = cls(index, embedder, settings)
        from kb.documents.live import attach

        attach(engine)
        return engine

    def set_index(self, index: LoadedIndex, prices: dict[str, TeamPrice] | None = None) -> None:
        """Answer from `index` from now on: the guide joined by teams' documents (kb/documents/live.py),
        and price the cards at the teams' newest buy prices where they give one.

        Each piece is replaced whole, and `search` reads the searcher it started with, so a question
        in flight is answered from the old index or the new one, never rows of one over chunks of the other.
        """
        tables: dict[str, str] = {}
        for c in index.chunks:
            if c.kind == "table":
                tables.setdefault(c.section, c.id)
        searcher = HybridSearcher(index, self.searcher.dense_weight)
        self.index, self._rows, self._tables, self.searcher = index, index.by_id(), tables, searcher
        self.composer = Composer(index.chunks, self._passage_of, len)
        self.fit = self.fit.with_prices(prices or {})

    def embed_query(self, text: str) -> np.ndarray:
        return self.cache.get_or_compute(text, lambda: self.embedder.embed_query(text))

    def search(self, question: str, top_k: int, language: str | None = None) -> list[Passage]:
        """The top_k passages for a (validated) question."""
        language = language or detect_language(question)
        started = time.perf_counter()
        searcher = self.searcher  # one index for the whole search, even if documents change meanwhile
        vector = self.embed_query(searcher.query_text(question, language))
        hits = searcher.search(vector, question, language, top_k)
        if self.observe_retrieval is not None:
            self.observe_retrieval(time.perf_counter() - started)
        chunks = searcher.index.chunks
        return [to_passage(chunks[h.row], rank, h.score, self._tables, language)
                for rank, h in enumerate(hits, 1)]

    def answer(self, question: str, top_k: int | None = None) -> Answer:
        """The direct answer first (verified against what it cites), then passages, fit checks, selection."""
        s = self.settings
        text = clean_question(question, s.max_question_chars)
        k = clean_top_k(top_k, s.default_top_k, s.max_top_k)
        language = detect_language(text)
        passages = self.search(text, k, language)
        found = self.fit.for_question(text, language)
        checks, selection, unknown = found.checks, found.selection, found.unknown
        gpus = list(found.gpus)
        if "a100-80gb" in gpus and not any(size in text.lower() for size in ("80g", "40g")):
            gpus.insert(gpus.index("a100-80gb"), "a100-40gb")  # "the A100" is both cards
        intent = classify(text, self.domain, has_checks=bool(checks), has_selection=selection is not None,
                          names_gpu=bool(gpus), names_model=bool(found.models), names_unknown=bool(unknown))
        if intent.kind == "not_covered":
            checks, selection = [], None
        terms = question_terms(text, language, self.index.lexical.tokenize_query(text))
        facts = Facts(question=text, language=language, intent=intent, passages=passages, checks=checks,
                      selection=selection, unknown=unknown, gpus=gpus, terms=terms, mfu=s.mfu,
                      budget_cny=found.budget_cny)
        composed = self.composer.compose(facts)
        return Answer(question=text, language=language,  # type: ignore[arg-type]
                      answer=composed.answer, coverage=composed.coverage,  # type: ignore[arg-type]
                      unknown=unknown, passages=composed.passages, fit_checks=checks, selection=selection)

    def passage(self, passage_id: str, language: str = "zh") -> Passage | None:
        """One passage by id (rank 1, score 0: it was asked for, not retrieved)."""
        row = self._rows.get(passage_id)
        if row is None:
            return None
        return to_passage(self.index.chunks[row], 1, 0.0, self._tables, language)
