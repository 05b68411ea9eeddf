"""The parts of a check that are choices and words, not arithmetic: which precision runs, which capacity, which card.

- the precision: the one asked, the workload's default or the model's release format, held to what the card can
  compute (kb.fit.support): a format it cannot run is refused with what runs instead (UnsupportedPrecision);
- the card: a spec record, or a card kb has no record of checked from the memory the request states;
- the Notes that say which shape, capacity and tensor rate a check used.
"""

from __future__ import annotations

import re

from kb.errors import BadInput
from kb.fit.gpus import GpuSpec
from kb.fit.precision import FP4, compute_tflops, release_precision
from kb.fit.presets import ModelShape
from kb.fit.request import WORKLOAD_PRECISIONS, FitRequest
from kb.fit.support import PrecisionSupport, card_default_precision, precision_support
from kb.numbers import GIB
from kb.words.note import Note, note

STATED_GPUS_PER_NODE = 8  # a card kb has no record of: 8 to a server, over PCIe (said in the check's assumptions)


class UnsupportedPrecision(BadInput):
    """A precision the card cannot compute for the workload; `support` says why and what runs instead."""

    def __init__(self, support: PrecisionSupport) -> None:
        self.support = support
        why = {"no_bf16": "has no BF16 tensor cores (BF16 needs compute capability 8.0)",
               "no_fp8_training": "has no FP8 tensor cores, which FP8 training needs",
               "no_fp8": "has no FP8 tensor cores and no weight-only FP8 kernels (those need compute capability 8.0)",
               "no_fp4": "has no FP4 tensor cores and no weight-only FP4 kernels"}.get(support.reason, support.reason)
        cc = f", compute capability {support.compute_capability}" if support.compute_capability[:1].isdigit() else ""
        super().__init__(f"precision {support.precision!r} cannot run on {support.gpu} for {support.workload}: "
                         f"{support.architecture}{cc} {why}; accepted instead: {', '.join(support.instead)}",
                         field="precision")


def resolve_precision(req: FitRequest, shape: ModelShape | None = None, gpu: GpuSpec | None = None) -> str:
    """--precision, else the workload's default; inference of a model released in FP8/MXFP4/INT4 uses that. Held
    to the card: a format asked that it cannot compute is refused; a default it cannot is replaced by what it runs."""
    allowed = WORKLOAD_PRECISIONS[req.workload]
    if req.precision is None:
        released = release_precision(shape.release) if shape is not None else None
        chosen = released if req.workload == "inference" and released else allowed[0]
        return card_default_precision(gpu, chosen, req.workload) if gpu is not None else chosen
    if req.precision not in allowed:
        raise BadInput(f"precision {req.precision!r} is not modelled for {req.workload}; accepted: "
                       f"{', '.join(allowed)}", field="precision")
    if gpu is not None:
        support = precision_support(gpu, req.precision, req.workload)
        if not support.runs:
            raise UnsupportedPrecision(support)
    return req.precision


def stated_card(name: str, vram_gib: float) -> GpuSpec:
    """A card kb has no record of, from the memory a request states: the memory alone is known."""
    gid = re.sub(r"\s+", " ", name.strip())
    return GpuSpec(id=gid, name=gid, record_id="", section="", datacenter=False, vram_gib=vram_gib,
                   bandwidth_gbs=None, bf16_dense_tflops=None, int8_dense_tops=None, int8_sparse_tops=None, tdp_w=None,
                   nvlink_gbs=None, pcie_gbs=None, price_cny=None, price_source=None, price_section=None,
                   capacity_unit="GiB", capacity_value=vram_gib, gpus_per_node=STATED_GPUS_PER_NODE,
                   intra_node_link="pcie-4", stated=True)


