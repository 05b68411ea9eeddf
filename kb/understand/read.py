"""Question understanding: what a fit check needs, read from a Chinese or English question.

Regular expressions only (no tokenizer): a question is short, and this runs on every `kb ask`.
Each thing found removes its text, so "2万亿token" is not also read as a model size, and
"A100 80G" is not also read as 80 cards. Whatever the parser had to decide is said in `notes`,
in the language asked for (the parser itself reads both languages either way). Names, sizes, counts,
workloads and what is asked are read here; money, tokens, contexts and concurrency in kb/understand/amounts.py.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kb.fit.gpus import card_family
from kb.language import Language, check_language
from kb.understand import amounts
from kb.understand.amounts import Text
from kb.understand.audience import for_an_individual, setting_of
from kb.understand.intent import KEY_FIGURES, RATE, derived_ask, spec_attributes
from kb.understand.names import Registry
from kb.understand.numerals import CN_NUMERAL, EN_NUMBER_WORD, NUM, amount, to_int
from kb.understand.people import PEOPLE_EN, PEOPLE_ZH, REQUESTS_EN, either
from kb.understand.query import Query
from kb.words.note import note

# A word before a size that names a model (Falcon 180B), as opposed to "a 13B model" or "run 70B".
_NOT_A_NAME = {"a", "an", "the", "run", "running", "runs", "for", "of", "with", "model", "models", "serve", "serving",
               "train", "training", "tune", "tuning", "fine-tune", "finetune", "is", "on", "in", "at", "to", "and",
               "or", "about", "llm", "dense", "size", "my", "our", "load", "host", "deploy", "inference", "lora",
               "qlora", "fp16", "bf16", "int8", "int4", "fp32", "nf4", "fp8", "fp4", "moe", "can", "fit", "hold",
               "that", "this", "use", "using", "fine", "full", "pretrain", "pretraining", "params", "parameter",
               "parameters", "vs", "than", "what", "x", "s", "gpu", "gpus", "card", "cards", "fine-tuning",
               "finetuning", "fine-tuned", "pre-training", "some", "under", "below", "over", "above", "around",
               "roughly", "approx", "approximately", "up", "ft", "fft", "sft",
               "any", "two", "three", "several", "small", "large", "big", "new", "open", "source", "open-source",
               "quantize", "quantized", "quantizing", "quantise", "quantised", "distill", "distilled", "compress",
               "shrink", "squeeze", "put", "get", "ppl", "people", "we", "they", "you", "i", "whole", "entire",
               "same", "another", "one", "every", "each", "base", "pretrained", "make", "makes", "let", "lets",
               "does", "do", "did", "will", "would", "should", "could", "need", "needs", "want", "wants", "why",
               "how", "when"}


_QUANTITY_BEFORE = re.compile(r"(?:并发|用户|上下文|预算|token|tokens|users?|concurrency|context|budget|[¥$])"
                              r"\s*[:=为是]?\s*$")


_OTHER_SIZE = re.compile(r"(?:和|与|跟|对比|vs\.?|versus|or|还是|and)\s*(?:the\s*)?(\d{2,3})\s*g(?:i?b)?(?![a-z0-9])")


# A memory size said right beside a card's name ("V100（32G）", "A100 GPUs (40GB)", "32G 的 V100").
_MEMORY_AFTER = re.compile(r"^\s*(?:gpus?|cards?|显卡|卡)?\s*[（(,，]?\s*(\d{2,3})\s*g(?:i?b)?(?![a-z0-9])")
_MEMORY_BEFORE = re.compile(r"(?<![0-9.])(\d{2,3})\s*g(?:i?b)?\s*(?:显存)?\s*(?:的)?\s*$")


def _memory_variant(t: Text, q: Query, found: list[tuple[str, int, int]], registry: Registry) -> None:
    """A card whose record comes in several memory sizes, with one said beside its name: that size's record."""
    for n, (gid, start, end) in enumerate(found):
        said = _MEMORY_AFTER.search(t.s[end: end + 16]) or _MEMORY_BEFORE.search(t.s[max(0, start - 10): start])
        if said is None:
            continue
        sibling = re.sub(r"-\d+gb$", f"-{said.group(1)}gb", gid)
        if sibling != gid and sibling in registry.gpu_ids:
            found[n] = (sibling, start, end)
            q.notes = [x for x in q.notes if not (x.key == "default_of" and x.values.get("gpu") == gid)]


def _names(t: Text, q: Query, registry: Registry) -> list[tuple[str, int, int]]:
    """GPU and model names from the one registry; returns the known GPUs with their spans, for counts."""
    gpus: list[tuple[str, int, int]] = []
    for f in registry.find(t.s):
        written = t.span(f.start, f.end)
        if f.kind == "gpu" and f.id:
            gpus.append((f.id, f.start, f.end))
            if f.default_of:
                q.notes.append(note("default_of", name=written, gpu=f.id))
        elif f.kind == "gpu":
            if written.isdigit() and _QUANTITY_BEFORE.search(t.s[max(0, f.start - 12): f.start]):
                continue  # "并发 2050", "budget 3090": a number of users or yuan
            q.unknown_gpus.append(written)
        elif f.id:
            if q.model is None:
                q.model = f.id
            elif f.id != q.model and f.id not in q.also:  # "qwen2.5 7b 和 llama3 8b 哪个…": compared
                q.also.append(f.id)
        elif written not in q.unknown_models:
            q.unknown_models.append(written)
        t.blank(f.start, f.end)
    for m in _OTHER_SIZE.finditer(t.s):
        for gid, _, _ in list(gpus):  # "a100 40g 和 80g": the same card's other memory size
            sibling = re.sub(r"-\d+gb$", f"-{m.group(1)}gb", gid)
            if sibling != gid and sibling in registry.gpu_ids and all(g != sibling for g, _, _ in gpus):
                gpus.append((sibling, m.start(1), m.end()))
                t.blank(m.start(1), m.end())
                break
    return gpus


