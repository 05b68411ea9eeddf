"""Whether a card can compute a number format for a workload, and what runs instead: read from its spec record.

The rules, each the way the frameworks people run enforce it:
- BF16 needs BF16 tensor cores (Ampere and newer; compute capability 8.0 — vLLM: "Bfloat16 is only supported on
  GPUs with compute capability of at least 8.0"). Volta and Turing run FP16 instead; Pascal has no tensor cores
  and computes 16-bit weights in FP32.
- FP8 training needs FP8 tensor cores (Ada 8.9, Hopper 9.0, Blackwell, MI300, Gaudi 3): Transformer Engine's FP8
  recipes do not run elsewhere; BF16 (or FP16) is what trains instead.
- FP8 inference on a card without FP8 tensor cores runs weight-only (W8A16: FP8 weights, 16-bit math) where the
  serving kernels support it — NVIDIA compute capability 8.0 and newer (vLLM's FP8 Marlin kernels); older cards
  and other makers without FP8 run INT8 or INT4 weights instead.
- FP4 (MXFP4, NVFP4) computes natively on Blackwell; elsewhere it runs weight-only where FP8 inference does (gpt-oss's
  MXFP4 experts on Hopper and Ampere), else INT4.
- INT8, INT4 and NF4 are weight-only formats: they dequantize to 16-bit on any card.
A card kb has no record of (its memory stated) has no capabilities kb could check: every format "runs" there,
with that said.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.fit.gpus import GpuSpec

WEIGHT_ONLY = ("int8", "int4", "nf4")
FP4 = ("fp4", "mxfp4", "nvfp4")
FEATURE_OF = {"bf16": "bf16_tensor", "fp8": "fp8_tensor", "fp4": "fp4_tensor", "mxfp4": "fp4_tensor",
              "nvfp4": "fp4_tensor"}


@dataclass(frozen=True)
class PrecisionSupport:
    """One card × format × workload: whether it runs, how, why not, what runs instead, and the record's source."""

    gpu: str
    precision: str
    workload: str
    mode: str  # native | weight-only | upcast (16-bit weights computed in FP32) | unchecked | refused
    reason: str  # the rule: "" | no_bf16 | no_fp8_training | no_fp8 | no_fp4 | fp32_math | no_record
    instead: tuple[str, ...]  # formats that run instead, nearest first (for a refusal, or a slow upcast)
    architecture: str
    compute_capability: str
    source: str  # the record's note for the capability the rule reads

    @property
    def runs(self) -> bool:
        return self.mode != "refused"


def _sixteen(gpu: GpuSpec) -> str:
    """The 16-bit format a card computes: BF16 where it has BF16 tensor cores, else FP16."""
    return "bf16" if gpu.capabilities.bf16 else "fp16"


def precision_support(gpu: GpuSpec, precision: str, workload: str) -> PrecisionSupport:
    """Whether `gpu` can run `precision` for `workload` (inference, full, lora, qlora), by the rules above."""
    caps = gpu.capabilities
    cc = caps.cc
    nvidia = cc is not None
    feature = FEATURE_OF.get(precision, "")
    source = caps.notes.get(feature, "") if feature else caps.notes.get("architecture", "")

    def out(mode: str, reason: str = "", instead: tuple[str, ...] = ()) -> PrecisionSupport:
        return PrecisionSupport(gpu.id, precision, workload, mode, reason, instead, caps.architecture,
                                caps.compute_capability, source)

    inference = workload == "inference"
    if gpu.stated:
        return out("unchecked", "no_record")
    if precision == "bf16":
        if caps.bf16 is False:
            return out("refused", "no_bf16", ("fp16", *WEIGHT_ONLY[:2]) if inference else ("fp16",))
        return out("native")
    if precision == "fp16":
        if gpu.rate_format == "fp32":
            return out("upcast", "fp32_math", WEIGHT_ONLY[:2] if inference else ())
        return out("native")
    if precision == "fp8":
        if caps.fp8:
            return out("native")
        if not inference:
            return out("refused", "no_fp8_training", (_sixteen(gpu),))
        if caps.fp8 is None and not nvidia:
            return out("native")  # (a record that cannot say: counted as it runs, the note says unknown)
        if nvidia and cc is not None and cc >= 8.0:
            return out("weight-only", "no_fp8", WEIGHT_ONLY[:2])
        return out("refused", "no_fp8", WEIGHT_ONLY[:2])
    if precision in FP4:
        if caps.fp4:
            return out("native")
        if not inference:
            return out("refused", "no_fp4", (_sixteen(gpu),))
        if (nvidia and cc is not None and cc >= 8.0) or (not nvidia and caps.fp8):
            return out("weight-only", "no_fp4", ("int4",))
        return out("refused", "no_fp4", ("int4",))
    if precision in WEIGHT_ONLY and gpu.rate_format == "fp32":
        return out("upcast", "fp32_math")
    return out("native")


def card_default_precision(gpu: GpuSpec, precision: str, workload: str) -> str:
    """The format a check uses when none was asked: the workload's or release's default, else what the card runs
    instead (BF16 → FP16 on Volta and Turing; an FP8 release → 16-bit on a card that cannot read FP8)."""
    s = precision_support(gpu, precision, workload)
    if s.runs:
        return precision
    if precision == "bf16" or workload != "inference":
        return s.instead[0]
    return _sixteen(gpu)  # a release the card cannot read: its 16-bit checkpoint


FEATURES_ASKED = ("bf16", "fp8", "fp4", "nvlink", "mig", "ecc", "architecture", "compute_capability")


@dataclass(frozen=True)
class CardFeature:
    """The answer to "does card X support Y", from its spec record: the value, in words-ready form, and its source."""

    gpu: str
    feature: str
    value: object  # True/False/None (unknown) for bf16/fp8/fp4; the record's words for the others
    detail: object  # e.g. NVLink GB/s, MIG instances, the compute capability
    source: str
    record_id: str


def card_feature(gpu: GpuSpec, feature: str) -> CardFeature:
    """Whether `gpu` has `feature` (bf16, fp8, fp4, nvlink, mig, ecc) or what its architecture / compute capability
    is, with the record's own source note. ValueError for a feature kb does not record."""
    caps = gpu.capabilities
    if feature not in FEATURES_ASKED:
        raise ValueError(f"unknown feature {feature!r}; accepted: {', '.join(FEATURES_ASKED)}")
    key = {"bf16": "bf16_tensor", "fp8": "fp8_tensor", "fp4": "fp4_tensor"}.get(feature, feature)
    value = caps.value(key)
    detail: object = None
    if feature == "nvlink":
        value = caps.nvlink
        detail = gpu.nvlink_gbs
    elif feature == "mig":
        detail = caps.mig
        value = None if caps.mig is None else caps.mig > 0
    elif feature in ("bf16", "fp8", "fp4"):
        detail = caps.compute_capability
    return CardFeature(gpu.id, feature, value, detail, caps.notes.get(key, ""), gpu.record_id)
