"""Why-questions about how the arithmetic works: which mechanism a question asks about.

"Why does ZeRO-3 save so much memory", "why quantize a 13B for a 16 GB card", "why does doubling the context cut
the users a card serves": the guide names these techniques but never says how they work, while kb's fit checks
compute with exactly these mechanisms (contracts.md: 16 B/param, the KV formula, decode bound = bandwidth ÷ bytes a
token). The answer states the mechanism in words (kb/words/catalog/why.py) and, where the question gives a model or
a card, the check's own figures beside it (kb/answer/compose.py).
"""

from __future__ import annotations

import re

from kb.understand.intent import GRAD_EXCHANGE, asks_why, normalise

# How a mechanism is asked besides "why": "how can ZeRO-3…", "怎么做到的", "原理".
_HOW = re.compile(r"how (?:does|do|can|come|is it)|怎么(?:做到|能|会|省|实现)|凭什么|原理|mechanism|what makes|"
                  r"为什么能|为啥能|怎么扛得住", re.IGNORECASE)
# Topic → its pattern on a normalised question; the order is the order they are said in.
_TOPICS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(p)) for name, p in (
    ("zero3", r"zero[\s-]?(?:stage[\s-]?)?3|fsdp|(?:分片|shard(?:s|ed|ing)?)(?!.{0,6}(?:权重|weights))"),
    ("qlora", r"qlora|(?:fine[\s-]?tun\w*|微调)[^?？]{0,40}(?:one|a single|single|一张|单张|单卡)\s*\d*\s*g?b?"
              r"[^?？]{0,6}(?:gpu|card|卡)"),
    ("adam_bytes", r"16 ?(?:bytes|字节|b)(?![a-z])[^?？]{0,30}(?:param|参数)|mixed[\s-]?precision adam|混合精度\s*adam|"
                   r"(?:adam|优化器)[^?？]{0,20}(?:多少字节|几个字节|bytes per|每个参数)"),
    # "why does training need so much more memory than inference": what training keeps beside the weights
    ("train_memory", r"(?:训练|微调|training|train|fine[\s-]?tun\w*|finetun\w*)[^?？]{0,40}(?:显存|memory|vram|mem)"
                     r"[^?？]{0,40}(?:推理|inference)|"
                     r"(?:推理|inference)[^?？]{0,40}(?:训练|微调|training|fine[\s-]?tun\w*)[^?？]{0,40}"
                     r"(?:显存|memory|vram|mem)|"
                     r"(?:训练|training)[^?？]{0,20}(?:比|than)[^?？]{0,10}(?:推理|inference)[^?？]{0,20}"
                     r"(?:显存|memory|vram|多|more)|"
                     # "为什么4090不适合训练大模型": a card too small to train what it can serve
                     r"(?:不适合|不太适合|不能|没法|难以|训不了|can'?t|cannot|isn'?t (?:good|great|suited|ideal)|"
                     r"not (?:good|great|suited|suitable|ideal))[^?？]{0,16}(?:训练|训|train\w*)[^?？]{0,16}"
                     r"(?:大模型|大型模型|大的模型|large|big|huge)|"
                     r"(?:isn'?t|not)\b[^?？]{0,24}?(?:good|great|suited|suitable|ideal)\s+(?:for|at)\s+train\w*"
                     r"[^?？]{0,16}(?:large|big|huge)"),  # (a sized model on counted cards: its own states first)
    ("lora", r"(?<![a-z])lora(?![a-z])[^?？]{0,30}(?:省|少|less|save|smaller|cheaper|显存|memory|vram)|"
             r"(?:省|少|less|save)[^?？]{0,20}(?<![a-z])lora(?![a-z])"),
    ("quantize", r"量化|quantiz|quantis|(?<![a-z])(?:gptq|awq)(?![a-z])|(?:int4|4[\s-]?bit|int8|8[\s-]?bit)[^?？]{0,30}"
                 r"(?:放|装|塞|fit|显存|memory|vram|(?<![a-z])card|卡(?!间)|smaller|缩小|压)"),  # (not "int8 算力")
    ("context_users", r"(?:上下文|context|ctx|长度|prompts?|提示词?|seq(?:uence)?[\s_-]?len\w*)[^?？]{0,40}"
                      r"(?:用户|并发|人|路|users?|sessions?|concurren|显存|吃|memory|vram|kv)|"
                      r"(?:用户|并发|人|路|users?|sessions?|concurren)[^?？]{0,40}(?:上下文|context|ctx|prompts?|长度)|"
                      # "为啥说 kv cache 会限制并发": the cache, said by its name, against the users
                      r"kv[\s-]?(?:cache|缓存)?[^?？]{0,20}(?:并发|用户|人数|路数|users?|concurren|batch)|"
                      r"(?:并发|用户|人数|users?|concurren)[^?？]{0,20}kv|"
                      # "为什么长上下文推理 a100 比 4090 合适": a long context is memory for its KV cache
                      r"(?:长上下文|long[\s-]?context|long prompts?)[^?？]{0,30}"
                      r"(?:合适|适合|更好|better|nicer|good|suit|advantage|优势|显存|memory|vram|pick|选|prefer)|"
                      r"(?:合适|适合|better|nicer|good|suit|prefer|advantage|优势)[^?？]{0,30}"
                      r"(?:长上下文|long[\s-]?context)"),
    ("dp_sync", GRAD_EXCHANGE + r"|data[\s-]?parallel|数据并行"),
    ("mla", r"(?<![a-z])mla(?![a-z])|latent attention|潜在注意力|deepseek[^?？]{0,50}kv|kv[^?？]{0,50}deepseek"),
    ("window", r"滑动窗口|sliding[\s-]?window|(?<![a-z])swa(?![a-z])|"
               r"(?:kv|显存|memory)[^?？]{0,30}(?:没|不|didn't|doesn't|does not|not)[^?？]{0,12}"
               r"(?:涨|增|翻倍|翻番|grow|scale|rise|go up|increase|double)|"
               r"(?:didn't|doesn't|does not|isn't|won't)[^?？]{0,30}(?:kv|memory)[^?？]{0,20}"
               r"(?:grow|scale|rise|go up|increase)"),
    ("vllm_util", r"vllm[^?？]{0,60}(?:kv|显存|memory|less|少|only|smaller|小)|(?:kv|显存|memory)[^?？]{0,40}vllm|"
                  r"gpu[_\s]memory[_\s]utili[sz]ation"),
    ("mfu", r"(?<![a-z])mfu(?![a-z])|model flops? utili[sz]ation|算力利用率"),
    ("link_direction", r"(?:nvlink|nccl)[^?？]{0,60}(?:one way|单向|each way|per direction|双向|bidirectional|"
                       r"nccl|measured|实测|on paper|标称)|(?:nccl|实测|measured)[^?？]{0,40}nvlink"),
    ("tp_node", r"(?:张量并行|tensor[\s-]?parallel\w*|(?<![a-z])tp(?![a-z]))[^?？]{0,60}"
                r"(?:一台|机器里|节点内|跨机|跨节点|node|machine|流水线|pipeline|(?<![a-z])pp(?![a-z])|16k-gpu|cluster)"),
    ("head_dim", r"head[\s_-]?dim|头维度|每个头的维度|hidden\s*[/÷]\s*\d+|\d{3,5}\s*[/÷除]\s*\d+"),
    ("kv_heads", r"(?<![a-z])gqa(?![a-z])|grouped[\s-]query|分组查询|kv ?heads?|kv 头|"
                 r"kv[^?？]{0,30}(?:per|a|each|每个?) ?token|每 ?token[^?？]{0,10}kv"),
    ("tp_link", r"(?:张量并行|tensor[\s-]?parallel|(?<![a-z])tp(?![a-z])|多卡|multi[\s-]?(?:gpu|card)|两张卡之间|卡间|"
                r"between (?:the )?(?:two )?(?:cards|gpus)|all[\s-]?reduce)[^?？]{0,40}"
                r"(?:nvlink|pcie|慢|slow|通信|communicat|scal|快不起来|带宽|延迟|latency|变高)|(?:nvlink|pcie)[^?？]{0,30}"
                r"(?:张量并行|tensor[\s-]?parallel|多卡|multi[\s-]?(?:gpu|card)|训练|training)"),
    ("moe", r"(?<![a-z])moe(?![a-z])|mixture[\s-]of[\s-]experts|混合专家|专家模型|active param|激活参数"),
    ("batching", r"(?:batch\w*|批处理|批量|组批|拼批|合批)[^?？]{0,40}(?:throughput|吞吐|faster|更快|tokens?|快)|"
                 r"(?:throughput|吞吐)[^?？]{0,40}(?:batch\w*|批)"),
    ("checkpointing", r"(?:gradient|activation|梯度|激活)[\s-]?(?:值)?(?:checkpoint\w*|检查点)|recomput|重计算|重算"),
    ("beyond_weights", r"(?:more|比)[^?？]{0,30}(?:than)?[^?？]{0,10}(?:weights|权重)[^?？]{0,10}(?:more|多|大)?|"
                       r"(?:v?ram|memory|显存)[^?？]{0,20}(?:than|超过|多于|比)[^?？]{0,20}"
                       r"(?:weights|权重|模型大小|model size)|"
                       r"(?:weights|权重)[^?？]{0,12}(?:之外|以外|besides|beyond|on top)"),
    ("no_pooling", r"(?:合(?:起来|并|在一起)|叠加|加起来|pool|combine|add up|merge|共享|share)[^?？]{0,30}"
                   r"(?:显存|v?ram|memory)|"
                   # "pool two 4090s into one 48gb gpu", "两张卡当成一张 48G 用"
                   r"(?:pool|combine|merge|合并|合成|当成|当作|变成)[^?？]{0,30}(?:one|a single|一张|一块|单张)\s*"
                   r"(?:big(?:ger)?\s*)?(?:\d+\s*g(?:b)?\s*)?(?:的)?\s*(?:gpu|card|卡)|"
                   r"(?:显存|v?ram|memory)[^?？]{0,20}"
                   r"(?:合(?:起来|并|在一起)|叠加|加起来|pool|combine|add up|共享|share)"),
    ("fp8_rate", r"fp8[^?？]{0,40}(?:快|fast|speed|throughput|吞吐|加速|double|翻倍|两倍|2x)|"
                 r"(?:快|fast|speed|throughput|吞吐|加速)[^?？]{0,30}fp8"),
    ("long_context", r"(?:长上下文|long[\s-]?context|long prompts?|长提示|上下文(?:长|越长|变长|拉长))[^?？]{0,30}"
                     r"(?:慢|slow|latency|延迟|首字|ttft|first token)|"
                     r"(?:慢|slow)[^?？]{0,30}(?:长上下文|long[\s-]?context)"),
    ("driver_capacity", r"nvidia-?smi|rocm-?smi|(?:驱动|系统|任务管理器).{0,8}(?:显示|报告|识别)|"
                        r"(?:shows?|reports?|显示|识别出?)(?:只有|了)?.{0,12}\d+\s*(?:g|gb|gib)(?![a-z])|"
                        r"(?:标称|nominal|advertised|rated).{0,20}(?:只|only|less|少)"),
    ("bound_gap", r"(?:gap|差距|差这么多|差那么多|only (?:get|gets|got|reach\w*|see)|只有|只能跑到|只跑到|达不到|"
                  r"below|lower than|less than|slower than)[^?？]{0,60}"
                  r"(?:math|theor|bound|上限|理论|算出|估算|计算|says?)|"
                  r"(?:math|theor\w*|bound|上限|理论值?|算出来?的?)[^?？]{0,40}(?:gap|差距|达不到|只有|only|but)"),
    ("decode_bandwidth", r"(?:decode|decoding|解码|生成.{0,3}速度|单路|出字|(?:出|吐)\s*token|"
                         r"generat\w* (?:tokens?|text)|"
                         r"token\S{0,3}\s*(?:速度|speed|per|/s|每秒)|tok/s|"
                         r"tokens? (?:a|per) sec|generation speed|推理速度)[^?？]{0,40}"
                         r"(?:带宽|bandwidth|memory[\s-]bound|访存|hbm|快|fast|slow|慢)|"
                         r"(?:带宽|bandwidth|hbm)[^?？]{0,40}(?:decode|解码|生成|token|推理|inference)|"
                         r"(?:推理|inference)[^?？]{0,30}(?:看重|看|取决于|depends? on|bound by|limited by|"
                         r"matters?|more important)[^?？]{0,20}(?:带宽|bandwidth)|"
                         r"(?:快|fast|slow|慢)[^?？]{0,40}(?:decode|decoding|解码|generation|生成)"),
))
# "a 16gb card", "16g 的卡", "24GB GPU": a card's capacity said without a card kb knows.
_CAPACITY = re.compile(r"(?<![\d.])(\d{1,3})\s*(?:g|gb|gib)\s*(?:的)?\s*(?:vram\s*|显存\s*)?(?:card|gpu|显卡|卡)")


