"""The sentences an answer leads with (kb/answer/compose.py picks the fact, these its words): one template a fact.

Keys that share a name with a fit check's sentence (its alternatives, the fewest cards) are prefixed
"answer.": the answer says them as a lead sentence, the check as a step of its working.
"""

ANSWER: dict[str, dict[str, str]] = {
    # Fit verdicts.
    "for_sequences": {"en": " for {n} concurrent sequences of {context} tokens",
                      "zh": "（{n} 路并发，每路 {context} token）"},
    "fit_yes": {
        "en": "Yes: {what} on {cards} needs about {need} GiB per GPU, and each card has {avail} GiB",
        "zh": "能：{what}在 {cards} 上每卡约需 {need} GiB，每卡有 {avail} GiB",
    },
    "fit_no": {
        "en": "No: {what} needs about {need} GiB per GPU on {cards}, more than the {avail} GiB each card has",
        "zh": "不能：{what}在 {cards} 上每卡约需 {need} GiB，超过每卡的 {avail} GiB",
    },
    "fit_no_host": {
        "en": "No: {what} on {cards} fits the GPUs ({need} GiB per GPU of the {avail} GiB each has), but what is "
              "offloaded needs more host memory than a node has",
        "zh": "不能：{what}在 {cards} 上显存够用（每卡约需 {need} GiB，每卡有 {avail} GiB），但卸载到主机的部分"
              "超过了每台主机的内存",
    },
    "offload_said": {"en": "With {line}", "zh": "{line}"},
    "fit_count": {
        "en": "You need {cards} for {what}: about {need} GiB per GPU of the {avail} GiB each has",
        "zh": "{what}需要 {cards}：每卡约需 {need} GiB，每卡有 {avail} GiB",
    },
    "answer.fewest": {
        "en": "The fewest {gpu} that hold it: {min}",
        "zh": "最少需要 {min} 张 {gpu} 才放得下",
    },
    "fewest_none": {
        "en": "No number of {gpu} holds it as modelled: what every card must keep is larger than one card",
        "zh": "按此模型多少张 {gpu} 都放不下：每张卡都要保留的部分已超过单卡容量",
    },
    "moe": {
        "en": "{model} has {total}B parameters in all, {active}B active a token: memory holds every expert",
        "zh": "{model} 共有 {total}B 参数，每个 token 激活 {active}B：显存要放下全部专家",
    },
    # Alternatives (what would make it fit).
    "answer.alt.precision": {
        "en": "In {precision} it fits on {cards} ({need} GiB per GPU)",
        "zh": "改用 {precision} 则在 {cards} 上放得下（每卡 {need} GiB）",
    },
    "answer.alt.rank": {
        "en": "With rank-{rank} adapters (the rank common tools default to; kb assumes the QLoRA paper's {was}) it "
              "fits on {cards} ({need} GiB per GPU)",
        "zh": "适配器秩取 {rank}（常用工具的默认值；kb 按 QLoRA 论文的 {was} 计）则 {cards} 放得下（每卡 {need} GiB）",
    },
    "answer.alt.count": {
        "en": "On {cards} it fits ({need} GiB per GPU)",
        "zh": "用 {cards} 则放得下（每卡 {need} GiB）",
    },
    "answer.alt.count_zero": {
        "en": "On {cards} with ZeRO stage {zero} it fits ({need} GiB per GPU)",
        "zh": "用 {cards} 并开 ZeRO stage {zero} 则放得下（每卡 {need} GiB）",
    },
    "answer.alt.workload": {
        "en": "{workload} instead fits on {cards} ({need} GiB per GPU)",
        "zh": "改用{workload}则 {cards} 放得下（每卡 {need} GiB）",
    },
    "answer.alt.zero": {
        "en": "With ZeRO stage {zero} it fits on {cards} ({need} GiB per GPU)",
        "zh": "用 ZeRO stage {zero} 则 {cards} 放得下（每卡 {need} GiB）",
    },
    "answer.alt.offload": {
        "en": "With the optimizer offloaded to CPU memory it fits on {cards} ({need} GiB per GPU)",
        "zh": "把优化器状态卸载到 CPU 内存则 {cards} 放得下（每卡 {need} GiB）",
    },
    # Speed, time and cost.
    "decode": {
        "en": "Decode upper bound: about {tps} tokens/s for {what} on {cards} at a {context}-token context "
              "(memory bandwidth ÷ bytes read a token; real engines reach less)",
        "zh": "解码速度上限：{what}在 {cards} 上、{context} token 上下文时约 {tps} tokens/s（显存带宽 ÷ 每个 token "
              "读取的字节数；实际引擎达不到）",
    },
    "ttft": {
        "en": "Time to first token: about {seconds} s for a {context}-token prompt, {what} on {cards} (the prompt "
              "prefilled alone at the dense peak × MFU {mfu}%; a busy server adds queueing)",
        "zh": "首 token 时间：{what}在 {cards} 上、{context} token 的提示词约 {seconds} 秒（单条提示词独占预填充，按"
              "稠密峰值 × MFU {mfu}% 计；繁忙的服务还要加排队）",
    },
    "serving": {
        "en": "Serving {concurrency} sequences at once: about {agg} tokens/s in all, {per} tokens/s each",
        "zh": "同时服务 {concurrency} 路序列：合计约 {agg} tokens/s，每路 {per} tokens/s",
    },
    "train_time": {
        "en": "Training time: about {days} days on {cards} ({gpu_hours} GPU-hours at {mfu}% MFU)",
        "zh": "训练时间：{cards} 约 {days} 天（{gpu_hours} GPU 小时，MFU {mfu}%）",
    },
    "train_time_hours": {
        "en": "Training time: about {hours} hours ({days} days) on {cards} ({gpu_hours} GPU-hours at {mfu}% MFU)",
        "zh": "训练时间：{cards} 约 {hours} 小时（{days} 天；{gpu_hours} GPU 小时，MFU {mfu}%）",
    },
    "train_time_comm": {
        "en": "Training time: about {days} days on {cards} ({gpu_hours} GPU-hours: {compute_days} days of compute at "
              "{mfu}% MFU, the rest the layout's communication that compute does not hide)",
        "zh": "训练时间：{cards} 约 {days} 天（{gpu_hours} GPU 小时：MFU {mfu}% 下纯计算 {compute_days} 天，"
              "其余是计算掩盖不了的并行通信）",
    },
    "train_needs_tokens": {
        "en": "A training time needs the number of training tokens: ask again with it (for example \"on two "
              "trillion tokens\")",
        "zh": "估算训练时间需要训练 token 数：请在问题里写上（例如“训练两万亿 token”）",
    },
    "no_speed": {
        "en": "There is no speed for {cards}: the job does not fit there",
        "zh": "{cards} 放不下这个任务，所以没有速度估计",
    },
    "no_time": {
        "en": "There is no training time for {cards}: the job does not fit there",
        "zh": "{cards} 放不下这个任务，所以没有训练时间估计",
    },
    "capex": {
        "en": "{cards} cost about {capex} CNY for the cards alone",
        "zh": "{cards} 仅显卡约 {capex} 元",
    },
    "per_million_energy": {
        "en": "At the decode upper bound the cards' energy alone is at least {cost} CNY per million tokens (kb has no "
              "price for the cards, so they are not in it)",
        "zh": "按解码上限计，仅电费每百万 token 至少 {cost} 元（kb 没有这张卡的价格，未计显卡成本）",
    },
    "per_million": {
        "en": "At the decode upper bound that is at least {cost} CNY per million tokens (cards over three years "
              "plus energy)",
        "zh": "按解码上限计，每百万 token 至少 {cost} 元（显卡按三年摊销加电费）",
    },
    # Budget selection.
    "pick_for": {
        "en": "Ranked for {what}",
        "zh": "按{what}排序",
    },
    "pick_fallback": {
        "en": "Nothing within the budget fits {asked}; the nearest that works is {what}, ranked here",
        "zh": "预算内没有能做{asked}的配置；最接近可行的是{what}，按它排序",
    },
    "pick_fallback_open": {
        "en": "Nothing kb prices fits {asked} on up to {cap} cards; the nearest that works is {what}, ranked here",
        "zh": "kb 有价格的显卡用到 {cap} 张也做不了{asked}；最接近可行的是{what}，按它排序",
    },
    "pick_fastest": {
        "en": "Fastest within the budget: {cards} ({capex} CNY{speed})",
        "zh": "预算内最快：{cards}（{capex} 元{speed}）",
    },
    "pick_fastest_open": {
        "en": "With no budget given, the fastest kb checked: {cards} ({capex} CNY{speed})",
        "zh": "没有给出预算时，kb 检查过的最快配置：{cards}（{capex} 元{speed}）",
    },
    "pick_cheapest": {
        "en": "Cheapest that fits: {cards} ({capex} CNY{speed})",
        "zh": "能放下的最便宜配置：{cards}（{capex} 元{speed}）",
    },
    "pick_power": {
        "en": "Lowest power within the budget: {cards}, {watts} W, {avail} GiB each, {capex} CNY for the cards",
        "zh": "预算内功耗最低：{cards}，{watts} W，每卡 {avail} GiB，显卡共 {capex} 元",
    },
    "pick_power_one": {
        "en": "Lowest power of one consumer card: {cards}, {watts} W, {avail} GiB, {capex} CNY",
        "zh": "单张消费级显卡功耗最低：{cards}，{watts} W，{avail} GiB，{capex} 元",
    },
    "pick_memory_one": {
        "en": "Most memory on one consumer card: {cards}, {avail} GiB, {capex} CNY",
        "zh": "单张消费级显卡显存最大：{cards}，{avail} GiB，{capex} 元",
    },
    "pick_memory": {
        "en": "Most memory the budget buys: {cards}, {avail} GiB each, {capex} CNY for the cards",
        "zh": "预算能买到的最大显存：{cards}，每卡 {avail} GiB，显卡共 {capex} 元",
    },
    "pick_none": {
        "en": "Nothing kb knows fits {what} within this budget",
        "zh": "在这个预算内，kb 知道的显卡都放不下{what}",
    },
    "pick_none_open": {
        "en": "Nothing kb prices fits {what} on up to {cap} cards",
        "zh": "kb 有价格的显卡，用到 {cap} 张也放不下{what}",
    },
    "speed_tps": {"en": ", up to {tps} tokens/s", "zh": "，最多 {tps} tokens/s"},
    "speed_hours": {"en": ", {hours} hours for the stated tokens", "zh": "，按给定 token 数 {hours} 小时"},
    "speed_hours_billion": {"en": ", {hours} hours a billion training tokens",
                            "zh": "，每十亿训练 token {hours} 小时"},
    "n_cards": {"en": "{n} × {gpu}", "zh": "{n} 张 {gpu}"},
    "budget_rule_over": {
        "en": "The guide's rule for this budget band ({rule}) does not fit this budget: at the guide's prices "
              "{cards} cost about {cost} CNY, more than the {budget} CNY asked",
        "zh": "指南对这个预算档的建议（{rule}）并不适合这个预算："
              "按指南的单卡价格，{cards}约需 {cost} 元，超过所问的 {budget} 元",
    },
    "budget_rule": {
        "en": "The guide's rule for this budget: {rule}",
        "zh": "指南对这个预算的建议：{rule}",
    },
    # The asked quantity of a fit check.
    "kv_per_token": {
        "en": "{model} caches {bytes} bytes of KV a token (16-bit)",
        "zh": "{model} 每个 token 的 KV 缓存为 {bytes} 字节（16 位）",
    },
    "ecc_capacity": {
        "en": "With ECC on, the {gpu}'s driver reports {on} MiB ({on_gib} GiB); with it off, {off} MiB "
              "({off_gib} GiB): ECC takes {cost} MiB ({pct} %)",
        "zh": "{gpu} 开启 ECC 时驱动报告 {on} MiB（{on_gib} GiB），关闭时 {off} MiB（{off_gib} GiB）："
              "ECC 占去 {cost} MiB（{pct} %）",
    },
    "ecc_one.on": {
        "en": "With ECC on (its default), the {gpu}'s driver reports {mib} MiB ({gib} GiB)",
        "zh": "{gpu} 开启 ECC（默认）时驱动报告 {mib} MiB（{gib} GiB）",
    },
    "ecc_one.off": {
        "en": "With ECC off (its default), the {gpu}'s driver reports {mib} MiB ({gib} GiB)",
        "zh": "{gpu} 关闭 ECC（默认）时驱动报告 {mib} MiB（{gib} GiB）",
    },
    "ecc_unknown": {
        "en": "kb's figures for the {gpu} do not say what ECC does to its memory",
        "zh": "kb 掌握的 {gpu} 数据没有说明开启 ECC 对显存的影响",
    },
    "kv_formula": {
        "en": "{model}: 2 (a key and a value) × {layers} layers × {kv_heads} KV heads × {head_dim} values a head × 2 "
              "bytes = {bytes} bytes a token",
        "zh": "{model}：2（K 和 V）× {layers} 层 × {kv_heads} 个 KV 头 × 每头 {head_dim} 维 × 2 字节 = "
              "每 token {bytes} 字节",
    },
    "kv_formula_mla": {
        "en": "{model} (MLA): {layers} layers × ({latent} latent + {rope} rope-key values) × 2 bytes = {bytes} bytes a "
              "token",
        "zh": "{model}（MLA）：{layers} 层 ×（{latent} 维潜在向量 + {rope} 维 rope 键）× 2 字节 = "
              "每 token {bytes} 字节",
    },
    "kv_room": {
        "en": "Beside the weights there are about {gib} GiB left for the KV cache on {cards}: about {tokens} tokens",
        "zh": "放下权重后，{cards} 约剩 {gib} GiB 给 KV 缓存：约 {tokens} token",
    },
    "kv_total": {
        "en": "At a {context}-token context × {n} sequences that is {total} GiB of KV cache",
        "zh": "{context} token 上下文 × {n} 路序列，共 {total} GiB KV 缓存",
    },
    "concurrency": {
        "en": "At a {context}-token context, {cards} can hold about {n} concurrent sequences ({tokens} tokens of KV "
              "cache beside the weights)",
        "zh": "在 {context} token 上下文下，{cards} 约可同时容纳 {n} 路序列（权重之外能放 {tokens} token 的 KV 缓存）",
    },
    "headroom": {"en": "That leaves about {spare} GiB per card to spare on {cards}",
                 "zh": "{cards} 每卡约还剩 {spare} GiB 余量"},
    "concurrency_none": {
        "en": "At a {context}-token context, {cards} cannot hold even one sequence: beside the weights there is room "
              "for only {tokens} tokens of KV cache",
        "zh": "在 {context} token 上下文下，{cards} 连一路序列也放不下：权重之外只能放 {tokens} token 的 KV 缓存",
    },
    "largest": {
        "en": "The largest model for {what} on {cards}: about {size}B parameters ({need} GiB of the {avail} GiB each "
              "card has, at a {context}-token context)",
        "zh": "{cards} 上做 {what}能放下的最大模型：约 {size}B 参数（每卡约需 {need} GiB，每卡有 {avail} GiB，"
              "上下文 {context} token）",
    },
    "memory_total": {
        "en": "{what} needs about {total} GiB in all: {parts}",
        "zh": "{what}总共约需 {total} GiB：{parts}",
    },
    "models_compared": {
        "en": "{metric}: {a} {va} {unit}, {b} {vb} {unit}; {bigger}'s is {ratio}× the other's",
        "zh": "{metric}：{a} {va} {unit}，{b} {vb} {unit}；{bigger} 是另一个的 {ratio} 倍",
    },
    "compared.kv": {"en": "KV cache a token", "zh": "每 token 的 KV 缓存"},
    "compared.memory": {"en": "Memory in all", "zh": "总显存"},
    "compared.speed": {"en": "Decode rate", "zh": "解码速度上限"},
    "compared.verdict": {"en": "Memory a GPU needs", "zh": "每卡所需显存"},
    "compared_unit.kv": {"en": "bytes", "zh": "字节"},
    "compared_unit.hours": {"en": "hours", "zh": "小时"},
    "compared.hours": {"en": "Training time", "zh": "训练时间"},
    "compared_unit.memory": {"en": "GiB", "zh": "GiB"},
    "compared_unit.speed": {"en": "tokens/s", "zh": "token/s"},
    "compared_unit.verdict": {"en": "GiB", "zh": "GiB"},
    "power_bill": {
        "en": "{count} × {gpu} at {watts} W (TDP), run around the clock: about {kwh} kWh {period} ({hours} h), "
              "about {cny} CNY at {price} CNY/kWh ({source}; the cards only, not the host or cooling)",
        "zh": "{count} 张 {gpu} 按 TDP {watts} W 全天候运行，{period}（{hours} 小时）约耗电 {kwh} kWh：按 {price} "
              "元/kWh（{source}）约 {cny} 元；只算显卡，不含主机和散热",
    },
    "grad_sync": {
        "en": "One gradient all-reduce of {model} on {count} × {gpu}: its bf16 gradients are {grads} GB; a ring "
              "all-reduce sends 2 × {less}/{count} of them, {moved} GB, from each card; over {link} at {one_way} GB/s "
              "each way (half the {two_way} GB/s two-way figure) that takes about {seconds} s, an ideal lower bound "
              "(table 5.3's method; PCIe through the host is often slower)",
        "zh": "{count} 张 {gpu} 同步一次 {model} 的梯度：bf16 梯度共 {grads} GB，"
              "环形 all-reduce 每张卡收发其 2 × {less}/{count}，即 {moved} GB；"
              "按 {link} 每个方向 {one_way} GB/s（双向 {two_way} GB/s 的一半）约需 {seconds} 秒，"
              "是理想下限（表 5.3 的算法；经主机的 PCIe 实际常更慢）",
    },
    "grad_sync_one": {
        "en": "On one {gpu} there is nothing to all-reduce: gradients are synchronised only between cards",
        "zh": "单张 {gpu} 不需要 all-reduce：梯度只在多张卡之间同步",
    },
    "low_rate": {
        "en": "The {gpu}'s dense {fmt} compute is {ratio}× its dense BF16: {low} TFLOPS against {bf16} TFLOPS",
        "zh": "{gpu} 的稠密 {fmt} 算力是其稠密 BF16 的 {ratio} 倍：{low} TFLOPS 对 {bf16} TFLOPS",
    },
    "power_bill_all": {"en": "All the cards together: about {kwh} kWh {period}, about {cny} CNY",
                       "zh": "全部显卡合计：{period}约耗电 {kwh} kWh，约 {cny} 元"},
    "pcie_gen": {"en": "The {gpu} connects to the host over PCIe {gen} x{lanes} ({lanes} lanes): {gbs} GB/s both ways",
                 "zh": "{gpu} 通过 PCIe {gen} x{lanes}（{lanes} 条通道）连接主机：双向 {gbs} GB/s"},
    "energy.kb": {"en": "kb's default electricity price, which whoever runs kb can change",
                  "zh": "kb 的默认电价，运行 kb 的一方可以调整"},
    "energy.asked": {"en": "the price asked", "zh": "问题给的电价"},
    "period.day": {"en": "a day", "zh": "一天"},
    "rent_job": {
        "en": "At {rate} a GPU-hour, the {gpu_hours} GPU-hours cost about {cost}",
        "zh": "按每卡每小时 {rate} 计，{gpu_hours} GPU 小时约 {cost}",
    },
    "power_bill_usd": {"en": "In dollars that is about ${usd} at ${price}/kWh, the price asked",
                       "zh": "按问题给的每度 {price} 美元，即约 {usd} 美元"},
    "observed.decode": {
        "en": "kb's decode upper bound for {what} on {count} × {gpu} at a {context}-token context is about {bound} "
              "tokens/s; the {seen} tokens/s you see is {share}% of it, {side}",
        "zh": "按 kb 的解码上限，{what} 在 {count} 张 {gpu} 上、{context} token 上下文时约 {bound} tokens/s；"
              "你看到的 {seen} tokens/s 是它的 {share}%，{side}",
    },
    "observed.train": {
        "en": "{count} × {gpu} at {peak} dense BF16 TFLOPS each can train a {params}B model at most about {full} "
              "tokens/s ({full_day} billion tokens a day) at 100% of their peak, about {mfu_day} billion a day at "
              "{mfu}% MFU; the {seen} tokens/s you report ({seen_day} billion a day) means about {implied}% of the "
              "peak, {side}",
        "zh": "{count} 张 {gpu}（每张稠密 BF16 {peak} TFLOPS）训练 {params}B 模型，满算力时最多约 {full} tokens/s"
              "（每天约 {full_day} 亿 token），按 MFU {mfu}% 约每天 {mfu_day} 亿；你们的 {seen} tokens/s"
              "（每天 {seen_day} 亿）相当于峰值的 {implied}% 左右，{side}",
    },
    "observed.slow": {"en": "well below what the hardware allows", "zh": "明显低于硬件能达到的水平"},
    "observed.near": {"en": "in the range real engines reach", "zh": "在实际引擎能达到的范围内，属于正常"},
    "observed.above": {
        "en": "above what the hardware can do, so the figure likely counts something else (prompt tokens, several "
              "cards, or a whole batch)",
        "zh": "超过了硬件的上限，这个数字可能把别的也算进去了（提示词 token、多张卡或整批）",
    },
    "observed.causes_decode": {
        "en": "Usual causes of a slow decode: layers offloaded to the CPU or not all on the GPU, unquantized or "
              "fp32 kernels, very long prompts, and other jobs sharing the card",
        "zh": "解码慢的常见原因：部分层被卸载到 CPU 或没有全部放在 GPU 上、没用量化或用了 fp32 的算子、提示词很长、"
              "卡上还跑着别的任务",
    },
    "observed.causes_train": {
        "en": "Training falls short of the peak because of communication between cards (PCIe on consumer cards), "
              "small micro-batches, activation recomputation and data loading",
        "zh": "训练达不到峰值的常见原因：卡间通信（消费级卡走 PCIe）、微批太小、激活重计算和数据加载",
    },
    "period.run": {"en": "over the training run", "zh": "训练期间"},
    "span.years": {"en": "over {n} years", "zh": "{n} 年里"},
    "span.months": {"en": "over {n} months", "zh": "{n} 个月里"},
    "span.weeks": {"en": "over {n} weeks", "zh": "{n} 周里"},
    "span.days": {"en": "over {n} days", "zh": "{n} 天里"},
    "span.hours": {"en": "over {n} hours", "zh": "{n} 小时里"},
    "period.month": {"en": "a month", "zh": "一个月"},
    "period.year": {"en": "a year", "zh": "一年"},
    "max_context": {
        "en": "Beside the weights there is room for about {tokens} tokens of KV cache on {cards}: one sequence can "
              "run to about {tokens} tokens of context (within the model's own context limit)",
        "zh": "权重之外，{cards} 能放约 {tokens} token 的 KV 缓存：单条序列的上下文最多约 {tokens} token"
              "（不超过模型本身支持的上下文长度）",
    },
    "memory_each": {
        "en": "Split over {count} GPUs, that is about {each} GiB a GPU",
        "zh": "分到 {count} 张卡上，每卡约 {each} GiB",
    },
    "part.weights": {"en": "weights", "zh": "权重"}, "part.gradients": {"en": "gradients", "zh": "梯度"},
    "part.optimizer": {"en": "optimizer states", "zh": "优化器状态"},
    "part.activations": {"en": "activations", "zh": "激活"}, "part.kv_cache": {"en": "KV cache", "zh": "KV 缓存"},
    "part.overhead": {"en": "overhead", "zh": "额外开销"},
    # Comparisons and prices.
    "spec_figure": {
        "en": "The {gpu}'s {metric} is {value} {unit}",
        "zh": "{gpu} 的{metric}是 {value} {unit}",
    },
    "budget_buys": {
        "en": "{budget} CNY buys {n} × {gpu} at {price} CNY each ({spent} CNY, {left} CNY left over)",
        "zh": "{budget} 元按每张 {price} 元可买 {n} 张 {gpu}（共 {spent} 元，剩 {left} 元）",
    },
    "budget_then_buys": {
        "en": "{budget} CNY less {first} ({first_cost} CNY) leaves {rest} CNY, which buys {n} × {gpu} at {price} CNY "
              "each ({spent} CNY, {left} CNY left over)",
        "zh": "{budget} 元先买 {first}（{first_cost} 元），剩 {rest} 元，按每张 {price} 元可买 {n} 张 {gpu}"
              "（共 {spent} 元，最后剩 {left} 元）",
    },
    "budget_left": {"en": "Of the {budget} CNY budget, {left} CNY is left after the {total} CNY of cards",
                    "zh": "预算 {budget} 元减去显卡 {total} 元，还剩 {left} 元"},
    "budget_over": {"en": "That is {left} CNY over the {budget} CNY budget",
                    "zh": "比预算 {budget} 元超出 {left} 元"},
    "price_buys": {
        "en": "One {a}'s price buys {n} × {b} ({n} × {each} = {spent} CNY, {left} CNY left over)",
        "zh": "一张 {a} 的价格够买 {n} 张 {b}（{n} × {each} = {spent} 元，还剩 {left} 元）",
    },
    "price_buys_set": {
        "en": "The price of {count} × {a} ({money} CNY) buys {n} × {b} ({n} × {each} = {spent} CNY, {left} CNY left "
              "over)",
        "zh": "{count} 张 {a} 的价格（{money} 元）够买 {n} 张 {b}（{n} × {each} = {spent} 元，还剩 {left} 元）",
    },
    "ratio_same": {
        "en": "The {a} and the {b} have the same {metric}: {va} {unit} each",
        "zh": "{a} 和 {b} 的{metric}相同：都是 {va} {unit}",
    },
    "case_whatif": {
        "en": "By the case's own figure, {base}{unit} becomes {base} × {factor} ≈ {result}{unit}",
        "zh": "按案例自己的数字（“{quote}”），{base}{unit} × {factor} ≈ {result}{unit}",
    },
    "case_before": {
        "en": "By the case's own figure, {base}{unit} after the change was about {base} ÷ {factor} ≈ {result}{unit} "
              "before it",
        "zh": "按案例自己的数字（“{quote}”），变化后的 {base}{unit}，变化前约为 {base} ÷ {factor} ≈ {result}{unit}",
    },
    "case_keep": {
        "en": "By the case's own figure, each new server carries {factor} of an old one's throughput: keeping {n} "
              "servers' total takes {n} ÷ {factor} ≈ {need}, i.e. {whole} servers",
        "zh": "按案例自己的数字（“{quote}”），每台新服务器的吞吐是原来的 {factor}：要保持 {n} 台的总吞吐，需要 "
              "{n} ÷ {factor} ≈ {need}，即 {whole} 台",
    },
    "case_per_card": {
        "en": "The case's total of about {total} CNY over its {n} cards is about {each} CNY a card, server included",
        "zh": "案例的总成本约 {total} 元，平摊到 {n} 张卡，每张约 {each} 元（含整机）",
    },
    "case_all_load": {
        "en": "The case's {n} cards carried about {share}% of the load; at the same load a card, all of it takes {n} ÷ "
              "{share}% ≈ {need}, i.e. {whole} cards",
        "zh": "案例的 {n} 张卡承担了约 {share}% 的负载；按每张卡同样的负载，全部负载需要 {n} ÷ {share}% ≈ {need}，"
              "即 {whole} 张",
    },
    "unit.cny": {"en": " CNY", "zh": " 元"},
    "case_cards_cost": {
        "en": "At the guide's per-card prices, the case's cards ({parts}) come to about {total} CNY, the cards alone",
        "zh": "按指南的单卡价格，这个案例的显卡（{parts}）合计约 {total} 元，只算显卡",
    },
    "figure_per": {
        "en": "The {gpu}'s {metric} per {per}: {value} {unit} ÷ {divisor} = {ratio} {unit} per {per}{basis}",
        "zh": "{gpu} 每{per}的{metric}：{value} {unit} ÷ {divisor} = {ratio} {unit}{basis}",
    },
    "price_per.vram": {"en": "The {gpu}'s price per {unit} of memory: {price} CNY ÷ {figure} {unit} = {ratio} CNY",
                       "zh": "{gpu} 每 {unit} 显存的价格：{price} 元 ÷ {figure} {unit} = {ratio} 元"},
    "price_per.compute": {"en": "The {gpu}'s price per dense BF16 TFLOPS: {price} CNY ÷ {figure} {unit} = {ratio} CNY",
                          "zh": "{gpu} 每 TFLOPS 稠密 BF16 算力的价格：{price} 元 ÷ {figure} {unit} = {ratio} 元"},
    "per.kw": {"en": "kW", "zh": "千瓦"}, "per.w": {"en": "watt", "zh": "瓦"},
    "per.10k": {"en": "10,000 CNY", "zh": "万元"}, "per.1k": {"en": "1,000 CNY", "zh": "千元"},
    "per.cny": {"en": "CNY", "zh": "元"},
    "per.basis.power": {"en": " (a TDP of {w} W)", "zh": "（典型功耗 {w} W）"},
    "per.basis.price": {"en": " (at {price} CNY a card)", "zh": "（按每张 {price} 元）"},
    "figure_total": {
        "en": "The {metric} of {cards} adds up to {count} × {each} {unit} = {total} {unit}{extra}",
        "zh": "{cards} 的{metric}合计 {count} × {each} {unit} = {total} {unit}{extra}",
    },
    "figure_total_kw": {"en": " ({kw} kW)", "zh": "（{kw} kW）"},
    "figure_total_mw": {"en": " ({mw} MW)", "zh": "（{mw} MW）"},
    "figure_total_all": {
        "en": "All the cards together: {parts} = {total} {unit} of {metric}",
        "zh": "全部显卡的{metric}合计：{parts} = {total} {unit}",
    },
    "audience_rule": {"en": "The guide's advice for individual developers: {rule}",
                      "zh": "指南对个人开发者的建议：{rule}"},
    "setting_rule": {"en": "The guide's advice for {setting}: {rule}", "zh": "指南对{setting}的建议：{rule}"},
    "section_line": {"en": "§{section} ({heading}): {line}", "zh": "§{section}（{heading}）：{line}"},
    "pick_by_size": {
        "en": "No model or budget is named, so kb has nothing to size; the guide's picks depend on the model's size",
        "zh": "问题没有给出模型或预算，kb 无从计算；指南的选择取决于模型规模",
    },
    "block_rule": {"en": "{block}: {rule}", "zh": "{block}：{rule}"},
    "capex_sides": {
        "en": "{a} ({pa} CNY) costs {ratio}× {b} ({pb} CNY), {diff} CNY more; {b} is {pct}% cheaper",
        "zh": "{a}（{pa} 元）是 {b}（{pb} 元）的 {ratio} 倍，贵 {diff} 元；后者便宜 {pct}%",
    },
    "capex_sides_same": {"en": "{a} and {b} cost the same: {pa} CNY each",
                         "zh": "{a} 和 {b} 价格相同：都是 {pa} 元"},
    "capex_total": {
        "en": "Together {parts} cost about {total} CNY",
        "zh": "{parts} 合计约 {total} 元",
    },
    "match": {
        "en": "To match {n} × {big}'s {metric} ({total} {unit}) takes {need} × {small} ({got} {unit})",
        "zh": "要达到 {n} 张 {big} 的{metric}（{total} {unit}），需要 {need} 张 {small}（{got} {unit}）",
    },
    "match_cheaper": {
        "en": "{need} × {small} cost {cost} CNY against {other} CNY for {n} × {big}: cheaper by {diff} CNY",
        "zh": "{need} 张 {small} 约 {cost} 元，{n} 张 {big} 约 {other} 元：便宜 {diff} 元",
    },
    "match_dearer": {
        "en": "{need} × {small} cost {cost} CNY against {other} CNY for {n} × {big}: dearer by {diff} CNY",
        "zh": "{need} 张 {small} 约 {cost} 元，{n} 张 {big} 约 {other} 元：贵 {diff} 元",
    },
    "ratio": {
        "en": "The {a}'s {metric} is {ratio}× the {b}'s ({va} {unit} vs {vb} {unit}, {diff} {unit} more{pct})",
        "zh": "{a} 的{metric}是 {b} 的 {ratio} 倍（{va} {unit} 对 {vb} {unit}，多 {diff} {unit}{pct}）",
    },
    "ratio_units": {
        "en": "The {a}'s memory is {ratio}× the {b}'s ({va} vs {vb}, {diff} GiB more)",
        "zh": "{a} 的显存是 {b} 的 {ratio} 倍（{va} 对 {vb}，多 {diff} GiB）",
    },
    "ratio_units_same": {
        "en": "The {a} and the {b} have the same memory: their datasheets write it as {sa} and {sb}, and the "
              "driver reports the same total for both",
        "zh": "{a} 和 {b} 的显存相同：数据表里分别写作 {sa} 和 {sb}，驱动报告的总容量一样",
    },
    "ratio_pct": {"en": ", {more}% more; the {b} has {less}% less", "zh": "，高 {more}%；{b} 低 {less}%"},
    "metric.bandwidth": {"en": "memory bandwidth", "zh": "显存带宽"}, "metric.vram": {"en": "memory", "zh": "显存"},
    "metric.compute": {"en": "dense BF16 compute", "zh": "稠密 BF16 算力"},
    "metric.fp8": {"en": "dense FP8 compute", "zh": "稠密 FP8 算力"},
    "metric.fp4": {"en": "dense FP4 compute", "zh": "稠密 FP4 算力"},
    "metric.power": {"en": "power", "zh": "功耗"},
    "metric.nvlink": {"en": "NVLink bandwidth", "zh": "NVLink 带宽"}, "metric.price": {"en": "price", "zh": "价格"},
    "metric.int8": {"en": "INT8 throughput", "zh": "INT8 算力"},
    "metric.pcie": {"en": "PCIe bandwidth", "zh": "PCIe 带宽"},
    "layout": {"en": "Layout: {line}", "zh": "并行布局：{line}"},
    "measured": {"en": "Your team's document says: {text}", "zh": "团队文档的实测：{text}"},
    "team_price": {
        "en": "The team's price list \"{title}\" (as of {date}) puts the {gpu} at {quoted}; the guide gives no price",
        "zh": "团队的价格文档《{title}》（截至 {date}）给出的 {gpu} 价格是 {quoted}；指南没有给出价格",
    },
    "team_price_guide": {
        "en": "The team's price list \"{title}\" (as of {date}) puts the {gpu} at {quoted}; the guide's 2025 price "
              "is {guide} CNY",
        "zh": "团队的价格文档《{title}》（截至 {date}）给出的 {gpu} 价格是 {quoted}；指南 2025 年的价格是 {guide} 元",
    },
    "break_even": {
        "en": "Buying one {gpu} at {buy} beats renting at {rent} CNY a card-hour (less {energy} CNY a card-hour of "
              "energy when owned) after {hours} card-hours: {days} days round the clock, about {months} months",
        "zh": "按 {buy} 买一张 {gpu}，与每卡时 {rent} 元的租金相比（自有还要付每卡时 {energy} 元电费），{hours} 卡时后"
              "开始划算：全天满载约 {days} 天，约 {months} 个月",
    },
    "no_rent": {
        "en": "kb has no rental price for the {gpu}: the guide quotes none, and no team's price document gives a rent "
              "rate for it",
        "zh": "kb 没有 {gpu} 的租用价格：指南没有给出，团队的价格文档里也没有它的租金",
    },
    "rent_always": {
        "en": "Renting a {gpu} at {rent} CNY a card-hour is never dearer than owning's energy alone ({energy} CNY a "
              "card-hour): renting is always cheaper",
        "zh": "每卡时 {rent} 元的租金不高于自有的电费（每卡时 {energy} 元）：租 {gpu} 总是更便宜",
    },
    "no_price": {
        "en": "There is no price for the {gpu} in the guide or in a vendor list kb holds, so kb quotes none",
        "zh": "指南和 kb 收录的厂商资料都没有 {gpu} 的价格，所以 kb 不给报价",
    },
    # Specs.
    "spec_row": {"en": "The {gpu}'s {metric} {is} {value} ({source})", "zh": "{gpu} 的{metric}是 {value}（{source}）"},
    # a row whose value is words ("up to 7", "not supported", "HBM3"), not a figure with its unit
    "spec_row_words": {"en": "{gpu}, {metric}: {value} ({source})", "zh": "{gpu} 的{metric}：{value}（{source}）"},
    "spec_no_link": {
        "en": "The {gpu} has no NVLink: its cards talk over PCIe ({source})",
        "zh": "{gpu} 没有 NVLink，多卡之间走 PCIe（{source}）",
    },
    "spec_role": {"en": "{gpu}: {role}", "zh": "{gpu}：{role}"},
    "spec_note": {"en": "Note: {note}", "zh": "注意：{note}"},
    # Case studies (the record's own lines after each label).
    "case_lacks": {"en": "This case uses no {gpu}: the cards it counts are {cards}",
                   "zh": "这个案例没有用 {gpu}：它列出的卡是 {cards}"},
    "case_hardware": {"en": "Hardware: {items}", "zh": "硬件：{items}"},
    "case_workload": {"en": "Workload: {items}", "zh": "工作负载：{items}"},
    "case_outcome": {"en": "Outcome: {items}", "zh": "结果：{items}"},
    "case_note": {"en": "kb's caveat: {items}", "zh": "kb 的提醒：{items}"},
    # What kb does not know.
    "unknown_gpu": {
        "en": "kb has no spec for the {name}, so it cannot check or quote it",
        "zh": "kb 没有 {name} 的规格数据，无法检查或给出它的数据",
    },
    "unknown_gpu_stated": {
        "en": "kb has no spec for the {name}: its memory is checked from the {gib} GB you gave; its speed, power and "
              "price are unknown",
        "zh": "kb 没有 {name} 的规格数据：显存按你给的 {gib} GB 检查，它的速度、功耗和价格未知",
    },
    "unknown_gpu_need": {
        "en": "kb has no spec for the {name}; {work} needs about {per_gpu} GiB of memory a card{on}, so it fits "
              "if the {name} has at least that much (say how much memory it has and kb checks it)",
        "zh": "kb 没有 {name} 的规格数据；{work}{on}每卡约需 {per_gpu} GiB 显存，{name} 的显存不少于这个数就放得下"
              "（说明它有多少显存，kb 就能检查）",
    },
    "need_on_cards": {"en": " on {count} cards ({total} GiB in all)", "zh": "按 {count} 张卡计（总共 {total} GiB）"},
    "records_held": {
        "en": "kb has the specifications of these cards: {names}",
        "zh": "kb 有规格数据的显卡：{names}",
    },
    "unknown_model_sized": {
        "en": "kb has no shape for {name}: it is checked as a generic {size}B model, its structure estimated",
        "zh": "kb 没有 {name} 的结构数据：按通用的 {size}B 模型检查，结构为估算",
    },
    "unknown_model": {
        "en": "kb has no shape for the model {name}, so it cannot size it",
        "zh": "kb 没有模型 {name} 的结构数据，无法估算它",
    },
    "not_covered": {
        "en": "The guide kb answers from does not cover this: it is about choosing GPUs for LLM training and "
              "inference (A100, the RTX 40 series and newer cards: specs, performance, costs, cases and "
              "selection rules)",
        "zh": "kb 所依据的指南不涉及这个问题：它讲的是为大模型训练和推理选择 GPU（A100、RTX 40 系列及新一代显卡的"
              "规格、性能、成本、案例和选型规则）",
    },
    "asks_unanswered": {
        "en": "What kb could not answer from the guide: {asks}",
        "zh": "以下问题指南里没有可以回答的内容：{asks}",
    },
    "nothing_direct": {
        "en": "kb found no sentence in the guide or in the figures it holds that answers this directly",
        "zh": "kb 在指南和它掌握的数据里没有找到直接回答这个问题的句子",
    },
    "nearest_read": {
        "en": "The passage nearest to it: {heading}",
        "zh": "最接近的段落是：{heading}",
    },
    "nearest": {
        "en": "The nearest thing it covers: {heading}",
        "zh": "它最接近的内容是：{heading}",
    },
}

# Where a spec figure comes from, as the cards' tables write it (文档 / 厂商 / 推算), named as a source.
SOURCES: dict[str, dict[str, str]] = {
    "文档": {"en": "as the guide gives it", "zh": "指南给出的数字"},
    "厂商": {"en": "from the maker's datasheet", "zh": "出自厂商数据表"},
    "推算": {"en": "derived from the maker's figures", "zh": "由厂商数据推算"},
}
