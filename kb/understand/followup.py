"""Follow-ups: a turn of a conversation read against the Query the conversation has built so far.

A follow-up ("那训练呢", "换成 L40S 呢", "what about 4 cards?", "上下文翻倍", "不对，是 32B") inherits every
slot it does not mention; a value it names replaces the old one; relative changes are computed from the
old value; a new workload drops what only the old one had. A turn that names its own subject and opens
like a new question stands alone, and "新问题 / new question / reset" starts over. State is built from the
user's turns and kb's structured state only, never from kb's prose.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

from kb.fit.gpus import card_family
from kb.fit.request import DEFAULT_SEQ
from kb.understand.intent import about_a_case, names_a_case
from kb.understand.numerals import to_int
from kb.understand.people import PEOPLE_EN, PEOPLE_ZH, REQUESTS_EN, REQUESTS_ZH, either
from kb.understand.query import Query

_RESET = re.compile(r"^\s*(?:新问题|新的问题|重新开始|重新问|换个问题|换个话题|另一个问题|另外一个问题|"
                    r"另(?:起|开|提)(?:一个|个)?(?:新)?(?:问题|话题)|再问个别的|问个别的|new question|"
                    r"reset|start over|another question|new topic|different (?:topic|question|q)|new q|unrelated|"
                    # a side question stands on its own: "side q: …", "顺便问一下：…", "题外话，…"
                    r"side (?:q|question)|quick side (?:q|question)|(?:顺便|另外|再)问(?:一下|一句|个问题|个)?|题外话|"
                    r"插一句|插个问题|"
                    r"unrelated(?:ly)?|on another note|btw,? (?:unrelated|different))"
                    r"\s*[:：,，。.!！-]*\s*", re.IGNORECASE)
# "forget that. 7b on a 4060?", "算了，4060 跑 7b 呢": a fresh question when it names its own model or card,
# a change of the earlier one when it does not ("算了，还是用 int8 吧").
_SOFT_RESET = re.compile(r"^\W*(?:forget (?:that|it|about (?:that|it))|never ?mind|nvm|算了|不问这个了)\b",
                         re.IGNORECASE)
_OPENER = re.compile(
    r"^\s*(?:(?:oops|whoops|hmm+|ah|oh|ok(?:ay)?|fine|alright|right|cool|哦|啊|嗯|额|呃|好的?|行)\s*[,，!！.。]*\s*)?"
    r"(?:那么?|如果|要是|假如|换成|改成|换|改为|改用|用|再|还有|同样|同上|那如果|其他不变|"
    r"what about|how about|and\b|what if|instead|same\b|then\b|ok,? and|also\b|now\b|with\b|if\b|but\b|"
    r"keep(?:ing)? (?:the|it|that|everything)\b|(?:显?卡|gpus?|cards?)\s*(?:不变|不换|照旧|一样|没变)|"
    r"还是(?:这|那)张卡|"
    r"同一张卡|(?:the )?same (?:card|gpu|box|rig)s?\b|沿用|"
    # "go up to an 8-card box", "scale out to 16 gpus", "升到 8 卡": the earlier subject, resized
    r"(?:go(?:ing)?|bump(?:ed)?|step|scale|move|upgrade|drop|come) (?:it |things )?(?:up |down |out )?to\b|"
    r"(?:升|加|扩|降|减|涨)到|"
    r"swap (?:the|it|to|in|out)\b|switch (?:the|it|to)\b|change (?:the|it|to)\b|make it\b|不\s+是|"
    r"不对|不是|错了|我是说|我说的是|我?(?:打|写|说|搞|记|弄)错|口误|no\b|nope|i meant|i mean\b|wrong\b|"
    r"actually|sorry|wait|my bad|typo|correction|i misremembered|scratch that|"
    # "模型换成 llama4 scout", "卡改成 h100": a slot named, then changed
    r"(?:模型|卡|显卡|精度|上下文|并发|gpu|card|model)\s*(?:换成|改成|改为|换|改用))"
    r"|呢\s*[，,]?\s*(?:还是|仍然|仍|依旧|也是)"
    r"|(?:呢|如何|怎么样|行吗|可以吗)\s*[？?。!！]*\s*$|\binstead\b|\bthe same\b|\bthen\s*[?？.!]*\s*$"
    # a turn that points back at the earlier subject: "could it do a full fine-tune too?", "它能训练吗"
    # "卡和精度不变 换成 gemma2 9b", "keep the card and precision": the slots named are the earlier ones
    r"|(?:显?卡|模型|精度|上下文|并发|其他|其余|别的)(?:\s*[和、,，与及跟]\s*(?:显?卡|模型|精度|上下文|并发))*"
    r"\s*(?:都|也)?(?:不变|不换|照旧|一样|没变|保持)"
    r"|\b(?:could|can|would|will|does|is) (?:it|they|that)\b|\btoo\s*[?？.]*\s*$|它|这个模型|这张卡"
    r"|\b(?:tune|train|serve|run|fit|host|quantize|load|give|put) (?:it|them|that model)\b|\balso\b.{0,30}\bit\b"
    r"|\bon (?:it|that|them|this|those|the same (?:card|gpus?|box))\s*[?？.!]*\s*$|在它上面|用它|同一张卡|这台机器"
    r"|\b(?:fine[\s-]?tune|finetune|q?lora)\w*(?:-\w+)? (?:it|them)\b|\bthat same\b|\bthe same (?:card|gpu|box|rig)\b",
    re.IGNORECASE)
_DOUBLE = r"(?:翻倍|翻一倍|翻个倍|翻了一倍|翻一番|加倍|(?:多|增加|涨|增长)了?一倍|double[ds]?|twice|2x|×\s*2)"
# (a number glued to letters is a name: "mi300x" is not ×300)
_TIMES = re.compile(r"(?:改成|变成|扩大|增加到|乘以|翻)?\s*(?<![a-z0-9.])"
                    r"(\d+|[三四五六七八九十]|three|four|five|six|eight|ten)\s*"
                    r"(?:倍|x\b|times)|(?:[x×*]|乘以?|multiplied by)\s*(\d+|[三四五六七八九十])(?![0-9a-z])|"
                    r"\b(tripl|quadrupl)e[ds]?\b", re.IGNORECASE)  # ("人数乘3": ×3)
_TOKENS = r"(?:tokens?|数据量|训练数据|语料|数据|data(?:set)?|corpus)"
_HALF = r"(?:减半|一半|halve[ds]?|half)"
_QUARTER = r"(?:四分之一|1/4|quarter(?:ed|s)?|a fourth)"
_QUADRUPLE = r"(?:翻两番|翻了两番)"
_MONEY = r"(?:预算|经费|钱|budget|money|cash|spend)"
_CONTEXT = r"(?:上下文|context|序列|seq|ctx)"
_USERS = rf"(?:并发|人数|人|{PEOPLE_ZH}|{REQUESTS_ZH}|concurrency|{either(PEOPLE_EN, REQUESTS_EN)})"
# "4070ti的数量再翻一番": the cards' number; "if the h800s were doubled": the cards by their name, in the plural
_CARDS = r"(?:卡|显卡|gpus?|cards?|张数|(?<!用户)(?<!人)数量|(?<![a-z0-9])[a-z]{0,3}\d{2,4}(?:[a-z]{1,3})?s(?![a-z]))"
_N_ZH = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
_N_EN = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_N = rf"(\d+|[{''.join(_N_ZH)}])"
_N_WORD = rf"(\d+|{'|'.join(_N_EN)})"
# "多加两张", "再加 2 张卡", "two more cards", "add 2 gpus", "another card", "one more"; "少一张", "one fewer card".
_MORE = re.compile(rf"(?:多加|再加|再补|补|加|增加|(?<![最至])多)\s*{_N}\s*(?:张|块)\s*{_CARDS}?|"
                   rf"(?:多加|再加|再补)\s*{_N}\s*{_CARDS}|"
                   rf"\b{_N_WORD} more {_CARDS}|\badd {_N_WORD} (?:more )?{_CARDS}|\b(?:another|a second) {_CARDS}|"
                   rf"\b(?:another|a second)\s+(?:rtx\s*)?[a-z]{{0,3}}\d{{2,4}}[a-z]*\b|"  # "add a second h800"
                   # "a second identical card", "one more of the same", "再买一张一样的"
                   rf"\b(?:another|a second|{_N_WORD} more)\s+(?:identical|matching|same)\s+{_CARDS}|"
                   rf"\b{_N_WORD} more of (?:the same|those|them|it)\b|"
                   rf"(?:再|多)(?:买|加|来)\s*{_N}\s*(?:张|块)\s*(?:一样|相同|同样)的|"
                   rf"\b{_N_WORD} more (?:rtx\s*)?[a-z]{{0,3}}\d{{2,4}}[a-z]*\b|"  # "one more 4090", "2 more h100"
                   rf"(?:加|添|补)\s*第二张|"
                   rf"^\W*(?:and\s+|just\s+|maybe\s+)?{_N_WORD} more\W*$|(?:再来|再多|多来|再上)\s*{_N}\s*(?:张|块)",
                   re.IGNORECASE)
_MORE_USERS = re.compile(rf"(?:再加|多加|加上?|增加|再来|多来)\s*{_N}\s*(?:个|名|位)?\s*(?:人|{PEOPLE_ZH}|并发)|"
                         rf"(?:人|{PEOPLE_ZH}|并发)(?:数)?\s*再多\s*{_N}\s*(?:个|名|位|路)|"  # "用户再多20个"
                         rf"\b{_N_WORD} more (?:{PEOPLE_EN}|{REQUESTS_EN})|"
                         rf"\badd(?:ing)? {_N_WORD} (?:more )?(?:{PEOPLE_EN}|{REQUESTS_EN})", re.IGNORECASE)
_LESS = re.compile(rf"(?:少|减)\s*{_N}\s*(?:张|块)\s*{_CARDS}?|\b{_N_WORD} (?:less|fewer) {_CARDS}", re.IGNORECASE)
# A turn that sets another card beside the earlier one, not in its place.
_VERSUS_TURN = re.compile(r"compare|(?<![a-z])vs\.?(?![a-z])|versus|against|side by side|对比|比较|相比|比一比|比一下|"
                          r"(?<![a-z])than(?![a-z])|(?<![对相])比\s*(?:它|这张|那张)?\s*[a-z]{0,4}\s*\d{2,4}",
                          re.IGNORECASE)
# The card before a swap and the one now, set against each other ("换成l40s" then "差多少", "how much faster?").
_AGAINST_EARLIER = re.compile(r"差多少|差几倍|差距|快多少|慢多少|快几倍|慢几倍|哪个(?:更)?(?:好|快|强|划算|合适)|"
                              r"(?:对比|比较|比)一下|比一比|how much (?:faster|slower|better|quicker)|"
                              r"which (?:is|one'?s?|one is) (?:faster|better|quicker)|compare (?:them|the two|both)|"
                              r"(?:the )?difference|side by side|vs\.? (?:the )?(?:earlier|first|previous|other) one",
                              re.IGNORECASE)
# Who a case question points back at: "they", "their", "这家公司", "那个团队".
_THEY = re.compile(r"(?<![a-z])(?:they|them|their|it|its)(?![a-z])|他们|她们|它们|它|这个案例|那个案例|这家|那家|"
                   r"该公司|这个团队|那个团队|这个公司|那个公司", re.IGNORECASE)
# The earlier cards pointed at: "这些卡", "这批 4080", "those cards", "them".
_THESE = re.compile(r"这些|这批|那些|这几张|those|these|(?<![a-z])them(?![a-z])", re.IGNORECASE)
# A format said with a rate word is that format's figure ("4090 的 fp32 算力"), not a precision to run in.
_RATE = re.compile(r"算力|性能|t?flops|tops|throughput|performance", re.IGNORECASE)
# Words anywhere in a turn that point back at what was being sized ("dropping it on an l4", "放 l4 上呢").
_POINTS_BACK = re.compile(r"what about|how about|instead|\b(?:it|them|that|those)\b|呢|换|改|挪|放到", re.IGNORECASE)
_SHORT_ZH, _SHORT_EN = 14, 6  # characters / words: shorter turns are read as follow-ups when they hold slots

# Slot names as `carried` / `changed` report them (contracts.md).
_BARE_WAN = re.compile(r"(?<![0-9.])(\d+(?:\.\d+)?)\s*(?:万|w)(?!\s*(?:token|tok|字|人|用户|亿|条|个|小时))",
                       re.IGNORECASE)
_SIZE_ONLY = re.compile(r"(?<![0-9a-z.])(\d{2,3})\s*g(?:i?b)?(?![0-9a-z])", re.IGNORECASE)  # "80g的", "the 40GB one"
# A bare "16k" in a turn about a served context ("what if we go to 16k", "换到32k呢"): that context, not 16,000 of
# anything else (users, tokens a second, money are said with their word).
_BARE_K = re.compile(r"(?<![0-9a-z.$¥])(\d{1,3})\s*k(?![0-9a-z])(?!\s*(?:users?|people|人|用户|并发|tok|token|元|块|"
                     r"rmb|cny|usd|dollars?|budget|预算|/s|每秒|concurren|seqs?|sequences?|sessions?|requests?))",
                     re.IGNORECASE)


def _sibling(gpu: str, size: str, ids: tuple[str, ...]) -> str | None:
    """The record of the same card with another memory size (a100-80gb → a100-40gb), if there is one."""
    base = card_family(gpu)
    return next((i for i in ids if re.fullmatch(rf"{re.escape(base)}-{size}gb", i)), None)


def _family_size(prior: str, size: str, text: str = "") -> str:
    """'不对，是 14b 的' after Qwen2.5-32B is Qwen2.5-14B: a bare size keeps the earlier model's family where that
    family has a preset of the size (else the size alone is checked, as said); '是 30b a3b 那个' after
    Qwen3-235B-A22B is the family's MoE of that total and active size."""
    if not re.fullmatch(r"\d+(?:\.\d+)?b", size):
        return size
    from kb.fit.presets import PRESETS

    family = re.sub(r"-\d+(?:\.\d+)?b(?:-a\d+(?:\.\d+)?b)?$", "", prior)
    if moe := re.search(rf"(?<![\d.]){re.escape(size[:-1])}\s*b[\s-]*a\s*(\d+(?:\.\d+)?)\s*b", text, re.IGNORECASE):
        return next((p for p in (f"{family}-{size}-a{moe.group(1)}b",) if p in PRESETS), size)
    sibling = f"{family}-{size}"
    return sibling if sibling in PRESETS else size  # ("oops, 70b int8": the same model, said by its size)


