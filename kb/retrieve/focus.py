"""What a question is about, as the guide's own words: search terms from the understood Query.

People type "llama 2 13b on an a100, 32 concurrent at 4k?" — the names dominate the words, so lexical
search finds the passages about Llama and the A100 (the training cases, the spec sheet) and misses the
guide's passages on what is asked: KV caches and batching, inference memory, decode speed. The Query
already knows what is asked and for which workload; this turns that into the guide's vocabulary, added to
the BM25 query at a lower weight than the words typed (`kb.retrieve.search.FOCUS_WEIGHT`). The terms are the
guide's headings' and glossary's words for each kind of question, not words of any evaluation question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.understand.intent import about_a_case
from kb.understand.query import Query

FRAMING = frozenset({"1", "12", "13"})  # the guide's chapters: introduction, outlook, conclusion
_FRAMING_ASKED = re.compile(r"未来|趋势|展望|前景|总结|结论|总的来说|引言|概述|为什么.{0,6}(?:重要|关键)|"
                            r"future|trend|outlook|conclu|summar|overview|introduc|why does .{0,20}matter|"
                            r"next generation|下一代", re.IGNORECASE)


@dataclass(frozen=True)
class Focus:
    """What search should lean towards: the guide's words for the asked quantity, and whether the guide's
    framing chapters (introduction, outlook, conclusion) are what the question is about."""

    terms: tuple[str, ...] = ()
    framing: bool = True  # False: the framing chapters yield to a passage that is about the question
    words: tuple[str, ...] = ()  # for the lexical side only: the cases' words for who a case question is about


def asks_framing(question: str) -> bool:
    """Whether a question is about the guide's outlook, conclusion or overview (so its framing applies)."""
    return bool(_FRAMING_ASKED.search(question))


# Who a case question is about, in the words people use → the cases' own words ("创业公司" finds "初创公司").
_CASE_SUBJECTS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(p, re.IGNORECASE), words) for p, words in (
        (r"创业|初创|startup|start-up", ("初创公司", "混合云")),
        (r"大学|高校|学校|universit|college", ("大学",)),  # the university team (§9.1) ...
        (r"学术|academ|student|学生", ("学术研究",)),  # ... or academia's hybrid strategy (§6.4), whichever is named
        (r"(?<![a-z])team(?![a-z])|团队|课题组", ("团队",)),
        (r"实验室|研究机构|研究所|\blab\b|research (?:lab|institut)", ("研究实验室", "研究机构")),
        (r"金融|fintech|bank|银行|证券|保险", ("金融科技公司",)),
        (r"医院|医疗|影像|hospital|medical|clinic|诊所", ("医疗影像", "医院")),
        (r"工厂|制造|产线|factory|manufactur|产线", ("智能制造", "工厂")),
        (r"聊天机器人|客服|chatbot|customer service", ("聊天机器人", "推理服务")),
        (r"内容生成|创作者|content (?:platform|generation)|creator", ("内容生成平台",)),
        (r"边缘|edge", ("边缘推理",)),
        (r"开源模型|开源训练|open[- ]?(?:source|model|weights?)|405b|(?<![a-z])meta(?![a-z])", ("开源模型训练",)),
        (r"混用|混合|搭配|hybrid|mix(?:ed|ing)?\b|combin", ("混合策略",)),
    ))


# A card kb has no record of → the guide's words for its maker's chips (§10.2 other makers, §10.3 dedicated
# accelerators, §10.1 NVIDIA's data-centre line, §4.1 the GeForce line), so search finds what the guide says of them.
_MAKERS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(p, re.IGNORECASE), words) for p, words in (
        (r"mi\d|radeon|rx|w\d{4}|[5-9]\d00\s*(?:xtx|xt|gre)|amd|gaudi|intel|arc|昇腾|ascend|huawei|华为|寒武纪|cambricon|昆仑|kunlun|海光|"
         r"hygon|摩尔线程|沐曦|曦云|壁仞|燧原|云燧|思元|siyuan|太初|tecorigin|(?<!预)(?<!计)算能|sophgo|mlu|dcu|tpu|trainium|aws|"
         r"google", ("其他厂商的AI芯片发展",)),
        (r"cerebras|groq|graphcore|jetson|orin|npu|inferentia|含光|hanguang|平头哥|瀚博|vastai|登临|denglin",
         ("专用AI加速器", "推理专用加速器", "边缘AI加速器")),
        (r"(?:rtx|gtx)?\s*[1-3]0[5-9]0|laptop|笔记本|移动版", ("RTX系列的演变与定位",)),
        (r"[vtpakhlbg]\d|a\d{4}|nvl|gb\d|dgx|ada|blackwell|rtx pro", ("NVIDIA新一代GPU", "数据中心GPU")),
    ))


