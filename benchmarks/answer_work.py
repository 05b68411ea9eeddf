"""kb's own work on an answer without its embedding: `Engine.answer` on fresh questions, query vectors cached.

The questions are the eval sets' own (tests/eval/questions.jsonl, tests/eval/dev/answers.jsonl; never a
*_test set). Their query vectors (the question's, and its focus terms') are recorded first, in a process of
their own, so the timed process has answered none of them before: caches keyed by a question (the intent
reader's, the fit engine's checks) start cold for each, as for a fresh question in `kb serve`, and only the
embedding is skipped. Each round is one process that answers every question once, timing the whole answer
and its phases; with `--baseline COMMIT` (repeatable) a round of that commit's code (a `git archive` of it) alternates
with each round of this code, so both meet the same machine noise.

    .venv/bin/python benchmarks/answer_work.py --index .kb-index [--rounds 5] [--baseline COMMIT] [--cpu] [--profile]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SETS = [REPO / "tests/eval/questions.jsonl", REPO / "tests/eval/dev/answers.jsonl"]
# Where Engine.answer's time goes: (phase, "module:Class.method" or "module:function" wrapped to time it).
PHASES = [
    ("read the question", "kb.engine:Engine._turn"),
    ("search", "kb.engine:Engine.search"),
    ("  search: what it asks (focus)", "kb.engine:focus_of"),
    ("  search: query vector (cached)", "kb.retrieve.search:HybridSearcher.query_vector"),
    ("  search: BM25", "kb.retrieve.search:HybridSearcher.lexical_scores"),
    ("  search: fusion", "kb.retrieve.search:HybridSearcher.rank"),
    ("  search: passages", "kb.engine:to_passage"),
    ("fit checks", "kb.engine:answer_query"),
    ("intent", "kb.engine:classify"),
    ("compose", "kb.answer.compose:Composer.compose"),
    ("  compose: number check", "kb.answer.compose:Composer._join"),
]
# Questions answered before the timing starts, so the process is a warm server's: patterns compiled on first
# use (glossary phrases, names) and the focus terms' vectors met. Dev sets only, and none of the timed ones.
WARM_UP = [REPO / "tests/eval/blind_dev.jsonl", REPO / "tests/eval/blind3_dev.jsonl",
           REPO / "tests/eval/blind6_dev.jsonl", REPO / "tests/eval/dev/questions.jsonl"]


def questions(sets: list[Path] = SETS) -> list[str]:
    out: list[str] = []
    for path in sets:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line)["q"])
    return list(dict.fromkeys(out))


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def _engine() -> Any:
    from kb.engine import Engine
    from kb.settings import get_settings

    return Engine.open(get_settings(), build_if_needed=False)


def record(out: Path) -> None:
    """Every text the questions' answers embed, with its vector (this process then exits: its caches go)."""
    engine = _engine()
    for q in questions():
        engine.answer(q)
    out.write_bytes(pickle.dumps(dict(engine.cache._data)))


def _timed(spec: str, into: dict[str, list[float]], label: str, clock: Callable[[], float]) -> None:
    module_name, _, attr = spec.partition(":")
    module = __import__(module_name, fromlist=["_"])
    owner: Any = module
    *path, name = attr.split(".")
    for part in path:
        owner = getattr(owner, part)
    inner: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            into[label][-1] += clock() - t

    setattr(owner, name, wrapper)


def run(vectors: Path, profile: bool, cpu: bool = False) -> dict[str, list[float]]:
    """One round: warm up on other questions (WARM_UP), then answer each eval question once; `cpu`: the
    answering thread's CPU time rather than wall time (time the machine gave other processes left out)."""
    clock = time.thread_time if cpu else time.perf_counter
    engine = _engine()
    timed = set(questions())
    for q in questions(WARM_UP):
        if q not in timed:
            engine.answer(q)
    for text, vector in pickle.loads(vectors.read_bytes()).items():
        engine.cache.get_or_compute(text, lambda v=vector: v)
    times: dict[str, list[float]] = {"answer": [], **{label: [] for label, _ in PHASES}}
    for label, spec in PHASES:
        _timed(spec, times, label, clock)
    misses = engine.cache.misses
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
    for q in questions():
        for xs in times.values():
            xs.append(0.0)
        if profiler:
            profiler.enable()
        t = clock()
        engine.answer(q)
        times["answer"][-1] = clock() - t
        if profiler:
            profiler.disable()
    if engine.cache.misses != misses:
        raise SystemExit("a query vector was not cached: the timing would include an embedding")
    if profiler:
        import pstats

        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(40)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(60)
    return {k: [x * 1000 for x in v] for k, v in times.items()}