# what a card is asked, not a precision
_CARD_FIGURES = {"price", "power", "vram", "bandwidth", "nvlink", "pcie", "mig", "tensor_cores", "memory_type",
                 "driver", "ecc"}
SLOTS = ("model", "gpu", "gpu_count", "workload", "precision", "seq_len", "concurrency", "batch", "budget_cny",
         "tokens", "zero", "attributes", "case")


@dataclass
class Turn:
    """One turn understood in its conversation."""

    query: Query
    followup: bool = False
    carried: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    before: dict[str, object] = field(default_factory=dict)  # the changed slots' earlier values
    why: bool = False  # a why asked of the conversation's cards (kb/understand/pointers.py), not a new check


def slot_values(q: Query) -> dict[str, object]:
    """A Query's slots as comparable values (None where unset)."""
    gpus = [g for g, _ in q.gpus]
    return {"model": q.model, "gpu": gpus[0] if len(gpus) == 1 else (tuple(gpus) or None),
            "gpu_count": q.gpu_count if q.gpus else q.count, "workload": tuple(q.workloads) or None,
            "precision": q.precision, "seq_len": q.seq_len, "concurrency": q.concurrency, "batch": q.batch,
            "budget_cny": q.budget_cny, "tokens": q.tokens, "zero": q.zero,
            "attributes": tuple(q.attributes) or None, "case": q.case}


