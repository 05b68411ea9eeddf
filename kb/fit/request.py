"""FitRequest: what a fit check needs, validated the same way for the CLI, HTTP and question parsing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from kb.errors import BadInput

Workload = Literal["inference", "full", "lora", "qlora"]
Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "fp4", "mxfp4", "nvfp4"]
WORKLOADS: tuple[str, ...] = ("inference", "full", "lora", "qlora")
PRECISIONS: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "fp4", "mxfp4", "nvfp4")
MAX_COUNT = 65536  # 8,192 nodes of 8: past the largest published training clusters (Llama 3: 16,384 H100)
MAX_TP = 64  # a tensor-parallel group past one NVL72 rack is a typo
MAX_PP = 256
DEFAULT_INTER_NODE_GBPS = 400.0  # InfiniBand NDR / 400G RoCE, one NIC a GPU (DGX H100 user guide)
MAX_SEQ = 1_048_576  # 1M tokens: the longest context any released model serves
MAX_BATCH = 4096
MAX_CONCURRENCY = 65536  # past any one deployment's concurrent sequences
MAX_TOKENS = 1e15  # a thousand trillion training tokens: far past any corpus
MAX_HOST_GIB = 65536  # 64 TiB of host memory a node: past any server's DIMM slots

# Precisions each workload is modelled for, the default first.
WORKLOAD_PRECISIONS: dict[str, tuple[str, ...]] = {
    "inference": ("fp16", "bf16", "fp32", "fp8", "int8", "int4", "nf4", "fp4", "mxfp4", "nvfp4"),
    "full": ("bf16", "fp16", "fp8"),  # mixed-precision Adam (fp8: FP8 matmuls, states as bf16's); fp32 accumulate
    "lora": ("bf16", "fp16", "fp32", "fp8", "int8"),
    "qlora": ("nf4",),
}
DEFAULT_SEQ = {"inference": 4096, "full": 2048, "lora": 2048, "qlora": 2048}


class BatchPhase(BaseModel):
    """One phase of a run's batch schedule: `batch_tokens` an optimizer step until `until_tokens` have been trained
    (null: to the end)."""

    model_config = ConfigDict(extra="forbid")

    until_tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS, allow_inf_nan=False)
    batch_tokens: int = Field(ge=1, le=2**31)


class FitRequest(BaseModel):
    """One fit check's parameters: `kb fit` options, `POST /v1/fit` fields."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090"},
        {"model": "70b", "workload": "inference", "gpu": "a100-80gb", "count": 2, "precision": "fp16"},
    ]})

    config: dict[str, Any] | None = Field(default=None, description="a Hugging Face config.json object instead of "
                                          "a preset (model then names it)")  # before model: model's check reads it
    model: str = Field(default="", max_length=64, validate_default=True,
                       description="a preset or a size such as 7b, 13B, 6.7e9 (or, with config, the model's name)",
                       examples=["llama-2-7b", "13b"])
    workload: Workload = Field(description="inference, full (mixed-precision Adam), lora or qlora")
    gpu: str = Field(min_length=1, max_length=64, examples=["rtx-4090", "a100-80gb"])
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="GPUs of that kind")
    precision: Precision | None = Field(default=None, description="default: fp16 inference, bf16 full/lora, nf4 qlora")
    seq_len: int | None = Field(default=None, ge=1, le=MAX_SEQ, description="default 4096 inference, 2048 training")
    batch: int = Field(default=1, ge=1, le=MAX_BATCH, description="sequences at once (training: on each GPU)")
    zero: int | None = Field(default=None, ge=0, le=3,
                             description="ZeRO stage for full training (pins it; default: the layout search picks)")
    tp: int | None = Field(default=None, ge=1, le=MAX_TP, description="pin tensor parallelism (GPUs a layer is split "
                           "over, inside a node)")
    pp: int | None = Field(default=None, ge=1, le=MAX_PP, description="pin pipeline parallelism (stages)")
    inter_node_gbps: float | None = Field(default=None, gt=0, le=12800, allow_inf_nan=False,
                                          description="network between nodes, Gb/s a GPU (default 400: InfiniBand "
                                          "NDR / 400G RoCE)")
    global_batch_tokens: int | None = Field(default=None, ge=1, le=2**31, description="training tokens an optimizer "
                                            "step (default 4,194,304, raised so every data-parallel rank has work)")
    tokens: float | None = Field(default=None, gt=0, le=MAX_TOKENS, allow_inf_nan=False,
                                 description="training tokens, for time and cost")
    vram_gib: float | None = Field(default=None, gt=0, le=4096, allow_inf_nan=False,
                                   description="override the card's capacity (GiB)")
    checkpointing: bool | None = Field(default=None, description="activation checkpointing; default on for training")
    lora_rank: int = Field(default=64, ge=1, le=4096, description="LoRA/QLoRA rank (adapters on all linear layers)")
    concurrency: int | None = Field(default=None, ge=1, le=MAX_CONCURRENCY,
                                    description="inference: sequences served at once (default: batch)")
    offload: bool = Field(default=False, description="full training: optimizer states (and gradients) offloaded to "
                          "the host, DeepSpeed ZeRO-Offload")
    offload_params: bool = Field(default=False, description="full training: the parameters offloaded too (ZeRO-3 "
                                 "offload_param; implies offload and ZeRO-3)")
    offload_device: Literal["cpu", "nvme"] = Field(default="cpu", description="where offloaded states go: host "
                                                   "memory, or NVMe (ZeRO-Infinity)")
    host_memory_gib: float | None = Field(default=None, gt=0, le=MAX_HOST_GIB, allow_inf_nan=False,
                                          description="host (CPU) memory a node, GiB: checked against what offload "
                                          "needs there")
    batch_schedule: list[BatchPhase] | None = Field(default=None, max_length=16, description="a run's batch "
                                                    "schedule: tokens an optimizer step until a token count, phase by "
                                                    "phase (the last phase runs to the end)")

    @field_validator("model")
    @classmethod
    def _model_or_config(cls, v: str, info: ValidationInfo) -> str:
        if not v.strip() and info.data.get("config") is None:
            raise ValueError("give a model (a preset or a size) or a config.json")
        return v

    @model_validator(mode="after")
    def _offload_modes(self) -> FitRequest:
        """Parameter offload is ZeRO-3's and includes the optimizer's; NVMe is a place to offload to."""
        if self.offload_params or self.offload_device == "nvme":
            self.offload = True
        if self.offload_params and self.zero is not None and self.zero != 3:
            raise ValueError("parameter offload needs ZeRO stage 3")
        return self

    @property
    def offload_mode(self) -> str:
        """none | optimizer | params (optimizer and parameters)."""
        return "params" if self.offload_params else "optimizer" if self.offload else "none"


