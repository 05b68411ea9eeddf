"""Which language a question is in: it decides the labels kb answers with."""

import re

_CJK = re.compile(r"[\u4e00-\u9fff]")


def detect_language(text: str) -> str:
    """'zh' when the question has any Chinese character, else 'en'.

    One Han character is enough: mixed questions ("4090 的 VRAM") are asked by Chinese readers.
    """
    return "zh" if _CJK.search(text) else "en"
