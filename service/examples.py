"""OpenAPI examples, in Chinese and English: what /docs shows and what a reader can send as is."""

from typing import Any

from fastapi.openapi.models import Example

ASK: dict[str, Example] = {
    "zh_fit": {"summary": "中文：能否装下（带计算）",
               "value": {"question": "能用一张4090 QLoRA微调13B模型吗？", "top_k": 5}},
    "zh_fact": {"summary": "中文：规格查询", "value": {"question": "RTX 4090 的显存带宽是多少？"}},
    "en_fit": {"summary": "English: will it fit",
               "value": {"question": "Can I fine-tune a 13B model with QLoRA on one RTX 4090?", "top_k": 3}},
    "en_budget": {"summary": "English: what to buy",
                  "value": {"question": "What should I buy to serve a 70B model with a 500k CNY budget?"}},
}

FIT: dict[str, Example] = {
    "qlora_4090": {"summary": "QLoRA 13B on one RTX 4090 / 一张4090 QLoRA微调13B",
                   "value": {"model": "llama-2-13b", "workload": "qlora", "gpu": "rtx-4090"}},
    "inference_70b": {"summary": "70B fp16 inference on two A100 80GB / 两张A100 80GB推理70B",
                      "value": {"model": "70b", "workload": "inference", "gpu": "a100-80gb", "count": 2,
                                "precision": "fp16"}},
    "full_zero3": {"summary": "Full fine-tuning 7B with ZeRO-3 on 8 A100 40GB, 1B tokens / 全量微调",
                   "value": {"model": "llama-2-7b", "workload": "full", "gpu": "a100-40gb", "count": 8, "zero": 3,
                             "tokens": 1e9}},
}

PASSAGE_ID: dict[str, Example] = {
    "guide": {"summary": "A section of the guide / 指南正文", "value": "guide-4.2"},
    "spec": {"summary": "A spec record / 规格记录", "value": "spec-rtx-4090"},
}

READY_503: dict[str, Any] = {"status": "loading", "chunks": None, "embedder": None,
                             "detail": ["index: still loading", "slack: not configured"]}
