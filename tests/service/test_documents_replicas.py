"""Two `kb serve` processes sharing one document store: a document added on one is answered by the other."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kb.settings import Settings
from tests.support import document_files as files
from tests.support.served import Served

ADMIN = "admin-key-for-replicas-0001"
QUESTION = {"question": "我们实测 L40S 上 Llama-2-13B 解码多少 token/s？"}


@pytest.fixture(scope="module")
def replicas(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Served]]:
    store: Path = tmp_path_factory.mktemp("shared-store")
    env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
           "KB_SOURCES_DIR": str(store), "KB_ADMIN_KEYS": json.dumps([ADMIN]), "KB_RATE_LIMIT_PER_MINUTE": "0"}
    a, b = Served(env), Served(env)
    try:
        a.wait_ready(), b.wait_ready()
        yield a, b
    finally:
        a.stop(), b.stop()


def _documents_cited(replica: Served) -> list[str]:
    answer = httpx.post(f"{replica.url}/v1/ask", json=QUESTION, timeout=60).json()
    return [p["source"]["document"] for p in answer["passages"] if p["kind"] == "document"]


def _within(seconds: float, check) -> float:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, f"not within {seconds} s"
        time.sleep(0.5)
    return time.monotonic() - started


def test_an_add_and_a_removal_on_one_replica_reach_the_other_within_10_s(replicas: tuple[Served, Served]) -> None:
    a, b = replicas
    assert _documents_cited(b) == []  # asked (and cached) before the document exists
    added = httpx.post(f"{a.url}/v1/documents", headers={"Authorization": f"Bearer {ADMIN}"},
                       files={"file": ("bench.docx", files.docx_bytes(paragraphs=1))}, timeout=120)
    assert added.status_code == 202, added.text  # staged at once; a worker process embeds it
    doc = added.json()["id"]
    _within(10, lambda: doc in _documents_cited(a))
    _within(10, lambda: doc in _documents_cited(b))
    assert [d["id"] for d in httpx.get(f"{b.url}/v1/documents").json()] == [doc]
    gone = httpx.delete(f"{b.url}/v1/documents/{doc}", headers={"Authorization": f"Bearer {ADMIN}"})
    assert gone.status_code == 204
    _within(10, lambda: _documents_cited(a) == [])
