"""kb's estimates against published measurements (benchmarks/fit_accuracy.py lists them with kb's error)."""

from __future__ import annotations

import pytest

from benchmarks.fit_accuracy import CASES, Case


@pytest.mark.parametrize("case", CASES, ids=[c.what for c in CASES])
def test_published_figure_within_its_tolerance(case: Case) -> None:
    v = case.value()
    assert case.holds(), f"{case.what}: kb {v:,.4g} vs published {case.published:,.4g} {case.unit} ({case.kind}, " \
                         f"{case.tolerance:g}; {case.why})"


def test_decode_bounds_sit_above_every_measured_speed() -> None:
    uppers = [c for c in CASES if c.kind == "upper"]
    assert len(uppers) >= 6 and all(c.value() >= c.published for c in uppers)
