"""How a mechanism works, in kb's words: said first when a why-question asks about one (kb/understand/mechanisms.py).

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
    "mech.train_memory": {
        "en": "How it works: inference holds the weights (2 bytes a parameter in 16-bit) and the KV cache; training "
              "also keeps the gradients and the optimizer's states — mixed-precision Adam's are 2 + 2 + 12 = 16 bytes "
              "a parameter, eight times the 16-bit weights — and the activations every layer saves for the backward "
              "pass",
        "zh": "原理：推理只需放下权重（16 位每参数 2 字节）和 KV 缓存；训练还要保存梯度和优化器状态——混合精度 Adam "
              "是 2 + 2 + 12 = 每参数 16 字节，是 16 位权重的 8 倍——以及每层为反向传播保存的激活值",
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
    "mech.dp_sync": {
        "en": "How it works: in data-parallel training every card holds a whole copy of the model, and after each step "
              "the cards all-reduce their gradients, each sending and receiving about twice the gradients' bytes "
              "through its own link; the step waits for the slowest link, which on cards without NVLink is PCIe, "
              "and a card wired with eight lanes (x8) has half the PCIe bandwidth of one with sixteen (x16)",
        "zh": "原理：数据并行训练时每张卡都放一整份模型，每一步结束后各卡要对梯度做 all-reduce，"
              "每张卡经自己的链路收发约两倍于梯度的字节；这一步要等最慢的那条链路，没有 NVLink 的卡走的是 PCIe，"
              "而只接了 8 条通道（x8）的卡，PCIe 带宽只有接 16 条（x16）的一半",
    },
    "mech.kv_heads": {
        "en": "How it works: for every token the KV cache keeps a key and a value vector for each KV head of each "
              "layer, so its bytes a token are 2 × layers × KV heads × head size × bytes a value; grouped-query "
              "attention (GQA) lets several query heads share one KV head, so a model with a quarter of the KV heads "
              "caches a quarter of the bytes",
        "zh": "原理：KV 缓存为每个 token、每一层的每个 KV 头各存一个 K 向量和一个 V 向量，"
              "所以每 token 的字节数 = 2 × 层数 × KV 头数 × 每头维度 × 每个值的字节数；"
              "分组查询注意力（GQA）让几个查询头共用一个 KV 头，KV 头只有四分之一的模型，缓存也只有四分之一",
    },
    "mech.mla": {
        "en": "How it works: DeepSeek's multi-head latent attention (MLA) caches, for every token and layer, one "
              "compressed latent vector and a small shared rope key instead of a key and a value for every head, so "
              "its KV cache a token is a fraction of a dense model's with the same layers, however many parameters "
              "its experts hold",
        "zh": "原理：DeepSeek 的多头潜在注意力（MLA）每个 token、每一层"
              "只缓存一个压缩后的潜在向量和一个共用的小 rope 键，"
              "而不是每个头各存一份 K 和 V；所以它每 token 的 "
              "KV 缓存只有同层数稠密模型的一小部分，与专家里有多少参数无关",
    },
    "mech.window": {
        "en": "How it works: with sliding-window attention each token attends only to the last window of tokens, "
              "so a windowed layer's KV cache holds at most the window however long the context grows; past the "
              "window, a longer context adds no KV memory in those layers",
        "zh": "原理：滑动窗口注意力让每个 token 只看最近一个窗口内的 token，"
              "所以加了窗口的层，KV 缓存最多只存一个窗口长度；"
              "上下文超过窗口以后，这些层的 KV 显存不再随上下文增长",
    },
    "mech.vllm_util": {
        "en": "How it works: vLLM takes gpu_memory_utilization (0.9 by default) of the card's total for itself, then "
              "subtracts the weights and the activations of a profiling run; only what remains becomes KV-cache "
              "pages, so an 80 GB card's KV cache is well under 80 GB (kb's own check keeps 1 GiB a card plus 10 % "
              "of the rest for overhead)",
        "zh": "原理：vLLM 先按 gpu_memory_utilization（默认 0.9）占用显卡总显存的这一比例，"
              "再减去权重和一次试运行的激活值，"
              "剩下的才分成 KV 缓存页；所以 80 GB 的卡给 KV 缓存的远少于 80 GB（kb 自己的检查每卡留 1 GiB，"
              "另加其余部分的 10 % 作开销）",
    },
    "mech.mfu": {
        "en": "How it works: a training time is FLOPs (6 × parameters × tokens) divided by what the cards sustain, "
              "and no real job sustains the datasheet peak: communication, pipeline bubbles, memory-bound kernels "
              "and restarts take their share. kb assumes 40 % model-FLOPs utilization (MFU), as Llama 3's 405B run "
              "measured 38–43 % BF16 MFU on H100s (380–430 TFLOP/s a GPU; Llama 3 paper, arXiv 2407.21783, table 4); "
              "100 % would promise a time no cluster reaches",
        "zh": "原理：训练时间 = 计算量（6 × 参数量 × token 数）÷ 显卡实际维持的算力，而真实训练达不到数据表峰值："
              "通信、流水线气泡、受带宽限制的算子和重启都要占去一部分。kb 按 40 % 的模型算力利用率（MFU）估算，"
              "Llama 3 405B 在 H100 上实测 BF16 MFU 为 38–43 %"
              "（每卡 380–430 TFLOP/s，见 Llama 3 论文 arXiv 2407.21783 表 4）；"
              "按 100 % 算会得出任何集群都达不到的时间",
    },
    "mech.link_direction": {
        "en": "How it works: a datasheet's NVLink figure counts both directions at once (an H100's 900 GB/s is about "
              "450 GB/s each way), while a transfer or an NCCL test moves data one way and reaches less than that "
              "peak: about 370 GB/s effective one way on H100s (NCCL's maintainers, NVIDIA/nccl-tests issue #212), "
              "and about 160 GB/s achieved on the H800's 400 GB/s (DeepSeek-V3 technical report, arXiv 2412.19437, "
              "§3.2.2)",
        "zh": "原理：数据表上的 NVLink 带宽是两个方向加起来的（H100 的 900 GB/s 每个方向约 450 GB/s），"
              "而一次传输或 NCCL 测试只沿一个方向走，也达不到峰值："
              "H100 单向有效约 370 GB/s（NVIDIA/nccl-tests issue #212），"
              "H800 标称 400 GB/s 实际约 160 GB/s（DeepSeek-V3 技术报告 arXiv 2412.19437 §3.2.2）",
    },
    "mech.tp_node": {
        "en": "How it works: tensor parallelism exchanges partial results inside every layer, so it needs the "
              "fastest link and stays within a node's NVLink/NVSwitch (8 GPUs); between nodes the link is "
              "InfiniBand or RoCE at about 50 GB/s a GPU, so pipeline parallelism (which sends only a layer "
              "boundary's activations) and data parallelism go across nodes — as Llama 3 405B kept TP at 8 on "
              "16,384 H100s (Llama 3 paper, arXiv 2407.21783, table 4)",
        "zh": "原理：张量并行每一层内部都要交换部分结果，需要最快的链路，"
              "所以只在一台机器的 NVLink/NVSwitch（8 张卡）内做；机器之间是 InfiniBand 或 RoCE，每卡约 50 GB/s，"
              "所以跨机用流水线并行（只传层与层之间的激活值）和数据并行——"
              "Llama 3 405B 在 16,384 张 H100 上就把 TP 保持在 8（Llama 3 论文 arXiv 2407.21783 表 4）",
    },
    "mech.head_dim": {
        "en": "How it works: the KV cache stores head_dim values a KV head, and head_dim is set by the model's "
              "config, not always hidden ÷ heads: Qwen3 uses 128 with a hidden size of 5,120 and 64 query heads "
              "(5,120 ÷ 64 = 80), so its KV a token is computed with 128",
        "zh": "原理：KV 缓存每个 KV 头存 head_dim 个值，而 head_dim 由模型配置给定，不一定等于 hidden ÷ 头数："
              "Qwen3 的 hidden 是 5,120、查询头 64 个（5,120 ÷ 64 = 80），head_dim 却是 128，KV 按 128 计算",
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
    "mech.moe": {
        "en": "How it works: a mixture-of-experts model keeps every expert's weights in memory (its total parameters), "
              "but a router sends each token through only a few experts (its active parameters), so memory follows "
              "the total while the compute and the bytes read a token follow the active count",
        "zh": "原理：MoE（混合专家）模型的所有专家权重都要放在显存里（总参数量），"
              "但路由器只让每个 token 经过少数几个专家（激活参数量）："
              "显存按总参数算，每个 token 的计算量和读取的字节按激活参数算",
    },
    "mech.batching": {
        "en": "How it works: a decode step reads all the weights once whatever the batch, so the sequences of a batch "
              "share that read and tokens per second grow almost in proportion to the batch, until compute or the "
              "memory left for the KV cache runs out (each sequence adds its own KV cache)",
        "zh": "原理：解码每一步都要把全部权重读一遍，与批里有几条序列无关；同一批的序列共用这次读取，"
              "所以每秒 token 数几乎随批大小成正比增长，直到算力或留给 KV 缓存的显存用尽（每条序列有自己的 KV 缓存）",
    },
    "mech.checkpointing": {
        "en": "How it works: training keeps every layer's activations for the backward pass; activation (gradient) "
              "checkpointing keeps only some of them and recomputes the rest during the backward pass, trading about "
              "one more forward pass of compute for much less activation memory — the model states are unchanged",
        "zh": "原理：训练要为反向传播保存每一层的激活值；激活（梯度）检查点只保存其中一部分，反向时重新计算其余的，"
              "用大约多一次前向的计算换取少得多的激活显存——模型状态（权重、梯度、优化器状态）不变",
    },
    "mech.beyond_weights": {
        "en": "How it works: besides the weights, serving holds a KV cache for every sequence (growing with its "
              "context), activations for the tokens in flight and the framework's own overhead (CUDA context, "
              "allocator); "
              "training adds gradients and optimizer states on top, so the weights are only part of the memory",
        "zh": "原理：除了权重，推理还要为每条序列保存 KV 缓存（随上下文增长）、正在计算的 token 的激活值，"
              "以及框架自身的开销（CUDA 上下文、显存分配器）；训练还要再加梯度和优化器状态，所以权重只是显存的一部分",
    },
    "mech.no_pooling": {
        "en": "How it works: cards do not pool their memory into one: each holds its own share of the model (tensor or "
              "pipeline parallelism) or its own copy (data parallelism) and they exchange activations or gradients "
              "over their link; GeForce Ada cards have no NVLink, so that traffic goes over PCIe",
        "zh": "原理：多张卡的显存不会合成一块：每张卡只存模型的一部分（张量并行或流水线并行）"
              "或一份完整副本（数据并行），卡之间通过互连交换激活值或梯度；"
              "GeForce Ada 显卡没有 NVLink，这些通信走 PCIe",
    },
    "mech.fp8_rate": {
        "en": "How it works: cards with FP8 tensor cores (Hopper, Ada, Blackwell) run FP8 matrix maths at twice their "
              "16-bit rate, and FP8 weights are half the bytes to read, so both compute-bound and memory-bound steps "
              "speed up; a card without FP8 tensor cores (the A100) gains memory but not speed",
        "zh": "原理：有 FP8 张量核心的卡（Hopper、Ada、Blackwell）做 FP8 矩阵运算的速率是 16 位的两倍，"
              "FP8 权重要读取的字节也减半，所以受算力限制和受带宽限制的步骤都会变快；没有 FP8 张量核心的卡（A100）"
              "只省显存，不提速",
    },
    "mech.long_context": {
        "en": "How it works: each new token attends to every earlier token, so the KV cache read at every decode step "
              "grows with the context, and the prompt's prefill compute grows faster than its length: a long context "
              "slows both the first token and each token after it",
        "zh": "原理：每个新 token 都要对之前所有 token 做注意力，所以每一步解码读取的 KV 缓存随上下文增长，"
              "而提示词的预填充计算量增长得比长度还快：长上下文既拖慢首个 token，也拖慢之后的每个 token",
    },
    "mech.driver_capacity": {
        "en": "How it works: nvidia-smi counts binary MiB (2^20 bytes) where a datasheet usually counts decimal GB "
              "(10^9 bytes), and the total the driver shows leaves out what the GPU reserves for itself (and for "
              "ECC on data-center cards), so the number it shows is below the datasheet's",
        "zh": "原理：nvidia-smi 按二进制 MiB（2^20 字节）计数，数据表通常按十进制 GB（10^9 字节）标称；"
              "驱动显示的总量还不含 GPU 自己保留的部分（数据中心卡还有 ECC），所以显示的数字比数据表小",
    },
    "mech.driver_capacity_figures": {
        "en": "The {gpu}: {nominal} GB nominal is {gib} GiB; the driver reports {driver} MiB, {driver_gib} GiB",
        "zh": "{gpu}：标称 {nominal} GB 即 {gib} GiB；驱动报告 {driver} MiB，即 {driver_gib} GiB",
    },
    "mech.driver_capacity_figures_gib": {
        "en": "The {gpu}: {nominal} GiB nominal; the driver reports {driver} MiB, {driver_gib} GiB",
        "zh": "{gpu}：标称 {nominal} GiB；驱动报告 {driver} MiB，即 {driver_gib} GiB",
    },
    "mech.bound_gap": {
        "en": "How it works: kb's decode rate is an upper bound, memory bandwidth divided by the bytes read a token "
              "(weights and KV cache); real kernels reach about six to eight tenths of it (table 7.1's note), since "
              "memory is never read at its full peak and every step also spends time on small kernels, attention "
              "and sampling",
        "zh": "原理：kb 的解码速度是上限，等于显存带宽 ÷ 每个 token 读取的字节（权重加 KV 缓存）；"
              "实际内核通常只达到上限的六到八成（表 7.1 的注），"
              "因为显存读不到满峰值，每一步还要花时间在小内核、注意力和采样上",
    },
}
