"""FitResult (contracts.md) and the ranked selection table built from many of them."""

from typing import Literal

from pydantic import BaseModel, Field, model_validator


class Breakdown(BaseModel):
    """Memory by term, in bytes, totals across all GPUs before sharding."""

    weights: int = Field(ge=0)
    gradients: int = Field(ge=0)
    optimizer: int = Field(ge=0)
    activations: int = Field(ge=0)
    kv_cache: int = Field(ge=0)
    overhead: int = Field(ge=0)


class Serving(BaseModel):
    """Inference as a service: what is left for KV cache, how many sequences that holds, and how fast they run."""

    concurrency: int = Field(ge=1, description="sequences served at once")
    context_tokens: int = Field(ge=1, description="tokens of context each sequence may reach")
    kv_tokens_capacity: int = Field(ge=0, description="KV cache tokens that fit beside weights, prefill and overhead")
    max_concurrent_sequences: int = Field(ge=0, description="sequences of context_tokens that capacity holds")
    aggregate_decode_tokens_per_s: float | None = Field(default=None, ge=0, description="all sequences together")
    per_sequence_decode_tokens_per_s: float | None = Field(default=None, ge=0)
    ttft_s: float | None = Field(default=None, ge=0, description="time to first token of one context_tokens prompt")
    prefill_token_budget: int = Field(ge=1, description="chunked-prefill tokens a step (vLLM max_num_batched_tokens)")
    prefill_tokens: int = Field(ge=1, description="tokens prefilled at once: min(concurrency x context, budget)")
    tensor_parallel: int = Field(ge=1, description="GPUs one copy of the model is split over inside a node")
    pipeline_parallel: int = Field(default=1, ge=1, description="stages (nodes) a copy spans when a node cannot "
                                   "hold the weights")
    replicas: int = Field(default=1, ge=1, description="copies of the model serving at once (throughput)")
    link: str | None = Field(default=None, description="nvlink or pcie: what tensor parallelism's all-reduces use")
    inter_node_link: str | None = Field(default=None, description="the network pipeline stages cross, if any")
    allreduce_s_per_step: float | None = Field(default=None, ge=0, description="all-reduce time a decode step")
    bound: str | None = Field(default=None, description="memory or compute: what limits a decode step")


class Layout(BaseModel):
    """Where the GPUs go: tensor × pipeline × data (ZeRO) × expert parallel, nodes and the links between them."""

    tp: int = Field(ge=1)
    pp: int = Field(ge=1)
    dp: int = Field(ge=1, description="data-parallel ranks (inference: replicas)")
    ep: int = Field(default=1, ge=1)
    zero_stage: int = Field(ge=0, le=3)
    nodes: int = Field(ge=1)
    gpus_per_node: int = Field(ge=1)
    intra_node_link: str
    inter_node_link: str | None = Field(description="null on one node")
    micro_batches: int = Field(ge=0, description="a step's micro-batches a data-parallel rank (0: inference)")
    bubble_fraction: float = Field(ge=0, le=1)
    global_batch_tokens: int | None = Field(default=None, ge=1)
    step_s: float | None = Field(default=None, ge=0, description="one optimizer step, seconds")
    virtual_stages: int = Field(default=1, ge=1, description="interleaved pipeline chunks a PP rank holds")


class Offload(BaseModel):
    """Full training with states off the GPU (DeepSpeed ZeRO-Offload / ZeRO-Infinity): what the host or NVMe holds."""

    what: Literal["optimizer", "params"] = Field(description="optimizer: optimizer states and gradients; params: "
                                                 "the parameters too (ZeRO-3)")
    device: Literal["cpu", "nvme"]
    nodes: int = Field(ge=1)
    bytes_per_param: float = Field(ge=0, description="what DeepSpeed's estimator charges a parameter on the host")
    host_required_bytes: int | None = Field(default=None, ge=0, description="a node; null for NVMe (buffers only, "
                                            "not estimated)")
    nvme_required_bytes: int | None = Field(default=None, ge=0, description="a node, NVMe offload only")
    host_available_bytes: int | None = Field(default=None, ge=0, description="the stated host memory a node")
    host_fits: bool | None = Field(default=None, description="null: no host memory stated (or none estimated)")