def _size(t: Text, q: Query) -> None:
    """A model given by its size ("13B", "700亿参数", "6.7e9", "参数量 400M"), when no preset was named."""
    if q.model:
        return
    if m := re.search(r"(?:参数量?|params?|parameters?)\s*(?:约|大约|about|~|≈|=|为|是|:|of)?\s*(\d+(?:\.\d+)?)\s*"
                      r"(?:m|million|百万)(?![a-z0-9])|(\d+(?:\.\d+)?)\s*(?:m|million|百万)\s*(?:个)?\s*"
                      r"(?:参数|params?\b|parameters?\b)", t.s):
        q.model = f"{float(m.group(1) or m.group(2)) / 1000:g}b"  # a model of millions of parameters, said as such
        return
    for m in t.take(rf"(\d+(?:\.\d+)?e\d+)|({NUM})\s*(b|bn|billion|亿|千亿)(?![a-z0-9])"
                    r"\s*(?:参数|params?|parameters?)?"):
        if q.model:
            continue
        if m.group(1):
            q.model = m.group(1)
            continue
        if re.match(r"\s*(?:模型)?\s*(?:的|那个|那家)?\s*(?:case|案例)", t.s[m.end():]):
            continue  # "the fintech 5b case": the size names a case of the guide, not a model to check
        if re.search(r"tokens?\s*(?:数|数量|count)?\s*(?:约|大约|about|~|≈|=|为|是|:)?\s*$", t.s[max(0, m.start() - 14):
                                                                                         m.start()]):
            continue  # "总tokens 约11B": a count of tokens, not a model's size
        near = t.s[max(0, m.start() - 12): m.start()]
        owner = re.search(r"(?:their|its|他们的?|她们的?|它的|该公司的?|人家的?|fintech|金融(?:科技)?(?:公司)?|"
                          r"university|大学|高校|startup|创业公司|lab|实验室)\s*$", near)
        if owner and re.search(r"案例|(?<![a-z])case(?![a-z])", t.s):
            continue  # "fintech case: what was their 5b model for": the case's own model, not one to check
        value = amount(m.group(2), m.group(3))
        q.model = f"{value / 1e9:g}b"
        before = t.s[max(0, m.start() - 24): m.start()]
        word = re.search(r"([a-z][a-z0-9.]*(?:[\s-][a-z0-9.]+)?)[\s_-]*$", before)
        if word is None:
            continue
        tokens = word.group(1).split()
        ends = [i for i, tok in enumerate(tokens) if tok.endswith(".")]
        tokens = tokens[ends[-1] + 1:] if ends else tokens  # "forget that. 7b on a 4060": no name across a stop
        while tokens and tokens[0] in _NOT_A_NAME:  # "run falcon 180b": the name is "falcon"
            tokens.pop(0)
        if not tokens or tokens[-1] in _NOT_A_NAME:
            continue
        if tokens[-1] in _families():  # "why does int4 make llama 70b fit": a family said with a size is a size,
            tokens = tokens[-1:]  # whatever word came before it
        start = m.start() - len(before) + word.start(1) + word.group(1).index(tokens[0])
        named = t.span(start, m.end())
        q.notes.append(note("size_from_name", text=named, size=f"{value / 1e9:g}"))
        if named not in q.unknown_models and not (len(tokens) == 1 and tokens[0] in _families()):
            q.unknown_models.append(named)  # "Yi-34B": kb has no shape for it (a bare "llama 70b" is a size)


@lru_cache(maxsize=1)
def _families() -> frozenset[str]:
    """The model families kb has presets of ("llama", "qwen2.5" → "qwen" …): a family and a size is a size."""
    from kb.fit.presets import PRESETS

    return frozenset(m.group(0) for p in PRESETS if (m := re.match(r"[a-z]+", p)))


# a word between a count and its card: "16 local 4090s", "8 张二手 3090"
_COUNT_ADJECTIVE = (r"(?:local|used|new|brand[- ]new|spare|old|identical|second[- ]hand|refurb(?:ished)?|on[- ]prem|"
                    r"二手|全新|本地|现有)")
# (not the digits of a format: "bf16 a100", "int8 h100" name no count)
_COUNT_BEFORE = re.compile(rf"(?<![a-z0-9.])(\d{{1,3}}(?:,\d{{3}})+|\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})"
                           r"\s*(?:(?:x|\*|张|块|卡|片|台|个|路|pcs|-cards?|-gpus?)"
                           # its memory between: "两张24g的 p40", "two 24gb 3090s"
                           r"(?:\s*\d{1,3}\s*(?:g|gb|gib)(?:显存)?)?|\s+\d{1,3}\s*(?:gb|gib))?\s*(?:的)?\s*"
                           rf"(?:{_COUNT_ADJECTIVE}\s*)?$")
_COUNT_AFTER = re.compile(rf"^\s*(?:s\b)?\s*(?:x|\*)\s*(\d+)|^\s*(\d+|{CN_NUMERAL})\s*(?:张|块|卡|片)")
# Nodes of GPUs: "8 台 8 卡", "8台8卡", "8 nodes of 8", "8 nodes x 8", "8x8".
_NODES = re.compile(rf"(\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*(?:台|个节点|节点|nodes?|servers?|machines?|boxes)"
                    r"\s*(?:机器|服务器|主机)?\s*[,，、]?\s*"
                    r"(?:每台|每个节点|每节点|each|per (?:node|server|machine|box))?"
                    r"\s*(?:with|插|装|放|配|上)?\s*"  # "三台机器 每台插四张 4090", "3 servers each with 4 4090s"
                    rf"(?:的|of|x|\*|with|,)?\s*(\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*(?:张|块|卡|x|\*|-?gpu|gpus?)?"
                    rf"|(\d+)\s*[x*]\s*(\d+)\s*(?=\s*$)")