_SAME_MONEY = re.compile(r"same (?:money|budget|price|amount|cash)|for that (?:money|price|budget)|that much money|"
                         r"同样的(?:钱|预算|价格)|同样多的钱|这么多钱|那么多钱|这些钱|这笔钱|同等价格|同样价钱",
                         re.IGNORECASE)


def asks_same_money(text: str) -> bool:
    """'how many 4090s for the same money': the budget is what the earlier turn's cards cost."""
    return bool(_SAME_MONEY.search(text))


def is_reset(text: str) -> tuple[bool, str]:
    """Whether a turn starts over, and the turn without its reset words."""
    m = _RESET.match(text)
    return (True, text[m.end():]) if m else (False, text)


def _short(text: str) -> bool:
    if re.search(r"[\u4e00-\u9fff]", text):
        return len(re.sub(r"\s", "", text)) <= _SHORT_ZH
    return len(text.split()) <= _SHORT_EN


def _relative(text: str, prior: Query, merged: Query, changed: set[str]) -> None:
    """'上下文翻倍', 'half the users', 'one more card': computed from the earlier value."""
    s = unicodedata.normalize("NFKC", text).lower()
    workload = (merged.workloads or ["inference"])[0]
    for scale, word in ((2.0, _DOUBLE), (0.5, _HALF), (0.25, _QUARTER), (4.0, _QUADRUPLE)):
        said = {"seq_len": rf"{_CONTEXT}.{{0,6}}{word}|{word}.{{0,12}}{_CONTEXT}",
                # (not "每个人的上下文都减半", "each user gets twice the context": a context word between the people
                # and the change, or right after the change, is the context's)
                "concurrency": rf"{_USERS}(?:(?!{_CONTEXT}).){{0,14}}{word}(?!.{{0,6}}{_CONTEXT})"
                               rf"|{word}(?:(?!{_CONTEXT}).){{0,12}}{_USERS}",
                "gpu_count": rf"{_CARDS}.{{0,6}}{word}|{word}.{{0,20}}{_CARDS}|卡数.{{0,4}}{word}",
                "tokens": rf"{_TOKENS}.{{0,6}}{word}|{word}.{{0,12}}{_TOKENS}",
                "budget_cny": rf"{_MONEY}.{{0,6}}{word}|{word}.{{0,12}}{_MONEY}"}  # "what if the budget doubles"
        held = {"seq_len": True, "concurrency": bool(prior.concurrency), "gpu_count": bool(merged.gpus),
                "tokens": bool(prior.tokens), "budget_cny": bool(prior.budget_cny)}
        for slot, pattern in said.items():
            if held[slot] and re.search(pattern, s):
                _scale(slot, scale, prior, merged, changed)
    # "double that", "翻倍": no slot named, so the last number the conversation set — its cards first
    bare = re.fullmatch(rf"\W*(?:(?:and|then|ok|now|so|那|那就)\s*)?({_DOUBLE}|{_HALF})\s*"
                        rf"(?:that|it|this|them|呢|吧)?\W*", s)
    if bare and not changed:
        scale = 0.5 if re.fullmatch(_HALF, bare.group(1)) else 2.0
        last = {"gpu_count": bool(prior.gpu_count and merged.gpus and (scale > 1 or prior.gpu_count > 1)),
                "concurrency": bool(prior.concurrency), "seq_len": bool(prior.seq_len),
                "budget_cny": bool(prior.budget_cny)}
        if target := next((k for k, v in last.items() if v), None):
            _scale(target, scale, prior, merged, changed)
    times = _TIMES.search(s)
    factor = _factor(times) if times else 0
    if factor and re.search(_CONTEXT, s) and not re.search(f"{_DOUBLE}|{_HALF}|{_QUARTER}|{_QUADRUPLE}", s):
        merged.seq_len = (prior.seq_len or DEFAULT_SEQ.get(workload, 4096)) * factor
        changed.add("seq_len")
    if factor and re.search(_USERS, s) and not re.search(_CONTEXT, s) and prior.concurrency:
        merged.concurrency = prior.concurrency * factor
        changed.add("concurrency")
    if factor and re.search(rf"{_CARDS}|卡数", s) and not re.search(f"{_CONTEXT}|{_USERS}", s) and merged.gpus \
            and "gpu_count" not in changed:  # "卡数乘4", "4x the gpus"
        merged.gpus = [(g, (c or 1) * factor) for g, c in merged.gpus]
        changed.add("gpu_count")
    # "再加30个人", "20 more users", "add 10 users": people added to those the conversation had
    if prior.concurrency and (m := _MORE_USERS.search(s)):
        merged.concurrency = prior.concurrency + (to_int(next((g for g in m.groups() if g), "")) or 0)
        changed.add("concurrency")
    step = _step(s)
    if step and merged.gpus:
        merged.gpus = [(g, max(1, (c or 1) + step)) for g, c in merged.gpus]
        changed.add("gpu_count")


