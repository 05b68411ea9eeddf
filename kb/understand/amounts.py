"""The amounts a question attaches to its nouns: money, training tokens, contexts, concurrent sequences, batch.

Part of kb/understand/read.py's one pass over a question (its `Text`, whose spans are blanked as they are read,
is here):
"16 个 8k 并发" is 16 sequences of 8,192 tokens, "50万" a budget, "1T token" a training run, and a number
glued to a name ("fp16") is part of the name, not an amount.
"""

from __future__ import annotations

import re
import unicodedata

from kb.understand.numerals import CN_DIGITS, CN_NUMERAL, EN_COUNT, NUM, amount, cn_int, count_value
from kb.understand.people import PEOPLE_EN, PEOPLE_ZH, REQUESTS_ZH
from kb.understand.query import Query
from kb.words.note import note

_WIDTH = str.maketrans({"×": "x", "＊": "*", "￥": "¥", "＄": "$", "：": ":", "，": ",", "（": "(", "）": ")"})


class Text:
    """The question, lower-cased, with spans blanked out as they are consumed."""

    def __init__(self, question: str) -> None:
        self.original = unicodedata.normalize("NFKC", question).translate(_WIDTH)
        self.s = self.original.lower()

    def written(self, m: re.Match[str]) -> str:
        """A match as the user wrote it (case kept), where lower-casing kept the offsets."""
        text = self.original[m.start(): m.end()] if len(self.original) == len(self.s) else m.group(0)
        return re.sub(r"\s+", " ", text).strip()

    def span(self, start: int, end: int) -> str:
        """Text as the user wrote it (case kept), where lower-casing kept the offsets."""
        text = self.original[start:end] if len(self.original) == len(self.s) else self.s[start:end]
        return re.sub(r"\s+", " ", text).strip()

    def blank(self, start: int, end: int) -> None:
        self.s = self.s[:start] + " " * (end - start) + self.s[end:]

    def take(self, pattern: str | re.Pattern[str]) -> list[re.Match[str]]:
        found = list(re.finditer(pattern, self.s))
        for m in reversed(found):
            self.s = self.s[: m.start()] + " " * (m.end() - m.start()) + self.s[m.end():]
        return found

    def has(self, pattern: str) -> bool:
        return re.search(pattern, self.s) is not None


_CURRENCY_CN = r"(?:元|块钱|块|rmb|cny|人民币|yuan|renminbi)"
_CURRENCY_US = r"(?:usd|us\$|dollars?|美元|美金|刀)"
_SCALE = r"(?:万亿|千亿|亿|万|千|w(?![a-z])|k|m\b|mn|million|thousand)"
# An amount of money said in Chinese numerals ("二十万", "一百八十万", "三百五十万"): digits and 十/百/千 only.
_CN_AMOUNT = r"[零〇一二两三四五六七八九十百千]+"
_MONEY = rf"(?:{NUM}|{_CN_AMOUNT})"


_LEAST_BUDGET = 1000.0  # CNY: less buys no GPU, so a smaller "N块" is a count of cards
# "一万二", "两万五", "1万5", "1w5": one digit right after 万 counts thousands (after 千, hundreds).
_TAIL = re.compile(r"([一二两三四五六七八九]|[1-9])(?![0-9a-z.〇零一二两三四五六七八九十百千万亿])")
_TAIL_UNIT = {"万": 1000.0, "w": 1000.0, "千": 100.0}


def _tail(t: Text, end: int, scale: str | None) -> tuple[float, int]:
    """The digit said after a 万 / 千 ending at `end` (its value, and where the amount now ends)."""
    unit = _TAIL_UNIT.get((scale or "").strip())
    m = _TAIL.match(t.s, end) if unit else None
    if m is None or unit is None:
        return 0.0, end
    digit = int(m.group(1)) if m.group(1).isdigit() else cn_int(m.group(1)) or 0
    return digit * unit, m.end()


def bare_budget(t: Text, q: Query) -> None:
    """'三百五十万 训练推理都要做 怎么配卡': an amount in 万 with no currency, in a question asking what to buy."""
    if q.budget_cny is not None or not q.wants_selection:
        return
    for m in t.take(rf"({_MONEY})\s*(万|w(?![a-z]))(?!\s*(?:亿|token|tokens|参数|用户|并发|条|次|小时|张|块))"):
        extra, end = _tail(t, m.end(), m.group(2))
        q.budget_cny = amount(m.group(1), m.group(2)) + extra
        t.blank(m.start(), end)