# People each given cards: "30个研究员 每人一台配满4张4090", "20 researchers, each with 2 4090s", "each of 12
# researchers gets a 2-card 4090 workstation".
_PEOPLE = rf"(?:{PEOPLE_ZH}|同学|人|{either(PEOPLE_EN)})"
_EACH_GETS = rf"\s*(?:一台|一个|一套|gets?|has|with|an?|one)?\s*(?:an?|one)?[^\d一两二三四五六七八九十]{{0,10}}" \
             rf"(?P<each>\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*(?:张|块|x|\*|-?cards?|-?gpus?)?\s*$"
_PER_PERSON = re.compile(
    rf"(?P<n>\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*(?:个|名|位)?\s*{_PEOPLE}\s*[,，、]?\s*"
    r"(?:每人|每个人|每位|each(?: (?:one|person|of them))?|apiece|per (?:person|head))" + _EACH_GETS
    + rf"|(?:for )?each of (?:the |our )?(?P<n2>\d+|{EN_NUMBER_WORD})\s*{_PEOPLE}"
    + _EACH_GETS.replace("(?P<each>", "(?P<each2>"))
MAX_QUESTION_COUNT = 65536


def _gpus(t: Text, q: Query, found: list[tuple[str, int, int]]) -> None:
    s = t.s
    for gid, start, end in found:
        window = s[max(0, start - 32): start]
        nodes = _NODES.search(window)
        before = _COUNT_BEFORE.search(s[max(0, start - 24): start])
        after = _COUNT_AFTER.search(s[end: end + 12])
        count: int | None = None
        if nodes and (nodes.group(1) or nodes.group(3)):
            a, b = (nodes.group(1), nodes.group(2)) if nodes.group(1) else (nodes.group(3), nodes.group(4))
            if (na := to_int(a)) and (nb := to_int(b)):
                count = na * nb
                q.notes.append(note("nodes_read", nodes=na, per_node=nb, count=count))
        # (as written: the people's count may have been read, and blanked, as users already)
        people = _PER_PERSON.search(t.original.lower()[max(0, start - 48): start])
        if count is None and people and (n := to_int(people.group("n") or people.group("n2"))) \
                and (each := to_int(people.group("each") or people.group("each2"))):
            count = n * each
            q.notes.append(note("people_read", people=n, each=each, count=count))
            q.concurrency = None if q.concurrency == n else q.concurrency  # they own cards, not sessions
        if count is None:
            count = to_int(before.group(1)) if before else to_int(after.group(1) or after.group(2)) if after else None
        if count is None and re.search(r"(?:买|来|上|加|要|配|换)\s*(?:了|个)?\s*张\s*$", s[max(0, start - 8): start]):
            count = 1  # "先买张 4080": one, its numeral left out
        if count is not None and not 1 <= count <= MAX_QUESTION_COUNT:
            count = None
        if gid not in [g for g, _ in q.gpus]:
            q.gpus.append((gid, count))
    # one card named without a count, and a number of cards said elsewhere ("8卡", "a trial node, 8 cards")
    card = re.search(rf"({CN_NUMERAL}|\d+)\s*卡|(?<![\d.])(\d+|{EN_NUMBER_WORD})[\s-]*(?:cards?|gpus?)\b", t.s)
    if card and q.gpus and all(c is None for _, c in q.gpus) and len(q.gpus) == 1:
        q.gpus = [(q.gpus[0][0], to_int((card.group(1) or card.group(2)).strip()))]


# Memory sizes cards are sold with: "24gb", "16g 显存", "a 48 GB card" said with no card is one of these.
_CAPACITIES = frozenset({8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 94, 96, 141, 180, 192, 288})


_MEMORY = re.compile(r"(?<![0-9a-z.,])(\d{1,3})\s*(?:g|gb|gib|g显存|gb显存)(?![a-z0-9])")


def _vram(t: Text, q: Query) -> None:
    """'is 24gb enough for 13b', '16g显存能跑什么': the memory of the card meant, when no card is named; '2080 Ti
    11G', 'my P100 has 16GB': the memory of a card kb has no figures for, whatever its size."""
    if q.gpus:
        return
    for m in _MEMORY.finditer(t.s):
        if q.unknown_gpus or int(m.group(1)) in _CAPACITIES:
            q.vram_gb = int(m.group(1))
            return


# Offload as people say it: DeepSpeed's words, "to CPU / host memory / NVMe", 卸载 / offload 到内存.
_OFFLOAD = re.compile(r"offload|卸载|zero[\s-]*infinity")
_NO_OFFLOAD = re.compile(r"(?:不|没|无|\bno\b|without|w/o|\bnot\b|don'?t)\s*(?:用|开|使用|做|需要|use|using|need)?\s*"
                         r"(?:[a-z]+\s+(?:or|and|nor)\s+|\S{1,4}(?:或|和|也不)\s*)?(?:any\s+|cpu\s*|nvme\s*)?$")
# The parameters offloaded too (ZeRO-3's offload_param): said beside the optimizer, or as DeepSpeed's key.
_OFFLOAD_PARAMS = re.compile(r"offload_param|offload(?:ing)?\s+(?:of\s+)?(?:the\s+)?(?:model\s+)?param|"
                             r"zero[\s-]*infinity|"
                             r"(?:optimizer|优化器)[^.。;；]{0,12}(?:and|和|与|及|加)\s*(?:the\s+)?(?:model\s+)?"
                             r"(?:param|参数|模型|权重|weights)|(?:param\w*|参数|模型|权重)\s*(?:and|和|与)\s*(?:optimizer|优化器)")
_HOST_MEMORY = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(tb|tib|t|gb|gib|g)\s*(?:of\s+)?(?:cpu|host|system|主机|服务器)?\s*"
                          r"(?:memory|ram|内存)|(?:内存|ram|cpu memory|host memory|shm[-_ ]?size)\D{0,12}?"
                          r"(\d[\d,]*(?:\.\d+)?)\s*(tb|tib|t|gb|gib|g)(?![a-z])")


