"""Which reads a question's intent better on questions it was not built from: kb's patterns, or the nearest
labelled examples in the embedding space the index already uses?

The labelled examples are kb's own answer set and the shared dev set (their `type`); the blind dev set
(chat-style questions written before kb answered them) is what both are scored on, after mapping every
set's types onto the answer kinds kb composes (spec, fit, speed, selection, why, case, not_covered). The
pattern side is the intent the Engine returns in `state`; the neighbour side votes over the k nearest
examples by cosine similarity of the same embedder's query vectors.

    .venv/bin/python -m benchmarks.intent [--k 5]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from kb.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
LABELLED = [ROOT / "tests/eval/answers.jsonl", ROOT / "tests/eval/dev/answers.jsonl"]
BLIND = ROOT / "tests/eval/blind_dev.jsonl"
# Every set's types → the kinds of answer kb composes.
KIND = {"spec": "spec", "compare": "spec", "price": "spec", "fit": "fit", "count": "fit", "concurrency": "fit",
        "kv": "fit", "memory": "fit", "speed": "speed", "selection": "selection", "why": "why", "case": "case",
        "out_of_scope": "not_covered", "unknown": "unknown"}
# The Engine's intents → the same kinds (a cost answer is a speed/cost one; general reads as why).
INTENT = {"spec": "spec", "fit": "fit", "speed": "speed", "cost": "speed", "selection": "selection",
          "why": "why", "general": "why", "case": "case", "not_covered": "not_covered"}


def load(path: Path) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(r["q"], KIND[r["type"]]) for r in rows if "q" in r and r.get("type") in KIND]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--set", type=Path, default=BLIND, help="the questions scored (default: the blind dev half)")
    args = ap.parse_args()
    engine = Engine.open()
    examples = [e for path in LABELLED if path.is_file() for e in load(path) if e[1] != "unknown"]
    blind = [b for b in load(args.set) if b[1] != "unknown"]  # "unknown" is a name kb lacks, not an intent
    vectors = np.stack([engine.embed_query(engine.searcher.query_text(q, "zh" if any("\u4e00" <= c <= "\u9fff"
                                                                                      for c in q) else "en"))
                        for q, _ in examples])
    pattern_hits = neighbour_hits = 0
    by_kind: dict[str, list[int]] = {}
    for q, kind in blind:
        lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in q) else "en"
        said = INTENT.get(engine.answer(q).state.get("intent", ""), "?")
        v = engine.embed_query(engine.searcher.query_text(q, lang))
        nearest = np.argsort(-(vectors @ v))[: args.k]
        voted = Counter(examples[i][1] for i in nearest).most_common(1)[0][0]
        pattern_hits += said == kind
        neighbour_hits += voted == kind
        row = by_kind.setdefault(kind, [0, 0, 0])
        row[0] += 1
        row[1] += said == kind
        row[2] += voted == kind
    n = len(blind)
    print(f"{n} questions of {args.set.name}, {len(examples)} labelled examples, k = {args.k}")
    print(f"patterns (kb's intent):        {pattern_hits / n:.1%}")
    print(f"nearest labelled examples:     {neighbour_hits / n:.1%}")
    for kind, (total, p, nb) in sorted(by_kind.items()):
        print(f"  {kind:<12} n={total:<3} patterns {p / total:.0%}  neighbours {nb / total:.0%}")


if __name__ == "__main__":
    main()
