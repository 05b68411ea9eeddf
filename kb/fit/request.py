"""FitRequest: what a fit check needs, validated the same way for the CLI, HTTP and question parsing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kb.errors import BadInput

Workload = Literal["inference", "full", "lora", "qlora"]
Precision = Literal["fp32", "bf16", "fp16", "int8", "int4", "nf4"]
WORKLOADS: tuple[str, ...] = ("inference", "full", "lora", "qlora")
PRECISIONS: tuple[str, ...] = ("fp32", "bf16", "fp16", "int8", "int4", "nf4")
MAX_COUNT = 4096  # beyond the largest published training runs' node counts a typo is likelier
MAX_SEQ = 1_048_576  # 1M tokens: the longest context any released model serves
MAX_BATCH = 4096
MAX_CONCURRENCY = 65536  # past any one deployment's concurrent sequences
MAX_TOKENS = 1e15  # a thousand trillion training tokens: far past any corpus

# Precisions each workload is modelled for, the default first.
WORKLOAD_PRECISIONS: dict[str, tuple[str, ...]] = {
    "inference": ("fp16", "bf16", "fp32", "int8", "int4", "nf4"),
    "full": ("bf16", "fp16"),  # mixed-precision Adam; fp32 accumulate in the tensor cores
    "lora": ("bf16", "fp16", "fp32", "int8"),
    "qlora": ("nf4",),
}
DEFAULT_SEQ = {"inference": 4096, "full": 2048, "lora": 2048, "qlora": 2048}


class FitRequest(BaseModel):
    """One fit check's parameters: `kb fit` options, `POST /v1/fit` fields."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090"},
        {"model": "70b", "workload": "inference", "gpu": "a100-80gb", "count": 2, "precision": "fp16"},
    ]})

    model: str = Field(min_length=1, max_length=64, description="a preset or a size such as 7b, 13B, 6.7e9",
                       examples=["llama-2-7b", "13b"])
    workload: Workload = Field(description="inference, full (mixed-precision Adam), lora or qlora")
    gpu: str = Field(min_length=1, max_length=64, examples=["rtx-4090", "a100-80gb"])
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="GPUs of that kind")
    precision: Precision | None = Field(default=None, description="default: fp16 inference, bf16 full/lora, nf4 qlora")
    seq_len: int | None = Field(default=None, ge=1, le=MAX_SEQ, description="default 4096 inference, 2048 training")
    batch: int = Field(default=1, ge=1, le=MAX_BATCH, description="sequences at once (training: on each GPU)")
    zero: int = Field(default=0, ge=0, le=3, description="ZeRO stage for full training")
    tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS, allow_inf_nan=False,
                                 description="training tokens, for time and cost")
    vram_gib: float | None = Field(default=None, gt=0, le=4096, allow_inf_nan=False,
                                   description="override the card's capacity (GiB)")
    checkpointing: bool | None = Field(default=None, description="activation checkpointing; default on for training")
    lora_rank: int = Field(default=64, ge=1, le=4096, description="LoRA/QLoRA rank (adapters on all linear layers)")
    concurrency: int | None = Field(default=None, ge=1, le=MAX_CONCURRENCY,
                                    description="inference: sequences served at once (default: batch)")
    offload: bool = Field(default=False, description="full training: optimizer states offloaded to the host")


ACCEPTED = {
    "model": "a preset or a size such as 7b, 13B, 6.7e9",
    "workload": ", ".join(WORKLOADS),
    "gpu": "a GPU id such as rtx-4090, a100-80gb",
    "count": f"a whole number from 1 to {MAX_COUNT}",
    "precision": ", ".join(PRECISIONS),
    "seq_len": f"a whole number of tokens from 1 to {MAX_SEQ:,}",
    "batch": f"a whole number from 1 to {MAX_BATCH}",
    "zero": "0, 1, 2 or 3",
    "tokens": f"a positive number up to {MAX_TOKENS:.0e}",
    "vram_gib": "a positive number of GiB up to 4096",
    "checkpointing": "true or false",
    "lora_rank": "a whole number from 1 to 4096",
    "concurrency": f"a whole number from 1 to {MAX_CONCURRENCY}",
    "offload": "true or false",
}


def parse_request(**fields: Any) -> FitRequest:
    """A FitRequest, or BadInput naming the first wrong field and what it accepts."""
    try:
        return FitRequest(**fields)
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "request"
        got = fields.get(name)
        accepted = ACCEPTED.get(name, "see `kb fit --help`")
        raise BadInput(f"{name.replace('_', '-')} {got!r} is not accepted; accepted: {accepted}", field=name) from e