def _offload(t: Text, q: Query, raw: str) -> None:
    """'ZeRO-3 with CPU offload of optimizer and parameters', 'offload 到 NVMe', 'our node has 1,024 GB of CPU memory':
    what full training puts on the host, where, and how much host memory a node has."""
    said = [m for m in _OFFLOAD.finditer(t.s)
            if not _NO_OFFLOAD.search(t.s[max(0, m.start() - 24): m.start()])]  # "（不 offload）", "without offload"
    if not said:
        return
    q.offload = "params" if _OFFLOAD_PARAMS.search(t.s) else "optimizer"
    q.offload_device = "nvme" if "nvme" in t.s else None
    if m := _HOST_MEMORY.search(raw.lower()):  # as written: "batch 为1，744G" is 744, not 1,744
        amount, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        q.host_memory_gib = float(amount.replace(",", "")) * (1024 if unit.startswith("t") else 1)
    training = re.search(r"train|训练|微调|fine[\s-]?tun", t.s)
    if not q.workloads or q.workloads == ["full", "lora"] or (q.workloads == ["inference"] and training):
        q.workloads = ["full"]  # offload is full training's (ZeRO's)


def _size_first(t: Text, q: Query, registry: Registry) -> None:
    """'40g的a100', '80GB A100': the memory said before a bare family name picks that record, not the default."""
    for note_ in [n for n in q.notes if n.key == "default_of"]:
        gid, name = str(note_.values.get("gpu")), str(note_.values.get("name"))
        family = card_family(gid)
        m = re.search(rf"(?<![0-9.])(\d{{2,3}})\s*(?:gigs?|gib|gb|g)\s*(?:的|版本?的?)?\s*(?:nvidia\s*)?"
                      rf"{re.escape(name.lower())}", t.original.lower())
        sibling = f"{family}-{m.group(1)}gb" if m else ""
        if sibling in registry.gpu_ids:  # (the default's own size said first: no longer a default either)
            said = _COUNT_BEFORE.search(t.original.lower()[max(0, m.start() - 24): m.start()]) if m else None
            n = to_int(said.group(1)) if said else None  # "two 40GB A100s": the count before the size
            q.gpus = [(sibling, c if c is not None else n) if g == gid else (g, c) for g, c in q.gpus]
            q.notes.remove(note_)


def _form_factor(q: Query, registry: Registry) -> None:
    """'H100 PCIe 带宽': the H100 PCIe is a card kb lacks, and the words may also ask the H100 record's PCIe link —
    so a figure asked of "<record> pcie" is answered from the record too, beside the unknown card's name."""
    if q.gpus or not q.attributes:
        return
    for name in q.unknown_gpus:
        base = re.sub(r"[\s-]*pcie$", "", name.lower())
        found = [f.id for f in registry.find(base) if f.kind == "gpu" and f.id] if base != name.lower() else []
        if found and (found[0], None) not in q.gpus:
            q.gpus.append((found[0], None))


def _bare_count(t: Text, q: Query) -> None:
    """A count said without a GPU kb knows ("with 8 cards", "两张卡"): the GPU comes from the conversation."""
    if q.gpus:
        return
    # "单卡要吃掉多少显存" after "平摊下来": each card's share, not a count of one
    # ("两张卡平分的话一张扛多少": one card's share of two)
    per_card = r"(?:单卡|(?:一|每)\s*(?:张|块)\s*(?:卡)?|每卡)\s*(?:要|需要|得)?\s*(?:吃|占|扛|分到|摊|承担)"
    for m in t.take(rf"(?<![\d.])(?!{per_card})(\d+|{CN_NUMERAL}|{EN_NUMBER_WORD})[\s-]*(?:张|块|片)?\s*"
                    rf"(?:显卡|卡|gpus?\b|cards?\b)"
                    rf"|(?<![\d.])(?!{per_card})(\d+|{CN_NUMERAL})\s*(?:张|块)(?!\s*[a-z0-9])"
                    rf"|(?<![\d.])(\d+|{EN_NUMBER_WORD})\s+of (?:them|those|these|each)"
                    rf"|(?:各|每种|每样)\s*(\d+|{CN_NUMERAL})\s*(?:张|块)"  # "64 of each", "各 8 张": every card named
                    rf"|\b(?:just|only)\s+(?:have\s+|with\s+|use\s+)?(one|a single|1)\b"
                    rf"|(?!{per_card})(单)卡"
                    rf"|\b(?:just|only|actually|now|really)\s+(?:have\s+|had\s+|got\s+|with\s+|use\s+|using\s+)?"
                    rf"(\d+|{EN_NUMBER_WORD})"
                    rf"\s*(?=$|[?？.!]|of them)|只有\s*(\d+|{CN_NUMERAL})\s*(?=$|[?？。!！])"
                    # "if split over 2", "sharded across 4", "per gpu on 4": a split said after the ask
                    rf"|\b(?:split|spread|shard(?:ed)?|distributed|divided)\s+(?:over|across|between|on(?:to)?|in(?:to)?)"
                    rf"\s+(\d+|{EN_NUMBER_WORD})\b|\b(?:over|across|on)\s+(\d+|{EN_NUMBER_WORD})\s*(?=$|[?？,，.。!;])"):
        count = to_int(next((g for g in m.groups() if g), ""))
        if count is not None and 1 <= count <= MAX_QUESTION_COUNT:
            q.count = count


def _max_gpus(t: Text, q: Query) -> None:
    for m in t.take(rf"(?:最多|至多|不超过|at most|up to|no more than|max(?:imum)?)\s*"
                    rf"({NUM}|{CN_NUMERAL}|{EN_NUMBER_WORD})\s*"
                    r"(?:张|块|个|台)?\s*(?:卡|显卡|gpus?|cards?)"):
        q.max_gpus = to_int(m.group(1).replace(",", ""))
    if q.max_gpus is None and t.has(r"which (?:single )?(?:gpu|card)\b(?!s)|(?:one|a single|single) (?:gpu|card)\b"
                                    r"(?!s)|哪一?张卡|哪一?块卡|单卡(?!\s*(?:要|需要|得)?\s*(?:吃|占|扛|分到|摊))|一张卡|一块卡"):
        q.max_gpus = 1  # "which card", "一张卡就行": one card, not a cluster

