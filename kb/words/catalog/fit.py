"""The fit engine's sentences (kb.fit returns Notes: a key and its values; kb.words.fit renders them).

Conventions for the Chinese: spaces between Chinese and Latin letters or digits, full-width punctuation,
and ids, units, formulas and paper names left as they are (rtx-4090, GiB, 34·s·b·h, Korthikanti et al. 2022).
"""

FIT: dict[str, dict[str, str]] = {
    # Workload names: the one name of each, in every sentence, table and answer (the terminal labels and
    # kb.words.answer read them from here); memory-term names inside sentences (English keeps the ids).
    "workload.inference": {"en": "inference", "zh": "推理"},
    "workload.full": {"en": "full training", "zh": "全参数训练"},
    "workload.lora": {"en": "LoRA fine-tuning", "zh": "LoRA 微调"},
    "workload.qlora": {"en": "QLoRA fine-tuning", "zh": "QLoRA 微调"},
    "term.weights": {"en": "weights", "zh": "权重"},
    "term.gradients": {"en": "gradients", "zh": "梯度"},
    "term.optimizer": {"en": "optimizer", "zh": "优化器状态"},
    "term.activations": {"en": "activations", "zh": "激活值"},
    "term.kv_cache": {"en": "kv_cache", "zh": "KV 缓存"},
    "term.overhead": {"en": "overhead", "zh": "开销余量"},

    # check.py: the GPU, the model's shape, what was assumed, the verdict.
    "gpu_line": {
        "en": "{gpu}: {vram:g} GiB a GPU ({source}), {bandwidth:g} GB/s, {tflops:g} TFLOPS dense {fmt} "
              "(fp32 accumulate), TDP {tdp:g} W",
        "zh": "{gpu}：每卡 {vram:g} GiB（{source}），带宽 {bandwidth:g} GB/s，稠密 {fmt} 算力 {tflops:g} TFLOPS"
              "（fp32 累加），TDP {tdp:g} W",
    },
    "figures.published": {"en": "the card's published figures", "zh": "显卡公开规格"},
    "figures.given": {"en": "the capacity given", "zh": "按给定的容量"},
    "gpu_line_partial": {
        "en": "{gpu}: {vram:g} GiB a GPU ({source}); no public figure for its speed or power, so only its memory "
              "is checked",
        "zh": "{gpu}：每卡 {vram:g} GiB（{source}）；它的速度或功耗没有公开数字，只检查显存",
    },
    "source_stated": {"en": "as stated: kb has no figures for this card", "zh": "按所给显存：kb 没有这张卡的规格"},
    "capacity_stated": {
        "en": "capacity: {gib:g} GiB a card as stated (kb has no figures for {gpu}); the memory verdict and the "
              "totals hold, its speed, power and price are unknown",
        "zh": "显存容量：按所给的每卡 {gib:g} GiB 计（kb 没有 {gpu} 的规格）；显存结论和总量成立，速度、功耗和价格未知",
    },
    "capacity_override": {
        "en": "capacity: {gib:g} GiB a card as given, not the published figure",
        "zh": "显存容量：按所给的每卡 {gib:g} GiB 计，不用规格表的数字",
    },
    "stated_card": {
        "en": "{gpu} is checked as a PCIe card, {per_node} to a server, since kb has no figures for its links",
        "zh": "kb 没有 {gpu} 的互连数据，按 PCIe 卡、每台服务器 {per_node} 张计算",
    },
    "shape_dims": {
        "en": "{layers} layers, hidden {hidden}, {heads} heads, {kv_heads} kv heads, head dim {head_dim}, FFN {ffn}, "
              "vocab {vocab}",
        "zh": "{layers} 层，隐藏维度 {hidden}，{heads} 个注意力头，{kv_heads} 个 KV 头，头维度 {head_dim}，"
              "FFN 维度 {ffn}，"
              "词表 {vocab}",
    },
    "shape_estimated": {
        "en": "a bare size: {params:,} parameters as given; shape estimated by scaling {base} (the nearest model kb "
              "knows) by the cube root of the size ratio: {dims}",
        "zh": "只给了规模：参数量按所给的 {params:,} 计；结构由 kb 已知的最接近的模型 {base} 按规模比的立方根"
              "缩放估算：{dims}",
    },
    "shape_preset": {
        "en": "{name}: published shape {dims}, {params:,} parameters",
        "zh": "{name}：公开结构为 {dims}，共 {params:,} 个参数",
    },
    "capacity_gib": {
        "en": "capacity in binary units as the card reports it (an \"80GB\" card holds 80 GiB)",
        "zh": "显存容量按显卡自报的二进制单位计（标称“80GB”的卡有 80 GiB）",
    },
    "capacity_gb": {
        "en": "capacity: the datasheet's decimal GB taken as decimal bytes (e.g. 141 GB = 131.3 GiB), a little below "
              "what the driver shows",
        "zh": "显存容量：按厂商数据表的十进制 GB 计为十进制字节（例如 141 GB = 131.3 GiB），比驱动显示的略保守",
    },
    "capacity_driver": {
        "en": "capacity: {mib:,.0f} MiB = {gib:,.2f} GiB, the total the driver reports (as nvidia-smi prints it; "
              "the datasheet's nominal figure is {nominal}){ecc}",
        "zh": "显存容量：{mib:,.0f} MiB = {gib:,.2f} GiB，即驱动报告的总容量（标称 {nominal}）{ecc}",
    },
    "ecc_on": {"en": "; GDDR ECC on, as shipped, costs about 6.25 % of it",
               "zh": "；GDDR 的 ECC 按出厂默认开启，约占 6.25 %"},
    "ecc_off": {"en": "; GDDR ECC off, as shipped (on, about 6.25 % less)",
                "zh": "；GDDR 的 ECC 按出厂默认关闭（开启后约少 6.25 %）"},
    "weights_experts": {
        "en": "weights: {experts:,} expert parameters × {bits:g} bits ({precision}) + {rest:,} others (attention, "
              "router, embeddings, norms) × 2 B (BF16, as the checkpoint ships them) = {size}",
        "zh": "权重：{experts:,} 个专家参数 × {bits:g} 位（{precision}）+ 其余 {rest:,} 个参数（注意力、路由、嵌入、"
              "归一化）× 2 B（BF16，与发布的检查点一致）= {size}",
    },
    "term_value": {"en": "{term} {gib:,.2f}", "zh": "{term} {gib:,.2f}"},
    "shape_moe": {
        "en": "MoE: {experts} routed experts ({active} a token) + {shared} shared, expert FFN {expert_ffn}, in "
              "{moe_layers} layers; {params:,} parameters in all, {active_params:,} active a token",
        "zh": "MoE：{experts} 个路由专家（每个 token 用 {active} 个）+ {shared} 个共享专家，专家 FFN {expert_ffn}，"
              "共 {moe_layers} 层；总参数 {params:,}，每个 token 激活 {active_params:,}",
    },
    "shape_preset_moe": {
        "en": "{name}: published shape {dims}; {moe}",
        "zh": "{name}：公开结构为 {dims}；{moe}",
    },
    "kv_cache_mla_step": {
        "en": "KV cache (MLA): (latent {latent} + rope key {rope}) values × {layers} layers × {value_bytes} B × "
              "{seq:,} tokens × {batch} sequence(s) = {size}",
        "zh": "KV 缓存（MLA）：（潜向量 {latent} + rope 键 {rope}）个值 × {layers} 层 × {value_bytes} B × "
              "{seq:,} 个 token × {batch} 条序列 = {size}",
    },
    "kv_cache_window_step": {
        "en": "KV cache: 2 × {kv_heads} kv heads × {head_dim} × {value_bytes} B × ({full} layers × {seq:,} tokens + "
              "{windowed} windowed layers × {window:,}) × {batch} sequence(s) = {size}",
        "zh": "KV 缓存：2 × {kv_heads} 个 KV 头 × {head_dim} × {value_bytes} B ×（{full} 层 × {seq:,} 个 token + "
              "{windowed} 个窗口层 × {window:,}）× {batch} 条序列 = {size}",
    },
    "window_assumption": {
        "en": "{windowed} of {layers} layers attend within a window of {window:,} tokens (sliding or chunked "
              "attention), so their KV cache holds at most that many",
        "zh": "{layers} 层中有 {windowed} 层只在 {window:,} 个 token 的窗口内做注意力（滑动窗口或分块注意力），"
              "这些层的 KV 缓存最多保留这么多 token",
    },
    "mla_assumption": {
        "en": "MLA caches a compressed latent of {latent} and a rope key of {rope} values a token and layer, not "
              "K and V for every head (DeepSeek-V3's reference inference code; vLLM does the same)",
        "zh": "MLA 每个 token 每层只缓存 {latent} 维潜向量和 {rope} 维 rope 键，而不是每个头的 K 和 V"
              "（DeepSeek-V3 的官方推理代码；vLLM 也是这样）",
    },
    "offload_assumption": {
        "en": "offload (DeepSpeed ZeRO-Offload): the optimizer states and gradients (with parameter offload, the "
              "weights too), {size} across the run, live off the GPUs and the optimizer step runs on the CPU; under "
              "ZeRO-3 a GPU keeps the largest layer L gathered, 4·L bytes",
        "zh": "卸载（DeepSpeed ZeRO-Offload）：优化器状态和梯度（卸载参数时连同权重）全程共 {size}，放在 GPU 之外，"
              "优化器更新在 CPU 上运行；ZeRO-3 下每卡保留聚合后的最大一层 L，共 4·L 字节",
    },
    "link.nvlink": {"en": "NVLink", "zh": "NVLink"},
    "link.nvlink-3": {"en": "NVLink 3", "zh": "NVLink 3"},
    "link.nvlink-4": {"en": "NVLink 4", "zh": "NVLink 4"},
    "link.nvlink-5": {"en": "NVLink 5", "zh": "NVLink 5"},
    "link.nvlink-export": {"en": "export NVLink (400 GB/s)", "zh": "出口版 NVLink（400 GB/s）"},
    "link.infinity-fabric": {"en": "Infinity Fabric", "zh": "Infinity Fabric"},
    "link.roce-scale-up": {"en": "on-chip RoCE", "zh": "片上 RoCE"},
    "link.pcie-4": {"en": "PCIe 4.0", "zh": "PCIe 4.0"},
    "link.pcie-5": {"en": "PCIe 5.0", "zh": "PCIe 5.0"},
    "link.infiniband-ndr": {"en": "InfiniBand NDR / 400G RoCE", "zh": "InfiniBand NDR / 400G RoCE"},
    "link.infiniband-hdr": {"en": "InfiniBand HDR / 200G RoCE", "zh": "InfiniBand HDR / 200G RoCE"},
    "link.infiniband-xdr": {"en": "InfiniBand XDR / 800G RoCE", "zh": "InfiniBand XDR / 800G RoCE"},
    "link.network": {"en": "the network between nodes", "zh": "节点间网络"},
    "comma": {"en": ", ", "zh": "，"},
    "layout_line_step": {"en": "layout: {line}", "zh": "并行布局：{line}"},
    "inter_node_assumption": {
        "en": "between nodes: {link}, {gbps:g} Gb/s a GPU (one NIC a GPU) = {gbs:g} GB/s each way; there is no "
              "NVLink between nodes (--inter-node-gbps sets it)",
        "zh": "节点之间：{link}，每卡 {gbps:g} Gb/s（每卡一块网卡）= 单向 {gbs:g} GB/s；节点之间没有 NVLink"
              "（可用 --inter-node-gbps 指定）",
    },
    "replicas_step": {
        "en": "serving: {replicas} replica(s) of TP {tp} inside a node over {link} × PP {pp} (stages across nodes "
              "over {inter}); each replica serves {share:,} sequence(s) at once",
        "zh": "服务部署：{replicas} 个副本，每个为节点内 TP {tp}（经 {link}）× PP {pp}（跨节点的流水段经 {inter}）；"
              "每个副本同时服务 {share:,} 条序列",
    },
    "replicas_assumption": {
        "en": "serving as vLLM's distributed-serving docs advise: TP inside a node, PP across nodes only when a node "
              "cannot hold the weights, more throughput from more replicas; sequences spread evenly over replicas",
        "zh": "按 vLLM 分布式部署文档的做法：张量并行限于节点内，只有一台放不下权重时才跨节点做流水线并行，"
              "吞吐靠增加副本；序列在副本间平均分配",
    },
    "layout_line": {"en": "{nodes} node(s) × {per_node} GPUs: {parts}",
                    "zh": "{nodes} 台 × 每台 {per_node} 卡：{parts}"},
    "layout_tp": {"en": "TP {tp} inside a node over {link}", "zh": "节点内 TP {tp}（经 {link}）"},
    "layout_pp": {"en": "PP {pp} over {link}", "zh": "PP {pp}（经 {link}）"},
    "layout_dp": {"en": "DP {dp} over {link}", "zh": "DP {dp}（经 {link}）"},
    "layout_ep": {"en": "EP {ep}", "zh": "EP {ep}"},
    "layout_replicas": {"en": "{replicas} replica(s)", "zh": "{replicas} 个副本"},
    "layout_zero": {"en": "ZeRO-{stage}", "zh": "ZeRO-{stage}"},
    "layout_states_step": {
        "en": "layout TP {tp} × PP {pp} × EP {ep}, DP {dp}: each GPU holds 1/(TP·PP) of the weights (routed experts "
              "1/(PP·EP)), ZeRO-{stage} shards them over the data-parallel ranks = {size} of model states a GPU",
        "zh": "并行布局 TP {tp} × PP {pp} × EP {ep}，DP {dp}：每卡存 1/(TP·PP) 的权重（路由专家为 1/(PP·EP)），"
              "ZeRO-{stage} 再在数据并行各卡间切分 = 每卡模型状态 {size}",
    },
    "layout_act_step": {
        "en": "activations a GPU with TP {tp} (sequence parallel) and PP {pp}: the first stage keeps {inflight} "
              "micro-batch(es) in flight (1F1B) of its layers' share, ÷ TP = {size}",
        "zh": "TP {tp}（序列并行）、PP {pp} 时每卡激活值：第一段按 1F1B 同时保留 {inflight} 个微批次的本段各层激活，"
              "÷ TP = {size}",
    },
    "layout_assumption": {
        "en": "layout: rank order TP, DP, PP (Megatron-LM); TP inside a node dividing the heads; PP stages of the "
              "layers, interleaved 1F1B (Megatron-LM, Llama 3); EP splits the routed experts; ZeRO shards the model "
              "states over data-parallel ranks",
        "zh": "并行布局：卡序为 TP、DP、PP（Megatron-LM 的顺序）；TP 在节点内且整除注意力头数；PP 按层分段、交错 1F1B "
              "调度（Megatron-LM、Llama 3）；"
              "EP 切分路由专家；ZeRO 在数据并行各卡间切分模型状态",
    },
    "layout_time_assumption": {
        "en": "a step is a global batch of {batch:,} tokens (default 4,194,304, Llama 2/3's, raised so every "
              "data-parallel rank has PP micro-batches; --global-batch-tokens sets it); recomputation is inside "
              "MFU; TP all-reduces and PP sends are not overlapped; expert all-to-all and data-parallel traffic run "
              "beside other micro-batches' compute, as DeepSeek-V3's DualPipe and Megatron-Core's overlap do, so a "
              "step takes the longest of the three",
        "zh": "每步为一个全局批次 {batch:,} 个 token（默认 4,194,304，即 Llama 2/3 的批次，必要时加大到每个数据并行"
              "副本至少有 PP 个微批次；可用 --global-batch-tokens 指定）；重计算包含在 MFU 内；TP all-reduce、"
              "PP 传递不与计算重叠；EP all-to-all 和数据并行通信与其他微批次的计算同时进行（如 DeepSeek-V3 的 "
              "DualPipe 和 Megatron-Core 的重叠），一步取三者中最长者",
    },
    "layout_step": {
        "en": "{m:,} micro-batch(es) a data-parallel rank, {batch:,} tokens a step; pipeline bubble "
              "(PP − 1)/(m + PP − 1) = {bubble:.1%}",
        "zh": "每个数据并行副本 {m:,} 个微批次，每步 {batch:,} 个 token；流水线气泡 "
              "(PP − 1)/(m + PP − 1) = {bubble:.1%}",
    },
    "layout_step_vp": {
        "en": "{m:,} micro-batch(es) a data-parallel rank, {batch:,} tokens a step; pipeline bubble with {vp} "
              "interleaved chunks a stage: (PP − 1)/(vp·m + PP − 1) = ({pp} − 1)/({vp} × {m:,} + {pp} − 1) = "
              "{bubble:.1%}",
        "zh": "每个数据并行副本 {m:,} 个微批次，每步 {batch:,} 个 token；每段 {vp} 个交错分块时的流水线气泡 "
              "(PP − 1)/(vp·m + PP − 1) = ({pp} − 1)/({vp} × {m:,} + {pp} − 1) = {bubble:.1%}",
    },
    "layout_time_step": {
        "en": "a step: compute {compute:,.3f} s ÷ (1 − {bubble:.1%} bubble) + TP all-reduces {tp_s:,.3f} s over "
              "{tp_link} + PP sends {pp_s:,.3f} s over {pp_link}; overlapped beside it: EP all-to-all {ep_s:,.3f} s "
              "over {ep_link}, data-parallel traffic {dp_gb:,.2f} GB a GPU over {dp_link} at {dp_gbs:g} GB/s each "
              "way = {dp_s:,.3f} s ({bound}): {step:,.3f} s a step × {steps:,.0f} steps = {wall:,.1f} hours "
              "wall-clock = {gpu_hours:,.0f} GPU-hours",
        "zh": "每步：计算 {compute:,.3f} s ÷（1 − 气泡 {bubble:.1%}）+ TP all-reduce {tp_s:,.3f} s（经 {tp_link}）"
              "+ PP 传递 {pp_s:,.3f} s（经 {pp_link}）；与之重叠：EP all-to-all {ep_s:,.3f} s（经 {ep_link}），"
              "数据并行通信每卡 {dp_gb:,.2f} GB，经 {dp_link}、单向 {dp_gbs:g} GB/s = {dp_s:,.3f} s（{bound}）："
              "每步 {step:,.3f} s × {steps:,.0f} 步 = 墙钟时间 {wall:,.1f} 小时 = {gpu_hours:,.0f} GPU 小时",
    },
    "no_fp8_cores": {
        "en": "{gpu} has no FP8 tensor cores: FP8 weights are stored in 8 bits, but the math runs at the 16-bit rate",
        "zh": "{gpu} 没有 FP8 张量核心：FP8 权重按 8 位存放，但计算按 16 位算力进行",
    },
    "no_fp4_cores": {
        "en": "{gpu} has no FP4 tensor cores (Blackwell has): FP4 weights are stored in 4 bits, the math runs at "
              "the 16-bit rate",
        "zh": "{gpu} 没有 FP4 张量核心（Blackwell 才有）：FP4 权重按 4 位存放，计算按 16 位算力进行",
    },
    "fp8_rate": {
        "en": "{precision} matmuls at the card's dense {fmt} rate, {tflops:g} TFLOPS",
        "zh": "{precision} 矩阵乘按这张卡的稠密 {fmt} 算力 {tflops:g} TFLOPS 计",
    },
    "release_precision": {
        "en": "no --precision: inference uses the model's release format, {precision} ({what})",
        "zh": "未指定 --precision：推理按模型发布时的格式 {precision} 计（{what}）",
    },
    "release.fp8": {"en": "FP8 e4m3 weights in 128×128 blocks with scales; embeddings, head and norms in BF16",
                    "zh": "FP8 e4m3 权重，128×128 分块带缩放因子；嵌入、输出头和归一化为 BF16"},
    "release.mxfp4-experts": {"en": "MoE expert weights in MXFP4, attention, router and embeddings in BF16",
                              "zh": "MoE 专家权重为 MXFP4，注意力、路由和嵌入为 BF16"},
    "link.pcie": {"en": "PCIe", "zh": "PCIe"},

    # issue 37: the total first, with its terms; what a card computes; offload; a card kb has no record of
    "total_line": {
        "en": "{model} {workload} in {precision} needs {total:,.1f} GiB in all: {terms}{host}",
        "zh": "{model} 用 {precision} 做{workload}共需 {total:,.1f} GiB：{terms}{host}",
    },
    "total_host": {
        "en": " (on the GPUs), and {host:,.1f} GiB of host memory a node for what is offloaded",
        "zh": "（以上在 GPU 上）；另需每台主机 {host:,.1f} GiB 内存存放卸载的部分",
    },
    "total_nvme": {
        "en": " (on the GPUs), and {nvme:,.1f} GiB of NVMe a node for what is offloaded",
        "zh": "（以上在 GPU 上）；另需每台 {nvme:,.1f} GiB NVMe 存放卸载的部分",
    },
    "total_cards": {
        "en": "on {cards}, {per_gpu:,.1f} GiB a card against {available:,.1f} GiB: {outcome}",
        "zh": "在 {cards} 上每卡需要 {per_gpu:,.1f} GiB，每卡可用 {available:,.1f} GiB：{outcome}",
    },
    "total_need": {
        "en": "kb has no figures for {gpu}: the check needs {per_gpu:,.1f} GiB a card on {count} card(s)",
        "zh": "kb 没有 {gpu} 的规格：按 {count} 张卡计，每卡需要 {per_gpu:,.1f} GiB",
    },
    "total_term": {"en": "{term} {gib:,.1f} GiB", "zh": "{term} {gib:,.1f} GiB"},
    "support.native": {
        "en": "{gpu} ({arch}, {cc}) computes {precision} on its own tensor cores",
        "zh": "{gpu}（{arch}，{cc}）的张量核心可以直接计算 {precision}",
    },
    "support.weight-only": {
        "en": "{gpu} ({arch}, {cc}) has no {precision} tensor cores: {precision} runs weight-only, stored in "
              "{precision} and computed in 16-bit; {instead} also run",
        "zh": "{gpu}（{arch}，{cc}）没有 {precision} 张量核心：{precision} 只能按权重存储格式运行，计算用 16 位；"
              "也可以用 {instead}",
    },
    "support.upcast": {
        "en": "{gpu} ({arch}, {cc}) has no tensor cores: {precision} weights are computed in FP32, slowly",
        "zh": "{gpu}（{arch}，{cc}）没有张量核心：{precision} 权重按 FP32 计算，速度慢",
    },
    "support.refused": {
        "en": "{gpu} ({arch}, {cc}) cannot compute {precision} for {workload}: what runs instead is {instead}",
        "zh": "{gpu}（{arch}，{cc}）不能用 {precision} 做{workload}：可以改用 {instead}",
    },
    "support.unchecked": {
        "en": "kb has no figures for {gpu}, so it cannot say whether it computes {precision}",
        "zh": "kb 没有 {gpu} 的规格，无法判断它能否计算 {precision}",
    },
    "feature.yes": {"en": "{gpu}: {feature}, yes{detail}", "zh": "{gpu}：{feature}，支持{detail}"},
    "feature.no": {"en": "{gpu}: {feature}, no{detail}", "zh": "{gpu}：{feature}，不支持{detail}"},
    "feature.unknown": {"en": "{gpu}: {feature}, unknown", "zh": "{gpu}：{feature}，未知"},
    "feature.value": {"en": "{gpu}: {feature} {value}", "zh": "{gpu}：{feature} {value}"},
    "feature.bf16": {"en": "BF16 tensor cores", "zh": "BF16 张量核心"},
    "feature.fp8": {"en": "FP8 tensor cores", "zh": "FP8 张量核心"},
    "feature.fp4": {"en": "FP4 tensor cores", "zh": "FP4 张量核心"},
    "feature.nvlink": {"en": "NVLink", "zh": "NVLink"},
    "feature.mig": {"en": "MIG (Multi-Instance GPU)", "zh": "MIG 多实例"},
    "feature.ecc": {"en": "memory ECC", "zh": "显存 ECC"},
    "feature.architecture": {"en": "architecture", "zh": "架构"},
    "feature.compute_capability": {"en": "compute capability", "zh": "计算能力"},
    "feature.cc_detail": {"en": " (compute capability {cc})", "zh": "（计算能力 {cc}）"},
    "feature.nvlink_detail": {"en": " ({kind}, {gbs:g} GB/s both ways)", "zh": "（{kind}，双向 {gbs:g} GB/s）"},
    "feature.other_fabric": {"en": "{gpu}: NVLink, no; {kind} instead{gbs}",
                             "zh": "{gpu}：没有 NVLink，用的是 {kind}{gbs}"},
    "feature.gbs": {"en": ", {gbs:g} GB/s both ways", "zh": "，双向 {gbs:g} GB/s"},
    "nvlink_kind.bridge": {"en": "a two-card bridge", "zh": "两卡桥接"},
    "nvlink_kind.nvswitch": {"en": "NVSwitch, every GPU of a node", "zh": "NVSwitch，节点内全互连"},
    "nvlink_kind.nvlink 2": {"en": "NVLink 2 on the SXM2 module", "zh": "SXM2 模组上的 NVLink 2"},
    "nvlink_kind.infinity-fabric": {"en": "AMD Infinity Fabric", "zh": "AMD Infinity Fabric"},
    "nvlink_kind.hccs": {"en": "Huawei HCCS", "zh": "华为 HCCS"},
    "nvlink_kind.roce": {"en": "on-chip RoCE Ethernet", "zh": "片上 RoCE 以太网"},
    "ecc_state.always on": {"en": "always on", "zh": "始终开启"},
    "ecc_state.on by default": {"en": "on as shipped", "zh": "出厂开启"},
    "ecc_state.off by default": {"en": "available, off as shipped", "zh": "可开启，出厂关闭"},
    "ecc_state.none": {"en": "none", "zh": "无"},
    "ecc_state.unknown": {"en": "unknown", "zh": "未知"},
    "feature.mig_detail": {"en": " (up to {n} instances)", "zh": "（最多 {n} 个实例）"},
    "offload_line": {
        "en": "offload ({what}, to {device}): {host} of host memory a node{available}",
        "zh": "卸载（{what}，到{device}）：每台主机需要内存 {host}{available}",
    },
    "offload_line_nvme": {
        "en": "offload ({what}, to NVMe): {nvme} on NVMe a node; host buffers not estimated",
        "zh": "卸载（{what}，到 NVMe）：每台 NVMe 需要 {nvme}；主机缓冲不另估算",
    },
    "offload_available": {"en": " against {available}: {outcome}", "zh": "，每台有 {available}：{outcome}"},
    "offload.optimizer": {"en": "optimizer states and gradients", "zh": "优化器状态和梯度"},
    "offload.params": {"en": "optimizer states, gradients and parameters", "zh": "优化器状态、梯度和参数"},
    "offload.cpu": {"en": "host memory", "zh": "主机内存"},
    "release_not_runnable": {
        "en": "the model ships in {release}, which {gpu} cannot read: checked in {precision}, the 16-bit weights it "
              "runs",
        "zh": "模型以 {release} 发布，{gpu} 读不了这种格式：按它能运行的 16 位权重 {precision} 计算",
    },
    "default_not_runnable": {
        "en": "{default}, the usual format, does not run on {gpu} ({arch}): checked in {precision}",
        "zh": "通常的 {default} 在 {gpu}（{arch}）上不能运行：按 {precision} 计算",
    },
    "format_unchecked": {
        "en": "kb has no figures for {gpu}, so it cannot say whether the card computes {precision}",
        "zh": "kb 没有 {gpu} 的规格，无法判断它能否计算 {precision}",
    },
    "upcast_fp32": {
        "en": "{gpu} has no tensor cores and runs FP16 at 1/64 of its FP32 rate: {precision} weights are computed in "
              "FP32, at the FP32 rate",
        "zh": "{gpu} 没有张量核心，FP16 只有 FP32 的 1/64：{precision} 权重按 FP32 计算，用 FP32 算力",
    },
    "fp16_rate": {
        "en": "{gpu} has no BF16 tensor cores: 16-bit math runs in FP16 at its FP16 tensor rate",
        "zh": "{gpu} 没有 BF16 张量核心：16 位计算用 FP16，按它的 FP16 张量算力计",
    },
    "active_assumption": {
        "en": "active parameters: {active:,}, the experts a token uses plus the shared parts, without the input "
              "embedding table (OpenAI's convention for gpt-oss; DeepSeek-V3's 36.7B; Qwen, Meta and Mistral count "
              "the table in their own figures)",
        "zh": "激活参数：{active:,}，即每个 token 用到的专家和共享部分，不含输入嵌入表（OpenAI 给 gpt-oss 的口径；Dee"
              "pSeek-V3 的 36.7B "
              "同样；Qwen、Meta、Mistral 公布的数字把嵌入表算在内）",
    },
    "offload_ignored": {
        "en": "offload ignored: it moves full training's optimizer states",
        "zh": "卸载未采用：卸载的是全参数训练的优化器状态",
    },
    "host_assumption": {
        "en": "host memory for offload: DeepSpeed's estimator (deepspeed.readthedocs.io, Memory Requirements), "
              "models initialised under ZeRO-3's zero.Init; without it every process loads the model in fp32 on the "
              "host, which runs out first",
        "zh": "卸载所需主机内存：按 DeepSpeed 的估算公式（deepspeed.readthedocs.io，Memory Requirements），假定模型在"
              " ZeRO-3 的 zero.Init "
              "下初始化；不用它时每个进程都在主机上以 fp32 加载整个模型，内存先耗尽",
    },
    "host_step": {
        "en": "host memory a node: {per:g} B a parameter ÷ {nodes} node(s) × 1.5 buffers = {size}{verdict}",
        "zh": "每台主机内存：每个参数 {per:g} B ÷ {nodes} 台 × 1.5 缓冲 = {size}{verdict}",
    },
    "host_nvme_step": {
        "en": "NVMe a node (ZeRO-Infinity): {per:g} B a parameter ÷ {nodes} node(s) = {size}; the host holds pinned "
              "buffers only, not estimated",
        "zh": "每台 NVMe（ZeRO-Infinity）：每个参数 {per:g} B ÷ {nodes} 台 = {size}；主机只放锁页缓冲，不另估算",
    },
    "host_verdict": {"en": "; {available} of host memory a node: {outcome}",
                     "zh": "；每台主机内存 {available}：{outcome}"},
    "offload_time_assumption": {
        "en": "offload's host traffic and CPU optimizer step are not in the time: it is a floor",
        "zh": "卸载带来的主机传输和 CPU 上的优化器更新不计入时间：时间是下限",
    },
    "no_speed_unknown": {
        "en": "speed and running cost not estimated: no public figure for {gpu}'s bandwidth or compute",
        "zh": "未估算速度和运行成本：{gpu} 的带宽或算力没有公开数字",
    },
    "unknown_figures": {"en": 'unknown for {gpu}: {what}', "zh": '{gpu} 未知的数字：{what}'},
    "unknown.speed": {"en": 'speed (bandwidth, compute)', "zh": '速度（带宽、算力）'},
    "unknown.power": {"en": 'power', "zh": '功耗'},
    "unknown.price": {"en": 'price', "zh": '价格'},
    "energy_unknown": {"en": 'energy: no published TDP for {gpu}', "zh": '电费：{gpu} 没有公开的 TDP'},
    "train_flops_step": {
        "en": "training compute: 6 × {params:,} active params × {tokens:.3e} tokens = {six:.3e} FLOP for the weights' "
              "matmuls + causal attention at {seq:,} tokens, {attention:.3e} a token × {tokens:.3e} = {attn:.3e} FLOP; "
              "{flops:.3e} FLOP in all",
        "zh": "训练计算量：6 × {params:,} 个激活参数 × {tokens:.3e} 个 token = {six:.3e} FLOP（权重矩阵乘）+ {seq:,} "
              "token 的因果注意力，每 token {attention:.3e} × {tokens:.3e} = {attn:.3e} FLOP；共 {flops:.3e} FLOP",
    },
    "train_flops_assumption": {
        "en": "model FLOPs: 6 a parameter a token for the weights' matmuls + causal attention's (PaLM's MFU "
              "convention, which Llama 3's 38–43 % uses; for DeepSeek-V3 at 4K it gives DeepSeek's own 250 GFLOPs a "
              "token)",
        "zh": "模型 FLOP：权重矩阵乘每参数每 token 6 次 + 因果注意力（PaLM 的 MFU 口径，Llama 3 的 38–43 % 即按此计；"
              "DeepSeek-V3 在 4K 长度下得到 "
              "DeepSeek 自己公布的每 token 250 GFLOP）",
    },
    "fp8_train_assumption": {
        "en": "FP8 training: {gain:g}x the BF16 rate, as measured end to end (NeMo AutoModel: over 1.2x on 8 H100; "
              "DeepSeek-V3's FP8 run reached 39–44 % of the BF16 peak), not the FP8 peak's 2x: attention, norms, "
              "scaling and casts stay in higher precision",
        "zh": "FP8 训练：按 BF16 算力的 {gain:g} 倍计，即实测的端到端提速（NeMo AutoModel：8 张 H100 上 1.2 倍以上；D"
              "eepSeek-V3 的 FP8 训练达到 BF16 "
              "峰值的 39–44 %），而不是 FP8 峰值的 2 倍：注意力、归一化、缩放和类型转换仍用更高精度",
    },
    "schedule_total_step": {
        "en": "over the {phases} batch phases: {wall:,.1f} hours wall-clock = {gpu_hours:,.0f} GPU-hours",
        "zh": "{phases} 个批次阶段合计：墙钟时间 {wall:,.1f} 小时 = {gpu_hours:,.0f} GPU 小时",
    },
    "link.nvlink-2": {"en": 'NVLink 2', "zh": 'NVLink 2'},
    "link.pcie-3": {"en": 'PCIe 3.0', "zh": 'PCIe 3.0'},
    "link.hccs": {"en": 'HCCS', "zh": 'HCCS'},
    "release.int4": {
        "en": "4-bit integer weights (GPTQ/AWQ, group 128), embeddings and head in 16-bit",
        "zh": "4 位整数权重（GPTQ/AWQ，每 128 个一组），嵌入和输出头为 16 位",
    },
    "release.int8": {
        "en": "8-bit integer weights (GPTQ), embeddings and head in 16-bit",
        "zh": "8 位整数权重（GPTQ），嵌入和输出头为 16 位",
    },
    "bound.memory": {"en": "memory-bound", "zh": "受显存带宽限制"},
    "bound.compute": {"en": "compute-bound", "zh": "受算力限制"},
    "kv_capacity_step": {
        "en": "KV capacity: ({available:,.2f} GiB − 1 GiB) ÷ 1.1 − {fixed:,.2f} GiB weights and prefill a GPU, × "
              "{count} GPU(s) = {space} for KV; ÷ {per_token:,} B a token = {tokens:,} tokens; ÷ {per_seq} a "
              "{seq:,}-token sequence = {sequences:,} sequences at once",
        "zh": "KV 容量：（{available:,.2f} GiB − 1 GiB）÷ 1.1 − 每卡 {fixed:,.2f} GiB 权重和预填充，× {count} 张卡 = "
              "{space} 可放 KV；÷ 每 token {per_token:,} B = {tokens:,} 个 token；"
              "÷ 每条 {seq:,} token 序列 {per_seq} = "
              "最多同时 {sequences:,} 条序列",
    },
    "ttft_step": {"en": "time to first token: {prefill}", "zh": "首 token 时间：{prefill}"},
    "ttft_assumption": {
        "en": "time to first token: one prompt of the full context prefilled alone at the dense peak × MFU {mfu:.0%} "
              "(a busy server adds queueing)",
        "zh": "首 token 时间：一条占满上下文的提示词单独预填充，按稠密峰值 × MFU {mfu:.0%} 计"
              "（繁忙的服务还要加排队时间）",
    },
    "allreduce_step": {
        "en": "tensor parallel: 2 all-reduces × {layers} layers of {tokens:,} tokens × {hidden} × 2 B over "
              "{count} GPUs "
              "by {link} ({gbs:g} GB/s each way, {latency_us:g} µs each) = {ms:,.3f} ms a step",
        "zh": "张量并行：2 次 all-reduce × {layers} 层，每次 {tokens:,} 个 token × {hidden} × 2 B，"
              "{count} 张卡经 {link}"
              "（单向 {gbs:g} GB/s，每次 {latency_us:g} µs）= 每步 {ms:,.3f} ms",
    },
    "tp_assumption": {
        "en": "the {count} GPUs split each layer (tensor parallel) and all-reduce twice a layer over {link}; kb allows "
              "{latency_us:g} µs a collective besides the bytes (an allowance, not a measurement)",
        "zh": "{count} 张卡按张量并行切分每一层，每层经 {link} 做两次 all-reduce；除数据量外每次另计 {latency_us:g} µs"
              "（估计值，不是实测）",
    },
    "moe_decode_assumption": {
        "en": "MoE decode reads only the experts its tokens are routed to: of {experts} experts with {active} a "
              "token, a batch of B touches E·(1 − (1 − k/E)^B) on average; compute uses the active parameters",
        "zh": "MoE 解码只读取 token 被路由到的专家：{experts} 个专家、每个 token 用 {active} 个，一批 B 个 token 平均"
              "用到 E·(1 − (1 − k/E)^B) 个；计算量按激活参数计",
    },
    "moe_train_assumption": {
        "en": "MoE training FLOPs use the {active:,} active parameters; memory holds all {params:,}",
        "zh": "MoE 训练计算量按 {active:,} 个激活参数计；显存要放下全部 {params:,} 个参数",
    },
    "dp_step": {
        "en": "data-parallel step of {tokens:,} tokens over {count} GPUs: compute {compute:,.3f} s; ZeRO-{stage} "
              "traffic {factor} × 2Ψ × (N−1)/N = {gb:,.2f} GB a GPU over {link} at {gbs:g} GB/s each way = "
              "{comm:,.3f} s; {bound}, wall-clock × {scale:,.2f}",
        "zh": "数据并行一步 {tokens:,} 个 token、{count} 张卡：计算 {compute:,.3f} s；ZeRO-{stage} 通信 "
              "{factor} × 2Ψ × (N−1)/N = 每卡 {gb:,.2f} GB，经 {link}、单向 {gbs:g} GB/s = {comm:,.3f} s；"
              "{bound}，墙钟时间 × {scale:,.2f}",
    },
    "dp_assumption": {
        "en": "data parallel: one micro-batch a GPU per optimizer step (no gradient accumulation); 16-bit gradients "
              "all-reduced (ZeRO-3 also gathers parameters: 1.5× the bytes), overlapped with compute, so a step "
              "takes the longer of the two",
        "zh": "数据并行：每个优化器步每卡一个微批次（不做梯度累积）；16 位梯度做 all-reduce（ZeRO-3 还要收集参数，"
              "字节数为 1.5 倍），与计算重叠，一步取两者中较长的",
    },
    "bound.link": {"en": "link-bound", "zh": "受卡间链路限制"},
    "overhead_assumption": {
        "en": "overhead: 1 GiB a GPU for the CUDA context and libraries + 10 % of the rest for allocator "
              "fragmentation",
        "zh": "开销余量：每卡 1 GiB 留给 CUDA 上下文和各种库，另加其余部分的 10 % 应对分配器碎片",
    },
    "seq_assumed": {
        "en": "sequence length not given: {seq:,} tokens assumed",
        "zh": "未给出上下文长度：按 {seq:,} 个 token 计",
    },
    "precision_assumed": {
        "en": "precision not given: {precision} assumed for {workload}",
        "zh": "未给出精度：{workload}按 {precision} 计",
    },
    "ckpt_on": {
        "en": "activation checkpointing on (the usual setting for large models; say --no-checkpointing to check "
              "without)",
        "zh": "激活检查点：开启（大模型的常用设置；加 --no-checkpointing 可检查不开的情况）",
    },
    "ckpt_off": {"en": "activation checkpointing off", "zh": "激活检查点：关闭"},
    "min_gpus_zero": {"en": "min_gpus: ZeRO stage {stage}", "zh": "最少卡数：按 ZeRO 第 {stage} 阶段计算"},
    "min_gpus_zero3": {
        "en": "min_gpus: ZeRO-3, since stage 0 replicates the model states and more GPUs never help",
        "zh": "最少卡数：按 ZeRO 第 3 阶段计算，因为第 0 阶段每张卡都复制全部模型状态，加卡无济于事",
    },
    "min_gpus_split": {
        "en": "min_gpus: weights, KV cache and activations split evenly (tensor/pipeline parallel)",
        "zh": "最少卡数：权重、KV 缓存和激活值平均切分到各卡（张量并行/流水线并行）",
    },
    "zero_ignored": {
        "en": "--zero {zero} ignored: ZeRO stages apply to full training's model states",
        "zh": "--zero {zero} 未采用：ZeRO 分阶段切分的是全参数训练的模型状态",
    },
    "verdict": {
        "en": "verdict: {required} required a GPU vs {available} available: {outcome} ({headroom:+,.2f} GiB headroom)",
        "zh": "结论：每卡需要 {required}，可用 {available}：{outcome}（余量 {headroom:+,.2f} GiB）",
    },
    "fits": {"en": "fits", "zh": "放得下"},
    "nofit": {"en": "does not fit", "zh": "放不下"},
    "fewest": {
        "en": "fewest {gpu} that fit: {count} (per GPU {required})",
        "zh": "放得下的最少 {gpu} 张数：{count}（每卡 {required}）",
    },
    "no_speed_nofit": {
        "en": "speed and running cost not estimated: the model does not fit on {count} × {gpu}, so no such run "
              "exists (ask again with {fewest} GPUs)",
        "zh": "未估算速度和运行成本：模型在 {count} 张 {gpu} 上放不下，这样的运行并不存在（可按 {fewest} 张再问）",
    },
    "none_fits": {
        "en": "no number of {gpu} up to {limit} fits: what stays on every GPU (activations, context) is larger "
              "than one card",
        "zh": "{gpu} 加到 {limit} 张也放不下：每张卡都要保留的部分（激活值、CUDA 上下文）超过了单卡容量",
    },
    "train_energy": {
        "en": "{energy_step}; × {hours:,.1f} hours = {energy:,.0f} CNY",
        "zh": "{energy_step}；× {hours:,.1f} 小时 = {energy:,.0f} CNY",
    },
    "decode_assumption": {
        "en": "decode speed: a roofline upper bound, the longer of reading (weights + every sequence's KV cache at "
              "the full context) ÷ bandwidth and computing (2 × active params + attention) FLOP ÷ dense peak, + "
              "tensor-parallel all-reduces; real kernels reach 60–80 % of it. The input embedding table is not read "
              "whole (a step gathers one row a token); an untied LM head is",
        "zh": "解码速度：屋顶线上限，取读取（权重 + 每条序列满上下文的 KV 缓存）÷ 带宽 与 计算（2 × 激活参数 + 注意力）"
              "FLOP ÷ 稠密峰值 两者中较长的，再加张量并行的 all-reduce；实际内核可达其 60–80 %。输入嵌入表不整表读取"
              "（每个 token 只取一行）；不与它共享的输出层要读",
    },
    "prefill_assumption": {
        "en": "prefill: dense 16-bit tensor peak with fp32 accumulate × MFU {mfu:.0%}, also for weight-only "
              "quantised models (their matmuls run in 16-bit)",
        "zh": "预填充：按 16 位稠密张量峰值算力（fp32 累加）× 模型算力利用率 (MFU) {mfu:.0%} 计算，"
              "只量化权重的模型也一样（其矩阵乘法仍以 16 位进行）",
    },
    "per_m_assumption": {
        "en": "cost per million tokens: cards over 3 years of round-the-clock use + their energy at TDP, at the "
              "decode bound: a floor, not a quote",
        "zh": "每百万 token 成本：显卡按 3 年全天候使用摊销 + 按 TDP 计的电费，按解码速度上限计算：是下限，不是报价",
    },
    "train_assumption": {
        "en": "training time: the model FLOPs (6 a parameter a token + causal attention) over the dense 16-bit peak "
              "with fp32 accumulate × MFU {mfu:.0%} (Llama 2's 184,320 A100 GPU-hours for 7B × 2T tokens imply about "
              "40 %); LoRA/QLoRA are counted at the same rate (forward, recompute, backward through the frozen "
              "weights)",
        "zh": "训练时间：模型 FLOP（每参数每 token 6 次 + 因果注意力）除以 16 位稠密峰值算力（fp32 累加）× 模型算力"
              "利用率 (MFU) {mfu:.0%}（Llama 2 训练 7B × 2T token 用了 184,320 A100 GPU 小时，约合 40 %）；LoRA/QLoRA "
              "也按同样方式计（前向、重计算、穿过冻结权重的反向传播）",
    },
    "energy_assumption": {
        "en": "energy: the cards' TDP at {price:g} CNY/kWh (host and cooling not counted)",
        "zh": "电费：显卡按 TDP 功耗、{price:g} CNY/kWh 计（不含主机和散热）",
    },
    "capex_assumption": {
        "en": "capex: cards only, no server, network or cooling{a100}{vendor}",
        "zh": "显卡投入：只算显卡，不含服务器、网络和散热{a100}{vendor}",
    },
    "capex_a100": {
        "en": "; the guide's A100 price does not say 40GB or 80GB",
        "zh": "；指南给出的 A100 价格没说是 40GB 还是 80GB",
    },
    "capex_vendor": {
        "en": "; a vendor launch price, the guide gives none for this card",
        "zh": "；用的是厂商首发价，指南没有给出这张卡的价格",
    },

    # memory.py: each term's working.
    "weights_plain": {
        "en": "weights: {params:,} params × {bytes:g} B ({precision}) = {size}",
        "zh": "权重：{params:,} 个参数 × {bytes:g} B（{precision}）= {size}",
    },
    "weights_quantised": {
        "en": "weights: {quantised:,} linear params × {bits:g}/8 B ({precision}) + {kept:,} embedding, head and norm "
              "params × 2 B = {size}",
        "zh": "权重：{quantised:,} 个线性层参数 × {bits:g}/8 B（{precision}）+ {kept:,} 个嵌入层、输出头和归一化层"
              "参数 × 2 B = {size}",
    },
    "kv_cache_step": {
        "en": "KV cache: 2 × {layers} layers × {kv_heads} kv heads × {head_dim} × {value_bytes} B × {seq:,} tokens × "
              "batch {batch} = {size}",
        "zh": "KV 缓存：2 × {layers} 层 × {kv_heads} 个 KV 头 × {head_dim} × {value_bytes} B × {seq:,} 个 token × "
              "批大小 {batch} = {size}",
    },
    "act_layer": {
        "en": "activations a layer (Korthikanti et al. 2022): s·b·h·(34 + 5·a·s/h) = {s}·{b}·{h}·(34 + 5·{a}·{s}/{h}); "
              "FlashAttention stores no attention scores, so 34·s·b·h = {size}",
        "zh": "每层激活值（Korthikanti et al. 2022）：s·b·h·(34 + 5·a·s/h) = {s}·{b}·{h}·(34 + 5·{a}·{s}/{h})；"
              "FlashAttention 不保存注意力分数，因此为 34·s·b·h = {size}",
    },
    "act_ckpt": {
        "en": "activation checkpointing: layer inputs 2·s·b·h × {layers} layers = {inputs}, + one layer recomputed "
              "{one}, + fp32 logits 4·s·b·vocab = {logits}: {total} (without checkpointing: {without})",
        "zh": "激活检查点：各层输入 2·s·b·h × {layers} 层 = {inputs}，+ 重计算的一层 {one}，"
              "+ fp32 logits 4·s·b·vocab = {logits}：共 {total}（不开激活检查点：{without}）",
    },
    "act_no_ckpt": {
        "en": "no checkpointing: {one} × {layers} layers + fp32 logits 4·s·b·vocab {logits} = {total}",
        "zh": "不开激活检查点：{one} × {layers} 层 + fp32 logits 4·s·b·vocab {logits} = {total}",
    },
    "overhead_step": {
        "en": "overhead a GPU: 1 GiB CUDA context + {fragmentation:.0%} of the rest for fragmentation = {size}",
        "zh": "每卡开销余量：1 GiB CUDA 上下文 + 其余部分的 {fragmentation:.0%} 应对碎片 = {size}",
    },
    "required_step": {"en": "required a GPU: {terms} = {size}", "zh": "每卡需要：{terms} = {size}"},
    "inference_act_step": {
        "en": "activations: one layer's prefill working set 34·t·h, t = min({seq:,} × {batch}, budget {budget:,}) = "
              "{tokens:,} tokens: 34 × {tokens:,} × {hidden} = {size} (nothing is kept for a backward pass)",
        "zh": "激活值：一层的预填充工作集 34·t·h，t = min({seq:,} × {batch}，预算 {budget:,}) = {tokens:,} 个 token："
              "34 × {tokens:,} × {hidden} = {size}（推理没有反向传播，不保留激活值）",
    },
    "inference_split_step": {
        "en": "split over {count} GPUs (tensor/pipeline parallel): weights, KV cache and activations ÷ {count}",
        "zh": "切分到 {count} 张卡（张量并行/流水线并行）：权重、KV 缓存和激活值 ÷ {count}",
    },
    "kv_assumption": {
        "en": "KV cache in {kind} ({value_bytes} B a value), at the full {seq:,}-token context for each of {batch} "
              "sequence(s)",
        "zh": "KV 缓存精度：{kind}（每个值 {value_bytes} B），每条序列（共 {batch} 条）都按占满 {seq:,} token "
              "的上下文计",
    },
    "kv_fp32": {"en": "fp32", "zh": "fp32"},
    "kv_16bit": {"en": "16-bit", "zh": "16 位"},
    "inference_act_assumption": {
        "en": "inference activations: one layer's transient working set (34·t·h) for the tokens prefilled at once, "
              "at most a chunked-prefill budget of {budget:,} tokens (vLLM's max_num_batched_tokens region, "
              "2,048–16,384); logits for the last position only",
        "zh": "推理激活值：同时预填充的 token 的一层临时工作集（34·t·h），最多为 {budget:,} 个 token 的分块预填充预算"
              "（vLLM 的 max_num_batched_tokens 范围为 2,048–16,384）；logits 只算最后一个位置",
    },
    "inference_split_assumption": {
        "en": "weights, KV cache and activations split evenly over {count} GPUs (tensor or pipeline parallel; the "
              "split's communication buffers are not counted)",
        "zh": "权重、KV 缓存和激活值平均切分到 {count} 张卡（张量并行或流水线并行；不计切分所需的通信缓冲区）",
    },
    "zero_step": {
        "en": "ZeRO stage {stage}, Ψ = {params:,}, N = {count}: {formula} = {w:,.3f} + {g:,.3f} + {o:,.3f} GB = "
              "{size} of model states a GPU",
        "zh": "ZeRO 第 {stage} 阶段，Ψ = {params:,}，N = {count}：{formula} = {w:,.3f} + {g:,.3f} + {o:,.3f} GB = "
              "每卡模型状态 {size}",
    },
    "model_states_step": {
        "en": "model states: {params:,} params × 16 B (2 weights + 2 gradients + 12 fp32 master, momentum, variance) "
              "= {size}",
        "zh": "模型状态：{params:,} 个参数 × 16 B（2 权重 + 2 梯度 + 12 fp32 主权重、动量、方差）= {size}",
    },
    "adam_assumption": {
        "en": "mixed-precision Adam: 16 bytes a parameter of model states (ZeRO paper, K = 12)",
        "zh": "混合精度 Adam：每个参数 16 字节模型状态（ZeRO 论文，K = 12）",
    },
    "zero_assumption": {
        "en": "ZeRO stage {stage} over {count} data-parallel GPU(s), as the ZeRO paper shards it",
        "zh": "ZeRO 第 {stage} 阶段，{count} 张卡数据并行，按 ZeRO 论文的方式切分",
    },
    "full_batch_assumption": {
        "en": "batch {batch} = the micro-batch on each GPU; activations are not sharded by ZeRO",
        "zh": "批大小 {batch} = 每张卡上的微批次；ZeRO 不切分激活值",
    },
    "adapter_base_step": {"en": "frozen base {weights}", "zh": "冻结的基座{weights}"},
    "adapters_step": {
        "en": "adapters: rank {rank} on q, k, v, o, gate, up, down of {layers} layers = {params:,} params; "
              "× {bytes} B (2 weights + 2 gradients + 8 Adam) = {size}",
        "zh": "适配器：秩 {rank}，加在 {layers} 层的 q、k、v、o、gate、up、down 上 = {params:,} 个参数；"
              "× {bytes} B（2 权重 + 2 梯度 + 8 Adam）= {size}",
    },
    "adapter_split_step": {
        "en": "layers split over {count} GPUs (pipeline): every term ÷ {count}",
        "zh": "各层切分到 {count} 张卡（流水线并行）：每一项 ÷ {count}",
    },
    "qlora_kind": {
        "en": "QLoRA (NF4 base with double quantisation, ≈ 4.127 bits a weight)",
        "zh": "QLoRA（NF4 基座，双重量化，每个权重约 4.127 位）",
    },
    "lora_kind": {"en": "LoRA", "zh": "LoRA"},
    "adapter_assumption": {
        "en": "{kind}: rank {rank} adapters on all seven linear layers of every block (the QLoRA paper's setting; "
              "PEFT's default r = 8 on q, v needs less)",
        "zh": "{kind}：秩 {rank} 的适配器加在每个块的全部七个线性层上（QLoRA 论文的设置；PEFT 默认 r = 8、"
              "只加在 q、v 上，需要的显存更少）",
    },
    "adapter_states_assumption": {
        "en": "adapters keep bf16 weights and gradients and fp32 Adam moments (12 B a parameter), no fp32 master "
              "copy, as the QLoRA recipe does",
        "zh": "适配器保存 bf16 权重和梯度以及 fp32 的 Adam 一阶、二阶矩（每个参数 12 B），不保留 fp32 主权重副本，"
              "与 QLoRA 的做法一致",
    },
    "adapter_batch_assumption": {"en": "batch {batch} = the micro-batch", "zh": "批大小 {batch} = 微批次"},
    "adapter_split_assumption": {
        "en": "layers split evenly over {count} GPUs (pipeline/naive model parallel)",
        "zh": "各层平均切分到 {count} 张卡（流水线并行/朴素模型并行）",
    },

    # speed.py
    "decode_step": {
        "en": "decode step of {batch} sequence(s): reads ({weights:,.2f} GB weights + {kv:,.2f} GB KV cache) ÷ "
              "({count} × {bandwidth:g} GB/s) = {memory_ms:,.3f} ms; computes {flops:.3e} FLOP ÷ ({count} × {tflops:g} "
              "TFLOPS) = {compute_ms:,.3f} ms; {bound}, + {comm_ms:,.3f} ms all-reduce: {tps:,.1f} tokens/s in all, "
              "{per_seq:,.1f} a sequence",
        "zh": "解码一步（{batch} 条序列）：读取（{weights:,.2f} GB 权重 + {kv:,.2f} GB KV 缓存）÷（{count} × "
              "{bandwidth:g} GB/s）= {memory_ms:,.3f} ms；计算 {flops:.3e} FLOP ÷（{count} × {tflops:g} TFLOPS）= "
              "{compute_ms:,.3f} ms；{bound}，+ {comm_ms:,.3f} ms all-reduce：合计 {tps:,.1f} tokens/s，"
              "每条序列 {per_seq:,.1f}",
    },
    "prefill_step": {
        "en": "prefill: (2 × {params:,} × {seq:,} × {batch} + 2 × {layers} × {seq:,}² × {hidden} × {batch}) = "
              "{flops:.3e} FLOP ÷ ({count} × {tflops:g} TFLOPS × MFU {mfu:.0%}) + {comm_ms:,.3f} ms all-reduce = "
              "{seconds:,.3f} s",
        "zh": "预填充：(2 × {params:,} × {seq:,} × {batch} + 2 × {layers} × {seq:,}² × {hidden} × {batch}) = "
              "{flops:.3e} FLOP ÷ ({count} × {tflops:g} TFLOPS × MFU {mfu:.0%}) + {comm_ms:,.3f} ms all-reduce = "
              "{seconds:,.3f} s",
    },
    "gpu_hours_step": {
        "en": "GPU-hours: {flops:.3e} ÷ ({tflops:g} TFLOPS dense, fp32 accumulate × MFU {mfu:.0%}) ÷ 3600 = "
              "{gpu_hours:,.1f} GPU-hours; ÷ {count} GPU(s) = {wall:,.1f} hours wall-clock",
        "zh": "GPU 小时：{flops:.3e} ÷（{tflops:g} TFLOPS 稠密算力，fp32 累加 × MFU {mfu:.0%}）÷ 3600 = "
              "{gpu_hours:,.1f} GPU 小时；÷ {count} 张卡 = 墙钟时间 {wall:,.1f} 小时",
    },

    # cost.py
    "capex_none_step": {
        "en": "capex: no price for the {gpu} in the guide or a vendor list, so none is computed",
        "zh": "显卡投入：指南和厂商价目里都没有 {gpu} 的价格，因此不计算",
    },
    "capex_step": {
        "en": "capex (cards only): {count} × {price:,.0f} CNY ({where}) = {total:,.0f} CNY",
        "zh": "显卡投入（只算显卡）：{count} × {price:,.0f} CNY（{where}）= {total:,.0f} CNY",
    },
    "price_doc": {"en": "the guide, §{section}", "zh": "指南 §{section}"},
    "price_vendor": {"en": "vendor launch price", "zh": "厂商首发价"},
    # A team's document (kb/documents/): its quote and date, the guide's price and its date beside it.
    "price_team": {"en": "the team's price list \"{title}\" quotes {quoted} on {date}; the guide's 2025 price is "
                          "{guide:,.0f} CNY ({guide_where})",
                   "zh": "团队的价格文档《{title}》{date} 报价 {quoted}；指南 2025 年的价格是 {guide:,.0f} CNY"
                         "（{guide_where}）"},
    "price_team_no_guide": {"en": "the team's price list \"{title}\" quotes {quoted} on {date}; the guide gives no "
                                  "price for this card",
                            "zh": "团队的价格文档《{title}》{date} 报价 {quoted}；指南没有这张卡的价格"},
    "energy_step": {
        "en": "energy: {count} × {tdp:g} W TDP × {price:g} CNY/kWh = {cny:,.2f} CNY an hour",
        "zh": "电费：{count} × {tdp:g} W TDP × {price:g} CNY/kWh = 每小时 {cny:,.2f} CNY",
    },
    "per_m_step": {
        "en": "cost per million tokens: ({capex_hour:,.2f} capex over 3 years + {energy:,.2f} energy) CNY an hour ÷ "
              "({tps:,.1f} × 3600) tokens × 1e6 = {cost:,.3f} CNY",
        "zh": "每百万 token 成本：（{capex_hour:,.2f} 显卡投入按 3 年摊销 + {energy:,.2f} 电费）CNY/小时 ÷ "
              "（{tps:,.1f} × 3600）token × 1e6 = {cost:,.3f} CNY",
    },

    # select.py: why a kind is left out, and what the ranking assumes.
    "excluded_datacenter": {
        "en": "{gpu}: a data-center card, left out for a site with no server room (it needs a server's power, "
              "airflow and cooling)",
        "zh": "{gpu}：数据中心卡，没有机房的场所不考虑（它需要服务器的供电、风道和散热）",
    },
    "excluded_no_price": {
        "en": "{gpu}: no price in the guide or a vendor list",
        "zh": "{gpu}：指南和厂商价目里都没有价格",
    },
    "excluded_none_fit": {"en": "{gpu}: no number of cards fits", "zh": "{gpu}：多少张卡都放不下"},
    "excluded_over_cap": {
        "en": "{gpu}: needs {need} cards, more than the {cap} kb considers for this kind",
        "zh": "{gpu}：需要 {need} 张，超过 kb 对这类卡考虑的上限 {cap} 张",
    },
    "excluded_over_max": {
        "en": "{gpu}: needs {need} cards, more than the {max_gpus} allowed",
        "zh": "{gpu}：需要 {need} 张，超过允许的 {max_gpus} 张",
    },
    "excluded_over_budget": {
        "en": "{gpu}: needs {need} cards = {cost:,.0f} CNY, over the budget",
        "zh": "{gpu}：需要 {need} 张 = {cost:,.0f} CNY，超出预算",
    },
    "selection_rows": {
        "en": "each GPU kind at the fewest cards that fit, and at the most cards the budget and the count limit "
              "allow; the fit checks shown are for the top rows' kinds at their fewest cards",
        "zh": "每种显卡列出放得下的最少张数，以及预算和张数上限允许的最多张数；下面的显存检查是排名最前的几行"
              "所用显卡在最少张数下的结果",
    },
    "selection_counts": {
        "en": "GeForce cards: at most 8, one PCIe node; A100: up to 8 a node on NVLink, then whole nodes up to 64",
        "zh": "GeForce 显卡：最多 8 张，即一台 PCIe 服务器；A100：每台最多 8 张、经 NVLink 互联，再按整台扩展到 64 张",
    },
    "selection_team_price": {"en": "the {gpu} is priced from a team's document: {where}",
                             "zh": "{gpu} 的价格取自团队文档：{where}"},
    "selection_capex": {
        "en": "capex: cards only (no server, network or cooling); the A100 at 150,000 CNY (the guide, §3.4, which "
              "does not say 40GB or 80GB) and the RTX 4090 at 19,000 CNY (the guide, §4.3), other RTX 40 cards at "
              "NVIDIA China launch prices",
        "zh": "显卡投入：只算显卡（不含服务器、网络和散热）；A100 按 150,000 元（指南 §3.4，没说是 40GB 还是 80GB），"
              "RTX 4090 按 19,000 元（指南 §4.3），其他 RTX 40 系显卡按 NVIDIA 中国首发价",
    },
    "selection_time_inference": {
        "en": "time: decode upper bound in tokens/s (batch 1 a replica), whole replicas of the model on the cards; "
              "more replicas serve more users, not one user faster",
        "zh": "速度：解码速度上限，单位 tokens/s（每个副本批大小 1），卡上放整数个模型副本；"
              "副本越多能服务的用户越多，但不会让单个用户更快",
    },
    "selection_time_training": {
        "en": "time: wall-clock hours for {tokens:.3g} training tokens at the check's MFU{note}; full training "
              "with ZeRO-3",
        "zh": "速度：按显存检查所用的 MFU 训练 {tokens:.3g} 个 token 的墙钟小时数{note}；全参数训练用 ZeRO 第 3 阶段",
    },
    "selection_no_tokens": {"en": " (the question gives no token count)", "zh": "（问题没有给出 token 数）"},
    "selection_rank_cost": {
        "en": "no configuration has a speed (none fits at a size whose speed kb can estimate), so 'by speed' ranks "
              "by cost and then by memory headroom",
        "zh": "没有一个配置有速度估算，因此“按速度”一栏改按成本、再按显存余量排序",
    },
    "selection_nothing": {"en": "nothing fits: see excluded", "zh": "没有放得下的配置：见“未列入”"},
    "short_context": {
        "en": "the same check at a short context ({seq} tokens), for the decode rate people quote; the check at "
              "{full} tokens reads a full KV cache every token",
        "zh": "同一检查在短上下文（{seq} token）下的结果，即通常引用的解码速度；"
              "{full} token 的检查每个 token 都要读完整的 KV 缓存",
    },
    "selection_no_model": {
        "en": "the question names no model, so nothing is checked for fit: each row is the most cards of a kind the "
              "budget buys (at most {cap} GeForce cards in one node), ranked by the memory they add up to",
        "zh": "问题没有给出模型，因此不做适配检查：每行是预算能买到的某种卡的最多张数（GeForce 单机最多 {cap} 张），"
              "按合计显存排序",
    },

    # question.py: how the question was read and what was assumed for it.
    "lora_4bit": {
        "en": "LoRA on a 4-bit base is QLoRA: checked as QLoRA (NF4)",
        "zh": "4 位基座上的 LoRA 就是 QLoRA：按 QLoRA（NF4）检查",
    },
    "qlora_nf4": {
        "en": "QLoRA's base is NF4: '{precision}' read as nf4",
        "zh": "QLoRA 的基座是 NF4：“{precision}”按 nf4 处理",
    },
    "precision_unmodelled": {
        "en": "{precision} is not modelled for {workload}: {default} used",
        "zh": "{workload}不支持 {precision}：改用 {default}",
    },
    "zero3_assumed": {
        "en": "ZeRO stage not given: ZeRO-3 assumed across the GPUs",
        "zh": "未给出 ZeRO 阶段：多卡按 ZeRO 第 3 阶段计",
    },
    "one_card": {"en": "no count given: one card", "zh": "未给出张数：按一张卡计"},
    "how_many": {
        "en": "'how many': checked at the fewest {gpu} that fit, {count}",
        "zh": "问的是“几张”：按放得下的最少 {gpu} 张数 {count} 检查",
    },
    "read": {
        "en": "read from the question: {gpu} × {count}, model {model}, workload {workload}{details}",
        "zh": "从问题中读到：{gpu} × {count}，模型 {model}，{workload}{details}",
    },
    "read_precision": {"en": ", {precision}", "zh": "，{precision}"},
    "read_seq": {"en": ", {seq:,} tokens of context", "zh": "，上下文 {seq:,} token"},
    "read_batch": {"en": ", batch {batch}", "zh": "，批大小 {batch}"},
    "read_tokens": {"en": ", {tokens:.3g} training tokens", "zh": "，训练 {tokens:.3g} 个 token"},
    "no_workload": {"en": "no workload named: inference assumed", "zh": "未指明任务：按推理计"},
    "vram_cards": {
        "en": "no GPU named, a {gb} GB card meant: checked on the cards kb has of that memory ({names})",
        "zh": "未指明显卡，说的是 {gb} GB 的卡：用 kb 收录的这种显存的卡检查（{names}）",
    },
    "no_gpu": {
        "en": "no GPU named: checked on the guide's two cards, A100 80GB and RTX 4090",
        "zh": "未指明显卡：用指南讨论的两种卡 A100 80GB 和 RTX 4090 检查",
    },

    "unknown_gpus_only": {
        "en": "the question names only GPUs kb has no specifications for ({names}): no check run on substitute "
              "cards",
        "zh": "问题里的显卡 kb 都没有规格数据（{names}）：不拿别的卡代替检查",
    },
    "unknown_models_only": {
        "en": "kb has no shape for {names}: no check run",
        "zh": "kb 没有 {names} 的结构数据：不做检查",
    },
    "distilled": {
        "en": "DeepSeek-R1's distilled {size}B keeps its base model's shape (the DeepSeek-R1 model card): checked as "
              "{base}",
        "zh": "DeepSeek-R1 蒸馏的 {size}B 沿用其基座模型的结构（DeepSeek-R1 模型卡）：按 {base} 检查",
    },
    "size_from_name": {
        "en": "kb does not know the model '{text}': checked at the size its name states, {size}B, with an "
              "estimated shape",
        "zh": "kb 不认识模型“{text}”：按名称里的规模 {size}B 检查，结构为估算",
    },
    "concurrency_read": {"en": ", {n:,} concurrent sequences", "zh": "，并发 {n:,} 条序列"},

    # Alternatives (FitResult.alternatives), said at the edge: "not in fp16; in int8 it fits on the same 4 cards".
    "alt.precision": {
        "en": "in {precision} it fits on the same {count} card(s) ({gib:,.1f} GiB each)",
        "zh": "改用 {precision} 就能放进同样的 {count} 张卡（每卡 {gib:,.1f} GiB）",
    },
    "alt.rank": {
        "en": "with rank-{rank} adapters it fits on the same {count} card(s) ({gib:,.1f} GiB each)",
        "zh": "适配器秩降到 {rank} 就能放进同样的 {count} 张卡（每卡 {gib:,.1f} GiB）",
    },
    "alt.count": {
        "en": "on {count} card(s) it fits ({gib:,.1f} GiB each)",
        "zh": "用 {count} 张卡就放得下（每卡 {gib:,.1f} GiB）",
    },
    "alt.workload": {
        "en": "as {workload} it fits on {count} card(s) ({gib:,.1f} GiB each)",
        "zh": "改做{workload}就能放进 {count} 张卡（每卡 {gib:,.1f} GiB）",
    },
    "alt.zero": {
        "en": "with ZeRO stage {stage} it fits on {count} card(s) ({gib:,.1f} GiB each)",
        "zh": "用 ZeRO 第 {stage} 阶段就能放进 {count} 张卡（每卡 {gib:,.1f} GiB）",
    },
    "alt.offload": {
        "en": "with the optimizer offloaded to the host it fits on {count} card(s) ({gib:,.1f} GiB each)",
        "zh": "把优化器状态卸载到主机内存就能放进 {count} 张卡（每卡 {gib:,.1f} GiB）",
    },
    "serving_line": {
        "en": "serving: {concurrency:,} sequence(s) of {context:,} tokens; KV room for {tokens:,} tokens = {max:,} "
              "such sequences{speed}",
        "zh": "服务：{concurrency:,} 条 {context:,} token 的序列；KV 空间可放 {tokens:,} 个 token，"
              "即最多 {max:,} 条{speed}",
    },
    "serving_speed": {
        "en": "; {aggregate:,.0f} tokens/s in all, {per_seq:,.1f} a sequence, first token in {ttft:,.2f} s",
        "zh": "；合计 {aggregate:,.0f} tokens/s，每条 {per_seq:,.1f} tokens/s，首 token {ttft:,.2f} s",
    },

    # parse.py: what the parser had to decide.
    "budget_usd": {
        "en": "budget ${usd:,.0f} converted at {rate:g} CNY a USD = {cny:,.0f} CNY",
        "zh": "预算 ${usd:,.0f} 按每美元 {rate:g} CNY 换算 = {cny:,.0f} CNY",
    },
    "energy_usd": {
        "en": "electricity at ${usd:g}/kWh converted at {rate:g} CNY a USD = {cny:.3g} CNY/kWh",
        "zh": "电价每度 ${usd:g}，按每美元 {rate:g} 元换算 = 每度 {cny:.3g} 元",
    },
    "not_preset": {
        "en": "kb does not know the model '{text}': checked as a {size}B model",
        "zh": "kb 不认识模型“{text}”：按 {size}B 模型检查",
    },
    "default_of": {
        "en": "'{name}' names more than one card: {gpu} assumed",
        "zh": "“{name}”不止一款：按 {gpu} 计",
    },
    "selection_quantized": {
        "en": "in {precision} nothing fits within the budget, so {next} weights are ranked instead",
        "zh": "预算内没有放得下 {precision} 的配置，改为按 {next} 权重排序",
    },
    "selection_individual": {
        "en": "no model and no budget named, for one person or one box: each priced consumer card (no data-centre "
              "card), one each, ranked by memory, then price (by power, lowest first, for an edge box)",
        "zh": "没有给出模型和预算、给个人或单台设备用：每种有价格的消费级显卡（不含数据中心卡）各一张，按显存排序，"
              "其次按价格（边缘设备按功耗从低到高）",
    },
    "selection_fallback": {
        "en": "{workload} fits nothing within the budget, so {next} is ranked instead",
        "zh": "预算内没有能做{workload}的配置，改为按{next}排序",
    },
    "largest_read": {
        "en": "the largest size that fits, found by checking sizes in 0.1B steps: {size}B, a generic shape at that "
              "size",
        "zh": "能放下的最大规模：以 0.1B 为步长逐一检查得到 {size}B，按该规模的通用结构估算",
    },
    "people_read": {
        "en": "{people} people with {each} GPUs each read as {count} GPUs",
        "zh": "{people} 人、每人 {each} 张，共 {count} 张",
    },
    "nodes_read": {
        "en": "{nodes} nodes of {per_node} GPUs read as {count} GPUs",
        "zh": "{nodes} 台、每台 {per_node} 卡，共 {count} 张",
    },
    "fine_tune_both": {
        "en": "'fine-tune' without a method: checked as full fine-tuning and as LoRA",
        "zh": "只说“微调”没说方法：按全参数微调和 LoRA 微调各检查一次",
    },
}
