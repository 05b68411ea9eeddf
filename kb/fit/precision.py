"""Number formats: bits a weight, which tensor rate a format computes at on a card, and a model's release format.

- fp8 (e4m3) stores 8 bits; DeepSeek-V3's 128×128 blocks add one fp32 scale a block (32/16,384 bit).
- mxfp4: 4 bits + one 8-bit scale per 32 values = 4.25; nvfp4: + one 8-bit scale per 16 = 4.5 (OCP MX spec,
  NVIDIA NVFP4); fp4 alone is taken as mxfp4.
- A format computes at the card's own dense rate for it (FP8, FP4 on Blackwell); a card without that tensor
  core stores the format but computes in 16-bit (A100 and A800 for FP8, whose datasheets list none; everything
  before Blackwell for FP4; kb.fit.support says where that runs at all). GeForce records give FP8 with fp32
  accumulate, half the FP16-accumulate figure.
- With no --precision, inference uses the release precision: DeepSeek-V3/R1 and Kimi K2 ship FP8 blocks with
  BF16 embeddings, head and norms; gpt-oss ships MXFP4 experts with everything else BF16.
"""

from __future__ import annotations

from kb.fit.gpus import GpuSpec

BITS = {"fp32": 32.0, "bf16": 16.0, "fp16": 16.0, "fp8": 8.0 + 32 / 16384, "int8": 8.0, "int4": 4.125,
        "nf4": 4.127, "fp4": 4.25, "mxfp4": 4.25, "nvfp4": 4.5}
QUANTISED = {"fp8", "int8", "int4", "nf4", "fp4", "mxfp4", "nvfp4"}  # blocks' linear layers; the rest stays 16-bit
FP4 = {"fp4", "mxfp4", "nvfp4"}


def compute_tflops(gpu: GpuSpec, precision: str) -> tuple[float | None, str]:
    """(dense TFLOPS, the format the math runs in) for matmuls of `precision` weights on `gpu`: the format's own
    tensor rate, else the card's 16-bit one (BF16; FP16 on Volta and Turing; FP32 on Pascal); None where the record
    gives no rate."""
    if precision in FP4 and gpu.fp4_dense_tflops:
        return gpu.fp4_dense_tflops, "fp4"
    if precision == "fp8" and gpu.fp8_dense_tflops:
        return gpu.fp8_dense_tflops, "fp8"
    return gpu.bf16_dense_tflops, gpu.rate_format


# FP8 training's end-to-end gain over BF16 on the same card: NVIDIA's NeMo AutoModel docs measure "over 1.2x training
# speedup on 8xH100" with per-tensor FP8 scaling, and DeepSeek-V3's FP8 run (fine-grained block scaling) reached
# 385–432 TFLOP/s, 39–44 % of the H800's BF16 peak (DeepSeek, "Insights into DeepSeek-V3", ISCA '25, table 4): far
# from the FP8 peak's 2x, since attention, norms, scaling and casts stay in higher precision.
FP8_TRAIN_GAIN = 1.2


def training_tflops(gpu: GpuSpec, precision: str) -> float | None:
    """The dense rate training runs at: the 16-bit rate, × FP8_TRAIN_GAIN for FP8 training on FP8 tensor cores."""
    if gpu.bf16_dense_tflops is None:
        return None
    if precision == "fp8" and gpu.fp8_dense_tflops:
        return gpu.bf16_dense_tflops * FP8_TRAIN_GAIN
    return gpu.bf16_dense_tflops


def experts_only(precision: str, release: str) -> bool:
    """gpt-oss's checkpoint quantises the MoE experts alone; asking for its own format keeps that split."""
    return release == "mxfp4-experts" and precision in FP4


def release_precision(release: str) -> str | None:
    """The --precision a model's release format corresponds to (None: a 16-bit release)."""
    return {"fp8": "fp8", "mxfp4-experts": "mxfp4", "int4": "int4", "int8": "int8"}.get(release)