_WORKLOADS = [
    ("qlora", r"qlora"),
    ("lora", r"(?<!q)lora|peft|参数高效"),
    ("full", r"全参|全量|full[\s-]*(?:fine[\s-]*tun|finetun|train|param|ft\b)|\bfft\b|pre[\s-]*train|预训练|"
             r"from[\s-]scratch|从头训练|"
             r"从零训练|(?<!微)训练|(?<![微培])训(?!练)|\btrain(?:ing|ed)?\b|from zero|from the ground up|"
             # what only training has: every weight updated, an optimizer, mixed-precision master weights
             r"(?:every|all)(?: the| of the)? (?:weights?|params?|parameters?)\b.{0,12}\b(?:trainable|trained|updated)|"
             r"(?:所有|全部)参数.{0,6}(?:训练|更新)|\badamw?\b|mixed[\s-]*precision|混合精度"),
    ("fine-tune", r"微调|fine[\s-]*tun|finetun|\bsft\b|\bft\b"),
    ("inference", r"推理|部署|inference|infer|serv(?:e|ing)|\brun\b|跑|运行|上线|生成|decode|tokens?/s|latency|延迟|"
                  r"吞吐|throughput|聊天|chat|加载|(?<!full )(?<!peak )(?<!under )(?<!max )(?<!off)load(?! ?balanc)"),
]
_PRECISIONS = [
    ("nvfp4", r"nvfp4"), ("mxfp4", r"mxfp4"), ("fp4", r"fp4|4[\s-]*bit\s*float"),
    ("fp8", r"fp8|float8|e4m3|8[\s-]*bit\s*float"),
    ("nf4", r"nf4"), ("int4", r"int4|4[\s-]*bit|4位|四位|gptq|awq|q4"), ("int8", r"int8|8[\s-]*bit|8位|八位"),
    ("bf16", r"bf16|bfloat16"), ("fp16", r"fp16|float16|半精度|half[\s-]*precision"),
    ("fp32", r"fp32|float32|全精度|单精度|full[\s-]*precision"),
]


# Training said only to be denied ("基本不训练", "no training here", "not lora") or done elsewhere ("训练走云"):
# not a workload asked of these cards.
_NOT_TRAINING = re.compile(r"(?:不|没有|没|无需|不用|不做|不搞|\bno\b|\bnot\b|without|don'?t|do not|won'?t|never)"
                           r"\s*(?:怎么|太|再|会|需要|need to|do|any|much|plan to)?\s*"
                           r"(?:训练|微调|train(?:ing)?|fine[\s-]?tun(?:e|ing)|q?lora)|"
                           r"(?:训练|train(?:ing)?)\s*(?:走云|上云|用云|放云上|在云上|on the cloud|in the cloud)")


def _words(t: Text, q: Query) -> None:
    for denied in _NOT_TRAINING.finditer(t.s):
        t.blank(denied.start(), denied.end())
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
            q.precision = q.precision or name
            q.formats.append(name)  # every format named: a card that cannot compute one is told so
    if m := re.search(r"zero[\s-]*(?:stage)?[\s-]*([0-3])(?!\d)", t.s):
        q.zero = int(m.group(1))
        if not q.workloads or q.workloads == ["full", "lora"]:  # "用 deepspeed zero3 呢": ZeRO shards training
            q.workloads = ["full"]
    for name, word in (("tp", r"tp|tensor[\s-]*parallel(?:ism)?|张量并行"),
                       ("pp", r"pp|pipeline[\s-]*parallel(?:ism)?|流水线并行")):
        if m := re.search(rf"(?<![a-z])(?:{word})\s*(?:size|=|:|为|是)?\s*(\d{{1,3}})(?!\d)", t.s):
            setattr(q, name, int(m.group(1)))
    q.how_many = t.has(r"how many(?! (?:tokens?|seqs|sequences|users|people|days|hours))|几张|几块|"
                       r"几个(?!\s*(?:token|字|词|人|用户|会话|请求|并发))|多少张|多少块|多少卡|几卡|需要多少(?:张|块|卡|个gpu|gpu)|"
                       r"minimum number|fewest|max(?:imum)? number of|最多(?:能)?买?几张|"
                       r"(?:cards|gpus) (?:required|needed)\b|what number of|"
                       # servers counted: "需要几台", "how many nodes" (the layout says the cards a node)
                       r"几台|多少台|how many (?:nodes|servers|machines|boxes)|"
                       r"(?<![a-z])count and (?:change|the rest|what'?s left)|how many (?:can|could|would) (?:i|we)|"
                       # "预算10万 全买4060ti": all the money on one card, so how many it buys
                       r"全(?:部)?(?:拿来|用来)?买|都(?:拿来|用来)?买|(?:spend|put|blow)\b.{0,40}\ball on|"
                       r"all[\s-]in on|only buy")
    q.latency = t.has(r"latency|延迟|首字|ttft|time to first|prefill|响应时间")
    q.low_power = t.has(r"低功耗|功耗(?:要|尽量|越)?(?:低|小)|省电|功耗.{0,6}受限|"
                        r"low[\s-]power|lowest power|power[\s-](?:efficient|budget|constrained|limited|sipping)|"
                        r"tight power|least power|fewest watts")
    q.individual = for_an_individual(t.original)
    q.setting = setting_of(t.original)
    q.scratch = t.has(r"预训练|pre[\s-]*train|from[\s-]scratch|从头训|从零训|from zero|from the ground up")
    q.speed = t.has(RATE) or t.has(r"throughput|吞吐")
    # ("which single gpu": the count reader has taken "single gpu" from the text, so the words are read as said)
    if re.search(r"which (?:single |one )?(?:(?:rtx|geforce|nvidia|amd) )?(?:gpu|card)s?\b|which (?:rtx|geforce)\b",
                 t.original.lower()) or t.has(
            r"选哪|哪种|哪款|哪个|哪张|哪一|[,，\-–]\s*which\s*[?？]?\s*$|what (?:gpu|card)|买什么|选什么|推荐|"
            r"怎么配|如何配|配什么|买啥|选啥|啥卡|什么卡|能买|买得起|should (?:i|we) (?:buy|get|pick|choose)|"
            r"(?:采购|购买|购置|入手)(?:什么|啥|哪)|(?:用|上|配)(?:什么|啥|哪种|哪款)\s*(?:显?卡|gpus?|硬件)|"
            r"什么(?:显卡|gpus?|硬件)|怎么分|如何分配|怎么分配|"
            r"how (?:should (?:i|we)|to) split|split (?:the|my|our) budget|"
            r"can (?:i|we) (?:buy|afford)|afford|"
            r"best gpu|best[- ]value|best (?:single |one |budget )?(?:card|gpu)|most bang|性价比(?:最高|最好)|最划算|"
            r"most cost[- ]effective|cost[- ]effective (?:gpu|card)|用什么卡|用啥卡|"
            r"recommend|cheapest (?:setup|config|configuration|way|option|gpus?|cards?|hardware)|"
            r"what (?:hardware|setup|rig|config(?:uration)?)|which (?:hardware|config(?:uration)?|setup)|"
            r"什么硬件|什么配置|啥配置|(?:do|would|could|can) you (?:suggest|recommend)|建议(?:买|用|配)|"
            r"最便宜.{0,20}(?:配置|方案|卡|显卡|组合)|最省钱的?(?:配置|方案)?|最低成本|成本最低|"
            r"(?:cheapest|lowest[- ]cost|least expensive)\b.{0,30}(?:setup|config|configuration|option|gpus?|cards?|"
            r"hardware|rig|build)"):
        q.wants_selection = True


