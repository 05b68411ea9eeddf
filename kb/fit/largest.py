"""The largest model a card holds: the biggest size, in tenths of a billion parameters, whose check still fits.

"4090 能跑多大的模型", "biggest model I can QLoRA on one A100" ask it of kb's own memory check, so the answer
is the same arithmetic as every verdict kb gives (a generic shape at the size; table 5.2 lists it for the guide's
cards at 4,096 tokens). A bisection over sizes: a check is monotone in the parameter count.
"""

from __future__ import annotations

from kb.fit.checker import Checker
from kb.fit.request import parse_request

MAX_TENTHS = 10_000  # 1,000B: past every card and count a question asks of


def largest_size_b(engine: Checker, gpu: str, workload: str = "inference", precision: str | None = None,
                   count: int = 1, seq_len: int | None = None) -> float:
    """Largest bare size (billions, 0.1 steps) whose `workload` at `precision` fits `count` × `gpu`; 0 if none."""
    def fits(tenths: int) -> bool:
        req = parse_request(model=f"{tenths / 10:.1f}b", workload=workload, gpu=gpu, count=count,
                            precision=precision, seq_len=seq_len)
        return engine.numbers(req).fits

    lo, hi = 0, MAX_TENTHS
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo / 10
