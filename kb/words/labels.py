"""Labels of the terminal rendering and the notes shown beside passages, in Chinese and English."""

from __future__ import annotations

TERMINAL = {
    "zh": {"answer": "回答", "passages": "引用段落", "section": "章节", "lines": "行", "note": "注",
           "fit": "适配检查", "selection": "选型排序", "none": "（没有找到相关段落）", "unknown": "kb 没有记录",
           "original": "原文"},
    "en": {"answer": "Answer", "passages": "Passages", "section": "section", "lines": "lines", "note": "Note",
           "fit": "Fit checks", "selection": "Ranked configurations", "none": "(no passages found)",
           "unknown": "kb has no record for", "original": "original"},
}

NOTES = {
    "missing_table": {
        "zh": "原文此处提到的对比表格并未包含在文档中。",
        "en": "The document refers to a comparison table here that it does not contain.",
    },
    "table_link": {
        "zh": "kb 根据规格记录计算的对比表：{id}。",
        "en": "kb's table computed from the spec records: {id}.",
    },
    "table_none": {
        "zh": "kb 没有可替代它的计算表：原文未给出所需数据。",
        "en": "kb has no computed table for it: the document gives no data to build one from.",
    },
    "cited_extra": {
        "zh": "不在检索结果的前列：回答引用了它，因此附上。",
        "en": "Not among the top results: added because the answer cites it.",
    },
    "no_english": {
        "zh": "",
        "en": "kb has no English rendering of this passage yet: the text is the Chinese original.",
    },
}


def terminal(language: str) -> dict[str, str]:
    return TERMINAL["zh" if language == "zh" else "en"]


def note(key: str, language: str, **values: str) -> str:
    return NOTES[key]["zh" if language == "zh" else "en"].format(**values)