_ASKED: tuple[tuple[str, str], ...] = (
    ("context", r"(?:最多|最长)(?:能|可以)?(?:开|跑|支持|用|放)?(?:到)?多长(?:的)?(?:上下文|context)|最长(?:的)?上下文|"
                r"上下文(?:最多|最长)(?:能|可以)?(?:开|到|多长|多少)|max(?:imum)? (?:context|ctx)|longest context|"
                r"what (?:context|ctx)(?: length| size| window)? can|how (?:long|much) (?:a )?(?:context|ctx)|"
                # "kv cache 能放多少 token", "how many tokens of kv fit": the KV room, in tokens
                r"(?:kv|缓存).{0,12}(?:能|可以)?(?:放|存|装|容纳)(?:得)?(?:下)?多少(?:个)?\s*tokens?|"
                r"how many tokens (?:of kv|of kv cache|fit|can (?:it|the card|they) (?:hold|fit|cache))"),
    ("kv", r"kv\s*[-_]?\s*cache|kv\s*bytes|kv\s*缓存|键值缓存|"
           r"(?<![a-z])kv(?![a-z]).{0,12}(?:多大|多少|size|per token|每\s*token)|"
           r"total kv|kv total|(?<![a-z])kv(?![a-z])"),
    ("concurrency", r"多少(?:个|路)?(?:并发|用户|会话|请求)|并发(?:多少|几)|撑多少|"
                    r"(?<!一张)(?<!每张)(?<!每卡)(?<!单卡)(?<!一块)能?(?:支持|扛|带)多少|"
                    r"(?:并发|路数|用户数|会话数)(?:数|量)?.{0,3}(?:上限|最多|最大|极限)|"
                    r"(?:concurren\w*|users?|sessions?|seqs?|sequences?) (?:limit|cap|ceiling|max)\b|"
                    r"(?:开|撑|跑|带|扛|支持|承载|容纳)(?:多少|几)(?:路|个)|多少路|"
                    r"最多(?:能|可以)?(?:开|跑|同时)?几(?:个|路|条)(?!\s*(?:token|字|卡|张))|最多几个人|几个人同时|"
                    r"max(?:imum)? (?:seqs|sequences|users|sessions|streams|requests|chats|conversations)"
                    r"(?!\s*(?:per|/|a (?:sec|second|minute|day)))|how many seqs|"
                    # "max requests in flight", "how many in flight": the requests served at once
                    r"in[\s-]flight|"
                    r"max(?:imum)? batch(?:[ _-]?size)?|biggest batch|largest batch|batch.{0,8}(?:最大|最多|上限)|"
                    r"最大.{0,4}(?:batch|批)|"
                    r"(?:同时|并发|一起).{0,4}(?:几|多少)\s*(?:路|个|人|条|用户|请求)|几路|"
                    r"how many (?:at once|at (?:the same|one) time|in parallel)|"
                    rf"how many .{{0,24}}(?:concurrent|{PEOPLE_EN}|{REQUESTS_EN})|"
                    # "4k sessions: how many fit": the sequences named, then counted
                    rf"(?:{PEOPLE_EN}|{REQUESTS_EN})\W{{1,3}}how many\b"
                    r"(?!\s+(?:[a-z]{0,3}\d{2,4}\w*|gpus?|cards?|nodes?|servers?|boxes)\b)|"  # (not "how many h100s")
                    r"max(?:imum)? concurren|max concurrent|"
                    # "…, 16k per user - users?": the people, asked at the end as a count
                    r"[-–—:,;]\s*(?:(?:max(?:imum)? )?(?:users|seqs|sessions|streams|concurrency)|并发|几路|多少人)"
                    r"\s*[?？]+\s*$|"
                    r"(?:concurrent|simultaneous) (?:chats|users|requests|sequences)"),
    ("memory", r"(?:多少|多大|几个?g|几g)\s*(?:的)?\s*显存|显存(?:需求|占用|要多少|需要多少|多少)|"
               r"显存.{0,4}(?:一共|总共|合计|总计).{0,4}多少|"
               r"how much (?:v?ram|memory|gpu memory|gpu mem|mem)|"
               r"(?:v?ram|memory|mem) (?:to|for) (?:serve|run|host|load)|"
               r"(?:v?ram|memory) (?:do(?:es)? (?:i|it|we) need|needed|required|requirement|usage|footprint)|"
               r"vram for|memory for|total (?:v?ram|memory|gpu memory)|总显存|"
               r"(?:total |all (?:the )?)?weights? (?:memory|size|footprint|take up)|"
               r"权重(?:显存|占用|多大|要多少|占多少)|"
               r"(?:v?ram|memory|mem)\W{0,2}\s*(?:per|a|each|on each)\s*(?:gpu|card)|(?:v?ram|memory|mem) each|"
               r"(?:per|each)[\s-](?:gpu|card)\s*(?:v?ram|memory|mem)|"
               r"每张?卡.{0,6}(?:显存|多少|多大)|显存.{0,6}每张?卡|"
               # a bare "per gpu then?", "每张卡呢" after a fit: the share of each card
               r"^\W*(?:and |so |ok |then |what about )?(?:per|each|a) (?:gpu|card)\W*(?:then|each)?\W*$|"
               r"^\W*(?:那么?)?(?:每张?|单张?)卡(?:呢|上呢|分多少|分到多少)\W*$|"
               r"(?:more|less|most|least|bigger|smaller) (?:v?ram|memory)|更(?:多|少|省|占)显存|显存更(?:多|少|大|小)|"
               r"省显存|模型状态.{0,6}(?:多大|多少|要多|占)|权重.{0,6}(?:多大|多少|占|要多)|"
               r"(?:model|optimizer)[\s-]states?|how (?:big|large|heavy) (?:are|is) [^?？]{0,30}weights|"
               r"size of (?:the |its )?weights|weights? (?:take|use|need|occupy|size)"),
    ("rent_or_buy", r"租还是买|买还是租|租.{0,6}买|买.{0,6}租|rent or buy|buy or rent|rent.{0,20}\bbuy\b|"
                    r"\bbuy\b.{0,20}\brent|break[\s-]?even|盈亏平衡|回本"),
    ("time", r"多久|多长时间|几天|多少天|几周|几个月|how long|how many (?:days|hours|weeks|months)|训练时间|"
             r"time to train|(?:hours|days|weeks|months|years) or (?:hours|days|weeks|months|years)|"
             r"(?:trained?|training|train\w*)\b[^?？]{0,80}[:：,，-]\s*(?:wall[\s-]?clock )?(?:time|duration|eta)"
             r"\s*[?？]*\s*$|"
             r"\b(?:ballpark|rough|estimated?) (?:time|duration)|\beta\b|wall[\s-]?clock|墙钟时间|"
             r"\btrain(?:ing)?[\s-](?:time|duration|eta)\b|\btime (?:it takes )?to (?:pre-?)?train\b"),
    ("cost", r"电费|成本|per million|每百万|cost (?:to|of|per)|花多少|power bill|electricity|energy (?:bill|cost)|"
             r"power cost|耗电.{0,4}(?:钱|费)|cost .{0,20}in power\b|"
             # energy over a span is what the draw costs, in kWh and money: "一年耗电多少度", "kwh a year"
             r"(?:耗电|用电|电量|度电|多少度(?!\s*[c℃])|几度|kwh|kilowatt[- ]?hours?|energy (?:use|usage|consumption))"
             r".{0,30}(?:一年|每年|全年|一个?月|每月|一天|每天|year|month|day|annual)|"
             r"(?:一年|每年|全年|一个?月|每月|一天|每天|year|month|day|annual).{0,30}"
             r"(?:耗电|用电|电量|度电|多少度(?!\s*[c℃])|几度|kwh|kilowatt[- ]?hours?|energy)"),
    ("speed", RATE + r"|tokens? (?:per|a|an) ?s(?:ec(?:ond)?)?\b|\bt/s\b|\btps\b|throughput|吞吐|faster|slower|"
                     r"更快|更慢"),
)