def energy_price(t: Text, q: Query, usd_cny: float = 7.2) -> None:
    """'at 1 cny/kwh', '电价 0.6 元/度', '$0.12/kWh': the electricity price a power bill is asked at (in CNY), not a
    budget."""
    for m in t.take(rf"(?:电价|电费)?\s*((?:us)?\$)?\s*"  # ("五毛一度")
                    rf"({NUM}|[一二两三五]|[零〇]?点[一二三四五六七八九]+|五毛|一块)\s*"
                    rf"(?:{_CURRENCY_CN}|({_CURRENCY_US}))?\s*(?:/|每|per|一)\s*(?:kwh|kw·h|kw h|度|千瓦时)"):
        usd = bool(m.group(1) or m.group(3))
        q.energy_cny_per_kwh = _kwh_price(m.group(2)) * (usd_cny if usd else 1.0)
        if usd:
            q.notes.append(note("energy_usd", usd=_kwh_price(m.group(2)), rate=usd_cny, cny=q.energy_cny_per_kwh))


def budget(t: Text, q: Query, usd_cny: float) -> None:
    for m in t.take(rf"(?:us)?\$\s*({NUM})\s*({_SCALE})?|({NUM})\s*({_SCALE})?\s*{_CURRENCY_US}"):
        num, scale = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        usd = amount(num, scale)
        q.budget_cny = usd * usd_cny
        q.notes.append(note("budget_usd", usd=usd, rate=usd_cny, cny=q.budget_cny))
    # "50 to 100万", "50-100万元": a range; what may be spent is its top
    for m in t.take(rf"(?:预算|budget(?: of)?)?\s*({NUM})\s*(?:to|-|~|到|至)\s*({NUM})\s*({_SCALE})\s*"
                    rf"(?:{_CURRENCY_CN})?(?:的)?\s*(?:预算|budget)?"):
        q.budget_cny = amount(m.group(2), m.group(3))
    for m in re.finditer(rf"¥\s*({NUM})\s*({_SCALE})?|(?<!per )({NUM})\s*({_SCALE})?\s*{_CURRENCY_CN}"
                         rf"|(?<!每)({_CN_AMOUNT})\s*({_SCALE})?\s*(?:元|rmb|cny|人民币|(?<=[万千])块)"
                         rf"|(?:预算|budget(?: of)?|花)\s*(?:是|为|有|大概|约|:)?\s*({_MONEY})\s*({_SCALE})?"
                         rf"|({_MONEY})\s*({_SCALE})\s*(?:的)?(?:预算|budget)"
                         # "一台六千以内": a price ceiling in thousands or ten-thousands, said as "within"
                         rf"|(?<!上下文)({_MONEY})\s*(千|万|w)\s*(?:元|块)?\s*(?:以内|以下|之内|封顶)", t.s):
        i = next(i for i in (1, 3, 5, 7, 9, 11) if m.group(i))
        value = amount(m.group(i), m.group(i + 1))
        if m.group(0).endswith("块") and value < _LEAST_BUDGET:
            continue  # "2块4090" is two cards (块 counts them), not two yuan
        ends_at_scale = m.group(i + 1) is not None and m.end(i + 1) == m.end()  # "预算1万5", not "1万元"
        extra, end = _tail(t, m.end(), m.group(i + 1)) if ends_at_scale else (0.0, m.end())
        q.budget_cny = value + extra
        t.blank(m.start(), end)
    if q.budget_cny is not None:
        q.wants_selection = True


def tokens(t: Text, q: Query) -> None:
    unit = r"(?:万亿|千亿|亿|万|trillion|billion|million|t|b|m|k)"
    for m in t.take(rf"({NUM})\s*({unit})?(?:-|\s*)(?:个)?\s*(?:training\s+)?(?:tokens?|词元)(?!s?\s*/\s*s)"):
        value = amount(m.group(1), m.group(2))
        if value >= 1e7:
            q.tokens = value
        elif value >= 16:
            q.seq_len = int(value * (1.024 if m.group(2) == "k" else 1))  # "32k tokens" is 32768


