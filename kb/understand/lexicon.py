"""Real accelerators and models kb has no record or shape for, so a question naming one is told so.

Without this list, "2080Ti 能跑 7B 吗" reads 2080 as a model size and "4 张 7900XTX" checks some other card.
Each entry is a pattern over the lower-cased, NFKC-normalised question; what it matched is reported in
`unknown` as the user wrote it. A name that a spec record or a preset claims (its `aliases`) wins over an
entry here, so adding a record for, say, the H800 needs no edit of this file.
"""

from __future__ import annotations

import re

_SEP = r"[\s_-]*"
# A Chinese product-line word between a maker and a code (曦思, 智铠, 云燧): no verb or particle of a question
# ("寒武纪 能跑 70B" is the maker, then a question).
_LINE_ZH = r"(?:(?![能跑用放和跟与比在上的要可做训推买])[\u4e00-\u9fff])"

# GPUs and other accelerators, by family; most specific first within a family.
UNKNOWN_GPUS: tuple[str, ...] = (
    rf"(?:geforce{_SEP})?(?:rtx|gtx){_SEP}\d{{4}}(?:{_SEP}(?:ti|super|d))*",  # RTX 3090, GTX 1080 Ti, RTX 4090 D
    rf"(?:geforce{_SEP})?gtx{_SEP}\d{{3}}",  # GTX 980
    r"[1-5]0[5-9]0(?:\s*(?:ti|super|d))+",  # 2080ti, 4090 D (a bare 4090 is a record's alias)
    r"[1-3]0[5-9]0",  # 3090, 2080, 1080: bare numbers of GeForce cards kb has no record for
    rf"(?:amd{_SEP})?(?:radeon{_SEP})?(?:rx{_SEP})?[5-9][0-9]00{_SEP}(?:xtx|xt|gre)",  # RX 7900 XTX, 7900XTX
    rf"(?:amd{_SEP})?(?:radeon{_SEP})?rx{_SEP}\d{{4}}",  # RX 6800
    # every Instinct by its code: MI60, MI250X, MI325X (the MI300X is a record, whose alias wins)
    rf"(?:amd{_SEP})?(?:instinct{_SEP})?mi{_SEP}(?!300x?(?![a-z0-9]))\d{{2,3}}[a-z]?(?![a-z0-9])",
    rf"(?:nvidia{_SEP})?(?:rtx{_SEP})?a(?:6000|5000|4500|4000|2000)(?!{_SEP}ada)",  # RTX A6000, not the 6000 Ada
    rf"(?:nvidia{_SEP})?rtx{_SEP}pro{_SEP}\d{{4}}(?:{_SEP}blackwell)?|(?:nvidia{_SEP})?rtx{_SEP}[2-5]000{_SEP}ada",
    rf"(?:amd{_SEP})?(?:radeon{_SEP})?(?:pro{_SEP})?w[5-7][0-9]00(?:{_SEP}(?:xt|x))?",  # Radeon Pro W7900
    # laptop GPUs: same names, other memory and power (a laptop RTX 4090 has 16 GB)
    rf"(?:rtx{_SEP})?[2-5]0[5-9]0(?:{_SEP}ti)?{_SEP}(?:laptop|mobile|移动版|笔记本版?)|(?:笔记本|laptop){_SEP}"
    rf"(?:rtx{_SEP})?[2-5]0[5-9]0(?:{_SEP}ti)?",
    rf"(?:nvidia{_SEP})?(?:tesla{_SEP})?(?:v100|p100|p40|k80|t4|m40)(?:{_SEP}(?:sxm2|pcie|16gb|32gb))?",
    rf"(?:nvidia{_SEP})?(?:a10g?|a16|a30|a40|l40(?!s)|l20|h20|h800|a800|h100{_SEP}(?:nvl|pcie)|gh200|gb200|b100|b300)",
    rf"(?:nvidia{_SEP})?(?:jetson{_SEP})?(?:agx{_SEP})?orin|jetson{_SEP}\w+|dgx{_SEP}spark|dgx{_SEP}station",
    rf"(?:huawei{_SEP}|华为{_SEP})?(?:ascend|昇腾){_SEP}(?:9[0-9]0[a-c]?\d?|310[pb]?)|(?:huawei{_SEP})?atlas{_SEP}\d{{3}}[a-z]?",
    rf"(?:寒武纪{_SEP}|cambricon{_SEP})?(?:思元|siyuan){_SEP}\d*",  # Cambricon's Siyuan 590
    # a Chinese maker's name glued to a product code: 燧原i20, 昆仑芯R200, 壁仞BR100, 沐曦C500, 海光K100
    # ... or with its product line between: 海光 DCU Z100, 沐曦 曦思 N100, 燧原 云燧 T20, 华为 昇腾 910B
    rf"(?:燧原|enflame|昆仑芯?|kunlun|壁仞|biren|沐曦|metax|海光|hygon|摩尔线程|天数智芯|寒武纪){_SEP}"
    rf"(?:{_LINE_ZH}{{1,3}}{_SEP}|(?:dcu|mtt|mlu|bi|br|xpu|gpu){_SEP})?"
    rf"(?!\d+(?:\.\d+)?b(?![a-z0-9]))[a-z]{{0,3}}{_SEP}\d{{2,4}}[a-z]?(?![a-z0-9])|(?:dcu|曦思|曦云|云燧|天垓|智铠){_SEP}[a-z]{{0,3}}\d{{2,4}}[a-z]?"
    rf"(?![a-z0-9])|"
    rf"寒武纪|cambricon(?:{_SEP}mlu\d*)?|mlu{_SEP}\d{{3}}|昆仑芯?|kunlun|海光|hygon|dcu|摩尔线程|沐曦|壁仞|燧原|"
    rf"enflame|metax|biren",
    # more Chinese accelerators: Alibaba T-Head's Hanguang, Cambricon's Siyuan, MetaX's Xiyun, Enflame's Yunsui,
    # Tecorigin, Sophgo, VastAI, Denglin
    rf"(?:平头哥{_SEP})?含光{_SEP}\d*|平头哥|hanguang{_SEP}\d*|曦云{_SEP}c?\d*|云燧{_SEP}[it]?\d*|"
    rf"太初(?:元碁)?|tecorigin|(?<!预)(?<!计)算能|sophgo|瀚博|vastai|登临|denglin",
    rf"(?:摩尔线程{_SEP}|moore{_SEP}threads{_SEP})?mtt{_SEP}[sx]\d{{2,4}}|moore{_SEP}threads",  # (摩尔线程 above)
    rf"(?:天数智芯{_SEP}|iluvatar(?:{_SEP}corex)?{_SEP})?(?:bi{_SEP}v\d{{3}}|mr{_SEP}v\d{{2,3}})|天数智芯|"
    rf"iluvatar(?:{_SEP}corex)?",  # Iluvatar CoreX BI-V150
    rf"(?:apple{_SEP})?m[1-5]{_SEP}(?:max|ultra|pro)|mac{_SEP}studio|macbook(?:{_SEP}pro)?",
    rf"(?:google{_SEP})?(?:cloud{_SEP})?tpu(?:{_SEP}v\d+[a-z]*)?",  # TPU v5e
    rf"(?:intel{_SEP})?(?:habana{_SEP})?gaudi{_SEP}[12](?!\d)",  # Gaudi 2 (Gaudi 3 is a record)
    rf"(?:intel{_SEP})?arc{_SEP}(?:pro{_SEP})?[ab]\d{{2,3}}|(?:intel{_SEP})?(?:data{_SEP}center{_SEP}gpu{_SEP})?max{_SEP}1[15]50",
    rf"(?:aws{_SEP})?(?:trainium\d?|inferentia\d?)|groq(?:{_SEP}lpu)?|cerebras(?:{_SEP}cs-?\d)?",
    rf"(?:tenstorrent{_SEP})?(?:wormhole|blackhole|grayskull)(?:{_SEP}[np]\d{{2,3}}[a-z]?)?|tenstorrent",
    # older and workstation lines named by family: whatever follows the family word, kb has no record of it
    rf"(?:nvidia{_SEP})?titan(?:{_SEP}(?:rtx|xp|x|v|z|black|ada))?",
    rf"(?:nvidia{_SEP})?quadro(?:{_SEP}rtx)?(?:{_SEP}[a-z]?\d{{3,4}})?",
    rf"(?:nvidia{_SEP})?tesla{_SEP}[a-z]\d{{1,3}}",
    rf"(?:amd{_SEP})?radeon{_SEP}(?:pro{_SEP})?(?:vii|[a-z]?\d{{3,4}}[a-z]*)|(?:amd{_SEP})?radeon{_SEP}pro",
)

