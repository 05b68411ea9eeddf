"""A folder kept in step on two `kb serve` replicas sharing a store and a Redis (an RQ queue, one worker each):
a file added, changed and deleted in KB_SOURCES_WATCH is reflected in both replicas' answers within 10 s."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kb.settings import Settings
from tests.support import document_files as files
from tests.support.jobs import wait_until
from tests.support.served import Served
from tests.support.servers import RedisServer

ADMIN = "admin-key-for-sync-0001"
QUESTION = {"question": "RTX 4090 多少钱一张？"}


@pytest.fixture(scope="module")
def replicas(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Served, Path]]:
    store, watched = tmp_path_factory.mktemp("shared-store"), tmp_path_factory.mktemp("team-folder")
    with RedisServer(tmp_path_factory.mktemp("redis")) as redis:
        env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
               "KB_SOURCES_DIR": str(store), "KB_SOURCES_WATCH": str(watched), "KB_REDIS_URL": redis.url,
               "KB_ADMIN_KEYS": json.dumps([ADMIN]), "KB_RATE_LIMIT_PER_MINUTE": "0", "KB_ANSWER_CACHE_SIZE": "0"}
        a, b = Served(env), Served(env)
        try:
            a.wait_ready(), b.wait_ready()
            yield a, b, watched
        finally:
            a.stop(), b.stop()


def _lead(replica: Served) -> str:
    answer = httpx.post(f"{replica.url}/v1/ask", json=QUESTION, timeout=60).json()
    return str(answer["answer"])


def _both(a: Served, b: Served, check) -> float:  # type: ignore[no-untyped-def]
    return max(wait_until(lambda: check(_lead(a)), 10, 0.25), wait_until(lambda: check(_lead(b)), 10, 0.25))


def test_a_watched_folders_add_change_and_delete_reach_both_replicas_within_10_s(
        replicas: tuple[Served, Served, Path]) -> None:
    a, b, folder = replicas
    assert "13,500" not in _lead(a) and "13,500" not in _lead(b)
    sheet = folder / "reseller.xlsx"
    started = time.monotonic()
    sheet.write_bytes(files.reseller_xlsx())
    _both(a, b, lambda lead: "¥13,500" in lead and "2026-11-25" in lead)
    assert time.monotonic() - started < 10
    jobs = httpx.get(f"{b.url}/v1/jobs").json()
    assert [(j["file"], j["status"]) for j in jobs] == [("reseller.xlsx", "ready")]  # one job: one replica took it
    [doc] = httpx.get(f"{a.url}/v1/documents").json()
    assert doc["folder"] == str(folder.resolve()) and doc["vendor"] == "华东集成商"

    changed = files.reseller_xlsx().replace(b"13,500", b"13,200")  # an edit saved over the file
    if changed == files.reseller_xlsx():  # the sheet keeps its strings compressed: write a new one
        changed = _reseller_with_4090_at("¥13,200")
    started = time.monotonic()
    sheet.write_bytes(changed)
    os.utime(sheet, (time.time() + 5, time.time() + 5))  # a new modification time, as a save gives
    _both(a, b, lambda lead: "¥13,200" in lead)
    assert time.monotonic() - started < 10
    [doc2] = httpx.get(f"{b.url}/v1/documents").json()
    assert doc2["id"] != doc["id"] and doc2["supersedes"] == doc["id"]

    started = time.monotonic()
    sheet.unlink()
    _both(a, b, lambda lead: "¥13,200" not in lead and "13,500" not in lead)
    assert time.monotonic() - started < 10
    assert httpx.get(f"{a.url}/v1/documents").json() == []


def _reseller_with_4090_at(price: str) -> bytes:
    import io

    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(files.reseller_xlsx()))
    book["报价"]["C6"] = price
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
