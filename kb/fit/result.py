"""FitResult (contracts.md) and the ranked selection table built from many of them."""

from pydantic import BaseModel, Field


class Breakdown(BaseModel):
    """Memory by term, in bytes, totals across all GPUs before sharding."""

    weights: int = Field(ge=0)
    gradients: int = Field(ge=0)
    optimizer: int = Field(ge=0)
    activations: int = Field(ge=0)
    kv_cache: int = Field(ge=0)
    overhead: int = Field(ge=0)


class FitResult(BaseModel):
    """One model x GPU x workload check, with its verdict, arithmetic and citations."""

    gpu: str
    gpu_count: int = Field(ge=1)
    model: str
    model_params: int = Field(ge=1)
    workload: str
    precision: str
    zero_stage: int = Field(ge=0, le=3)
    seq_len: int = Field(ge=1)
    batch: int = Field(ge=1)
    fits: bool
    per_gpu_required_bytes: int = Field(ge=0)
    per_gpu_available_bytes: int = Field(ge=0)
    headroom_bytes: int = Field(description="available - required per GPU; negative when it does not fit")
    min_gpus: int | None = Field(ge=1, description="fewest GPUs of this kind that fit; null if none do")
    breakdown: Breakdown
    per_gpu_breakdown: Breakdown | None = Field(default=None, description="each term's share on one GPU")
    checkpointing: bool | None = Field(default=None, description="activation checkpointing (training only)")
    lora_rank: int | None = Field(default=None, ge=1, description="LoRA/QLoRA adapter rank")
    decode_tokens_per_s: float | None = Field(default=None, ge=0)
    prefill_s: float | None = Field(default=None, ge=0)
    train_gpu_hours: float | None = Field(default=None, ge=0)
    train_wall_hours: float | None = Field(default=None, ge=0)
    capex_cny: float | None = Field(default=None, ge=0)
    energy_cny: float | None = Field(default=None, ge=0)
    cost_per_million_tokens_cny: float | None = Field(default=None, ge=0)
    power_w: float | None = Field(default=None, ge=0, description="the cards' TDP in all")
    energy_cny_per_hour: float | None = Field(default=None, ge=0)
    assumptions: list[str]
    steps: list[str]
    citations: list[str]


class SelectionRow(BaseModel):
    """One configuration that fits the workload within the budget."""

    gpu: str
    gpu_count: int = Field(ge=1)
    capex_cny: float = Field(ge=0)
    decode_tokens_per_s: float | None = None
    train_wall_hours: float | None = None
    per_gpu_required_bytes: int | None = Field(default=None, ge=0)
    per_gpu_available_bytes: int | None = Field(default=None, ge=0)
    replicas: int | None = Field(default=None, ge=1, description="inference: copies of the model served at once")
    rank_by_time: int = Field(ge=1)
    rank_by_cost: int = Field(ge=1)


class Selection(BaseModel):
    """Configurations (GPU kind x count) that fit, ranked by time and by cost."""

    workload: str
    model: str
    budget_cny: float | None = None
    max_gpus: int | None = None
    excluded: list[str] = Field(default_factory=list, description="GPU kinds left out, each with why")
    rows: list[SelectionRow]
    guidance: list[str] = Field(description="passage ids of the document's own selection guidance")
    assumptions: list[str]
