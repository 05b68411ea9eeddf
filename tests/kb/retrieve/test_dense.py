"""kb/retrieve/dense.py on real FAISS: exact while small, IVF above FLAT_MAX, adds and removals by id."""

from __future__ import annotations

import numpy as np

from kb.retrieve.dense import DenseIndex


def _unit(n: int, dim: int = 32, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_flat_is_exact_and_returns_rows_best_first() -> None:
    x = _unit(500)
    index = DenseIndex.build(x)
    assert index.kind == "flat" and index.size == 500
    q = x[17]
    scores, rows = index.search(q, 10)
    exact = np.argsort(-(x @ q))[:10]
    assert rows.tolist() == exact.tolist() and rows[0] == 17
    assert abs(float(scores[0]) - float(x[17] @ q)) < 1e-5


def test_ivf_above_the_threshold_finds_near_neighbours() -> None:
    x = _unit(4000)
    index = DenseIndex.build(x, flat_max=1000)
    assert index.kind.startswith("ivf") and index.size == 4000
    hits = [int(index.search(x[i], 1)[1][0]) == i for i in range(0, 4000, 97)]
    assert sum(hits) / len(hits) >= 0.95


def test_add_and_remove_by_id_leave_the_rest_alone() -> None:
    for flat_max in (10_000, 1000):
        x = _unit(3000)
        index = DenseIndex.build(x, flat_max=flat_max)
        extra = _unit(5, seed=1)
        index.add(extra, np.arange(3000, 3005))
        assert int(index.search(extra[2], 1)[1][0]) == 3002
        assert index.remove(np.arange(3000, 3005)) == 5 and index.size == 3000
        assert 3002 not in index.search(extra[2], 50)[1]
        assert int(index.search(x[5], 1)[1][0]) == 5


def test_an_empty_index_answers_nothing() -> None:
    index = DenseIndex.build(np.zeros((0, 8), np.float32))
    assert index.search(np.ones(8, np.float32), 5)[1].size == 0


def _synthetic_index(n: int):  # type: ignore[no-untyped-def]
    from pathlib import Path

    from indexer.artifact import Manifest
    from indexer.chunks import Chunk
    from indexer.postings import Postings
    from kb.retrieve.index import LoadedIndex
    from kb.retrieve.search_index import SearchIndex

    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(300)]
    chunks, docs = [], []
    for i in range(n):
        terms = list(rng.choice(words, 12))
        docs.append(terms)
        chunks.append(Chunk(id=f"c{i}", section="1", heading="", kind="guide", text=" ".join(terms), path="x.md",
                            start_line=1, end_line=1, group=f"c{i}"))
    loaded = LoadedIndex(Path("."), Manifest({}), chunks, _unit(n, 32, seed=4), Postings.build(docs), [])
    return SearchIndex.from_loaded(loaded), docs


def test_fusion_over_candidates_keeps_the_exhaustive_fusions_best(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Min-max over the candidates, not the whole corpus, moves the scale a little: the best stays the best
    and the top five mostly agree (random vectors and terms, the hardest case: no clear winners)."""
    import kb.retrieve.search
    from kb.retrieve.search import HybridSearcher

    index, docs = _synthetic_index(3000)
    searcher = HybridSearcher(index)
    vectors = index.guide.vectors
    queries = [(vectors[i] * 0.7 + vectors[i + 1] * 0.3, " ".join(docs[i + 2][:4]))
               for i in range(0, 40, 4)]
    fused = [[h.row for h in searcher.search(q / np.linalg.norm(q), text, "zh", 5)] for q, text in queries]
    assert len(searcher.candidates(queries[0][0], None)[0]) <= kb.retrieve.search.CANDIDATES  # not every chunk
    monkeypatch.setattr(kb.retrieve.search, "CANDIDATES", 10**9)  # every chunk a candidate: the exhaustive ranking
    exhaustive = [[h.row for h in searcher.search(q / np.linalg.norm(q), text, "zh", 5)] for q, text in queries]
    # The best stays among the best three, and first but for near ties (cut with the index's own vocabulary, as
    # the artifact's is, every query term matches: one query's two best differ by 0.0004 over every chunk).
    assert all(e[0] in f[:3] for f, e in zip(fused, exhaustive, strict=True))
    assert sum(f[0] == e[0] for f, e in zip(fused, exhaustive, strict=True)) >= 9
    overlap = [len(set(f) & set(e)) / 5 for f, e in zip(fused, exhaustive, strict=True)]
    assert sum(overlap) / len(overlap) >= 0.8


def test_similarity_is_reconstructed_from_faiss_by_row() -> None:
    """One copy of the vectors: the fusion's exact cosine of any candidate comes from FAISS itself."""
    for flat_max in (10_000, 1000):
        x = _unit(3000)
        index = DenseIndex.build(x, flat_max=flat_max)
        rows = np.array([2999, 0, 1234])
        assert np.allclose(index.similarity(x[7], rows), x[rows] @ x[7], atol=1e-6)
        index.remove(np.array([0]))
        assert np.allclose(index.similarity(x[7], rows[[0, 2]]), x[rows[[0, 2]]] @ x[7], atol=1e-6)


def test_an_index_outgrowing_its_lists_is_rebuilt_for_its_size() -> None:
    x = _unit(5000)
    index = DenseIndex.build(x[:900], flat_max=1000)
    assert index.kind == "flat"
    index.add(x[900:2000], np.arange(900, 2000))
    assert index.kind == f"ivf{int(4 * 2000 ** 0.5)}" and index.size == 2000  # past flat_max: IVF, 4·√n lists
    index.add(x[2000:], np.arange(2000, 5000))
    assert index.kind == f"ivf{int(4 * 2000 ** 0.5)}"  # 2.5x the size its lists were made for: kept
    index.add(_unit(3100, seed=9), np.arange(5000, 8100))
    assert index.kind == f"ivf{int(4 * 8100 ** 0.5)}"  # past 4x the 2,000 its lists were made for: rebuilt
    assert int(index.search(x[4321], 1)[1][0]) == 4321