def mechanisms(question: str) -> list[str]:
    """The mechanisms a why- or how-question asks about (none for a question that asks neither)."""
    q = normalise(question)
    if not (asks_why(q) or _HOW.search(q)):
        return []
    found = [name for name, p in _TOPICS if p.search(q)]
    if "train_memory" in found:  # the states training keeps, said once: not Adam's bytes again after them
        found = [t for t in found if t != "adam_bytes"]
    if "qlora" in found:  # "fine-tune a 65b on one 48gb gpu" is QLoRA's own claim; its 4 bits are part of it
        found = [t for t in found if t not in ("quantize", "lora")]
    if "window" in found:  # a cache the window caps is the answer, not the cache that grows with the context
        found = ["window", *[t for t in found if t not in ("window", "context_users")]]
    if "head_dim" in found:  # the head size the config sets, not the number of KV heads
        found = ["head_dim", *[t for t in found if t not in ("head_dim", "kv_heads")]]
    if "tp_node" in found:  # where tensor parallelism runs, not why PCIe slows it
        found = [t for t in found if t != "tp_link"]
    if "mla" in found:  # DeepSeek's latent cache, not grouped KV heads
        found = [t for t in found if t != "kv_heads"]
    if "dp_sync" in found:  # a gradient all-reduce is data parallelism's exchange, not tensor parallelism's
        found = [t for t in found if t != "tp_link"]
    return found[:2]


def card_capacity_gb(question: str) -> float | None:
    """The capacity of a card the question describes by its memory alone ("a 16gb card"), in GB."""
    m = _CAPACITY.search(normalise(question))
    return float(m.group(1)) if m else None
