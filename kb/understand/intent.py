"""What kind of answer a question wants: a spec figure, a fit verdict, a speed/time/cost, a pick, a reason.

Regular expressions over the question (Chinese and English alike), decided together with what the fit
engine found in it (a model and a GPU make a fit question; a budget makes a selection). The order of
the checks is the order of precedence.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from kb.understand.audience import asks_driver_focus, asks_long_runs
from kb.understand.foreign import Vocabulary
from kb.understand.terms import terms

# A rate asked: the one set of words the Query's `speed` and the intent read ("decode ceiling" is a tokens/s).
RATE = (r"tokens?\s*/\s*s|tok/s|tok(?:en)?s? (?:per|a|each) sec(?:ond)?|每秒|一秒|多快|速度|(?<![a-z])spee+d|how fast|"
        r"(?:is|will|would) (?:it|that|this) (?:be )?(?:fast|quick|snappy)|fast enough|快不快|快吗|"
        r"decode (?:ceiling|rate|bound|limit|cap)|解码(?:上限|速率|速度)|生成速度|tokens? ceiling|"
        # "single-stream decode", "单路解码": the decode rate of one sequence
        r"(?:single[\s-]?(?:stream|user|sequence)|one[\s-](?:stream|user)|batch[\s-]?1)\W{0,3}"
        r"(?:decode|decoding|gen)|"
        r"单路(?:解码|生成)|出字速度|吐字速度")
_SPEED = re.compile(
    RATE + r"|throughput|吞吐|"
    r"多久|多长时间|how long|多少天|几天|\bdays?\b|\bhours?\b|小时|time to (?:train|first)|训练时间|"
    r"延迟|latency|ttft|gpu[\s-]?hours|首字", re.IGNORECASE)
_COST = re.compile(r"电费|per million|每百万|cost per|成本|how much (?:does|would|will) .* (?:run|train|serve)|"
                   r"多少钱|cost|price|价格|贵|cheap|便宜|花多少", re.IGNORECASE)
_WHY = re.compile(
    r"为什么|为何|为啥|咋|why|when (?:is|are|should|to|do)|什么时候|什么情况|优势|优点|劣势|缺点|不足|advantage|"
    r"downside|"
    r"drawback|limitation|weakness|strength|pros\b|cons\b|区别|差异|difference|\bvs\.?\b|versus|哪个好|哪个更|"
    r"better|比较|compare|好处|tradeoff|trade-off|权衡|适合|suitable|best for|值得|worth|趋势|trend|future|未来|"
    r"建议|recommend|best practice|最佳实践|怎么选|如何选|how (?:should|do|can) (?:i|we)|应该|should", re.IGNORECASE)
# What someone else did: the guide's cases and examples, not a check of what would fit.
_DONE = re.compile(r"\bdid (?:they|meta|openai|google|the (?:team|company|lab|startup)|\w+) (?:use|train|buy|deploy|"
                   r"spend|pick|choose|run)\b|用了(?:几|多少)|花了(?:几|多少)|买了(?:几|多少)|"
                   # "in the open-model case, were the 405b gpus a100s": what a case used, asked in the past
                   r"\bwere (?:the|its|their) [^?？]{0,30}(?:gpus?|cards?)\b", re.IGNORECASE)
_OURS = re.compile(r"\b(?:we|i|our|my|us)\b|我们|我|咱", re.IGNORECASE)
_NAMED_CASE = re.compile(r"案例|(?<![a-z])case(?: study)?(?![a-z])", re.IGNORECASE)
# The asker's own organisation ("我们团队", "our startup"): what they are choosing for, not one of the guide's cases.
_OWN_ORG = re.compile(r"(?:我们|咱们|我的|我司|本)\s*(?:的)?\s*(?:团队|公司|实验室|项目|平台|创业公司)|"
                      r"\b(?:our|my) (?:small |little |tiny )?(?:team|company|lab|startup|project|platform)\b",
                      re.IGNORECASE)
_CASE = re.compile(
    r"案例|case|公司|company|团队|team|实验室|\blab\b|startup|创业|初创|fintech|金融|医疗|medical|制造|manufactur|"
    r"平台|platform|university|大学|高校|chatbot|客服|机器人|project|项目", re.IGNORECASE)
# A case said by its section and who it is about: "9.2 fintech", "§9.4 university".
_SECTION = r"(?<![\d.])§?\s*\d{1,2}\.\d(?![\d.%])"
_CASE_BY_SECTION = re.compile(  # ("9.2 fintech", "the fintech firm in 9.2")
    rf"{_SECTION}\s*(?:{_CASE.pattern})|(?:{_CASE.pattern})\w*(?:\s+[a-z]+)?\s+(?:in|of|from)\s+{_SECTION}",
    re.IGNORECASE)
# A question is inside the guide when it names one of its strong subjects, or two weak ones ("train" alone may be
# a railway); a question about another field (a game, video editing, a science code) is outside it unless it names
# a language model. The words are the vocabulary's (kb/understand/vocabulary/topics.yaml); what is left here are
# the shapes of names no word list holds: a card's or a model's number ("rx 7900", "70b", "700亿参数", "4090").
_STRONG_SHAPES = re.compile(r"\brx\s?\d|arc\s?a\d|zero[\s-]?[0-3]|\b\d+(?:\.\d+)?\s*(?:b|bn)\b|\d+\s*亿参数|"
                            r"\b[2-5]0[5-9]0\b", re.IGNORECASE)


def _topics(text: str) -> dict[str, set[str]]:
    """The topic words of a (normalised) text, by kind ("strong", "weak", "other_field", …), as written."""
    found: dict[str, set[str]] = {}
    for h in terms("topics.yaml").find(text):
        found.setdefault(h.key, set()).add(text[h.start:h.end])
    return found


# Spec attributes: name → the pattern in a question. The spec composer matches each to a record's table rows.
SPEC_ATTRIBUTES: dict[str, re.Pattern[str]] = {
    name: re.compile(p, re.IGNORECASE) for name, p in {
        # what the card is for: its record's opening line ("数据中心低功耗PCIe推理卡")
        "role": r"干(?:嘛|啥|什么)用|做什么用|用来(?:干|做)|是(?:干|做)(?:什么|啥|嘛)的|干啥的|定位|用途|"
                r"适合(?:干|做|用来)(?:什么|啥|嘛)|设计.{0,8}(?:干嘛|干啥|干什么|做什么)|什么(?:级别|档次|类型|样)的卡|"
                r"是(?:什么|啥)卡|面向(?:什么|哪)|"
                r"(?:what(?:'s| is| are)|whats) (?:the |an? )?[^?？]{1,30}? (?:meant |designed |built |made |aimed |"
                r"intended )?(?:for|at)\s*[?？.!]*$|what (?:is|'s) [^?？]{1,25} good (?:for|at)|purpose|positioned|"
                r"positioning|use[- ]cases?|intended (?:use|for)|why does [^?？]{1,30} exist|what kind of (?:card|gpu)|"
                r"target(?:ed)? (?:market|use|workload)|what (?:gpu|card|accelerator|kind of (?:gpu|card)) is|"
                r"介绍(?:一下)?|tell me about|overview of",
        # (not a link's: "pcie 带宽", "nvlink bandwidth" are the link figures)
        "bandwidth": r"(?<!pcie)(?<!pcie )(?<!nvlink)(?<!nvlink )(?<!互连)(?<!互联)(?<!卡间)"
                     r"(?:带宽|bandwidth|bandwith|bandwdith|(?<![a-z])bw(?![a-z]))",
        "vram": r"显存(?!带宽)|vram|memory(?!\s*bandwidth)|memroy|memmory|内存|容量|capacity|how much hbm|"
                r"hbm.{0,24}(?:add up|total|in all|combined|合计|总共|一共|加起来)|总\s*hbm|"
                r"(?<!功耗|功率|带宽|算力)多大|how much (?:v?ram|memory)|多少g|(?<![a-z])gigs?(?![a-z])",
        "int8": r"int8|tops\b",
        "fp32": r"fp32",
        "tf32": r"tf32",
        "compute": r"fp16|bf16|tflops|算力|性能|compute|flops|performance|多强|how (?:fast|powerful)|"
                   r"trains? faster|训练.{0,3}快",
        "fp8": r"fp8|float8",
        "fp4": r"fp4|mxfp4|nvfp4",
        "power": r"功耗|功率|power|tdp|watt|瓦|耗电|用电|电量|度电|多少度(?!\s*[c℃])|几度电|kwh|kilowatt|电费|"
                 r"electricity|(?<![a-z])draw(?:s|ing)?(?![a-z])|吃多少电|费电|"
                 r"energy (?:use|usage|consumption|draw)",
        "nvlink": r"nvlink|nvswitch|互连|互联|interconnect|卡间|卡(?:跟|和|与)卡|card[- ]to[- ]card|gpu[- ]to[- ]gpu|"
                  r"(?<![a-z])roce(?![a-z])|infinity fabric",
        "pcie": r"pcie",
        "ecc": r"(?<![a-z])ecc(?![a-z])|纠错",
        # what the driver reports ("nvidia-smi 显示多少", "usable vram as rocm-smi reports it")
        "driver": r"nvidia-?smi|rocm-?smi|驱动.{0,6}(?:显示|报|识别|看到|认)|(?<![a-z])mib(?![a-z])|"
                  r"(?:driver|os|system) (?:reports?|shows?|sees)|usable (?:v?ram|memory)|实际可用|可用(?:的)?显存|"
                  r"actually (?:usable|available|reports?|shows?)|"
                  r"显存总量.{0,6}显示|显示.{0,6}显存",
        "price": r"价格|价位|差价|价差|多少钱|price|cost|贵|cheap|便宜|售价|报价|花|(?<![省赚])钱|性价比|"
                 r"啥价|什么价|价钱|总价|总价格|一共多少钱|总共多少钱|合计多少钱|"
                 r"per (?:dollar|yuan|buck)|value for money|bang for|每元|"
                 r"(?:go(?:es)?|sell(?:s|ing)?|retail(?:s)?) for|going rate|street price|"
                 r"how much (?:is|are|for|would|more|extra|less)|more expensive|pricier|costlier|dearer|"
                 r"what'?s the total|total (?:cost|price)|in total\s*[?？]?$|run me|set me back|cost me|"
                 r"cards? only|cards? alone|(?<![a-z])in (?:cny|rmb|yuan)(?![a-z])|(?<![a-z])all[- ]in(?![a-z])|"
                 r"光显卡|只算显卡|光卡|只算卡|(?<![a-z])quote(?![a-z])|gpus? only|报个价|(?<![a-z])money(?![a-z])",
        "memory_type": r"hbm|gddr|显存类型|memory type",
        "tensor_cores": r"tensor ?cores?|张量核心",
        # Multi-Instance GPU: how many isolated slices a card splits into
        "mig": r"(?<![a-z])migs?(?![a-z])|多实例|multi[\s-]?instance|切(?:成|分)?几个实例|几个实例|"
               r"gpu partition|partition (?:the|a|one|each) (?:gpu|card)|"
               # several teams or tenants sharing one card in isolation: what MIG is for
               r"多租户|租户|multi[\s-]?tenan\w*|tenants?\b|(?:隔离|isolat\w*).{0,12}(?:共享|shar\w*|用户|users|团队|teams)|"
               r"(?:共享|shar\w*).{0,12}(?:一张|单张|one|a single) ?(?:卡|gpu|card).{0,12}(?:隔离|isolat)|"
               r"(?:teams|groups|users|团队|多个人|几个人|几个组).{0,16}(?:shar\w*|共享|共用|split|分)\s*"
               r"(?:one|a single|an?|一张|单张|同一张)?\s*(?:a100|h100|h200)?\s*(?:gpu|card|卡)",
    }.items()
}


# Asks for something other than what a guide holds — code, prompts, software set-up, courses — whatever model
# or card they name: "write me a pytorch loop for an a100", "how to set up nccl for llama training".
_NOT_A_LOOKUP = re.compile(
    r"(?:帮我|给我|请|帮忙)写.{0,40}(?:脚本|代码|程序)|写(?:一个|个|一段|段).{0,40}(?:脚本|代码|程序)|"
    r"(?:give|write)(?: me)? (?:a|an|some|the)\b.{0,30}"
    r"(?:script|code|program|snippet|loop|function|notebook|dockerfile)|code (?:sample|example|snippet)|代码示例|"
    r"prompt engineering|提示词工程|提示工程|写提示词|prompt (?:tips|tricks)|"
    r"how (?:do i|do we|to|can i) (?:install|set ?up (?:cuda|drivers?|pytorch|docker|the (?:software|"
    r"environment|drivers?)))|怎么(?:安装|搭环境|搭建环境)|如何安装|"
    r"(?<![a-z])k8s(?![a-z])|kubernetes|slurm|"
    # setting NCCL up is software; what an NCCL test measures of a link is the link's figure
    r"(?<![a-z])nccl(?![a-z])(?![^?？]{0,40}(?:tests?|bandwidth|带宽|gb/s|measur|实测|one way|单向))|"
    r"课程|教程|(?<![a-z])courses?(?![a-z])|tutorials?|学习资料|入门资料|learning resources|"
    # where to start learning, and configuring software: no figure of a card answers these
    r"从哪(?:里|儿)?(?:开始|入手|学起|学)|where (?:do|should) i (?:start|begin)|learning (?:path|roadmap)|"
    r"how (?:do|can|should) (?:i|we|you) (?:configure|config|set|tune|enable|turn on)\b.{0,40}"
    r"(?:vllm|deepspeed|tensorrt|megatron|pytorch|flags?|options?|parameters?|settings?|env)|"
    r"(?:vllm|deepspeed|tensorrt|megatron|pytorch).{0,30}(?:怎么|如何)(?:配置|设置|设)|"
    r"(?:怎么|如何)(?:配置|设置).{0,20}(?:vllm|deepspeed|tensorrt|megatron|pytorch|参数)",
    re.IGNORECASE)
_CPU_PICK = re.compile(r"(?:best|which|what|recommend\w*|哪个|哪款|什么|啥|推荐)\s*(?:[a-z]+\s+){0,2}(?:cpus?|处理器)"
                       r"(?![a-z])|(?:cpu|处理器)\s*(?:选|推荐|买)", re.IGNORECASE)


def off_domain(question: str) -> bool:
    """A question about another field (a YOLO detector, Stable Diffusion samplers) that names nothing of LLMs."""
    q = normalise(question)
    if _NOT_A_LOOKUP.search(q):
        return True
    if _CPU_PICK.search(q) and not re.search(r"gpu|显卡|(?<![a-z])card|\d{4}|a100|h100", q):
        return True  # "best cpu for llm inference": a processor, which the guide never compares
    if "other_model_field" in _topics(q):
        return "llm_named" not in _topics(q)
    if re.search(r"显存|v?ram|memory|mib|gib|\d\s*g|(?<![a-z])ecc(?![a-z])", q):  # "驱动里显示多少显存", "the
        # driver's ecc toggle": what the driver reports of memory, or its ECC switch
        q = re.sub(r"驱动|drivers?", " ", SPEC_ATTRIBUTES["driver"].sub(" ", q))  # is the record's, not an install
    if asks_driver_focus(q):  # "为什么都说4090的驱动不如专业卡": §4.4's point on what drivers are tuned for
        q = re.sub(r"驱动(?:程序)?|drivers?", " ", q)
    found = _topics(q)
    return "other_field" in found and "llm" not in found


def _about_a_case(q: str, wants_pick: bool) -> bool:
    """A company, team or lab in a question is one of the guide's cases — unless it is the asker's own ("我们团队"),
    or a pick is asked of one not pointed at ("公司准备本地部署 该买什么卡": theirs, not the guide's)."""
    if not _CASE.search(_OWN_ORG.sub(" ", q)):
        return False
    return not wants_pick or bool(_NAMED_CASE.search(q) or _POINTED.search(q))


_POINTED = re.compile(r"那家|那个|这家|这个(?:公司|团队|实验室)|该(?:公司|团队)|"
                      r"the (?:company|team|lab|startup|firm)\b", re.IGNORECASE)


def about_a_case(question: str) -> bool:
    """Whether a question is about one of the guide's deployment cases (a company, a team, a lab)."""
    return bool(_CASE.search(normalise(question)))


def names_a_case(question: str) -> bool:
    """Whether a question says outright that it asks about a case ("案例", "the X case")."""
    q = normalise(question)
    return bool(_NAMED_CASE.search(q) or _CASE_BY_SECTION.search(q))


def spec_attributes(text: str) -> list[str]:
    """The spec attributes a (lower-cased) question asks for, in SPEC_ATTRIBUTES order. "算力", "tflops" beside a
    named format ("fp8 稀疏算力", "int8 tops") are that format's rate, not the BF16 one as well."""
    found = [name for name, p in SPEC_ATTRIBUTES.items() if p.search(text)]
    if "compute" in found and set(found) & {"int8", "fp8", "fp4", "fp32", "tf32"} \
            and not re.search(r"fp16|bf16", text, re.IGNORECASE):
        found.remove("compute")
    return found


# The kinds of answer there are (an answer's state says which it gave).
INTENT_KINDS = ("spec", "fit", "speed", "cost", "selection", "why", "case", "general", "not_covered")


@dataclass
class Intent:
    """The kind of the question and what it asks about."""

    kind: str  # one of INTENT_KINDS
    attributes: list[str] = field(default_factory=list)  # spec attributes asked for, in question order
    wants_speed: bool = False
    wants_cost: bool = False
    how_many: bool = False  # "how many cards": the verdict is the count


def normalise(question: str) -> str:
    return unicodedata.normalize("NFKC", question).lower()


@lru_cache(maxsize=4096)
def _term(term: str) -> re.Pattern[str]:
    """A glossary term as a word, compiled when a question first holds it (not all ~450 at start-up)."""
    return re.compile(rf"(?<![a-z]){re.escape(term)}(?![a-z])")


class Domain:
    """What the guide is about: the patterns above and the glossary's own terms (specific ones count as strong,
    the short, generic ones — 性能, 价格, "memory", "cost" — only as weak: "今天股市怎么样" is not a GPU question)."""

    def __init__(self, glossary: list[tuple[list[str], list[str]]], texts: Sequence[str] = ()) -> None:
        self._texts = texts  # the corpus's own words, for `foreign` (read on first need: a cold ask needs none)
        strong: set[str] = set()
        weak: set[str] = set()
        for en, zh in glossary:
            for term in zh:
                (strong if len(term) >= 3 else weak).add(term.lower())
            for term in en:
                (strong if (" " in term or "-" in term) and len(term) >= 8 else weak).add(term.lower())
        self._glossary = glossary
        self._strong = [t for t in strong if t]
        self._weak = [t for t in weak if t]

    def topical(self, question: str) -> bool:
        """Whether a question holds something of the guide's besides the names of cards and models: "4090 温度
        85 度正常吗" names a card and asks nothing the guide is about. One word of the guide's is enough beside a
        card, and so is nothing at all ("h100?", "a100 80g", "h20 是什么": the card itself is asked)."""
        rest = _NAMES.sub(" ", normalise(question))
        if len(_FUNCTION.sub("", rest)) < 2:
            return True
        return bool(_STRONG_SHAPES.search(rest) or _topics(rest).keys() & {"strong", "weak", "guide_topic"}
                    or any(t in rest for t in self._strong)
                    or any(t in rest and _term(t).search(rest) for t in self._weak))

    @cached_property
    def _vocabulary(self) -> Vocabulary:
        return Vocabulary([*self._texts, *(t for en, zh in self._glossary for t in (*en, *zh))])

    def foreign(self, question: str) -> bool:
        """Whether a question's content is mostly words the guide never uses (kb/understand/foreign.py)."""
        return self._vocabulary.residue(question).foreign

    def covers(self, question: str) -> bool:
        q = normalise(question)
        found = _topics(q)
        if _STRONG_SHAPES.search(q) or "strong" in found or any(t in q for t in self._strong):
            return True
        weak = found.get("weak", set()) | {f"glossary:{t}" for t in self._weak
                                                           if t in q and _term(t).search(q)}
        return len(weak) >= 2


# Names of cards and models as a question writes them, for `Domain.topical`: any word holding a digit ("4090",
# "a100", "h20", "80g", "70b"), and the brands and series words around them.
_NAMES = re.compile(r"[a-z]*\d[\w.-]*|nvidia|英伟达|geforce|(?<![a-z])(?:rtx|gtx|amd|radeon|intel|ti|super|sxm|pcie)"
                    r"(?![a-z])")
# What is left of "h20 是什么", "what is the a100?" once the names are gone: nothing to judge a topic by.
_FUNCTION = re.compile(r"[\W_]+|是什么|是啥|什么|请问|介绍(?:一下)?|一下|吗|呢|啊|吧|的|了|么|嘛|"
                       r"(?<![a-z])(?:what|whats|is|the|a|an|about|tell|me|of|are|it|this|that|card|gpu|one)(?![a-z])")
_SUITS = re.compile(r"good for|好用|适合|suitable|worth|值得|怎么样|如何|行不行|any good|enough for|够用",
                    re.IGNORECASE)
_ASKS_WHY = re.compile(r"为什么|为何|为啥|怎么会|原因|\bwhy\b|reason|how come", re.IGNORECASE)


def asks_why(question: str) -> bool:
    """'为什么两张 4090 放不下': the reason is asked, not only the verdict."""
    return bool(_ASKS_WHY.search(normalise(question)))
# What a why-question about named cards turns on, when it names no figure: "why does the 4090 fall behind for
# multi-GPU training" is their links; "why is it good for long contexts" their memory.
# Gradients exchanged between data-parallel cards: "同步一次梯度", "梯度 all-reduce", "syncing gradients".
GRAD_EXCHANGE = (r"同步.{0,4}梯度|梯度.{0,4}(?:同步|通信|聚合|all[\s-]?reduce)|"
                 r"gradients?.{0,12}(?:sync|all[\s-]?reduce|exchang)|"
                 r"(?:sync\w*|all[\s-]?reduc\w*|exchang\w*).{0,20}gradients?")
_WHY_TOPICS = {
    # a gradient all-reduce between consumer cards runs over their PCIe links ("why does syncing gradients on
    # 4060 tis take twice a 4070's time": x8 against x16)
    "pcie": GRAD_EXCHANGE + r"|(?<![a-z])x8(?![a-z0-9])|(?<![a-z])lanes?(?![a-z])|通道数",
    "nvlink": r"multi[\s-]?(?:gpu|card|node)|多卡|多机|卡间|分布式|distributed|scal(?:e|es|ing)(?: out| up)?|"
              r"(?:几|多|两|四|八)张.{0,12}一起|一起(?:训练|训|跑)|(?:train|run)\w* (?:them )?together|"
              r"互联|通信|communicat|interconnect|并行训练|parallel",
    "vram": r"长上下文|long[\s-]context|大模型|big(?:ger)? models?|large(?:r)? models?|显存大|memory capacity|容量|"
            r"蒸馏|distil|压缩|compress|量化|quantiz|边缘|(?<![a-z])edge(?![a-z])",  # "why distil for a 4060's box"
    "bandwidth": r"decode|解码|生成速度|推理速度|token.{0,4}(?:速度|per)|memory[\s-]bound|访存|"
                 r"(?:出|吐)\s*(?:token|字)|tokens?.{0,8}(?:快|慢)|generat\w* (?:tokens?|text)",
}


# A card judged for a workload: "bad for training", "不适合训练", "做推理不太行".
_JUDGED = re.compile(r"\b(?:bad|good|weak|strong|slow|fast|poor|great|unsuited|terrible)\b|not (?:suited|suitable)|"
                     r"不行|不适合|适合|慢|快|弱|强|不好", re.IGNORECASE)
_TRAINING = re.compile(r"训练|训|train|fine[\s-]?tun|微调|pre-?train", re.IGNORECASE)
_SERVING = re.compile(r"推理|部署|inference|serv(?:e|ing)|decode|解码|生成|chat|聊天|上线", re.IGNORECASE)


def _workload_figures(q: str) -> list[str]:
    """The figures a workload turns on, for a why about one card and a workload: training runs on dense 16-bit
    compute, memory and the link between cards; serving on memory bandwidth and memory."""
    if _TRAINING.search(q):
        return ["role", "compute", "vram", "nvlink"]
    if _SERVING.search(q):
        return ["role", "bandwidth", "vram"]
    return []


def why_topics(question: str) -> list[str]:
    """The figures a why's words turn on ("同步梯度" the PCIe link, "decode" the bandwidth), in _WHY_TOPICS order."""
    q = normalise(question)
    return [a for a, p in _WHY_TOPICS.items() if re.search(p, q)]


_POWER_BILL = re.compile(r"电费|耗电|power bill|electricity|energy (?:bill|cost)|power cost|in power\b|电力成本|"
                         r"(?<![a-z])kwh|度电|full load.{0,30}(?:year|month|day)|(?:year|month|day).{0,30}full load|"
                         r"满载.{0,10}(?:一年|一个月|一天)|(?:一年|一个月|一天).{0,10}满载", re.IGNORECASE)


_RENT = re.compile(r"(?<!多)租(?!户)|(?<![a-z])rent|hourly|per[- ](?:gpu[- ]|card[- ])?hour|an hour|每小时|按小时|按需|"
                   r"on[- ]demand|"
                   r"cloud (?:price|cost|rate|instance)|云上|云服务器|云端.{0,6}(?:价格|多少钱|费用)", re.IGNORECASE)


def asks_rent(question: str) -> bool:
    """'租云上的 a100 一个月多少钱': what renting costs, which the guide never prices."""
    return bool(_RENT.search(normalise(question)))


# A card's own figure asked outright beside a fit question ("how much is an a100 and is it worth it for a 13b").
_ALSO_ASKED = {
    "price": re.compile(r"多少钱|价格|价位|售价|啥价|什么价|价钱|"
                        r"how much (?:is|are|does) (?:an? |the )?[a-z0-9 ]{2,20}(?:cost)?\b|"
                        r"price of|what(?:'s| is| does) (?:an? |the )?[a-z0-9 ]{2,20} cost", re.IGNORECASE),
    "vram": re.compile(r"显存(?:多大|多少|是多少|有多大|有多少)|多大显存|how much (?:v?ram|memory) (?:does|do|is|has)|"
                       r"(?<![a-z])vram\s*[?？]", re.IGNORECASE),
    "power": re.compile(r"总功耗|功耗(?:多少|多大|合计|加起来|一共)|(?:total|combined) (?:power|tdp|draw)|"
                        r"power (?:draw|consumption)|多少\s*(?:瓦|千瓦|兆瓦|mw|kw)|how many (?:k|m)?w(?![a-z])|"
                        r"in (?:k|m)w\b",
                        re.IGNORECASE),
}


def also_asked_figures(question: str) -> list[str]:
    """The spec figures a fit question also asks of its card ("4090 显存多大？能跑 32b 吗")."""
    q = normalise(question)
    return [name for name, p in _ALSO_ASKED.items() if p.search(q)]


_WHICH = re.compile(r"哪个|哪张|哪款|哪一?种|(?<![a-z])vs\.?(?![a-z])|versus|which|better|faster|更好|更快|更强|更合适|"
                    r"更划算|compare|比较|对比|还是|差多少|差几倍|差距|快多少|慢多少|快几倍|slower|difference|gap",
                    re.IGNORECASE)


def asks_which(question: str) -> bool:
    """'l40s vs a100 for serving 70b int4': two set against each other."""
    return bool(_WHICH.search(normalise(question)))


# A figure asked per unit of power or money: (unit key, the record figure divided by, that figure's scale).
_PER_UNIT = tuple((key, attr, scale, re.compile(p, re.IGNORECASE)) for key, attr, scale, p in (
    ("kw", "power", 1000.0, r"每千瓦|每 ?kw|per kw|/ ?kw(?![a-z])|per kilowatt"),
    ("w", "power", 1.0, r"每瓦|per[\s-]watt|/ ?w(?![a-z])|perf(?:ormance)? per watt|flops ?/ ?w|能效|"
                        r"(?:power|energy)[\s-]efficien"),
    ("10k", "price", 1e4, r"每万元|每万块|每一万|per 10 ?k|per 10,?000|/ ?10 ?k(?![a-z])|"
                          r"per[\s-](?:dollar|buck|\$)|每块钱的?算力|单位价格的?算力"),  # (in CNY, per 10,000)
    ("1k", "price", 1e3, r"每千元|每千块|每一千|per 1 ?k(?![a-z])|per 1,?000(?![0-9])"),
    ("cny", "price", 1.0, r"每元|每块钱|per (?:yuan|cny|rmb)(?![a-z])"),
))


_PRICE_PER_GB = re.compile(r"每\s*g[bi]?b?\s*(?:显存)?.{0,6}(?:多少钱|价格|几块|成本)|(?:cost|price|cny|yuan) per gb|"
                           r"per gb of (?:v?ram|memory)|元\s*/\s*gb?|每\s*g显存", re.IGNORECASE)


_SPARSE = re.compile(r"sparsity|sparse|稀疏|(?<![\d:])2:4(?![\d:])", re.IGNORECASE)
_DENSE = re.compile(r"dense|稠密|(?:不算|不要|不含|别|非|去掉|除去|不开|不用|没开|关掉?|关闭)\s*.{0,4}稀疏|"
                    r"稀疏(?:不开|关掉?|关闭)|not (?:the )?sparse|non-?sparse|sparsity off|"
                    r"(?:without|no|excluding|ignore|minus) (?:the )?(?:2:4 )?sparsity|"
                    r"(?:turn|switch)(?:ed)? off sparsity",
                    re.IGNORECASE)


def asks_sparse(question: str) -> bool:
    """Whether a figure is asked with structured sparsity on ("2:4 sparsity", "稀疏算力"): the sheet's sparse row."""
    return bool(_SPARSE.search(question)) and not _DENSE.search(question)


def asks_price_per_gb(question: str) -> bool:
    """'每 GB 显存多少钱', 'price per gb of vram': a card's price over its memory."""
    return bool(_PRICE_PER_GB.search(normalise(question)))


# "每tflops合多少钱", "cny per dense bf16 tflops", "price per tflops": a card's price over its dense compute.
_PRICE_PER_TFLOPS = re.compile(r"每\s*(?:个\s*)?t?flops.{0,8}(?:多少钱|价格|几块|成本|合多少|元)|"
                               r"(?:cost|price|cny|yuan|rmb|元|钱|\$|dollars?)\s*(?:per|/|每)\s*(?:dense\s*)?"
                               r"(?:bf16\s*|fp16\s*)?(?:dense\s*)?t?flops|一\s*t?flops\s*(?:多少钱|几块)",
                               re.IGNORECASE)


def asks_price_per_tflops(question: str) -> bool:
    return bool(_PRICE_PER_TFLOPS.search(normalise(question)))


def per_unit(question: str) -> tuple[str, str, float] | None:
    """'a100 每千瓦能出多少 tflops', 'per 10k cny how many tflops': (unit, record attribute, its scale)."""
    q = normalise(question)
    return next(((key, attr, scale) for key, attr, scale, p in _PER_UNIT if p.search(q)), None)


# A gradient all-reduce's time asked: "8 张 a800 同步一次梯度要多久", "how long does the gradient all-reduce take".
_GRAD_SYNC = re.compile(r"(?:梯度.{0,6}(?:同步|通信|all[\s-]?reduce|聚合)|(?:同步|通信|聚合).{0,10}梯度|"
                        r"gradients?.{0,12}(?:sync|all[\s-]?reduce|exchange|communicat)|"
                        r"(?:sync\w*|all[\s-]?reduc\w*|exchang\w*).{0,20}gradients?)"
                        r"[^?？]{0,30}(?:多久|耗时|多长时间|几秒|多少秒|多少时间|how long|how much time|time|seconds|"
                        r"\bsecs?\b|takes?\b)|"
                        r"(?:多久|耗时|多长时间|几秒|多少秒|how long|how much time|how many (?:secs|seconds|ms)|"
                        r"(?<![a-z])time).{0,60}(?:梯度.{0,4}同步|同步.{0,6}梯度|"
                        r"gradients?.{0,12}(?:sync|all[\s-]?reduce)|(?:sync\w*|all[\s-]?reduc\w*).{0,20}gradients?)",
                        re.IGNORECASE)


def derived_ask(question: str) -> str | None:
    """A quantity derived from the subject's figures that the question asks (kb.understand.state.DERIVED), if any."""
    q = normalise(question)
    if _GRAD_SYNC.search(q):
        return "grad_sync"
    if asks_price_per_gb(q):
        return "per_gb"
    if asks_price_per_tflops(q):
        return "per_tflops"
    unit = per_unit(q)
    return f"per_{unit[0]}" if unit else None


def asks_power_bill(question: str) -> bool:
    """'一年电费多少': what the cards' draw costs, not what they cost to buy."""
    return bool(_POWER_BILL.search(normalise(question)))
KEY_FIGURES = ["vram", "bandwidth", "compute"]  # what "is this card good for LLMs" is answered with
# "h100 specs?", "4080 参数": the spec sheet itself, said as the figures that decide, its power, links and price
_SHEET = re.compile(r"规格|参数|(?<![a-z])specs?(?![a-z])|specifications?|spec ?sheet|datasheet|配置表", re.IGNORECASE)
SHEET = ["role", *KEY_FIGURES, "power", "nvlink", "price"]


def classify(question: str, domain: Domain, *, has_checks: bool, has_selection: bool, names_gpu: int,
             names_model: bool, names_unknown: bool, asked: str | None = None, how_many: bool = False,
             wants_pick: bool = False, unnamed: str | None = None) -> Intent:
    """The answer kind, from the question's words and what the fit engine found in it (`asked`, `how_many`,
    `wants_pick`: as the Query read them; `unnamed`: the question with the cards' names read out, so "A800 PCIe"
    asks no PCIe figure)."""
    q = normalise(question)
    speed, cost = bool(_SPEED.search(q)) or asked == "time", bool(_COST.search(q))  # (a training time asked)
    attrs = spec_attributes(normalise(unnamed) if unnamed is not None else q)
    if asked == "price" and "price" not in attrs:  # "预算 3 万 买 4 张 4090 还差多少": the Query read a price
        attrs.append("price")
    if off_domain(q):  # "4090 打游戏怎么样": a card named in another field's question is still that field's
        return Intent("not_covered")
    if names_gpu and not has_checks and not has_selection and derived_ask(q) in ("per_w", "per_kw") \
            and not [a for a in attrs if a != "power"]:  # "4090 和 a100 能效谁高": compute a watt
        return Intent("spec", attributes=["compute", "power"])
    if asked == "cost" and names_gpu and not has_checks and not names_model and _POWER_BILL.search(q) \
            and not _CASE.search(q):  # "a100 一个月电费多少"
        return Intent("spec", attributes=["power", *[a for a in attrs if a not in ("power", "price")]])
    if (asked == "rent_or_buy" or _RENT.search(q)) and names_gpu and not has_checks:  # "rent an l40s hourly?"
        return Intent("spec", attributes=["price"])
    if asked == "comparison" and not has_checks and not re.search(r"案例|\bcases?\b", q) \
            and not _CASE_BY_SECTION.search(q):  # (a case's cards: case)
        # "why does the 4060 ti decode slower than a 4070 though it has more vram": the figure the why turns on first
        why = [a for a in why_topics(q) if a not in attrs] if _ASKS_WHY.search(q) else []
        return Intent("spec", attributes=why + (attrs or list(KEY_FIGURES)))
    if names_gpu and _SHEET.search(q) and not [a for a in attrs if a != "role"] and not names_model \
            and not has_checks and not has_selection and not _CASE.search(q) and not _ASKS_WHY.search(q):
        return Intent("spec", attributes=list(SHEET))
    if names_gpu == 1 and not [a for a in attrs if a != "role"] and not names_model and not has_checks \
            and not has_selection and (_SUITS.search(q) or attrs) and not _CASE.search(q) and not _ASKS_WHY.search(q):
        return Intent("spec", attributes=["role", *KEY_FIGURES])  # "is the L4 any good", "4060适合干什么"
    if "role" in attrs and names_gpu and not names_model and not has_checks and not has_selection \
            and not _CASE.search(q):  # "l4 功耗才 72w 这种卡设计出来是干嘛用的"
        return Intent("spec", attributes=attrs)
    if not (domain.covers(q) or names_gpu or names_model or names_unknown):
        return Intent("not_covered")
    if not (has_checks or has_selection or attrs or asked or names_model or names_unknown) \
            and not _CASE.search(re.sub(r"(?<![a-z])cases?(?![a-z])", " ", q)) and not _ASKS_WHY.search(q) \
            and not derived_ask(q) and not wants_pick and domain.foreign(q):
        return Intent("not_covered")  # "买了张4070ti 快递盒压坏了 怎么找快递理赔": a card, and words the guide never
        # uses (a mechanism asked in such words is still a why: the engine reads mechanisms after this)
    if _DONE.search(q) and not _OURS.search(q):  # "how many GPUs did Meta use": what someone did is a case
        return Intent("case", attributes=attrs)
    if has_selection and (re.search(r"案例|(?<![a-z])case(?: study)?(?![a-z])", q) or _CASE_BY_SECTION.search(q)):
        return Intent("case", attributes=attrs)  # "内容生成平台那个案例 要是原来一年成本五百万": the case, not a pick
    if has_selection:
        return Intent("selection", wants_speed=speed, wants_cost=cost)
    if has_checks and speed:
        return Intent("speed", wants_speed=True, wants_cost=cost)
    if has_checks and cost:
        return Intent("cost", wants_cost=True, how_many=how_many)
    if has_checks:
        return Intent("fit", wants_speed=speed, wants_cost=cost, how_many=how_many)
    if names_gpu and attrs and not _WHY.search(q) and not (_CASE.search(q) and "price" in attrs) \
            and not _NAMED_CASE.search(q):  # (a figure asked of a card inside a case named outright: the case)
        return Intent("spec", attributes=attrs)
    if _about_a_case(q, wants_pick) and (not names_gpu or "price" in attrs or _NAMED_CASE.search(q)):
        return Intent("case", attributes=attrs)
    if names_gpu and not names_model and not names_unknown and not attrs and not _ASKS_WHY.search(q) \
            and not _CASE.search(q) and not derived_ask(q) and not domain.topical(q) and not asks_long_runs(q):
        return Intent("not_covered")  # "4090 温度 85 度正常吗", "best monitor for a 4090": the card, nothing else
    if _WHY.search(q):
        topics = [a for a in why_topics(q) if a not in attrs] if names_gpu else []
        if names_gpu and not topics and not attrs and not names_model and _ASKS_WHY.search(q) \
                and _JUDGED.search(q) and not _CASE.search(q) and not re.search(r"几|哪|which|what", q):
            topics = _workload_figures(q)  # "why is the h20 bad for training": what the card is, and its figures
        return Intent("why", attributes=attrs + topics)
    if names_gpu and attrs:
        return Intent("spec", attributes=attrs)
    if _about_a_case(q, wants_pick):
        return Intent("case")
    if names_gpu == 1 and not names_model and not attrs and not has_checks \
            and len(_FUNCTION.sub("", _NAMES.sub(" ", q))) < 2:
        return Intent("spec", attributes=["role", *KEY_FIGURES])  # "h100?", "h20 是什么": the card itself
    return Intent("general", attributes=attrs)

