"""A conversation's words: the names of the slots a follow-up carries, and of the spec attributes asked about."""

from __future__ import annotations

_ATTRIBUTES: dict[str, dict[str, str]] = {
    "bandwidth": {"en": "memory bandwidth", "zh": "显存带宽"}, "vram": {"en": "VRAM", "zh": "显存容量"},
    "int8": {"en": "INT8 TOPS", "zh": "INT8 算力"}, "fp32": {"en": "FP32", "zh": "FP32 算力"},
    "tf32": {"en": "TF32", "zh": "TF32 算力"}, "compute": {"en": "FP16 TFLOPS", "zh": "FP16 算力"},
    "power": {"en": "power", "zh": "功耗"}, "nvlink": {"en": "NVLink", "zh": "NVLink"},
    "pcie": {"en": "PCIe", "zh": "PCIe"}, "price": {"en": "price", "zh": "价格"},
    "memory_type": {"en": "memory type", "zh": "显存类型"}, "fp8": {"en": "FP8 TFLOPS", "zh": "FP8 算力"},
    "fp4": {"en": "FP4 TFLOPS", "zh": "FP4 算力"}, "role": {"en": "what it is for", "zh": "定位"},
    "tensor_cores": {"en": "Tensor Cores", "zh": "Tensor Core"}, "ecc": {"en": "ECC", "zh": "ECC"},
    "mig": {"en": "MIG instances", "zh": "MIG 实例数"},
    "driver": {"en": "driver-reported memory", "zh": "驱动报告的显存"},
}
_SLOT_NAMES: dict[str, dict[str, str]] = {
    "model": {"en": "model", "zh": "模型"}, "gpu": {"en": "GPU", "zh": "显卡"},
    "gpu_count": {"en": "GPU count", "zh": "卡数"}, "workload": {"en": "workload", "zh": "任务"},
    "precision": {"en": "precision", "zh": "精度"}, "seq_len": {"en": "context", "zh": "上下文"},
    "concurrency": {"en": "concurrency", "zh": "并发"}, "batch": {"en": "batch", "zh": "批大小"},
    "budget_cny": {"en": "budget", "zh": "预算"}, "tokens": {"en": "training tokens", "zh": "训练 token"},
    "zero": {"en": "ZeRO stage", "zh": "ZeRO"}, "attributes": {"en": "asked about", "zh": "所问指标"},
    "case": {"en": "case", "zh": "案例"},
}

CONVERSATION = {**{f"attribute.{k}": v for k, v in _ATTRIBUTES.items()},
                **{f"slot.{k}": v for k, v in _SLOT_NAMES.items()}}