def each(t: Text, q: Query) -> None:
    """'并发 8 个，每个 8k', 'each 8k tokens': the context of every sequence."""
    per = r"(?:user|person|head|request|sequence|seq|chat|conversation|session|prompt|query)"
    for m in t.take(rf"(?:每个|每路|每条|每人|每次|单个|单条|each|per {per})\s*(?:用户|请求|对话|会话)?\s*(?:的)?\s*"
                    rf"(?:上下文|context|ctx)?\s*({NUM})\s*(k)\b(?:\s*(?:tokens?|上下文|context|ctx))?"):
        q.seq_len = int(float(m.group(1).replace(",", "")) * 1024)
    for m in t.take(rf"({NUM})\s*k\s*(?:tokens?\s*|context\s*|ctx\s*)?(?:each|apiece|per {per}|a {per})"):
        q.seq_len = int(float(m.group(1).replace(",", "")) * 1024)


def denied(t: Text) -> None:
    """'不是 int8，是 fp16', 'not int8 but fp16': what the asker rules out is not read."""
    t.take(r"(?:不是|并非|\bnot\b|\bisn't\b)\s*[^,，;；。]{1,24}?(?=\s*[,，;；]?\s*(?:而是|是|\bbut\b|\bit'?s\b|rather))")
    # "是两张 a800 不是 4070ti", "the h100, not the a100": a denial said after what is meant
    t.take(r"(?<=\S)\s*[,，]?\s*(?:而?(?<!是)不是|instead of|rather than|\bnot the)\s*(?:the\s+)?"  # one name,
           r"(?:[\d一两二三四五六七八]+\s*(?:张|块|x)?\s*)?[^,，;；。?？\s]{1,16}\s*[?？。.!！]*$")  # at the end


def context(t: Text, q: Query) -> None:
    word = (r"(?:context(?:\s+length|\s+window)?|上下文(?:长度)?|(?:序列|会话|对话|请求|prompt)长度|"
            r"seq(?:uence)?[\s_-]*len(?:gth)?|ctx"
            r"|max[\s_-]*len)")
    before = rf"(?:{word}|(?<![a-z])seq(?![a-z]))"  # "seq 2048" (a bare "seq" only before its number: "8 seqs")
    about = r"(?:大概|大约|约|差不多|around|about|roughly|~)?\s*"
    zh = r"[一二两三四五六七八九十百千万]+(?=\s*(?:左右|个?\s*token|字|$|\W))"  # "上下文大概八千左右"
    # (a number before the word is a context when it has a k or three digits: "并发 12 上下文 8k" is 12 users)
    before_word = r"(?<![A-Za-z\d.])(?:\d{3,}(?:,\d{3})*|\d+(?:\.\d+)?(?=\s*k))"
    # ("64k长上下文": a long context said with its length first; "上下文 4个并发" is four sequences, not a context)
    for m in t.take(rf"({before_word})\s*(k)?[\s-]*(?:tokens?[\s-]*)?(?:的)?\s*(?:长|long\s*)?{word}"
                    rf"|{before}\s*(?:of|为|是|=|:|is|was|(?:拉|提|加|开|改|扩|增加|提高|调|降|缩|减|砍)到|设[为成]|改[为成]|"
                    rf"换成|变成|各|都是|到|"
                    rf"(?:up|bumped|raised|goes|went|grows|grew|is|gets|increased|set) to|to)?\s*{about}({NUM}|{zh})"
                    rf"(?:\s*(k)|(?![\d.])(?!\s*(?:个|路|条|名|位)?\s*(?:并发|用户|人|请求|会话|对话|users?|requests?|"
                    rf"sequences?|seqs?|concurrent|chats?|sessions?|张|块|卡|gpus?|cards?)(?![a-z])))"):
        num, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if num[:1].isdigit():
            q.seq_len = int(float(num.replace(",", "")) * (1024 if k else 1))
        elif value := cn_int(num.removesuffix("万")):  # "上下文大概八千左右", "上下文三万二"
            q.seq_len = value * (10_000 if num.endswith("万") else 1)


def counted_sequences(t: Text, q: Query) -> None:
    """"32 个 8k 请求", "20 parallel 64k-context requests": a count of sequences, each of a context length (run
    before the context reader, which would otherwise take the "64k-context" and leave the 20 unread)."""
    # ("20 parallel 64k-context requests": the count, a word for at once, then each one's context)
    for m in t.take(rf"({NUM})\s*(?:个|路|条|x)?\s*(?:(?:parallel|concurrent|simultaneous)\s+|并行\s*)?({NUM})\s*k\s*"
                    rf"(?:tokens?\s*)?(?:的|[-\s]?(?:context|ctx)(?:[-\s]length)?\s*)?\s*"
                    rf"(?:并发|concurrent|sequences?|requests?|会话|请求|对话|chats?|users?|用户)"
                    rf"|({NUM})\s*(?:concurrent\s*)?(?:users?|people|ppl|persons?|requests?|sequences?|seqs?|chats?)\s*"
                    rf"(?:at|of|with|w/|@|x|\*|on)\s*(?:a\s*)?({NUM})\s*k"
                    rf"(?:\s*(?:tokens?|context))*"):
        n, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        q.concurrency = int(float(n.replace(",", "")))
        q.seq_len = int(float(k.replace(",", "")) * 1024)