# Models kb has no shape for and whose names state no size (a name with a size, "Falcon 180B", is checked at
# that size and says so). Families that a preset covers (llama, qwen, mistral, deepseek …) are not here.
UNKNOWN_MODELS: tuple[str, ...] = (
    rf"gpt{_SEP}(?:4o|4\.1|4\.5|4|3\.5|5(?:\.\d)?|o1|o3)?(?:{_SEP}(?:turbo|mini|nano|pro))?",
    rf"chatgpt|o1{_SEP}(?:preview|mini)|o3{_SEP}mini",
    rf"claude(?:{_SEP}\d(?:\.\d)?)?(?:{_SEP}(?:opus|sonnet|haiku))?(?:{_SEP}\d(?:\.\d)?)?",
    rf"gemini(?:{_SEP}\d(?:\.\d)?)?(?:{_SEP}(?:pro|flash|ultra|nano))?",
    rf"grok(?:{_SEP}\d)?|kimi(?!{_SEP}k2)|ernie(?:{_SEP}bot)?|文心一言|文心|豆包|doubao|混元|hunyuan|盘古|pangu",
    rf"chatglm\d?|glm{_SEP}4(?:\.5)?|baichuan\d?|百川|internlm\d?|书生|yi{_SEP}(?:large|lightning)|minimax",
    rf"phi{_SEP}[234](?:\.5)?(?:{_SEP}(?:mini|medium))?|command{_SEP}r\+?",
    rf"bloom|opt(?=-\d)|gpt{_SEP}j|gpt{_SEP}neox?|bert|t5",
    rf"dbrx|jamba|snowflake{_SEP}arctic|grok{_SEP}1",
    # Chinese assistants and model families kb has no shape for
    rf"(?:讯飞{_SEP})?星火(?:大模型|认知大模型)?|iflytek(?:{_SEP}spark)?|sparkdesk|讯飞|智谱(?:清言)?|zhipu|零一万物|"
    rf"商汤|日日新|sensenova|阶跃星辰|stepfun|天工(?:大模型)?|skywork|360{_SEP}?智脑|智脑|月之暗面|moonshot",
    rf"mistral{_SEP}(?:large|medium|small|nemo)(?:{_SEP}\d+(?:\.\d+)?)?|codestral|ministral|pixtral",
)