_ONE_PERSON = re.compile(r"个人开发|独立开发|自己玩|solo|indie|hobby|personal|individual|side project|home ?lab|"
                         r"at home|在家", re.IGNORECASE)


def maker_terms(unknown_gpus: list[str]) -> list[str]:
    """The guide's words for the makers of cards kb has no record of (the first family that matches each)."""
    out: list[str] = []
    for name in unknown_gpus:
        out += next((words for pattern, words in _MAKERS if pattern.search(name)), ())
    return list(dict.fromkeys(out))


def case_terms(question: str) -> list[str]:
    """The cases' own words for who a case question is about."""
    return [w for pattern, words in _CASE_SUBJECTS if pattern.search(question) for w in words]


def focus_of(question: str, query: Query) -> Focus:
    """The Focus of a question as read: the framing chapters yield only to a question with something concrete
    to look up (a model, a workload, an asked quantity, a setting) that is not about the framing itself; cards
    alone are not enough ("when is the 4090 the better choice?" is what the conclusion answers)."""
    concrete = bool(query.model or query.workloads or query.precision or query.seq_len or query.concurrency
                    or query.budget_cny or query.asked or query.unknown)
    words = tuple(case_terms(question)) if about_a_case(question) else ()
    words += tuple(maker_terms(query.unknown_gpus))
    if _ONE_PERSON.search(question):  # "solo dev, which card": §11.4's lines for individual developers
        words += ("个人开发者",)
    return Focus(tuple(focus_terms(query)), asks_framing(question) or not concrete, words)

# What is asked → the guide's words for it.
_ASKED: dict[str, tuple[str, ...]] = {
    "concurrency": ("并发", "KV缓存", "批处理", "推理场景"),
    "kv": ("KV缓存", "上下文", "显存占用"),
    "speed": ("推理性能", "吞吐量", "内存带宽", "延迟"),
    "pick": ("预算", "选择策略", "最佳实践"),
    "cost": ("成本", "投资回报"),
    "time": ("训练时间",),
}
# The workload → its words, for the questions whose answer depends on it (a verdict, a count, a total).
_WORKLOAD: dict[str, tuple[str, ...]] = {
    "inference": ("推理", "模型规模", "显存需求"),
    "full": ("训练", "显存需求", "混合精度", "优化器"),
    "fine-tune": ("微调", "显存需求"),
    "lora": ("微调", "LoRA", "显存需求"),
    "qlora": ("微调", "量化", "显存需求"),
}
_BY_WORKLOAD = {"verdict", "count", "memory", None}


def focus_terms(query: Query) -> list[str]:
    """The guide's words for what `query` asks (empty when it asks for a named figure or nothing known)."""
    if query.asked in ("figure", "comparison", "price"):
        return []  # a card's own figure: its spec sheet and the guide's spec sections, found by name
    terms = list(_ASKED.get(query.asked or "", ()))
    if query.speed:
        terms.extend(_ASKED["speed"])
    if query.concurrency:
        terms.extend(_ASKED["concurrency"])
    if query.budget_cny:
        terms.extend(_ASKED["pick"])
    # A model with no workload said is served (the fit engine's default too).
    workload = query.workloads[0] if query.workloads else "inference" if query.model else None
    if query.asked in _BY_WORKLOAD and workload:
        terms.extend(_WORKLOAD.get(workload, ()))
    return list(dict.fromkeys(terms))


def asked_sections(q: Query) -> frozenset[str]:
    """The guide's own section on what a question asks, for search to put beside the named cards' sheets: KV caches
    and concurrency (§7.3), decode speed (§7.1), what fits for inference (§7.2), training performance and time
    (§6.1, §6.2), budgets (§11.3), picks for one person (§11.4) or a setting (§11.2). Only for a model sized, a
    budget spent or a pick asked: a card's figure is its sheet's."""
    workload = (q.workloads or ["inference"])[0]
    if q.asked in ("kv", "concurrency", "context"):
        return frozenset({"guide-7.3"})
    if q.individual and q.budget_cny is None and not q.gpus and (q.wants_selection or q.unknown_gpus):
        return frozenset({"guide-11.4"})  # "student, small budget, which card": §11.4, advice for individuals
    if q.setting and q.wants_selection and q.model is None and q.budget_cny is None:
        return frozenset({"guide-11.2"})  # "an edge box / a realtime chatbot, which card": §11.2's settings
    if q.model is None:
        return frozenset({"guide-11.3"}) if q.budget_cny is not None and q.wants_selection else frozenset()
    if q.budget_cny is not None and q.wants_selection:
        return frozenset({"guide-11.3"})
    if workload == "inference":
        return frozenset({"guide-7.1"}) if q.speed or q.asked == "speed" else frozenset({"guide-7.2"})
    if q.asked == "time":
        return frozenset({"guide-6.2", "guide-6.1"})
    return frozenset({"guide-6.1"})