def _child(*args: str) -> list[str]:
    """This script in a new interpreter whose import path starts at its working directory (the code measured),
    not at benchmarks/, whose profile.py would stand in for the standard library's (cProfile imports it)."""
    code = f"import runpy, sys; sys.argv = {[__file__, *args]!r}; runpy.run_path({__file__!r}, run_name='__main__')"
    return [sys.executable, "-c", code]


def _round(code: Path, vectors: Path, index: str, profile: bool = False, cpu: bool = False) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")} | {
        "PYTHONPATH": str(code), "KB_INDEX_DIR": index, "KB_CORPUS_DIR": str(REPO / "corpus")}
    flags = [*(["--profile"] if profile else []), *(["--cpu"] if cpu else [])]
    done = subprocess.run(_child("--run", str(vectors), *flags), env=env,
                          capture_output=True, text=True, timeout=900, cwd=code)
    if done.returncode:
        raise SystemExit(done.stderr)
    if profile:
        print(done.stderr)
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", default=str(REPO / ".kb-index"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", action="append", default=[],
                    help="a commit whose code runs a round before each of this code's (repeatable)")
    ap.add_argument("--profile", action="store_true", help="one round under cProfile, its statistics printed")
    ap.add_argument("--cpu", action="store_true", help="time the answering thread's CPU, not the wall clock")
    ap.add_argument("--run", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--record", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.record:
        record(args.record)
        return 0
    if args.run:
        print(json.dumps(run(args.run, args.profile, args.cpu)))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        vectors = Path(tmp) / "vectors.pickle"
        env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")} | {
            "PYTHONPATH": str(REPO), "KB_INDEX_DIR": args.index, "KB_CORPUS_DIR": str(REPO / "corpus")}
        subprocess.run(_child("--record", str(vectors)), env=env, check=True, cwd=REPO)
        if args.profile:
            _round(REPO, vectors, args.index, profile=True)
            return 0
        codes: dict[str, Path] = {}
        for commit in args.baseline:
            base = Path(tmp) / commit
            base.mkdir()
            archive = subprocess.run(["git", "archive", commit], cwd=REPO, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
            codes[commit[:7]] = base
        codes["now"] = REPO
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        load = os.getloadavg()[0]
        results: dict[str, list[dict[str, list[float]]]] = {name: [] for name in codes}
        for _ in range(args.rounds):
            for name, code in codes.items():
                results[name].append(_round(code, vectors, args.index, cpu=args.cpu))
    print(f"{started}, load average {load:.2f} -> {os.getloadavg()[0]:.2f}, {len(questions())} questions, "
          f"{args.rounds} rounds alternating; p50 / p90 ms of {'CPU' if args.cpu else 'wall'} time, one figure a round")
    names = list(codes)
    print("| phase | " + " | ".join(f"{n} p50" for n in names) + " | " + " | ".join(f"{n} p90" for n in names) + " |")
    print("| --- " * (1 + 2 * len(names)) + "|")
    for label in ["answer", *(label for label, _ in PHASES)]:
        p50 = [" / ".join(f"{statistics.median(r[label]):.2f}" for r in results[n]) for n in names]
        p90 = [" / ".join(f"{pct(r[label], 0.9):.2f}" for r in results[n]) for n in names]
        name = "**Engine.answer, all**" if label == "answer" else label.replace("  ", "· ")
        print(f"| {name} | " + " | ".join(p50) + " | " + " | ".join(p90) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
