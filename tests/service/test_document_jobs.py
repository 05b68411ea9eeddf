"""Documents are embedded by a worker process, never by the process answering questions: an upload returns at once
with its job, the job's status moves through `queued`, `embedding n/N` and `ready` over the API and the CLI, the
worker runs at the lowest priority (a spawned pool without Redis, an RQ worker with it), and a file too big to
embed is refused up front with the time it would take. Real `kb serve` processes and a real Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kb.settings import Settings
from tests.support.jobs import wait_for_job, wait_until
from tests.support.served import Served
from tests.support.servers import RedisServer

ADMIN = "admin-key-for-jobs-000001"
AUTH = {"Authorization": f"Bearer {ADMIN}"}


def parts_csv(rows: int) -> bytes:
    lines = "\n".join(f"{i},机柜配件 {i},导轨与线缆，适用于 4U 服务器" for i in range(1, rows + 1))
    return f"序号,项目,说明\n{lines}\n".encode()


def children(pid: int) -> list[tuple[int, str, int]]:
    """(pid, command line, nice) of every process under `pid`."""
    out = []
    for child in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        nice = int(Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[16])
        out.append((int(child), cmdline, nice))
        out += children(int(child))
    return out


@pytest.fixture(scope="module")
def local(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    store = tmp_path_factory.mktemp("jobs-store")
    env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
           "KB_SOURCES_DIR": str(store), "KB_ADMIN_KEYS": json.dumps([ADMIN]), "KB_RATE_LIMIT_PER_MINUTE": "0",
           "KB_MAX_DOCUMENT_CHUNKS": "1000"}
    server = Served(env)
    try:
        yield server.wait_ready(), store
    finally:
        server.stop()


def test_an_upload_returns_at_once_and_its_job_is_followed_to_ready(local: tuple[Served, Path]) -> None:
    server, store = local
    started = time.monotonic()
    r = httpx.post(f"{server.url}/v1/documents", headers=AUTH, files={"file": ("parts.csv", parts_csv(300))},
                   timeout=60)
    assert r.status_code == 202, r.text
    assert time.monotonic() - started < 10  # checked and staged, not embedded, in the request
    doc = r.json()
    assert (doc["status"], doc["job"]["state"], doc["job"]["total"], doc["chunks"]) == ("queued", "queued", 300, 300)
    seen = set()
    while (job := httpx.get(f"{server.url}/v1/jobs/{doc['id']}", timeout=30).json())["state"] != "ready":
        assert job["state"] != "failed", job
        seen.add(job["status"] if job["state"] != "embedding" else "embedding n/N")
        if job["state"] == "embedding":
            assert job["status"] == f"embedding {job['done']:,}/300" and 0 <= job["done"] <= 300
        time.sleep(0.05)
    assert "embedding n/N" in seen  # it was followed batch by batch
    assert job["status"] == "ready" and job["done"] == 300
    workers = [(pid, cmd, nice) for pid, cmd, nice in children(server.proc.pid) if "spawn_main" in cmd]
    assert workers and all(nice == 19 for _, _, nice in workers)  # a spawned process at the lowest priority
    wait_until(lambda: any(d["id"] == doc["id"] for d in httpx.get(f"{server.url}/v1/documents").json()), 10)
    cli = subprocess.run([sys.executable, "-m", "kb.cli", "docs", "status", doc["id"]], capture_output=True,
                         text=True, env={**os.environ, "KB_SOURCES_DIR": str(store)}, timeout=120)
    assert cli.returncode == 0 and f"{doc['id']}  parts.csv  ready" in cli.stdout


def test_a_file_too_big_to_embed_is_refused_up_front_with_the_time_it_would_take(local: tuple[Served, Path]) -> None:
    server, _ = local
    r = httpx.post(f"{server.url}/v1/documents", headers=AUTH, files={"file": ("big.csv", parts_csv(1500))},
                   timeout=60)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["field"] == "file" and "its 1,500 passages would take about" in error["message"]
    assert "over kb's limit of 1,000 passages" in error["message"] and "KB_MAX_DOCUMENT_CHUNKS" in error["message"]
    assert [j["file"] for j in httpx.get(f"{server.url}/v1/jobs").json()] == ["parts.csv"]


def test_with_redis_an_rq_worker_beside_the_replica_takes_the_job(settings: Settings,
                                                                   tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis") as redis_server:
        env = {"KB_INDEX_DIR": str(settings.index_dir), "KB_CORPUS_DIR": str(settings.corpus_dir),
               "KB_SOURCES_DIR": str(tmp_path / "store"), "KB_ADMIN_KEYS": json.dumps([ADMIN]),
               "KB_REDIS_URL": redis_server.url, "KB_RATE_LIMIT_PER_MINUTE": "0"}
        server = Served(env)
        try:
            server.wait_ready()
            r = httpx.post(f"{server.url}/v1/documents", headers=AUTH, files={"file": ("parts.csv", parts_csv(40))},
                           timeout=60)
            assert r.status_code == 202, r.text
            assert wait_for_job(server.url, r.json()["id"])["done"] == 40
            workers = [(cmd, nice) for _, cmd, nice in children(server.proc.pid) if "kb.documents.worker" in cmd]
            assert len(workers) == 1 and workers[0][1] == 19
            import redis

            assert redis.Redis.from_url(redis_server.url).exists(f"rq:job:embed-{r.json()['id']}")
        finally:
            server.stop()
        assert not [c for c in children(server.proc.pid)]  # the worker stopped with its replica
