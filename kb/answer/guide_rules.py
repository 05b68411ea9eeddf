"""The guide's own selection rules (§11.1–11.4), found in its chunks and shown in the question's language.

A pick kb computes (kb.fit.select) answers "which card fits"; these say what the guide itself would buy for
a budget band, a kind of user or a setting, so an answer can set the two side by side.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from indexer.chunks import Chunk
from kb.answer.facts import aligned
from kb.language import Language
from kb.understand.audience import asks_driver_focus, asks_long_runs, for_an_individual, setting_of

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


_LEVELS = (("入门级", r"入门|新手|学习|entry[- ]level|beginner|learning|starter|hobby|getting into|just start"),
           ("专业应用", r"专业|pro(?:fessional)?\b|paid|client|接活|不差钱|serious|freelanc"))


def audience_rule(parts: list[Chunk], question: str, language: Language) -> tuple[Chunk, str] | None:
    """§11.4's advice for individual developers at the level the question says (entry-level, professional)."""
    if not for_an_individual(question):
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


# The size of the models a setting serves, said without a model: "模型都不大", "small models" (§11.2's lines).
_MODEL_SIZES = (("小规模模型", r"模型(?:都|也)?(?:不大|较小|比较小|很小|偏小)|小模型|small(?:er|ish)? models?|"
                              r"models? (?:are|is) (?:all )?small"),
                ("大规模模型", r"模型(?:都|也)?(?:很大|较大|比较大|偏大)|大模型(?:为主)|big models?|large models?|"
                              r"models? (?:are|is) (?:all )?(?:big|large)"))


def setting_rule(parts: list[Chunk], question: str, language: Language) -> tuple[Chunk, str, str] | None:
    """§11.2's recommended configuration for the setting the question names (an edge box, a chatbot), with the
    setting's name as the guide writes it."""
    heading = setting_of(question)
    if heading is None:
        return None
    return _line_under(parts, language, lambda zh: zh.startswith(heading), lambda zh: "推荐配置" in zh)


def _starts(prefix: str) -> Callable[[str], bool]:
    """A line (judged on the Chinese) that begins with `prefix`, after any list dash."""
    return lambda zh: zh.lstrip("- ").startswith(prefix)


def _holds(words: tuple[str, ...]) -> Callable[[str], bool]:
    """A line (judged on the Chinese) that holds every one of `words`."""
    return lambda zh: all(w in zh for w in words)


def model_size_rule(parts: list[Chunk], question: str, language: Language) -> tuple[Chunk, str, str] | None:
    """Within the question's §11.2 setting, the guide's line for the size of model it says it serves ("模型都不大":
    "小规模模型：RTX 4090通常是最佳选择"), when it says one and the setting has such a line."""
    heading = setting_of(question)
    size = next((h for h, p in _MODEL_SIZES if re.search(p, question, re.IGNORECASE)), None)
    if heading is None or size is None:
        return None
    return _line_under(parts, language, lambda zh: zh.startswith(heading), _starts(size))


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


def rules_by_size(parts_11_1: list[Chunk], parts_11_2: list[Chunk], training: bool,
                  language: Language) -> list[tuple[Chunk, str, str]]:
    """A pick with nothing to size (no model, no budget, no setting): the guide's picks by model size — §11.1's
    first choice for each training scale, or §11.2's lines for small and large models served."""
    if training:
        found = [_line_under(parts_11_1, language, _starts(h), lambda zh: "首选" in zh) for _, h in reversed(_SCALES)]
    else:
        heading = "高并发企业级推理服务"
        found = [_line_under(parts_11_2, language, _starts(heading), _starts(size)) for size, _ in _MODEL_SIZES]
    return [f for f in found if f]


# A reason asked → the guide's lines that give it: (section group, words its Chinese line holds).
_REASONS: tuple[tuple[Callable[[str], bool], tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    # (what has ECC, then what lacks it)
    (asks_long_runs, (("guide-3.3", ("ECC", "长时间")), ("guide-4.4", ("ECC", "长时间")))),
    (asks_driver_focus, (("guide-4.4", ("驱动",)),)),
)


def reason_lines(question: str, groups: dict[str, list[Chunk]], language: Language) -> list[tuple[Chunk, str]]:
    """The guide's own lines for the reason a question asks about (a week-long run: ECC; drivers: what they are
    tuned for), as shown in `language`."""
    out: list[tuple[Chunk, str]] = []
    for asks, lines in _REASONS:
        if not asks(question):
            continue
        for group, words in lines:
            found = _line_under(groups.get(group, []), language, lambda zh: True, _holds(words))
            if found and found[:2] not in out:
                out.append(found[:2])
    return out
