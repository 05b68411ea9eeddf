"""Question understanding: what a fit check needs, read from a Chinese or English question.

Regular expressions only (no tokenizer): a question is short, and this runs on every `kb ask`.
Each thing found removes its text, so "2万亿token" is not also read as a model size, and
"A100 80G" is not also read as 80 cards. Whatever the parser had to decide is said in `notes`,
in the language asked for (the parser itself reads both languages either way).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from kb.fit.notes import Note, note
from kb.fit.numbers import CN_NUMERAL, EN_NUMBER_WORD, NUM, amount, to_int
from kb.words.fit import check_language

_WIDTH = str.maketrans({"×": "x", "＊": "*", "￥": "¥", "＄": "$", "：": ":", "，": ",", "（": "(", "）": ")"})


@dataclass
class ParsedQuestion:
    """The checkable parts of a question; None where the question does not say."""

    gpus: list[tuple[str, int | None]] = field(default_factory=list)
    model: str | None = None
    workloads: list[str] = field(default_factory=list)
    precision: str | None = None
    seq_len: int | None = None
    batch: int | None = None
    tokens: float | None = None
    zero: int | None = None
    budget_cny: float | None = None
    max_gpus: int | None = None
    how_many: bool = False
    wants_selection: bool = False
    latency: bool = False
    speed: bool = False  # asks for a decode rate (tokens/s), which people quote at a short context
    concurrency: int | None = None
    unknown_models: list[str] = field(default_factory=list)  # as written: "GPT-4"
    unknown_gpus: list[str] = field(default_factory=list)  # as written: "RTX 3090"
    notes: list[Note] = field(default_factory=list)
    language: str = "en"  # the language `notes` are written in


class _Text:
    """The question, lower-cased, with spans blanked out as they are consumed."""

    def __init__(self, question: str) -> None:
        self.original = unicodedata.normalize("NFKC", question).translate(_WIDTH)
        self.s = self.original.lower()

    def written(self, m: re.Match[str]) -> str:
        """A match as the user wrote it (case kept), where lower-casing kept the offsets."""
        text = self.original[m.start(): m.end()] if len(self.original) == len(self.s) else m.group(0)
        return re.sub(r"\s+", " ", text).strip()

    def take(self, pattern: str | re.Pattern[str]) -> list[re.Match[str]]:
        found = list(re.finditer(pattern, self.s))
        for m in reversed(found):
            self.s = self.s[: m.start()] + " " * (m.end() - m.start()) + self.s[m.end():]
        return found

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.s) is not None


_CURRENCY_CN = r"(?:元|块钱|块|rmb|cny|人民币)"
_CURRENCY_US = r"(?:usd|us\$|dollars?|美元|美金|刀)"
_SCALE = r"(?:万亿|千亿|亿|万|千|k|m\b|mn|million|thousand)"


def _budget(t: _Text, q: ParsedQuestion, usd_cny: float) -> None:
    for m in t.take(rf"(?:us)?\$\s*({NUM})\s*({_SCALE})?|({NUM})\s*({_SCALE})?\s*{_CURRENCY_US}"):
        num, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        usd = amount(num, scale)
        q.budget_cny = usd * usd_cny
        q.notes.append(note("budget_usd", usd=usd, rate=usd_cny, cny=q.budget_cny))
    for m in t.take(rf"¥\s*({NUM})\s*({_SCALE})?|({NUM})\s*({_SCALE})?\s*{_CURRENCY_CN}"
                    rf"|(?:预算|budget(?: of)?|花)\s*(?:是|为|有|大概|约|:)?\s*({NUM})\s*({_SCALE})?"
                    rf"|({NUM})\s*({_SCALE})\s*(?:的)?(?:预算|budget)"):
        groups = [(m.group(i), m.group(i + 1)) for i in (1, 3, 5, 7) if m.group(i)]
        q.budget_cny = amount(*groups[0])
    if q.budget_cny is not None:
        q.wants_selection = True


def _tokens(t: _Text, q: ParsedQuestion) -> None:
    unit = r"(?:万亿|千亿|亿|万|trillion|billion|million|t|b|m|k)"
    for m in t.take(rf"({NUM})\s*({unit})?\s*(?:个)?\s*(?:training\s+)?(?:tokens?|词元)(?!\s*/\s*s)"):
        value = amount(m.group(1), m.group(2))
        if value >= 1e7:
            q.tokens = value
        elif value >= 16:
            q.seq_len = int(value * (1.024 if m.group(2) == "k" else 1))  # "32k tokens" is 32768


def _context(t: _Text, q: ParsedQuestion) -> None:
    word = (r"(?:context(?:\s+length|\s+window)?|上下文(?:长度)?|序列长度|seq(?:uence)?[\s_-]*len(?:gth)?|ctx"
            r"|max[\s_-]*len)")
    for m in t.take(rf"({NUM})\s*(k)?\s*(?:tokens?\s*)?(?:的)?\s*{word}|{word}\s*(?:of|为|是|=|:)?\s*({NUM})\s*(k)?"):
        num, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        q.seq_len = int(float(num.replace(",", "")) * (1024 if k else 1))


def _batch(t: _Text, q: ParsedQuestion) -> None:
    for m in t.take(rf"(?:并发(?:数|量)?|concurrency(?: of)?)\s*(?:为|是|=|:)?\s*({NUM})\s*(?:万|k)?"
                    rf"|({NUM})\s*(?:万|k)?\s*(?:路|个|名)?\s*(?:并发|concurrent)\s*(?:的)?\s*(?:users?|用户|请求|requests?)?"
                    rf"|({NUM})\s*(?:个|名|位)?\s*(?:同时在线的?\s*)?(?:users|用户)"):
        text = m.group(0)
        n = float((m.group(1) or m.group(2) or m.group(3)).replace(",", ""))
        n *= 1e4 if "万" in text else 1e3 if re.search(r"\dk", text) else 1
        q.concurrency = int(n)
    for m in t.take(rf"(?:batch(?:[\s_-]*size)?|批量(?:大小)?|批大小|bs)\s*(?:of|为|是|=|:)?\s*({NUM})"):
        q.batch = int(float(m.group(1).replace(",", "")))


_PRESET = re.compile(r"llama[\s_-]*(2|3\.1|3|1)?[\s_-]*(7|8|13|65|70|405)\s*b")
_PRESET_NAMES = {("2", "7"): "llama-2-7b", ("2", "13"): "llama-2-13b", ("2", "70"): "llama-2-70b",
                 ("3", "8"): "llama-3-8b", ("3", "70"): "llama-3-70b", ("3.1", "405"): "llama-3.1-405b",
                 ("3.1", "8"): "llama-3.1-8b", ("3.1", "70"): "llama-3.1-70b", ("1", "65"): "llama-65b",
                 ("", "65"): "llama-65b", ("3", "405"): "llama-3.1-405b"}
_QWEN = r"(?:通义千问|千问|qwen)"
_S = r"[\s_-]*"
# Named models kb has a preset for, most specific first; "{}" takes the size the pattern captured.
_NAMED: tuple[tuple[str, str], ...] = (
    (rf"mixtral{_S}8\s*x\s*22\s*b", "mixtral-8x22b"),
    (rf"mixtral(?:{_S}8\s*x\s*7\s*b)?", "mixtral-8x7b"),
    (rf"deep\s*seek{_S}(?:v3|r1)(?:[\s_.-]*\d+)?(?:{_S}671\s*b)?|深度求索{_S}v3", "deepseek-v3"),
    (rf"{_QWEN}{_S}3{_S}30\s*b(?:{_S}a3b)?", "qwen3-30b-a3b"),
    (rf"{_QWEN}{_S}3{_S}235\s*b(?:{_S}a22b)?", "qwen3-235b-a22b"),
    (rf"{_QWEN}{_S}3{_S}(8|32)\s*b", "qwen3-{}b"),
    (rf"{_QWEN}{_S}2\.5{_S}(7|14|32|72)\s*b", "qwen2.5-{}b"),
    (rf"{_QWEN}{_S}(7|14|32|72)\s*b", "qwen2.5-{}b"),
    (rf"llama{_S}4{_S}scout(?:{_S}17b(?:{_S}16e)?)?", "llama-4-scout"),
    (rf"llama{_S}4{_S}maverick(?:{_S}17b(?:{_S}128e)?)?", "llama-4-maverick"),
    (rf"gemma{_S}2{_S}(9|27)\s*b", "gemma-2-{}b"),
    (rf"mistral{_S}7\s*b", "mistral-7b"),
)
# Models kb has no shape for and whose names state no size: said to be unknown, never guessed.
_UNKNOWN_MODEL = re.compile(
    r"(?<![a-z0-9])(?:gpt[\s-]*(?:4o|4\.1|4|3\.5|5|oss)?(?:[\s-]*(?:turbo|mini))?"
    r"|claude(?:[\s-]*\d(?:\.\d)?)?(?:[\s-]*(?:opus|sonnet|haiku))?"
    r"|gemini(?:[\s-]*\d(?:\.\d)?)?(?:[\s-]*(?:pro|flash|ultra))?|grok(?:[\s-]*\d)?|kimi|ernie)(?![a-z0-9])"
    r"|文心一言|文心")
# A word before a size that names a model (Falcon 180B), as opposed to "a 13B model" or "run 70B".
_NOT_A_NAME = {"a", "an", "the", "run", "running", "runs", "for", "of", "with", "model", "models", "serve", "serving",
               "train", "training", "tune", "tuning", "fine-tune", "finetune", "is", "on", "in", "at", "to", "and",
               "or", "about", "llm", "dense", "size", "my", "our", "load", "host", "deploy", "inference", "lora",
               "qlora", "fp16", "bf16", "int8", "int4", "fp32", "nf4", "moe", "can", "fit", "hold", "that", "this",
               "use", "using", "fine", "full", "pretrain", "pretraining", "params", "parameter", "parameters"}


def _named(t: _Text, q: ParsedQuestion) -> None:
    for pattern, name in _NAMED:
        for m in t.take(pattern):
            if q.model is None:
                q.model = name.format(m.group(1)) if "{}" in name else name


def _model(t: _Text, q: ParsedQuestion) -> None:
    _named(t, q)
    if q.model:
        t.take(_PRESET)
        return
    for m in t.take(_PRESET):
        name = _PRESET_NAMES.get((m.group(1) or "", m.group(2)))
        if name:
            q.model = name
        else:
            q.model = f"{m.group(2)}b"
            q.notes.append(note("not_preset", text=m.group(0).strip(), size=m.group(2)))
    if q.model:
        return
    for m in t.take(rf"(\d+(?:\.\d+)?e\d+)|({NUM})\s*(b|bn|billion|亿|千亿)(?![a-z0-9])"
                    r"\s*(?:参数|params?|parameters?)?"):
        if m.group(1):
            q.model = m.group(1)
        else:
            value = amount(m.group(2), m.group(3))
            q.model = f"{value / 1e9:g}b"
            word = re.search(r"([a-z][a-z0-9.]*(?:[\s-][a-z0-9.]+)?)[\s_-]*$", t.s[max(0, m.start() - 24): m.start()])
            name = word.group(1).split()[-1] if word else ""
            if word and name not in _NOT_A_NAME and word.group(1).split()[0] not in _NOT_A_NAME:
                start = m.start() - len(t.s[max(0, m.start() - 24): m.start()]) + word.start(1)
                text = t.original[start: m.end()] if len(t.original) == len(t.s) else word.group(1)
                q.notes.append(note("size_from_name", text=text.strip(), size=f"{value / 1e9:g}"))
    if q.model is None:
        for m in t.take(_UNKNOWN_MODEL):
            q.unknown_models.append(t.written(m))


_NEW_GPUS = (("h200", r"h200(?:\s*(?:sxm|nvl))?"), ("b200", r"(?:hgx\s*)?b200"), ("l40s", r"l40s"),
             ("l4", r"l4(?![0-9a-z])"), ("rtx-6000-ada", r"(?:rtx\s*)?6000\s*ada(?:\s*generation)?"),
             ("rtx-5090", r"(?:geforce\s*)?(?:rtx\s*)?5090"), ("mi300x", r"(?:amd\s*)?(?:instinct\s*)?mi300x?"),
             ("gaudi-3", r"(?:intel\s*)?(?:habana\s*)?gaudi\s*-?\s*3"))
_UNKNOWN_GPU = re.compile(
    r"(?<![a-z0-9])(?:(?:geforce\s*)?(?:rtx|gtx)\s*\d{4}(?:\s*(?:ti|super))?|rx\s*\d{4}\s*(?:xtx|xt)?"
    r"|(?:rtx\s*)?a[456]000|v100|p100|t4|a10g?|a30|a40|h800|a800|h20|l20|mi250x?|mi325x|mi355x|tpu(?:\s*v\d+[a-z]?)?"
    r"|ascend\s*910b?|m[1-4]\s*(?:max|ultra|pro)|(?:intel\s*)?arc\s*[ab]\d{3}|[1-5]0[5-9]0(?:\s*(?:ti|super))?)"
    r"(?![0-9a-z])|昇腾\s*910b?")
_GPU = re.compile(
    r"(?:nvidia\s*)?(?:" + "|".join(f"(?<![a-z0-9])({p})" for _, p in _NEW_GPUS) + "|"
    r"(a100)(?:\s*[-_(]?\s*(40|80)\s*g(?:i?b)?\)?)?(?:\s*(?:sxm4?|pcie))?"
    r"|(h100)(?:\s*[-_]?\s*(?:sxm5?|80\s*g(?:i?b)?))*"
    r"|(?:geforce\s*)?(?:rtx\s*)?(4090|4080|4070\s*ti|4070|4060\s*ti(?:\s*[-_(]?\s*16\s*g(?:i?b)?\)?)?|4060)(?![\d.])"
    r"(?:\s*(?:显卡|gpus?|cards?|s)\b)?)"
)
_COUNT_BEFORE = re.compile(rf"(\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*(?:x|\*|张|块|卡|片|台|个|路|pcs)?\s*(?:的)?\s*$")
_COUNT_AFTER = re.compile(rf"^\s*(?:s\b)?\s*(?:x|\*)\s*(\d+)|^\s*(\d+|{CN_NUMERAL})\s*(?:张|块|卡|片)")


def _gpu_id(m: re.Match[str], q: ParsedQuestion) -> str:
    for i, (gid, _) in enumerate(_NEW_GPUS, 1):
        if m.group(i):
            return gid
    k = len(_NEW_GPUS)
    if m.group(k + 1):
        if m.group(k + 2):
            return f"a100-{m.group(k + 2)}gb"
        q.notes.append(note("a100_size"))
        return "a100-80gb"
    if m.group(k + 3):
        return "h100-sxm"
    name = re.sub(r"\s+", "", m.group(k + 4))
    if name.startswith("4060ti"):
        if "16" not in name:
            q.notes.append(note("4060ti_size"))
        return "rtx-4060-ti-16gb"
    return {"4070ti": "rtx-4070-ti"}.get(name, f"rtx-{name}")


def _gpus(t: _Text, q: ParsedQuestion) -> None:
    s = t.s
    for m in _GPU.finditer(s):
        gid = _gpu_id(m, q)
        before = _COUNT_BEFORE.search(s[max(0, m.start() - 16): m.start()])
        after = _COUNT_AFTER.search(s[m.end(): m.end() + 12])
        count = to_int(before.group(1)) if before else to_int(after.group(1) or after.group(2)) if after else None
        if count is not None and not 1 <= count <= 4096:
            count = None
        if gid not in [g for g, _ in q.gpus]:
            q.gpus.append((gid, count))
    t.take(_GPU)
    for m in t.take(_UNKNOWN_GPU):
        q.unknown_gpus.append(t.written(m))
    card = re.search(rf"(?:{CN_NUMERAL}|\d+)\s*卡", t.s)
    if card and q.gpus and all(c is None for _, c in q.gpus) and len(q.gpus) == 1:
        q.gpus = [(q.gpus[0][0], to_int(card.group(0)[:-1].strip()))]


def _max_gpus(t: _Text, q: ParsedQuestion) -> None:
    for m in t.take(rf"(?:最多|至多|不超过|at most|up to|no more than|max(?:imum)?)\s*"
                    rf"({NUM}|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*"
                    r"(?:张|块|个|台)?\s*(?:卡|显卡|gpus?|cards?)"):
        q.max_gpus = to_int(m.group(1).replace(",", ""))


_WORKLOADS = [
    ("qlora", r"qlora"),
    ("lora", r"(?<!q)lora|peft|参数高效"),
    ("full", r"全参|全量|full[\s-]*(?:fine[\s-]*tun|finetun|train|param)|pre[\s-]*train|预训练|from scratch|从头训练|"
             r"从零训练|(?<!微)训练|\btrain(?:ing)?\b"),
    ("fine-tune", r"微调|fine[\s-]*tun|finetun|\bsft\b"),
    ("inference", r"推理|部署|inference|infer|serv(?:e|ing)|\brun\b|跑|运行|上线|生成|decode|tokens?/s|latency|延迟|"
                  r"吞吐|throughput|聊天|chat|加载|load"),
]
_PRECISIONS = [
    ("nf4", r"nf4"), ("int4", r"int4|4[\s-]*bit|4位|四位|gptq|awq|q4"), ("int8", r"int8|8[\s-]*bit|8位|八位"),
    ("bf16", r"bf16|bfloat16"), ("fp16", r"fp16|float16|半精度|half[\s-]*precision"),
    ("fp32", r"fp32|float32|全精度|单精度|full[\s-]*precision"),
]


def _words(t: _Text, q: ParsedQuestion) -> None:
    for name, pattern in _WORKLOADS:
        if t.has(pattern) and name not in q.workloads:
            q.workloads.append(name)
    if "qlora" in q.workloads or "lora" in q.workloads:
        q.workloads = [w for w in q.workloads if w in ("qlora", "lora")]
    elif "fine-tune" in q.workloads:
        q.workloads = ["full"] if "full" in q.workloads and t.has(r"全参|全量|full") else ["full", "lora"]
        if q.workloads == ["full", "lora"]:
            q.notes.append(note("fine_tune_both"))
    elif "full" in q.workloads:
        q.workloads = ["full"]
    for name, pattern in _PRECISIONS:
        if t.has(pattern):
            q.precision = name
            break
    if m := re.search(r"zero[\s-]*(?:stage)?[\s-]*([0-3])(?!\d)", t.s):
        q.zero = int(m.group(1))
    q.how_many = t.has(r"how many|几张|几块|几个|多少张|多少块|多少卡|几卡|多少个|需要多少|minimum number|fewest")
    q.latency = t.has(r"latency|延迟|首字|ttft|time to first|prefill|响应时间")
    q.speed = t.has(r"tokens?\s*/\s*s|tok/s|tokens? (?:per|a|each) second|每秒|多快|速度|speed|how fast")
    if t.has(r"选哪|哪种|哪款|哪个|哪张|哪一|which (?:gpu|card)|what (?:gpu|card)|买什么|选什么|推荐|"
             r"should i (?:buy|get)|"
             r"best gpu|recommend"):
        q.wants_selection = True


def parse_question(question: str, usd_cny: float = 7.2, language: str = "en") -> ParsedQuestion:
    """Read what a fit check needs from a question; order matters (money and tokens before sizes).

    `language` ("en" or "zh") is the language of the notes, not of the question: both are read either way.
    """
    q = ParsedQuestion(language=check_language(language))
    t = _Text(question)
    _budget(t, q, usd_cny)
    _tokens(t, q)
    _context(t, q)
    _batch(t, q)
    _max_gpus(t, q)
    _model(t, q)
    _gpus(t, q)
    _words(t, q)
    return q
