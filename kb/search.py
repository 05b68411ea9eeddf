"""Hybrid retrieval: dense (e5 cosine) and lexical (BM25) scores fused with per-language weights.

Plain reciprocal-rank fusion measured below e5 alone on this corpus, because BM25 is weak on English
questions over Chinese text. So each signal is min-max normalised over the corpus and mixed with a
weight chosen per language by `kb eval` (see README, "Retrieval quality"). English questions also get
their glossary translation added to the BM25 query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kb.expand import Expander
from kb.index import LoadedIndex

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


@dataclass(frozen=True)
class Hit:
    row: int
    score: float


def _minmax(x: np.ndarray) -> np.ndarray:
    lo, hi = float(x.min()), float(x.max())
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


class HybridSearcher:
    """Scores every chunk (exact: the corpus is a few hundred chunks) and returns the best."""

    def __init__(self, index: LoadedIndex, dense_weight: dict[str, float] | None = None) -> None:
        self.index = index
        self.expander = Expander(index.glossary)
        self.dense_weight = dict(DENSE_WEIGHT if dense_weight is None else dense_weight)
        self.record_prior = RECORD_PRIOR
        self.use_glossary = True  # translate English questions (dense) and expand them (BM25)
        # A team's document is evidence in its own right, like the guide: no record prior.
        self._is_record = np.array([c.kind not in ("guide", "document") for c in index.chunks], dtype=bool)

    def query_text(self, question: str, language: str) -> str:
        """What the embedder sees: English questions are first moved towards the corpus's Chinese."""
        return self.expander.translate(question) if language == "en" and self.use_glossary else question

    def lexical_scores(self, question: str, language: str) -> np.ndarray:
        lex = self.index.lexical
        terms = lex.tokenize_query(question)
        weights = [1.0] * len(terms)
        if language == "en" and self.use_glossary:
            for zh in self.expander.expand(question):
                extra = lex.tokenize_query(zh)
                terms.extend(extra)
                weights.extend([EXPANSION_WEIGHT] * len(extra))
        return lex.scores(terms, weights)

    def search(self, query_vector: np.ndarray, question: str, language: str, k: int) -> list[Hit]:
        dense = self.index.vectors @ query_vector
        w = self.dense_weight.get(language, 0.5)
        fused = w * _minmax(dense)
        if w < 1.0:
            fused = fused + (1.0 - w) * _minmax(self.lexical_scores(question, language))
        fused = np.where(self._is_record, fused * self.record_prior, fused)
        # One passage a subsection or record: its best part. Five parts of one case study would
        # crowd out the other sections a reader needs.
        hits: list[Hit] = []
        seen: set[str] = set()
        for r in np.argsort(-fused, kind="stable"):
            group = self.index.chunks[r].group
            if group not in seen:
                seen.add(group)
                hits.append(Hit(int(r), float(fused[r])))
                if len(hits) == k:
                    break
        return hits