def _scale(slot: str, scale: float, prior: Query, merged: Query, changed: set[str]) -> None:
    """One slot set to `scale` × its earlier value (a context not said yet: the workload's default)."""
    if slot == "seq_len":
        base = prior.seq_len or DEFAULT_SEQ.get((merged.workloads or ["inference"])[0], 4096)
        merged.seq_len = max(1, int(base * scale))
    elif slot == "concurrency":
        merged.concurrency = max(1, int((prior.concurrency or 1) * scale))
    elif slot == "gpu_count":
        merged.gpus = [(g, max(1, int((c or 1) * scale))) for g, c in merged.gpus]
    elif slot == "tokens":
        merged.tokens = (prior.tokens or 0.0) * scale
    else:
        merged.budget_cny = (prior.budget_cny or 0.0) * scale
    changed.add(slot)


def _factor(m: re.Match[str]) -> int:
    """×N from "4倍", "翻四倍", "x4", "4 times"."""
    if m.group(3):  # "triple", "quadruple"
        return 3 if m.group(3).lower() == "tripl" else 4
    return to_int(m.group(1) or m.group(2)) or 0


def _count_word(m: re.Match[str]) -> int:
    word = next((g for g in m.groups() if g), "1")
    return int(word) if word.isdigit() else _N_ZH.get(word) or _N_EN.get(word.lower(), 1)