def bare_context(t: Text, q: Query) -> None:
    """"serving a 7B at 8k" / "@32k": a context said with no word for it, once nothing else has read it (run
    after the batch reader, so "100 users at 8k" stays 100 sequences of 8k)."""
    if q.seq_len is not None:
        return
    for m in t.take(rf"({NUM})\s*k\s*(?:-?\s*(?:token|context|ctx)\s*)?(?:的\s*)?"
                    rf"(?:chats?|conversations?|requests?|sequences?"
                    rf"|seqs?|sessions?|prompts?|windows?|对话|会话|请求)"):
        q.seq_len = int(float(m.group(1).replace(",", "")) * 1024)
    if q.seq_len is not None:
        return
    for m in t.take(rf"^\s*({NUM})\s*k\s*(?:tokens?|上下文|context|ctx)?\s*(?:呢|吗|的话|[?？.。!！])*\s*$"
                    rf"|(?:\bat|@)\s*({NUM})\s*k\b(?![\s-]*(?:tokens?\s*/|tok/|per\b|元|块|rmb|cny|usd|dollars?|\$))"
                    # "each session 16k", "每个会话 8k": the sequences' length said after them
                    rf"|(?:sessions?|chats?|conversations?|requests?|sequences?|seqs?|prompts?|streams?|对话|会话|请求|"
                    rf"每路|每个人?|每人|each(?: one)?)\s*(?:is|of|at|=|:|是|为|有)?\s*({NUM})\s*k\b"):
        q.seq_len = int(float(next(g for g in m.groups() if g).replace(",", "")) * 1024)
    if q.seq_len is None and (_ASKS_AT_ONCE.search(t.original.lower()) or q.concurrency):
        # "qwen2.5 14b int8 8k 一张卡 最多几路并发", "4个会话 32k": beside sequences at once, a lone 8k is their length
        for m in t.take(rf"(?<![0-9a-z.])({NUM})\s*k(?![a-z0-9])(?![\s-]*(?:tokens?\s*/|tok|per\b|元|块|rmb|cny|usd|"
                        rf"dollars?|\$|预算|budget))"):
            q.seq_len = int(float(m.group(1).replace(",", "")) * 1024)


# Sequences served at once asked: "几路并发", "how many sessions fit", "users at once".
_ASKS_AT_ONCE = re.compile(r"并发|几路|多少路|几个用户|多少用户|同时|concurren|sessions?|users?|chats?|streams?|seqs?|"
                           r"at once|in parallel")
# Who uses a deployment, counted: each is a sequence at once when kb sizes the KV cache ("50 个程序员用").
_PEOPLE_ZH = rf"(?:{PEOPLE_ZH}|{REQUESTS_ZH})"
_PEOPLE_EN = rf"(?:{PEOPLE_EN})\b"


