"""Hybrid retrieval: dense (e5 cosine) and lexical (BM25) scores fused with per-language weights.

Plain reciprocal-rank fusion measured below e5 alone on this corpus, because BM25 is weak on English
questions over Chinese text. So each signal is min-max normalised over the corpus and mixed with a
weight chosen per language by `kb eval` (see README, "Retrieval quality"). English questions also get
their glossary translation added to the BM25 query.

Each retriever proposes CANDIDATES chunks (FAISS's nearest, BM25's best); the fusion scores their union,
normalised over it, with the exact cosine of every candidate. At the guide's size (189 chunks) the union
is every chunk, so the ranking is the exhaustive one (`kb eval` unchanged); at a million chunks it is a
few hundred rows, not a million (benchmarks/scale.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from kb.language import Language
from kb.retrieve.bm25 import Bm25Scores
from kb.retrieve.dense import DenseIndex
from kb.retrieve.expand import TEXTS_REMEMBERED, Expander
from kb.retrieve.focus import Focus
from kb.retrieve.search_index import SearchIndex

# Weight of the dense signal, by question language; the rest is BM25. Measured with `kb eval --sweep`
# on the dev set and tests/eval/questions.jsonl (README: "Retrieval quality").
DENSE_WEIGHT = {"zh": 0.5, "en": 0.6}
# Records (spec sheets, cases, tradeoffs, tables) restate the guide and add notes; at equal evidence the
# guide's own passage should rank first. With the eight vendor-only spec records (189 chunks) 0.6
# measured best of 0.5–1.0 on both question sets (dev MRR 0.903, own 0.897; 0.7 gave 0.881 and 0.894)
# while still letting a record win on a question only it answers (e.g. a computed table).
RECORD_PRIOR = 0.6
# Expanded (translated) terms count less than the words the user typed.
EXPANSION_WEIGHT = 0.7
# The guide's words for what the question asks (kb.retrieve.focus) count less again: they steer, the typed words decide.
FOCUS_WEIGHT = 0.5
# The guide's introduction, outlook and conclusion mention every card and model in passing, so they come
# near the top of any question; unless a question is about them (kb.retrieve.focus.asks_framing) they yield.
FRAMING_PRIOR = 0.8
# The focus terms steer the dense side too: their own embedding is added to the question's at this weight.
# Appending them to the question's text did the same for retrieval but made every query embedding ~35 %
# slower (a longer input: 46 against 34 ms p50 on 2 cores); a question's focus is one of a few dozen term sets,
# each embedded once and then cached. Chosen with kb eval's sets (recall@5 / MRR, appended → added at 0.7):
# shared dev 1.000/0.901 → 1.000/0.901, own 0.979/0.907 → 0.979/0.893, blind dev 0.976/0.862 → 0.976/0.866;
# 0.3 and 0.5 lost blind-dev recall (0.953), 1.0 its MRR (0.842).
FOCUS_VECTOR_WEIGHT = 0.7
# Chunks each retriever proposes. Above the guide's 189, so the guide alone is ranked exhaustively.
CANDIDATES = 256


NAMED_BOOST = 0.3  # fused-score bonus of a named card's spec sheet (kb eval --sweep measures it)
# Up to this many rows the candidates' union is taken with a mask over every row (tens of microseconds) rather than
# sorted unique and membership tests (~180 us at the guide's 200 rows); above it a mask a query would be the cost.
MASK_MAX = 65_536


@dataclass(frozen=True)
class SearchConfig:
    """How retrieval mixes its signals, fixed for a searcher's life: `kb eval --sweep` makes one a setting
    and a searcher for each, so two configurations can serve side by side in one process."""

    dense_weight: Mapping[str, float] = field(default_factory=lambda: dict(DENSE_WEIGHT))
    record_prior: float = RECORD_PRIOR
    named_boost: float = NAMED_BOOST
    framing_prior: float = FRAMING_PRIOR
    use_focus: bool = True  # lean on what the question asks (kb.retrieve.focus): its terms, and the framing prior
    use_glossary: bool = True  # translate English questions (dense) and expand them (BM25)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dense_weight", MappingProxyType(dict(self.dense_weight)))

    def but(self, **changes: object) -> SearchConfig:
        """This configuration with some fields changed (a new object; this one stays as it is)."""
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Hit:
    row: int
    score: float


def _union_by_mask(rows: list[np.ndarray], scores: np.ndarray, dense_rows: np.ndarray, size: int,
                   query_vector: np.ndarray, dense: DenseIndex) -> tuple[np.ndarray, np.ndarray]:
    """HybridSearcher.candidates' union and cosines through masks over all `size` rows: the same rows, ascending,
    with FAISS's scores where it returned the row and the reconstructed cosine elsewhere."""
    wanted = np.zeros(size, bool)
    for r in rows:
        wanted[r] = True
    union = np.flatnonzero(wanted)
    by_row = np.zeros(size, np.float32)
    returned = np.zeros(size, bool)
    by_row[dense_rows] = scores
    returned[dense_rows] = True
    found = returned[union]
    cosine = by_row[union]
    if not found.all():
        cosine[~found] = dense.similarity(query_vector, union[~found])
    return union, cosine


def _minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = float(x.min()), float(x.max())
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