ACCEPTED = {
    "model": "a preset or a size such as 7b, 13B, 6.7e9",
    "workload": ", ".join(WORKLOADS),
    "gpu": "a GPU id such as rtx-4090, a100-80gb",
    "count": f"a whole number from 1 to {MAX_COUNT}",
    "precision": ", ".join(PRECISIONS),
    "seq_len": f"a whole number of tokens from 1 to {MAX_SEQ:,}",
    "batch": f"a whole number from 1 to {MAX_BATCH}",
    "zero": "0, 1, 2 or 3",
    "tp": f"a whole number from 1 to {MAX_TP} that divides the GPUs a node and the attention heads",
    "pp": f"a whole number from 1 to {MAX_PP}",
    "inter_node_gbps": "a positive number of Gb/s a GPU, e.g. 400 (InfiniBand NDR), 200, 800",
    "global_batch_tokens": "a whole number of tokens an optimizer step, e.g. 4194304",
    "config": "a Hugging Face config.json object (hidden_size, num_hidden_layers, num_attention_heads, …)",
    "tokens": f"a positive number up to {MAX_TOKENS:.0e}",
    "vram_gib": "a positive number of GiB up to 4096",
    "checkpointing": "true or false",
    "lora_rank": "a whole number from 1 to 4096",
    "concurrency": f"a whole number from 1 to {MAX_CONCURRENCY}",
    "offload": "true or false",
    "offload_params": "true or false; true only with ZeRO stage 3 (parameter offload is ZeRO-3's)",
    "offload_device": "cpu or nvme",
    "host_memory_gib": f"a positive number of GiB a node up to {MAX_HOST_GIB:,}",
    "batch_schedule": "phases of {until_tokens, batch_tokens}, e.g. [{\"until_tokens\": 2.87e12, "
                      "\"batch_tokens\": 8388608}, {\"batch_tokens\": 16777216}]",
}


def parse_request(**fields: Any) -> FitRequest:
    """A FitRequest, or BadInput naming the first wrong field and what it accepts."""
    try:
        return FitRequest(**fields)
    except ValidationError as e:
        err = e.errors()[0]
        name = str(err["loc"][0]) if err["loc"] else "offload_params" if "offload" in err["msg"] else "model"
        got = fields.get(name)
        accepted = ACCEPTED.get(name, "see `kb fit --help`")
        raise BadInput(f"{name.replace('_', '-')} {got!r} is not accepted; accepted: {accepted}", field=name) from e