def batch(t: Text, q: Query) -> None:
    # "最多多少并发 4k": the concurrency is asked, so the 4k after it is each sequence's context, not 4,000 users
    for m in t.take(rf"(?:多少|几|最多|最大|max(?:imum)?)\s*(?:个|路)?\s*(?:并发|concurren\w*)\s*(?:@|at|的)?\s*"
                    rf"({NUM})\s*k(?![a-z])"):
        q.seq_len = q.seq_len or int(float(m.group(1).replace(",", "")) * 1024)
    # "16 个 8k 并发", "32 concurrent 4k requests", "并发 4 个 8k": a count of sequences, each of a context length.
    for m in t.take(rf"(?:并发|concurrency)\s*(?:为|是|=|:)?\s*({NUM})\s*(?:个|路|条)\s*(?:的)?\s*({NUM})\s*k"
                    rf"(?![a-z])"):
        q.concurrency = int(float(m.group(1).replace(",", "")))
        q.seq_len = int(float(m.group(2).replace(",", "")) * 1024)
    for m in t.take(rf"({NUM})\s*(?:个|路)?\s*(?:并发|concurrent)\s*(?:的|at|of)?\s*({NUM})\s*k(?![a-z])"
                    rf"|({NUM})\s*路\s*(?:的|每路)?\s*({NUM})\s*k(?![a-z])"):  # "20路 8k"
        n, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        q.concurrency = int(float(n.replace(",", "")))
        q.seq_len = int(float(k.replace(",", "")) * 1024)
    # "20 个请求同时", "64 requests concurrently", "同时处理 12 个请求": requests counted as they run at once.
    together = r"(?:同时|并行|并发|concurrently|at once|at (?:the same|one) time|simultaneously|in parallel)"
    n_ = rf"(?:{NUM}|{EN_COUNT})"  # "thirty concurrent sessions"
    for m in t.take(rf"({n_})\s*(?:个|路|条)?\s*(?:concurrent\s+)?(?:请求|会话|对话|requests?|queries|sessions?|chats?"
                    rf"|conversations?|users?|用户)\s*(?:的)?\s*{together}"
                    rf"|{together}\s*(?:处理|服务|跑|进行|handling|serving|running)?\s*({NUM}|{CN_NUMERAL})\s*(?:个|路|条)\s*"
                    rf"(?:请求|会话|对话|用户)"
                    rf"|({n_})\s*(?:concurrent\s+)?(?:chats|conversations|sessions)"
                    rf"(?!\s*(?:/|per\b|a (?:day|second|minute|hour)|每))"):
        q.concurrency = int(count_value(m.group(1) or m.group(2) or m.group(3)) or 0) or None
    # a count said as running at once ("25 concurrent sessions") is the load; a head count said beside it ("~80 users
    # internally", "~300 users total") is who may use it, and does not replace it
    at_once = q.concurrency is not None
    to = r"(?:降|减|加|增加|提高|提升|恢复|改|变|调)?(?:到|为|成)"  # "并发降到 24", "并发恢复到 24 个"
    for m in t.take(rf"(?:并发(?:数|量)?|concurrency(?: of)?|(?:用户|人)数?\s*(?={to}))\s*(?:为|是|=|:|{to})?\s*"
                    rf"({NUM})\s*(?:万|k)?"
                    rf"|({NUM})\s*(?:万|k)?\s*(?:路|个|名)?\s*(?:并发|concurrent)\s*(?:的)?\s*(?:users?|用户|请求|requests?)?"
                    rf"|({NUM})\s*(?:个|名|位)?\s*(?:同时在线的?\s*)?(?:users|用户|seqs?|sequences|people|ppl|persons)"
                    rf"|({NUM})\s*路(?!由|径|线|上)"
                    rf"|({NUM}|{CN_NUMERAL})\s*(?:来|多|余)?\s*(?:个|名|位)\s*(?:人(?![工民])|{_PEOPLE_ZH})"
                    rf"|({NUM}|{CN_NUMERAL})\s*人\s*(?=用|使用|同时|在线|并发|访问)|给\s*({NUM}|{CN_NUMERAL})\s*人"
                    rf"|({EN_COUNT})\s+(?:concurrent\s+)?(?:users|people|seqs|sequences)"
                    rf"|({NUM}|{EN_COUNT})\s+(?:concurrent\s+)?{_PEOPLE_EN}"
                    rf"|(?:for|to) (?:the |all )?({NUM}|{EN_COUNT}) of us"):
        text = m.group(0)
        if at_once and not re.search(r"并发|同时|在线|concurren|simultan", text):
            continue
        n = count_value(next(g for g in m.groups() if g)) or 0.0
        n *= 1e4 if "万" in text else 1e3 if re.search(r"\dk", text) else 1
        q.concurrency = int(n)
    # "just me on it", "就我自己用": one user
    if t.take(r"(?<![a-z])(?:just|only) (?:me|myself)(?![a-z])|single[\s-]user|一个人用|就我(?:一个人?|自己)|"
              r"只有我(?:自己)?用?|我自己(?:一个人)?用"):
        q.concurrency = q.concurrency or 1
    for m in t.take(rf"(?:batch(?:[\s_-]*size)?|批量(?:大小)?|批大小|bs)\s*(?:of|为|是|=|:)?\s*({NUM})"):
        q.batch = int(float(m.group(1).replace(",", "")))


def _kwh_price(said: str) -> float:
    """'0.6', '一', '一块', '五毛', '零点八': an electricity price in CNY, as people say it."""
    if said[0].isdigit():
        return float(said.replace(",", ""))
    if said == "五毛":
        return 0.5
    if "点" in said:
        return float("0." + "".join(str(CN_DIGITS[c]) for c in said.split("点")[1]))
    return float(cn_int(said.removesuffix("块")) or 0)
