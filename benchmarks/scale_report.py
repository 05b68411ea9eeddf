"""What benchmarks/scale.py's runs share: timing, percentiles, the load average, resident memory."""

from __future__ import annotations

import os
import resource
import statistics
import time
from collections.abc import Callable
from typing import Any


def ms(f: Callable[[], Any]) -> float:
    """Milliseconds one call of f takes."""
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


def p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=100)[94]


def load() -> str:
    """The 1-, 5- and 15-minute load averages, as `uptime` shows them (2 cores, shared)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def rss_mb(current: bool = False) -> float:
    """Peak resident memory of this process (or the current one), MB."""
    if current:
        with open("/proc/self/status", encoding="ascii") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