def shape_note(shape: ModelShape) -> Note:
    dims = note("shape_dims", layers=shape.layers, hidden=shape.hidden, heads=shape.heads, kv_heads=shape.kv_heads,
                head_dim=shape.head_dim, ffn=shape.ffn, vocab=shape.vocab)
    if shape.estimated_from:
        return note("shape_estimated", params=shape.params, base=shape.estimated_from, dims=dims)
    if shape.moe:
        moe = note("shape_moe", experts=shape.experts, active=shape.experts_active, shared=shape.shared_experts,
                   expert_ffn=shape.expert_ffn, moe_layers=shape.moe_layers, params=shape.params,
                   active_params=shape.active_params)
        return note("shape_preset_moe", name=shape.name, dims=dims, moe=moe)
    return note("shape_preset", name=shape.name, dims=dims, params=shape.params)


def capacity_note(gpu: GpuSpec, vram_gib: float | None) -> Note:
    """Which capacity a check uses: the memory stated (a card kb has no record of, or --vram-gib), else the driver's
    total where the record has it, else the record's nominal figure."""
    if gpu.stated:
        return note("capacity_stated", gpu=gpu.id, gib=gpu.vram_gib)
    if vram_gib:
        return note("capacity_override", gib=vram_gib)
    if not gpu.driver_mib:
        return note("capacity_" + gpu.capacity_unit.lower())
    nominal = f"{gpu.capacity_value:g} {gpu.capacity_unit}"
    ecc: Note | str = ""
    driver_note = str(gpu.figures.get("vram_driver_mib", {}).get("note", ""))
    if "ECC on" in driver_note:
        ecc = note("ecc_on")
    elif "ECC off" in driver_note:
        ecc = note("ecc_off")
    return note("capacity_driver", mib=gpu.driver_mib, gib=gpu.vram_bytes / GIB, nominal=nominal, ecc=ecc)


def citations(gpu: GpuSpec, figures: list[str], priced: bool) -> list[str]:
    if gpu.stated:
        return []
    cites = [gpu.record_id]
    for name in figures:
        fig = gpu.figures.get(name, {})
        if fig.get("source") == "doc" and fig.get("section"):
            cites.append(f"guide-{fig['section']}")
    if priced:
        cites += gpu.price_citations()
    return list(dict.fromkeys(cites))


def format_notes(req: FitRequest, shape: ModelShape, gpu: GpuSpec, precision: str) -> tuple[list[Note], str]:
    """Which tensor rate the format computes at, the release format when --precision was not given, and how the
    card computes it (native, weight-only, upcast, unchecked)."""
    out: list[Note] = []
    released = release_precision(shape.release)
    if req.precision is None and released and precision == released:
        out.append(note("release_precision", precision=precision, what=note(f"release.{shape.release}")))
    elif req.precision is None and released and req.workload == "inference":
        out.append(note("release_not_runnable", gpu=gpu.id, release=released, precision=precision))
    support = precision_support(gpu, precision, req.workload)
    if req.precision is None and req.workload != "inference" and precision != WORKLOAD_PRECISIONS[req.workload][0]:
        out.append(note("default_not_runnable", gpu=gpu.id, default=WORKLOAD_PRECISIONS[req.workload][0],
                        precision=precision, arch=support.architecture))
    if support.mode == "unchecked":
        out.append(note("format_unchecked", gpu=gpu.id, precision=precision))
        return out, support.mode
    rate, fmt = compute_tflops(gpu, precision)
    if support.mode == "upcast":
        out.append(note("upcast_fp32", gpu=gpu.id, precision=precision))
    elif precision == "fp8" and fmt != "fp8":
        out.append(note("no_fp8_cores", gpu=gpu.id))
    elif precision in FP4 and fmt != "fp4":
        out.append(note("no_fp4_cores", gpu=gpu.id))
    elif fmt in ("fp8", "fp4") and rate is not None:
        out.append(note("fp8_rate", precision=precision, fmt=fmt.upper(), tflops=rate))
    elif gpu.rate_format == "fp16" and precision in ("fp16", "bf16"):
        out.append(note("fp16_rate", gpu=gpu.id))
    return out, support.mode