_LEFT = (r"还剩|还差|差多少|超(?:出|了)多少|over budget|short|剩(?:下)?多少|剩几|余(?:下|额)|"
         r"what'?s left|left over|leftover|remain|total|一共|总共|合计|加起来|how far over|over by|"
         r"(?:fit|within|stay in|under)\w* (?:the |my |our )?budget|afford|够不够|够吗|买得起|买不买得起")
_POWER_BILL = r"电费|electricity|power bill|耗电|用电|度电|kwh|kilowatt[- ]?hours?"
_FOLLOWS_A_MODEL = ("kv", "concurrency", "memory", "time", "context")
# Two cards set against each other with no figure named: "区别大吗", "whats the diff", "worth it over".
_VERSUS = re.compile(r"区别|差别|差异|差在哪|不同|不一样|有啥两样|对比|比较|哪个好|哪个强|哪个更|哪个适合|哪个合适|"
                     r"哪张(?:更|好|适合|合适)|选哪|挑哪|买哪|"
                     r"\bvs\.?\b|versus|which (?:one|should|would|is better)|"
                     r"differ|\bdiff\b|compare|comparison|worth it over|better than|upgrade from|或者|还是|\bor\b",
                     re.IGNORECASE)
# ...unless it names some other thing to compare (cores, architecture, slots): the guide's words answer that.
_OTHER_THING = re.compile(r"how many|多少个|几个|number of|核心|cores?\b|架构|architecture|制程|process node|接口|"
                          r"slots?\b|插槽|驱动|driver|软件|software|生态|ecosystem|散热|cooling|尺寸|size",
                          re.IGNORECASE)
# The span a running cost is asked for ("一年电费", "daily power cost"); a month when none is said.
_PERIODS = (("year", r"一年|每年|全年|年度?电费|(?:a|per|each) year|yearly|annual"),
            ("day", r"一天|每天|每日|日电费|(?:a|per|each) day|daily"))


def _asks(text: str) -> str | None:
    """What the words ask of a model, said or not: a follow-up takes the model from its conversation."""
    return next((name for name, pattern in _ASKED if name in _FOLLOWS_A_MODEL and re.search(pattern, text)), None)


