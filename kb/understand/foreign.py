"""Words the guide never uses: a question made mostly of them is about something else.

Lists of other fields ("games", "taxes", "cooking") never end; what the guide is about is finite and known —
its own text. A question that asks no quantity kb computes, names no model, and whose content words (once the
cards, numbers and the words people chat with are set aside) are mostly absent from the guide and its records
("买了张4070ti 快递盒压坏了 怎么找快递理赔", "will an rtx 4070 fit in a fractal north case") is outside it.

A Chinese character counts as the guide's when a two-character piece around it occurs in the corpus text
(no dictionary: jieba's would cost a cold `kb ask` 0.6 s); an English word when it, or its stem, occurs there.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words people chat with that a guide written as prose rarely holds: asking, pointing, money and size words,
# pronouns and particles. Not topics: nothing here says what a question is about.
_CHAT_ZH = _words(
    "为啥 为什么 咋 啥 跟 和 与 哪个 哪张 哪 够不够 够 行不行 行 吗 呢 吧 啊 呀 嘛 么 了 的 得 地 着 过 想 要 能 会 "
    "可以 怎么 怎样 怎么样 什么 多少 几 请问 一下 大概 到底 差 还是 还 都 也 就 才 又 再 很 太 更 最 有 没 不 是 在 "
    "我 你 他 她 它 们 这 那 个 些 上 下 里 给 让 用 把 被 做 搞 弄 写 说 看 出 放 塞 装 撑 扛 住 稳 占 吃 买 选 配 搭 "
    "钱 块 贵 便宜 快 慢 好 高 低 大 小 多 少 剩 省 花 谁 时候 什么时候 总结 老板 问 张 台 卡 人 各 分别 一样 样 对 "
    "错 比 家 手 头 现在 今年 明年 去年 听说 知道 觉得 感觉 一般 其实 反而 而 按 从 到 后 前 成 加 减 共 一共 总共 每 "
    "一 两 二 三 四 五 六 七 八 九 十 百 千 万 亿 次 久 多久 秒 分钟 小时 天 周 月 年 时间 些许 点")
_CHAT_EN = _words(
    "ctx seqs seq tok toks ppl vram mem gpu gpus card cards ok okay hey hi quick pls please thanks thx enuf gonna "
    "wanna doable fits fit each per max min minimum maximum isn't doesn't don't can't won't aren't wasn't what's "
    "whats it's that's there's i'm we're i've we've they're actually really basically anything something thing "
    "things stuff guys folks boss team like just also still now know think want need got get much many way one "
    "two three four five six seven eight nine ten hundred thousand")
_EN_STOP = _words(
    "a an the of to in on for and or is are was were be been what which how why who whom does do did can could "
    "should would will with by from at as it its this that these those than then i we you they my our your their "
    "me us if so but not no any some all there here about into out up down over")
# Names set aside before judging: any word holding a digit ("4090", "a100", "70b", "80g") and the brand and
# series words around them.
_NAMES = re.compile(r"[a-z]*\d[\w.-]*|nvidia|英伟达|geforce|(?<![a-z])(?:rtx|gtx|amd|radeon|intel|ti|super|sxm|"
                    r"pcie)(?![a-z])")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[a-z][a-z'-]{2,}")


@dataclass(frozen=True)
class Residue:
    """A question's content once names and chat words are set aside: the pieces the guide has and has not."""

    seen: tuple[str, ...]
    unseen: tuple[str, ...]

    @property
    def foreign(self) -> bool:
        """Mostly words the guide never uses: two pieces or more, and no fewer than those it does use."""
        return len(self.unseen) >= 2 and len(self.unseen) >= len(self.seen)


class Vocabulary:
    """The corpus's words (English) and two-character pieces (Chinese), from its chunks' texts."""

    def __init__(self, texts: Iterable[str]) -> None:
        words: set[str] = set()
        pairs: set[str] = set()
        for text in texts:
            t = unicodedata.normalize("NFKC", text).lower()
            words.update(re.findall(r"[a-z][a-z'-]+", t))
            for run in _CJK.findall(t):
                pairs.update(run[i:i + 2] for i in range(len(run) - 1))
        self._words = frozenset(words)
        self._pairs = frozenset(pairs)

    def _has_word(self, w: str) -> bool:
        stems = (w, w[:-1] if w.endswith("s") else "", w[:-2] if w.endswith(("es", "ed")) else "",
                 w[:-3] if w.endswith("ing") else "")
        return any(len(s) >= 3 and any(s + end in self._words for end in ("", "e", "s", "ing", "ed"))
                   for s in stems)

    def residue(self, question: str) -> Residue:
        s = _NAMES.sub(" ", unicodedata.normalize("NFKC", question).lower())
        seen: list[str] = []
        unseen: list[str] = []
        for w in _LATIN.findall(s):
            if w not in _EN_STOP and w not in _CHAT_EN:
                (seen if self._has_word(w) else unseen).append(w)
        for run in _CJK.findall(s):
            self._chinese(run, seen, unseen)
        return Residue(tuple(seen), tuple(unseen))

    def _chinese(self, run: str, seen: list[str], unseen: list[str]) -> None:
        """Chat words first (longest first), then each remaining character by the corpus pieces around it; a
        run of characters counts once either way ("快递盒压坏" is one thing the guide lacks, not five)."""
        state: list[bool | None] = [False] * len(run)  # None: a chat word; True: the guide's; False: neither
        i = 0
        while i < len(run):
            size = next((n for n in range(min(4, len(run) - i), 0, -1) if run[i:i + n] in _CHAT_ZH), 0)
            for j in range(i, i + size):
                state[j] = None
            i += size or 1
        for i in range(len(run) - 1):
            if state[i] is not None and state[i + 1] is not None and run[i:i + 2] in self._pairs:
                state[i] = state[i + 1] = True
        for st, piece in _runs(run, state):
            if st is not None:
                (seen if st else unseen).append(piece)


def _runs(text: str, states: list[bool | None]) -> list[tuple[bool | None, str]]:
    """Consecutive characters of the same state, as (state, piece)."""
    out: list[tuple[bool | None, str]] = []
    for c, st in zip(text, states, strict=True):
        if out and out[-1][0] == st:
            out[-1] = (st, out[-1][1] + c)
        else:
            out.append((st, c))
    return out
