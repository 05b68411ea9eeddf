"""The guide's own selection rules (§11.1–11.4), found in its chunks and shown in the question's language.

A pick kb computes (kb.fit.select) answers "which card fits"; these say what the guide itself would buy for
a budget band, a kind of user or a setting, so an answer can set the two side by side.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexer.chunks import Chunk
from kb.facts import aligned
from kb.language import Language

_BAND = re.compile(r"预算\s*([<>＜＞])?\s*(\d+)(?:\s*-\s*(\d+))?\s*万元")


def budget_rule(parts: list[Chunk], budget_cny: float, language: Language) -> tuple[Chunk, str] | None:
    """The §11.3 budget band that holds `budget_cny`, and its recommended configuration, as the guide words it."""
    wan = budget_cny / 1e4
    for chunk in parts:
        lines = aligned(chunk, language)
        for i, (zh, shown) in enumerate(lines):
            m = _BAND.search(zh)
            if not m:
                continue
            sign, lo, hi = m.group(1), float(m.group(2)), float(m.group(3) or m.group(2))
            inside = (wan < lo) if sign in ("<", "＜") else (wan > lo) if sign in (">", "＞") else lo <= wan <= hi
            rest = [shown for _, shown in lines[i + 1:] if shown.strip()]
            if inside and rest:
                rule = rest[0].lstrip("- ").strip()
                return chunk, f"{shown.strip().rstrip(':：')}: {rule}" if language == "en" else \
                    f"{shown.strip().rstrip(':：')}，{rule}"
    return None


# Who a selection is for, in the question → the guide's §11.4 line for them ("对于入门级应用，RTX 4070或4080…").
_AUDIENCE = re.compile(r"(?<![\d一二三四五六七八九十两几多百千万])个人(?!用)|"  # (not "10个人用": ten people)
                       r"自己|solo|indie|hobby|personal|individual|side project|home ?lab|入门|新手|学习|"
                       r"entry[- ]level|beginner|learning|starter|freelanc|自由职业|接活|独立开发", re.IGNORECASE)
_LEVELS = (("入门级", r"入门|新手|学习|entry[- ]level|beginner|learning|starter|hobby|getting into|just start"),
           ("专业应用", r"专业|pro(?:fessional)?\b|paid|client|接活|不差钱|serious|freelanc"))


def for_an_individual(question: str) -> bool:
    """Whether a pick is for one person (a solo developer, a freelancer, a learner): §11.4's audience."""
    return bool(_AUDIENCE.search(question))


def audience_rule(parts: list[Chunk], question: str, language: Language) -> tuple[Chunk, str] | None:
    """§11.4's advice for individual developers at the level the question says (entry-level, professional)."""
    if not _AUDIENCE.search(question):
        return None
    # (the professional words win over "getting into": "a pro getting into local llms" is a professional)
    level = next((zh for zh, p in reversed(_LEVELS) if re.search(p, question, re.IGNORECASE)), "入门级")
    found = _line_under(parts, language, lambda zh: "个人开发者" in zh, lambda zh: level in zh)
    return found[:2] if found else None


def _line_under(parts: list[Chunk], language: Language, block: Callable[[str], bool],
                line: Callable[[str], bool]) -> tuple[Chunk, str, str] | None:
    """The first line `line` accepts below the first line `block` accepts (both judged on the Chinese), as shown
    in `language`, with that block's own line: a rule inside one of §11's blocks."""
    for chunk in parts:
        lines = aligned(chunk, language)
        start = next((i for i, (zh, _) in enumerate(lines) if block(zh)), None)
        if start is None:
            continue
        for zh, shown in lines[start + 1:]:
            if line(zh):
                return chunk, shown.lstrip("- ").strip(), lines[start][1].strip().rstrip(":：")
    return None


# The setting a pick is for, in the question → the heading of its §11.2 block ("边缘部署和特殊环境：").
_SETTINGS = (("边缘部署", r"边缘|edge|kiosk|盒子|工控|嵌入式|embedded|产线|production line|诊所|clinic|门店|"
                         r"low[\s-]power|低功耗|功耗越低"),
             ("实时交互式应用", r"实时|real[\s-]?time|chat\s?bot|聊天机器人|interactive|交互式|客服|customer service"))


def setting_of(question: str) -> str | None:
    """The §11.2 setting a pick is for ("边缘部署", "实时交互式应用"), if the question names one."""
    return next((h for h, p in _SETTINGS if re.search(p, question, re.IGNORECASE)), None)


def setting_rule(parts: list[Chunk], question: str, language: Language) -> tuple[Chunk, str, str] | None:
    """§11.2's recommended configuration for the setting the question names (an edge box, a chatbot), with the
    setting's name as the guide writes it."""
    heading = setting_of(question)
    if heading is None:
        return None
    return _line_under(parts, language, lambda zh: zh.startswith(heading), lambda zh: "推荐配置" in zh)


# §11.1's blocks by the size of the model trained (their headings as the guide writes them), and fine-tuning.
_SCALES = ((70e9, "超大规模模型训练"), (10e9, "大规模模型训练"), (0.0, "中小规模模型训练"))


def scale_rule(parts: list[Chunk], params: float, workload: str, language: Language) -> tuple[Chunk, str, str] | None:
    """§11.1's first choice for training a model of `params` parameters (a LoRA or QLoRA fine-tune: the
    fine-tuning block), with the block's heading as the guide writes it."""
    if workload in ("lora", "qlora"):
        heading = "模型微调和实验"
    else:
        heading = next(h for floor, h in _SCALES if params > floor or floor == 0.0)
    return _line_under(parts, language, lambda zh: zh.startswith(heading), lambda zh: "首选" in zh)
