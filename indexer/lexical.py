"""The lexical terms: jieba terms for Chinese, plain lower-cased terms for Latin text, stop words dropped.

Chunks are cut once (indexer/build.py caches the terms by text; a team's document stores them beside
it); the postings are indexer/postings.py, BM25 over them is kb/retrieve/lexical.py. Queries are cut by the same
rules (`keep_terms`) with a jieba tokenizer over the index's own vocabulary.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_KEEP = re.compile(r"[0-9a-z\u4e00-\u9fff][0-9a-z.\-+\u4e00-\u9fff]*")
_ZH_STOP = (
    "的 了 和 是 在 与 及 或 等 中 也 都 而 对 为 以 将 把 被 这 那 这些 那些 一个 可以 能 会 有 "
    "吗 呢 吧 啊 什么 怎么 如何 哪些 哪 多少 是否 我 我们 你 您 他们 其 之 上 下"
)
_EN_STOP = (
    "a an the of to in on for and or is are was were be been what which how why who whom does do did can could "
    "should would will with by from at as it its this that these those than then i we you they my our your their "
    "me us much many"
)
STOPWORDS = frozenset(_ZH_STOP.split()) | frozenset(_EN_STOP.split())


def load_jieba() -> Any:
    """jieba, quiet (its dictionary loads on first use)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)  # its "Building prefix dict" lines are noise on stderr
    return jieba


def keep_terms(pieces: Any) -> list[str]:
    """The pieces a tokenizer cut that are terms: lower-cased, not stop words, words or numbers."""
    out = []
    for piece in pieces:
        term = piece.strip().lower()
        if term and term not in STOPWORDS and _KEEP.fullmatch(term):
            out.append(term)
    return out


def tokenizer_version() -> str:
    """What decides index-time tokens: jieba's version and this module's code (stopwords, the term pattern)."""
    import hashlib
    from importlib import metadata

    try:
        jieba_version = metadata.version("jieba")
    except metadata.PackageNotFoundError:
        jieba_version = "unknown"
    return f"jieba {jieba_version} {hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]}"


def lexical_text(heading: str, text: str, heading_en: str, text_en: str, aliases: Sequence[str] = ()) -> str:
    """What BM25 indexes for a chunk: its headings and text in both languages, and the names its record goes by
    (a concept record's aliases on its definition: "TP", "张量并行" find the part that says what the term is)."""
    names = "\n".join(aliases)
    return f"{heading}\n{text}\n{heading_en}\n{text_en}" + (f"\n{names}" if names else "")


def tokenize_corpus(text: str) -> list[str]:
    """Index-time terms: jieba's search mode (words and their sub-words), Latin words lower-cased."""
    return keep_terms(load_jieba().cut_for_search(text.lower(), HMM=True))


def save_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