# Accelerators of other makers than NVIDIA: the guide speaks of them together, in §10.2 ("其他厂商的AI芯片").
OTHER_MAKERS = (r"(?<![a-z])(?:amd|radeon|rx|mi\d|instinct|intel|gaudi|arc|habana|ascend|atlas|tpu|trainium|inferentia|"
                r"groq|cerebras|tenstorrent|wormhole|apple|cambricon|mlu|kunlun|hygon|dcu|moore|mtt|metax|biren|enflame|iluvatar|bi-v|mr-v|"
                r"w[5-7]\d00)|昇腾|华为|寒武纪|昆仑|海光|摩尔线程|沐曦|壁仞|燧原|天数|天垓|智铠|曦思|曦云|云燧")
# Where the guide speaks of a card kb has no record for (its search puts that section beside the passages), first
# match wins: specialised accelerators (§10.3), NVIDIA's next generation (§10.1), other RTX and workstation cards
# (§4.1), other makers (§10.2).
SECTION_OF_UNKNOWN = (
    (r"(?<![a-z])(?:groq|lpu|cerebras|wse|graphcore|ipu|tenstorrent|wormhole|blackhole|grayskull|sambanova|etched|"
     r"jetson|npu)(?![a-z])", "guide-10.3"),
    # (Blackwell, and the RTX 50 series §10.1 announces)
    (r"(?<![a-z])(?:gb?[23]00|b100|rubin|blackwell|vera)(?![a-z0-9])|(?<![a-z0-9])50[6-9]0(?:\s*ti)?(?![0-9])",
     "guide-10.1"),
    (r"(?<![a-z])(?:rtx|geforce|quadro|titan|gtx)(?![a-z])|(?<![a-z0-9])[23]0[5-9]0(?:\s*ti)?(?![0-9])", "guide-4.1"),
    (OTHER_MAKERS, "guide-10.2"),
)


def section_of_unknown(name: str) -> str | None:
    """The guide section that speaks of the kind of card `name` is, if any."""
    return next((group for pattern, group in SECTION_OF_UNKNOWN if re.search(pattern, name.lower())), None)
