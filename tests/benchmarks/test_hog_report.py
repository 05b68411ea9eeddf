"""benchmarks/cpu_hog.py's verdict: one rule picks the policy nearest both targets, and the report says the load,
the baseline, the pick and whether it is kb's default."""

from __future__ import annotations

from typing import Any

from benchmarks.hog_report import judge, render


def row(bare: float, quiet: float, loaded: float) -> dict[str, Any]:
    return {"bare_p50_ms": bare, "quiet": {"p50_ms": quiet, "p99_ms": quiet * 2},
            "loaded": {"p50_ms": loaded, "p99_ms": loaded * 2}, "loaded_over_quiet": round(loaded / quiet, 2)}


def report(policies: dict[str, dict[str, Any]], load: float = 0.1) -> dict[str, Any]:
    return {"cores": 2, "hog_processes": 2, "seconds": 8, "started_utc": "2026-12-02 00:00", "policies": policies,
            "load_average_before": [load, load, load], "load_average_after": [load, load, load],
            "answer_only_p50_ms": 6.0}


def test_the_pick_is_the_policy_nearest_both_targets() -> None:
    r = report({"0:passive": row(30, 33, 60), "0:active": row(15, 17, 340), "1:passive": row(28, 29, 90)})
    judge(r, "0:passive")
    assert r["best_bare_p50_ms"] == 15 and r["policies"]["0:passive"]["quiet_over_best_bare"] == 2.2
    # passive: max(2.2/1.2, 1.82/2) = 1.83; active: max(1.13/1.2, 20/2) = 10; one thread: max(1.93/1.2, 3.1/2)
    assert r["scores"] == {"0:passive": 1.83, "0:active": 10.0, "1:passive": 1.61}
    assert r["pick"] == "1:passive" and not r["default_meets_both"] and not r["default_is_pick"]
    text = render(r)
    assert "meet both targets: none" in text and "NOT the pick; the numbers say 1:passive" in text
    assert "| 0:passive (default) | 30 | 33 |" in text
    assert text.endswith("FAIL  the default (0:passive) meets both targets")
    assert "caution" not in text and "p50 6.0 ms = 0.40 x best bare" in text


def test_a_default_meeting_both_passes_and_a_busy_machine_is_flagged() -> None:
    r = report({"0:passive": row(15, 17, 30), "0:active": row(16, 16, 300)}, load=3.0)
    judge(r, "0:passive")
    assert r["pick"] == "0:passive" and r["default_meets_both"] and r["default_is_pick"]
    text = render(r)
    assert "meet both targets: 0:passive" in text and "it is the pick" in text and text.endswith("meets both targets")
    assert "caution: the 1-minute load average was 3.0" in text


def test_rounds_are_judged_by_their_median() -> None:
    r = report({"0:passive #1": row(15, 17, 30), "0:passive #2": row(15, 40, 60), "0:passive #3": row(15, 18, 30),
                "1:active #1": row(16, 18, 50), "1:active #2": row(16, 18, 50), "1:active #3": row(16, 18, 50)})
    judge(r, "0:passive")
    assert r["scores"]["0:passive"] == 1.0 and r["pick"] == "0:passive"


def test_a_baseline_commit_is_shown_beside_this_code() -> None:
    r = report({"0:passive": row(20, 30, 50), "0:spin:1000": row(15, 20, 44)})
    r["baseline"] = {"commit": "abc1234", "policies": {"0:passive": row(20, 32, 60), "0:spin:1000": row(15, 22, 40)}}
    judge(r, "0:passive")
    text = render(r)
    assert "baseline abc1234 beside this code" in text
    assert "| 0:passive | 32 / 30 | 2.13 / 2.00 | 60 / 50 | 1.88 / 1.67 |" in text
    assert "| 0:spin:1000 | 22 / 20 | 1.47 / 1.33 | 40 / 44 | 1.82 / 2.2 |" in text
    assert r["scores"]["0:passive"] == 1.67  # the verdict is this code's alone
