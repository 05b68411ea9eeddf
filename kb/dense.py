"""The dense retriever through FAISS itself: exact (flat) while small, IVF with ids when large; add and remove by id.

Ids are the chunks' rows in the loaded index. Vectors are L2-normalised, so inner product is cosine.

FLAT_MAX: an exact flat search over n vectors of 384 floats costs ~0.3 µs a vector on one core here
(benchmarks/scale.py: 50,000 vectors p50 16 ms), so above 50,000 vectors an IVF index (√n lists, NPROBE
of them searched, trained on 40 vectors a list: k-means cost grows with lists × sample) keeps a query at
a few ms. Measured at 1M synthetic vectors: p50 9.3 ms, recall@10 against exact 0.55 at NPROBE 16 (a
higher NPROBE buys recall linearly in time; README, "Search at scale").
"""

from __future__ import annotations

import math

import faiss
import numpy as np

FLAT_MAX = 50_000
NPROBE = 16
TRAIN_SAMPLE = 40  # vectors a list when training the coarse quantizer (FAISS warns below 39)


class DenseIndex:
    """A FAISS index keyed by chunk row: search returns (scores, rows), best first."""

    def __init__(self, index: faiss.Index, kind: str, quantizer: faiss.Index | None = None) -> None:
        self.index, self.kind = index, kind
        self._quantizer = quantizer  # an IVF index does not own its coarse quantizer: keep it alive

    @classmethod
    def build(cls, vectors: np.ndarray, ids: np.ndarray | None = None, flat_max: int = FLAT_MAX) -> DenseIndex:
        n, dim = vectors.shape
        ids = np.arange(n, dtype=np.int64) if ids is None else ids.astype(np.int64)
        x = np.ascontiguousarray(vectors, dtype=np.float32)
        quantizer = None
        if n <= flat_max:
            index: faiss.Index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
            kind = "flat"
        else:
            nlist = int(math.sqrt(n))
            quantizer = faiss.IndexFlatIP(dim)
            ivf = faiss.IndexIVFFlat(quantizer, dim, nlist, faiss.METRIC_INNER_PRODUCT)
            sample = x[np.random.default_rng(0).choice(n, min(n, nlist * TRAIN_SAMPLE), replace=False)]
            ivf.train(sample)
            ivf.nprobe = NPROBE
            index, kind = ivf, f"ivf{nlist}"
        if n:
            index.add_with_ids(x, ids)
        return cls(index, kind, quantizer if kind != "flat" else None)

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        if self.size == 0 or k <= 0:
            return np.zeros(0, np.float32), np.zeros(0, np.int64)
        scores, rows = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32),
                                         min(k, self.size))
        keep = rows[0] >= 0
        return scores[0][keep], rows[0][keep]

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids.astype(np.int64))

    def remove(self, ids: np.ndarray) -> int:
        return int(self.index.remove_ids(ids.astype(np.int64)))  # type: ignore[arg-type]  # the wrapper takes arrays
