"""How a mechanism works, in kb's words: said first when a why-question asks about one (kb/mechanisms.py).

These are the mechanisms kb's fit checks compute with (contracts.md conventions); they hold no figures of their
own, so each says only what the arithmetic does. The figures beside them come from the question's checks.
"""

from __future__ import annotations

MECHANISMS: dict[str, dict[str, str]] = {
    "mech.zero3": {
        "en": "How it works: mixed-precision Adam keeps weights, gradients and optimizer states for every parameter; "
              "ZeRO-3 shards (partitions) all three across the data-parallel GPUs, so each card holds only its "
              "share of the model states and gathers the other weights layer by layer when it needs them — less "
              "memory a card, more communication (ZeRO-2 shards only the gradients and optimizer states)",
        "zh": "原理：混合精度 Adam 要为每个参数保存权重、梯度和优化器状态；"
              "ZeRO-3 把这三者都分片（切分）到各张数据并行的卡上，"
              "每张卡只存自己那一份模型状态，计算到某一层时再临时收集其余权重——每卡显存更少，通信更多"
              "（ZeRO-2 只切分梯度和优化器状态）",
    },
    "mech.adam_bytes": {
        "en": "How it works: mixed-precision Adam keeps, for every parameter, 16-bit weights (2 bytes) and gradients "
              "(2 bytes), plus an fp32 master copy of the weights, Adam's momentum and its variance (4 bytes each): "
              "2 + 2 + 12 = 16 bytes a parameter before any activations",
        "zh": "原理：混合精度 Adam 为每个参数保存 16 位权重（2 字节）和梯度（2 字节），"
              "外加 fp32 主权重、Adam 的动量和方差（各 4 字节）：2 + 2 + 12 = 每个参数 16 字节，还不算激活值",
    },
    "mech.lora": {
        "en": "How it works: LoRA freezes the base model's weights and trains small low-rank adapter matrices beside "
              "them, so gradients and Adam's optimizer states exist only for the adapters — a small fraction of the "
              "parameters — while the frozen weights take their 16-bit bytes alone",
        "zh": "原理：LoRA 冻结基座模型的权重，只训练旁边很小的低秩适配器矩阵，梯度和 Adam 优化器状态只属于适配器"
              "（参数的一小部分），冻结的权重只占它们 16 位的字节",
    },
    "mech.quantize": {
        "en": "How it works: the weights take bytes per parameter times the parameters — 16-bit two bytes, int8 one, "
              "int4 about half a byte — so quantizing shrinks the weights to a half or a quarter and lets a model "
              "that exceeds a card's memory in 16-bit fit on it, at some cost in accuracy",
        "zh": "原理：权重显存 = 参数量 × 每个参数的字节数——16 位两字节、int8 一字节、int4 约半字节；"
              "量化把权重压到一半或四分之一，"
              "16 位下超出显存的模型因此能放进这张卡，代价是一些精度",
    },
    "mech.quantize_figures": {
        "en": "For {model}, the weights alone are about {full} GiB in 16-bit and {low} GiB in {precision}",
        "zh": "{model} 仅权重在 16 位下约 {full} GiB，{precision} 下约 {low} GiB",
    },
    "mech.quantize_card": {
        "en": "A {cap} GB card holds {cap_gib} GiB: {verdict}",
        "zh": "{cap} GB 的卡有 {cap_gib} GiB：{verdict}",
    },
    "mech.quantize_card.both": {"en": "the 16-bit weights exceed it, the {precision} ones fit",
                                "zh": "16 位权重放不下，{precision} 权重放得下"},
    "mech.quantize_card.neither": {"en": "even the {precision} weights exceed it", "zh": "连 {precision} 权重也放不下"},
    "mech.quantize_card.all": {"en": "even the 16-bit weights fit", "zh": "16 位权重也放得下"},
    "mech.qlora": {
        "en": "How it works: QLoRA freezes the base model in 4-bit and trains only small LoRA adapters in 16-bit, so "
              "gradients and optimizer states exist only for the adapters, and paged optimizers spill their spikes "
              "to CPU memory — a model far too big to fine-tune in full fits on one card",
        "zh": "原理：QLoRA 把基座模型冻结为 4 位，只训练很小的 16 位 LoRA 适配器，梯度和优化器状态只属于适配器，"
              "分页优化器再把峰值挪到 CPU 内存——全参数微调远远放不下的模型因此能在一张卡上微调",
    },
    "mech.context_users": {
        "en": "How it works: every sequence keeps the KV cache — the key and value of every layer for every token "
              "of its context — so its memory grows in proportion to its context; the memory left after the weights "
              "is fixed, so twice the context holds half as many users",
        "zh": "原理：每个会话都要保存 KV 缓存——上下文里每个 token 在每一层的 key 和 value——它随上下文长度成正比增长；"
              "放下权重后剩余的显存是固定的，所以上下文翻倍，能同时服务的用户数减半",
    },
    "mech.context_users_figures": {
        "en": "On {cards}, {tokens} tokens of KV cache fit: {n1} sequences at {c1} tokens each, {n2} at {c2}",
        "zh": "{cards} 能放下 {tokens} 个 token 的 KV 缓存："
              "每路 {c1} token 可并发 {n1} 路，每路 {c2} token 只能 {n2} 路",
    },
    "mech.tp_link": {
        "en": "How it works: tensor parallelism splits every layer across the cards, which exchange their partial "
              "results (an all-reduce) several times a layer, every step; over PCIe those exchanges get a "
              "fraction of NVLink's bandwidth, so the cards wait on each other and adding cards scales poorly",
        "zh": "原理：张量并行把每一层切到几张卡上，每一步每一层都要多次交换部分结果（all-reduce）；"
              "走 PCIe 时这些通信的带宽只有 "
              "NVLink 的一小部分，卡与卡互相等待，加卡的收益就很差",
    },
    "mech.decode_bandwidth": {
        "en": "How it works: generating each token reads all the weights (and the KV cache) from memory once, while "
              "the arithmetic per byte is small, so single-stream decoding is memory-bound: its upper bound is the "
              "memory bandwidth divided by the bytes read per token",
        "zh": "原理：每生成一个 token 都要把全部权重（以及 KV 缓存）从显存读一遍，而每字节的计算量很小，"
              "所以单路解码受显存带宽限制："
              "速度上限 = 显存带宽 ÷ 每个 token 读取的字节数",
    },
}
