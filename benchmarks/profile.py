"""Where a sampled `kb serve` spent its time: py-spy's raw (collapsed) stacks folded into a few buckets.

A sample is one thread's stack at one instant; threads parked in a wait (an idle pool thread, the event loop in
select) are left out, so the shares are of the time threads were doing something. Buckets are checked in order
and a stack goes to the first that matches any frame, innermost first, so "query embedding" is the time inside
the embedder's call wherever it was made from.

    python benchmarks/profile.py stacks.txt      (from: py-spy record --pid PID --format raw -o stacks.txt)
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

IDLE = ("Condition.wait", "Queue.get", "EpollSelector.select", "Event.wait", "_wait_for_tstate_lock",
        "Future.result", "SimpleQueue.get")
BUCKETS = [
    ("query embedding (inside the embedder)", ("E5._encode", "SentenceTransformer.encode")),
    ("answer: fit checks", ("answer_query",)),
    ("answer: composition (summary, passages)", ("summarise", "to_passage")),
    ("answer: search (dense + BM25)", ("HybridSearcher.", "LexicalIndex.", "DenseIndex.")),
    ("answer: JSON rendering", ("model_dump_json",)),
    ("answer: the rest of Engine.answer", ("Engine.answer",)),
    ("access log", ("Logger.", "JsonFormatter", "StreamHandler")),
    ("metrics", ("Metrics.", "prometheus_client")),
    ("request middleware, routing, validation", ("RequestMiddleware", "APIRoute", "Router.", "FastAPI.")),
    ("HTTP parsing and sockets (uvicorn, h11)", ("h11", "H11Protocol", "_SelectorSocketTransport")),
    ("thread hand-offs", ("call_soon_threadsafe", "Condition.notify", "Future.set_result", "_drain",
                          "run_sync", "submit")),
    ("event loop", ("BaseEventLoop",)),
]


def _bucket(frames: list[str]) -> str:
    names = [f.split(" (")[0] for f in frames]
    for label, keys in BUCKETS:
        if any(key in name for name in names for key in keys):
            return label
    return "other"


def summarise_stacks(path: Path) -> dict[str, Any]:
    """{"samples", "active", "shares": [(share of active samples, bucket), ...]} for one py-spy raw file."""
    counts: Counter[str] = Counter()
    total = 0
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        total += int(n)
        frames = stack.split(";")
        if any(idle in frames[-1] for idle in IDLE):
            continue
        counts[_bucket(frames)] += int(n)
    active = sum(counts.values())
    return {"samples": total, "active": active,
            "shares": [(round(c / active, 4), label) for label, c in counts.most_common()] if active else []}


if __name__ == "__main__":
    summary = summarise_stacks(Path(sys.argv[1]))
    print(f"{summary['active']} active of {summary['samples']} samples")
    for share, label in summary["shares"]:
        print(f"{share:6.1%}  {label}")
