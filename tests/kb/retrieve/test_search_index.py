"""kb/retrieve/search_index.py: chunks join and leave the searched index by id, rows stay put, lookups follow."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from indexer.artifact import Manifest
from indexer.chunks import Chunk
from indexer.postings import Postings
from kb.retrieve.index import LoadedIndex
from kb.retrieve.search import HybridSearcher
from kb.retrieve.search_index import SearchIndex


def _unit(n: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, 16)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def _chunk(cid: str, kind: str = "guide", group: str | None = None) -> Chunk:
    return Chunk(id=cid, section="1", heading="", kind=kind, text=cid, path="x.md", start_line=1, end_line=1,
                 group=group or cid)


def _index() -> SearchIndex:
    chunks = [_chunk(f"g{i}", "spec" if i < 2 else "guide", "spec-a" if i < 2 else None) for i in range(20)]
    tokens = [[f"w{i}", "common"] for i in range(20)]
    return SearchIndex.from_loaded(LoadedIndex(Path("."), Manifest({}), chunks, _unit(20, 0), Postings.build(tokens),
                                               []))


def test_a_document_joins_and_leaves_by_id() -> None:
    index = _index()
    searcher = HybridSearcher(index)
    vectors = _unit(3, 1)
    chunks = [_chunk(f"doc-1-{i}", "document", f"doc-1-{i}") for i in range(3)]
    rows = index.add(chunks, vectors, [["报价", "h200"], ["h200"], ["租金"]])
    assert rows.tolist() == [20, 21, 22] and index.count == 23
    hits = searcher.search(vectors[0], "h200 报价", "zh", 3)
    assert hits[0].row == 20 and index.rows[hits[0].row].id == "doc-1-0"
    assert index.chunk("doc-1-2") is chunks[2] and [c.id for c in index.group("spec-a")] == ["g0", "g1"]
    assert index.is_record[[0, 5, 20]].tolist() == [True, False, False]  # records get the prior, documents not
    assert index.remove(["doc-1-0", "doc-1-1", "doc-1-2", "nope"]).tolist() == [20, 21, 22]
    assert index.count == 20 and index.chunk("doc-1-0") is None and "doc-1-0" not in index.by_id
    assert all(h.row < 20 for h in searcher.search(vectors[0], "h200 报价", "zh", 5))
    assert index.rows[20] is chunks[0]  # a question in flight can still read the row it was given
    again = index.add(chunks[:1], vectors[:1], [["报价", "h200"]])
    assert again.tolist() == [23] and searcher.search(vectors[0], "h200 报价", "zh", 1)[0].row == 23


def test_chunks_lists_the_live_ones_in_row_order() -> None:
    index = _index()
    index.remove(["g3", "g0"])
    assert [c.id for c in index.chunks][:3] == ["g1", "g2", "g4"] and len(index.by_id) == 18
    assert [c.id for c in index.group("spec-a")] == ["g1"]