# The largest model a card holds: "4090 能跑多大的模型", "biggest model i can qlora on one a100".
_LARGEST = re.compile(r"(?:能|可以)?(?:跑|放|装|塞|推理|训练|训|微调|部署|撑)(?:得下|下)?多大(?:的|参数的?)?模型|"
                      r"最大(?:能|可以)?(?:跑|放|装|塞|推理|训练|训|微调|部署)?(?:多大|什么规模|几b)|"
                      r"(?:largest|biggest|max(?:imum)?) (?:model|size|llm)|how (?:big|large) (?:a |of a )?model|"
                      r"what size (?:of )?model|"
                      # "what can i run on a single 4090", "4060 能干啥": what fits, said by the largest that does
                      r"what (?:models? |llms? )?(?:can|could) (?:i|we|it|you) (?:run|fit|serve|host|load)|"
                      r"what (?:models?|llms?) (?:will |would |does |do )?(?:fit|run)|"
                      r"能(?:跑|部署|装|放)(?:得动|下)?(?:什么|啥|哪些)(?:样的)?(?:模型|大模型)?|能干(?:啥|什么|嘛)|能玩(?:什么|啥)",
                      re.IGNORECASE)


def _asked(text: str, q: Query) -> str | None:
    """What the question asks for, when it names it (contracts: the asked quantity)."""
    if not q.model and q.gpus and _LARGEST.search(text):
        return "largest"
    if q.attributes and len(q.gpus) + len(q.unknown_gpus) >= 2 and not q.model \
            and not ("price" in q.attributes and re.search(r"案例|\bcases?\b", text)) \
            and not re.search(_POWER_BILL, text) \
            and not ("price" in q.attributes and q.budget_cny is not None and all(c for _, c in q.gpus)):
        return "comparison"  # (a case's cards: their cost; two kinds of cards: their bill or what a budget leaves)
    for name, pattern in _ASKED:
        if re.search(pattern, text) and (q.model or name in ("speed", "cost", "rent_or_buy")):
            return name
    if q.asks in _FOLLOWS_A_MODEL:
        return None  # "max concurrent users at 4k?": asked of the model a conversation already has
    if "price" in q.attributes and not q.model:
        return "price"
    if q.attributes and not q.model:
        return "figure"
    if q.how_many:
        return "count"
    return None


@lru_cache(maxsize=1)
def _distill_bases() -> dict[str, str]:
    """DeepSeek-R1's distilled models by size → the base whose shape they keep (the presets' own aliases)."""
    from kb.fit.presets import PRESET_ALIASES

    return {m.group(1): preset for preset, aliases in PRESET_ALIASES.items() for a in aliases
            if (m := re.fullmatch(r"deepseek r1 distill [a-z]+ (\d+(?:\.\d+)?)b", a))}


def _distilled(t: Text, q: Query) -> None:
    """'deepseek r1 蒸馏的 32b', 'r1 distill 14b': a distilled model by its size, checked as its base's shape."""
    if q.model != "deepseek-r1" and not (q.model is None and re.search(r"(?<![a-z0-9])r1(?![0-9])", t.s)):
        return
    if m := re.search(r"(?:蒸馏|distill\w*)\D{0,16}?(\d+(?:\.\d+)?)\s*b(?![a-z])", t.s):
        base = _distill_bases().get(m.group(1))
        if base is not None:
            q.model = base
            q.notes.append(note("distilled", size=m.group(1), base=base))
            t.blank(m.start(), m.end())


def read_query(question: str, registry: Registry, usd_cny: float = 7.2, language: Language = "en") -> Query:
    """The one pass from a question to its Query; order matters (names first, then money and tokens before
    sizes, so "A100 80G" is not 80 cards and "2万亿token" is not a model size).

    `language` ("en" or "zh") is the language of the notes, not of the question: both are read either way.
    """
    q = Query(language=check_language(language))
    t = Text(question)
    amounts.denied(t)
    found = _names(t, q, registry)
    _memory_variant(t, q, found, registry)
    _distilled(t, q)
    amounts.energy_price(t, q, usd_cny)
    amounts.budget(t, q, usd_cny)
    amounts.tokens(t, q)
    amounts.each(t, q)
    amounts.counted_sequences(t, q)
    amounts.context(t, q)
    amounts.batch(t, q)
    amounts.bare_context(t, q)
    _max_gpus(t, q)
    _size(t, q)
    _gpus(t, q, found)
    _size_first(t, q, registry)
    _vram(t, q)
    q.unnamed = t.original.lower()  # the cards' names read out: "A800 PCIe 规格" asks no PCIe figure
    for _, start, end in found:
        q.unnamed = q.unnamed[:start] + " " * (end - start) + q.unnamed[end:]
    _bare_count(t, q)
    _words(t, q)
    _offload(t, q, question)
    amounts.bare_budget(t, q)
    if q.model is None and not q.unknown_models:  # a figure of a card (a model's fp8 is a precision, not a figure)
        q.attributes = spec_attributes(q.unnamed or "")
        _form_factor(q, registry)
        if not q.attributes and len(q.gpus) >= 2 and _VERSUS.search(t.original.lower()) \
                and not _OTHER_THING.search(t.original.lower()):
            q.attributes = list(KEY_FIGURES)  # "a800 和 h800 区别大吗": compared by the figures that decide
    if q.also and q.budget_cny is None:  # "哪个 kv cache 小" of two models asks which model, not what to buy
        q.wants_selection = False
    if q.budget_cny is not None and q.gpus and all(c for _, c in q.gpus) and not q.model \
            and re.search(_LEFT, t.original.lower()):  # "预算十万 三张 4090 加两张 4080 还剩多少": those cards' cost
        q.attributes = list(dict.fromkeys([*q.attributes, "price"]))
        q.wants_selection = False
    q.asks = _asks(t.original.lower())
    q.period = next((p for p, word in _PERIODS if re.search(word, t.original.lower())), "month")
    q.asked = _asked(t.original.lower(), q)
    if not q.workloads and q.model and q.tokens and q.tokens >= 1e9:
        q.workloads = ["full"]  # "256 a100s, qwen2.5 32b, 1T tokens - how many days": a corpus is trained on
    q.derived = derived_ask(t.original)
    return q
