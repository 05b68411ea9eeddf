"""Fresh benchmark questions: templates × GPUs × models × numbers, Chinese and English, never repeated."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

ZH = [
    "{gpu} 的显存带宽是多少？第{n}次提问",
    "{n}张{gpu}能跑{model}推理吗？",
    "预算{n}万元，做{model}微调应该选{gpu}还是别的卡？",
    "{gpu} 在训练{model}时的主要局限是什么（{n}）？",
    "用{gpu}部署{model}的性价比如何，第{n}种方案？",
]
EN = [
    "What is the memory bandwidth of the {gpu}? (variant {n})",
    "Can {n} {gpu} cards serve {model} inference?",
    "With a budget of {n}0,000 yuan, should I buy the {gpu} for {model} fine-tuning?",
    "What limits the {gpu} when training {model}, case {n}?",
    "How cost-effective is the {gpu} for deploying {model}, option {n}?",
]
GPUS = ["A100", "RTX 4090", "RTX 4080", "A100 80GB", "RTX 4070", "H100"]
MODELS = ["7B", "13B", "70B", "Llama 2", "8B"]


def fresh_questions() -> Iterator[str]:
    """An endless stream of distinct questions, alternating Chinese and English."""
    for n in itertools.count(1):
        for i, (gpu, model) in enumerate(itertools.product(GPUS, MODELS)):
            yield ZH[i % len(ZH)].format(gpu=gpu, model=model, n=n)
            yield EN[i % len(EN)].format(gpu=gpu, model=model, n=n)
