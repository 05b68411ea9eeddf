"""Request and response models that belong to the HTTP edge (the core's Answer, Passage, FitResult are reused)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from kb.understand.state import State


class HistoryTurn(BaseModel):
    """One earlier turn of the conversation: the asker's question (kb's own words are never read back)."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1, description="An earlier question (limit KB_MAX_QUESTION_CHARS, default 500, "
                          "like `question`; a longer one is a 422 naming `history[i].question`).",
                          examples=["两张 A100 80G 能跑 Llama-3-70B 推理吗？"])


class AskRequest(BaseModel):
    """A question in Chinese or English, and how many passages to cite."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"question": "能用一张4090 QLoRA微调13B模型吗？", "top_k": 5},
        {"question": "How much memory bandwidth does the RTX 4090 have?"},
    ]})

    question: str = Field(min_length=1, description="The question (limit KB_MAX_QUESTION_CHARS, default 500).",
                          examples=["RTX 4090 的显存带宽是多少？"])
    history: list[HistoryTurn] | None = Field(
        default=None, max_length=10,
        description="Earlier questions of the same conversation, oldest first (at most 10): this one is then read "
                    "as a follow-up (\"换成 L40S 呢\", \"what about 4 cards?\").")
    state: State | None = Field(
        default=None, description="A previous answer's `state`, passed back unchanged: the conversation so far "
                                  "(used instead of `history` when both are given). Checked like every field: a "
                                  "state kb could not have returned is a 422 naming `state.<field>`.")
    # Strict: "5", 5.0 and true are type errors, not silently coerced.
    top_k: Annotated[StrictInt, Field(ge=1)] | None = Field(
        default=None, description="Passages to return (default 5, at most KB_MAX_TOP_K, default 20).")


class ErrorDetail(BaseModel):
    """What went wrong, and in which field when a field is to blame."""

    code: str = Field(examples=["bad_input"], description="bad_input, bad_json, unsupported_media_type, "
                      "too_large, unauthorized, rate_limited, not_found, not_ready, internal …")
    field: str | None = Field(default=None, examples=["question"])
    message: str = Field(examples=["question is empty: ask something, e.g. \"RTX 4090 的显存带宽是多少？\""])
    request_id: str | None = Field(default=None, description="Quote it when reporting a problem.")


class ErrorBody(BaseModel):
    """Every 4xx and 5xx answer has this shape."""

    error: ErrorDetail


class Health(BaseModel):
    """Liveness: the process answers."""

    status: Literal["ok"] = "ok"


class Ready(BaseModel):
    """Readiness: the index is loaded (200) or not yet / not at all (503)."""

    status: Literal["ready", "loading", "failed"]
    chunks: int | None = Field(default=None, description="Passages in the loaded index.")
    embedder: str | None = None
    detail: list[str] = Field(default_factory=list, examples=[["index: 165 chunks", "slack: not configured"]])


class Figure(BaseModel):
    """One figure of a GPU spec record and where it comes from."""

    value: float | int | Literal["unknown", "not supported"] = Field(
        description="A number; `unknown` where no public source gives one, `not supported` where the card lacks it "
                    "(a BF16 rate on a card without BF16)")
    unit: str
    source: str = Field(description="doc (the guide; see section and quote) or vendor (a datasheet)")
    section: str | None = None
    quote: str | None = Field(default=None, description="The guide's own words, verbatim.")
    note: str | None = None


class GpuRecord(BaseModel):
    """A GPU kind's spec record: the figures fit checks use, each with its source."""

    id: str = Field(examples=["rtx-4090"])
    name: str = Field(examples=["NVIDIA GeForce RTX 4090"])
    passage_id: str = Field(examples=["spec-rtx-4090"], description="GET /v1/passages/{passage_id} for the text.")
    section: str = Field(examples=["4.2"])
    datacenter: bool
    figures: dict[str, Figure]


class GpuList(BaseModel):
    """Every GPU kind kb knows, for `gpu` in POST /v1/fit."""

    gpus: list[GpuRecord]
