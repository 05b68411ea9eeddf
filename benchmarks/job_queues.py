"""Which queue library carries document embedding jobs over Redis: RQ, arq and Dramatiq measured on one Redis.

For each, one worker process is started, then N no-op jobs are enqueued one after another, each waited for:
the time `enqueue` takes in the caller (a request's share), the time from enqueue until the job starts in the
worker (how soon a replica's worker takes it), and the worker's memory and CPU while idle (what every replica
pays for having one). The jobs of kb take seconds to minutes, so the start latency matters only in hundreds of
milliseconds; an idle worker that polls costs every replica CPU all day.

    python -m benchmarks.job_queues [--jobs 100]     (prints a table for benchmarks/README.md)

arq and Dramatiq are not kb dependencies: install them to run this (pip install arq dramatiq).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from tests.support.servers import RedisServer

KEY = "bench:started"


def started(n: int) -> None:
    """The job: note when it started (the worker's clock is the caller's: one machine)."""
    redis.Redis.from_url(os.environ["BENCH_REDIS"]).hset(KEY, str(n), repr(time.time()))


async def started_async(ctx: dict, n: int) -> None:  # type: ignore[type-arg]
    started(n)


class ArqSettings:
    functions = (started_async,)
    redis_settings = None  # set in the worker from BENCH_REDIS


def _dramatiq_broker(url: str):  # type: ignore[no-untyped-def]
    import dramatiq
    from dramatiq.brokers.redis import RedisBroker

    broker = RedisBroker(url=url)
    dramatiq.set_broker(broker)
    return broker


def dramatiq_actor():  # type: ignore[no-untyped-def]
    import dramatiq

    return dramatiq.actor(started, actor_name="started", queue_name="bench")


WORKERS = {
    "rq-simple": "from rq import SimpleWorker, Queue; import redis, os; "
                 "c = redis.Redis.from_url(os.environ['BENCH_REDIS']); "
                 "SimpleWorker([Queue('bench', connection=c)], connection=c).work()",
    "rq": "from rq import Worker, Queue; import redis, os; c = redis.Redis.from_url(os.environ['BENCH_REDIS']); "
          "Worker([Queue('bench', connection=c)], connection=c).work()",
    "arq": "import os; from arq.connections import RedisSettings; from arq.worker import run_worker; "
           "from benchmarks import job_queues as b; b.ArqSettings.redis_settings = "
           "RedisSettings.from_dsn(os.environ['BENCH_REDIS']); run_worker(b.ArqSettings)",
    "dramatiq": "import sys; from dramatiq.cli import main; sys.argv = ['dramatiq', '--processes', '1', '--threads', "
                "'1', 'benchmarks.job_queues_dramatiq']; sys.exit(main())",
}


def _rss_cpu(pid: int) -> tuple[float, float]:
    """The process tree's resident memory (MB) and CPU seconds so far."""
    pids = [pid, *map(int, subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split())]
    rss = cpu = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in pids:
        try:
            stat = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(stat[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
            cpu += (int(stat[11]) + int(stat[12])) / tick
        except (FileNotFoundError, IndexError):
            continue
    return rss, cpu


def _enqueue(lib: str, url: str) -> tuple[object, object]:
    if lib.startswith("rq"):
        from rq import Queue

        queue = Queue("bench", connection=redis.Redis.from_url(url))
        return (lambda n: queue.enqueue("benchmarks.job_queues.started", n)), None
    if lib == "arq":
        from arq import create_pool
        from arq.connections import RedisSettings

        loop = asyncio.new_event_loop()
        pool = loop.run_until_complete(create_pool(RedisSettings.from_dsn(url)))
        return (lambda n: loop.run_until_complete(pool.enqueue_job("started_async", n))), loop
    from benchmarks import job_queues_dramatiq

    return (lambda n: job_queues_dramatiq.started.send(n)), None


def measure(lib: str, url: str, jobs: int) -> dict[str, float]:
    env = {**os.environ, "BENCH_REDIS": url, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    worker = subprocess.Popen([sys.executable, "-c", WORKERS[lib]], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    client = redis.Redis.from_url(url)
    try:
        enqueue, _ = _enqueue(lib, url)
        client.delete(KEY)
        time.sleep(3)  # the worker up and listening
        enq, start = [], []
        for n in range(jobs):
            t0 = time.time()
            enqueue(n)  # type: ignore[operator]
            enq.append(time.time() - t0)
            deadline = time.time() + 10
            while (at := client.hget(KEY, str(n))) is None and time.time() < deadline:
                time.sleep(0.001)
            start.append(float(at) - t0 if at is not None else float("nan"))
        _, cpu0 = _rss_cpu(worker.pid)
        time.sleep(10)
        rss1, cpu1 = _rss_cpu(worker.pid)
        return {"enqueue_ms": statistics.median(enq) * 1e3, "start_ms": statistics.median(start) * 1e3,
                "start_p95_ms": sorted(start)[int(0.95 * len(start))] * 1e3, "rss_mb": rss1,
                "idle_cpu_pct": (cpu1 - cpu0) / 10 * 100}
    finally:
        worker.terminate()
        try:
            worker.wait(10)
        except subprocess.TimeoutExpired:
            worker.kill()


def main() -> None:
    os.environ.setdefault("BENCH_REDIS", "")
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--libs", default="rq,arq,dramatiq")
    args = parser.parse_args()
    with RedisServer(Path(tempfile.mkdtemp())) as r:
        print("| library | enqueue p50 | enqueue → start p50 | p95 | idle worker RSS | idle worker CPU |")
        print("| --- | --- | --- | --- | --- | --- |")
        os.environ["BENCH_REDIS"] = r.url
        for lib in args.libs.split(","):
            m = measure(lib, r.url, args.jobs)
            print(f"| {lib} | {m['enqueue_ms']:.2f} ms | {m['start_ms']:.1f} ms | {m['start_p95_ms']:.1f} ms | "
                  f"{m['rss_mb']:.0f} MB | {m['idle_cpu_pct']:.2f} % |")


if __name__ == "__main__":
    main()