class HybridSearcher:
    """Fuses the two retrievers' candidates (every chunk while there are few) and returns the best."""

    def __init__(self, index: SearchIndex, config: SearchConfig | None = None,
                 texts_remembered: int = TEXTS_REMEMBERED) -> None:
        self.index = index
        self.config = config or SearchConfig()
        self.expander = Expander(index.glossary, texts_remembered)

    @property
    def use_glossary(self) -> bool:
        return self.config.use_glossary

    def query_text(self, question: str, language: Language) -> str:
        """What the embedder sees of a question: English questions are first moved towards the corpus's Chinese."""
        return self.expander.translate(question) if language == "en" and self.use_glossary else question

    def query_vector(self, embed: Callable[[str], np.ndarray], question: str, language: Language,
                     focus: Sequence[str] = ()) -> np.ndarray:
        """The question's query vector, leaning towards the guide's words for what it asks (kb.retrieve.focus): the
        terms' own embedding added at FOCUS_VECTOR_WEIGHT, then normalised again for the cosine."""
        vector = embed(self.query_text(question, language))
        if not focus or not self.config.use_focus:
            return vector
        mixed = vector + FOCUS_VECTOR_WEIGHT * embed(" ".join(focus))
        return (mixed / np.linalg.norm(mixed)).astype(vector.dtype)

    def lexical_scores(self, question: str, language: Language, focus: Sequence[str] = ()) -> Bm25Scores:
        """BM25 of the typed words, their glossary translation (English) and the `focus` terms (kb.retrieve.focus)."""
        lex = self.index.lexical
        terms = lex.tokenize_query(question)
        weights = [1.0] * len(terms)
        extra = [(zh, EXPANSION_WEIGHT) for zh in self.expander.expand(question)] \
            if language == "en" and self.use_glossary else []
        for phrase, weight in [*extra, *((f, FOCUS_WEIGHT) for f in focus)]:
            words = lex.tokenize_query(phrase)
            terms.extend(words)
            weights.extend([weight] * len(words))
        return lex.scores(terms, weights)

    def candidates(self, query_vector: np.ndarray, lexical: Bm25Scores | None,
                   named: frozenset[str] = frozenset()) -> tuple[np.ndarray, np.ndarray]:
        """Rows either retriever ranks in its best CANDIDATES, and the named records' rows, ascending, with
        their exact cosine (every row when there are few)."""
        dense = self.index.dense
        k = CANDIDATES if dense.size > CANDIDATES else dense.size
        scores, dense_rows = dense.search(query_vector, k)
        rows = [dense_rows, np.array([r for g in named for r in self.index.group_rows.get(g, [])], dtype=np.int64)]
        if lexical is not None:
            rows.append(lexical.top(CANDIDATES).astype(np.int64))
        size = len(self.index.is_record)  # rows ever added: every row a retriever can return is below it
        if size <= MASK_MAX:
            return _union_by_mask(rows, scores, dense_rows, size, query_vector, dense)
        union = np.unique(np.concatenate(rows))
        cosine = np.empty(len(union), np.float32)
        found = np.isin(union, dense_rows, assume_unique=True)
        order = np.argsort(dense_rows)  # FAISS's scores, placed by row; the rest reconstructed from FAISS
        cosine[found] = scores[order][np.searchsorted(dense_rows[order], union[found])]
        cosine[~found] = self.index.dense.similarity(query_vector, union[~found])
        return union, cosine

    def search(self, query_vector: np.ndarray, question: str, language: Language, k: int,
               named: frozenset[str] = frozenset(), focus: Focus | None = None) -> list[Hit]:
        """The k best passages; `named` holds the record groups the question names (its GPUs' spec sheets),
        which a question about a card is about whatever its wording; `focus`, what it asks (kb.retrieve.focus)."""
        focus = focus if focus is not None and self.config.use_focus else Focus()
        w = self.config.dense_weight.get(language, 0.5)
        lexical = self.lexical_scores(question, language, (*focus.terms, *focus.words)) if w < 1.0 else None
        return self.rank(query_vector, lexical, language, k, named, focus.framing)

    def rank(self, query_vector: np.ndarray, lexical: Bm25Scores | None, language: Language, k: int,
             named: frozenset[str] = frozenset(), framing: bool = True) -> list[Hit]:
        """The k best of the candidates, given the question's BM25 scores (None: dense alone); `framing` False
        lets the guide's framing chapters yield (kb.retrieve.focus)."""
        w = self.config.dense_weight.get(language, 0.5) if lexical is not None else 1.0
        rows, cosine = self.candidates(query_vector, lexical, named)
        fused = w * _minmax(cosine)
        if lexical is not None:
            fused = fused + (1.0 - w) * _minmax(lexical.at(rows))
        chunks = self.index.rows  # read after the retrievers: it holds every row they can return
        fused = np.where(self.index.is_record[rows], fused * self.config.record_prior, fused)
        if not framing:
            fused = np.where(self.index.is_framing[rows], fused * self.config.framing_prior, fused)
        if named:
            boost = np.array([chunks[r].group in named for r in rows])
            fused = np.where(boost, fused + self.config.named_boost, fused)
        # One passage a subsection or record: its best part. Five parts of one case study would
        # crowd out the other sections a reader needs. (Plain lists: a numpy scalar a step cost more than the step.)
        hits: list[Hit] = []
        seen: set[str] = set()
        row_of, score_of = rows.tolist(), fused.tolist()
        for i in np.argsort(-fused, kind="stable").tolist():
            group = chunks[row_of[i]].group
            if group not in seen:
                seen.add(group)
                hits.append(Hit(row_of[i], score_of[i]))
                if len(hits) == k:
                    break
        return hits
