"""What would make a check fit: the nearest single changes (adapter rank, precision, cards, workload, ZeRO stage,
offload).

Each candidate is a full check of its own; only those that fit are listed, nearest first within each kind
(the highest precision that fits, the lowest ZeRO stage, LoRA before QLoRA). A check that fits with most
of the card idle gets the cheaper one: the fewest cards that still fit.
"""

from __future__ import annotations

from collections.abc import Callable

from kb.errors import BadInput
from kb.fit.request import FitRequest
from kb.fit.result import Alternative, FitResult

IDLE = 0.5  # a check that leaves more than half of each card free gets a "fewer cards" alternative
# The adapters' rank people commonly train with (Unsloth's default r = 16; LLaMA-Factory's is 8): kb checks the
# QLoRA paper's r = 64, so a fine-tune that misses only by its adapters says what the usual rank needs.
COMMON_RANK = 16
LOWER = {"fp32": ("bf16", "int8", "int4"), "bf16": ("int8", "int4"), "fp16": ("int8", "int4"), "int8": ("int4",),
         "int4": (), "nf4": ()}
LORA_LOWER = {"fp32": ("bf16", "int8"), "bf16": ("int8",), "fp16": ("int8",), "int8": ()}

Check = Callable[[FitRequest], FitResult]


def _candidates(req: FitRequest, res: FitResult) -> list[tuple[str, list[FitRequest]]]:
    """Kinds of change, each with its options nearest first."""
    out: list[tuple[str, list[FitRequest]]] = []
    if req.workload in ("lora", "qlora") and req.lora_rank > COMMON_RANK:  # (the same cards and method)
        out.append(("rank", [req.model_copy(update={"lora_rank": COMMON_RANK})]))
    if req.workload == "inference":
        out.append(("precision", [req.model_copy(update={"precision": p}) for p in LOWER.get(res.precision, ())]))
    elif req.workload == "lora":
        out.append(("precision", [req.model_copy(update={"precision": p}) for p in LORA_LOWER.get(res.precision, ())]))
    if res.min_gpus is not None and res.min_gpus != req.count:
        # Full training's fewest cards are counted with ZeRO-3 when no stage was set (unsharded states never
        # shrink with more cards), so that alternative shards them too.
        zero = 3 if req.workload == "full" and not req.zero else req.zero
        out.append(("count", [req.model_copy(update={"count": res.min_gpus, "zero": zero})]))
    if req.workload in ("full", "lora"):
        targets = ("lora", "qlora") if req.workload == "full" else ("qlora",)
        out.append(("workload", [req.model_copy(update={"workload": w, "precision": None, "zero": 0, "offload": False})
                                 for w in targets]))
    if req.workload == "full" and req.count > 1:
        out.append(("zero", [req.model_copy(update={"zero": z}) for z in range((req.zero or 0) + 1, 4)]))
    if req.workload == "full" and not req.offload:
        out.append(("offload", [req.model_copy(update={"offload": True})]))
    return out


def alternatives(req: FitRequest, res: FitResult, check: Check) -> list[Alternative]:
    """The nearest changes that fit; for a fitting check with most of the card idle, the fewest cards."""
    if res.fits:
        idle = res.headroom_bytes > IDLE * res.per_gpu_available_bytes
        if not (idle and res.min_gpus is not None and res.min_gpus < req.count):
            return []
        kinds = [("count", [req.model_copy(update={"count": res.min_gpus})])]
    else:
        kinds = _candidates(req, res)
    found: list[Alternative] = []
    for change, options in kinds:
        for option in options:
            try:
                r = check(option)
            except BadInput:
                continue
            if r.fits:
                found.append(Alternative(change=change, workload=r.workload, precision=r.precision,  # type: ignore[arg-type]
                                         gpu_count=r.gpu_count, zero_stage=r.zero_stage, offload=option.offload,
                                         lora_rank=option.lora_rank if change == "rank" else None,
                                         fits=True, per_gpu_required_bytes=r.per_gpu_required_bytes,
                                         per_gpu_available_bytes=r.per_gpu_available_bytes))
                break
    return found