def _step(s: str) -> int:
    """The change in cards a turn asks for: +2 for "多加两张", −1 for "one fewer card", 0 for none."""
    if m := _MORE.search(s):
        return _count_word(m)
    if m := _LESS.search(s):
        return -_count_word(m)
    return 0


def _workload_change(prior: Query, merged: Query) -> None:
    """A new workload drops what only the old one had (users for serving; tokens, ZeRO for training)."""
    new = (merged.workloads or [""])[0]
    if new != "inference":
        merged.concurrency = None
    if new == "inference":
        merged.tokens, merged.zero = None, None
    if new == "qlora" or (new in ("full", "lora") and merged.precision in ("int4", "int8", "nf4", "fp4")):
        merged.precision = None
    if prior.seq_len is None:
        merged.seq_len = None


def merge(prior: Query, new: Query, text: str, registry_ids: tuple[str, ...] = (), corrects: bool = False) -> Turn:
    """`new` read against `prior`: a follow-up inherits what it does not say, else it stands alone.
    `registry_ids` are the GPU records, for a correction that names only a size ("the 40GB one"); `corrects`: the
    turn says it corrects something ("不好意思", "my bad": the vocabulary's correction cues), so it is a follow-up."""
    reset, _ = is_reset(text)
    spoken = unicodedata.normalize("NFKC", text)
    if new.seq_len is None and new.budget_cny is None and (prior.seq_len or prior.asked in ("concurrency", "kv")) \
            and (bare := _BARE_K.search(spoken)):
        new = replace(new, seq_len=int(bare.group(1)) * 1024)
    elif new.budget_cny is None and new.seq_len is None and prior.budget_cny and not prior.seq_len:
        if wan := _BARE_WAN.search(spoken):  # "那50万呢" after a budget: that budget
            new = replace(new, budget_cny=float(wan.group(1)) * 1e4)
        elif bare := _BARE_K.search(spoken):
            # "what about with 200k" after a budget: a budget in the earlier one's currency
            usd = next((n.values for n in prior.notes if n.key == "budget_usd"), None)
            value = int(bare.group(1)) * 1000.0
            new = replace(new, budget_cny=value * float(usd["rate"]) if usd else value)
    if _SOFT_RESET.search(text) and (new.model is not None or new.gpus):
        return Turn(new)
    opener = corrects or bool(_OPENER.search(text)) or bool(_SOFT_RESET.search(text))
    # A question with its own subject: a model on a card or a workload, or a figure of a named card asked
    # after a conversation about something else.
    own_subject = not opener and ((new.model is not None and (bool(new.gpus) or bool(new.workloads)))
                                  or (bool(new.gpus) and bool([a for a in new.attributes
                                                               if a != new.precision or _RATE.search(text)])
                                      and not prior.attributes))
    # "那 a100 多少钱" after a fit question: a card's price is a question of its own, whatever the opener
    own_subject = own_subject or (new.asked == "price" and bool(new.gpus) and prior.asked != "price"
                                  and not prior.attributes)
    # "另外 聊天机器人那个案例 迁到4090后吞吐量降了多少": a case of the guide named outright is a subject of its own
    own_subject = own_subject or (names_a_case(text) and about_a_case(text) and new.model is None
                                  and (prior.case is None or new.case not in (None, prior.case)))
    # "and what did it cost them" after a question about one of the guide's cases: that case, asked again
    # (a card it names may be the case's own: "and what share went to the 4090s")
    of_the_case = not new.gpus or not (new.attributes or new.precision or new.seq_len or new.concurrency
                                       or new.workloads or new.budget_cny or new.count)
    if prior.case and not reset and new.case in (None, prior.case) and new.model is None and of_the_case \
            and not new.unknown and not own_subject and (opener or _short(text) or _THEY.search(text) is not None):
        return Turn(replace(new, case=prior.case), True, ["case"], [], {})
    if prior.case and (new.model or new.gpus):  # a model or a card after a case question: a question of its own
        return Turn(new)
    relative = bool(re.search(f"{_DOUBLE}|{_HALF}|{_QUARTER}|{_QUADRUPLE}", text, re.IGNORECASE)) \
        or bool(_MORE.search(text)) or bool(_LESS.search(text)) or bool(_TIMES.search(text)) \
        or bool(_MORE_USERS.search(text))
    fit_slots = bool(new.gpus or new.model or new.count or new.workloads or new.precision or new.seq_len
                     or new.concurrency or new.budget_cny or new.tokens)
    # "how fast?", "几张?", "延迟呢": a short turn asking a quantity of the earlier subject carries it
    asks_of_it = bool(new.asks or new.speed or new.how_many or new.latency) and prior.model is not None
    # "那每 GB 显存多少钱", "梯度同步要多久": a quantity derived from the earlier cards' figures
    derived_of_it = new.derived is not None and bool(prior.gpus)
    carries = fit_slots or asks_of_it or derived_of_it or (bool(new.attributes) and bool(prior.attributes))
    # "24 users at 4k ctx each now": values and no subject of its own, however long, are the earlier subject's
    slots_only = fit_slots and new.model is None and not new.gpus and not new.unknown_models \
        and not new.unknown_gpus and prior.model is not None
    # "nah, what about dropping it on an nvidia l4", "bump the weights to int8 on the l40s?": another card (and
    # slot values) with no model of its own and no figure of the card asked, after a model was being sized
    figures = [a for a in new.attributes if a != new.precision or _RATE.search(text)]
    slots_only = slots_only or (len(new.gpus) == 1 and new.model is None and not new.unknown
                                and prior.model is not None and new.derived is None and not figures
                                and new.asked in (None, "figure", "verdict", "count", "concurrency", "kv",
                                                  "memory", "speed", "time", "cost")
                                and (new.asked != "figure" or bool(new.precision))
                                and bool(new.precision or new.count or new.seq_len or new.concurrency
                                         or new.workloads or _POINTS_BACK.search(text)))
    # "how much would those two cost" after a fit: a figure of the earlier cards, asked of them alone
    of_the_cards = bool(new.attributes) and set(new.attributes) <= _CARD_FIGURES and not fit_slots \
        and new.model is None and not new.unknown and bool(prior.gpus) \
        and (prior.model is not None or prior.budget_cny is not None or _THESE.search(text) is not None) \
        and (not new.asks or prior.model is None) and not about_a_case(text)
    carries = carries or of_the_cards
    # "差多少" after "换成 l40s": the card before the swap beside the one now
    against_earlier = bool(prior.earlier_gpus) and bool(prior.gpus) and not new.gpus and new.model is None \
        and _AGAINST_EARLIER.search(text) is not None
    carries = carries or against_earlier
    # "kv cache 每个 token 多大" after a model on a card: a quantity of the earlier subject, however long the turn
    subjectless = asks_of_it and new.model is None and not new.gpus and not new.unknown
    if reset or not prior.slots or own_subject or not (opener or relative or subjectless
                                                       or ((_short(text) or slots_only) and carries)):
        return Turn(new)
    if of_the_cards:
        merged = replace(new, gpus=list(prior.gpus))
        before, after = slot_values(prior), slot_values(merged)
        carried = [k for k in ("gpu", "gpu_count") if after[k] is not None and after[k] == before[k]]
        changed = [k for k in SLOTS if after[k] != before[k] and after[k] is not None]
        return Turn(merged, True, carried, changed, {k: before[k] for k in changed})
    merged = replace(prior, case=None, unnamed=new.unnamed, notes=list(new.notes),
                     unknown_models=list(new.unknown_models),
                     unknown_gpus=list(new.unknown_gpus), gpus=list(prior.gpus), workloads=list(prior.workloads),
                     attributes=list(prior.attributes), count=None)
    said: set[str] = set()
    new_values = slot_values(new)
    if new.model:
        merged.model = _family_size(prior.model, new.model, text) if prior.model else new.model
        merged.also = list(new.also)
    if new.gpus:
        counts = {c for _, c in prior.gpus if c is not None}
        carry = counts.pop() if len(counts) == 1 and len(new.gpus) == 1 else None
        merged.gpus = [(g, c if c is not None else carry) for g, c in new.gpus]
        # "on the same a100" after an A100 40GB: a bare family name keeps the record the conversation had
        defaulted = {n.values.get("gpu") for n in new.notes if n.key == "default_of"}
        kept = {card_family(g): g for g, _ in prior.gpus}
        merged.gpus = [(kept.get(card_family(g), g) if g in defaulted else g, c) for g, c in merged.gpus]
        if _VERSUS_TURN.search(text) and len(prior.gpus) == 1 and prior.gpus[0][0] not in dict(merged.gpus):
            merged.gpus = [*prior.gpus, *merged.gpus]  # "compare with an l40s": set beside the earlier card
    elif new.count is not None and not relative:
        merged.gpus = [(g, new.count) for g, _ in prior.gpus]
    elif against_earlier:
        merged.gpus = [*prior.earlier_gpus, *(g for g in prior.gpus if g[0] not in dict(prior.earlier_gpus))]
    elif prior.gpus and (size := _SIZE_ONLY.search(text)):  # "no, I meant the 40GB one": the sibling record
        merged.gpus = [(_sibling(g, size.group(1), registry_ids) or g, c) for g, c in prior.gpus]
        new_values["gpu"] = slot_values(merged)["gpu"]
    if (new.count is not None or any(c is not None for _, c in new.gpus)) and not new.how_many:
        merged.how_many = False
    if new.workloads and new.workloads != prior.workloads:
        merged.workloads = list(new.workloads)
        _workload_change(prior, merged)
    for name in ("precision", "seq_len", "concurrency", "batch", "budget_cny", "tokens", "zero", "tp", "pp",
                 "max_gpus"):
        if getattr(new, name) is not None:
            setattr(merged, name, getattr(new, name))
    if new.asked and new.asked not in ("figure", "comparison", "price"):
        merged.asked = new.asked
    elif new.asks and merged.model:  # "max concurrent users at 4k?" of the model carried
        merged.asked = new.asks
    if new.attributes and not merged.model:  # "fp16" in "不是int8，是fp16" is a precision, not a spec figure
        merged.attributes = list(new.attributes)
    if new.derived is not None:
        merged.derived = new.derived
    elif new.asked or new.asks or new.attributes or new.speed or new.how_many:
        merged.derived = None  # another quantity asked: not the earlier per-GB price or sync time
    if new.asked == "cost":  # "and over a year?": the span the draw is asked for
        merged.period = new.period
    if new.speed or new.how_many or new.latency or new.wants_selection:
        merged.speed, merged.how_many, merged.latency = new.speed, new.how_many, new.latency
        merged.wants_selection = new.wants_selection or (prior.wants_selection and new.budget_cny is not None)
    said = {k for k, v in new_values.items() if v is not None and (k != "attributes" or not merged.model)}
    if against_earlier:
        said.add("gpu")
    elif prior.gpus and {g for g, _ in merged.gpus} != {g for g, _ in prior.gpus}:
        merged.earlier_gpus = list(prior.gpus)  # a swap: kept, so the next turn can ask what changed
    _relative(text, prior, merged, said)
    before, after = slot_values(prior), slot_values(merged)
    changed = [k for k in SLOTS if after[k] != before[k] and (k in said or after[k] is None or before[k] is None)]
    carried = [k for k in SLOTS if after[k] is not None and k not in said and after[k] == before[k]]
    return Turn(merged, True, carried, changed, {k: before[k] for k in changed})