class Alternative(BaseModel):
    """One change to a check that makes it fit (or a cheaper one that still fits); words are made at the edge."""

    change: Literal["precision", "count", "workload", "zero", "offload", "rank"]
    workload: str
    precision: str
    gpu_count: int = Field(ge=1)
    zero_stage: int = Field(ge=0, le=3)
    offload: bool = False
    lora_rank: int | None = Field(default=None, ge=1, description="the adapters' rank, for a LoRA/QLoRA change")
    fits: bool
    per_gpu_required_bytes: int = Field(ge=0)
    per_gpu_available_bytes: int = Field(ge=0)


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
    train_compute_wall_hours: float | None = Field(default=None, ge=0, description="wall-clock hours of the "
                                                   "compute alone, 6·N·T at the peak × MFU; train_wall_hours adds "
                                                   "the layout's unhidden communication")
    capex_cny: float | None = Field(default=None, ge=0)
    energy_cny: float | None = Field(default=None, ge=0)
    cost_per_million_tokens_cny: float | None = Field(default=None, ge=0)
    power_w: float | None = Field(default=None, ge=0, description="the cards' TDP in all")
    energy_cny_per_hour: float | None = Field(default=None, ge=0)
    active_params: int = Field(default=0, ge=0, description="what a token computes with; = model_params if dense")
    kv_bytes_per_token: int = Field(default=0, ge=0, description="16-bit KV bytes a token, full attention")
    total_required_bytes: int = Field(default=0, ge=0, description="the whole job's memory, the breakdown's sum "
                                      "across all GPUs (the total a totals-first answer leads with)")
    gpu_known: bool = Field(default=True, description="false: a card kb has no record of, checked from its stated "
                            "memory; its speed, power and price are unknown")
    unknown_figures: list[str] = Field(default_factory=list, description="what the check could not compute because "
                                       "no public figure exists: speed, power, price")
    precision_mode: str = Field(default="native", description="how the card computes the precision: native, "
                                "weight-only (stored low, computed in 16-bit), upcast (computed in FP32), unchecked "
                                "(a card kb has no record of)")
    offload: Offload | None = Field(default=None, description="full training with offload: what the host holds")
    serving: Serving | None = Field(default=None, description="inference only")
    alternatives: list[Alternative] = Field(default_factory=list)
    layout: Layout | None = Field(default=None, description="how the GPUs are arranged (contracts.md)")
    assumptions: list[str]
    steps: list[str]
    citations: list[str]

    @model_validator(mode="after")
    def _dense_default(self) -> "FitResult":
        if not self.active_params:
            self.active_params = self.model_params
        if not self.total_required_bytes:
            self.total_required_bytes = sum(self.breakdown.model_dump().values())
        return self


class MemoryNeed(BaseModel):
    """What a check needs of a card kb has no record of, when no memory was stated: the memory it would need a card
    at the count asked (the least-memory layout), and the whole job's total with its terms."""

    gpu: str = Field(description="the card as named")
    gpu_count: int = Field(ge=1)
    model: str
    model_params: int = Field(ge=1)
    workload: str
    precision: str
    seq_len: int = Field(ge=1)
    batch: int = Field(ge=1)
    per_gpu_required_bytes: int = Field(ge=0)
    total_required_bytes: int = Field(ge=0)
    breakdown: Breakdown
    per_gpu_breakdown: Breakdown
    assumptions: list[str]
    steps: list[str]


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
    power_w: float | None = Field(default=None, ge=0, description="the cards' TDP in all (a pick by power)")
    headroom_bytes: int | None = Field(default=None, description="per GPU, at gpu_count")
    rank_by_time: int = Field(ge=1, description="by speed where a speed exists, else by cost then headroom")
    rank_by_cost: int = Field(ge=1)


class Selection(BaseModel):
    """Configurations (GPU kind x count) that fit, ranked by time and by cost."""

    workload: str
    model: str
    budget_cny: float | None = None
    max_gpus: int | None = None
    precision: str | None = Field(default=None, description="the weights' format ranked, when one was asked or "
                                                            "nothing fitted in 16-bit within the budget")
    excluded: list[str] = Field(default_factory=list, description="GPU kinds left out, each with why")
    ranked_by: str = Field(default="speed", description="speed; cost_headroom where no row has a speed; power "
                                                          "(the cards' TDP, lowest first) when asked; memory "
                                                          "(total VRAM bought) when the question names no model")
    rows: list[SelectionRow]
    train_tokens: float | None = Field(default=None, description="training: the tokens the rows' hours are for "
                                                                "(the question's, else a billion to rank by)")
    tokens_stated: bool = Field(default=False, description="whether the question gave `train_tokens`")
    fallback_from: str | None = Field(default=None, description="the workload asked that fitted nothing within "
                                                                 "the budget, where `workload` is the nearest that did")
    guidance: list[str] = Field(description="passage ids of the document's own selection guidance")
    assumptions: list[str]
