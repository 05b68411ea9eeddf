"""Fresh-question latency while a large document embeds, beside the quiet latency measured in the same run.

One `kb serve` (its own store; the default local worker process), 4 clients asking fresh questions (each text
asked once: no cache helps) back to back:
  1. quiet: for --quiet seconds, nothing else running;
  2. loaded: a document of --chunks passages (a CSV, one row a passage) uploaded through POST /v1/documents,
     then the same 4 clients for --loaded seconds while its job is `embedding n/N`.
It prints both p50s and p95s, their ratio (issue 39 asks ≤ 2×), how far the job got (passages a second) and,
with --until-ready, how long the whole document took. The worker's priority and threads come from the usual
settings (KB_DOCUMENT_WORKER_NICE, KB_DOCUMENT_WORKER_THREADS), so variants are measured by setting them.

    python -m benchmarks.ingestion --index-dir DIR [--chunks 10000] [--quiet 30] [--loaded 60] [--until-ready]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx

from tests.support.served import Served

ADMIN = "bench-admin-key-000001"
_COUNTER = itertools.count(1)
_LOCK = threading.Lock()
TEMPLATES = ("能用{n}张RTX 4090 做 {m}B 模型的 QLoRA 微调吗？", "Can {n} A100 80GB cards serve a {m}B model in fp16?",
             "{m}B 模型推理需要几张 H100？上下文 {n}k",
             "How much VRAM does a {m}B model need for LoRA with {n}k context?")


def fresh_question() -> str:
    with _LOCK:
        i = next(_COUNTER)
    return TEMPLATES[i % len(TEMPLATES)].format(n=2 + i % 7, m=7 + i % 60 + i // 420 * 100)


def document(chunks: int) -> bytes:
    """A parts inventory: one row a passage, no card named (the job's cost is its embedding, not prices)."""
    rows = ["序号,项目,说明,数量"] + [
        f"{i},机柜配件 {i},第 {i} 号配件：导轨与线缆，适用于 4U 服务器,{i % 9 + 1}" for i in range(1, chunks + 1)]
    return ("\n".join(rows) + "\n").encode("utf-8")


def clients(url: str, seconds: float, n: int = 4) -> list[float]:
    """`n` clients asking fresh questions back to back for `seconds`; every answer's latency (s)."""
    out: list[float] = []
    stop = time.monotonic() + seconds

    def run() -> None:
        with httpx.Client(timeout=120) as client:
            while time.monotonic() < stop:
                t0 = time.perf_counter()
                r = client.post(f"{url}/v1/ask", json={"question": fresh_question()})
                assert r.status_code == 200, r.text
                with _LOCK:
                    out.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def _p(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--index-dir", required=True)
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--quiet", type=float, default=30)
    parser.add_argument("--loaded", type=float, default=60)
    parser.add_argument("--until-ready", action="store_true")
    args = parser.parse_args()
    store = Path(tempfile.mkdtemp(prefix="kb-ingest-"))
    env = {"KB_INDEX_DIR": args.index_dir, "KB_SOURCES_DIR": str(store), "KB_ADMIN_KEYS": json.dumps([ADMIN]),
           "KB_RATE_LIMIT_PER_MINUTE": "0", "KB_MAX_DOCUMENT_CHUNKS": str(max(args.chunks, 20_000)),
           **{k: v for k, v in os.environ.items() if k.startswith("KB_DOCUMENT_WORKER")}}
    server = Served(env)
    try:
        server.wait_ready()
        clients(server.url, 5)  # warm: the first answers load what the rest reuse
        quiet = clients(server.url, args.quiet)
        data = document(args.chunks)
        t0 = time.perf_counter()
        r = httpx.post(f"{server.url}/v1/documents", headers={"Authorization": f"Bearer {ADMIN}"},
                       files={"file": ("parts.csv", data)}, timeout=600)
        upload_s = time.perf_counter() - t0
        assert r.status_code == 202, r.text
        doc = r.json()["id"]
        loaded = clients(server.url, args.loaded)
        job = httpx.get(f"{server.url}/v1/jobs/{doc}", timeout=30).json()
        elapsed = time.perf_counter() - t0
        print(f"document: {args.chunks:,} passages ({len(data) / 2**20:.1f} MB CSV); upload answered in "
              f"{upload_s * 1000:.0f} ms ({r.json()['status']})")
        print(f"quiet:  {len(quiet)} answers, p50 {_p(quiet, 0.5):.0f} ms, p95 {_p(quiet, 0.95):.0f} ms")
        print(f"loaded: {len(loaded)} answers, p50 {_p(loaded, 0.5):.0f} ms, p95 {_p(loaded, 0.95):.0f} ms "
              f"(p50 ratio {statistics.median(loaded) / statistics.median(quiet):.2f}x)")
        print(f"job after {elapsed:.0f} s: {job['status']} ({job['done'] / elapsed:.1f} passages/s under load)")
        if args.until_ready:
            while job["state"] not in ("ready", "failed"):
                time.sleep(2)
                job = httpx.get(f"{server.url}/v1/jobs/{doc}", timeout=30).json()
            total = time.perf_counter() - t0
            print(f"job {job['status']} after {total:.0f} s ({args.chunks / total:.1f} passages/s overall)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
