"""Which language a question is in, and the one check of a language name: it decides the words kb answers with.

kb speaks Chinese and English. A language from outside (a request's field, a setting, a state passed back)
is checked here, once, and refused when it is neither; every words table is read with a checked language,
so nothing falls back to English silently.
"""

import re
from typing import Literal, cast

from kb.errors import BadInput

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")

_CJK = re.compile(r"[\u4e00-\u9fff]")


_AMOUNT_UNIT = re.compile(r"(?<=\d)\s*(?:万亿|千亿|亿|万|千)?\s*(?:元|块钱|块)?")


def detect_language(text: str) -> Language:
    """'zh' when the question has any Chinese character, else 'en'.

    One Han character is enough: mixed questions ("4090 的 VRAM") are asked by Chinese readers. A unit glued to
    a number ("budget 3万", "50万元") is not: it is how amounts are written in an English question too.
    """
    return "zh" if _CJK.search(_AMOUNT_UNIT.sub(" ", text)) else "en"


def check_language(language: str) -> Language:
    """The language, or BadInput (field 'language') when it is neither 'zh' nor 'en'."""
    if language not in LANGUAGES:
        raise BadInput(f"language {language!r} is not accepted; accepted: {', '.join(LANGUAGES)}", field="language")
    return cast(Language, language)


# Words a turn of either language uses as they are: formats, methods, families, card words.
_NEUTRAL_WORDS = ("qlora lora int fp bf awq gptq gguf gpu gpus vram tp pp moe kv ctx ok sxm pcie nvlink rtx ti super "
                  "llama qwen mistral mixtral gemma deepseek phi yi glm nvidia amd zero fsdp deepspeed vllm tensorrt "
                  "llm tok tokens")
_NEUTRAL = frozenset(_NEUTRAL_WORDS.split())
_WORD = re.compile(r"[a-z]{2,}")


def turn_language(text: str, conversation: Language | None) -> Language:
    """A conversation's turn with no Chinese and no English word of its own ("qlora", "int4?", "h200") is in the
    conversation's language; any other turn in its own."""
    own = detect_language(text)
    if conversation is None or own == "zh":
        return own
    words = [w for w in _WORD.findall(text.lower()) if w not in _NEUTRAL]
    return own if words else conversation
